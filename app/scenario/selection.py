"""Which scenarios a run replays: every file loaded on its own, then ``-k`` and ``--rules`` (R79).

Each file is validated separately so the reports can name every file that
could not be read (a JUnit ``<error>`` each) beside those that were valid.
``-k TEXT`` keeps a scenario whose name or file contains TEXT, ignoring case
(as pytest's ``-k`` matches names); ``--rules R29`` keeps one whose ``rules:``
names R29. Given both, a scenario must match both.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.scenario.model import Scenario, expand_sources, load_scenario
from app.scenario.problems import Problem, ScenarioFileError

_RULE = re.compile(r"[Rr]?(\d{1,3})")


@dataclass
class Loaded:
    """Every file named: the valid scenarios in order, and each invalid file's problems."""

    scenarios: list[Scenario] = field(default_factory=list)
    invalid: dict[str, list[Problem]] = field(default_factory=dict)
    """Keyed by the file as reports name it, as :attr:`Scenario.label` names a valid one."""


def load_each(paths: Sequence[Path]) -> Loaded:
    """Load and validate each scenario file on its own; nothing stops at the first bad one."""
    loaded = Loaded()
    for path in expand_sources(paths):
        try:
            loaded.scenarios.append(load_scenario(path))
        except ScenarioFileError as error:
            loaded.invalid.setdefault(file_label(path), []).extend(error.problems)
    return loaded


def file_label(path: Path) -> str:
    """A file named as :attr:`Scenario.label` names it (relative to here when inside)."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def rule_names(text: str) -> list[str]:
    """``R29``, ``r29`` or ``R29,R38`` as rule names (``R29``); argparse's type for --rules."""
    names: list[str] = []
    for part in text.split(","):
        match = _RULE.fullmatch(part.strip())
        if match is None:
            raise argparse.ArgumentTypeError(
                f"{part.strip()!r} is not a rule: write it as R29 (several: R29,R38)"
            )
        names.append(f"R{int(match.group(1))}")
    return names


def matches(scenario: Scenario, keywords: Sequence[str], rules: Sequence[str]) -> bool:
    """Whether a scenario is selected: any keyword in its name or file, and any rule named."""
    if keywords:
        haystacks = (scenario.name.casefold(), scenario.label.casefold())
        if not any(word.casefold() in hay for word in keywords for hay in haystacks):
            return False
    return not rules or any(rule in scenario.rules for rule in rules)


def select(
    scenarios: Sequence[Scenario], keywords: Sequence[str], rules: Sequence[str]
) -> list[Scenario]:
    """The scenarios ``-k`` and ``--rules`` keep, in their order."""
    return [scenario for scenario in scenarios if matches(scenario, keywords, rules)]


def describe_selection(keywords: Sequence[str], rules: Sequence[str]) -> str:
    """The filter in the words of the command line, for messages."""
    parts = [f"-k {word!r}" for word in keywords] + [f"--rules {rule}" for rule in rules]
    return " ".join(parts)
