"""R48: a selection's lines, from its UTF-16 offsets (R8), as the chip and the details show them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.markdown import SelectedText, locate_selection, selection_line_span
from bridge.pointer import Selection
from renderer.ambient import AmbientStore, LineRange, selection_lines
from tests.renderer.ambient.fakes import FakeClock, FakeEditor, send_flushed

NOTE = "# A\nalpha\nbeta\ngamma\n"  # line 1 "# A" (0–3), 2 "alpha" (4–9), 3 "beta" (10–14)


def lines(text: str, anchor: int, head: int) -> str | None:
    found = selection_lines(text, Selection(anchor=anchor, head=head))
    return None if found is None else str(found)


@pytest.mark.parametrize(
    ("anchor", "head", "shown"),
    [
        (0, 3, "1"),  # within line 1
        (4, 14, "2–3"),  # "alpha\nbeta"
        (14, 4, "2–3"),  # selected upwards: the same lines
        (3, 4, "1"),  # only the line break after line 1
        (4, 10, "2"),  # "alpha\n": ends at the start of line 3, which has nothing selected
        (0, 21, "1–4"),  # the whole note: its final line break selects nothing of a line 5
        (10, 500, "3–4"),  # offsets past the end count as the end
    ],
)
def test_r48_lines_of_a_selection_are_1_based_and_inclusive(
    anchor: int, head: int, shown: str
) -> None:
    assert lines(NOTE, anchor, head) == shown


def test_r48_a_caret_or_no_selection_has_no_lines() -> None:
    assert selection_lines(NOTE, Selection(anchor=5, head=5)) is None
    assert selection_lines(NOTE, None) is None


def test_r8_r48_offsets_count_utf16_code_units_not_characters() -> None:
    # Each "😀" is two UTF-16 units: line 3 ("c") starts at unit 8, though at character 6.
    text = "😀a\n😀b\nc\n"
    assert lines(text, 8, 9) == "3"
    assert lines(text, 0, 4) == "1"  # "😀a\n": ends where line 2 starts
    assert lines(text, 4, 5) == "2"  # the first unit of line 2's emoji
    assert lines(text, 5, 9) == "2–3"  # from inside the emoji's pair into line 3


def test_r48_lines_in_japanese_text() -> None:
    text = "一行目\n二行目\n三行目"
    assert lines(text, 4, 11) == "2–3"


def test_a_line_range_reads_as_one_line_or_an_en_dash_range() -> None:
    assert str(LineRange(3, 3)) == "3"
    assert str(LineRange(3, 7)) == "3–7"


def test_r48_the_capture_counts_the_sent_selection_lines_in_the_same_read() -> None:
    editor = FakeEditor("f", text=NOTE, selection=Selection(anchor=4, head=14))
    store = AmbientStore()
    store.publish(editor)
    result = send_flushed(store, FakeClock())
    assert result.selection_lines == LineRange(2, 3)
    assert editor.text_reads == 1  # the lines come from the read the fingerprint used (R11)


def test_r48_no_lines_outside_the_edit_view_or_for_a_caret() -> None:
    editor = FakeEditor("f", text=NOTE, view="preview", selection=Selection(anchor=4, head=14))
    store = AmbientStore()
    store.publish(editor)
    assert send_flushed(store, FakeClock()).selection_lines is None
    editor.view = "edit"
    editor.selection = Selection(anchor=4, head=4)
    assert send_flushed(store, FakeClock()).selection_lines is None


def test_r48_the_store_tells_listeners_of_a_mounted_frames_selection_changes() -> None:
    store = AmbientStore()
    store.publish(FakeEditor("a"))
    heard: list[str] = []
    store.frame_selection_changed.connect(heard.append)
    store.selection_changed("a")
    store.selection_changed("not-mounted")  # a withdrawn or unknown frame says nothing
    store.frame_selection_changed.disconnect(heard.append)
    store.selection_changed("a")
    assert heard == ["a"]


def test_r38_r48_the_one_count_of_a_selection_in_the_contract_package() -> None:
    found = locate_selection("a\n\n\nb\n", 0, 3)
    assert found == SelectedText("a\n\n", 0, 1)  # 0-based: lines 1–2
    assert locate_selection("a\nb", 2, 2) == SelectedText("", 1, 1)  # a caret is on its line
    assert locate_selection("a\nb", 1, 4) is None  # past the end: the offsets are of another text
    assert locate_selection("a\nb", 1, 4, clamp=True) == SelectedText("\nb", 0, 1)
    assert locate_selection("a\nb", -1, 2) is None
    assert locate_selection("a\r\nb\rc", 2, 5) == SelectedText("b\nc", 1, 2)
    assert locate_selection("😀\n", 1, 3) == SelectedText("\ufffd\n", 0, 0)  # half a pair


@given(
    text=st.text(alphabet="ab\n\r😀一", max_size=40),
    anchor=st.integers(min_value=-2, max_value=90),
    head=st.integers(min_value=0, max_value=90),
    clamp=st.booleans(),
)
def test_r48_the_line_span_is_the_located_selections_lines(
    text: str, anchor: int, head: int, clamp: bool
) -> None:
    # The capture's lines (selection_line_span) are locate_selection's, offsets in either order.
    found = locate_selection(text, anchor, head, clamp=clamp)
    expected = None if found is None else (found.first_line, found.last_line)
    assert selection_line_span(text, anchor, head, clamp=clamp) == expected
    assert selection_line_span(text, head, anchor, clamp=clamp) == expected


def test_r48_the_line_span_at_a_glance() -> None:
    assert selection_line_span("a\n\n\nb\n", 0, 3) == (0, 1)
    assert selection_line_span("a\r\nb\rc", 5, 2) == (1, 2)
    assert selection_line_span("a\nb", 1, 4) is None
    assert selection_line_span("a\nb", 1, 4, clamp=True) == (0, 1)
