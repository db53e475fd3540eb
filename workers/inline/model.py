"""The model path of an inline request: one streamed request for the replacement only (R70).

Contract 13: the server is asked once, ``stream: true``, with ``max_tokens`` at most
4,096 and no ``tools``; no conversation, no pointer. The model sees the instruction,
the note's path and the slice the app sent, marked so it can tell the selection from
the text around it, and is told to answer with the replacement text alone.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Final

from bridge.agent import DeltaEvent
from bridge.contract import MAX_INLINE_TOKENS
from bridge.inline import InlineRequest
from workers.assistants import Cancellation
from workers.model import connection, failures
from workers.model.answers import Answer, streamed_answer
from workers.model.assistant import ModelAssistant

SYSTEM: Final = (
    "You edit one part of a Markdown note. The user gives an instruction, the note's "
    "path, and the selected text between <selection> and </selection>, with some text "
    "before and after it for context. Answer with the text that replaces the selection "
    "and nothing else: no explanation, no quotes, no code fence, no tags. Keep the "
    "note's language and Markdown. Never repeat the text before or after the selection."
)
SYSTEM_INSERT: Final = (
    "You write into a Markdown note at the cursor. The user gives an instruction, the "
    "note's path, and the text before and after the cursor for context. Answer with "
    "the text to insert at the cursor and nothing else: no explanation, no quotes, no "
    "code fence, no tags. Keep the note's language and Markdown."
)


def messages(request: InlineRequest) -> list[dict[str, Any]]:
    """The request's two messages; the slice is all of the note the model sees (R69)."""
    if request.selection:
        body = (
            f"Note: {request.path}\nInstruction: {request.instruction}\n\n"
            f"<before>{request.before}</before>\n<selection>{request.selection}</selection>\n"
            f"<after>{request.after}</after>\n\n"
            "Reply with the replacement for the selection only."
        )
        system = SYSTEM
    else:
        body = (
            f"Note: {request.path}\nInstruction: {request.instruction}\n\n"
            f"<before>{request.before}</before>\n<cursor/>\n<after>{request.after}</after>\n\n"
            "Reply with the text to insert at the cursor only."
        )
        system = SYSTEM_INSERT
    return [{"role": "system", "content": system}, {"role": "user", "content": body}]


def ask(
    assistant: ModelAssistant, request: InlineRequest, cancellation: Cancellation
) -> Generator[DeltaEvent, None, str | None]:
    """Yield the replacement's pieces as they stream; return it whole (None: cancelled).

    A provider failure raises :class:`~workers.model.failures.ModelUnavailable` (R36).
    """
    base_url = assistant.base_url or ""
    call = connection.CallConnection()
    forget = cancellation.on_cancel(call.close)
    try:
        asked: dict[str, Any] = {
            "model": assistant.model or "",
            "messages": messages(request),
            "max_tokens": MAX_INLINE_TOKENS,
            "extra_headers": assistant.request_headers,
        }
        with connection.calling(call):
            stream = assistant.client.chat.completions.create(**asked, stream=True)
        answer = Answer()
        reading = streamed_answer(stream, answer, [], lambda: cancellation.cancelled)
        try:
            while True:
                event = next(reading)
                if isinstance(event, DeltaEvent):  # a request without tools streams only text
                    yield event
        except StopIteration as finished:
            pieces = finished.value
        finally:
            stream.close()
        if pieces is None or cancellation.cancelled:
            return None
        return unfenced(answer.content)
    except failures.ModelUnavailable:
        raise
    except Exception as error:
        if cancellation.cancelled:
            return None  # the connection was shut under the reader on purpose
        raise failures.from_sdk(error, base_url, assistant.model or "") from error
    finally:
        forget()
        call.close()  # a stopped or failed request ends the server's generation


def unfenced(text: str) -> str:
    """The answer without a code fence wrapped around all of it (small models add one)."""
    stripped = text.strip("\n")
    if stripped.startswith("```") and stripped.endswith("```") and stripped.count("\n") >= 1:
        inner = stripped[3 : len(stripped) - 3]
        first_break = inner.find("\n")
        return inner[first_break + 1 :].rstrip("\n") + ("\n" if text.endswith("\n") else "")
    return text
