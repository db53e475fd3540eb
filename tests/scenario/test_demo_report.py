"""``python -m app scenario demo`` writes a Markdown tour with screenshots (R29 side by side)."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from app.scenario import cli

TOUR = """\
name: the popped-out limitation, in short
description: A note popped out is not the main assistant's note.
rules: [R29]
workspace:
  notes/a.md: "# A\\nalpha\\n"
  notes/b.md: "# B\\nbeta\\n"
steps:
  - mount: {frame: inbox-1, path: notes/a.md}
  - mount: {frame: inbox-2, path: notes/b.md}
  - activate: inbox-2
  - popout: inbox-2
  - caption: Only the alpha note is left in the main window.
  - send: summarise this
  - expect: {pointer: {frameId: inbox-1}, replyContains: alpha}
"""


def test_r29_demo_writes_a_readable_report_with_every_picture(
    qapp: QApplication, tmp_path: Path
) -> None:
    tour = tmp_path / "tour"
    tour.mkdir()
    (tour / "01-popout.yaml").write_text(TOUR, encoding="utf-8")
    out = tmp_path / "out"
    assert cli.main(["demo", "--scenarios", str(tour), "--out", str(out)]) == cli.EXIT_PASSED
    report = (out / "report.md").read_text(encoding="utf-8")
    assert report.startswith(f"# {cli.DEMO_TITLE}")
    assert "1 of 1 scenarios passed" in report
    assert "**Only the alpha note is left in the main window.**" in report
    assert '"frameId": "inbox-1"' in report  # the pointer that was sent
    assert "Tools the assistant called: `read_active_note`." in report
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", report)
    assert images, report
    for image in images:
        assert (out / image).is_file(), image
    popout = QImage(str(out / "01-popout" / "04-popout.png"))
    window = QImage(str(out / "01-popout" / "03-activate.png"))
    assert popout.width() > window.width() * 1.4  # the main window with the pop-out beside it
    sent = QImage(str(out / "01-popout" / "06-send.png"))
    assert sent.width() == popout.width()  # a later step still shows both windows (R29)
    assert "Beside the reply, the turn said:" in report
    assert "notes/b.md is in its own window now" in report
    assert (out / "report.json").is_file()
    # R79: the same tour as one self-contained HTML file, a picture after every action.
    page = (out / "report.html").read_text(encoding="utf-8")
    sources = re.findall(r'<img [^>]*src="([^"]*)"', page)
    assert len(sources) == 5  # the seven steps but the caption and the expect
    assert all(source.startswith("data:image/png;base64,") for source in sources)
    assert not re.search(r'(?:src|href)="(?!data:|#)', page)
    assert "Only the alpha note is left in the main window." in page
    assert page.count(" open>") == 1  # the tour's one send stands open, read top to bottom
