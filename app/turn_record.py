"""The record of one assistant turn (defined with the assistant frame, named here for the app)."""

from renderer.frames.turns import TurnRecord

__all__ = ["TurnRecord"]
