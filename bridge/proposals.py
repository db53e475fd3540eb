"""Proposals as the app uses them: reviewed as a line diff, rebased, applied (R50–R52).

The proposal itself is :class:`bridge.wire.Proposal`, read strictly from the backend's
answer. Qt-free and linear in the note's size. A proposal's edits index its base text (the
saved copy it was computed from) in code points (contract 10). :func:`rebase` moves
them onto the text the person has now: the base and the live text are compared by
their common prefix and suffix, and an edit whose range that changed span touches is
refused, so a proposal never lands over the person's typing (R52).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from bridge.wire import ProposalEdit


def apply_edits(text: str, edits: Sequence[ProposalEdit]) -> str:
    """``text`` with sorted, non-overlapping ``edits`` applied."""
    parts: list[str] = []
    cursor = 0
    for edit in edits:
        parts += (text[cursor : edit.start], edit.text)
        cursor = edit.end
    parts.append(text[cursor:])
    return "".join(parts)


_CHUNK: Final = 4096
"""Characters compared at once (one C-level slice comparison) before the char-by-char step."""


def changed_span(base: str, live: str) -> tuple[int, int, int]:
    """(start, base_end, live_end): ``base[start:base_end]`` became ``live[start:live_end]``."""
    limit = min(len(base), len(live))
    start = 0
    while start + _CHUNK <= limit and base[start : start + _CHUNK] == live[start : start + _CHUNK]:
        start += _CHUNK
    while start < limit and base[start] == live[start]:
        start += 1
    tail, room = 0, limit - start
    base_end, live_end = len(base), len(live)
    while tail + _CHUNK <= room and (
        base[base_end - tail - _CHUNK : base_end - tail]
        == live[live_end - tail - _CHUNK : live_end - tail]
    ):
        tail += _CHUNK
    while tail < room and base[base_end - 1 - tail] == live[live_end - 1 - tail]:
        tail += 1
    return start, base_end - tail, live_end - tail


def rebase(base: str, live: str, edits: Sequence[ProposalEdit]) -> list[ProposalEdit] | None:
    """The edits moved onto ``live``, or None when the person changed where one applies.

    "Where one applies" (R52): the changed span overlaps an edit's range, or touches
    it (typing right at either end of the range counts as inside it). Edits wholly
    before the span stay; edits wholly after it move by the change in length.
    """
    if base == live:
        return list(edits)
    start, base_end, live_end = changed_span(base, live)
    shift = live_end - base_end
    moved: list[ProposalEdit] = []
    for edit in edits:
        if edit.end < start:
            moved.append(edit)
        elif edit.start > base_end:
            moved.append(_shifted(edit, shift))
        else:
            return None
    return moved


@dataclass(frozen=True)
class DiffLine:
    """One line of a review: ``removed`` (its number in the base) or ``added`` (in the result)."""

    kind: str
    number: int
    text: str


class Review(NamedTuple):
    """A proposal's review: the lines built (at most the ``most`` asked for) and the counts."""

    lines: list[DiffLine]
    removed: int
    """Lines of the base the whole change removes (or changes)."""
    added: int
    """Lines of the result the whole change adds (or changes)."""


def review(base: str, edits: Sequence[ProposalEdit], most: int | None = None) -> Review:
    """The lines the edits change, removed then added, with 1-based line numbers (R51).

    A line an edit leaves as it was (the line a new task is added after, when the edit
    rewrites it whole) is not shown: only changed lines are removed or added. At most
    ``most`` lines are built (a review shows a few dozen): a change of a million lines
    costs a few splits in C, not a million objects (R78). The counts are the whole
    change's.
    """
    lines: list[DiffLine] = []
    removed = added = 0
    shift = 0  # lines added minus removed by the earlier hunks
    for first, last, hunk in _hunks(base, edits):
        line_start = base.rfind("\n", 0, first) + 1
        line_end = base.find("\n", last)
        line_end = len(base) if line_end < 0 else line_end
        number = base.count("\n", 0, line_start) + 1
        region = base[line_start:line_end]
        changed = apply_edits(region, _relative(hunk, line_start))
        change = _LineChange.between(region, changed)
        removed += change.removed_count
        added += change.added_count
        room = None if most is None else max(0, most - len(lines))
        if change.removed_count and (room is None or room > 0):
            old = _first_lines(change.removed, room)
            first_old = number + change.lead
            lines += [DiffLine("removed", first_old + i, text) for i, text in enumerate(old)]
        room = None if most is None else max(0, most - len(lines))
        if change.added_count and (room is None or room > 0):
            new = _first_lines(change.added, room)
            first_new = number + shift + change.lead
            lines += [DiffLine("added", first_new + i, text) for i, text in enumerate(new)]
        shift += change.added_count - change.removed_count
    return Review(lines, removed, added)


