"""What one assistant turn produced: the reply and each tool call with its result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from workers import jsontext
from workers.tools import PROPOSE_TOOL, ToolResult


@dataclass
class ToolCall:
    """One tool call of a turn; the result's JSON is made once, for the reply and toolCalls."""

    name: str
    arguments: dict[str, Any]
    result: ToolResult
    _result_json: bytes | None = field(default=None, repr=False)

    def result_json(self) -> bytes:
        if self._result_json is None:
            self._result_json = jsontext.dumps(self.result)
        return self._result_json


@dataclass
class TurnOutcome:
    reply: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    kept: bool = True
    """False for the QA hook: its reply is a tool result, which no conversation keeps (R34)."""

    @property
    def proposals(self) -> list[dict[str, Any]]:
        """The proposals the turn's tool calls made, in order (R50, contract 10)."""
        return [proposal for call in self.tool_calls if (proposal := proposal_of(call))]


def proposal_of(call: ToolCall) -> dict[str, Any] | None:
    """The proposal a tool call made, if it is a propose call that succeeded."""
    if call.name != PROPOSE_TOOL or call.result.get("status") != "proposed":
        return None
    proposal = call.result.get("proposal")
    return proposal if isinstance(proposal, dict) else None
