"""The fixed names of the contract, written out: a rename in bridge/ fails here (contract.md)."""

from __future__ import annotations

from bridge.caveat import CAVEAT
from bridge.drops import DROP_MESSAGES, DROP_REASONS
from bridge.environment import DATABASE_URL_ENV, DEVICE_TOKEN_ENV, DEVICE_TOKEN_FILE
from bridge.frames import ASSISTANT_FRAME_ID
from bridge.headers import HEADER_NAME, KEY_SESSION_HEADER
from bridge.paths import is_workspace_id
from bridge.views import view_names


def test_header_environment_and_frame_names_are_the_contracts() -> None:
    assert (HEADER_NAME, KEY_SESSION_HEADER) == ("X-Ambient-Note", "X-Key-Session")
    assert (DEVICE_TOKEN_ENV, DATABASE_URL_ENV) == ("AMBIENT_DEVICE_TOKEN", "AMBIENT_DATABASE_URL")
    assert DEVICE_TOKEN_FILE == "device-token"
    assert ASSISTANT_FRAME_ID == "assistant"


def test_views_and_drop_reasons_are_their_literals_in_order() -> None:
    assert view_names() == ("edit", "preview", "todo", "mindmap")
    assert DROP_REASONS == (
        "no-inbox",
        "oversize",
        "discarded",
        "excluded",
        "invalid",
        "loading",
        "private",
    )
    assert set(DROP_MESSAGES) == set(DROP_REASONS)
    assert "2,048 bytes" in DROP_MESSAGES["oversize"]


def test_the_r25_caveat_is_byte_exact() -> None:
    assert CAVEAT == (
        "The saved copy is behind what the user has on screen — their most recent "
        "keystrokes may be missing from the text above."
    )


def test_workspace_ids_start_with_a_letter_or_digit_and_stop_at_64() -> None:
    assert is_workspace_id("demo") and is_workspace_id("a" * 64) and is_workspace_id("9.x_y-z")
    assert not is_workspace_id("a" * 65)
    assert not any(is_workspace_id(bad) for bad in ("", ".hidden", "-x", "a/b", "a b", "ü"))
