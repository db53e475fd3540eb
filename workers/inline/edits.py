"""The offline inline edits: deterministic changes of the selected lines (R70).

Each edit works on the selection's lines (a final line break stays where it was) and
is linear in the selection's size (R39). The instruction names the edit in any of the
seven languages (:mod:`workers.inline.words`); its language also picks the answer's
sentence. Anything else gets one sentence of what the offline assistant can do.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bridge.wire import KIND_EDIT, KIND_REFUSAL, AnswerKind
from workers.inline import phrases
from workers.inline.words import ORDER, PHRASES, Edit
from workers.offline.catalogue import phrase
from workers.offline.intents import is_cjk, language_of, words_of

_MARKER: Final = re.compile(r"([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+")
"""A list item's indent and bullet or number (bounded: linear on any line)."""
_TASK: Final = re.compile(r"([ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\[([ xX])\]")
_HEADING: Final = re.compile(r"[ \t]{0,3}#{1,6}(?:[ \t]+|$)")
_WORD_START: Final = re.compile(r"(?<![\w'’])\w")
_LEVEL: Final = re.compile(r"(?<!\d)([1-6])(?!\d)")

DIGEST_CHARS: Final = 160
"""A one-line digest is cut (at a word, with an ellipsis) past this many characters."""


@dataclass(frozen=True)
class OfflineAnswer:
    replacement: str
    summary: str
    kind: AnswerKind


def answer(instruction: str, selection: str) -> OfflineAnswer:
    """The offline answer to ``instruction`` about ``selection`` (empty: the cursor)."""
    found = find_edit(instruction)
    if found is None:
        language = language_of(instruction)
        return OfflineAnswer("", _say(language, phrases.REFUSAL), KIND_REFUSAL)
    edit, language = found
    if not selection.strip():
        return OfflineAnswer("", _say(language, phrases.NEEDS_SELECTION), KIND_REFUSAL)
    change, summary = _EDITS[edit]
    replacement = _on_lines(selection, lambda lines: change(lines, instruction))
    if replacement == selection:
        return OfflineAnswer(replacement, _say(language, phrases.NO_CHANGE), KIND_EDIT)
    return OfflineAnswer(replacement, _say(language, summary), KIND_EDIT)


def find_edit(instruction: str) -> tuple[Edit, str] | None:
    """The edit the instruction names and the language of the phrase that named it."""
    padded = words_of(instruction)
    lowered = instruction.casefold()
    for edit, language, words, looked_for in _PREPARED:
        if looked_for in (lowered if is_cjk(words) else padded):
            return edit, _language(edit, words, language, instruction)
    return None


_PREPARED: Final = tuple(
    (edit, language, words, words if is_cjk(words) else words_of(words))
    for edit in ORDER
    for language, said in PHRASES[edit].items()
    for words in said
)
"""Every phrase in the order it is looked for, with what is looked for: made once."""


def _language(edit: Edit, words: str, found: str, instruction: str) -> str:
    """The phrase's language; for one that several languages share (空行 in Japanese
    and Chinese), the one the instruction is written in."""
    sharing = [language for language, said in PHRASES[edit].items() if words in said]
    if len(sharing) == 1:
        return found
    written = language_of(instruction)
    return written if written in sharing else found


def _say(language: str, message: str) -> str:
    return phrase(language, message, domain=phrases.DOMAIN)


def _on_lines(text: str, change: Callable[[list[str]], list[str]]) -> str:
    """``change`` applied to the lines of ``text``; its final line break is kept."""
    ending = "\n" if text.endswith("\n") else ""
    body = text[: len(text) - len(ending)]
    changed = change(body.split("\n"))
    return "\n".join(changed) + ending if changed else ""


def _content(line: str) -> tuple[str, str]:
    """A line's list marker (indent, bullet or number) and the rest."""
    marker = _MARKER.match(line)
    return (marker.group(0), line[marker.end() :]) if marker else ("", line)


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _blank(line: str) -> bool:
    return not line.strip()


def _tasks(lines: list[str], _instruction: str) -> list[str]:
    made = []
    for line in lines:
        if _blank(line) or _TASK.match(line):
            made.append(line)
            continue
        made.append(f"{_indent(line)}- [ ] {_content(line)[1].strip()}")
    return made


def _ticking(done: bool) -> Callable[[list[str], str], list[str]]:
    mark = "x" if done else " "

    def tick(lines: list[str], _instruction: str) -> list[str]:
        made = []
        for line in lines:
            task = _TASK.match(line)
            made.append(line[: task.start(2)] + mark + line[task.end(2) :] if task else line)
        return made

    return tick


