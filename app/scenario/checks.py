"""The expect keys about the ambient context: the latest send's pointer, row and reply,
and what "this note" and the frames are now. Each key is declared once, with its check.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator

from app.scenario.expectations import (
    NO_DROP,
    AmbientStatus,
    FrameExpectation,
    PointerExpectation,
    ResolvesExpectation,
    StoredExpectation,
    known_reason,
)
from app.scenario.registry import NOW, SEND, Checking, ExpectKey
from app.scenario.report import Mismatch
from bridge.caveat import CAVEAT
from renderer.frames.assistant.chip import chip_text
from renderer.frames.inbox.frame import InboxFrame

STORED_COLUMNS = ("ambient_path", "ambient_view", "ambient_meta")


def _check_pointer(against: Checking, expected: PointerExpectation | None) -> list[Mismatch]:
    send = against.send
    actual = send.pointer
    if expected is None:
        return [] if actual is None else [Mismatch("pointer", None, actual)]
    wanted = expected.expected()
    if actual is None:
        return [Mismatch("pointer", wanted, f"no header was sent (dropped: {send.dropped})")]
    return [
        Mismatch(f"pointer.{key}", value, actual.get(key))
        for key, value in wanted.items()
        if actual.get(key) != value
    ]


def _check_dropped(against: Checking, expected: str) -> list[Mismatch]:
    dropped = against.send.dropped
    actual = NO_DROP if dropped is None else dropped
    return [] if actual == expected else [Mismatch("dropped", expected, actual)]


def _check_stored(against: Checking, expected: StoredExpectation | None) -> list[Mismatch]:
    row = against.send.stored
    columns = None if row is None else {key: row.get(key) for key in STORED_COLUMNS}
    if expected is None:
        if columns is None or all(value is None for value in columns.values()):
            return []
        return [Mismatch("stored", None, columns)]
    wanted = expected.expected()
    if columns is None:
        return [Mismatch("stored", wanted, "no delivery row for this conversation")]
    mismatches: list[Mismatch] = []
    for key, value in wanted.items():
        actual = columns.get(key)
        if key == "ambient_meta" and isinstance(value, dict) and isinstance(actual, dict):
            for meta_key, meta_value in value.items():
                if actual.get(meta_key) != meta_value:
                    mismatches.append(
                        Mismatch(
                            f"stored.ambient_meta.{meta_key}", meta_value, actual.get(meta_key)
                        )
                    )
        elif actual != value:
            mismatches.append(Mismatch(f"stored.{key}", value, actual))
    return mismatches


def _check_tools(against: Checking, expected: list[str]) -> list[Mismatch]:
    tools = against.send.tools
    return [] if tools == expected else [Mismatch("tools", expected, tools)]


def _check_caveat(against: Checking, expected: bool) -> list[Mismatch]:
    caveats = against.send.caveats
    wrong_text = any(caveat != CAVEAT for caveat in caveats)
    if bool(caveats) != expected or (expected and wrong_text):
        return [Mismatch("caveat", CAVEAT if expected else None, caveats)]
    return []


def _check_partial(against: Checking, expected: bool) -> list[Mismatch]:
    partial = any(
        isinstance(result.get("result"), dict) and result["result"].get("partial") is True
        for result in against.send.tool_results
    )
    return [] if partial == expected else [Mismatch("partial", expected, partial)]


def _check_reply(against: Checking, expected: str) -> list[Mismatch]:
    reply = against.send.reply
    return [] if expected in (reply or "") else [Mismatch("replyContains", expected, reply)]


def _check_notice(against: Checking, expected: str) -> list[Mismatch]:
    notices = " ".join(against.send.notices)
    return [] if expected in notices else [Mismatch("noticeContains", expected, notices or None)]


def _check_status(against: Checking, expected: str) -> list[Mismatch]:
    status = against.send.ambient_status
    return [] if status == expected else [Mismatch("ambientStatus", expected, status)]


def _check_frames(against: Checking, expected: list[FrameExpectation]) -> list[Mismatch]:
    actual = [
        {"id": frame.frame_id, "path": frame.path, "view": frame.view}
        for frame in against.window.driver.note_frames_in_order()
        if isinstance(frame, InboxFrame)
    ]
    wanted = [item.expected() for item in expected]
    shown = [{key: frame[key] for key in keys} for frame, keys in zip(actual, wanted, strict=False)]
    if len(actual) != len(wanted) or shown != wanted:
        return [Mismatch("frames", wanted, actual)]
    return []


def _check_active(against: Checking, expected: str | None) -> list[Mismatch]:
    active = against.window.store.last_activated_frame
    return [] if active == expected else [Mismatch("activeFrame", expected, active)]


def _check_workspace(against: Checking, expected: str) -> list[Mismatch]:
    workspace = against.window.session.workspace
    return [] if workspace == expected else [Mismatch("workspace", expected, workspace)]


def _check_chip(against: Checking, expected: str | None) -> list[Mismatch]:
    """R48: the chip names the note, and the selection's lines, that a send would carry."""
    chip = against.window.assistant.context_chip
    if chip.location != expected:
        return [Mismatch("chip", expected, chip.location)]
    if expected is not None and expected not in chip.label.text():
        return [Mismatch("chip (its text)", expected, chip.label.text())]
    return []


