"""The one Markdown reading against the CommonMark spec's own examples (R39, R55).

``tests/data/commonmark/spec-0.31.2.json`` is the spec's 652 examples. Two checks:

- **Heading text** (R55): every heading the spec's HTML shows reads, in
  :func:`bridge.markdown.read_note`, as that heading's text content (entities
  decoded, emphasis, code and links reduced to their text), in order.
- **The preview** (R39): :func:`bridge.markdown.render_html` renders each example as
  the spec does, where the preview's documented choices do not apply: raw HTML is
  shown as text and images as their alt text (R62), and bare URLs, tables and
  strikethrough are on (GFM), so examples with raw HTML, images, ``|``, ``~~``,
  URL-like or address-like text are left to the other tests (the GFM autolinks to
  ``test_gfm_autolinks.py``). The few examples where cmark-gfm, which renders the
  preview, differs are :data:`PREVIEW_EXCEPTIONS`, each with its reason.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from bridge.markdown import read_note, render_html

SPEC = Path(__file__).resolve().parents[1] / "data" / "commonmark" / "spec-0.31.2.json"
EXAMPLES: list[dict[str, Any]] = json.loads(SPEC.read_text(encoding="utf-8"))
_RAW_HTML_SECTIONS = frozenset({"HTML blocks", "Raw HTML"})
_PREVIEW_CHOICES = ("<", "|", "~~", "://", "www.", "![", "@")
"""Markdown where the preview chose otherwise than plain CommonMark (see above)."""
_HEADING = re.compile(r"h[1-6]")
_NESTED_STRONG = frozenset({389, 417, 425, 426, 427, 464, 465, 466, 468})
"""cmark-gfm's renderer writes ``<strong>`` inside ``<strong>`` once: the same bold text shows."""
PREVIEW_EXCEPTIONS: dict[int, str] = {
    **{number: "nested strong written once" for number in _NESTED_STRONG},
    # cmark-gfm follows CommonMark 0.29 here, where 0.31.2 changed the rule:
    354: "0.29: currency symbols are not punctuation next to emphasis",
    28: "0.29: an eight-digit numeric reference is decoded, as U+FFFD",
}
"""Spec examples the preview (cmark-gfm, ``bridge.markdown_preview``) renders otherwise."""


class _Headings(HTMLParser):
    """The (level, text content) of each heading of an HTML fragment."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._text: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if _HEADING.fullmatch(tag):
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        if _HEADING.fullmatch(tag) and self._text is not None:
            self.found.append((int(tag[1]), " ".join("".join(self._text).split())))
            self._text = None

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)


def _spec_headings(html: str) -> list[tuple[int, str]]:
    parser = _Headings()
    parser.feed(html)
    return parser.found


HEADING_EXAMPLES = [
    example
    for example in EXAMPLES
    if "<h" in example["html"]
    and "<img" not in example["html"]  # an image reads as its alt text (R55), not as nothing
    and example["section"] not in _RAW_HTML_SECTIONS
]
PREVIEW_EXAMPLES = [
    example
    for example in EXAMPLES
    if example["section"] not in {*_RAW_HTML_SECTIONS, "Images"}
    and not any(choice in example["markdown"] for choice in _PREVIEW_CHOICES)
    and example["example"] not in PREVIEW_EXCEPTIONS
]


def test_the_spec_file_is_the_whole_spec() -> None:
    assert len(EXAMPLES) == 652
    assert len(HEADING_EXAMPLES) >= 60 and len(PREVIEW_EXAMPLES) >= 450


@pytest.mark.parametrize("example", HEADING_EXAMPLES, ids=lambda e: f"example-{e['example']}")
def test_r55_heading_texts_are_the_text_the_spec_renders(example: dict[str, Any]) -> None:
    reading = read_note(example["markdown"])
    assert [(h.level, h.text) for h in reading.headings] == _spec_headings(example["html"])


@pytest.mark.parametrize("example", PREVIEW_EXAMPLES, ids=lambda e: f"example-{e['example']}")
def test_r39_the_preview_renders_the_spec_examples_as_the_spec_does(
    example: dict[str, Any],
) -> None:
    assert render_html(example["markdown"]) == example["html"]


@pytest.mark.parametrize("number", sorted(PREVIEW_EXCEPTIONS), ids=lambda n: f"example-{n}")
def test_r39_the_known_exceptions_still_differ(number: int) -> None:
    """An exception that no longer differs is taken off the list, so the list stays true."""
    example = EXAMPLES[number - 1]
    assert render_html(example["markdown"]) != example["html"]


def test_r55_a_heading_naming_a_link_reference_reads_as_its_label() -> None:
    """Spec example 214: the definition comes after the heading, as the preview resolves it."""
    reading = read_note("# [Foo]\n[foo]: /url\n> bar\n")
    assert [h.text for h in reading.headings] == ["Foo"]
    assert reading.title == "Foo"
