"""What is wrong with a scenario file, located by file, step and field."""

from __future__ import annotations

import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ValidationError


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a scenario file, located by step and field."""

    file: str
    message: str
    step: str | None = None
    field: str | None = None

    def __str__(self) -> str:
        where = [self.file]
        if self.step is not None:
            where.append(f"step {self.step}")
        if self.field is not None:
            where.append(f"field '{self.field}'")
        return ": ".join([*where, self.message])


class ScenarioFileError(Exception):
    """A scenario file could not be read or did not validate; nothing of it has run."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


def _models_in(annotation: object) -> list[type[BaseModel]]:
    """The models an annotation may hold (through Optional, unions, Annotated and lists)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is not None:
        for argument in typing.get_args(annotation):
            found += _models_in(argument)
    return found


def allowed_keys(model: type[BaseModel], loc: Sequence[object]) -> list[str]:
    """The keys the mapping at ``loc`` (inside ``model``'s data) may have; [] when unknown."""
    candidates = [model]
    for part in loc:
        if isinstance(part, int):
            continue  # a list's item: the same models
        following: list[type[BaseModel]] = []
        for candidate in candidates:
            field = candidate.model_fields.get(str(part))
            if field is not None:
                following += _models_in(field.annotation)
        candidates = following
        if not candidates:
            return []
    keys: list[str] = []
    for candidate in candidates:
        keys += [key for key in candidate.model_fields if key not in keys]
    return keys


def describe_pydantic(
    error: ValidationError, prefix: str, model: type[BaseModel] | None = None
) -> list[tuple[str, str]]:
    """Pydantic's errors as (where, plain message) pairs, ``where`` prefixed by the verb.

    With ``model`` (the one validated), an unknown key's message lists the keys allowed there.
    """
    located: list[tuple[str, str]] = []
    for item in error.errors():
        raw_loc = tuple(item.get("loc", ()))
        loc = [str(part) for part in raw_loc]
        where = ".".join([prefix, *loc]) if prefix else ".".join(loc)
        if item.get("type") == "extra_forbidden":
            message = f"unknown key '{loc[-1] if loc else ''}'"
            allowed = allowed_keys(model, raw_loc[:-1]) if model is not None else []
            if allowed:
                message += f"; allowed here: {', '.join(allowed)}"
            located.append((where, message))
            continue
        message = str(item.get("msg", "is invalid"))
        message = message.removeprefix("Value error, ")
        located.append((where, message))
    return located
