"""Which phrases the offline assistant reads as CJK (matched anywhere, not as whole words)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from workers.offline.intents import is_cjk


@given(st.text())
def test_a_phrase_is_cjk_when_any_character_is_from_the_first_cjk_radical_on(text: str) -> None:
    assert is_cjk(text) == any(ord(char) >= 0x2E80 for char in text)


def test_scripts_read_as_cjk_and_as_words() -> None:
    assert is_cjk("このノート") and is_cjk("note 메모") and is_cjk("笔记")
    assert not is_cjk("") and not is_cjk("this note") and not is_cjk("ceci, é ü ß")
    assert not is_cjk("\u2e7f") and is_cjk("\u2e80")
