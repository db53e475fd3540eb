"""R83 (issue 41): the fifteen everyday asks about the demo's ``inbox/today.md``.

The backend runs on loopback (``EmbeddedServer``) over the demo workspace as the
app installs it (:func:`app.workspace.demo.install_demo_workspace`); each ask is a real
``POST /v1/agent/turns`` with the note's pointer, and each edit's proposal is applied
to the saved copy here. Six of these asks got a wrong answer before (a listing for
an edit, a refusal for a question the note answers, a heading counted as a date, a
selection printed back).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests

from app.workspace.demo import DEMO_WORKSPACE, install_demo_workspace
from bridge.proposals import apply_edits
from bridge.wire import Proposal
from tests.workers.conftest import pointer_header
from workers.server import EmbeddedServer
from workers.settings import WORKSPACES_FOLDER, Settings

NOTE = "inbox/today.md"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[EmbeddedServer, str, str]]:
    data = tmp_path_factory.mktemp("fifteen")
    root = install_demo_workspace(data / WORKSPACES_FOLDER)
    text = (root / NOTE).read_text(encoding="utf-8")
    with EmbeddedServer(Settings(data_dir=data)) as server:
        key = requests.post(
            f"{server.url}/v1/key-sessions",
            json={"workspace": DEMO_WORKSPACE},
            headers={"Authorization": f"Bearer {server.device_token}"},
            timeout=30,
        ).json()["key"]
        yield server, key, text


def ask(demo: tuple[EmbeddedServer, str, str], message: str, **pointer: Any) -> dict[str, Any]:
    server, key, text = demo
    response = requests.post(
        f"{server.url}/v1/agent/turns",
        json={"conversation": f"fifteen-{abs(hash(message))}", "message": message},
        headers={
            "Authorization": f"Bearer {server.device_token}",
            "X-Key-Session": key,
            "X-Ambient-Note": pointer_header(NOTE, text, **pointer),
        },
        timeout=60,
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def applied(demo: tuple[EmbeddedServer, str, str], reply: dict[str, Any]) -> str:
    text = demo[2]
    (raw,) = reply["proposals"]
    proposal = Proposal.model_validate(raw)
    assert proposal.is_base(text)
    return apply_edits(text, proposal.edits)


def test_r83_summary_tasks_outline_find_and_deadlines(demo: Any) -> None:
    summary = ask(demo, "summarise this")["reply"]
    assert summary.startswith("**Today** (inbox/today.md") and "Open tasks: 4." in summary
    still_open = ask(demo, "what's still open here?")["reply"]
    assert "- Reply to Priya about the venue deposit" in still_open
    assert "Book the dentist" not in still_open
    headings = ask(demo, "what are the headings?")["reply"]
    assert "- Today\n  - Must do\n  - Could do\n  - Notes" in headings
    found = ask(demo, "where do I mention Priya?")["reply"]
    assert "7: - [ ] Reply to Priya about the venue deposit" in found
    deadlines = ask(demo, "any deadlines here?")["reply"]
    assert "8: - [x] Book the dentist for Thursday" in deadlines
    assert "1: # Today" not in deadlines


def test_r83_edits_in_everyday_words_propose_changes_that_apply(demo: Any) -> None:
    text = demo[2]
    ticked = applied(demo, ask(demo, "tick off the plants"))
    assert ticked == text.replace("- [ ] Water the plants", "- [x] Water the plants")
    # The second open task (the dentist is ticked already), as the other place asks count.
    second = applied(demo, ask(demo, "mark the second task done"))
    assert second == text.replace("- [ ] Review the launch", "- [x] Review the launch")
    renamed = applied(demo, ask(demo, "rename the heading to Plans"))
    assert renamed == text.replace("# Today\n", "# Plans\n", 1)  # the note's one title
    added = applied(demo, ask(demo, "add 'call mom' to my list"))
    assert added == text.replace("launch-plan.md\n", "launch-plan.md\n- [ ] call mom\n")


def test_r83_questions_are_answered_from_the_notes_own_lines(demo: Any) -> None:
    standup = "16: The standup moved to 9:30 from next week. Sam is out Friday."
    for question in ("what time is the standup?", "is Sam around on friday"):
        reply = ask(demo, question)
        assert reply["reply"] == f"From inbox/today.md:\n\n- {standup}"
    done = ask(demo, "what have I already done?")["reply"]
    assert done == "Ticked tasks in inbox/today.md:\n\n- Book the dentist for Thursday"
    dentist = ask(demo, "when is the dentist?")["reply"]
    assert "8: - [x] Book the dentist for Thursday" in dentist and "16:" not in dentist
    deadline = ask(demo, "締め切りはいつ？")["reply"]
    assert "# Today" not in deadline and "1:" not in deadline.replace("16:", "")
    assert "8: - [x] Book the dentist for Thursday" in deadline


def test_r83_a_selection_is_summarised_not_printed_back(demo: Any) -> None:
    text = demo[2]
    selection = {"anchor": text.index("## Must do"), "head": text.index("## Notes")}
    reply = ask(demo, "summarise this", selection=selection)["reply"]
    assert reply.startswith("Your selection in inbox/today.md (lines 6–14):")
    assert "Headings: 2. Tasks: 5 (4 open)." in reply
    assert "Words that stand out:" in reply and "deposit" in reply
    assert "- [ ]" not in reply and "Reply to Priya about the venue deposit" not in reply
