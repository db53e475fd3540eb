"""The offline classifier is one ordered table of intents (R38, R23).

Each intent is one entry, tried in order; the ``Intent`` type and the intents
answered from one note are read off the same table.
"""

from __future__ import annotations

from typing import get_args

from workers.offline.intents import INTENTS, NOTE_INTENTS, Intent, Request, classify


def test_r38_the_table_holds_every_intent_once_in_the_types_order() -> None:
    assert tuple(spec.intent for spec in INTENTS) == get_args(Intent)
    assert NOTE_INTENTS == ("find", "dates", "tasks", "outline", "summary")


def test_r38_the_first_entry_that_recognises_a_request_names_its_intent() -> None:
    # "compare" comes before "tasks": a comparison of tasks is a comparison.
    assert classify("compare the tasks with notes/b.md") == Request("compare", "en", ["notes/b.md"])
    # A search across notes comes before a find in the open note.
    assert classify("which notes mention Sam?").intent == "search"
    assert classify("where do I mention Sam?") == Request("find", "en", [], "Sam")
    # Only the intents about one note keep the text, for a note named by its words.
    assert classify("what's still open in the budget?").text == "what's still open in the budget?"
    assert classify("hello").text == "" and classify("hello").intent == "greeting"
    assert classify("what is the capital of Peru?").intent == "other"  # the last entry
