"""R69: the live editor's document read as slices gives the same request as the text does."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication

from bridge.contract import MAX_SELECTION_BYTES
from bridge.inline import utf8_size
from renderer.ambient.inline import SelectionTooLarge, TextSlices, build_context
from renderer.qt.inline_slices import DocumentSlices

LINES = st.lists(
    st.builds(
        lambda unit, count: unit * count,
        st.sampled_from(["a", "é", "😀", "語"]),
        st.integers(0, 2500),
    ),
    max_size=8,
)


def _units(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(LINES, st.data())
def test_r69_r8_the_document_and_the_text_build_the_same_request(
    qapp: QApplication, lines: list[str], data: st.DataObject
) -> None:
    text = "\n".join(lines) + "\n"
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 5000)))
    document = QTextDocument()
    document.setPlainText(text)
    # Qt counts UTF-16 units: the same selection, at its positions in units.
    units = _units(text[:start]), _units(text[:end])
    if utf8_size(text[start:end]) > MAX_SELECTION_BYTES:  # both refuse it (emoji: 4 bytes)
        with pytest.raises(SelectionTooLarge):
            build_context(TextSlices(text), "a.md", "sort", start, end)
        with pytest.raises(SelectionTooLarge):
            build_context(DocumentSlices(document), "a.md", "sort", *units)
        return
    expected = build_context(TextSlices(text), "a.md", "sort", start, end).request
    found = build_context(DocumentSlices(document), "a.md", "sort", *units).request
    assert found == expected
