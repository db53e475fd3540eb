"""The offline intents are one ordered table: recognition, answer and "what I can do" (R38).

Each intent is one entry, tried in order; the model path's planning reads the same
entries (which are about one note, which may name a note by its words, which edit).
"""

from __future__ import annotations

import ast
from pathlib import Path

from workers.offline.catalogue import phrase
from workers.offline.intents import Request
from workers.offline.table import BY_NAME, INTENTS, capabilities, classify

ROOT = Path(__file__).resolve().parents[2]
ASSISTANT = ("workers/offline", "workers/model", "workers/assistants.py")
"""Where the chat assistant's intents could be named (the inline assistant has its own)."""


def test_r38_the_table_holds_every_intent_once() -> None:
    names = [intent.name for intent in INTENTS]
    assert len(names) == len(set(names)) == len(BY_NAME)
    about_a_note = [intent.name for intent in INTENTS if intent.about_a_note]
    assert about_a_note == ["find", "ticked", "dates", "tasks", "outline", "summary", "question"]


def test_r38_the_first_entry_that_recognises_a_request_names_its_intent() -> None:
    # "compare" comes before "tasks": a comparison of tasks is a comparison.
    assert classify("compare the tasks with notes/b.md") == Request("compare", "en", ["notes/b.md"])
    # A search across notes comes before a find in the open note.
    assert classify("which notes mention Sam?").intent == "search"
    assert classify("where do I mention Sam?") == Request("find", "en", [], "Sam")
    # Only the intents about one note keep the text, for a note named by its words.
    assert classify("what's still open in the budget?").text == "what's still open in the budget?"
    assert classify("hello").text == "" and classify("hello").intent == "greeting"
    assert classify("tell me a joke").intent == "other"  # the last entry
    # An edit is an entry too, before the rest: "remove" is no find.
    assert classify("tick off the dentist") == Request("tick", "en", [], "the dentist")


def test_r38_what_i_can_do_is_read_off_the_table() -> None:
    listed = capabilities("en").split("\n")
    lines = [f"- {phrase('en', intent.can_do)}" for intent in INTENTS if intent.can_do]
    assert listed[1 : 1 + len(lines)] == lines and len(lines) >= 9


def _string_constants(path: Path) -> set[str]:
    """The module's string literals, but a JSON object's keys ({"summary": …}, x["summary"])."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    keys = {id(key) for node in ast.walk(tree) if isinstance(node, ast.Dict) for key in node.keys}
    keys |= {id(node.slice) for node in ast.walk(tree) if isinstance(node, ast.Subscript)}
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in keys
    }


def test_an_intents_name_is_written_in_at_most_two_product_modules() -> None:
    """Issue 39: adding an intent is its entry and its module, not a hunt for its name."""
    modules = [
        path
        for place in ASSISTANT
        for path in sorted((ROOT / place).glob("**/*.py")) or [ROOT / place]
    ]
    # The phrase lists are English words, some spelled like an intent ("tick", "remove").
    constants = {
        path: _string_constants(path) for path in modules if not path.name.endswith("words.py")
    }
    for name in BY_NAME:
        holders = [path.relative_to(ROOT) for path, found in constants.items() if name in found]
        assert len(holders) <= 2, (name, holders)
