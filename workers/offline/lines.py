"""Questions answered from the note's own lines: "what time is the standup?" (R83).

A question's content words are what is left once the language's stop words, the
question words and the ask's own words are taken out; each is stemmed lightly
("dentist's" meets "dentist", "stand-up" meets "standup", "Friday" meets "friday",
"booked" meets "book"). A line answers as many content words as it holds; the lines
that answer most come first. A question about a time or a date prefers the lines
that have one, a question about a place the lines that name one; a heading is never
a dated line. Chinese and Japanese have no spaces: their content is matched by
pairs of characters, Korean by words without their particles. Every note line is
read once, each question word looked up in a set: linear in the note's size.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

from bridge.markdown import NoteReading
from workers.offline import words
from workers.offline.dates import has_date
from workers.offline.intents import is_cjk, words_of

Kind = Literal["time", "place", "any"]
MAX_LINES: Final = 5
MAX_WORDS: Final = 16
_MIN_STEM: Final = 4
_LONGEST: Final = 24
"""Beginnings longer than this are not compared: no word of a note is that long but noise."""
_ENDINGS: Final = ("ing", "ed", "es", "s", "en", "er", "e")
_KOREAN_PARTICLES: Final = (
    "에서는", "에서", "으로", "에게", "한테", "은", "는", "이", "가", "을", "를", "에", "의", "도",
    "로", "와", "과", "랑", "요",
)  # fmt: skip


def stem(word: str) -> str:
    """A word without a common ending: "booked" → "book", "plants" → "plant"."""
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= _MIN_STEM:
            return word[: -len(ending)]
    return word


@dataclass(frozen=True)
class Question:
    """What a question asks the note: its content words, and whether it wants a time or place."""

    latin: tuple[str, ...]
    """Stems of its Latin-script (and Korean) content words."""
    pairs: frozenset[str]
    """Pairs of characters of its Chinese and Japanese content."""
    kind: Kind

    @property
    def empty(self) -> bool:
        return not self.latin and not self.pairs

    @property
    def needed(self) -> int:
        """How many of its content words a line must hold: all, or all but one of three or
        more (pairs of characters count as one word for every two)."""
        words = len(self.latin) + (len(self.pairs) + 1) // 2
        return max(1, words - 1 if words >= 3 else words) if self.latin else 1


def question(text: str, *, also_stop: Iterable[str] = ()) -> Question:
    """The content of an ask: its words less the stop words, the question words and
    ``also_stop`` (the phrases that named its intent: "when is", "締め切り")."""
    lowered = text.casefold()
    kind: Kind = "any"
    padded = words_of(text)
    if any(_has(padded, lowered, phrase) for phrase in words.TIME_QUESTIONS):
        kind = "time"
    elif any(_has(padded, lowered, phrase) for phrase in words.PLACE_QUESTIONS):
        kind = "place"
    cjk_text = lowered
    for phrase in sorted((*also_stop, *words.CJK_QUESTION_WORDS), key=len, reverse=True):
        if is_cjk(phrase):
            cjk_text = cjk_text.replace(phrase, " ")
    stop = words.QUESTION_STOP_WORDS | {
        word for phrase in also_stop if not is_cjk(phrase) for word in words_of(phrase).split()
    }
    latin: list[str] = []
    pairs: set[str] = set()
    for token in words_of(cjk_text).split():
        if token in stop:
            continue
        if not is_cjk(token):
            if len(token) > 1 or token.isdigit():
                latin.append(stem(token))
            continue
        if any("\uac00" <= char <= "\ud7a3" for char in token):  # Korean: a word, less its particle
            korean = _without_particle(token)
            if len(korean) >= 2 and korean not in stop:
                latin.append(korean)
            continue
        pairs.update(token[index : index + 2] for index in range(len(token) - 1))
        if len(token) == 1:
            pairs.add(token)
    # A question is short: its first few words are what a line is matched by, so a
    # 4,000-character ask costs what a short one does.
    kept_pairs = frozenset(sorted(pairs)[: MAX_WORDS * 4])
    return Question(tuple(dict.fromkeys(latin))[:MAX_WORDS], kept_pairs, kind)


def _has(padded: str, lowered: str, phrase: str) -> bool:
    return phrase in lowered if is_cjk(phrase) else words_of(phrase) in padded


def _without_particle(token: str) -> str:
    for particle in _KOREAN_PARTICLES:
        if token.endswith(particle) and len(token) > len(particle) + 1:
            return token[: -len(particle)]
    return token


def _line_words(line: str) -> tuple[set[str], set[str]]:
    """The line's stems, and each pair of neighbours joined ("stand up" → "standup"); and
    their beginnings of four letters or more, so a word is matched in a set, not a loop."""
    tokens = words_of(line).split()
    found = {stem(token) for token in tokens}
    found.update(stem(first + second) for first, second in itertools.pairwise(tokens))
    found.update(_without_particle(token) for token in tokens if is_cjk(token))
    beginnings = {
        word[:end] for word in found for end in range(_MIN_STEM, min(len(word), _LONGEST) + 1)
    }
    return found, beginnings


def _held(word: str, found: set[str], beginnings: set[str]) -> bool:
    """The word is on the line, one of the line's words begins with it, or it begins with
    one of them (four letters or more): "booked" and "book", "dentist's" and "dentist"."""
    if word in found or (len(word) >= _MIN_STEM and word in beginnings):
        return True
    return any(word[:end] in found for end in range(_MIN_STEM, min(len(word), _LONGEST) + 1))


def score(asked: Question, line: str) -> int:
    """How many of the question's content words the line holds."""
    found = 0
    if asked.latin:
        line_words, beginnings = _line_words(line)
        lowered = line.casefold()
        for word in asked.latin:
            if _held(word, line_words, beginnings) or (is_cjk(word) and word in lowered):
                found += 1
    if asked.pairs:
        found += sum(1 for pair in asked.pairs if pair in line)
    return found


