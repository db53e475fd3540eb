"""The model assistant on the openai SDK: tool calling against any compatible endpoint (R30–R36).

One turn is a loop of at most 8 model calls (R32): each answer either ends the
turn with text or asks for tools; each tool runs through :data:`workers.tools.TOOLS`
(the same tools and results as the offline assistant) and its result goes back as a
``role: tool`` message. Nothing a model sends can crash a turn: unparseable or
invalid arguments and unknown tool names get a refusing tool result, and
``content: null`` is empty text.

What each request offers is planned from the ask (:mod:`workers.model.steps`, R75):
for an ask about the open note the backend runs ``read_active_note`` itself, records
it as the turn's first tool call and sends the note back as its ``role: tool``
result, so a note-only ask costs one model request (for the answer, offering no
tools) and an edit ask two (``propose_note_edit`` by name, then the answer).

On real servers (R57): every request caps its answer; a repeated call (or a tool
refused twice in a row) ends the tools with one text-only request; a streamed
request the server refuses or resets before any text is asked again without
streaming, remembered per endpoint (:mod:`workers.model.endpoints`); and each call
runs on a connection of its own that a stop or a failure shuts
(:mod:`workers.model.connection`).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING, Any, Final

from bridge.agent import DeltaEvent, DoneEvent, ToolEvent
from bridge.contract import MAX_MODEL_CALLS
from bridge.wire import AssistantKind
from workers import jsontext
from workers.assistants import MODEL, AssistantEvent, TurnInput
from workers.model import connection, failures, steps
from workers.model.answers import (
    NOT_STREAMED,
    Answer,
    NotStreamed,
    RequestedCall,
    streamed_answer,
    whole_answer,
)
from workers.model.client import key_headers, open_client
from workers.model.endpoints import STREAMING
from workers.model.prompt import conversation_messages
from workers.model.stops import (
    EMPTY_REPLY,
    PART_SEPARATOR,
    REPEATED_CALL,
    STOP_MESSAGES,
    TOO_MANY_CALLS,
)
from workers.model.tool_calls import (
    assistant_message,
    failing_again,
    run_tool,
    signature,
    tool_message,
)
from workers.outcomes import ToolCall, TurnOutcome
from workers.settings import MODEL_READ_TIMEOUT_SECONDS
from workers.tools import PROPOSE_TOOL, TOOLS

__all__ = [
    "AUTO",
    "EMPTY_REPLY",
    "MAX_ANSWER_TOKENS",
    "NO_TOOL",
    "OPEN_NOTE_TOOL",
    "PART_SEPARATOR",
    "REPEATED_CALL",
    "STOP_MESSAGES",
    "TOO_MANY_CALLS",
    "ModelAssistant",
]

if TYPE_CHECKING:
    import openai

MAX_ANSWER_TOKENS: Final = 1024
"""R57: every request caps its answer, so no answer (or tool argument) runs on unbounded."""

AUTO: Final = "auto"
"""The model chooses; a test may force a first tool for determinism."""
NO_TOOL: Final = "none"
"""The model must answer in text: such a request offers no tools at all (R75)."""
OPEN_NOTE_TOOL: Final = steps.OPEN_NOTE_TOOL
"""Run by the backend itself for an ask about the open note (R57, R75)."""
READ_CALL_ID: Final = f"call_{OPEN_NOTE_TOOL}"
"""The id of the backend's own read in the messages sent back to the model."""


