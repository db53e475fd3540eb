"""Edit asks in everyday words: where the task (or heading) is named, in the seven languages.

The forms beyond a marker phrase (:data:`~workers.offline.edit_words.TICK`):
"mark the second task done" (words between two markers), "I did X" and "X is done"
(said, never read in a question: "is X done?" ticks nothing), "add 'X' to my list",
"put X on my list", "X needs doing too", "rename the heading A to B", "call the Notes
section Details", "move X to the top / after Y". Each finder returns what the ask
names; :mod:`workers.offline.edits` gives it its kind and plans the change. All of
it is substring search over a request of at most 4,096 characters: linear.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from workers.offline import edit_words
from workers.offline.intents import _marker_at, _quoted, is_cjk

EDGE_JUNK: Final = " :：-–—,，、.。!！?？\"'“”‘’«»「」『』"
_OPENERS: Final = (
    "please", "pls", "can you", "could you", "would you", "will you", "now", "ok", "okay",
    "and", "also", "then", "peux tu", "pourrais tu", "stp", "s il te plaît", "bitte",
    "kannst du", "könntest du", "puedes", "podrías", "por favor",
)  # fmt: skip
_QUOTE_PAIRS: Final = ("“”", '""', "«»", "„“", "「」", "『』", "‘’", "''")


@dataclass(frozen=True)
class Named:
    """What an edit ask names: its language, the task or heading, and any more it says."""

    language: str
    target: str
    more: tuple[str, ...] = ()
    """A rename's new words; a move's place ("top", "bottom", "after", "before") and the
    task it goes next to."""


def folded_like(text: str) -> str:
    """The text in lower case, as long as it is: positions in one are positions in the other
    ("ß" stays; casefold would make it "ss")."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text.casefold()


def _spoken(lowered: str) -> int:
    """Where the ask proper starts, after "please", "can you" and the like."""
    at = 0
    changed = True
    while changed:
        changed = False
        for opener in _OPENERS:
            if lowered.startswith(opener + " ", at):
                at += len(opener) + 1
                changed = True
    return at


def is_asking(lowered: str) -> bool:
    """A question about the note ("what have I done?"), not a statement ("I did X")."""
    if "?" in lowered or "？" in lowered:
        return True
    if any(word in lowered for word in edit_words.ASKING_CJK):
        return True
    head = lowered[_spoken(lowered) :]
    return any(head.startswith(word + " ") for word in edit_words.ASKING)


def clean(text: str) -> str:
    """A task's or heading's words without the ask's own words at their edges."""
    text = text.strip(EDGE_JUNK)
    changed = True
    while changed and text:
        changed = False
        folded = folded_like(text)
        for word in (*edit_words.LIST_WORDS, *edit_words.FILLER_ENDS):
            cjk = is_cjk(word)
            if folded.endswith(word) and len(text) > len(word):
                cut = len(text) - len(word)
                if cjk or folded[cut - 1] == " ":
                    text, changed = text[:cut].strip(EDGE_JUNK), True
                    break
            if (
                folded.startswith(word)
                and len(text) > len(word)
                and (cjk or folded[len(word)] == " ")
            ):
                text, changed = text[len(word) :].strip(EDGE_JUNK), True
                break
    text = text.strip(EDGE_JUNK)
    return "" if text.casefold() in edit_words.LIST_WORDS else text


def _quotes(text: str) -> list[str]:
    """The quoted pieces of the ask, in order: 「A」を「B」に."""
    found: list[tuple[int, str]] = []
    for pair in _QUOTE_PAIRS:
        start = text.find(pair[0])
        while start >= 0:
            end = text.find(pair[1], start + 1)
            if end < 0:
                break
            if end > start + 1:
                found.append((start, text[start + 1 : end].strip()))
            start = text.find(pair[0], end + 1)
    return [piece for _start, piece in sorted(found)]


def around(
    source: str, lowered: str, table: dict[str, tuple[tuple[str, str], ...]]
) -> Named | None:
    """ "mark the second task done": the words between an opening and a closing marker."""
    for language, pairs in table.items():
        for opening, closing in pairs:
            start = _marker_at(lowered, opening)
            if start < 0:
                continue
            after = start + len(opening)
            end = _marker_at(lowered[after:], closing)
            if end < 0:
                continue
            end += after
            words = f"{source[:start]} {source[after:end]} {source[end + len(closing) :]}"
            return Named(language, _quoted(source) or clean(" ".join(words.split())))
    return None


def said(source: str, lowered: str) -> Named | None:
    """ "I did X", "X is done", 「X」は終わった: a tick, unless the ask is a question."""
    if is_asking(lowered):
        return None
    for language, markers in edit_words.TICK_SAID.items():
        for marker in markers:
            # "the dentist's done": a marker that starts with an apostrophe ends a word.
            at = lowered.find(marker) if marker[0] == "'" else _marker_at(lowered, marker)
            if at >= 0:
                words = f"{source[:at]} {source[at + len(marker) :]}"
                return Named(language, _quoted(source) or clean(" ".join(words.split())))
    return None


def added(source: str, lowered: str) -> Named | None:
    """ "add 'X' to my list", "put X on my list", "X needs doing too": a new task."""
    start = _spoken(lowered)
    asking = is_asking(lowered)
    for language, verbs in edit_words.ADD_VERBS.items():
        for verb in verbs:
            if is_cjk(verb):
                at = lowered.find(verb) if not asking else -1
                if at < 0:
                    continue
                words = f"{source[:at]} {source[at + len(verb) :]}"
            elif lowered.startswith(verb + " ", start):
                words = source[start + len(verb) :]
            else:
                continue
            target = _quoted(source) or clean(words)
            if target:
                return Named(language, target)
    if asking:
        return None
    for language, markers in edit_words.ADD_SAID.items():
        for marker in markers:
            at = _marker_at(lowered, marker)
            if at >= 0:
                before, after = source[:at], source[at + len(marker) :]
                target = _quoted(source) or clean(after) or clean(before)
                if target:
                    return Named(language, target)
    return None


