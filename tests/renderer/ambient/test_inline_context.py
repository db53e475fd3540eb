"""R69: the inline request's bounded context, from the live editor, costing what the slice costs."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.contract import MAX_AROUND_BYTES, MAX_SELECTION_BYTES
from bridge.inline import utf8_size
from renderer.ambient.inline import SelectionTooLarge, TextSlices, build_context


class CountingSlices(TextSlices):
    """The product's str source, counting what it is asked to read."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.read_positions = 0
        self.reads: list[tuple[int, int]] = []

    def read(self, start: int, end: int) -> str:
        self.read_positions += end - start
        self.reads.append((start, end))
        return super().read(start, end)

    def read_many(self, points: Sequence[int]) -> list[str]:
        self.read_positions += points[-1] - points[0]
        self.reads.append((points[0], points[-1]))
        return super().read_many(points)


def _line(unit: str, count: int) -> str:
    return unit * count


# Lines of up to 3,000 characters of 1- to 4-byte code points, so both sides often pass
# their 2 KiB and single lines are longer than the budget.
LINES = st.lists(
    st.builds(_line, st.sampled_from(["a", "é", "語", "😀", " "]), st.integers(0, 3000)),
    min_size=0,
    max_size=12,
)


@st.composite
def notes_and_selections(draw: st.DrawFn) -> tuple[str, int, int]:
    text = "\n".join(draw(LINES)) + draw(st.sampled_from(["", "\n"]))
    anchor = draw(st.integers(0, len(text)))
    head = draw(st.integers(max(0, anchor - 6000), min(len(text), anchor + 6000)))
    return text, anchor, head


def _is_line_start(text: str, position: int) -> bool:
    return position == 0 or text[position - 1] == "\n"


@settings(max_examples=300, deadline=None)
@given(notes_and_selections())
def test_r69_context_is_bounded_cut_at_lines_and_as_large_as_the_budget_allows(
    case: tuple[str, int, int],
) -> None:
    text, anchor, head = case
    start, end = min(anchor, head), max(anchor, head)
    selected = text[start:end]
    if utf8_size(selected) > MAX_SELECTION_BYTES:
        with pytest.raises(SelectionTooLarge):
            build_context(TextSlices(text), "notes/a.md", "sort", anchor, head)
        return
    request = build_context(TextSlices(text), "notes/a.md", "sort", anchor, head).request
    assert request.selection == selected
    assert (
        utf8_size(request.before) <= MAX_AROUND_BYTES
        and utf8_size(request.after) <= MAX_AROUND_BYTES
    )

    # before: whole lines that end where the selection's line starts.
    line_start = text.rfind("\n", 0, start) + 1
    before_start = line_start - len(request.before)
    assert text[before_start:line_start] == request.before
    assert request.before == "" or request.before.endswith("\n")
    if _is_line_start(text, before_start):
        if before_start > 0:  # one more line would pass the budget
            previous = text.rfind("\n", 0, before_start - 1) + 1
            assert utf8_size(text[previous:line_start]) > MAX_AROUND_BYTES
    else:  # a single line longer than the budget, cut at a code point
        assert request.before.count("\n") == 1
        previous = text.rfind("\n", 0, line_start - 1) + 1
        assert utf8_size(text[previous:line_start]) > MAX_AROUND_BYTES
        assert utf8_size(text[before_start - 1 : line_start]) > MAX_AROUND_BYTES

    # after: starts right after the selection, ends at a line end or the note's end.
    after_end = end + len(request.after)
    assert text[end:after_end] == request.after
    whole = after_end == len(text) or text[after_end - 1] == "\n"
    if whole:
        if after_end < len(text):  # one more line would pass the budget
            following = text.find("\n", after_end)
            following = len(text) if following < 0 else following + 1
            assert utf8_size(text[end:following]) > MAX_AROUND_BYTES
    else:
        assert "\n" not in request.after
        assert utf8_size(text[end : after_end + 1]) > MAX_AROUND_BYTES

    # lines: 1-based, the first and last line the slice touches.
    sent_from = before_start if request.before else start
    first, last = request.lines
    assert first == text.count("\n", 0, sent_from) + 1
    if request.after:
        last_char = after_end - 1
    elif request.selection:
        last_char = end - 1
    else:
        last_char = start
    assert last == text.count("\n", 0, last_char) + 1
    assert first <= last
    assert request.bytes == utf8_size(request.before + request.selection + request.after)