class ModelAssistant:
    """Answers through one OpenAI-compatible endpoint; one client, shared by turns."""

    kind: AssistantKind = MODEL
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
        self.base_url: str | None = failures.check_base_url(base_url, api_key)
        self.model: str | None = model
        self._first_tool_choice = first_tool_choice
        self._client = open_client(self.base_url, api_key, read_timeout)
        self._headers = key_headers(api_key)

    @property
    def endpoint(self) -> str:
        return failures.endpoint_name(self.base_url or "")

    @property
    def client(self) -> openai.OpenAI:
        """The SDK client, for one-shot requests that are not turns (the inline command)."""
        return self._client

    @property
    def request_headers(self) -> dict[str, Any]:
        """The per-request headers every call to this endpoint carries."""
        return self._headers

    def close(self) -> None:
        self._client.close()

    def _first_step(
        self, turn: TurnInput, history: list[dict[str, Any]], calls: list[ToolCall]
    ) -> Iterator[AssistantEvent]:
        """The backend's own read of the open note, when the plan asks for it (R75).

        It is a real tool call: recorded in the turn (Details, R34's history keeps its
        name and arguments), and sent to the model as the call and its ``role: tool``
        result, exactly as if the model had made it.
        """
        call = run_tool(turn.context, OPEN_NOTE_TOOL, "")
        calls.append(call)
        yield ToolEvent(call)
        requested = RequestedCall(id=READ_CALL_ID, name=OPEN_NOTE_TOOL, arguments="{}")
        history.append(assistant_message(Answer(calls=[requested])))
        history.append(tool_message(requested, call))

    def _offer(
        self, step: steps.Step, turn: TurnInput, calls: list[ToolCall]
    ) -> tuple[list[dict[str, Any]], str]:
        """The tools a step offers and its tool choice."""
        if step == "answer":
            return [], NO_TOOL
        if step == "edit":
            note = calls[-1].result.get("text") if calls else None
            return steps.edit_tools(note if isinstance(note, str) else None), PROPOSE_TOOL
        tools = steps.auto_tools(has_pointer=turn.pointer is not None)
        first = self._first_tool_choice
        if first not in (AUTO, OPEN_NOTE_TOOL) and not calls and steps.forced_tools(first):
            # The settings knob: this tool first, whatever is asked (R57, R75).
            return steps.forced_tools(first), first
        return tools, AUTO

    def run(self, turn: TurnInput) -> Iterator[AssistantEvent]:
        history = conversation_messages(turn.context, turn.pointer, turn.history, turn.message)
        reply: list[str] = []
        calls: list[ToolCall] = []
        made: set[tuple[str, str]] = set()
        repeated = ""
        plan = steps.plan(
            turn.context,
            turn.message,
            has_pointer=turn.pointer is not None,
            first_tool=self._first_tool_choice,
        )
        step = plan.step
        if plan.read_first:
            yield from self._first_step(turn, history, calls)
            made.add((OPEN_NOTE_TOOL, "{}"))
            if calls[-1].result.get("status") != "ok" and step == "edit":
                step = "answer"  # nothing to change: the model says why (no note, refused)
        tools, choice = self._offer(step, turn, calls)
        for _ in range(MAX_MODEL_CALLS):
            if turn.cancellation.cancelled:
                return
            answer = yield from self._ask(history, turn, tools, choice, separate=bool(reply))
            if answer is None:
                return  # cancelled
            if answer.content:
                reply.append(answer.content)
            if not answer.calls or repeated or choice == NO_TOOL:
                # Told to answer, the text is the answer: calls sent anyway are not run.
                if not answer.calls and tools:
                    self._check_not_a_text_tool_call(answer.content)
                fallback = REPEATED_CALL.format(tool=repeated) if repeated else EMPTY_REPLY
                yield from _finish(reply, calls, fallback)
                return
            again = [call.name for call in answer.calls if signature(call) in made]
            if again:
                # The model loops (small ones do): one last request, for text only.
                repeated, tools, choice = again[0] or "a tool", [], NO_TOOL
                continue
            history.append(assistant_message(answer))
            for requested in answer.calls:
                made.add(signature(requested))
                call = run_tool(turn.context, requested.name, requested.arguments)
                calls.append(call)
                yield ToolEvent(call)
                history.append(tool_message(requested, call))
            if step == "edit":
                tools, choice = [], NO_TOOL  # proposed (or refused): the model says so
            else:
                choice = self._after_tools(asked=choice, turn=turn)
                has_pointer = turn.pointer is not None
                tools = [] if choice == NO_TOOL else steps.auto_tools(has_pointer=has_pointer)
            failing = failing_again(calls)
            if failing:  # the same tool refused twice in a row: the model is guessing
                repeated, tools, choice = failing, [], NO_TOOL
        stop = TOO_MANY_CALLS.format(calls=MAX_MODEL_CALLS)
        yield DeltaEvent(PART_SEPARATOR + stop if reply else stop)
        reply.append(stop)
        yield DoneEvent(TurnOutcome(PART_SEPARATOR.join(reply), calls))

    def _after_tools(self, *, asked: str, turn: TurnInput) -> str:
        """The next tool choice once tools ran: one unstreamed "auto" request a turn (R57).

        llama-cpp-python neither caps nor stops a request that lets the model choose
        unless it streams, and it cannot stream one: after such a request the answer
        is asked streamed, without tools, so it is capped and ends when the turn does.
        """
        plain_auto = asked == AUTO and not STREAMING.streams(self.base_url or "", AUTO)
        return NO_TOOL if turn.streaming and plain_auto else AUTO

    def _ask(
        self,
        history: list[dict[str, Any]],
        turn: TurnInput,
        tools: list[dict[str, Any]],
        tool_choice: str,
        *,
        separate: bool,
    ) -> Generator[AssistantEvent, None, Answer | None]:
        """One model call; yields the reply's deltas and returns the answer (None: cancelled).

        A text-only request sends no ``tools`` and no ``tool_choice`` (R75): a model
        offered nothing cannot call anything, and OpenAI refuses a choice without tools.
        """
        request: dict[str, Any] = {
            "model": self.model,
            "messages": history,
            "max_tokens": MAX_ANSWER_TOKENS,
            "extra_headers": self._headers,
        }
        if tools and tool_choice != NO_TOOL:
            choice: Any = tool_choice
            if tool_choice != AUTO:
                choice = {"type": "function", "function": {"name": tool_choice}}
            request["tools"] = tools
            request["tool_choice"] = choice
        else:
            tool_choice = NO_TOOL
        separator = [PART_SEPARATOR] if separate else []
        base_url = self.base_url or ""
        kind = _choice_kind(tool_choice)
        call = connection.CallConnection()
        forget = turn.cancellation.on_cancel(call.close)
        try:
            if turn.streaming and STREAMING.streams(base_url, kind):
                streamed = yield from self._ask_streaming(request, turn, separator, call)
                if not isinstance(streamed, NotStreamed):
                    return streamed
                # llama-cpp-python's server drops a streamed request with tool choice
                # "auto" once the model picks a tool; such an endpoint is asked without
                # streaming from now on, and each of its answers is relayed whole.
                STREAMING.remember_not_streaming(base_url, kind)
                call = connection.CallConnection()
                forget()
                forget = turn.cancellation.on_cancel(call.close)
            return (yield from self._ask_once(request, separator, call))
        except failures.ModelUnavailable:
            raise
        except Exception as error:
            if turn.cancellation.cancelled:
                return None  # the connection was shut under the reader on purpose
            raise failures.from_sdk(error, base_url, self.model or "") from error
        finally:
            forget()
            call.close()  # a stopped, failed or timed-out call ends the server's generation

    def _ask_once(
        self, request: dict[str, Any], separator: list[str], call: connection.CallConnection
    ) -> Generator[AssistantEvent, None, Answer]:
        with connection.calling(call):
            completion = self._client.chat.completions.create(**request, stream=False)
        answer = whole_answer(completion.choices[0].message)
        if answer.content:
            yield DeltaEvent(separator[0] + answer.content if separator else answer.content)
        return answer

    def _ask_streaming(
        self,
        request: dict[str, Any],
        turn: TurnInput,
        separator: list[str],
        call: connection.CallConnection,
    ) -> Generator[AssistantEvent, None, Answer | NotStreamed | None]:
        try:
            with connection.calling(call):
                stream = self._client.chat.completions.create(**request, stream=True)
        except Exception as error:
            if turn.cancellation.cancelled or not failures.refused_stream(error):
                raise
            return NOT_STREAMED
        answer = Answer()
        try:
            pieces = yield from streamed_answer(
                stream, answer, separator, lambda: turn.cancellation.cancelled
            )
        except Exception as error:
            # Dropped before any text was shown: asking again shows nothing twice.
            if answer.content or turn.cancellation.cancelled or not failures.refused_stream(error):
                raise
            return NOT_STREAMED
        finally:
            stream.close()
        if pieces is None or turn.cancellation.cancelled:
            return None  # a cut-off answer is not an answer
        return NOT_STREAMED if pieces == 0 else answer

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


def _choice_kind(tool_choice: str) -> str:
    """What an endpoint's streaming is remembered by: "auto", "none", or a named tool."""
    return tool_choice if tool_choice in (AUTO, NO_TOOL) else "named"


def _finish(reply: list[str], calls: list[ToolCall], fallback: str) -> Iterator[AssistantEvent]:
    if not reply:
        reply.append(fallback)
        yield DeltaEvent(fallback)
    yield DoneEvent(TurnOutcome(PART_SEPARATOR.join(reply), calls))
