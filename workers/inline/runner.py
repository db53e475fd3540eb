"""One inline request, worker-thread side, for both answers (JSON and stream) (R70, R40).

As with turns (:mod:`workers.turns`), the route only translates these events to HTTP:
``DeltaEvent`` pieces of the replacement, then a ``DoneEvent`` (the JSON answer, also the
stream's ``done``) or ``Failed``. The record is written before the assistant is
asked and marked ``failed`` when no answer comes. Nothing here reads or writes a
delivery row or an ambient pointer: the request carries its own context.
"""

from __future__ import annotations

import logging
from collections.abc import Generator
from dataclasses import dataclass
from typing import Final

from bridge.agent import DeltaEvent, DoneEvent
from bridge.inline import InlineRequest
from bridge.wire import KIND_EDIT, InlineAnswer, InlineAssistant
from workers import jsontext, messages
from workers.assistants import OFFLINE, Cancellation, pieces
from workers.dependencies import BackendState
from workers.inline import edits, model
from workers.inline.records import NewRecord
from workers.model.assistant import ModelAssistant
from workers.model.failures import ModelUnavailable
from workers.turns import Failed

logger = logging.getLogger(__name__)

MODEL_SUMMARY: Final = "The model's replacement for the selection."
MODEL_INSERT_SUMMARY: Final = "The model's text to insert at the cursor."

InlineRunnerEvent = DeltaEvent | DoneEvent[bytes] | Failed


@dataclass(frozen=True)
class InlineAsk:
    """A checked request: who asks, in which workspace, and what was sent."""

    account: str
    workspace: str
    request: InlineRequest


def run_inline(
    state: BackendState, ask: InlineAsk, *, streaming: bool, cancellation: Cancellation
) -> Generator[InlineRunnerEvent, None, None]:
    """Ask the current assistant once and yield the events; the last is the outcome."""
    assistant = state.assistants.acquire()
    request_id: str | None = None
    try:
        name = "offline" if assistant.kind == OFFLINE else (assistant.model or assistant.kind)
        request = ask.request
        request_id = state.inline.start(
            NewRecord(
                account=ask.account,
                workspace=ask.workspace,
                instruction=request.instruction,
                path=request.path,
                lines=request.lines,
                bytes=request.bytes,
                assistant_kind=assistant.kind,
                assistant_name=name,
            )
        )
        if isinstance(assistant, ModelAssistant):
            replacement = yield from model.ask(assistant, request, cancellation)
            if replacement is None:  # the client went away: no answer to keep
                state.inline.fail(request_id)
                return
            summary = MODEL_SUMMARY if request.selection else MODEL_INSERT_SUMMARY
            answer = InlineAnswer(
                id=request_id,
                replacement=replacement,
                summary=summary,
                kind=KIND_EDIT,
                assistant=InlineAssistant(kind=assistant.kind, name=name),
            )
        else:
            offline = edits.answer(request.instruction, request.selection)
            for piece in pieces(offline.replacement) if streaming else ():
                if cancellation.cancelled:
                    state.inline.fail(request_id)
                    return
                yield DeltaEvent(piece)
            answer = InlineAnswer(
                id=request_id,
                replacement=offline.replacement,
                summary=offline.summary,
                kind=offline.kind,
                assistant=InlineAssistant(kind=assistant.kind, name=name),
            )
        yield DoneEvent(jsontext.dumps(answer.model_dump()))
    except ModelUnavailable as failure:
        _failed(state, request_id)
        yield Failed(502, failure.code, failure.message)
    except Exception as error:
        logger.error("An inline request failed", exc_info=error)
        _failed(state, request_id)
        yield Failed(500, "internal_error", messages.INTERNAL_ERROR)
    finally:
        state.assistants.release(assistant)


def _failed(state: BackendState, request_id: str | None) -> None:
    if request_id is not None:
        state.inline.fail(request_id)
