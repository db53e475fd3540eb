"""One offline turn: the intent table's answer to the request, in the request's language.

What each request means and how it is answered is :mod:`workers.offline.table`'s, one
entry per intent; ``/tool NAME {json}`` is the QA hook (contract 5), exactly one
call of that tool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from workers import jsontext, messages
from workers.conversations import StoredMessage
from workers.offline.answers import call
from workers.offline.table import classify, intent_of
from workers.outcomes import TurnOutcome
from workers.tools import TOOLS, ToolContext

TOOL_COMMAND: Final = "/tool"


def answer(
    context: ToolContext, message: str, history: Sequence[StoredMessage] = ()
) -> TurnOutcome:
    stripped = message.strip()
    if stripped == TOOL_COMMAND or stripped.startswith(TOOL_COMMAND + " "):
        return tool_command(context, stripped[len(TOOL_COMMAND) :].strip())
    request = classify(message)
    return intent_of(request).answer(context, request, history)


def tool_command(context: ToolContext, rest: str) -> TurnOutcome:
    """The QA hook: call exactly the named tool once and reply with its result as JSON text."""
    name, _, raw_arguments = rest.partition(" ")
    if not name:
        return TurnOutcome(messages.TOOL_COMMAND_INVALID.format(detail="no tool name"))
    if name not in TOOLS:
        return TurnOutcome(messages.UNKNOWN_TOOL.format(name=name, tools=", ".join(sorted(TOOLS))))
    raw_arguments = raw_arguments.strip()
    try:
        arguments = jsontext.loads_exact(raw_arguments) if raw_arguments else {}
        jsontext.dumps_exact(arguments)  # echoed in toolCalls: it must encode back
    except ValueError:
        return TurnOutcome(
            messages.TOOL_COMMAND_INVALID.format(detail="the arguments are not valid JSON")
        )
    if not isinstance(arguments, dict):
        return TurnOutcome(messages.ARGUMENTS_NOT_OBJECT)
    outcome = TurnOutcome("", kept=False)
    call(outcome, context, TOOLS[name], arguments)
    outcome.reply = outcome.tool_calls[0].result_json().decode("utf-8")
    return outcome