def renamed(source: str, lowered: str) -> Named | None:
    """ "rename the heading A to B", "call the Notes section Details", 见出し「A」を「B」に."""
    quoted = _quotes(source)
    for language, markers in edit_words.RENAME.items():
        for marker in markers:
            at = _marker_at(lowered, marker)
            if at < 0:
                continue
            rest = " " + source[at + len(marker) :].strip(EDGE_JUNK) + " "
            if len(quoted) >= 2:
                return Named(language, quoted[0], (quoted[1],))
            folded = folded_like(rest)
            cut = max(folded.rfind(joint) for joint in edit_words.RENAME_TO)
            if cut < 0:
                return Named(language, _heading_words(rest), ("",))
            joint = next(j for j in edit_words.RENAME_TO if folded.startswith(j, cut))
            new = _heading_words(rest[cut + len(joint) :])
            return Named(language, _heading_words(rest[:cut]), (new,))
    for language, pairs in edit_words.RENAME_CALL.items():
        for opening, closing in pairs:
            start = _marker_at(lowered, opening)
            if start < 0:
                continue
            after = start + len(opening)
            if not closing:  # "appelle la section Notes Détails": split on the heading later
                rest = source[after:].strip(EDGE_JUNK)
                if len(quoted) >= 2:
                    return Named(language, quoted[0], (quoted[1],))
                return Named(language, rest, ("",)) if rest else None
            end = _marker_at(lowered[after:], closing)
            if end < 0:
                continue
            end += after
            heading = _heading_words(source[after:end])
            new = _heading_words(source[end + len(closing) :])
            if heading and new:
                return Named(language, heading, (new,))
    about_a_heading = any(noun in lowered for noun in edit_words.HEADING_NOUNS_CJK)
    for language, markers in edit_words.RENAME_CJK.items():
        for marker in markers:
            at = lowered.find(marker)
            if at < 0 or not (about_a_heading or marker in edit_words.RENAME_CJK_NAMING):
                continue
            if len(quoted) >= 2:
                return Named(language, quoted[0], (quoted[1],))
            if language == "zh":  # 把标题A改成B: the new words after
                return Named(
                    language,
                    _heading_words(source[:at]),
                    (_heading_words(source[at + len(marker) :]),),
                )
            head = source[:at]
            split = max(head.rfind(particle) for particle in ("を", "를 ", "을 ", "를", "을"))
            if split < 0:
                return Named(language, "", (_heading_words(head),))
            particle = next(
                p for p in ("를 ", "을 ", "を", "를", "을") if head.startswith(p, split)
            )
            return Named(
                language,
                _heading_words(head[:split]),
                (_heading_words(head[split + len(particle) :]),),
            )
    return None


def _heading_words(text: str) -> str:
    text = text.strip(EDGE_JUNK)
    changed = True
    while changed and text:
        changed = False
        folded = folded_like(text)
        for word in edit_words.HEADING_WORDS:
            cjk = is_cjk(word)
            if folded.startswith(word) and (cjk or folded[len(word) :][:1] in ("", " ")):
                text, changed = text[len(word) :].strip(EDGE_JUNK), True
                break
            if folded.endswith(word) and (cjk or folded[: -len(word)][-1:] in ("", " ")):
                text, changed = text[: -len(word)].strip(EDGE_JUNK), True
                break
    return _quoted(text) or text.strip(EDGE_JUNK)


def moved(source: str, lowered: str) -> Named | None:
    """ "move X to the top", "put X after Y", XをYの後に移動, 把X移到最前面."""
    start = _spoken(lowered)
    for language, verbs in edit_words.MOVE.items():
        for verb in verbs:
            if is_cjk(verb):
                at = lowered.find(verb)
                if at < 0:
                    continue
                return _moved_cjk(language, source, lowered, at, verb)
            if not lowered.startswith(verb + " ", start):
                continue
            body_at = start + len(verb) + 1
            body = lowered[body_at:]
            for phrase, place in edit_words.MOVE_PLACES[language]:
                at = _marker_at(body, phrase)
                if at < 0:
                    continue
                task = clean(source[body_at : body_at + at])
                anchor = clean(source[body_at + at + len(phrase) :])
                if place in ("top", "bottom"):
                    anchor = ""
                elif not anchor:
                    continue
                if task:
                    return Named(language, task, (place, anchor))
    return None


def _moved_cjk(language: str, source: str, lowered: str, at: int, verb: str) -> Named | None:
    for phrase, place in edit_words.MOVE_PLACES[language]:
        where = lowered.find(phrase)
        if where < 0:
            continue
        if language == "zh":  # 把X移到Y后面 / 把X移到最前面
            task = clean(source[:at].replace("把", " ", 1))
            anchor = clean(source[at + len(verb) : where]) if where > at else ""
        else:  # XをYの後に移動 / X를 맨 위로 옮겨
            head = source[: min(where, at)]
            split = max(head.find(particle) for particle in ("を", "를 ", "을 "))
            task = clean(head[:split] if split > 0 else head)
            anchor = clean(head[split + 1 :]) if split > 0 else ""
        if place in ("top", "bottom"):
            anchor = ""
        elif not anchor:
            continue
        if task:
            return Named(language, task, (place, anchor))
    return None
