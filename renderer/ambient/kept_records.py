"""The turn records the app keeps, so a restart shows replies as they were shown (R45).

The backend keeps each conversation's messages and the names and arguments of
the tools called, never their results (R34). What the transcript showed beside a
reply — which assistant answered, what was sent with the message, what each tool
found, the caveats — is the app's own record of the turn. This module keeps that
record in the data folder, one private file per workspace and conversation, and
never note text: tool results keep their status, path, sizes and caveat, not the
text read; a reply and a message are kept only as fingerprints, to match each
record with the backend's copy of its turn when the conversation is shown again.

Files are written whole on a worker (:func:`bridge.private_files.write_atomically`)
and read off the GUI thread; a file that is not a regular file, is too large or
does not parse is ignored (the replies then show without their details).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bridge.drops import DROP_REASONS
from bridge.pointer import AmbientPointer
from bridge.private_files import set_aside, write_atomically
from bridge.tools import (
    ANY_KEPT_ARGUMENTS,
    ANY_KEPT_LISTINGS,
    ANY_KEPT_RESULT,
    COMMON_RESULT_KEYS,
    TOOL_FACTS,
)
from bridge.wire import (
    AmbientAnswer,
    ConversationMessage,
    TurnAnswer,
    TurnAssistant,
    TurnToolCall,
)
from renderer.ambient.assistant_calls import fetch_conversation
from renderer.ambient.backend import WorkspaceLink
from renderer.ambient.capture import CaptureResult
from renderer.ambient.elsewhere import Elsewhere
from renderer.ambient.lines import LineRange
from renderer.ambient.turns import TurnRecord

KEPT_TURNS = 200
"""Records kept per conversation: the newest."""
MAX_FILE_BYTES = 2 * 1024 * 1024
"""A larger file is not read (R64)."""
_VERSION = 1
UNREADABLE = (
    "The details of earlier replies could not be read: {why}. Those replies show as the "
    "backend keeps them."
)
_QUOTED = re.compile(r"“[^”]*”")


def fingerprint(text: str) -> str:
    """16 hex digits of the text's SHA-256: enough to match a turn, nothing to read back."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def record_entry(record: TurnRecord) -> dict[str, Any] | None:
    """What is kept of a turn that got a reply; None for one that did not."""
    reply = record.reply
    if reply is None:
        return None
    capture = record.capture
    lines = capture.selection_lines
    return {
        "message": fingerprint(record.message),
        "reply": fingerprint(reply.reply),
        "pointer": _pointer_json(capture.pointer),
        "header": capture.header,
        "dropped": capture.dropped,
        "notSent": _pointer_json(capture.oversize_pointer),
        "selectionLines": None if lines is None else [lines.first, lines.last],
        "flushed": record.flushed,
        "flushTimedOut": record.flush_timed_out,
        "preparationSeconds": round(record.preparation_seconds, 3),
        "stopped": record.stopped,
        "assistant": reply.assistant.model_dump(),
        "ambient": reply.ambient.model_dump(),
        "toolCalls": [_call_json(call) for call in reply.tool_calls],
        "openElsewhere": sorted(record.elsewhere.open_elsewhere),
        "fellBackFrom": record.elsewhere.fell_back_from,
    }


def restored_record(
    entry: dict[str, Any], asked: str, reply: ConversationMessage, conversation: str
) -> TurnRecord:
    """The turn as it was shown: the kept entry with the backend's message and reply text."""
    raw_lines = entry.get("selectionLines")
    lines = LineRange(int(raw_lines[0]), int(raw_lines[1])) if raw_lines else None
    header = entry.get("header")
    dropped = entry.get("dropped")
    if dropped is not None and dropped not in DROP_REASONS:
        raise ValueError(f"not a reason a note is left out: {dropped!r}")
    capture = CaptureResult(
        pointer=_pointer(entry.get("pointer")),
        header=header if isinstance(header, str) else None,
        dropped=dropped,
        oversize_pointer=_pointer(entry.get("notSent")),
        selection_lines=lines,
    )
    calls = [
        TurnToolCall(
            name=str(call["name"]),
            arguments=dict(call.get("arguments") or {}),
            result=dict(call["result"]),
        )
        for call in entry.get("toolCalls") or []
    ]
    ambient = entry.get("ambient")
    assistant = entry.get("assistant")
    # Kept before the answer's assistant was kept: the offline one answered then.
    turn_reply = TurnAnswer(
        reply=reply.text,
        tool_calls=calls,
        proposals=[],
        ambient=AmbientAnswer.model_validate(ambient or {"status": "absent", "reason": None}),
        assistant=TurnAssistant.model_validate(assistant or {"kind": "offline", "model": None}),
    )
    flushed = entry.get("flushed")
    return TurnRecord(
        message=asked,
        capture=capture,
        reply=turn_reply,
        error=None,
        flushed=flushed if isinstance(flushed, bool) else None,
        conversation=conversation,
        preparation_seconds=float(entry.get("preparationSeconds") or 0.0),
        stopped=bool(entry.get("stopped")),
        flush_timed_out=bool(entry.get("flushTimedOut")),
        elsewhere=Elsewhere(
            frozenset(str(path) for path in entry.get("openElsewhere") or []),
            entry.get("fellBackFrom"),
        ),
    )


