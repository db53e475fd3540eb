"""The byte test before a note is decoded never turns away a note that holds the query (R56)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from workers.search import LETTERS_RAREST_FIRST, byte_needle, may_hold

ascii_text = st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=40)
note_bytes = st.binary(max_size=200) | ascii_text.map(str.encode) | st.text().map(str.encode)


@settings(max_examples=600, deadline=None)
@given(query=ascii_text, data=note_bytes, cut=st.integers(min_value=0, max_value=200))
def test_r56_may_hold_is_ascii_case_blind_containment(query: str, data: bytes, cut: int) -> None:
    needle = byte_needle(query)
    assert needle is not None
    # Half the time the note holds the query, in a mixed case, somewhere inside.
    held = data[:cut] + query.swapcase().encode() + data[cut:]
    for note in (data, held):
        assert may_hold(note, needle) == (query.lower().encode() in note.lower())


def test_r56_the_rarest_letter_is_looked_for_first() -> None:
    assert sorted(LETTERS_RAREST_FIRST) == sorted(b"abcdefghijklmnopqrstuvwxyz")
    needle = byte_needle("Quartz-Orchid")
    assert needle is not None and (needle.rare, needle.rare_upper) == (b"z", b"Z")
    assert not may_hold(b"a note of plans and errands", needle)
    assert may_hold(b"call QUARTZ-ORCHID today", needle)
    digits = byte_needle("2026-12")
    assert digits is not None and digits.rare == digits.rare_upper == b"2"
    assert byte_needle("会議") is None  # a non-ASCII query is searched in the decoded text
