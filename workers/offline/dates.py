"""Which lines of a note hold a date, a weekday, a time or a deadline word (R56).

"Any deadlines here?" and "what's due this week?" are answered with these lines.
Numbers are found with short regular expressions without nested repetition, so
each line is scanned in linear time; names (months, weekdays, "tomorrow", in the
seven languages) are whole words for Latin scripts and substrings for CJK.
"""

from __future__ import annotations

import re
from typing import Final

from bridge.markdown import NoteReading
from workers.offline.intents import words_of

_NUMERIC: Final = re.compile(
    r"\b\d{4}-\d{1,2}-\d{1,2}\b"  # 2026-12-01
    r"|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b"  # 1/12/2026, 01.12.26
    r"|\b\d{1,2}/\d{1,2}\b"  # 12/1
    r"|\b\d{1,2}\.\d{1,2}\.(?!\d)"  # 1.12. (German)
    r"|\b\d{1,2}:\d{2}\b"  # 14:30
    r"|\b\d{1,2}\s?(?:am|pm|a\.m\.|p\.m\.)(?!\w)"  # 5pm, 5 p.m.
    r"|\b\d{1,2}h(?:\d{2})?\b"  # 14h, 14h30 (French)
    r"|\b\d{1,2}\s?uhr\b"  # 9 Uhr
    r"|\d{1,2}\s?(?:月|日|時|点|号|시|월|일)",  # 12月1日, 9時, 3点, 1일, 12월
    re.IGNORECASE,
)

DATE_WORDS: Final = frozenset(
    (
        "january", "february", "march", "april", "june", "july", "august", "september", "october",
        "november", "december", "jan", "feb", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
        "nov", "dec", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "mon", "tue", "thu", "fri", "today", "tomorrow", "tonight", "yesterday", "deadline",
        "deadlines", "due", "noon", "midnight", "weekend", "janvier", "février", "mars", "avril",
        "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre", "lundi",
        "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche", "aujourd", "demain",
        "échéance", "midi", "januar", "februar", "märz", "april", "mai", "juni", "juli", "august",
        "september", "oktober", "november", "dezember", "montag", "dienstag", "mittwoch",
        "donnerstag", "freitag", "samstag", "sonntag", "heute", "morgen", "übermorgen", "gestern",
        "frist", "fällig", "wochenende", "enero", "febrero", "marzo", "abril", "mayo", "junio",
        "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre", "lunes", "martes",
        "miércoles", "jueves", "viernes", "sábado", "domingo", "hoy", "mañana", "ayer", "plazo",
        "vence"
    )
)  # fmt: skip
"""Months, weekdays and deadline words of the Latin-script languages, as whole words."""
DATE_PHRASES: Final = (
    " next week ", " this week ", " end of ", " by the end ", " semaine prochaine ",
    " cette semaine ", " date limite ", " nächste woche ", " diese woche ", " bis ende ",
    " la próxima semana ", " esta semana ", " fecha límite ",
)  # fmt: skip
CJK_DATE_WORDS: Final = (
    "月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜", "今日", "明日", "明後日", "昨日",
    "来週", "今週", "週末", "締め切り", "締切", "期限", "まで",
    "星期", "周一", "周二", "周三", "周四", "周五", "周六", "周日", "今天", "明天", "后天",
    "昨天", "下周", "本周", "周末", "截止", "到期",
    "월요일", "화요일", "수요일", "목요일", "금요일", "토요일", "일요일", "오늘", "내일", "모레",
    "어제", "다음 주", "이번 주", "주말", "마감", "기한", "까지",
)  # fmt: skip


def has_date(line: str) -> bool:
    """True when the line names a date, a weekday, a time or a deadline."""
    if _NUMERIC.search(line):
        return True
    if any(word in line for word in CJK_DATE_WORDS):
        return True
    padded = words_of(line)
    if any(phrase in padded for phrase in DATE_PHRASES):
        return True
    return any(token in DATE_WORDS for token in padded.split())


def dated_lines(reading: NoteReading) -> list[tuple[int, str]]:
    """(0-based line, line) for each source line that holds a date or a time; a heading
    names a section ("# Today"), never a date (R83)."""
    headings = {heading.line for heading in reading.headings}
    return [
        (number, line)
        for number, line in enumerate(reading.lines)
        if number not in headings and has_date(line)
    ]
