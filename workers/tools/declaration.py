"""One assistant tool, declared once: its facts, arguments model, handler and prompt words.

A :class:`ToolDeclaration` is everything about a tool: the facts the desktop app
shares (:mod:`bridge.tools`: name, transcript and Details words, kept keys), a
pydantic arguments model, the handler, the description the model is offered and
the sentence the system message says about it. From the arguments model come the
JSON Schema the model is offered (:meth:`ToolDeclaration.schema`, in the shape
contract 5 and 7 fix) and the argument checks: an unknown name is refused first,
then each argument in order by its own check, which words the refusal (R28).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, Generic, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from bridge.reading import MAX_BYTES_SCHEMA, parse_max_bytes_value, read_result
from bridge.tools import ToolFacts
from workers import messages
from workers.deliveries import DeliveryCredential
from workers.errors import AccessDenied
from workers.tools.context import ToolArgumentError, ToolContext, ToolResult


class ToolArguments(BaseModel):
    """A tool's arguments: the fields by their wire names (aliases), nothing else."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _absent_required_is_null(cls, data: Any) -> Any:
        # A required argument left out goes to its own check as null, which words the refusal.
        if not isinstance(data, dict):
            return data
        absent = {
            info.alias or name: None
            for name, info in cls.model_fields.items()
            if info.is_required() and (info.alias or name) not in data
        }
        return {**data, **absent} if absent else data


def wire_names(model: type[ToolArguments]) -> tuple[str, ...]:
    """The argument names a tool takes, as the model writes them."""
    return tuple(info.alias or name for name, info in model.model_fields.items())


def _max_bytes(value: object) -> int:
    """R21: default 64 KiB, clamp to 256 KiB; a non-integer or a value below 1 is refused."""
    limit = parse_max_bytes_value(value)
    if limit is None:
        raise ToolArgumentError(messages.MAX_BYTES_INVALID)
    return limit


def _prefix(value: object) -> str:
    if not isinstance(value, str):
        raise ToolArgumentError(messages.PREFIX_INVALID)
    return value


MaxBytes = Annotated[
    int,
    Field(
        alias="maxBytes",
        # R21's one schema, which the sidecar offers too: the generated one must equal it.
        ge=MAX_BYTES_SCHEMA["minimum"],
        description=MAX_BYTES_SCHEMA["description"],
    ),
    BeforeValidator(_max_bytes),
]
Prefix = Annotated[
    str,
    BeforeValidator(_prefix),
    Field(description="Only notes whose path starts with this, such as notes/."),
]

ArgumentsT = TypeVar("ArgumentsT", bound=ToolArguments)


def check_arguments(tool: str, model: type[ArgumentsT], arguments: Mapping[str, Any]) -> ArgumentsT:
    """The arguments as ``model``, or :class:`ToolArgumentError` in plain words (R28)."""
    allowed = wire_names(model)
    for name in arguments:
        if name not in allowed:
            raise ToolArgumentError(messages.ARGUMENT_UNKNOWN.format(tool=tool, name=name))
    try:
        return model.model_validate(arguments)
    except ValidationError as invalid:
        # Fields are checked in order; the first refusal is the one a person reads.
        first = invalid.errors()[0]
        cause = first.get("ctx", {}).get("error")
        if isinstance(cause, ToolArgumentError):
            raise cause from None
        raise ToolArgumentError(f"{tool}: {first['msg']}") from None


_KEY_ORDER: Final = (
    "type",
    "enum",
    "minimum",
    "minLength",
    "minItems",
    "maxItems",
    "description",
    "items",
    "properties",
    "required",
    "additionalProperties",
)
"""The order contract 7's schemas are written in: the model reads them in this order."""


def _wire_schema(node: Any, definitions: Mapping[str, Any]) -> Any:
    """pydantic's JSON Schema as the model is offered it: self-contained and plain.

    References are inlined; titles, defaults and the models' docstrings dropped (the
    tool's description says it); an optional argument that may be null is offered as
    its type only, since leaving it out is the way to omit it.
    """
    if isinstance(node, list):
        return [_wire_schema(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _wire_schema(definitions[node["$ref"].rsplit("/", 1)[-1]], definitions)
    branches = node.get("anyOf")
    if isinstance(branches, list):
        kept = [branch for branch in branches if branch != {"type": "null"}]
        if len(kept) == 1:
            merged = {**kept[0], **{k: v for k, v in node.items() if k != "anyOf"}}
            return _wire_schema(merged, definitions)
    plain = {
        key: _wire_schema(value, definitions) if key != "properties" else value
        for key, value in node.items()
        if key not in ("title", "default", "$defs")
        and not (key == "description" and node.get("type") == "object")
    }
    if isinstance(plain.get("properties"), dict):
        plain["properties"] = {
            name: _wire_schema(value, definitions) for name, value in plain["properties"].items()
        }
    order = {key: index for index, key in enumerate(_KEY_ORDER)}
    return dict(sorted(plain.items(), key=lambda item: order.get(item[0], len(order))))


def parameters_schema(model: type[ToolArguments]) -> dict[str, Any]:
    """The ``parameters`` JSON Schema of a tool (contract 7: the argument names of §5)."""
    generated = model.model_json_schema(by_alias=True)
    schema: dict[str, Any] = _wire_schema(generated, generated.get("$defs", {}))
    return schema


Handler = Callable[[ToolContext, ArgumentsT, DeliveryCredential], ToolResult]


@dataclass(frozen=True)
class ToolDeclaration(Generic[ArgumentsT]):
    """One tool: call it as ``declaration(context, arguments)`` with the model's raw arguments."""

    facts: ToolFacts
    """Its name and what the desktop app shows and keeps of it (:mod:`bridge.tools`)."""
    arguments: type[ArgumentsT]
    handler: Handler[ArgumentsT]
    """Runs once the arguments are checked and access is granted (R22, R28)."""
    description: str
    """What the model is offered in the tool's schema."""
    instruction: str
    """Its part of the system message's "Tools:" sentence, after its name."""
    refusal_fields: Mapping[str, Any] = field(default_factory=dict)
    """The tool's own fields of any refusal ({"documents": []}), so a refusal keeps its shape."""
    denied_fields: Callable[[ArgumentsT], Mapping[str, Any]] | None = None
    """What an access refusal says about the checked arguments (the path asked for)."""

    @property
    def name(self) -> str:
        return self.facts.name

    def schema(self) -> dict[str, Any]:
        """The tool as the model is offered it (contract 7)."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": parameters_schema(self.arguments),
            },
        }

    def __call__(self, context: ToolContext, arguments: Mapping[str, Any]) -> ToolResult:
        """Check the arguments, then access, then run: every refusal is a result (R28)."""
        try:
            checked = check_arguments(self.name, self.arguments, arguments)
        except ToolArgumentError as error:
            return read_result("invalid_argument", str(error), **self.refusal_fields)
        try:
            row = context.open_access()
        except AccessDenied as denied:
            named = self.denied_fields(checked) if self.denied_fields else {}
            return read_result("access_denied", denied.message, **self.refusal_fields, **named)
        return self.handler(context, checked, row)
