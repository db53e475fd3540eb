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
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal, get_args

from bridge.contract import MAX_MAX_BYTES
from bridge.markdown import Task, read_note
from workers.offline import edit_asks, edit_words, reshape
from workers.offline import edit_phrases as say
from workers.offline.catalogue import phrase
from workers.offline.changes import code_points, line_spans, unique_change
from workers.offline.intents import (
    _marker_at,
    _quoted,
    _words,
    is_cjk,
)
from workers.offline.positions import LAST, task_reference
from workers.offline.replies import bullet_list, clip, notes_on_read
from workers.outcomes import ToolCall, TurnOutcome
from workers.tools import PROPOSE_TOOL, TOOLS, ToolContext, ToolResult

EditKind = Literal["tick", "untick", "add", "remove", "rename", "move"]
_KINDS: Final[dict[str, EditKind]] = {kind: kind for kind in get_args(EditKind)}
DOMAIN: Final = "edits"
_APOSTROPHE: Final = re.compile(r"(?<=\w)’(?=\w)")
"""A typographic apostrophe inside a word, not a closing quote."""
ECHOED_CHARS: Final = 80
"""The ask's words said back in a reply, at most: a pasted page is not repeated."""
_EDGE_JUNK: Final = " :：-–—,，、.。\"'“”‘’«»「」『』"

Reader = Callable[[TurnOutcome, ToolContext, str | None, dict[str, Any]], ToolResult]
Failure = Callable[[ToolContext, str, ToolResult], str | None]


@dataclass(frozen=True)
class EditRequest:
    kind: EditKind
    language: str
    target: str
    """What the request says about the task: its words, or the new task's text."""
    path: str | None
    more: tuple[str, ...] = ()
    """A rename's new words; a move's place and the task it goes next to."""


@functools.lru_cache(maxsize=8)
def edit_in(rest: str, path: str | None) -> EditRequest | None:
    """The edit a request asks for, or None: ``rest`` is the request without the paths it
    names (:func:`~workers.offline.intents.asked_of`), ``path`` the first of them; each edit
    intent of the table asks about the same request, read once.

    In order: an explicit "add a task", a move, a rename, untick (some of its phrases
    hold a tick phrase: "mark as not done"), tick, remove, then the everyday additions
    ("put X on my list"), which would otherwise read many asks as new tasks.
    """
    rest = _APOSTROPHE.sub("'", rest)  # one apostrophe: "j’ai", "I've"
    lowered = edit_asks.folded_like(rest)  # "ß" kept: the task's words are cut as written
    source = rest if len(lowered) == len(rest) else lowered
    marked = _marked("add", edit_words.ADD, source, lowered)
    if marked is not None:
        return replace(marked, path=path)
    for kind, finder in (("move", edit_asks.moved), ("rename", edit_asks.renamed)):
        named = finder(source, lowered)
        if named is not None:
            return EditRequest(_KINDS[kind], named.language, named.target, path, named.more)
    for kind, markers, pairs in (
        ("untick", edit_words.UNTICK, edit_words.UNTICK_AROUND),
        ("tick", edit_words.TICK, edit_words.TICK_AROUND),
    ):
        named = edit_asks.around(source, lowered, pairs)
        if named is not None:
            return EditRequest(_KINDS[kind], named.language, named.target, path)
        marked = _marked(_KINDS[kind], markers, source, lowered)
        if marked is not None:
            return replace(marked, path=path)
    named = edit_asks.said(source, lowered)
    if named is not None:
        return EditRequest("tick", named.language, named.target, path)
    marked = _marked("remove", edit_words.REMOVE, source, lowered)
    if marked is not None:
        return replace(marked, path=path)
    named = edit_asks.added(source, lowered)
    if named is not None:
        return EditRequest("add", named.language, named.target, path)
    return None


def _marked(
    kind: EditKind, by_language: dict[str, tuple[str, ...]], source: str, lowered: str
) -> EditRequest | None:
    for language, markers in by_language.items():
        for marker in markers:
            at = _marker_at(lowered, marker)
            if at >= 0:
                return EditRequest(
                    kind, language, _target(kind, source, at, at + len(marker)), None
                )
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
    if result.get("partial"):  # the read stops mid-line: only whole lines are changed
        text = text[: text.rfind("\n") + 1]
    seen = notes_on_read(language, result)  # "I only saw the first 262,144 bytes"
    planned = _plan(request, text, path)
    if isinstance(planned, str):
        outcome.reply = "\n\n".join([planned, *seen])
        return outcome
    arguments = {
        "path": path,
        "edits": [{"oldText": planned.old, "newText": planned.new}],
        "summary": planned.summary,
    }
    proposed = TOOLS[PROPOSE_TOOL](context, arguments)
    outcome.tool_calls.append(ToolCall(PROPOSE_TOOL, arguments, proposed))
    if proposed["status"] != "proposed":
        outcome.reply = failed(context, language, proposed) or ""
        return outcome
    outcome.reply = "\n\n".join([planned.reply, *seen])
    return outcome


@dataclass(frozen=True)
class Planned:
    """One change: the text it replaces, its new text, and how it is told."""

    old: str
    new: str
    summary: str
    reply: str


