"""What is wrong with a scenario file, located by file, step and field."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import ValidationError


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


def describe_pydantic(error: ValidationError, prefix: str) -> list[tuple[str, str]]:
    """Pydantic's errors as (where, plain message) pairs, ``where`` prefixed by the verb."""
    located: list[tuple[str, str]] = []
    for item in error.errors():
        loc = [str(part) for part in item.get("loc", ())]
        where = ".".join([prefix, *loc]) if prefix else ".".join(loc)
        if item.get("type") == "extra_forbidden":
            located.append((where, f"unknown key '{loc[-1] if loc else ''}'"))
            continue
        message = str(item.get("msg", "is invalid"))
        message = message.removeprefix("Value error, ")
        located.append((where, message))
    return located
