"""The tools a model asks for: run each safely, and tell a loop from progress (R32, R34, R57).

Every requested call gets a result, never an error: an unknown name, arguments
that are no JSON object or that would not encode back are refused in plain words,
as the model's tool result. The calls and their results go back to the model as
the messages the OpenAI protocol names.
"""

from __future__ import annotations

import json
from typing import Any, Final

from workers import jsontext, messages
from workers.conversations import storable
from workers.model.answers import Answer, RequestedCall
from workers.outcomes import ToolCall
from workers.tools import TOOLS, ToolContext, refusal

ARGUMENTS_NOT_JSON: Final = "The tool arguments are not valid JSON: send a JSON object."


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


def signature(call: RequestedCall) -> tuple[str, str]:
    """A call's name and arguments, the same however the model spaced its JSON."""
    try:
        arguments = json.dumps(jsontext.loads_exact(call.arguments or "{}"), sort_keys=True)
    except ValueError:
        arguments = call.arguments.strip()
    return call.name, arguments


def failing_again(calls: list[ToolCall]) -> str:
    """The tool's name when its last two calls both failed, else ""."""
    if len(calls) < 2 or calls[-1].name != calls[-2].name:
        return ""
    if any(call.result.get("status") == "ok" for call in calls[-2:]):
        return ""
    return calls[-1].name


def tool_message(requested: RequestedCall, call: ToolCall) -> dict[str, Any]:
    """A call's result as the ``role: tool`` message that answers it."""
    return {
        "role": "tool",
        "tool_call_id": requested.id,
        "content": call.result_json().decode("utf-8"),
    }


def assistant_message(answer: Answer) -> dict[str, Any]:
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