def _sort(lines: list[str], _instruction: str) -> list[str]:
    # Lines with text in alphabetical order (case ignored); empty lines after them.
    return sorted(lines, key=lambda line: (_blank(line), line.strip().casefold(), line))


def _number(lines: list[str], _instruction: str) -> list[str]:
    made, count = [], 0
    for line in lines:
        if _blank(line):
            made.append(line)
            continue
        count += 1
        made.append(f"{_indent(line)}{count}. {_content(line)[1].strip()}")
    return made


def _heading(lines: list[str], instruction: str) -> list[str]:
    level = _LEVEL.search(instruction)
    hashes = "#" * (int(level.group(1)) if level else 1)
    made = []
    for line in lines:
        if _blank(line):
            made.append(line)
            continue
        heading = _HEADING.match(line)
        rest = _content(line[heading.end() :] if heading else line)[1]
        made.append(f"{hashes} {rest.strip()}")
    return made


def _wrapping(mark: str) -> Callable[[list[str], str], list[str]]:
    def wrap(lines: list[str], _instruction: str) -> list[str]:
        made = []
        for line in lines:
            if _blank(line):
                made.append(line)
                continue
            task = _TASK.match(line)
            heading = _HEADING.match(line)
            if task:
                lead = task.group(0) + " "
            elif heading:
                lead = heading.group(0)
            else:
                lead = _content(line)[0]
            rest = line[len(lead) :] if line.startswith(lead) else line
            stripped = rest.strip()
            if not stripped:
                made.append(line)
                continue
            made.append(f"{lead}{mark}{stripped}{mark}")
        return made

    return wrap


def _remove_empty(lines: list[str], _instruction: str) -> list[str]:
    return [line for line in lines if not _blank(line)]


def _remove_repeated(lines: list[str], _instruction: str) -> list[str]:
    seen: set[str] = set()
    made = []
    for line in lines:
        key = line.strip()
        if key and key in seen:
            continue
        seen.add(key)
        made.append(line)
    return made


def _upper(lines: list[str], _instruction: str) -> list[str]:
    return [line.upper() for line in lines]


def _lower(lines: list[str], _instruction: str) -> list[str]:
    return [line.lower() for line in lines]


def _title(lines: list[str], _instruction: str) -> list[str]:
    return [_WORD_START.sub(lambda start: start.group(0).upper(), line) for line in lines]


def _join(lines: list[str], _instruction: str) -> list[str]:
    parts = [line.strip() for line in lines if not _blank(line)]
    joiner = "" if parts and all(is_cjk(part[-1:]) for part in parts[:-1]) else " "
    return [joiner.join(parts)]


def _summary(lines: list[str], _instruction: str) -> list[str]:
    """A one-line digest: the plain text of each line, joined, cut at a word."""
    items = []
    for line in lines:
        if _blank(line):
            continue
        heading = _HEADING.match(line)
        rest = line[heading.end() :] if heading else line
        task = _TASK.match(rest)
        rest = rest[task.end() :] if task else _content(rest)[1]
        items.append(rest.strip().replace("**", "").replace("__", ""))
    digest = "; ".join(item for item in items if item)
    if len(digest) > DIGEST_CHARS:
        cut = digest.rfind(" ", 0, DIGEST_CHARS)
        digest = digest[: cut if cut > DIGEST_CHARS // 2 else DIGEST_CHARS].rstrip(" ;") + "…"
    return [digest]


_EDITS: Final[dict[Edit, tuple[Callable[[list[str], str], list[str]], str]]] = {
    "tasks": (_tasks, phrases.TASKS),
    "tick": (_ticking(True), phrases.TICK),
    "untick": (_ticking(False), phrases.UNTICK),
    "sort": (_sort, phrases.SORT),
    "number": (_number, phrases.NUMBER),
    "heading": (_heading, phrases.HEADING),
    "bold": (_wrapping("**"), phrases.BOLD),
    "italic": (_wrapping("*"), phrases.ITALIC),
    "remove_empty": (_remove_empty, phrases.REMOVE_EMPTY),
    "remove_repeated": (_remove_repeated, phrases.REMOVE_REPEATED),
    "upper_case": (_upper, phrases.UPPER_CASE),
    "lower_case": (_lower, phrases.LOWER_CASE),
    "title_case": (_title, phrases.TITLE_CASE),
    "join": (_join, phrases.JOIN),
    "summary": (_summary, phrases.SUMMARY),
}
