"""The backend's own words on the model path: shown to the person, never sent as the model's.

When the model gives no answer the backend writes one of :data:`STOP_MESSAGES`
instead, and it is kept in the conversation like any reply, so the person sees it
when the conversation reopens (R34). Sent back as ``role: assistant`` it would teach
the model that this is what it says: a small model copies it into every later turn.
:func:`model_words` is what a kept reply carries to the model (R75).
"""

from __future__ import annotations

import functools
import re
from typing import Final

TOO_MANY_CALLS: Final = (
    "I stopped after {calls} requests to the model without reaching an answer. Try asking "
    "more directly, or name the note you mean."
)
REPEATED_CALL: Final = (
    "The model asked for {tool} again instead of answering, so I stopped. Try asking more "
    "directly; a larger model answers better."
)
EMPTY_REPLY: Final = "The model returned an empty answer. Try again, or rephrase the question."
PART_SEPARATOR: Final = "\n\n"
STOP_MESSAGES: Final = (TOO_MANY_CALLS, REPEATED_CALL, EMPTY_REPLY)
"""Replies the backend writes when the model gave none: never an answer of the model."""


@functools.cache
def _stop_pattern() -> re.Pattern[str]:
    """Any stop message at the end of a reply, alone or after the model's own parts."""
    templates = []
    for message in STOP_MESSAGES:
        pieces = re.split(r"\{[a-z]+\}", message)
        templates.append("[^\\n]{0,200}?".join(re.escape(piece) for piece in pieces))
    either = "|".join(templates)
    return re.compile(f"(?:^|{re.escape(PART_SEPARATOR)})(?:{either})\\Z")


def model_words(reply: str) -> str:
    """A kept reply without the stop message the backend added to it ("" if it was all)."""
    found = _stop_pattern().search(reply)
    return reply[: found.start()] if found else reply
