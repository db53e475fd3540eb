"""R38: every language's catalogue translates every phrase, keeping its placeholders."""

from __future__ import annotations

from string import Formatter

import pytest
from babel.messages.pofile import read_po

from workers.offline import edit_phrases, phrases
from workers.offline.catalogue import LOCALE_DIR, phrase

LANGUAGES = ["ja", "fr", "de", "es", "zh", "ko"]


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}


@pytest.mark.parametrize("language", LANGUAGES)
def test_r38_each_catalogue_translates_every_phrase_with_the_same_placeholders(
    language: str,
) -> None:
    with (LOCALE_DIR / language / "LC_MESSAGES" / "offline.po").open("rb") as source:
        catalog = read_po(source)
    translated = {message.id: message.string for message in catalog if message.id}
    assert set(translated) == set(phrases.ALL)
    for message_id, text in translated.items():
        assert isinstance(text, str) and text.strip(), message_id
        assert _fields(text) == _fields(message_id), message_id
    # Phrases with words in them read differently from the English.
    assert phrase(language, phrases.GREETING) != phrases.GREETING


def test_r38_english_is_the_message_ids_and_an_unknown_language_falls_back_to_it() -> None:
    assert phrase("en", phrases.TASKS, path="a.md") == "Open tasks in a.md:"
    assert phrase("xx", phrases.TASKS, path="a.md") == "Open tasks in a.md:"
    assert phrase("ja", phrases.TASKS, path="a.md") == "a.md の未完了のタスク:"


@pytest.mark.parametrize("language", LANGUAGES)
def test_r54_each_edits_catalogue_translates_every_edit_phrase(language: str) -> None:
    with (LOCALE_DIR / language / "LC_MESSAGES" / "edits.po").open("rb") as source:
        catalog = read_po(source)
    translated = {message.id: message.string for message in catalog if message.id}
    assert set(translated) == set(edit_phrases.ALL)
    for message_id, text in translated.items():
        assert isinstance(text, str) and text.strip() and text != message_id, message_id
        assert _fields(text) == _fields(message_id), message_id
