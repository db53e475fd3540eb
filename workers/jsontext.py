"""JSON text for request bodies, tool results and turn responses, in one place.

orjson, because a turn can carry a 256 KiB note twice (the QA hook's reply is the
result's JSON text and the result also sits in ``toolCalls``): the standard encoder
spends about half a millisecond escaping each copy, orjson a few dozen microseconds.
It also refuses what JSON cannot carry (NaN, lone surrogates, nesting deeper than
1,024) with a ``ValueError`` instead of writing invalid JSON or overflowing the stack.

Tool arguments go through the standard module instead: they are small, and an
integer beyond 64 bits must stay an integer so that ``maxBytes`` is clamped (R21).
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(value: Any) -> bytes:
    """Compact UTF-8 JSON; ``TypeError`` for a value JSON cannot carry (e.g. a lone surrogate)."""
    return orjson.dumps(value)


def loads(data: bytes | str) -> Any:
    """Parse strict JSON; anything else (NaN, lone surrogates, deep nesting) is a ValueError."""
    return orjson.loads(data)


def loads_exact(text: str) -> Any:
    """Parse strict JSON with integers of any size; anything else is a ValueError."""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except RecursionError as error:
        raise ValueError("the JSON is nested too deeply") from error


def dumps_exact(value: Any) -> bytes:
    """Compact UTF-8 JSON with integers of any size; NaN, infinity or a lone surrogate
    is a ValueError."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except RecursionError as error:
        raise ValueError("the JSON is nested too deeply") from error
    return text.encode("utf-8")  # UnicodeEncodeError, a ValueError, for a lone surrogate


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
