"""Offline edit requests: tick, untick, add and remove a task, as proposals (R54).

A request is read with the words of :mod:`workers.offline.edit_words`; the note
with the one Markdown reading (:func:`bridge.markdown.read_note`), whose task lines
and mark columns say exactly which characters change. The change goes through the
``propose_note_edit`` tool like the model's, so the same rules hold (R28, R50). A
request that matches several tasks, or none, proposes nothing and says so.
Everything is linear in the note's size.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from bridge.contract import MAX_MAX_BYTES
from bridge.markdown import Task, read_note
from workers.offline import edit_phrases as say
from workers.offline import edit_words
from workers.offline.catalogue import phrase
from workers.offline.intents import (
    _marker_at,
    _quoted,
    _words,
    is_cjk,
    named_paths,
)
from workers.offline.positions import LAST, task_reference
from workers.outcomes import ToolCall, TurnOutcome
from workers.tools import PROPOSE_TOOL, TOOLS, ToolContext, ToolResult

EditKind = Literal["tick", "untick", "add", "remove"]
_KINDS: Final[dict[str, EditKind]] = {kind: kind for kind in get_args(EditKind)}
DOMAIN: Final = "edits"
_EDGE_JUNK: Final = " :：-–—,，、.。\"'“”‘’«»「」『』"
_UNIQUE_TRIES: Final = 20

Reader = Callable[[TurnOutcome, ToolContext, str | None, dict[str, Any]], ToolResult]
Failure = Callable[[ToolContext, str, ToolResult], str | None]


@dataclass(frozen=True)
class EditRequest:
    kind: EditKind
    language: str
    target: str
    """What the request says about the task: its words, or the new task's text."""
    path: str | None


@functools.lru_cache(maxsize=8)
def edit_in(text: str) -> EditRequest | None:
    """The edit a request (cut and spaced by :func:`~workers.offline.intents.asked_of`) asks
    for, or None; each edit intent of the table asks about the same text, read once."""
    paths, rest = named_paths(text)
    lowered = rest.casefold()
    source = rest if len(lowered) == len(rest) else lowered
    kinds: Sequence[tuple[EditKind, dict[str, tuple[str, ...]]]] = (
        ("add", edit_words.ADD),
        ("untick", edit_words.UNTICK),
        ("tick", edit_words.TICK),
        ("remove", edit_words.REMOVE),
    )
    for kind, by_language in kinds:
        for language, markers in by_language.items():
            for marker in markers:
                at = _marker_at(lowered, marker)
                if at >= 0:
                    target = _target(kind, source, at, at + len(marker))
                    return EditRequest(kind, language, target, paths[0] if paths else None)
    return None


def _target(kind: EditKind, source: str, start: int, end: int) -> str:
    quoted = _quoted(source)
    if quoted:
        return quoted
    before, after = source[:start].strip(_EDGE_JUNK), source[end:].strip(_EDGE_JUNK)
    if kind == "add":
        for colon in ":：":
            if colon in after:  # "add a task to notes/x.md: water plants"
                after = after[after.index(colon) + 1 :].strip(_EDGE_JUNK)
        first, _, remaining = after.partition(" ")
        if remaining and first.casefold() in edit_words.ADD_LEADS:  # "to notes/x.md: …"
            after = remaining.strip(_EDGE_JUNK)
        return _trim_cjk(after or before)
    return _trim_cjk(f"{before} {after}".strip())


def _trim_cjk(text: str) -> str:
    for filler in edit_words.CJK_FILLERS:
        if text.endswith(filler) and len(text) > len(filler):
            text = text[: -len(filler)]
        if text.startswith(filler) and len(text) > len(filler):
            text = text[len(filler) :]
    return text.strip(_EDGE_JUNK)


def edit_kind(name: str) -> EditKind:
    """The kind of edit an intent of the table names (its name is the kind)."""
    return _KINDS[name]


