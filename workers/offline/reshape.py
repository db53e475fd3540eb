"""A heading renamed, a task moved: the changes of "rename the heading A to B" and "move X
to the top / after Y" (R83), planned on the one Markdown reading.

A rename names its heading by its words; without any ("rename the heading to Plans"),
the note's only top-level heading, its title, is meant, and with several the ask is
answered by naming them. A task moves within its own list (the run of task lines it
is in): to its top, its bottom, or next to another task of the list.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

from bridge.markdown import Heading, NoteReading, Task
from workers.offline import edit_phrases as say
from workers.offline.catalogue import phrase
from workers.offline.changes import unique_change
from workers.offline.intents import words_of
from workers.offline.replies import bullet_list

DOMAIN: Final = "edits"
Change = tuple[str, str, dict[str, str]]
"""(oldText, newText, the words that tell it: heading, name, task, other, place)."""
Refer = Callable[[str, Sequence[Task]], list[Task]]

MOVE_SAID: Final[dict[str, tuple[str, str]]] = {
    "top": (say.SUMMARY_MOVE, say.PROPOSED_MOVE_TOP),
    "bottom": (say.SUMMARY_MOVE, say.PROPOSED_MOVE_BOTTOM),
    "after": (say.SUMMARY_MOVE, say.PROPOSED_MOVE_AFTER),
    "before": (say.SUMMARY_MOVE, say.PROPOSED_MOVE_BEFORE),
}
_ATX: Final = re.compile(r"[ ]{0,3}#{1,6}(?:[ \t]+|$)")


def rename(
    target: str,
    more: tuple[str, ...],
    language: str,
    text: str,
    path: str,
    reading: NoteReading,
    spans: list[tuple[int, int]],
) -> Change | str:
    headings = reading.headings
    if not headings:
        return phrase(language, say.NO_HEADINGS, domain=DOMAIN, path=path)
    name = more[0] if more else ""
    if target and not name:  # "call the Notes section Details": the heading's words first
        folded = target.casefold()
        prefixed = [h for h in headings if folded.startswith(h.text.casefold() + " ")]
        if prefixed:
            best = max(prefixed, key=lambda heading: len(heading.text))
            target, name = best.text, target[len(best.text) :].strip()
    if not name:
        return phrase(language, say.RENAME_TO_WHAT, domain=DOMAIN)
    found = _named_headings(target, headings)
    if len(found) != 1:
        listed = found or headings
        head = (
            phrase(language, say.WHICH_HEADING, domain=DOMAIN, path=path)
            if found or not target
            else phrase(language, say.NO_HEADING_MATCH, domain=DOMAIN, path=path, words=target)
        )
        return "\n".join([head, bullet_list([heading.text for heading in listed], language)])
    heading = found[0]
    start, end = spans[heading.line]
    line = text[start:end]
    marks = _ATX.match(line)
    if marks is None:  # a setext heading: its text line alone is the heading's words
        indent = len(line) - len(line.lstrip())
        new_line = line[:indent] + name
    else:
        new_line = line[: marks.end()] + ("" if marks.group().endswith((" ", "\t")) else " ") + name
    old, new = unique_change(text, start, end, start, end, new_line)
    return old, new, {"heading": heading.text, "name": name}


def _named_headings(target: str, headings: Sequence[Heading]) -> list[Heading]:
    if not target:
        top = min(heading.level for heading in headings)
        titles = [heading for heading in headings if heading.level == top]
        return titles if len(titles) == 1 else []
    folded = target.casefold()
    same = [heading for heading in headings if heading.text.casefold() == folded]
    if same:
        return same
    holding = [heading for heading in headings if folded in heading.text.casefold()]
    if holding:
        return holding
    wanted = set(words_of(target).split())
    scores = [(len(wanted & set(words_of(h.text).split())), h) for h in headings]
    best = max(score for score, _heading in scores)
    return [heading for score, heading in scores if score == best] if best else []


def move(
    place: str,
    anchor: str,
    language: str,
    text: str,
    path: str,
    tasks: Sequence[Task],
    task: Task,
    spans: list[tuple[int, int]],
    refer: Refer,
) -> Change | str:
    block = _list_of(tasks, task)
    others = [other for other in block if other is not task]
    order = list(others)
    values = {"task": task.text, "place": place, "other": ""}
    if place == "top":
        order.insert(0, task)
    elif place == "bottom":
        order.append(task)
    else:
        found = refer(anchor, others)
        if len(found) != 1:
            words = anchor or "…"
            head = phrase(language, say.NO_MATCH, domain=DOMAIN, path=path, words=words)
            listed = found or others
            return "\n".join([head, bullet_list([other.text for other in listed], language)])
        at = order.index(found[0]) + (1 if place == "after" else 0)
        order.insert(at, task)
        values["other"] = found[0].text
    if order == block:
        return phrase(language, say.MOVE_ALREADY, domain=DOMAIN, task=task.text, path=path)
    start, end = spans[block[0].line][0], spans[block[-1].line][1]
    breaks = text[spans[block[0].line][1] : spans[block[0].line + 1][0]] if len(block) > 1 else "\n"
    lines = [text[spans[item.line][0] : spans[item.line][1]] for item in order]
    old, new = unique_change(text, start, end, start, end, breaks.join(lines))
    return old, new, values


def _list_of(tasks: Sequence[Task], task: Task) -> list[Task]:
    """The run of task lines ``task`` is in: consecutive lines with the same indent."""
    index = tasks.index(task)
    first = last = index
    while first > 0 and _follows(tasks[first - 1], tasks[first]):
        first -= 1
    while last + 1 < len(tasks) and _follows(tasks[last], tasks[last + 1]):
        last += 1
    return list(tasks[first : last + 1])


def _follows(before: Task, after: Task) -> bool:
    return after.line == before.line + 1 and after.mark_column == before.mark_column
