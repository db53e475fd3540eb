"""One offline turn: which tools the request needs, then the reply in the request's language.

- summary, open tasks, outline, find: about the open note (``read_active_note``,
  first, on every turn: R23) or about a named path (``read_document``);
- selection: a summary request while text is selected addresses that text (R38);
- compare: the open note and the named one (or two named notes);
- listing: ``list_documents``;
- search ("which notes mention Sam?"): ``search_documents``;
- dates ("any deadlines here?"): the note's lines with dates, weekdays and times;
- greeting, help, a request only a model can serve (translate, shorten) and anything
  else: no tool call; one honest sentence, and once per conversation what the
  offline assistant can do and how to connect a model.
- tick, untick, add or remove a task: a proposal (R54, :mod:`workers.offline.edits`);
- ``/tool NAME {json}``: the QA hook (contract 5), exactly one call of that tool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from bridge.markdown import NoteReading, read_note
from workers import jsontext, messages
from workers.conversations import StoredMessage
from workers.errors import AccessDenied
from workers.offline import edits, phrases, replies
from workers.offline.catalogue import phrase
from workers.offline.due import due_request
from workers.offline.intents import NOTE_INTENTS, Request, classify
from workers.offline.naming import Candidate, named_notes
from workers.outcomes import ToolCall, TurnOutcome
from workers.tools import (
    TOOLS,
    ToolContext,
    ToolResult,
    list_documents,
    read_active_note,
    read_document,
    search_documents,
)
from workers.tools.declaration import ToolDeclaration

Tool = ToolDeclaration[Any]

TOOL_COMMAND: Final = "/tool"


def _call(
    outcome: TurnOutcome, context: ToolContext, tool: Tool, args: dict[str, Any]
) -> ToolResult:
    result = tool(context, args)
    outcome.tool_calls.append(ToolCall(tool.name, args, result))
    return result


def _failed(context: ToolContext, language: str, result: ToolResult) -> str | None:
    """The reply when a read did not work, or None when it did."""
    if result["status"] == "no_active_note" and context.note_left_out:
        return phrase(language, phrases.NOTE_LEFT_OUT)  # R48: never "no note is open"
    if result["status"] == "no_active_note":
        return phrase(language, phrases.NO_NOTE)  # R27
    if result["status"] == "private":
        return str(result["message"])  # R86: plain words, nothing of the note
    if result["status"] != "ok":
        # The access messages are the shared ones (R28), quoted as they are.
        return phrase(language, phrases.TOOL_FAILED, message=result["message"])
    return None


def answer(
    context: ToolContext, message: str, history: Sequence[StoredMessage] = ()
) -> TurnOutcome:
    stripped = message.strip()
    if stripped == TOOL_COMMAND or stripped.startswith(TOOL_COMMAND + " "):
        return tool_command(context, stripped[len(TOOL_COMMAND) :].strip())
    edit = edits.edit_request(message)
    if edit is not None:
        return edits.answer(context, edit, read=_read, failed=_failed)
    request = classify(message)
    language = request.language
    if request.intent == "listing":
        return _listing(context, language)
    if request.intent == "search":
        return _search(context, request)
    if request.intent == "compare":
        return _compare(context, request)
    if request.intent in NOTE_INTENTS:
        return _about_a_note(context, request)
    if request.intent == "help":
        return TurnOutcome(replies.capabilities(language))
    opening = {
        "greeting": phrases.GREETING,
        "unsupported": phrases.UNSUPPORTED,
    }.get(request.intent, phrases.OTHER)
    reply = phrase(language, opening)
    # R56: what it can do is listed once per conversation, not after every refusal.
    if not any(item.role == "assistant" and replies.lists_abilities(item.text) for item in history):
        reply += "\n\n" + replies.capabilities(language)
    return TurnOutcome(reply)


def _read(
    outcome: TurnOutcome,
    context: ToolContext,
    path: str | None,
    limits: dict[str, Any] | None = None,
) -> ToolResult:
    if path is None:
        return _call(outcome, context, read_active_note, {**(limits or {})})  # R23: first
    return _call(outcome, context, read_document, {"path": path, **(limits or {})})


def _about_a_note(context: ToolContext, request: Request) -> TurnOutcome:
    language = request.language
    outcome = TurnOutcome("")
    path = request.paths[0] if request.paths else None
    if path is None and request.intent != "find":  # a find term may be a note's words
        named = named_notes(context, request.text)
        open_path = _open_path(context) if named else None  # a delivery read only when needed
        if len(named) > 1 and all(candidate.path != open_path for candidate in named):
            return TurnOutcome(_which_note(language, named))
        if len(named) == 1 and named[0].path != open_path:
            path = named[0].path
    result = _read(outcome, context, path)
    if request.intent == "find" and request.term and _no_open_note(context, request, result):
        # "find dentist" with no note open: every note is searched instead.
        searched = _search(context, request)
        searched.tool_calls[:0] = outcome.tool_calls
        return searched
    failure = _failed(context, language, result)
    if failure is not None:
        outcome.reply = failure
        return outcome
    reading = read_note(result["text"] or "")
    parts: list[str]
    if request.intent == "tasks":
        parts = replies.tasks(language, result, reading)
    elif request.intent == "dates":
        asked = due_request(request.text)
        if asked is None:
            parts = replies.dates(language, result, reading)
        else:  # "what's due this week?": by the note's dates, against today here (R80)
            today = context.clock().astimezone().date()
            parts = replies.due(language, result, reading, asked, today)
    elif request.intent == "outline":
        parts = replies.outline(language, result, reading)
    elif request.intent == "find":
        parts = (
            replies.find(language, result, reading, request.term)
            if request.term
            else [phrase(language, phrases.FIND_WHAT)]
        )
    else:
        parts = _summary_or_selection(language, result, reading)
    outcome.reply = "\n\n".join(parts + replies.notes_on_read(language, result))
    return outcome


def _open_path(context: ToolContext) -> str | None:
    try:
        return context.open_access().ambient_path
    except AccessDenied:
        return None


def _which_note(language: str, named: list[Candidate]) -> str:
    """R56: a name that fits several notes: ask, naming them."""
    lines = [phrase(language, phrases.WHICH_NOTE)]
    for candidate in named:
        title = f" ({candidate.title})" if candidate.title else ""
        lines.append(f"- {candidate.path}{title}")
    return "\n".join(lines)


def _no_open_note(context: ToolContext, request: Request, result: ToolResult) -> bool:
    return not request.paths and result["status"] == "no_active_note" and not context.note_left_out


def _summary_or_selection(language: str, result: ToolResult, reading: NoteReading) -> list[str]:
    selected = result.get("selection")
    if not selected:
        return replies.summary(language, result, reading)
    if selected.get("text"):
        return replies.selection(language, result, selected)
    # Selected on screen, but the saved copy differs: say so, then the whole note.
    stale = phrase(language, phrases.SELECTION_STALE, path=result["path"])
    return [stale, *replies.summary(language, result, reading)]


def _compare(context: ToolContext, request: Request) -> TurnOutcome:
    language = request.language
    if not request.paths:
        return TurnOutcome(phrase(language, phrases.COMPARE_WHICH))
    outcome = TurnOutcome("")
    sides = [None, request.paths[0]] if len(request.paths) == 1 else request.paths[:2]
    results: list[ToolResult] = []
    for path in sides:
        result = _read(outcome, context, path)
        failure = _failed(context, language, result)
        if failure is not None:
            outcome.reply = failure
            return outcome
        results.append(result)
    first, second = results
    parts = replies.compare(
        language,
        first,
        read_note(first["text"] or ""),
        second,
        read_note(second["text"] or ""),
    )
    for result in results:
        parts += replies.notes_on_read(language, result)
    outcome.reply = "\n\n".join(parts)
    return outcome


def _search(context: ToolContext, request: Request) -> TurnOutcome:
    outcome = TurnOutcome("")
    result = _call(outcome, context, search_documents, {"query": request.term})
    failure = _failed(context, request.language, result)
    outcome.reply = failure or replies.search(request.language, result, request.term)
    if not failure and result.get("privateCount"):
        outcome.reply += "\n\n" + str(result["message"])  # R86: say how many were left out
    return outcome


def _listing(context: ToolContext, language: str) -> TurnOutcome:
    outcome = TurnOutcome("")
    result = _call(outcome, context, list_documents, {})
    failure = _failed(context, language, result)
    if failure is not None:
        outcome.reply = failure
        return outcome
    documents = result["documents"]
    left_out = f"\n\n{result['message']}" if result.get("privateCount") else ""  # R86
    if not documents:
        outcome.reply = phrase(language, phrases.LISTING_EMPTY) + left_out
        return outcome
    lines = [phrase(language, phrases.LISTING, count=len(documents))]
    lines += [f"- {document['path']}" for document in documents]
    outcome.reply = "\n".join(lines) + left_out
    return outcome


def tool_command(context: ToolContext, rest: str) -> TurnOutcome:
    """The QA hook: call exactly the named tool once and reply with its result as JSON text."""
    name, _, raw_arguments = rest.partition(" ")
    if not name:
        return TurnOutcome(messages.TOOL_COMMAND_INVALID.format(detail="no tool name"))
    if name not in TOOLS:
        return TurnOutcome(messages.UNKNOWN_TOOL.format(name=name, tools=", ".join(sorted(TOOLS))))
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
    outcome = TurnOutcome("", kept=False)
    _call(outcome, context, TOOLS[name], arguments)
    outcome.reply = outcome.tool_calls[0].result_json().decode("utf-8")
    return outcome
