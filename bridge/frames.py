"""Frame ids with a fixed meaning on both sides of the wire."""

from __future__ import annotations

from typing import Final

ASSISTANT_FRAME_ID: Final = "assistant"
"""The AI Assistant frame: activating it never changes which note is "this note" (R5)."""