def test_r69_the_example_of_the_rule_reads_as_it_says() -> None:
    text = "".join(f"line {n}\n" for n in range(1, 60))
    start = text.index("line 20")
    end = text.index("line 21")
    request = build_context(TextSlices(text), "notes/a.md", "tick", start, end).request
    assert request.selection == "line 20\n"
    # 2,048 bytes before at line boundaries: all 19 lines before fit (19 × 7–8 bytes).
    assert request.before == text[:start]
    assert request.lines == (1, 59)
    # The selected line apart from the lines sent around it (issue 38).
    assert request.sent_text() == (
        f"Sent line 20 (with 58 lines around it) of notes/a.md ({utf8_size(text):,} bytes)"
    )


def test_r69_a_cursor_sends_an_empty_selection_and_the_lines_around_it() -> None:
    text = "# A\nalpha\nbeta\n"
    request = build_context(TextSlices(text), "a.md", "add", 6, 6).request
    assert request.selection == ""
    assert request.before == "# A\n"  # the cursor's own line start is not sent before it
    assert request.after == "pha\nbeta\n"
    assert request.lines == (1, 3)


def test_r69_a_selection_over_16_kib_is_refused_in_plain_words_without_reading_it() -> None:
    text = "x" * (5 * 1024 * 1024)
    source = CountingSlices(text)
    with pytest.raises(SelectionTooLarge) as refused:
        build_context(source, "a.md", "sort", 0, 16385)
    assert "16 KiB" in str(refused.value) and "Select less" in str(refused.value)
    assert source.read_positions == 0
    # 16,384 bytes exactly is allowed; 16,384 characters of 2 bytes are not.
    build_context(TextSlices("a" * MAX_SELECTION_BYTES), "a.md", "sort", 0, MAX_SELECTION_BYTES)
    with pytest.raises(SelectionTooLarge):
        build_context(TextSlices("é" * 9000), "a.md", "sort", 0, 9000)
    # 5,000 emoji are 5,000 code points but 20,000 bytes: refused too.
    with pytest.raises(SelectionTooLarge):
        build_context(TextSlices("\N{GRINNING FACE}" * 5000), "a.md", "sort", 0, 5000)


def test_r69_building_on_a_5_mib_note_reads_only_the_slice() -> None:
    line = "a line of the note, long enough to count\n"
    text = line * (5 * 1024 * 1024 // len(line))
    start = len(text) // 2
    source = CountingSlices(text)
    context = build_context(source, "big.md", "sort", start, start + 4000)
    line_start = text.rfind("\n", 0, start) + 1
    assert source.read_positions <= 4000 + 2 * (MAX_AROUND_BYTES + 1) + (start - line_start)
    assert context.request.bytes <= 4000 + 2 * MAX_AROUND_BYTES


def test_r69_a_selection_inside_a_1_mib_line_does_not_read_the_line() -> None:
    text = "head\n" + "x" * (1024 * 1024) + "\ntail\n"
    start = len(text) // 2
    source = CountingSlices(text)
    request = build_context(source, "a.md", "bold", start, start + 10).request
    assert source.read_positions <= 10 + 2 * (MAX_AROUND_BYTES + 1)
    assert request.before == "head\n" and request.selection == "x" * 10
    assert len(request.after) == MAX_AROUND_BYTES and request.lines == (1, 2)


def test_r69_a_single_long_line_is_cut_at_a_code_point() -> None:
    text = "😀" * 3000 + "\nsel" + "語" * 3000
    start = text.index("sel")
    request = build_context(TextSlices(text), "a.md", "bold", start, start + 3).request
    assert request.before.endswith("\n") and set(request.before[:-1]) == {"😀"}
    assert utf8_size(request.before) == 2045  # 511 emoji and the line break
    assert request.after == "語" * 682  # 2,046 bytes: a 683rd character would pass 2,048