def answer(
    context: ToolContext, request: EditRequest, *, read: Reader, failed: Failure
) -> TurnOutcome:
    """Read the note, find the task and propose the change; or say why nothing is proposed."""
    language = request.language
    outcome = TurnOutcome("")
    result = read(outcome, context, request.path, {"maxBytes": MAX_MAX_BYTES})
    failure = failed(context, language, result)
    if failure is not None:
        outcome.reply = failure
        return outcome
    text, path = result["text"] or "", result["path"]
    planned = _plan(request, text, path)
    if isinstance(planned, str):
        outcome.reply = planned
        return outcome
    old, new, task = planned
    summary = phrase(language, _SUMMARIES[request.kind], domain=DOMAIN, task=task)
    arguments = {"path": path, "edits": [{"oldText": old, "newText": new}], "summary": summary}
    proposed = TOOLS[PROPOSE_TOOL](context, arguments)
    outcome.tool_calls.append(ToolCall(PROPOSE_TOOL, arguments, proposed))
    if proposed["status"] != "proposed":
        outcome.reply = failed(context, language, proposed) or ""
        return outcome
    outcome.reply = phrase(language, _PROPOSED[request.kind], domain=DOMAIN, task=task, path=path)
    return outcome


_SUMMARIES: Final[dict[EditKind, str]] = {
    "tick": say.SUMMARY_TICK,
    "untick": say.SUMMARY_UNTICK,
    "add": say.SUMMARY_ADD,
    "remove": say.SUMMARY_REMOVE,
}
_PROPOSED: Final[dict[EditKind, str]] = {
    "tick": say.PROPOSED_TICK,
    "untick": say.PROPOSED_UNTICK,
    "add": say.PROPOSED_ADD,
    "remove": say.PROPOSED_REMOVE,
}


def _plan(request: EditRequest, text: str, path: str) -> tuple[str, str, str] | str:
    """(oldText, newText, the task's words), or the reply saying why there is no change."""
    language = request.language
    reading = read_note(text)
    spans = line_spans(text)
    if request.kind == "add":
        if not request.target:
            return phrase(language, say.ADD_WHAT, domain=DOMAIN)
        return (*_add(text, spans, reading.tasks, request.target), request.target)
    if not reading.tasks:
        return phrase(language, say.NO_TASKS, domain=DOMAIN, path=path)
    candidates = [
        task
        for task in reading.tasks
        if request.kind == "remove" or task.done == (request.kind == "untick")
    ]
    found = referred_tasks(request.kind, request.target, candidates)
    if len(found) != 1:
        return _no_single_match(request, path, found, candidates)
    task = found[0]
    start, end = spans[task.line]
    if request.kind == "remove":
        stop = min(end + 1, len(text))  # the line and its line break
        return (*_unique(text, start, stop, start, stop, ""), task.text)
    mark = start + _code_points(text[start:end], task.mark_column)
    replacement = "x" if request.kind == "tick" else " "
    return (*_unique(text, start, end, mark, mark + 1, replacement), task.text)


def _no_single_match(
    request: EditRequest, path: str, found: list[Task], candidates: list[Task]
) -> str:
    language = request.language
    listed = found or candidates
    if not request.target and len(candidates) > 1:
        head = phrase(language, say.WHICH_TASK, domain=DOMAIN, path=path)
    elif found:
        head = phrase(language, say.AMBIGUOUS, domain=DOMAIN, path=path, words=request.target)
    else:
        words = request.target or "…"
        head = phrase(language, say.NO_MATCH, domain=DOMAIN, path=path, words=words)
        if not candidates:
            return head
        head += " " + phrase(language, say.CANDIDATES, domain=DOMAIN)
    return "\n".join([head, *(f"- {task.text}" for task in listed)])


