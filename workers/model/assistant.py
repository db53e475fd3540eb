"""The model assistant on the openai SDK: tool calling against any compatible endpoint (R30–R36).

One turn is a loop of at most 8 model calls (R32): each answer either ends the
turn with text or asks for tools; each tool runs through :data:`workers.tools.TOOLS`
(the same tools and results as the offline assistant) and its result goes back as a
``role: tool`` message. Nothing a model sends can crash a turn: unparseable or
invalid arguments and unknown tool names get a refusing tool result, and
``content: null`` is empty text.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from workers import jsontext, messages
from workers.assistants import MODEL, Delta, Done, ToolEvent, TurnEvent, TurnInput
from workers.conversations import storable
from workers.model import failures
from workers.model.prompt import TOOL_SCHEMAS, conversation_messages
from workers.outcomes import ToolCall, TurnOutcome
from workers.settings import MODEL_CONNECT_TIMEOUT_SECONDS, MODEL_READ_TIMEOUT_SECONDS
from workers.tools import TOOLS, ToolContext, refusal

if TYPE_CHECKING:
    import openai

MAX_MODEL_CALLS: Final = 8
"""R32: model calls per turn; then the turn ends with a plain-language reply."""

AUTO: Final = "auto"
"""The product lets the model choose; a test may force a first tool for determinism."""

TOO_MANY_CALLS: Final = (
    "I stopped after {calls} requests to the model without reaching an answer. Try asking "
    "more directly, or name the note you mean."
)
EMPTY_REPLY: Final = "The model returned an empty answer. Try again, or rephrase the question."
ARGUMENTS_NOT_JSON: Final = "The tool arguments are not valid JSON: send a JSON object."
PART_SEPARATOR: Final = "\n\n"


class _NotStreamed:
    """The endpoint closed a streamed answer before its first piece."""


_NOT_STREAMED: Final = _NotStreamed()


@dataclass
class _RequestedCall:
    id: str = ""
    name: str = ""
    arguments: str = ""


@dataclass
class _Answer:
    content: str = ""
    calls: list[_RequestedCall] = field(default_factory=list)


def open_client(base_url: str, api_key: str | None, read_timeout: float) -> openai.OpenAI:
    """An SDK client for the endpoint: no retries, connecting gives up within 10 s.

    The SDK is imported here, when a model is configured: it takes longer to load than
    the rest of the backend, and the offline assistant never needs it (R67).
    """
    import openai

    return openai.OpenAI(
        base_url=base_url,
        # The SDK insists on a key; without one, key_headers() leaves Authorization out.
        api_key=api_key or "unused",
        timeout=openai.Timeout(read_timeout, connect=MODEL_CONNECT_TIMEOUT_SECONDS),
        max_retries=0,  # a failure is reported at once (R36); the user retries
    )


def key_headers(api_key: str | None) -> dict[str, Any]:
    """Per-request headers: without a key no Authorization header is sent at all."""
    import openai

    return {} if api_key else {"Authorization": openai.Omit()}


class ModelAssistant:
    """Answers through one OpenAI-compatible endpoint; one client, shared by turns."""

    kind = MODEL
    uses_history = True

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        read_timeout: float = MODEL_READ_TIMEOUT_SECONDS,
        first_tool_choice: str = AUTO,
    ) -> None:
        self.base_url: str | None = failures.check_base_url(base_url)
        self.model: str | None = model
        self._first_tool_choice = first_tool_choice
        self._client = open_client(self.base_url, api_key, read_timeout)
        self._headers = key_headers(api_key)
        self._streams_with_tools = True

    @property
    def endpoint(self) -> str:
        return failures.endpoint_name(self.base_url or "")

    def close(self) -> None:
        self._client.close()

    def run(self, turn: TurnInput) -> Iterator[TurnEvent]:
        history = conversation_messages(turn.context, turn.pointer, turn.history, turn.message)
        reply: list[str] = []
        calls: list[ToolCall] = []
        for index in range(MAX_MODEL_CALLS):
            if turn.cancellation.cancelled:
                return
            tool_choice = self._first_tool_choice if index == 0 else AUTO
            answer = yield from self._ask(history, turn, tool_choice, separate=bool(reply))
            if answer is None:
                return  # cancelled
            if answer.content:
                reply.append(answer.content)
            if not answer.calls:
                self._check_not_a_text_tool_call(answer.content)
                if not reply:
                    reply.append(EMPTY_REPLY)
                    yield Delta(EMPTY_REPLY)
                yield Done(TurnOutcome(PART_SEPARATOR.join(reply), calls))
                return
            history.append(_assistant_message(answer))
            for requested in answer.calls:
                call = run_tool(turn.context, requested.name, requested.arguments)
                calls.append(call)
                yield ToolEvent(call)
                history.append(
                    {
                        "role": "tool",
                        "tool_call_id": requested.id,
                        "content": call.result_json().decode("utf-8"),
                    }
                )
        stop = TOO_MANY_CALLS.format(calls=MAX_MODEL_CALLS)
        yield Delta(PART_SEPARATOR + stop if reply else stop)
        reply.append(stop)
        yield Done(TurnOutcome(PART_SEPARATOR.join(reply), calls))

    def _ask(
        self, history: list[dict[str, Any]], turn: TurnInput, tool_choice: str, *, separate: bool
    ) -> Generator[TurnEvent, None, _Answer | None]:
        """One model call; yields the reply's deltas and returns the answer (None: cancelled)."""
        choice: Any = tool_choice
        if tool_choice != AUTO:
            choice = {"type": "function", "function": {"name": tool_choice}}
        request: dict[str, Any] = {
            "model": self.model,
            "messages": history,
            "tools": TOOL_SCHEMAS,
            "tool_choice": choice,
            "extra_headers": self._headers,
        }
        separator = [PART_SEPARATOR] if separate else []
        try:
            if turn.streaming and self._streams_with_tools:
                streamed = yield from self._ask_streaming(request, turn, separator)
                if not isinstance(streamed, _NotStreamed):
                    return streamed
                # llama-cpp-python's server refuses a streamed request with tool choice
                # "auto" by closing the stream before its first piece; this endpoint is
                # then asked without streaming, and each answer is relayed whole.
                self._streams_with_tools = False
            return (yield from self._ask_once(request, separator))
        except failures.ModelUnavailable:
            raise
        except Exception as error:
            if turn.cancellation.cancelled:
                return None  # the stream was closed under the reader on purpose
            raise failures.from_sdk(error, self.base_url or "", self.model or "") from error

    def _ask_once(
        self, request: dict[str, Any], separator: list[str]
    ) -> Generator[TurnEvent, None, _Answer]:
        completion = self._client.chat.completions.create(**request, stream=False)
        message = completion.choices[0].message
        answer = _Answer(content=storable(message.content or ""))
        for index, call in enumerate(message.tool_calls or []):
            function = getattr(call, "function", None)
            answer.calls.append(
                _RequestedCall(
                    id=call.id or f"call_{index}",
                    name=(function.name if function else "") or "",
                    arguments=(function.arguments if function else "") or "",
                )
            )
        if answer.content:
            yield Delta(separator[0] + answer.content if separator else answer.content)
        return answer

    def _ask_streaming(
        self, request: dict[str, Any], turn: TurnInput, separator: list[str]
    ) -> Generator[TurnEvent, None, _Answer | _NotStreamed | None]:
        stream = self._client.chat.completions.create(**request, stream=True)
        forget = turn.cancellation.on_cancel(lambda: abort_stream(stream))
        answer = _Answer()
        by_index: dict[int, _RequestedCall] = {}
        pieces = 0
        try:
            for chunk in stream:
                pieces += 1
                if turn.cancellation.cancelled:
                    return None
                if not chunk.choices:
                    continue  # usage or keep-alive pieces carry no choice
                delta = chunk.choices[0].delta
                if delta is None:
                    continue
                if delta.content:
                    text = storable(delta.content)
                    answer.content += text
                    yield Delta(separator.pop() + text if separator else text)
                for position, piece in enumerate(delta.tool_calls or []):
                    index = piece.index if isinstance(piece.index, int) else position
                    call = by_index.setdefault(index, _RequestedCall(id=f"call_{index}"))
                    call.id = piece.id or call.id
                    if piece.function is not None:
                        call.name = _joined_name(call.name, piece.function.name or "")
                        call.arguments += piece.function.arguments or ""
        finally:
            forget()
            stream.close()
        if turn.cancellation.cancelled:
            return None  # a cut-off answer is not an answer
        if pieces == 0:
            return _NOT_STREAMED
        answer.calls = [by_index[index] for index in sorted(by_index)]
        return answer

    def _check_not_a_text_tool_call(self, content: str) -> None:
        """R36: a tool call written as text means the endpoint does not do tool calling."""
        stripped = content.strip()
        if not (stripped.startswith("{") and stripped.endswith("}")):
            return
        try:
            value = jsontext.loads_exact(stripped)
        except ValueError:
            return
        if isinstance(value, dict) and value.get("name") in TOOLS:
            raise failures.ModelUnavailable(
                failures.NO_TOOLS.format(model=self.model, endpoint=self.endpoint)
            )


