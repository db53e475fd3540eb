"""A long list says how many more items it leaves out, in words, not "(+673)" (R80)."""

from __future__ import annotations

from tests.workers.conftest import Backend, pointer_header

TASKS = 60
"""Ten more than a reply lists (50)."""
NOTE = "# Many\n" + "".join(f"- [ ] task {n}\n" for n in range(TASKS))


def test_r80_a_long_list_ends_with_how_many_more_in_the_asks_language(backend: Backend) -> None:
    key = backend.key()
    saved = backend.client.put(
        "/v1/workspaces/demo/documents/notes/many.md",
        content=NOTE.encode(),
        headers=backend.headers(key),
    )
    assert saved.status_code in (200, 201), saved.text
    ambient = pointer_header("notes/many.md", NOTE)
    english = backend.turn("what are my open tasks?", key=key, ambient=ambient)["reply"]
    assert english.rstrip().endswith("- … and 10 more") and "(+" not in english
    french = backend.turn("quelles sont mes tâches ouvertes ?", key=key, ambient=ambient)["reply"]
    assert french.rstrip().endswith("- … et 10 de plus")
