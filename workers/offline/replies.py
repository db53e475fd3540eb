"""The offline assistant's replies, built from what its tools read (R38).

Replies are Markdown. Their fixed phrases come from the catalogue of the request's
language; note text (titles, sentences, tasks, headings, quoted lines) is quoted
as written. Everything about a note comes from the one Markdown reading
(:mod:`bridge.markdown`) and is linear in the note's size.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any, Final

from bridge.contract import SEARCH_MAX_NOTES
from bridge.markdown import NoteReading, find_lines, read_note
from workers.offline import phrases
from workers.offline.catalogue import phrase
from workers.offline.dates import dated_lines
from workers.offline.due import DueRequest, Span, due_lines, span_dates
from workers.offline.lines import Question, answering_lines, distinctive
from workers.tools import ToolResult

SUMMARY_CHARS: Final = 280
LIST_ITEMS: Final = 50
QUOTE_CHARS: Final = 200
SHARED_WORDS: Final = 8
_SENTENCE_ENDS: Final = ".!?。！？"
_WIDE_ENDS: Final = "。！？"


LANGUAGES: Final = ("en", "fr", "de", "es", "ja", "zh", "ko")


def lists_abilities(reply: str) -> bool:
    """True when an earlier reply already listed what the offline assistant can do."""
    return any(phrase(language, phrases.CAN_DO) + "\n- " in reply for language in LANGUAGES)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def bullet_list(items: list[str], language: str) -> str:
    """The first items, then how many more there are, in words: "(+673)" read as a total."""
    shown = [f"- {item}" for item in items[:LIST_ITEMS]]
    if len(items) > LIST_ITEMS:
        more = phrase(language, phrases.MORE_ITEMS, count=len(items) - LIST_ITEMS)
        shown.append(f"- {more}")
    return "\n".join(shown)


def first_sentences(prose: Iterable[str]) -> list[str]:
    """The first two sentences of the prose; only its first few hundred characters are read.

    Paragraphs are joined, so a sentence wrapped across lines stays whole. The reply
    is cut at 280 characters anyway, so nothing past twice that is ever scanned.
    """
    sentences: list[str] = []
    current: list[str] = []
    budget = 2 * SUMMARY_CHARS
    for whole in prose:
        paragraph = whole[:budget]
        budget -= len(paragraph)
        start = 0
        for index, char in enumerate(paragraph):
            if char not in _SENTENCE_ENDS:
                continue
            following = whole[index + 1 : index + 2]
            if char in _WIDE_ENDS or following in ("", " "):
                current.append(paragraph[start : index + 1])
                sentences.append(" ".join(part.strip() for part in current if part.strip()))
                current, start = [], index + 1
                if len(sentences) == 2:
                    return sentences
        current.append(paragraph[start:])
        if budget <= 0:
            break
    tail = " ".join(part.strip() for part in current if part.strip())
    if tail:
        sentences.append(tail)
    return sentences[:2]


def summary_text(reading: NoteReading) -> str:
    """Prose's first two sentences; the list items when the note has no prose."""
    prose = (block.text for block in reading.blocks if not block.in_list and block.text)
    sentences = first_sentences(prose)
    if sentences:
        return clip(" ".join(sentences), SUMMARY_CHARS)
    items = [block.text for block in reading.blocks if block.in_list and block.text]
    return clip("; ".join(items[:LIST_ITEMS]), SUMMARY_CHARS) if items else ""


def counts(language: str, reading: NoteReading) -> str:
    return phrase(
        language,
        phrases.COUNTS,
        headings=len(reading.headings),
        tasks=len(reading.open_tasks),
    )


def title_line(language: str, result: ToolResult, reading: NoteReading) -> str:
    title = reading.title or result["path"]
    if result.get("view"):
        return phrase(
            language, phrases.TITLE_ACTIVE, title=title, path=result["path"], view=result["view"]
        )
    return phrase(language, phrases.TITLE_DOCUMENT, title=title, path=result["path"])


def notes_on_read(language: str, result: ToolResult) -> list[str]:
    """What the person should know about the read itself: partial (R26), behind the screen (R25)."""
    notes: list[str] = []
    if result.get("partial"):
        seen = len((result.get("text") or "").encode("utf-8"))
        notes.append(
            phrase(language, phrases.PARTIAL, seen=f"{seen:,}", total=f"{result['bytes']:,}")
        )
    if result.get("caveat"):
        notes.append(phrase(language, phrases.CAVEAT))
    return notes