def _joined_name(name: str, piece: str) -> str:
    """A streamed tool name: OpenAI sends it once, llama-cpp-python's server in every piece."""
    return name if piece == name else name + piece


def abort_stream(stream: openai.Stream[Any]) -> None:
    """End a provider stream from another thread, at once (R35: the client went away).

    Closing the response alone leaves the reading thread blocked in ``recv`` while
    the model is silent (a long prefill, a stall), and the provider goes on
    generating. Shutting the socket down wakes that reader and tells the provider
    now; the reader then closes the response as it leaves.
    """
    network = stream.response.extensions.get("network_stream")
    connection = None if network is None else network.get_extra_info("socket")
    if isinstance(connection, socket.socket):
        with contextlib.suppress(OSError):
            connection.shutdown(socket.SHUT_RDWR)
    else:
        stream.close()


def _assistant_message(answer: _Answer) -> dict[str, Any]:
    """The model's tool-calling answer as sent back: ``content`` "" rather than null."""
    return {
        "role": "assistant",
        "content": answer.content,
        "tool_calls": [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments or "{}"},
            }
            for call in answer.calls
        ],
    }


def run_tool(context: ToolContext, name: str, arguments_text: str) -> ToolCall:
    """One requested tool call; anything a model may send gets a result, never an error."""
    if name not in TOOLS:
        message = messages.UNKNOWN_TOOL.format(name=name, tools=", ".join(sorted(TOOLS)))
        return ToolCall(storable(name), {}, refusal("invalid_argument", message))
    try:
        arguments = jsontext.loads_exact(arguments_text) if arguments_text.strip() else {}
        jsontext.dumps_exact(arguments)  # echoed in toolCalls and kept: it must encode back
    except ValueError:
        return ToolCall(name, {}, refusal("invalid_argument", ARGUMENTS_NOT_JSON))
    if not isinstance(arguments, dict):
        return ToolCall(name, {}, refusal("invalid_argument", messages.ARGUMENTS_NOT_OBJECT))
    return ToolCall(name, arguments, TOOLS[name](context, arguments))