def match_records(
    pairs: Sequence[tuple[str, ConversationMessage]],
    entries: Sequence[dict[str, Any]],
    conversation: str,
) -> list[TurnRecord | None]:
    """For each kept (message, reply) pair, its restored record, or None when none matches.

    Records are matched in order by the fingerprints of the message and the reply,
    so a repeated "summarise this" takes its own record, and a turn the app did not
    send (another client) or no longer has a record of shows as the backend keeps it.
    """
    waiting = list(entries)
    matched: list[TurnRecord | None] = []
    for asked, reply in pairs:
        key = (fingerprint(asked), fingerprint(reply.text))
        found = next(
            (i for i, e in enumerate(waiting) if (e.get("message"), e.get("reply")) == key), None
        )
        if found is None:
            matched.append(None)
            continue
        entry = waiting.pop(found)
        del waiting[:found]  # older records than a match have no turn left to match
        try:
            matched.append(restored_record(entry, asked, reply, conversation))
        except (KeyError, TypeError, ValueError, IndexError):
            matched.append(None)  # a record this app cannot read back: shown without it
    return matched


Submit = Callable[[Callable[[], object]], object]
"""Runs work on a worker (:meth:`renderer.qt.tasks.TaskRunner.submit`)."""
KeptConversation = tuple[list[ConversationMessage], list[TurnRecord | None]]
"""A conversation's kept messages and, for each (message, reply) pair, its record or None."""


def load_kept_conversation(
    link: WorkspaceLink, kept: KeptRecords | None, conversation: str
) -> KeptConversation:
    """The backend's copy of the conversation with the app's records matched (on a worker)."""
    messages = fetch_conversation(link, conversation)
    if kept is None:
        return messages, []
    entries = kept.entries(link.workspace, conversation)
    return messages, match_records(kept_turn_pairs(messages), entries, conversation)


def kept_turn_pairs(
    messages: Sequence[ConversationMessage],
) -> list[tuple[str, ConversationMessage]]:
    """(user message, reply) pairs, oldest first; a reply without its message keeps ""."""
    pairs: list[tuple[str, ConversationMessage]] = []
    asked: str | None = None
    for message in messages:
        if message.role == "user":
            asked = message.text
        else:
            pairs.append((asked or "", message))
            asked = None
    return pairs


