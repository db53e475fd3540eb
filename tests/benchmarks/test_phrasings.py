"""The phrasing tables of the hit-rate benchmark stay held out (R56)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from benchmarks.bench_assistant import hit_rate, misses
from benchmarks.phrasings import DEVELOPMENT, HELD_OUT

LANGUAGES = {"en", "fr", "de", "es", "ja", "zh", "ko"}
TESTS = Path(__file__).resolve().parents[1]


def test_r56_each_table_has_at_least_20_phrasings_per_intent_in_seven_languages() -> None:
    for table in (DEVELOPMENT, HELD_OUT):
        per_intent = Counter(intent for _, intent, _ in table)
        assert min(per_intent.values()) >= 20
        for intent in per_intent:
            assert {language for _, i, language in table if i == intent} == LANGUAGES
    assert not {message for message, _, _ in HELD_OUT} & {message for message, _, _ in DEVELOPMENT}


def test_r56_no_test_lists_a_phrasing_of_the_tables() -> None:
    sources = "\n".join(
        path.read_text(encoding="utf-8")
        for path in TESTS.rglob("*.py")
        if path.resolve() != Path(__file__).resolve()
    )
    listed = [message for message, _, _ in DEVELOPMENT + HELD_OUT if f'"{message}"' in sources]
    assert listed == []


def test_the_hit_rate_counts_a_wrong_language_as_a_miss() -> None:
    assert misses((("summarise this", "summary", "fr"),)) == [("summarise this", "summary/en")]
    assert misses((("summarise this", "summary", "en"),)) == []
    measured = hit_rate()
    assert measured.target == 0.95 and measured.comparison == ">="
    assert measured.details["phrasings"] == float(len(HELD_OUT))
