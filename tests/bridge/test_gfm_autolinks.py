"""R55: bare URLs and e-mail addresses in the preview are links, as GFM's autolink examples say.

The 11 examples of the "Autolinks (extension)" section of the GitHub Flavored
Markdown spec 0.29-gfm (examples 621-631), Markdown and HTML as the spec gives them.
No file of GFM's examples is published on a package registry, so they are written
out here (see ``tests/data/commonmark/README.md``). The preview's HTML and the links
the reading names (:attr:`bridge.markdown.NoteReading.links`) must both follow them.
"""

from __future__ import annotations

import re
from html import unescape

import pytest

from bridge.markdown import read_note, render_html

BUSINESS = "www.google.com/search?q=Markup+(business)"
A_BUSINESS = f'<a href="http://{BUSINESS}">{BUSINESS}</a>'
EXAMPLES: dict[int, tuple[str, str]] = {
    621: (
        "www.commonmark.org\n",
        '<p><a href="http://www.commonmark.org">www.commonmark.org</a></p>\n',
    ),
    622: (
        "Visit www.commonmark.org/help for more information.\n",
        '<p>Visit <a href="http://www.commonmark.org/help">www.commonmark.org/help</a>'
        " for more information.</p>\n",
    ),
    623: (
        "Visit www.commonmark.org.\n\nVisit www.commonmark.org/a.b.\n",
        '<p>Visit <a href="http://www.commonmark.org">www.commonmark.org</a>.</p>\n'
        '<p>Visit <a href="http://www.commonmark.org/a.b">www.commonmark.org/a.b</a>.</p>\n',
    ),
    624: (
        f"{BUSINESS}\n\n{BUSINESS}))\n\n({BUSINESS})\n\n({BUSINESS}\n",
        f"<p>{A_BUSINESS}</p>\n<p>{A_BUSINESS}))</p>\n<p>({A_BUSINESS})</p>\n<p>({A_BUSINESS}</p>\n",
    ),
    625: (
        "www.google.com/search?q=(business))+ok\n",
        '<p><a href="http://www.google.com/search?q=(business))+ok">'
        "www.google.com/search?q=(business))+ok</a></p>\n",
    ),
    626: (
        "www.google.com/search?q=commonmark&hl=en\n\nwww.google.com/search?q=commonmark&hl;\n",
        '<p><a href="http://www.google.com/search?q=commonmark&amp;hl=en">'
        "www.google.com/search?q=commonmark&amp;hl=en</a></p>\n"
        '<p><a href="http://www.google.com/search?q=commonmark">'
        "www.google.com/search?q=commonmark</a>&amp;hl;</p>\n",
    ),
    627: (
        "www.commonmark.org/he<lp\n",
        '<p><a href="http://www.commonmark.org/he">www.commonmark.org/he</a>&lt;lp</p>\n',
    ),
    628: (
        "http://commonmark.org\n\n"
        "(Visit https://encrypted.google.com/search?q=Markup+(business))\n\n"
        "Anonymous FTP is available at ftp://foo.bar.baz.\n",
        '<p><a href="http://commonmark.org">http://commonmark.org</a></p>\n'
        '<p>(Visit <a href="https://encrypted.google.com/search?q=Markup+(business)">'
        "https://encrypted.google.com/search?q=Markup+(business)</a>)</p>\n"
        '<p>Anonymous FTP is available at <a href="ftp://foo.bar.baz">ftp://foo.bar.baz</a>.</p>\n',
    ),
    629: ("foo@bar.baz\n", '<p><a href="mailto:foo@bar.baz">foo@bar.baz</a></p>\n'),
    630: (
        "hello@mail+xyz.example isn't valid, but hello+xyz@mail.example is.\n",
        "<p>hello@mail+xyz.example isn't valid, but "
        '<a href="mailto:hello+xyz@mail.example">hello+xyz@mail.example</a> is.</p>\n',
    ),
    631: (
        "a.b-c_d@a.b\n\na.b-c_d@a.b.\n\na.b-c_d@a.b-\n\na.b-c_d@a.b_\n",
        '<p><a href="mailto:a.b-c_d@a.b">a.b-c_d@a.b</a></p>\n'
        '<p><a href="mailto:a.b-c_d@a.b">a.b-c_d@a.b</a>.</p>\n'
        "<p>a.b-c_d@a.b-</p>\n<p>a.b-c_d@a.b_</p>\n",
    ),
}
_ANCHOR = re.compile(r'<a href="([^"]*)">([^<]*)</a>')


@pytest.mark.parametrize("number", sorted(EXAMPLES), ids=lambda n: f"example-{n}")
def test_r55_the_preview_links_bare_urls_and_addresses_as_gfm_says(number: int) -> None:
    markdown, html = EXAMPLES[number]
    assert render_html(markdown) == html


@pytest.mark.parametrize("number", sorted(EXAMPLES), ids=lambda n: f"example-{n}")
def test_r39_the_reading_names_the_links_the_preview_shows(number: int) -> None:
    markdown, html = EXAMPLES[number]
    expected = [(unescape(href), unescape(text)) for href, text in _ANCHOR.findall(html)]
    assert [(link.href, link.text) for link in read_note(markdown).links] == expected
