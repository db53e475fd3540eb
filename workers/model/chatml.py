"""What the bundled model is shown: ChatML with tool calls and tool results in it (R75).

llama-cpp-python's own ``chatml-function-calling`` format renders a ``role: tool``
message as an empty turn (the note a tool read never reaches the model) and
HTML-escapes every message (the model reads ``&#34;`` and writes it back). The
bundled server (``scripts/llama_server.py``) registers a chat handler that renders
with :func:`render` instead, and the scripted peer of the tests renders every request
with it too, so a test reads exactly what the model was shown.

The prompt is plain text, never escaped. A tool result's note text is shown as the
text itself, below the result's other fields, rather than as one JSON string full of
``\\n`` escapes that a small model cannot read. The tools a request offers come last,
just before the answer: requests of one turn that offer different tools (or none)
then share everything before them, which the server's prompt cache reuses.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

IM_START: Final = "<|im_start|>"
IM_END: Final = "<|im_end|>"
CALL_PREFIX: Final = "functions."
"""A call is written ``functions.NAME:`` then its JSON arguments on the next line."""
MESSAGE_PREFIX: Final = "message:"
"""With tools offered, a text answer starts with this (the grammar picks one of the two)."""
TOOLS_INTRO: Final = "You can call these functions:"
TOOLS_HOW: Final = (
    "To call a function, answer `functions.NAME:` and its JSON arguments on the next "
    "line. To answer in text, start with `message:`."
)
_SPECIAL: Final = ("<|im_start|>", "<|im_end|>")
"""The server reads these as ChatML's own tokens: in a message they could end its turn."""


_TOLD_ELSEWHERE: Final = frozenset({"text", "bytes", "view"})
"""Result fields the system message already gives (the open note's size and view)."""
_OK: Final = ("status", "ok")


def _plain(text: str) -> str:
    """Message text as it is, except that it cannot open or close a turn of its own."""
    for token in _SPECIAL:
        if token in text:
            text = text.replace(token, token.replace("<|", "< |"))
    return text


def _turn(role: str, content: str) -> str:
    return f"{IM_START}{role}\n{content}{IM_END}\n"


def tool_result_text(content: str) -> str:
    """A tool result for the model: its telling fields as JSON, then the text it read, as text."""
    try:
        value = json.loads(content)
    except ValueError:
        return content
    if not isinstance(value, dict) or not isinstance(value.get("text"), str):
        return content
    # Only the fields that say something: an empty caveat or "partial": false costs a small
    # model's reading time (each token is read before the first word of the answer).
    fields = {
        key: item
        for key, item in value.items()
        if key not in _TOLD_ELSEWHERE and item not in (None, False) and (key, item) != _OK
    }
    head = json.dumps(fields, ensure_ascii=False, separators=(", ", ": "))
    return f"{head}\ntext:\n{value['text']}"


def _content(message: Mapping[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI's content parts: only the text ones are shown
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, Mapping))
    return ""


def _calls(message: Mapping[str, Any]) -> str:
    lines: list[str] = []
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        lines.append(
            f"{CALL_PREFIX}{function.get('name', '')}:\n{function.get('arguments') or '{}'}"
        )
    return "\n".join(lines)


def _message(message: Mapping[str, Any]) -> str:
    role = str(message.get("role", "user"))
    content = _plain(_content(message))
    if role == "tool":
        return _turn("tool", _plain(tool_result_text(_content(message))))
    if role == "assistant":
        calls = _calls(message)
        if calls:
            return _turn("assistant", f"{content}\n{calls}" if content else calls)
    return _turn(role if role in ("system", "user", "assistant") else "user", content)


def tools_turn(tools: Sequence[Mapping[str, Any]]) -> str:
    """The tools one request offers, as the last system turn before the answer."""
    lines = [TOOLS_INTRO]
    for tool in tools:
        function = tool.get("function") or {}
        parameters = json.dumps(function.get("parameters") or {}, ensure_ascii=False)
        description = function.get("description") or ""
        lines.append(f"{CALL_PREFIX}{function.get('name', '')}: {description}\n{parameters}")
    lines.append(TOOLS_HOW)
    return _turn("system", _plain("\n".join(lines)))


def offered_tools(
    tools: Sequence[Mapping[str, Any]] | None, tool_choice: Any
) -> list[Mapping[str, Any]]:
    """The tools the model may call in this request: none for ``"none"``, one when named."""
    if not tools or tool_choice == "none":
        return []
    if isinstance(tool_choice, Mapping):
        name = (tool_choice.get("function") or {}).get("name")
        return [tool for tool in tools if (tool.get("function") or {}).get("name") == name]
    return list(tools)


def named_tool(tool_choice: Any) -> str | None:
    """The tool a request forces, if it names one."""
    if isinstance(tool_choice, Mapping):
        name = (tool_choice.get("function") or {}).get("name")
        return name if isinstance(name, str) else None
    return None


def render(
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] | None = None,
    tool_choice: Any = None,
) -> str:
    """The whole prompt of one chat-completions request, up to where the model writes.

    A forced tool's call is begun for the model (``functions.NAME:``): it writes only
    the arguments.
    """
    offered = offered_tools(tools, tool_choice)
    prompt = "".join(_message(message) for message in messages)
    if offered:
        prompt += tools_turn(offered)
    prompt += f"{IM_START}assistant\n"
    named = named_tool(tool_choice)
    if named is not None and offered:
        prompt += f"{CALL_PREFIX}{named}:\n"
    return prompt
