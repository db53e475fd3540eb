"""What is due when: "what's due this week?" answered from the note's own dates (R56, R80).

A request naming a span (today, tomorrow, this week, next week, overdue, in the
seven languages of R38) is answered with the lines whose dates fall in it, read
against today's date from the backend's clock (injected in tests): ISO dates
(2026-12-04), German dates (4.12. and 4.12.2026), a day and a month's name
(4 December, December 4, 4 décembre, 4. Dezember, 4 de diciembre, 12月4日, 12월 4일),
weekday names (Thursday: the next one from today) and today / tomorrow. A heading
is never a due line ("# Today" names a section, not a date), nor a ticked task
unless the request asks for done ones too. Each line is scanned once by short
regular expressions without nested repetition: linear in the note's size.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Final, Literal

from bridge.markdown import NoteReading
from workers.offline.intents import is_cjk, words_of

Span = Literal["today", "tomorrow", "this_week", "next_week", "overdue"]

SPANS: Final[dict[Span, tuple[str, ...]]] = {
    "overdue": (
        "overdue", "past due", "late", "en retard", "dépassé", "dépassée", "überfällig",
        "verspätet", "vencido", "vencidas", "vencidos", "atrasada", "atrasadas", "atrasado",
        "期限切れ", "期限を過ぎ", "遅れている", "逾期", "过期", "已过期", "연체", "기한이 지난",
        "기한 지난",
    ),
    "next_week": (
        "next week", "semaine prochaine", "nächste woche", "nächsten woche", "próxima semana",
        "semana que viene", "来週", "下周", "下个星期", "下星期", "다음 주", "다음주",
    ),
    "this_week": (
        "this week", "cette semaine", "diese woche", "dieser woche", "esta semana", "今週",
        "本周", "这周", "这个星期", "这星期", "이번 주", "이번주",
    ),
    "tomorrow": ("tomorrow", "demain", "morgen", "mañana", "明日", "明天", "내일"),
    "today": (
        "today", "aujourd'hui", "aujourd’hui", "heute", "hoy", "今日", "今天", "오늘",
    ),
}  # fmt: skip
"""The spans a request may name, looked for in this order (overdue before "due today")."""

WITH_DONE: Final = (
    "including done", "done ones too", "done too", "also done", "even done", "including ticked",
    "y compris", "auch erledigte", "auch die erledigten", "incluidas", "incluidos", "完了も",
    "完了したものも", "包括已完成", "已完成的也", "완료된 것도", "완료한 것도",
)  # fmt: skip
"""Words asking for ticked tasks as well: without them, only what is still open is due."""

MONTHS: Final[dict[str, int]] = {
    name: number
    for names in (
        ("january", "february", "march", "april", "may", "june", "july", "august",
         "september", "october", "november", "december"),
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
        ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
         "octobre", "novembre", "décembre"),
        ("januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september",
         "oktober", "november", "dezember"),
        ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
         "octubre", "noviembre", "diciembre"),
    )
    for number, name in enumerate(names, start=1)
}  # fmt: skip
WEEKDAYS: Final[dict[str, int]] = {
    name: number
    for names in (
        ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
        ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
        ("montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag"),
        ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
    )
    for number, name in enumerate(names)
}  # fmt: skip
"""Weekday names of the Latin-script languages: 0 is Monday."""
CJK_WEEKDAYS: Final[dict[str, int]] = {
    **{f"{day}曜": number for number, day in enumerate("月火水木金土日")},
    **{f"星期{day}": number for number, day in enumerate("一二三四五六日")},
    **{f"周{day}": number for number, day in enumerate("一二三四五六日")},
    **{f"{day}요일": number for number, day in enumerate("월화수목금토일")},
}
RELATIVE: Final[dict[str, int]] = {
    "today": 0, "tonight": 0, "tomorrow": 1, "aujourd": 0, "demain": 1, "heute": 0,
    "morgen": 1, "übermorgen": 2, "hoy": 0, "mañana": 1, "今日": 0, "明日": 1, "明後日": 2,
    "今天": 0, "明天": 1, "后天": 2, "오늘": 0, "내일": 1, "모레": 2,
}  # fmt: skip

_ISO: Final = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_GERMAN: Final = re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})?(?!\d)")
_DAY_MONTH: Final = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th|er|\.)?\s(?:de\s)?([^\W\d_]{3,10})\b")
_MONTH_DAY: Final = re.compile(r"\b([^\W\d_]{3,10})\.?\s(\d{1,2})(?:st|nd|rd|th)?\b")
_CJK_DATE: Final = re.compile(r"(\d{1,2})\s?[月월]\s?(\d{1,2})\s?[日일号]")


@dataclass(frozen=True)
class DueRequest:
    span: Span
    with_done: bool


def due_request(text: str) -> DueRequest | None:
    """The span a dates request names, if it names one."""
    lowered = text.casefold()
    padded = words_of(text)
    for span, phrases in SPANS.items():
        if any(_has(phrase, padded, lowered) for phrase in phrases):
            with_done = any(_has(phrase, padded, lowered) for phrase in WITH_DONE)
            return DueRequest(span, with_done)
    return None


def _has(phrase: str, padded: str, lowered: str) -> bool:
    return phrase in lowered if is_cjk(phrase) else words_of(phrase) in padded


def span_dates(span: Span, today: date) -> tuple[date, date]:
    """The first and last day of the span (overdue: any day before today)."""
    monday = today - timedelta(days=today.weekday())
    if span == "today":
        return today, today
    if span == "tomorrow":
        return today + timedelta(days=1), today + timedelta(days=1)
    if span == "this_week":
        return monday, monday + timedelta(days=6)
    if span == "next_week":
        return monday + timedelta(days=7), monday + timedelta(days=13)
    return date.min, today - timedelta(days=1)


def line_dates(line: str, today: date) -> list[date]:
    """The days a line names, read against ``today``; [] for a line that names none."""
    found: list[date] = []
    lowered = line.casefold()
    for match in _ISO.finditer(lowered):
        found += _day(int(match[1]), int(match[2]), int(match[3]))
    for match in _GERMAN.finditer(lowered):
        year = int(match[3]) if match[3] else today.year
        found += _day(year, int(match[2]), int(match[1]))
    for match in _DAY_MONTH.finditer(lowered):
        if match[2] in MONTHS:
            found += _day(today.year, MONTHS[match[2]], int(match[1]))
    for match in _MONTH_DAY.finditer(lowered):
        if match[1] in MONTHS:
            found += _day(today.year, MONTHS[match[1]], int(match[2]))
    for match in _CJK_DATE.finditer(lowered):
        found += _day(today.year, int(match[1]), int(match[2]))
    tokens = words_of(lowered).split()
    weekdays = [WEEKDAYS[token] for token in tokens if token in WEEKDAYS]
    weekdays += [number for name, number in CJK_WEEKDAYS.items() if name in lowered]
    for weekday in weekdays:  # the next one from today, today included
        found.append(today + timedelta(days=(weekday - today.weekday()) % 7))
    offsets = [RELATIVE[token] for token in tokens if token in RELATIVE]
    offsets += [days for word, days in RELATIVE.items() if is_cjk(word) and word in lowered]
    found += [today + timedelta(days=days) for days in offsets]
    return found


def _day(year: int, month: int, day: int) -> list[date]:
    try:
        return [date(year, month, day)]
    except ValueError:  # 31.02., 2026-13-01: not a day
        return []


def due_lines(reading: NoteReading, request: DueRequest, today: date) -> list[tuple[int, str]]:
    """(0-based line, line) of each line due in the span: open tasks and plain lines."""
    first, last = span_dates(request.span, today)
    headings = {heading.line for heading in reading.headings}
    ticked = set() if request.with_done else {task.line for task in reading.tasks if task.done}
    return [
        (number, line)
        for number, line in enumerate(reading.lines)
        if number not in headings
        and number not in ticked
        and any(first <= day <= last for day in line_dates(line, today))
    ]