class KeptRecords:
    """The records of each (workspace, conversation), in memory and in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._entries: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self._written: dict[tuple[str, str], int] = {}
        self._changes = 0
        self.problem: str | None = None

    def entries(self, workspace: str, conversation: str) -> list[dict[str, Any]]:
        """The kept records, oldest first (read from the file on first use; any thread)."""
        key = (workspace, conversation)
        with self._lock:
            if key not in self._entries:
                self._entries[key], problem = _read(self._path(key))
                self.problem = problem or self.problem
            return list(self._entries[key])

    def take_problem(self) -> str | None:
        """What was wrong with a file read since last asked (once), or None."""
        with self._lock:
            problem, self.problem = self.problem, None
            return problem

    def keep(self, workspace: str, conversation: str, entry: dict[str, Any]) -> int:
        """Add a record in memory; returns the change number :meth:`write` takes."""
        self.entries(workspace, conversation)
        key = (workspace, conversation)
        with self._lock:
            kept = self._entries[key]
            kept.append(entry)
            del kept[:-KEPT_TURNS]
            self._changes += 1
            return self._changes

    def forget(self, workspace: str, conversation: str) -> int:
        """The conversation was cleared: its records go too."""
        with self._lock:
            self._entries[(workspace, conversation)] = []
            self._changes += 1
            return self._changes

    def remember(self, workspace: str, record: TurnRecord, submit: Submit) -> None:
        """Keep what a turn showed (never note text); the file is written on a worker."""
        entry = record_entry(record)
        if entry is not None:
            change = self.keep(workspace, record.conversation, entry)
            submit(lambda: self.write(workspace, record.conversation, change))

    def forget_later(self, workspace: str, conversation: str, submit: Submit) -> None:
        change = self.forget(workspace, conversation)
        submit(lambda: self.write(workspace, conversation, change))

    def write(self, workspace: str, conversation: str, change: int) -> None:
        """Write the file as of ``change`` or later (on a worker); an older write is skipped."""
        key = (workspace, conversation)
        with self._lock:
            if self._written.get(key, 0) >= change:
                return
            self._written[key] = self._changes
            snapshot = list(self._entries.get(key, []))
            text = json.dumps(
                {
                    "v": _VERSION,
                    "workspace": workspace,
                    "conversation": conversation,
                    "turns": snapshot,
                },
                ensure_ascii=False,
            )
            write_atomically(self._path(key), text)

    def _path(self, key: tuple[str, str]) -> Path:
        return self.folder / f"{fingerprint(json.dumps(key))}.json"


def _read(path: Path) -> tuple[list[dict[str, Any]], str | None]:
    """The records in ``path``, and what was wrong when it could not be used (R64).

    A file that is not a regular file, is too large or does not parse is set aside
    (:func:`bridge.private_files.set_aside`) so it is neither read again nor overwritten.
    """
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        return [], None
    except OSError as error:
        return [], f"it could not be read ({error.strerror})"
    if not stat.S_ISREG(status.st_mode):
        return [], _set_aside(path, "it is not a regular file")
    if status.st_size > MAX_FILE_BYTES:
        return [], _set_aside(path, "it is too large")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return [], _set_aside(path, "it is not valid JSON")
    turns = data.get("turns") if isinstance(data, dict) and data.get("v") == _VERSION else None
    if not isinstance(turns, list):
        return [], _set_aside(path, "it is not a record of turns")
    return [turn for turn in turns if isinstance(turn, dict)], None


def _set_aside(path: Path, why: str) -> str:
    target = set_aside(path)
    if target is None:
        return f"{UNREADABLE.format(why=why)} It could not be moved aside."
    return f"{UNREADABLE.format(why=why)} It was set aside as {target.name}."


def _pointer_json(pointer: AmbientPointer | None) -> dict[str, Any] | None:
    return None if pointer is None else pointer.model_dump(mode="json", exclude_none=True)


def _pointer(raw: object) -> AmbientPointer | None:
    return AmbientPointer.model_validate(raw) if isinstance(raw, dict) else None


def _call_json(call: TurnToolCall) -> dict[str, Any]:
    # What each tool declares keepable (bridge.tools): never ``text``, lines or edits (R77).
    facts = TOOL_FACTS.get(call.name)
    result_keys = COMMON_RESULT_KEYS + facts.kept_result if facts else ANY_KEPT_RESULT
    listings = ANY_KEPT_LISTINGS if facts is None else tuple(filter(None, [facts.kept_listing]))
    result = {key: call.result[key] for key in result_keys if key in call.result}
    message = result.get("message")
    if isinstance(message, str):
        # R77: a refusal may quote the note ("The text “…” occurs 2 times"): never kept.
        result["message"] = _QUOTED.sub("“…”", message)
    text = call.result.get("text")
    if isinstance(text, str):
        result["textBytes"] = len(text.encode("utf-8"))
    for listed in listings:  # which notes, never their lines
        items = call.result.get(listed)
        if isinstance(items, list):
            result[listed] = [
                {"path": item.get("path")} for item in items if isinstance(item, dict)
            ]
    argument_keys = facts.kept_arguments if facts else ANY_KEPT_ARGUMENTS
    arguments = {key: call.arguments[key] for key in argument_keys if key in call.arguments}
    return {"name": call.name, "arguments": arguments, "result": result}
