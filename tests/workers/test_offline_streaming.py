"""The offline assistant streams its reply in pieces that add up to it (R35)."""

from __future__ import annotations

from pathlib import Path

from bridge.agent import DeltaEvent, DoneEvent
from workers.assistants import OfflineAssistant, TurnInput, pieces
from workers.database import Database
from workers.deliveries import DeliveryCredentials
from workers.documents import Workspaces
from workers.settings import Settings
from workers.tools import ToolContext


def test_r35_pieces_join_to_the_reply_and_cut_after_spaces() -> None:
    reply = "The note “Alpha” has one heading and one open task. " * 5
    cut = list(pieces(reply))
    assert "".join(cut) == reply
    assert len(cut) > 3
    assert all(piece.endswith(" ") for piece in cut[:-1])
    assert all(len(piece) <= 2 * 48 for piece in cut)


def test_r35_text_without_spaces_is_still_cut() -> None:
    reply = "このノートには見出しが一つと未完了のタスクが一つあります。" * 10
    cut = list(pieces(reply))
    assert "".join(cut) == reply
    assert len(cut) > 3
    assert list(pieces("")) == []


def test_r35_the_offline_reply_streams_in_pieces_only_for_a_stream(tmp_path: Path) -> None:
    """A JSON answer takes the reply from DoneEvent: no pieces are made for it (R35)."""
    settings = Settings(data_dir=tmp_path)
    database = Database(f"sqlite:///{tmp_path / 'pieces.db'}")
    try:
        context = ToolContext(
            session=None,
            conversation="c1",
            deliveries=DeliveryCredentials(database, settings),
            workspaces=Workspaces(settings),
            clock=settings.clock,
        )
        assistant = OfflineAssistant()
        streamed = list(assistant.run(TurnInput(context, "hello", None, streaming=True)))
        answered = list(assistant.run(TurnInput(context, "hello", None, streaming=False)))
    finally:
        database.close()
    assert isinstance(streamed[-1], DoneEvent) and isinstance(answered[-1], DoneEvent)
    reply = streamed[-1].answer.reply
    deltas = [event.text for event in streamed if isinstance(event, DeltaEvent)]
    assert len(deltas) > 1 and "".join(deltas) == reply
    assert answered == [DoneEvent(answered[-1].answer)] and answered[-1].answer.reply == reply
    assert OfflineAssistant.uses_history is True  # R56: abilities listed once per conversation
