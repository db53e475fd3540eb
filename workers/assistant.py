"""The default assistant: deterministic and offline, it answers from what its tools read.

For an unnamed request ("summarise this", このノート, cette note …) it calls
``read_active_note`` first, on every turn (R23): the open note may have changed
since the last one. A named workspace path uses ``read_document``; a request for a
listing uses ``list_documents``. ``/tool NAME {json}`` is the QA hook (contract 5).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from workers import jsontext, messages
from workers.tools import TOOLS, ToolContext, ToolResult

TOOL_COMMAND: Final = "/tool"

UNNAMED_REQUESTS: Final = (
    "this",
    "this note",
    "summarise this",
    "summarize this",
    "what does it say",
    "このノート",
    "これ",
    "cette note",
    "diese Notiz",
    "esta nota",
    "这个笔记",
    "这篇笔记",
    "이 노트",
)
"""Phrases that mean the open note. Every request that names no path and asks for no
listing is treated the same way, so variants in any language reach the open note too."""

_LISTING = re.compile(
    r"\b(list|show|which|what)\b.*\b(notes|documents|files)\b"
    r"|ノート.*(一覧|リスト)|(liste|lister).*(notes|documents)|(liste|zeige).*notizen"
    r"|(lista|listar).*notas|(列出|列表).*笔记|笔记.*(列表|清单)|노트.*목록",
    re.IGNORECASE,
)
_NAMED_PATH = re.compile(
    r"""(?:^|[\s"'`(“«])((?:[\w.-]+/)*[\w.-]*\w\.(?:md|markdown|txt|text|org))(?=$|[\s"'`),.!?:;”»])""",
)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_OPEN_TASK = re.compile(r"^\s*[-*+]\s+\[ \]\s")
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+|>\s*)")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")
_SUMMARY_CHARS: Final = 280


@dataclass
class ToolCall:
    """One tool call of a turn; the result's JSON is made once, for the reply and toolCalls."""

    name: str
    arguments: dict[str, Any]
    result: ToolResult
    _result_json: bytes | None = field(default=None, repr=False)

    def result_json(self) -> bytes:
        if self._result_json is None:
            self._result_json = jsontext.dumps(self.result)
        return self._result_json


@dataclass
class TurnOutcome:
    reply: str
    tool_calls: list[ToolCall] = field(default_factory=list)


class DefaultAssistant:
    """Answers one turn at a time; keeps no state between turns."""

    def answer(self, context: ToolContext, message: str) -> TurnOutcome:
        stripped = message.strip()
        if stripped == TOOL_COMMAND or stripped.startswith(TOOL_COMMAND + " "):
            return self._tool_command(context, stripped[len(TOOL_COMMAND) :].strip())
        named = _NAMED_PATH.search(stripped)
        if named:
            return self._named(context, named.group(1))
        if _LISTING.search(stripped):
            return self._listing(context)
        return self._active_note(context)

    def _call(
        self, outcome: TurnOutcome, context: ToolContext, name: str, arguments: dict[str, Any]
    ) -> ToolResult:
        result = TOOLS[name](context, arguments)
        outcome.tool_calls.append(ToolCall(name, arguments, result))
        return result

    def _tool_command(self, context: ToolContext, rest: str) -> TurnOutcome:
        name, _, raw_arguments = rest.partition(" ")
        if not name:
            return TurnOutcome(messages.TOOL_COMMAND_INVALID.format(detail="no tool name"))
        if name not in TOOLS:
            return TurnOutcome(
                messages.UNKNOWN_TOOL.format(name=name, tools=", ".join(sorted(TOOLS)))
            )
        raw_arguments = raw_arguments.strip()
        try:
            arguments = jsontext.loads_exact(raw_arguments) if raw_arguments else {}
            jsontext.dumps_exact(arguments)  # echoed in toolCalls: it must encode back
        except ValueError:
            return TurnOutcome(
                messages.TOOL_COMMAND_INVALID.format(detail="the arguments are not valid JSON")
            )
        if not isinstance(arguments, dict):
            return TurnOutcome(messages.ARGUMENTS_NOT_OBJECT)
        outcome = TurnOutcome("")
        self._call(outcome, context, name, arguments)
        outcome.reply = outcome.tool_calls[0].result_json().decode("utf-8")
        return outcome

    def _listing(self, context: ToolContext) -> TurnOutcome:
        outcome = TurnOutcome("")
        result = self._call(outcome, context, "list_documents", {})
        if result["status"] != "ok":
            outcome.reply = messages.REPLY_TOOL_FAILED.format(message=result["message"])
            return outcome
        documents = result["documents"]
        if not documents:
            outcome.reply = messages.REPLY_LISTING_EMPTY
            return outcome
        lines = [messages.REPLY_LISTING.format(count=_plural(len(documents), "note"))]
        lines += [f"- {document['path']}" for document in documents]
        outcome.reply = "\n".join(lines)
        return outcome

    def _named(self, context: ToolContext, path: str) -> TurnOutcome:
        outcome = TurnOutcome("")
        result = self._call(outcome, context, "read_document", {"path": path})
        outcome.reply = _describe(result, messages.REPLY_DOCUMENT)
        return outcome

    def _active_note(self, context: ToolContext) -> TurnOutcome:
        outcome = TurnOutcome("")
        result = self._call(outcome, context, "read_active_note", {})  # R23: first, every turn
        if result["status"] == "no_active_note" and context.note_left_out:
            outcome.reply = messages.REPLY_NOTE_LEFT_OUT  # R48: never "no note is open"
        elif result["status"] == "no_active_note":
            outcome.reply = messages.REPLY_NO_NOTE  # R27
        else:
            outcome.reply = _describe(result, messages.REPLY_NOTE)
        return outcome


