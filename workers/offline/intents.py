"""How a request to the offline assistant is read: its language, paths and terms (R38, R23).

Everything here is linear in the request's size (R39): requests are split on
white space, punctuation is mapped to spaces with one ``str.translate``, and
phrases are found with substring search; there is no regular expression. Only
the first 4,096 characters of a request are read: a question is short, and a
pasted megabyte must cost no more than a short message.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from bridge.paths import WorkspacePathError, check_workspace_path
from workers.offline import words

REQUEST_CHARS: Final = 4096
PATH_SUFFIXES: Final = (".md", ".markdown", ".txt", ".text", ".org")
_QUOTES: Final = ("“”", '""', "«»", "„“", "「」", "『』", "‘’", "‚‘", "''", "``")
_WRAPPERS: Final = "\"'`“”„‘’‚«»「」『』()[]<>,.;:!?！？。、，：；"
_TERM_END: Final = "?!？！。\n"


@dataclass(frozen=True)
class Request:
    intent: str
    """The name of the table entry that recognised it (:mod:`workers.offline.table`)."""
    language: str
    paths: list[str] = field(default_factory=list)
    """Workspace paths the request names, in order."""
    term: str = ""
    """What to look for (find, search)."""
    text: str = ""
    """The request without the paths it names (read for a note named by its words)."""
    more: tuple[str, ...] = ()
    """What an edit says beyond its target: a heading's new words, a task's new place."""


def _punctuation_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in range(0x20, 0x3100):
        char = chr(code)
        if unicodedata.category(char)[0] in "PSZ" and char not in "-":
            table[code] = " "
    table[ord("-")] = " "
    table[ord("'")] = " "
    return table


_SPACES: Final = _punctuation_table()


def _words(text: str) -> str:
    """Lower-case words separated by single spaces, padded with a space on each side."""
    return " " + " ".join(text.casefold().translate(_SPACES).split()) + " "


def words_of(text: str) -> str:
    """The text as its lower-case words, one space apart and one on each side: " a b "."""
    return _words(text)


CJK_START: Final = "\u2e80"
"""The first CJK radical: any character from here on is read as CJK, without spaces."""


def is_cjk(phrase: str) -> bool:
    return bool(phrase) and max(phrase) >= CJK_START  # one pass in C, not a Python loop


@functools.cache
def _prepared(phrases: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A phrase list made ready once: CJK phrases as they are, the others as padded words."""
    cjk = tuple(phrase for phrase in phrases if is_cjk(phrase))
    others = tuple(_words(phrase) for phrase in phrases if not is_cjk(phrase))
    return cjk, others


def _has_any(padded: str, lowered: str, phrases: tuple[str, ...]) -> bool:
    cjk, others = _prepared(phrases)
    return any(phrase in lowered for phrase in cjk) or any(phrase in padded for phrase in others)


def language_of(text: str) -> str:
    """The request's language: by script for Japanese, Korean and Chinese, else by common words."""
    kana = hangul = han = latin = 0
    for char in text:
        code = ord(char)
        if 0x3040 <= code <= 0x30FF:
            kana += 1
        elif 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
            hangul += 1
        elif 0x4E00 <= code <= 0x9FFF:
            han += 1
        elif char.isalpha():
            latin += 1
    if "¿" in text or "¡" in text:
        return "es"  # only Spanish opens a question or an exclamation this way
    if hangul + kana + han >= latin and hangul + kana + han > 0:
        if hangul >= kana + han:
            return "ko"
        return "ja" if kana else "zh"
    tokens = _words(text).split()
    scores = {
        language: sum(1 for token in tokens if token in vocabulary)
        for language, vocabulary in _VOCABULARY.items()
    }
    best = max(scores, key=lambda language: (scores[language], language == "en"))
    return best if scores[best] > 0 else "en"


_VOCABULARY: Final = {
    language: frozenset(found) for language, found in words.LANGUAGE_WORDS.items()
}


def named_paths(text: str) -> tuple[list[str], str]:
    """Workspace paths named in the request, and the request with them taken out."""
    paths: list[str] = []
    kept: list[str] = []
    for token in text.split():
        candidate, tail = _path_in(token.strip(_WRAPPERS))
        if candidate:
            try:
                paths.append(check_workspace_path(candidate))
                kept.append(tail)
                continue
            except WorkspacePathError:
                pass
        kept.append(token)
    return paths, " ".join(kept)


def _path_in(token: str) -> tuple[str, str]:
    """A path at the start of a token and what follows it ("notes/b.md와" → "notes/b.md", "와")."""
    folded = token.casefold()
    for suffix in PATH_SUFFIXES:
        end = folded.find(suffix)
        while end > 0:
            cut = end + len(suffix)
            if cut == len(token) or not (token[cut].isascii() and token[cut].isalnum()):
                return token[:cut].strip(_WRAPPERS), token[cut:]
            end = folded.find(suffix, end + 1)
    return "", token


def _quoted(text: str) -> str:
    for pair in _QUOTES:
        start = text.find(pair[0])
        if start < 0:
            continue
        end = text.find(pair[1], start + 1)
        if end > start + 1:
            return text[start + 1 : end].strip()
    return ""


