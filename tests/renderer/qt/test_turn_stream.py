"""Streamed turns never flood the GUI thread: a burst of deltas is one redraw (R35)."""

from __future__ import annotations

import json

from bridge.agent import TurnStream
from renderer.qt.turn_stream import StreamedTurn
from tests.app.conftest import TURN_TIMEOUT_MS, AppFactory

BIG_NOTE = "# Big\n" + "many words here " * 8_000  # 128,006 bytes: thousands of pieces


def test_a_burst_of_deltas_while_the_gui_is_busy_arrives_as_one_redraw_R35(
    make_app: AppFactory,
) -> None:
    app = make_app({"notes/big.md": BIG_NOTE})
    link = app.session.link
    message = "/tool read_document " + json.dumps({"path": "notes/big.md"})

    def open_stream() -> TurnStream:
        return link.call(
            lambda client, key: client.stream_turn(
                "burst", message, session=key, ambient_header=None
            )
        )

    turn = StreamedTurn(app.session.runner, open_stream)
    shown: list[str] = []
    tools: list[object] = []
    turn.text_changed.connect(shown.append)
    turn.tool_called.connect(tools.append)
    reading = turn.start()
    assert reading is not None
    # The GUI thread is busy (blocked here) while the worker reads every piece of the stream.
    reading.result(timeout=TURN_TIMEOUT_MS / 1000)
    with app.qtbot.waitSignal(turn.finished, timeout=TURN_TIMEOUT_MS) as blocker:
        pass
    reply = blocker.args[0].reply
    assert len(reply) > 65_536  # a whole read streamed in 48-character pieces: 1,300+ deltas
    assert shown == [reply]  # thousands of deltas, one wake-up and one redraw
    assert len(tools) == 1 and tools[0].name == "read_document"
    turn.deleteLater()