def summary(language: str, result: ToolResult, reading: NoteReading) -> list[str]:
    text = summary_text(reading) or phrase(language, phrases.EMPTY_NOTE)
    return [f"{title_line(language, result, reading)}\n\n{text}", counts(language, reading)]


def selection(language: str, result: ToolResult, selected: dict[str, Any]) -> list[str]:
    """The selected text summarised, not repeated (R83): its first sentence, its headings
    and tasks counted, and the words that stand out in it."""
    text: str = selected["text"]
    head = phrase(
        language,
        phrases.SELECTION,
        path=result["path"],
        first=selected["firstLine"],
        last=selected["lastLine"],
    )
    reading = read_note(text)
    headings = {heading.line for heading in reading.headings}
    prose = (
        block.text
        for block in reading.blocks
        if block.text and not block.in_list and block.line not in headings
    )
    sentences = first_sentences(prose)
    parts = [f"{head}\n\n{clip(sentences[0], SUMMARY_CHARS)}" if sentences else head]
    counted = phrase(
        language,
        phrases.SELECTION_COUNTS,
        headings=len(reading.headings),
        tasks=len(reading.tasks),
        open=len(reading.open_tasks),
    )
    parts.append(counted)
    standing_out = distinctive(text)
    if standing_out:
        parts.append(phrase(language, phrases.SELECTION_WORDS, words=", ".join(standing_out)))
    return parts


def done(language: str, result: ToolResult, reading: NoteReading) -> list[str]:
    """The ticked tasks: "what have I done?" (R83)."""
    path = result["path"]
    ticked = [task.text for task in reading.tasks if task.done]
    if not ticked:
        return [phrase(language, phrases.DONE_NONE, path=path)]
    return [f"{phrase(language, phrases.DONE, path=path)}\n\n{bullet_list(ticked, language)}"]


def answer(language: str, result: ToolResult, found: list[tuple[int, str]]) -> list[str]:
    """The note's own lines that answer a question, with their numbers, best first (R83)."""
    items = [f"{number + 1}: {clip(line.strip(), QUOTE_CHARS)}" for number, line in found]
    return [
        f"{phrase(language, phrases.ANSWER, path=result['path'])}\n\n"
        + "\n".join(f"- {item}" for item in items)
    ]


def tasks(language: str, result: ToolResult, reading: NoteReading) -> list[str]:
    path = result["path"]
    if not reading.tasks:
        return [phrase(language, phrases.TASKS_NONE, path=path)]
    open_tasks = reading.open_tasks
    if not open_tasks:
        return [phrase(language, phrases.TASKS_ALL_DONE, path=path)]
    items = [task.text for task in open_tasks]
    return [f"{phrase(language, phrases.TASKS, path=path)}\n\n{bullet_list(items, language)}"]


def outline(language: str, result: ToolResult, reading: NoteReading) -> list[str]:
    path = result["path"]
    if not reading.headings:
        return [phrase(language, phrases.OUTLINE_NONE, path=path)]
    lines = [
        f"{'  ' * (heading.level - 1)}- {heading.text}"
        for heading in reading.headings[: LIST_ITEMS * 4]
    ]
    return [f"{phrase(language, phrases.OUTLINE, path=path)}\n\n" + "\n".join(lines)]


def find(language: str, result: ToolResult, reading: NoteReading, term: str) -> list[str]:
    path = result["path"]
    found = find_lines(reading, term)
    if not found:
        return [phrase(language, phrases.FIND_NONE, path=path, term=term)]
    items = [f"{number + 1}: {clip(line.strip(), QUOTE_CHARS)}" for number, line in found]
    return [
        f"{phrase(language, phrases.FIND, path=path, term=term)}\n\n{bullet_list(items, language)}"
    ]


def dates(
    language: str, result: ToolResult, reading: NoteReading, about: Question | None = None
) -> list[str]:
    """The lines with a date, a weekday, a time or a deadline word (R56); "when is the
    dentist?" gives the dentist's dated lines only, when there are some (R83)."""
    path = result["path"]
    found = answering_lines(reading, about, dated_only=True) if about else []
    found = found or dated_lines(reading)
    if not found:
        return [phrase(language, phrases.DATES_NONE, path=path)]
    items = [f"{number + 1}: {clip(line.strip(), QUOTE_CHARS)}" for number, line in found]
    return [f"{phrase(language, phrases.DATES, path=path)}\n\n{bullet_list(items, language)}"]


