"""Headings quoted in a reply keep their order of size: an H3 is never drawn above an H2 (R80)."""

from __future__ import annotations

from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QLabel

from renderer.frames.assistant.turn_view import HEADING_SCALE, markdown_html

SELECTION_REPLY = (
    "Selected lines 1–4 of notes/a.md:\n\n> ## Must do\n> ### Before Friday\n> - [ ] call Sam"
)


def _sizes(html: str, font_size: float) -> dict[str, float]:
    document = QTextDocument()
    font = document.defaultFont()
    font.setPointSizeF(font_size)
    document.setDefaultFont(font)
    document.setHtml(html)
    sizes: dict[str, float] = {}
    block = document.begin()
    while block.isValid():
        fragment = block.begin().fragment()
        if fragment.isValid():
            sizes[block.text()] = fragment.charFormat().font().pointSizeF()
        block = block.next()
    return sizes


def test_r80_an_h3_in_a_selection_summary_is_not_larger_than_the_h2(qapp: QApplication) -> None:
    label = QLabel()
    base = label.font().pointSizeF()
    sizes = _sizes(markdown_html(SELECTION_REPLY, label.font()), base)
    assert sizes["Must do"] == base * HEADING_SCALE
    assert sizes["Before Friday"] <= sizes["Must do"]
    assert sizes["Before Friday"] == base  # bold at the text's size