_SAID: Final[dict[EditKind, tuple[str, str]]] = {
    # (the proposal's summary, the reply) of each kind; a move's are by its place.
    "tick": (say.SUMMARY_TICK, say.PROPOSED_TICK),
    "untick": (say.SUMMARY_UNTICK, say.PROPOSED_UNTICK),
    "add": (say.SUMMARY_ADD, say.PROPOSED_ADD),
    "remove": (say.SUMMARY_REMOVE, say.PROPOSED_REMOVE),
    "rename": (say.SUMMARY_RENAME, say.PROPOSED_RENAME),
}


def planned(request: EditRequest, path: str, old: str, new: str, values: dict[str, str]) -> Planned:
    """The change told in the request's language (a move's words by its place)."""
    language = request.language
    summary, reply = _SAID.get(request.kind) or reshape.MOVE_SAID[values["place"]]
    values = {**values, "path": path}
    return Planned(
        old,
        new,
        phrase(language, summary, domain=DOMAIN, **values),
        phrase(language, reply, domain=DOMAIN, **values),
    )


def _plan(request: EditRequest, text: str, path: str) -> Planned | str:
    """The change, or the reply saying why there is none."""
    language = request.language
    reading = read_note(text)
    spans = line_spans(text)
    if request.kind == "add":
        if not request.target:
            return phrase(language, say.ADD_WHAT, domain=DOMAIN)
        old, new = _add(text, spans, reading.tasks, request.target)
        return planned(request, path, old, new, {"task": request.target})
    if request.kind == "rename":
        renamed = reshape.rename(request.target, request.more, language, text, path, reading, spans)
        return renamed if isinstance(renamed, str) else planned(request, path, *renamed)
    if not reading.tasks:
        return phrase(language, say.NO_TASKS, domain=DOMAIN, path=path)
    candidates = [
        task
        for task in reading.tasks
        if request.kind in ("remove", "move") or task.done == (request.kind == "untick")
    ]
    found = referred_tasks(request.kind, request.target, candidates)
    if len(found) != 1:
        return _no_single_match(request, path, found, candidates)
    task = found[0]
    if request.kind == "move":
        place, anchor = (*request.more, "", "")[:2]
        moved = reshape.move(
            place,
            anchor,
            language,
            text,
            path,
            reading.tasks,
            task,
            spans,
            lambda words, tasks: referred_tasks("move", words, tasks),
        )
        return moved if isinstance(moved, str) else planned(request, path, *moved)
    start, end = spans[task.line]
    if request.kind == "remove":
        stop = min(end + 1, len(text))  # the line and its line break
        removed = unique_change(text, start, stop, start, stop, "")
        return planned(request, path, *removed, {"task": task.text})
    mark = start + code_points(text[start:end], task.mark_column)
    replacement = "x" if request.kind == "tick" else " "
    changed = unique_change(text, start, end, mark, mark + 1, replacement)
    return planned(request, path, *changed, {"task": task.text})


def _no_single_match(
    request: EditRequest, path: str, found: list[Task], candidates: list[Task]
) -> str:
    language = request.language
    listed = found or candidates
    if not request.target and len(candidates) > 1:
        head = phrase(language, say.WHICH_TASK, domain=DOMAIN, path=path)
    elif found:
        words = clip(request.target, ECHOED_CHARS)
        head = phrase(language, say.AMBIGUOUS, domain=DOMAIN, path=path, words=words)
    else:
        words = clip(request.target, ECHOED_CHARS) or "…"
        head = phrase(language, say.NO_MATCH, domain=DOMAIN, path=path, words=words)
        if not candidates:
            return head
        head += " " + phrase(language, say.CANDIDATES, domain=DOMAIN)
    return "\n".join([head, bullet_list([task.text for task in listed], language)])


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
    wanted = _wanted(folded)
    scores = [(_score(wanted, task.text.casefold()), task) for task in tasks]
    best = max((score for score, _task in scores), default=0)
    return [task for score, task in scores if score == best] if best > 0 else []


WANTED_WORDS: Final = 16
"""A task is named in a few words: only the first this many (pairs of characters for
Chinese and Japanese: four times as many) are compared, so a 4,000-character ask
against 20,000 tasks costs what a short one does."""


def _wanted(target: str) -> tuple[bool, list[str]]:
    """(CJK, the words or character pairs of ``target`` worth comparing)."""
    if is_cjk(target):
        pairs = dict.fromkeys(target[i : i + 2] for i in range(len(target) - 1))
        return True, list(pairs)[: WANTED_WORDS * 4]
    words = [
        word
        for word in _words(target).split()
        if len(word) > 2 and word not in edit_words.STOP_WORDS
    ]
    return False, list(dict.fromkeys(words))[:WANTED_WORDS]


def _score(wanted: tuple[bool, list[str]], task: str) -> int:
    cjk, pieces = wanted
    if cjk:
        return sum(1 for pair in pieces if pair in task)
    task_words = _words(task).split()
    return sum(1 for word in pieces if any(_same_word(word, other) for other in task_words))


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
        return unique_change(text, start, end, end, end, f"\n{prefix}[ ] {task}")
    content_end = len(text.rstrip())
    if content_end == 0:
        return text, f"- [ ] {task}\n"
    line_start = text.rfind("\n", 0, content_end) + 1
    return unique_change(
        text, line_start, content_end, content_end, content_end, f"\n\n- [ ] {task}"
    )