_WHEN: Final[dict[Span, str]] = {
    "today": phrases.WHEN_TODAY,
    "tomorrow": phrases.WHEN_TOMORROW,
    "this_week": phrases.WHEN_THIS_WEEK,
    "next_week": phrases.WHEN_NEXT_WEEK,
    "overdue": phrases.WHEN_OVERDUE,
}


def due(
    language: str, result: ToolResult, reading: NoteReading, request: DueRequest, today: date
) -> list[str]:
    """The lines due in the span the request names, by the note's own dates (R56, R80)."""
    path = result["path"]
    first, last = span_dates(request.span, today)
    if request.span == "overdue":
        span = f"< {today.isoformat()}"
    elif first == last:
        span = first.isoformat()
    else:
        span = f"{first.isoformat()} – {last.isoformat()}"
    when = phrase(language, _WHEN[request.span])
    found = due_lines(reading, request, today)
    if not found:
        return [phrase(language, phrases.DUE_NONE, path=path, when=when, span=span)]
    items = [f"{number + 1}: {clip(line.strip(), QUOTE_CHARS)}" for number, line in found]
    head = phrase(language, phrases.DUE, path=path, when=when, span=span)
    return [f"{head}\n\n{bullet_list(items, language)}"]


def search(language: str, result: ToolResult, term: str) -> str:
    """search_documents' matches: each note, then its matching lines (R56)."""
    matches = result["matches"]
    if not matches:
        return phrase(language, phrases.SEARCH_NONE, term=term)
    template = phrases.SEARCH_MORE if len(matches) >= SEARCH_MAX_NOTES else phrases.SEARCH
    lines = [phrase(language, template, term=term, count=len(matches)), ""]
    for match in matches:
        lines.append(f"- **{match['path']}**")
        lines += [
            f"  - {item['line']}: {clip(item['text'], QUOTE_CHARS)}" for item in match["lines"]
        ]
    return "\n".join(lines)


def _latin_words(reading: NoteReading) -> dict[str, str]:
    """Distinct words of five letters or more, by folded form, in order of first use."""
    found: dict[str, str] = {}
    for block in reading.blocks:
        for word in block.text.split():
            clean = word.strip(".,;:!?()[]*_`\"'“”‘’«»")
            if len(clean) >= 5 and clean.isalpha() and clean.isascii():
                found.setdefault(clean.casefold(), clean)
    return found


def compare(
    language: str,
    first: ToolResult,
    first_reading: NoteReading,
    second: ToolResult,
    second_reading: NoteReading,
) -> list[str]:
    parts = [phrase(language, phrases.COMPARE, first=first["path"], second=second["path"])]
    first_headings = [heading.text for heading in first_reading.headings]
    second_headings = [heading.text for heading in second_reading.headings]
    second_set, first_set = set(second_headings), set(first_headings)
    shared = [text for text in dict.fromkeys(first_headings) if text in second_set]
    details: list[str] = []
    if shared:
        details.append(phrase(language, phrases.COMPARE_SHARED_HEADINGS, items=", ".join(shared)))
    for path, own, other in (
        (first["path"], first_headings, second_set),
        (second["path"], second_headings, first_set),
    ):
        only = [text for text in dict.fromkeys(own) if text not in other]
        if only:
            items = ", ".join(only[:LIST_ITEMS])
            details.append(phrase(language, phrases.COMPARE_ONLY_HEADINGS, path=path, items=items))
    second_lines = {line.strip() for line in second_reading.lines if line.strip()}
    same_lines = {line.strip() for line in first_reading.lines if line.strip() in second_lines}
    same_lines -= {f"{'#' * h.level} {h.text}" for h in first_reading.headings}
    if same_lines:
        details.append(phrase(language, phrases.COMPARE_SHARED_LINES, count=len(same_lines)))
    second_words = _latin_words(second_reading)
    words = [word for key, word in _latin_words(first_reading).items() if key in second_words]
    if words:
        details.append(
            phrase(language, phrases.COMPARE_SHARED_WORDS, items=", ".join(words[:SHARED_WORDS]))
        )
    if not (shared or same_lines or words):
        details.append(phrase(language, phrases.COMPARE_NOTHING_SHARED))
    details.append(
        phrase(
            language,
            phrases.COMPARE_TASKS,
            first=len(first_reading.open_tasks),
            first_path=first["path"],
            second=len(second_reading.open_tasks),
            second_path=second["path"],
        )
    )
    parts.append(bullet_list(details, language))
    return parts
