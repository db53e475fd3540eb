"""The default assistant: deterministic and offline, it answers from what its tools read.

It answers the question asked (R38) in the language of the request: a summary,
the open tasks, the headings, where a word is mentioned, the selected text, a
comparison with another note, the listing; greetings, help and anything else get
a reply that says what it can do, without reading a note. For a request about the
open note it calls ``read_active_note`` first, on every turn (R23); a named path
uses ``read_document``. ``/tool NAME {json}`` is the QA hook (contract 5). The
work is in :mod:`workers.offline`; this module is its stable entry point.
"""

from __future__ import annotations

from workers.offline import turn
from workers.offline.turn import TOOL_COMMAND
from workers.outcomes import ToolCall, TurnOutcome
from workers.tools import ToolContext

__all__ = ["TOOL_COMMAND", "DefaultAssistant", "ToolCall", "TurnOutcome"]


class DefaultAssistant:
    """Answers one turn at a time; keeps no state between turns."""

    def answer(self, context: ToolContext, message: str) -> TurnOutcome:
        return turn.answer(context, message)
