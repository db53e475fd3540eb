"""How the offline assistant answers each intent: the tools it calls, then the reply (R38).

Each function here is the ``answer`` of one or more entries of the intent table
(:mod:`workers.offline.table`); none of them chooses between intents.

- about one note (summary, open tasks, outline, find, dates): the open note
  (``read_active_note``, first, on every turn: R23) or a named one
  (``read_document``), then the entry's own reply from its reading;
- selection: a summary request while text is selected addresses that text (R38);
- compare: the open note and the named one (or two named notes);
- listing: ``list_documents``; search ("which notes mention Sam?"): ``search_documents``;
- tick, untick, add or remove a task: a proposal (R54, :mod:`workers.offline.edits`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bridge.markdown import NoteReading, read_note
from workers.conversations import StoredMessage
from workers.errors import AccessDenied
from workers.offline import edits, phrases, replies, words
from workers.offline.catalogue import phrase
from workers.offline.due import due_request
from workers.offline.intents import Request
from workers.offline.lines import question
from workers.offline.naming import Candidate, named_notes
from workers.outcomes import ToolCall, TurnOutcome
from workers.tools import (
    ToolContext,
    ToolResult,
    list_documents,
    read_active_note,
    read_document,
    search_documents,
)
from workers.tools.declaration import ToolDeclaration

Tool = ToolDeclaration[Any]
History = Sequence[StoredMessage]
Answer = Callable[[ToolContext, Request, History], TurnOutcome]
"""An intent's answer: the tools it calls and its reply."""
Parts = Callable[[ToolContext, Request, ToolResult, NoteReading], list[str]]
"""The reply's paragraphs about one note, from the note's reading."""


def call(
    outcome: TurnOutcome, context: ToolContext, tool: Tool, args: dict[str, Any]
) -> ToolResult:
    result = tool(context, args)
    outcome.tool_calls.append(ToolCall(tool.name, args, result))
    return result


def failed(context: ToolContext, language: str, result: ToolResult) -> str | None:
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


def read(
    outcome: TurnOutcome,
    context: ToolContext,
    path: str | None,
    limits: dict[str, Any] | None = None,
) -> ToolResult:
    if path is None:
        return call(outcome, context, read_active_note, {**(limits or {})})  # R23: first
    return call(outcome, context, read_document, {"path": path, **(limits or {})})


def about_a_note(parts: Parts) -> Answer:
    """The answer of an intent about one note: the named one, else the open one (R23).

    A request that keeps its text may name the note by its words ("what's still open
    in the budget?"); a find keeps none (its term may be a note's words), and with no
    note open its term is looked for in every note instead.
    """

    def answer(context: ToolContext, request: Request, history: History) -> TurnOutcome:
        language = request.language
        outcome = TurnOutcome("")
        path = request.paths[0] if request.paths else None
        if path is None and request.text:
            named = named_notes(context, request.text)
            open_path = _open_path(context) if named else None  # a delivery read only if needed
            if len(named) > 1 and all(candidate.path != open_path for candidate in named):
                return TurnOutcome(_which_note(language, named))
            if len(named) == 1 and named[0].path != open_path:
                path = named[0].path
        result = read(outcome, context, path)
        if request.term and _no_open_note(context, request, result):
            # "find dentist" with no note open: every note is searched instead.
            searched = search(context, request, history)
            searched.tool_calls[:0] = outcome.tool_calls
            return searched
        failure = failed(context, language, result)
        if failure is not None:
            outcome.reply = failure
            return outcome
        reading = read_note(result["text"] or "")
        found = parts(context, request, result, reading)
        outcome.reply = "\n\n".join(found + replies.notes_on_read(language, result))
        return outcome

    return answer


def tasks_part(
    _context: ToolContext, request: Request, result: ToolResult, reading: NoteReading
) -> list[str]:
    return replies.tasks(request.language, result, reading)


def outline_part(
    _context: ToolContext, request: Request, result: ToolResult, reading: NoteReading
) -> list[str]:
    return replies.outline(request.language, result, reading)


def dates_part(
    context: ToolContext, request: Request, result: ToolResult, reading: NoteReading
) -> list[str]:
    asked = due_request(request.text)
    if asked is None:
        about = question(request.text, also_stop=words.DATES)
        return replies.dates(request.language, result, reading, None if about.empty else about)
    # "what's due this week?": by the note's dates, against today here (R80)
    today = context.clock().astimezone().date()
    return replies.due(request.language, result, reading, asked, today)


def ticked_part(
    _context: ToolContext, request: Request, result: ToolResult, reading: NoteReading
) -> list[str]:
    return replies.done(request.language, result, reading)


def find_part(
    _context: ToolContext, request: Request, result: ToolResult, reading: NoteReading
) -> list[str]:
    if not request.term:
        return [phrase(request.language, phrases.FIND_WHAT)]
    return replies.find(request.language, result, reading, request.term)


def summary_part(
    _context: ToolContext, request: Request, result: ToolResult, reading: NoteReading
) -> list[str]:
    """The note's summary, or the selection's while text is selected (R38)."""
    language = request.language
    selected = result.get("selection")
    if not selected:
        return replies.summary(language, result, reading)
    if selected.get("text"):
        return replies.selection(language, result, selected)
    # Selected on screen, but the saved copy differs: say so, then the whole note.
    stale = phrase(language, phrases.SELECTION_STALE, path=result["path"])
    return [stale, *replies.summary(language, result, reading)]


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


def compare(context: ToolContext, request: Request, _history: History) -> TurnOutcome:
    language = request.language
    if not request.paths:
        return TurnOutcome(phrase(language, phrases.COMPARE_WHICH))
    outcome = TurnOutcome("")
    sides = [None, request.paths[0]] if len(request.paths) == 1 else request.paths[:2]
    results: list[ToolResult] = []
    for path in sides:
        result = read(outcome, context, path)
        failure = failed(context, language, result)
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


def search(context: ToolContext, request: Request, _history: History) -> TurnOutcome:
    outcome = TurnOutcome("")
    result = call(outcome, context, search_documents, {"query": request.term})
    failure = failed(context, request.language, result)
    outcome.reply = failure or replies.search(request.language, result, request.term)
    if not failure and result.get("privateCount"):
        outcome.reply += "\n\n" + str(result["message"])  # R86: say how many were left out
    return outcome


def listing(context: ToolContext, request: Request, _history: History) -> TurnOutcome:
    language = request.language
    outcome = TurnOutcome("")
    result = call(outcome, context, list_documents, {})
    failure = failed(context, language, result)
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


def edit(context: ToolContext, request: Request, _history: History) -> TurnOutcome:
    """A change to the note, as a proposal to review (R54)."""
    asked = edits.EditRequest(
        edits.edit_kind(request.intent),
        request.language,
        request.term,
        request.paths[0] if request.paths else None,
        request.more,
    )
    return edits.answer(context, asked, read=read, failed=failed)
