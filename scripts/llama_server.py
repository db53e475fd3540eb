"""llama-cpp-python's server with a chat handler that shows the model its tool results (R75).

``python scripts/llama_server.py ARGS...`` is ``python -m llama_cpp.server ARGS...``
with one more chat format registered, :data:`CHAT_FORMAT`, which
``scripts/model_server.py`` names. It renders every request with
:func:`workers.model.chatml.render` (tool results shown, nothing HTML-escaped) and
keeps what ``chatml-function-calling`` does with tools: a forced tool's arguments are
generated under the grammar of its JSON Schema; with tool choice "auto" a first,
grammar-bound step picks ``message:`` or one tool. Unlike that format it streams a
tool the model picked itself, one call per answer.

llama_cpp is reached through ``importlib`` so that this file type-checks with or
without the model server installed.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from typing import Any, Final

from workers.model import chatml

CHAT_FORMAT: Final = "ambient-chatml-tools"
SAMPLING: Final = (
    "temperature",
    "top_p",
    "top_k",
    "min_p",
    "typical_p",
    "presence_penalty",
    "frequency_penalty",
    "repeat_penalty",
    "seed",
    "logit_bias",
    "logits_processor",
)
"""The request's sampling settings, passed on to every completion of the answer."""
MAX_TEMPERATURE: Final = 0.2
"""The bundled model answers from the note at this temperature at most. The server's
default is 0.8, at which SmolLM2-135M drifts off the note: a word planted in it came
back in 1 of 6 answers, against 6 of 6 at 0.2 (measured on this machine)."""


def _grammar(source: str, *, schema: bool) -> Any:
    grammars = importlib.import_module("llama_cpp.llama_grammar")
    if schema:
        try:
            return grammars.LlamaGrammar.from_json_schema(source, verbose=False)
        except Exception:  # a schema its converter cannot read: any JSON, as upstream does
            return grammars.LlamaGrammar.from_string(grammars.JSON_GBNF, verbose=False)
    return grammars.LlamaGrammar.from_string(source, verbose=False)


def _stops(stop: Any) -> list[str]:
    extra = [stop] if isinstance(stop, str) else list(stop or [])
    return [*extra, chatml.IM_END]


def handler(
    *,
    llama: Any,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]] | None = None,
    tool_choice: Any = None,
    stream: bool = False,
    stop: Any = None,
    max_tokens: int | None = None,
    **settings: Any,
) -> Any:
    """One chat completion for llama-cpp-python: text, or one tool call (streamed or not)."""
    formats = importlib.import_module("llama_cpp.llama_chat_format")
    sampling = {name: settings[name] for name in SAMPLING if settings.get(name) is not None}
    sampling["temperature"] = min(
        float(sampling.get("temperature", MAX_TEMPERATURE)), MAX_TEMPERATURE
    )
    offered = chatml.offered_tools(tools, tool_choice)
    prompt = chatml.render(messages, tools, tool_choice)

    def complete(text: str, **extra: Any) -> Any:
        options = {"stream": stream, "stop": _stops(stop), "max_tokens": max_tokens, **sampling}
        return llama.create_completion(prompt=text, **{**options, **extra})

    def call(name: str, text: str) -> Any:
        tool = next(t for t in offered if t["function"]["name"] == name)
        parameters = json.dumps(tool["function"].get("parameters") or {})
        completion = complete(text, grammar=_grammar(parameters, schema=True))
        return formats._convert_completion_to_chat_function(name, completion, stream)

    # A text answer ends where the model starts writing a call as text: it is no answer,
    # and kept as the model's words a small model copies it into every later turn.
    text_stops = [*_stops(stop), chatml.CALL_PREFIX]
    if not offered:
        answer = complete(prompt, stop=text_stops)
        return formats._convert_completion_to_chat(answer, stream=stream)
    named = chatml.named_tool(tool_choice)
    if named is not None:
        return call(named, prompt)  # the prompt already begins the call
    names = " | ".join(json.dumps(f"{chatml.CALL_PREFIX}{_name(t)}:") for t in offered)
    choice_grammar = f'root ::= functions | "{chatml.MESSAGE_PREFIX}"\nfunctions ::= {names}\n'
    picked = complete(
        prompt,
        stream=False,
        temperature=0,
        stop=[":"],
        max_tokens=32,
        grammar=_grammar(choice_grammar, schema=False),
    )
    text = str(picked["choices"][0]["text"])
    if text.startswith(chatml.MESSAGE_PREFIX.rstrip(":")):
        answer = complete(prompt + chatml.MESSAGE_PREFIX + "\n", stop=text_stops)
        return formats._convert_completion_to_chat(answer, stream=stream)
    name = text[len(chatml.CALL_PREFIX) :].rstrip(":")
    return call(name, f"{prompt}{chatml.CALL_PREFIX}{name}:\n")


def _name(tool: Mapping[str, Any]) -> str:
    return str((tool.get("function") or {}).get("name", ""))


def main() -> None:
    formats = importlib.import_module("llama_cpp.llama_chat_format")
    formats.register_chat_completion_handler(CHAT_FORMAT)(handler)
    server = importlib.import_module("llama_cpp.server.__main__")
    server.main()


if __name__ == "__main__":
    main()
