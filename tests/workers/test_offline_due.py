"""R56, R80: "what's due this week?" is answered by the note's own dates, against today.

Today is the backend's injected clock: no test waits for a day to pass. Each
request goes through the real route with a pointer to the note.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.workers.conftest import Backend, pointer_header
from workers.offline.due import line_dates

NOTE = (
    "# Today\n"  # 1: a heading names a section, not a date
    "- [ ] Book the dentist for Thursday\n"  # 2: Thursday 2026-12-03
    "- [x] Pay the rent by 2026-12-01\n"  # 3: ticked
    "- [ ] Send the report by 2026-11-30\n"  # 4: Monday, overdue
    "- [ ] Renew the passport on 2026-12-09\n"  # 5: next week
    "- [ ] Call Sam today\n"  # 6
    "Review with Lena on 4.12.\n"  # 7: Friday, a plain line
    "- [ ] Plan the party for 10 December\n"  # 8: next week
    "The budget is 1.5 million.\n"  # 9: no date
    "- [ ] Version 2.1 release\n"  # 10: no date
)
WEDNESDAY = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
"""Noon UTC: the same date in every time zone the machine may be in, -11 to +11."""


def _due(backend: Backend, message: str, today: datetime = WEDNESDAY) -> tuple[list[int], str]:
    backend.clock.now = today
    key = backend.key()
    headers = backend.headers(key)
    saved = backend.client.put(
        "/v1/workspaces/demo/documents/notes/due.md", content=NOTE.encode(), headers=headers
    )
    assert saved.status_code in (200, 201), saved.text
    reply = backend.turn(message, key=key, ambient=pointer_header("notes/due.md", NOTE))
    text: str = reply["reply"]
    lines = [int(line[2:].split(":")[0]) for line in text.split("\n") if line.startswith("- ")]
    return lines, text


THIS_WEEK = [2, 4, 6, 7]


@pytest.mark.parametrize(
    "message",
    [
        "what's due this week?",
        "qu'est-ce qui est à rendre cette semaine ?",
        "was ist diese Woche fällig?",
        "¿qué vence esta semana?",
        "今週の締め切りは？",
        "本周到期的有哪些？",
        "이번 주 마감은?",
    ],
)
def test_r80_due_this_week_in_the_seven_languages(backend: Backend, message: str) -> None:
    lines, text = _due(backend, message)
    assert lines == THIS_WEEK, text  # never "# Today", never the ticked rent
    assert "2026-11-30 – 2026-12-06" in text


def test_r80_today_tomorrow_next_week_and_overdue(backend: Backend) -> None:
    assert _due(backend, "what's due today?")[0] == [6]
    assert _due(backend, "anything due tomorrow?")[0] == [2]  # Thursday
    assert _due(backend, "what's due next week?")[0] == [5, 8]
    assert _due(backend, "what's overdue?")[0] == [4]  # the rent is ticked
    assert _due(backend, "what's overdue, including done ones too?")[0] == [3, 4]
    assert _due(backend, "what's due this week, including done ones too?")[0] == [2, 3, 4, 6, 7]


def test_r80_the_injected_clock_moves_the_weekdays(backend: Backend) -> None:
    friday = WEDNESDAY + timedelta(days=2)
    lines, text = _due(backend, "anything due tomorrow?", friday)
    assert lines == [] and text == "Nothing in notes/due.md is due tomorrow (2026-12-05)."
    assert _due(backend, "what's due next week?", friday)[0] == [2, 5, 8]  # Thursday 12-10


def test_r80_a_line_without_a_date_is_never_a_date_line() -> None:
    today = WEDNESDAY.date()
    for line in [*NOTE.split("\n")[8:10], "Plain line", "v1.2.3 is out", "May I ask"]:
        assert line_dates(line, today) == [], line