def _describe(result: ToolResult, template: str) -> str:
    if result["status"] != "ok":
        return messages.REPLY_TOOL_FAILED.format(message=result["message"])
    text: str = result["text"] or ""
    lines = text.splitlines()
    title = _title(lines) or result["path"]
    summary = _summary(lines) or messages.REPLY_EMPTY_NOTE
    headings = sum(1 for line in lines if _is_heading(line))
    tasks = sum(1 for line in lines if "[ ]" in line and _OPEN_TASK.match(line))
    parts = [
        template.format(title=title, path=result["path"], view=result["view"], summary=summary),
        messages.REPLY_COUNTS.format(
            headings=_plural(headings, "heading"), tasks=_plural(tasks, "open task")
        ),
    ]
    if result["partial"]:
        seen = len(text.encode("utf-8"))
        parts.append(messages.REPLY_PARTIAL.format(seen=f"{seen:,}", total=f"{result['bytes']:,}"))
    if result["caveat"]:
        parts.append(result["caveat"])  # R25: repeated verbatim
    return "\n\n".join(parts)


def _title(lines: list[str]) -> str:
    for line in lines:
        heading = _HEADING.match(line) if "#" in line else None
        if heading and heading.group(1):
            return heading.group(1)
    for line in lines:
        if line.strip():
            return _LIST_MARKER.sub("", line).strip()
    return ""


def _is_heading(line: str) -> bool:
    return "#" in line and _HEADING.match(line) is not None


def _summary(lines: list[str]) -> str:
    """The first one or two sentences of prose; list items only when there is no prose."""
    body = [line for line in lines if line.strip() and not _is_heading(line)]
    prose = (line.strip() for line in body if not _LIST_MARKER.match(line))
    sentences = _first_sentences(prose)
    if sentences is not None:
        summary = " ".join(sentences)
    else:
        summary = "; ".join(_LIST_MARKER.sub("", line).strip() for line in body[:2])
    if len(summary) > _SUMMARY_CHARS:
        summary = summary[: _SUMMARY_CHARS - 1].rstrip() + "…"
    return summary


def _first_sentences(prose: Iterator[str]) -> list[str] | None:
    """The first two sentences of the prose lines joined by spaces; None without prose.

    Prose wraps across lines, so lines are joined before splitting and a sentence is
    never cut at a line break. Only a growing head of the prose is split: a long note
    costs no more than a short one. The head gives the same answer as the whole once
    a third sentence has begun (the first two are complete) or its two sentences
    already run past the summary limit (whatever follows is cut off anyway).
    """
    head: list[str] = []
    head_chars = 0
    wanted = 2 * _SUMMARY_CHARS
    for line in prose:
        head.append(line)
        head_chars += len(line) + 1
        if head_chars < wanted:
            continue
        sentences = _sentences(" ".join(head))
        if len(sentences) > 2 or len(" ".join(sentences[:2])) > _SUMMARY_CHARS:
            return sentences[:2]
        wanted *= 2
    if not head:
        return None
    return _sentences(" ".join(head))[:2]


def _sentences(prose: str) -> list[str]:
    return [part.strip() for part in _SENTENCE_END.split(prose) if part.strip()]


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