def _trim_term(term: str) -> str:
    term = term.strip().strip(_WRAPPERS).strip()
    changed = True
    while changed and term:
        changed = False
        folded = term.casefold()
        for edge in words.TERM_EDGES:
            if folded.startswith(edge + " ") and len(term) > len(edge) + 1:
                term, changed = term[len(edge) + 1 :].strip(), True
                break
            if folded.endswith(" " + edge):
                term, changed = term[: -len(edge) - 1].strip(), True
                break
    # One particle at most: "고양이가" loses "가", never the "이" of 고양이 as well.
    for prefix in words.CJK_TERM_PREFIXES:
        if term.startswith(prefix) and len(term) > len(prefix):
            term = term[len(prefix) :].strip()
            break
    for suffix in words.CJK_TERM_SUFFIXES:
        if term.endswith(suffix) and len(term) > len(suffix):
            term = term[: -len(suffix)].strip()
            break
    return term.strip(_WRAPPERS).strip()


def _after(text: str, lowered: str, marker: str) -> str | None:
    index = _marker_at(lowered, marker)
    if index < 0:
        return None
    rest = text[index + len(marker) :]
    cut = min((rest.find(end) for end in _TERM_END if end in rest), default=len(rest))
    return _trim_term(rest[:cut])


def _before(text: str, lowered: str, marker: str) -> str | None:
    index = _marker_at(lowered, marker)
    if index < 0:
        return None
    head = text[:index]
    start = max(head.rfind(end) for end in _TERM_END) + 1
    return _trim_term(head[start:])


def _marker_at(lowered: str, marker: str) -> int:
    """Where ``marker`` starts as whole words (Latin) or anywhere (CJK); -1 when absent."""
    start = lowered.find(marker)
    if start < 0 or is_cjk(marker):  # most markers are absent: asked about once found
        return start
    while start >= 0:
        before_ok = start == 0 or not lowered[start - 1].isalnum()
        end = start + len(marker)
        after_ok = end == len(lowered) or not lowered[end].isalnum()
        if before_ok and after_ok:
            return start
        start = lowered.find(marker, start + 1)
    return -1


def _is_a_term(term: str) -> bool:
    """ "find dentist" looks in the note; "find me a restaurant" asks for the world."""
    parts = term.casefold().split()
    if not parts or len(parts) > words.TERM_MAX_WORDS or parts[0] in words.NOT_A_TERM:
        return False
    return not is_cjk(term)  # "東京タワーはどこ？" asks for the world unless it says "note"


def find_term(text: str, padded: str, lowered: str) -> str | None:
    """The term of a find request, "" when it is one but names nothing, None when it is not one."""
    about_note = bool(_quoted(text)) or _has_any(padded, lowered, words.NOTE_REFERENCES)
    # Casefolding can change a text's length; positions are then taken in the folded text.
    source = text if len(lowered) == len(text) else lowered
    found: str | None = None
    for markers, take, generic in (
        (words.FIND, _after, False),
        (words.FIND_BEFORE, _before, False),
        (words.FIND_GENERIC, _after, True),
        (words.FIND_BEFORE_GENERIC, _before, True),
    ):
        for marker in markers:
            term = take(source, lowered, marker)
            if term is not None and (not generic or about_note or _is_a_term(term)):
                found = term
                break
        if found is not None:
            break
    if found is None:
        return None
    return _quoted(text) or found


def search_term(text: str, lowered: str) -> str:
    """The words of a search across notes ("which notes mention Sam?"), "" when it is not one."""
    source = text if len(lowered) == len(text) else lowered
    for markers, take in ((words.SEARCH, _after), (words.SEARCH_BEFORE, _before)):
        for marker in markers:
            term = take(source, lowered, marker)
            if term:
                return _quoted(text) or term
    for scope in words.SEARCH_SCOPE:
        at = _marker_at(lowered, scope)
        if at >= 0:  # "cherche Priya dans toutes mes notes": the find before the scope
            head = source[:at] + source[at + len(scope) :]
            term = find_term(head, _words(head), head.casefold())
            if term:
                return term
    return ""


@dataclass(frozen=True)
class Asked:
    """A request as each intent's test reads it: once split, folded and padded."""

    language: str
    paths: list[str]
    rest: str
    """The request without the paths it names."""
    lowered: str
    padded: str

    def has(self, phrases: tuple[str, ...]) -> bool:
        return _has_any(self.padded, self.lowered, phrases)


def asked_of(message: str) -> Asked:
    """A request read once for every intent's test: its first 4,096 characters, paths apart."""
    text = " ".join(message[:REQUEST_CHARS].split())
    paths, rest = named_paths(text)
    return Asked(language_of(rest or text), paths, rest, rest.casefold(), _words(rest))


def searched(asked: Asked) -> str | None:
    """The words of a search across notes, or None when the request is not one."""
    return None if asked.paths else search_term(asked.rest, asked.lowered) or None


def found(asked: Asked) -> str | None:
    """The term of a find in one note, "" when it names none, None when it is not one."""
    return find_term(asked.rest, asked.padded, asked.lowered)


def is_listing(asked: Asked) -> bool:
    return not asked.paths and (
        asked.has(words.LISTING_PHRASES)
        or (asked.has(words.LISTING_VERBS) and asked.has(words.LISTING_NOUNS))
    )


def is_summary(asked: Asked) -> bool:
    whole = asked.padded.strip() in words.SUMMARY_WHOLE
    return bool(asked.paths) or asked.has(words.SUMMARY) or whole


def is_greeting(asked: Asked) -> bool:
    short = len(asked.padded.split()) <= words.GREETING_MAX_WORDS
    return asked.has(words.GREETING) and short


def phrased(phrases: tuple[str, ...]) -> Callable[[Asked], bool]:
    """A test that holds when the request has one of ``phrases``."""

    def matches(asked: Asked) -> bool:
        return asked.has(phrases)

    return matches
