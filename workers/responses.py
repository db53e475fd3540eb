"""The routes' answers that are not one JSON model, as OpenAPI ``responses=`` entries.

The success answers' models are :mod:`bridge.wire`, shared with the app. Each route
declares its answer with ``response_model=`` (or ``responses=`` for a stream or plain
text), so ``app.openapi()`` lists every contract route with a typed answer;
``tests/workers/test_openapi.py`` holds it to ``contract.md``.

Two ways a model is used, chosen per route:
- **Cold routes** (key sessions, conversations, the assistant, the inline history…)
  return a dict and FastAPI validates it against the model and serialises it: the
  model is the answer's one declaration, and a field the route adds without the
  model is a 500 in the tests (``extra="forbid"``), never silently dropped.
- **Hot routes** (a turn with its pointer, document GET/PUT/listing, the inline
  command) keep their own serialisation: the turn body is joined from orjson pieces
  so a 256 KiB tool result is encoded once (:func:`workers.turns.render_turn`), and
  re-validating it would cost more than the whole encoding. They return a
  ``Response``, which FastAPI passes through; the model documents the answer, and
  the tests validate real answers against it (and ``tests/workers/test_wire_bytes.py``
  holds their bytes), so the two cannot drift.
"""

from __future__ import annotations

from typing import Any, Final

from bridge.agent import STREAM_MEDIA_TYPE
from bridge.wire import ErrorEnvelope

# Answers that are not JSON objects, as OpenAPI ``responses=`` entries.
ETAG_HEADER: Final[dict[str, Any]] = {
    "ETag": {
        "description": 'The quoted full SHA-256 of the saved bytes (contract 10): "<64 hex>".',
        "schema": {"type": "string"},
    }
}


def event_stream(events: str) -> dict[int | str, dict[str, Any]]:
    """A 200 that may also be ``text/event-stream`` (with ``Accept`` asking for it)."""
    return {
        200: {
            "content": {
                STREAM_MEDIA_TYPE: {
                    "schema": {"type": "string", "description": events},
                }
            }
        }
    }


PLAIN_TEXT_DOCUMENT: Final[dict[int | str, dict[str, Any]]] = {
    200: {
        "description": "The saved UTF-8 text of the note.",
        "content": {"text/plain; charset=utf-8": {"schema": {"type": "string"}}},
        "headers": ETAG_HEADER,
    }
}
SAVED_DOCUMENT: Final[dict[int | str, dict[str, Any]]] = {
    200: {"description": "The saved copy's size and fingerprint.", "headers": ETAG_HEADER}
}


REFUSALS: Final[dict[int | str, dict[str, Any]]] = {
    "4XX": {"model": ErrorEnvelope, "description": "Refused: the error envelope."}
}
