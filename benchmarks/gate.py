"""The benchmark gate: which targets a run missed, said by name, and the results file.

A run passes only when every measurement that has a target meets it; a measurement
without a target is reported and never fails the run.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from benchmarks.measure import Measurement


def parse_override(text: str) -> tuple[str, float]:
    """``NAME=VALUE`` (the measurement's name as the table prints it) → (name, target)."""
    name, separator, value = text.rpartition("=")
    if not separator or not name.strip():
        raise ValueError(f"a target override is NAME=VALUE, not {text!r}")
    try:
        return name.strip(), float(value)
    except ValueError:
        raise ValueError(f"the target in {text!r} is not a number") from None


def override_targets(
    measurements: Sequence[Measurement], overrides: dict[str, float]
) -> list[Measurement]:
    """The same measurements with some targets replaced; the comparison stays.

    An override that names no measurement of the run is an error, so a misspelt
    name cannot pass for a met target.
    """
    names = {m.name for m in measurements}
    unknown = sorted(set(overrides) - names)
    if unknown:
        raise ValueError("no measurement of this run is named " + "; ".join(map(repr, unknown)))
    return [
        dataclasses.replace(m, target=overrides[m.name]) if m.name in overrides else m
        for m in measurements
    ]


def misses(measurements: Iterable[Measurement]) -> list[str]:
    """One line per missed target, naming the measurement, its median and its target."""
    return [
        f"{m.name}: {m.median:.4g} is not {m.comparison} {m.target:g}"
        for m in measurements
        if m.met is False and m.target is not None
    ]


def table(measurements: Sequence[Measurement]) -> str:
    width = max([len("benchmark"), *(len(m.name) for m in measurements)])
    lines = [f"{'benchmark':<{width}} {'median':>10} {'target':>10}  met"]
    for m in measurements:
        target = "" if m.target is None else f"{m.comparison} {m.target:g}"
        met = "" if m.met is None else ("yes" if m.met else "NO")
        lines.append(f"{m.name:<{width}} {m.median:>10.4g} {target:>10}  {met}")
    return "\n".join(lines)


def write_results(path: Path, measurements: Sequence[Measurement]) -> None:
    missed = [m.name for m in measurements if m.met is False]
    payload = {
        "passed": not missed,
        "missed": missed,
        "results": [m.as_dict() for m in measurements],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