def referred_tasks(kind: EditKind, target: str, candidates: Sequence[Task]) -> list[Task]:
    """The tasks a request names: by its words, by its place, or both (R54, R80).

    "the first open task", "the last one", "the second about the dentist", "the one
    about milk": the place counts the candidates top to bottom (a remove narrowed by
    the state it names), after the words, if any, narrowed them. A task whose own
    text holds the whole target ("send the first draft") is named by its words.
    """
    folded = target.casefold()
    literal = [task for task in candidates if folded and folded in task.text.casefold()]
    if len(literal) == 1:
        return literal
    reference = task_reference(target)
    if reference.position is None:
        return matching_tasks(reference.words if reference.about else target, candidates)
    pool = list(candidates)
    if reference.state is not None and kind == "remove":
        pool = [task for task in pool if task.done == (reference.state == "done")]
    if reference.words:
        pool = matching_tasks(reference.words, pool)
    index = len(pool) - 1 if reference.position == LAST else reference.position - 1
    return [pool[index]] if 0 <= index < len(pool) else []


def matching_tasks(target: str, tasks: Sequence[Task]) -> list[Task]:
    """The tasks the request's words name best: all of them tied for the best score."""
    if not target:
        return list(tasks) if len(tasks) == 1 else []
    folded = target.casefold()
    contained = [task for task in tasks if folded in task.text.casefold()]
    if contained:
        return contained
    scores = [(_score(folded, task.text.casefold()), task) for task in tasks]
    best = max((score for score, _task in scores), default=0)
    return [task for score, task in scores if score == best] if best > 0 else []


def _score(target: str, task: str) -> int:
    if is_cjk(target):
        pairs = {target[i : i + 2] for i in range(len(target) - 1)}
        return sum(1 for pair in pairs if pair in task)
    task_words = _words(task).split()
    return sum(
        1
        for word in _words(target).split()
        if len(word) > 2
        and word not in edit_words.STOP_WORDS
        and any(_same_word(word, other) for other in task_words)
    )


def _same_word(one: str, other: str) -> bool:
    """Equal, or one a prefix of the other of at least four letters ("book", "booked")."""
    if one == other:
        return True
    short, long = sorted((one, other), key=len)
    return len(short) >= 4 and long.startswith(short)


def _add(text: str, spans: list[tuple[int, int]], tasks: list[Task], task: str) -> tuple[str, str]:
    """Into the note's first task list (after its last item), else at the end (R54)."""
    if tasks:
        last = tasks[0]
        for following in tasks[1:]:
            if following.line != last.line + 1 or following.mark_column != last.mark_column:
                break
            last = following
        start, end = spans[last.line]
        line = text[start:end]
        prefix = line[: line.find("[")]
        return _unique(text, start, end, end, end, f"\n{prefix}[ ] {task}")
    content_end = len(text.rstrip())
    if content_end == 0:
        return text, f"- [ ] {task}\n"
    line_start = text.rfind("\n", 0, content_end) + 1
    return _unique(text, line_start, content_end, content_end, content_end, f"\n\n- [ ] {task}")


def _unique(
    text: str, start: int, end: int, edit_start: int, edit_end: int, replacement: str
) -> tuple[str, str]:
    """(oldText, newText) for the change, widened by whole lines until oldText occurs once."""
    for _try in range(_UNIQUE_TRIES):
        if text.count(text[start:end]) <= 1 or (start == 0 and end == len(text)):
            break
        if start > 0:
            start = text.rfind("\n", 0, start - 1) + 1
        else:
            following = text.find("\n", end + 1)
            end = len(text) if following < 0 else following
    old = text[start:end]
    new = text[start:edit_start] + replacement + text[edit_end:end]
    return old, new


def line_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line in code points, breaking where the reading does (CRLF, CR, LF)."""
    spans: list[tuple[int, int]] = []
    start = 0
    index = 0
    length = len(text)
    if "\r" not in text:
        for line in text.split("\n"):
            spans.append((start, start + len(line)))
            start += len(line) + 1
        return spans
    while index < length:
        char = text[index]
        if char in "\r\n":
            spans.append((start, index))
            index += 2 if text.startswith("\r\n", index) else 1
            start = index
        else:
            index += 1
    spans.append((start, length))
    return spans


def _code_points(line: str, utf16_column: int) -> int:
    """The code-point index of a UTF-16 column in ``line``."""
    units = 0
    for index, char in enumerate(line):
        if units >= utf16_column:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(line)