def _check_resolves(against: Checking, expected: ResolvesExpectation | None) -> list[Mismatch]:
    window = against.window
    resolution = window.store.resolve()
    shown = window.assistant.chip.text()
    expected_text = chip_text(resolution, window.assistant.context_chip.lines)
    if not shown.startswith(expected_text):
        # The user reads "this note" off the chip: it must say what the store resolves.
        return [Mismatch("resolves (the chip)", expected_text, shown)]
    actual = (
        None
        if resolution is None
        else {"frameId": resolution.frame_id, "path": resolution.path, "view": resolution.view}
    )
    if expected is None:
        return [] if actual is None else [Mismatch("resolves", None, actual)]
    if actual is None:
        return [Mismatch("resolves", expected.expected(), None)]
    return [
        Mismatch(f"resolves.{key}", value, actual.get(key))
        for key, value in expected.expected().items()
        if actual.get(key) != value
    ]


EXPECT_KEYS: tuple[ExpectKey[Any], ...] = (
    ExpectKey(
        "pointer",
        PointerExpectation,
        SEND,
        _check_pointer,
        (
            (
                "`pointer: {…}`",
                "the `X-Ambient-Note` header was sent and, decoded, has these values. Only the "
                "keys you list are compared: `v`, `path`, `view`, `frameId`, `selection` "
                "(`{anchor, head}`, or `null` for no selection), `bytes`, `sha256`, `flushed`, "
                "`capturedAt`.",
            ),
            ("`pointer: null`", "no header was sent at all."),
        ),
        nullable=True,
    ),
    ExpectKey(
        "dropped",
        Annotated[str, AfterValidator(known_reason)],
        SEND,
        _check_dropped,
        (
            (
                "`dropped: REASON`",
                "why no header was sent: `no-inbox` (no Inbox frame), `oversize` (over 2,048 "
                "bytes, left out whole), `discarded` (the note or workspace changed during the "
                "send), `excluded` (context toggled off), `invalid` (the open note's path or "
                "frame id cannot be put in a pointer), `loading` (the note had not loaded "
                "within the send's 1.5 s); `none` means a header *was* sent.",
            ),
        ),
    ),
    ExpectKey(
        "stored",
        StoredExpectation,
        SEND,
        _check_stored,
        (
            (
                "`stored: {…}`",
                "the backend's delivery row for this conversation, read back from the backend, "
                "has these values: `ambient_path`, `ambient_view`, `ambient_meta` (itself "
                "compared key by key, e.g. `{flushed: false}`).",
            ),
            ("`stored: null`", "the ambient columns are empty (or there is no row)."),
        ),
        nullable=True,
    ),
    ExpectKey(
        "tools",
        list[str],
        SEND,
        _check_tools,
        (("`tools: [names]`", "the assistant called exactly these tools, in this order."),),
        needs_reply=True,
    ),
    ExpectKey(
        "caveat",
        bool,
        SEND,
        _check_caveat,
        (
            (
                "`caveat: true/false`",
                "a tool did (or did not) warn that the saved copy is behind the screen, with "
                "the exact sentence of R25.",
            ),
        ),
        needs_reply=True,
    ),
    ExpectKey(
        "partial",
        bool,
        SEND,
        _check_partial,
        (("`partial: true/false`", "a tool did (or did not) return only part of the note."),),
        needs_reply=True,
    ),
    ExpectKey(
        "replyContains",
        str,
        SEND,
        _check_reply,
        (
            (
                '`replyContains: "text"`',
                "the assistant's reply contains this text (exact, case-sensitive).",
            ),
        ),
        needs_reply=True,
    ),
    ExpectKey(
        "noticeContains",
        str,
        SEND,
        _check_notice,
        (
            (
                '`noticeContains: "text"`',
                "what the turn says beside the reply contains this text: why no note went with "
                "it, why it is about another note than the one popped out (R29), or that a "
                "popped-out note was read from its saved copy, which may be behind its window "
                "(R29, R25).",
            ),
        ),
    ),
    ExpectKey(
        "ambientStatus",
        AmbientStatus,
        SEND,
        _check_status,
        (
            (
                "`ambientStatus: S`",
                "what the backend said about the header: `stored`, `absent` or `rejected`.",
            ),
        ),
    ),
    ExpectKey(
        "resolves",
        ResolvesExpectation,
        NOW,
        _check_resolves,
        (
            (
                "`resolves: {frameId, path, view}`",
                'what "this note" means right now, as the assistant\'s context chip shows it; '
                "`resolves: null` means no note. Usable before any send.",
            ),
        ),
        nullable=True,
    ),
    ExpectKey(
        "frames",
        list[FrameExpectation],
        NOW,
        _check_frames,
        (
            (
                "`frames: [{id, path, view}, …]`",
                "the Inbox frames open now, top to bottom, exactly this many; in each only the "
                "keys you give are compared. `frames: []` means none.",
            ),
        ),
    ),
    ExpectKey(
        "activeFrame",
        str,
        NOW,
        _check_active,
        (
            (
                "`activeFrame: ID`",
                "the frame last activated (`assistant` for the assistant); `null` means none "
                "since the last workspace boundary.",
            ),
        ),
        nullable=True,
    ),
    ExpectKey(
        "workspace",
        str,
        NOW,
        _check_workspace,
        (("`workspace: NAME`", "the workspace open now."),),
    ),
    ExpectKey(
        "chip",
        str,
        NOW,
        _check_chip,
        (
            (
                '`chip: "notes/a.md:3–7"`',
                "the context chip names this note, with the lines of the selection after a "
                "colon when there is one (`notes/a.md:3` for one line, 1-based, en dash); just "
                "the path without a selection or outside the edit view; `chip: null` means no "
                "note is open (R48).",
            ),
        ),
        nullable=True,
    ),
)
"""The keys about the ambient context, in the order ``expect`` describes them."""
