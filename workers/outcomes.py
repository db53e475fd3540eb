"""What one assistant turn produced: the reply and each tool call with its result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from workers import jsontext
from workers.tools import ToolResult


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