def answering_lines(
    reading: NoteReading, asked: Question, *, dated_only: bool = False
) -> list[tuple[int, str]]:
    """(0-based line, line) of the lines that answer most of the question, best first.

    Lines holding fewer than all the best line's words are left out unless they tie;
    for a time or date question (or ``dated_only``) a line with a date comes first,
    and a heading never counts as one.
    """
    if asked.empty:
        return []
    headings = {heading.line for heading in reading.headings}
    ranked: list[tuple[int, int, int, str]] = []
    for number, line in enumerate(reading.lines):
        if not line.strip():
            continue
        found = score(asked, line)
        if not found:
            continue
        dated = number not in headings and has_date(line)
        if dated_only and not dated:
            continue
        preferred = int(asked.kind == "time" and dated) + int(
            asked.kind == "place" and _names_a_place(line)
        )
        ranked.append((found, preferred - (number in headings), number, line))
    if not ranked:
        return []
    best = max(found for found, _preferred, _number, _line in ranked)
    if best < asked.needed:  # "quel temps fait-il à Lyon ?" is not answered by a line on Lyon
        return []
    kept = [entry for entry in ranked if entry[0] == best]
    kept.sort(key=lambda entry: (-entry[1], entry[2]))
    return [(number, line) for _found, _preferred, number, line in kept[:MAX_LINES]]


def _names_a_place(line: str) -> bool:
    padded = words_of(line)
    return any(f" {word} " in padded for word in words.PLACE_WORDS) or any(
        word in line for word in words.PLACE_WORDS if is_cjk(word)
    )


def distinctive(text: str, count: int = 6) -> list[str]:
    """The words that stand out in a text: its most used content words, as written."""
    seen: Counter[str] = Counter()
    written: dict[str, str] = {}
    for raw in text.split():
        token = raw.strip(".,;:!?()[]*_`\"'“”‘’«»#>-")
        folded = token.casefold()
        if len(folded) < _MIN_STEM or not token.isalpha() or folded in words.QUESTION_STOP_WORDS:
            continue
        key = stem(folded)
        seen[key] += 1
        written.setdefault(key, token)
    ranked = sorted(seen, key=lambda key: (-seen[key], -len(key)))
    return [written[key] for key in ranked[:count]]
