"""The shipped pop-out demo (R29): each picture after a pop-out shows both windows, and a
turn that fell back to another note says why, as a scenario can expect."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication

from app.scenario import cli
from app.scenario.runner import WINDOW_SIZE
from tests.scenario.test_runner import assert_holds_then_fails, run

DEMO = Path(__file__).resolve().parents[2] / "scenarios" / "demo" / "06-popped-out-limitation.yaml"
BACKGROUND = QColor("#e9ecf2").rgb()


def _has_content(picture: QImage, left: int, right: int) -> bool:
    """Anything but the picture's background in the columns ``left``..``right``."""
    colours = {
        picture.pixel(x, y)
        for x in range(left, right, 29)
        for y in range(80, picture.height() - 80, 29)
    }
    return len(colours - {BACKGROUND}) > 5


def test_every_picture_after_a_pop_out_shows_both_windows_and_the_reply_says_why_R29(
    qapp: QApplication, tmp_path: Path
) -> None:
    report, shots = tmp_path / "report.json", tmp_path / "shots"
    assert cli.main(["run", str(DEMO), "--report", str(report), "--screenshots", str(shots)]) == 0
    (scenario,) = json.loads(report.read_text(encoding="utf-8"))["scenarios"]
    first, stale, second = scenario["sends"]
    assert "inbox/reading.md is in its own window now" in " ".join(first["notices"])
    # Typed in the pop-out, not saved yet: read by name, the saved copy comes with a warning.
    assert "Braiding Sweetgrass" not in (stale["reply"] or "")
    assert "the assistant read its saved copy" in " ".join(stale["notices"])
    assert "no note here is “this note”" in " ".join(second["notices"])
    folder = shots / DEMO.stem
    main_width = WINDOW_SIZE[0]
    for name in ("06-send.png", "13-send.png", "17-send.png"):
        picture = QImage(str(folder / name))
        assert picture.width() > main_width + 400, name  # the pop-out stands beside it
        assert _has_content(picture, main_width + 60, picture.width() - 40), name
    before = QImage(str(folder / "04-activate.png"))
    assert before.width() == main_width  # before the pop-out: the main window alone


def test_notice_contains_fails_when_the_turn_says_no_such_thing(
    qapp: QApplication, tmp_path: Path
) -> None:
    result = run(
        tmp_path,
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - send: summarise this
        - expect: {noticeContains: ""}
        - expect: {noticeContains: "is in its own window"}
        """,
    )
    assert_holds_then_fails(result, "noticeContains")
