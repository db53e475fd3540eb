"""R55: heading, task and title texts read as the preview shows them; bare URLs are links."""

from __future__ import annotations

import re
from html import unescape

from bridge.markdown import TITLE_MOST, read_note, render_html, shortened_title
from bridge.preview_bounds import INLINE_MARK

NOTE = (
    "# **Plan** &amp; \\#1\n"
    "- [ ] call *Sam* at `9`, see [the list](notes/b.md)\n"
    "- [x] done\n"
    "## ![logo](x.png) Later\n"
)


def test_r55_headings_tasks_and_the_title_are_plain_text() -> None:
    reading = read_note(NOTE)
    assert reading.title == "Plan & #1"
    assert [heading.text for heading in reading.headings] == ["Plan & #1", "logo Later"]
    assert [task.text for task in reading.tasks] == ["call Sam at 9, see the list", "done"]
    # The mark columns still point at the source's mark.
    assert NOTE.split("\n")[1][reading.tasks[0].mark_column] == " "


def test_r55_a_mark_that_is_also_a_link_label_is_a_task_in_the_preview_too() -> None:
    note = "- [x] booked\n\n[x]: https://example.com\n"
    assert [(task.text, task.done) for task in read_note(note).tasks] == [("booked", True)]
    html = render_html(note)
    assert "☑ booked" in html
    assert 'href="https://example.com"' not in html


def test_r55_bare_urls_are_links() -> None:
    html = render_html("see https://example.org and www.example.net today\n")
    assert '<a href="https://example.org">https://example.org</a>' in html
    assert 'href="http://www.example.net"' in html
    assert [link.href for link in read_note("https://example.org\n").links] == [
        "https://example.org"
    ]


def test_a_long_hostile_heading_reads_as_the_preview_shows_it() -> None:
    """A run of ``[*`` is the costly case for an inline pass; cmark-gfm's is linear."""
    hostile = "# " + "[*" * 50_000 + "\n"
    drawn = unescape(re.sub(r"<[^>]*>", "", render_html(hostile))).strip()
    # R91: past its run limit the preview draws the rest as plain text behind a mark;
    # the words are the same on both sides of it.
    assert INLINE_MARK in drawn
    shown = drawn.replace(INLINE_MARK, "")
    assert read_note(hostile).headings[0].text == shown
    assert shown.startswith("[[[") and len(shown) >= 50_000


def test_a_title_is_a_line_not_the_whole_first_paragraph() -> None:
    """A note of one 64 KiB paragraph (``*a`` runs, or plain words) gives a title of at most
    TITLE_MOST characters, cut at a word, and the reading stops walking its inlines there:
    the adversarial benchmark's "summarise this" on such notes read all 50,000 of them."""
    for note in (("*a" * 40_000)[:65_536], "word " * 13_000, "- [ ] " + "task words " * 6_000):
        title = read_note(note).title
        assert 100 < len(title) <= TITLE_MOST
        assert title.endswith("…")
    heading = "# " + "long heading " * 100
    assert read_note(heading).title == shortened_title(heading[2:].strip())
    assert len(read_note(heading).title) <= TITLE_MOST
    assert read_note("# Today\n\nwords").title == "Today"
