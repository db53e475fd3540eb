"""The README's pictures come from ``python -m app.screenshot``: real turns in the demo window."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage

from app.screenshot import Shot, capture
from tests.app.conftest import AppFactory


def test_the_window_picture_keeps_the_window_size_and_shows_a_real_turn_R46(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app(demo=True, demo_layout=True)
    output = tmp_path / "shot.png"
    records = capture(app.window, Shot(), output)
    image = QImage(str(output))
    assert (image.width(), image.height()) == (1360, 820)
    assert len(records) == 1 and records[0].reply is not None
    reply = records[0].reply.reply
    assert "Reply to Priya about the venue deposit" in reply  # the demo note's open tasks
    assert "Book the dentist" not in reply  # ticked: not open


def test_several_turns_are_sent_in_order_and_the_assistant_part_is_grabbed_alone_R38(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app(demo=True, demo_layout=True)
    output = tmp_path / "assistant.png"
    shot = Shot(
        messages=["where do I mention the dentist?", "やることは何が残ってる？"],
        details=False,
        part="assistant",
        size=(1360, 1000),
    )
    records = capture(app.window, shot, output)
    assert [record.message for record in records] == shot.messages
    replies = [record.reply.reply if record.reply else "" for record in records]
    assert "8: - [x] Book the dentist for Thursday" in replies[0]
    assert "未完了" in replies[1] and "Water the plants on the balcony" in replies[1]
    image = QImage(str(output))
    assert image.width() == app.window.assistant.width() < 1360
    assert image.height() == app.window.assistant.height()
