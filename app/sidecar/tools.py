"""The sidecar's tools (contract 11) and how a call becomes questions to the GUI thread.

Runs on the server's event loop. Each call asks :class:`~app.sidecar.gui_calls.GuiCalls`
for what it needs, with a bound, and builds its result off the GUI thread
(:mod:`app.sidecar.results`). ``openDiff`` / ``closeDiff`` follow the Gemini CLI
companion specification: ``openDiff`` answers ``content: []`` once the review shows,
``closeDiff`` a text block holding ``{"content": <the note's text>}``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

import mcp_types as types

from app.sidecar import results
from app.sidecar.diffs import DiffReviews
from app.sidecar.gui_calls import GuiCalls, GuiGone, Operation
from app.sidecar.notes import CapturedNote, NoteAccess
from bridge.contract import DEFAULT_MAX_BYTES, FLUSH_LIMIT_SECONDS
from bridge.reading import MAX_BYTES_INVALID, MAX_BYTES_SCHEMA, parse_max_bytes_value
from bridge.tools import READ_ACTIVE_NOTE  # contract 11: the §5 tool, its name and its result

CAPTURE_SLACK_SECONDS: Final = 3.5
"""What a capture may take besides its preparation: the GUI thread may be busy (a large
note's layout, a paint) before it starts the capture and after the preparation ends."""
CAPTURE_SECONDS: Final = FLUSH_LIMIT_SECONDS + CAPTURE_SLACK_SECONDS
"""A capture's bound: R10's preparation bound, which it includes, and the slack above."""
READ_SECONDS: Final = 20.0
INFO: Final = {"app": "Ambient Notes", "sidecar": 1}
"""What ``sidecar_info`` answers: a constant, so a tool can check the connection cheaply."""

_NO_ARGUMENTS: Final = {"type": "object", "properties": {}, "additionalProperties": False}
TOOLS: Final = [
    types.Tool(
        name="get_active_note",
        description=(
            "Which note the person is looking at in Ambient Notes: its path (workspace-relative "
            "and absolute), view, selection, size and hash, captured now. Never its text."
        ),
        input_schema=_NO_ARGUMENTS,
    ),
    types.Tool(
        name=READ_ACTIVE_NOTE.name,
        description="The saved text of the note the person is looking at.",
        input_schema={
            "type": "object",
            "properties": {"maxBytes": MAX_BYTES_SCHEMA},
            "additionalProperties": False,
        },
    ),
    types.Tool(
        name="list_notes",
        description="The notes of the open workspace, with their sizes and hashes.",
        input_schema={
            "type": "object",
            "properties": {"prefix": {"type": "string", "description": "e.g. notes/"}},
            "additionalProperties": False,
        },
    ),
    types.Tool(
        name="openDiff",
        description=(
            "Show the person a change to a note for review in Ambient Notes; the answer comes "
            "as ide/diffAccepted or ide/diffRejected."
        ),
        input_schema={
            "type": "object",
            "properties": {"filePath": {"type": "string"}, "newContent": {"type": "string"}},
            "required": ["filePath", "newContent"],
        },
    ),
    types.Tool(
        name="closeDiff",
        description="Close the review of a change to a note; answers the note's current text.",
        input_schema={
            "type": "object",
            "properties": {
                "filePath": {"type": "string"},
                "suppressNotification": {"type": "boolean"},
            },
            "required": ["filePath"],
        },
    ),
    types.Tool(
        name="sidecar_info",
        description="A constant answer naming the app: a cheap check that the connection works.",
        input_schema=_NO_ARGUMENTS,
    ),
]


class SidecarTools:
    """The server's tool handler: ``await tools.call(name, arguments, session_id)``."""

    def __init__(self, gui: GuiCalls, notes: NoteAccess, diffs: DiffReviews) -> None:
        self._gui = gui
        self._notes = notes
        self._diffs = diffs

    async def call(
        self, name: str, arguments: Mapping[str, Any], session_id: str | None
    ) -> types.CallToolResult:
        try:
            if name == "sidecar_info":
                return _json(INFO)
            if name == "get_active_note":
                return _json(results.pointer_result(await self._capture()))
            if name == READ_ACTIVE_NOTE.name:
                return await self._read_active_note(arguments)
            if name == "list_notes":
                return await self._list_notes(arguments)
            if name == "openDiff":
                return await self._open_diff(arguments, session_id)
            if name == "closeDiff":
                return await self._close_diff(arguments)
        except GuiGone as gone:
            return _error(str(gone))
        return _error(f"Ambient Notes has no tool called “{name}”.")

    async def _capture(self) -> CapturedNote:
        captured = await self._gui.ask(self._notes.capture, CAPTURE_SECONDS)
        assert isinstance(captured, CapturedNote)
        return captured

    async def _read_active_note(self, arguments: Mapping[str, Any]) -> types.CallToolResult:
        limit = parse_max_bytes_value(arguments.get("maxBytes", DEFAULT_MAX_BYTES))
        if limit is None or set(arguments) - {"maxBytes"}:
            return _json({"status": "invalid_argument", "message": MAX_BYTES_INVALID})
        captured = await self._capture()
        saved: object = None
        if captured.pointer is not None:
            path, link = captured.pointer.path, captured.link
            operation: Operation = lambda reply: self._notes.read_saved(link, path, reply)  # noqa: E731
            saved = await self._gui.ask(operation, READ_SECONDS)
        return _json(results.saved_copy_result(captured, saved, limit))

    async def _list_notes(self, arguments: Mapping[str, Any]) -> types.CallToolResult:
        prefix = arguments.get("prefix")
        if prefix is not None and not isinstance(prefix, str):
            return _json({"status": "invalid_argument", "message": "prefix must be text."})
        operation: Operation = lambda reply: self._notes.list_notes(prefix, reply)  # noqa: E731
        listing = await self._gui.ask(operation, READ_SECONDS)
        return _json(results.listing_result(listing, self._notes.is_private))

    async def _open_diff(
        self, arguments: Mapping[str, Any], session_id: str | None
    ) -> types.CallToolResult:
        file_path, new_content = arguments.get("filePath"), arguments.get("newContent")
        if not isinstance(file_path, str) or not isinstance(new_content, str):
            return _error("openDiff needs filePath and newContent, both text.")
        operation: Operation = lambda reply: self._diffs.open(  # noqa: E731
            file_path, new_content, session_id, reply
        )
        problem = await self._gui.ask(operation, READ_SECONDS)
        return _error(str(problem)) if problem is not None else types.CallToolResult(content=[])

    async def _close_diff(self, arguments: Mapping[str, Any]) -> types.CallToolResult:
        file_path = arguments.get("filePath")
        if not isinstance(file_path, str):
            return _error("closeDiff needs filePath, as text.")
        operation: Operation = lambda reply: self._diffs.close(file_path, reply)  # noqa: E731
        answer = await self._gui.ask(operation, READ_SECONDS)
        if isinstance(answer, str):
            return types.CallToolResult(
                content=[types.TextContent(text=json.dumps({"content": answer}))]
            )
        return _error(str(answer))


def _json(body: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(text=json.dumps(body, ensure_ascii=False))],
        structured_content=body,
    )


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)