@dataclass(frozen=True)
class _LineChange:
    """Two texts as whole lines: how many they share at the start, and the lines between.

    ``removed`` and ``added`` are the texts of the lines that differ (meaningful only
    when their count is not 0). Found from the texts' common prefix and suffix
    (compared in C), so a long region shared at either end costs no Python per line.
    """

    lead: int
    removed: str
    removed_count: int
    added: str
    added_count: int

    @classmethod
    def between(cls, old: str, new: str) -> _LineChange:
        old_lines, new_lines = old.count("\n") + 1, new.count("\n") + 1
        start = changed_span(old, new)[0]
        lead = old.count("\n", 0, start)
        old_from = new_from = old.rfind("\n", 0, start) + 1
        line_end_old, line_end_new = _line_end(old, old_from), _line_end(new, new_from)
        if line_end_old == line_end_new <= start:  # the line ends one text, the other goes on
            lead += 1
            old_from, new_from = line_end_old + 1, line_end_new + 1
        # The shared end, measured on its own: the shared start must not shorten it.
        shared_end = changed_span(old[::-1], new[::-1])[0]
        old_end, new_end = len(old) - shared_end, len(new) - shared_end
        trail = old.count("\n", old_end)
        old_to, new_to = _line_end(old, old_end), _line_end(new, new_end)
        old_start, new_start = old.rfind("\n", 0, old_to) + 1, new.rfind("\n", 0, new_to) + 1
        if old_start == old_end and new_start == new_end:  # a whole line in the shared end
            trail += 1
            old_to, new_to = old_start - 1, new_start - 1
        shorter = min(old_lines, new_lines)
        if lead + trail > shorter:
            # The ends overlap in the shorter text: all its lines past the shared start
            # are its shared end, and the longer text's lines between are the change.
            trail = shorter - lead
            old_to = _before_tail(old, new, new_from, trail)
            new_to = _before_tail(new, old, old_from, trail)
        removed_count = old_lines - lead - trail
        added_count = new_lines - lead - trail
        return cls(
            lead=lead,
            removed=old[old_from:old_to] if removed_count > 0 else "",
            removed_count=removed_count,
            added=new[new_from:new_to] if added_count > 0 else "",
            added_count=added_count,
        )


def _before_tail(text: str, other: str, other_from: int, trail: int) -> int:
    """Where ``text``'s change ends when its last ``trail`` lines are ``other[other_from:]``."""
    return len(text) - (len(other) - other_from) - 1 if trail > 0 else len(text)


def _line_end(text: str, position: int) -> int:
    """Where the line holding ``position`` ends (its newline, or the end of the text)."""
    end = text.find("\n", position)
    return len(text) if end < 0 else end


def _first_lines(text: str, most: int | None) -> list[str]:
    """``text.split("\n")``, only the first ``most`` parts when given (split stops early)."""
    if most is None:
        return text.split("\n")
    return text.split("\n", most)[:most]


def _hunks(base: str, edits: Sequence[ProposalEdit]) -> list[tuple[int, int, list[ProposalEdit]]]:
    """Edits grouped by the lines they touch: edits on one line make one hunk."""
    hunks: list[tuple[int, int, list[ProposalEdit]]] = []
    for edit in edits:
        if hunks and base.count("\n", hunks[-1][1], edit.start) == 0:
            first, _last, group = hunks[-1]
            hunks[-1] = (first, edit.end, [*group, edit])
        else:
            hunks.append((edit.start, edit.end, [edit]))
    return hunks


def _relative(edits: Sequence[ProposalEdit], offset: int) -> list[ProposalEdit]:
    return [_shifted(edit, -offset) for edit in edits]


def _shifted(edit: ProposalEdit, shift: int) -> ProposalEdit:
    """``edit`` moved by ``shift`` code points, unvalidated: its text was validated when read,
    and validating it again would copy megabytes on the GUI thread."""
    return ProposalEdit.model_construct(
        start=edit.start + shift, end=edit.end + shift, text=edit.text
    )
