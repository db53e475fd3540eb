"""Rendered Markdown never loads anything by itself (R62).

An image shows its alt text in the preview and in replies, the kept transcript redrawn
at start included; a link to a workspace note opens it in a frame; a web address opens
only from the bar that shows it; a file outside the workspace is never shown.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QTextBrowser

from tests.app.conftest import AppFactory, AppUnderTest

SUBPROCESS_TIMEOUT_SECONDS = 120
MEMORY_LIMIT_BYTES = 3 << 30  # reading /dev/zero fails fast here instead of eating the machine

# The product's own widgets draw an image of /dev/zero: the preview, a streamed turn's
# reply and a kept turn as the transcript redraws it at start. Before R62 Qt read the
# device until std::bad_alloc aborted the process.
_DEV_ZERO_SCRIPT = textwrap.dedent(
    """
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from bridge.wire import ConversationMessage
    from renderer.frames.assistant.transcript import KeptTurnView
    from renderer.frames.assistant.turn_view import markdown_html
    from bridge.markdown import render_html_pieces
    from renderer.frames.inbox.views import PreviewView
    note = "# Zero\\n\\n![zero](/dev/zero) and ![](file:///dev/zero)\\n"
    preview = PreviewView()
    for _step in preview.draw(render_html_pieces(note)):  # as the frame draws it, in slices
        pass
    preview.show()
    kept = KeptTurnView("where is zero?")
    kept.show_reply(ConversationMessage(
        role="assistant", text=note, at="2026-11-29T19:00:00.000Z", tool_calls=[], proposals=[]
    ))
    kept.show()
    app.processEvents()
    text = preview.toPlainText() + kept.reply.text()
    print("rendered", "[image: zero]" in text, "<img" in kept.reply.text(), flush=True)
    """
)


def test_r62_an_image_of_dev_zero_crashes_neither_the_preview_nor_a_reply() -> None:
    script = _DEV_ZERO_SCRIPT.format(limit=MEMORY_LIMIT_BYTES)
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT_SECONDS,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "rendered True False"


def _click_text(browser: QTextBrowser, text: str) -> None:
    """A real mouse click on the first occurrence of ``text`` in the rendered view."""
    found = browser.document().find(text)
    assert not found.isNull(), text
    cursor = QTextCursor(browser.document())
    cursor.setPosition(found.selectionStart() + 1)
    browser.setTextCursor(cursor)
    browser.ensureCursorVisible()  # scrolled to it first, so the point below is on screen
    rect = browser.cursorRect(cursor)
    assert browser.anchorAt(rect.center()), f"{text!r} is not a link"
    QTest.mouseClick(
        browser.viewport(),
        Qt.MouseButton.LeftButton,
        pos=rect.center(),
    )


NOTE = (
    "# Links\n\n"
    "![secret picture]({image})\n\n"
    "[beta](b.md)\n\n"
    "[outside](../../outside/secret.md)\n\n"
    "[absolute]({absolute})\n\n"
    "[climbing](notes/../../../x.md)\n\n"
    "[web page](https://example.com/page?q=1)\n"
)


def _app_with_links(make_app: AppFactory, tmp_path: Path) -> AppUnderTest:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("OUTSIDE SECRET\n", encoding="utf-8")
    image = outside / "picture.png"
    image.write_bytes(b"not a picture: OUTSIDE SECRET")
    note = NOTE.format(image=image, absolute=outside / "secret.md")
    return make_app({"notes/a.md": note, "notes/b.md": "# Beta\nbeta text\n"})


def test_r62_preview_images_show_alt_text_and_nothing_is_read(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = _app_with_links(make_app, tmp_path)
    frame = app.mount("inbox-1", "notes/a.md", "preview")
    shown = frame.preview.toPlainText()
    assert "[image: secret picture]" in shown
    assert "<img" not in frame.preview.toHtml()
    assert frame.preview.refused_resources == []  # nothing was even asked for


def test_r62_a_workspace_link_opens_the_note_in_a_frame(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = _app_with_links(make_app, tmp_path)
    frame = app.mount("inbox-1", "notes/a.md", "preview")
    with app.qtbot.waitSignal(app.window.frames_changed, timeout=5_000):
        _click_text(frame.preview, "beta")
    paths = [inbox.path for inbox in app.window.driver.inbox_frames()]
    assert paths == ["notes/a.md", "notes/b.md"]
    assert "[image: secret picture]" in frame.preview.toPlainText()  # the preview stayed


def test_r62_links_outside_the_workspace_are_never_shown(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = _app_with_links(make_app, tmp_path)
    frame = app.mount("inbox-1", "notes/a.md", "preview")
    for text in ("outside", "absolute", "climbing"):
        frame.link_offer.hide()
        _click_text(frame.preview, text)
        assert "OUTSIDE SECRET" not in frame.preview.toPlainText()
        assert frame.link_offer.isVisible() and not frame.link_offer.open_button.isVisible()
        assert "is not opened" in frame.link_offer.label.text()
    assert [inbox.path for inbox in app.window.driver.inbox_frames()] == ["notes/a.md"]
    assert frame.preview.refused_resources == []


def test_r62_a_web_link_opens_only_from_the_bar_that_shows_its_address(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = _app_with_links(make_app, tmp_path)
    frame = app.mount("inbox-1", "notes/a.md", "preview")
    opened: list[str] = []  # stands in for the desktop's browser
    frame.link_offer.open_url = lambda url: opened.append(url.toString())
    _click_text(frame.preview, "web page")
    assert opened == []  # the click alone opens nothing
    assert "https://example.com/page?q=1" in frame.link_offer.label.text()
    QTest.mouseClick(frame.link_offer.open_button, Qt.MouseButton.LeftButton)
    assert opened == ["https://example.com/page?q=1"]
    assert not frame.link_offer.isVisible()
