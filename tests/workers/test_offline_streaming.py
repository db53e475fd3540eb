"""The offline assistant streams its reply in pieces that add up to it (R35)."""

from __future__ import annotations

from workers.assistants import pieces


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
