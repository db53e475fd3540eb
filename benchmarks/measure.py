"""Shared measurement helpers: repeated timing, medians, and the result record."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class Measurement:
    """One reported number: usually a ratio against a floor measured in the same run."""

    name: str
    median: float
    unit: str = "ratio"
    target: float | None = None
    comparison: Literal["<=", ">="] = "<="
    samples: list[float] = field(default_factory=list)
    details: dict[str, float | str] = field(default_factory=dict)

    @property
    def met(self) -> bool | None:
        if self.target is None:
            return None
        if self.comparison == "<=":
            return self.median <= self.target
        return self.median >= self.target

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "median": self.median,
            "unit": self.unit,
            "target": self.target,
            "comparison": self.comparison,
            "met": self.met,
            "samples": self.samples,
            "details": self.details,
        }


def time_call(action: Callable[[], object], *, repeat: int = 7, number: int = 1) -> list[float]:
    """Seconds per call, one sample per repetition (each the mean of ``number`` calls)."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            action()
        samples.append((time.perf_counter() - start) / number)
    return samples


PAIRED_SAMPLES = 21
"""Pairs per measurement: enough that one burst of load from elsewhere moves no median."""


def paired_ratios(
    subject: Callable[[], object],
    floor: Callable[[], object],
    *,
    repeat: int = PAIRED_SAMPLES,
    number: int = 1,
) -> list[float]:
    """Ratios subject/floor, each pair timed back to back so noise hits both alike.

    The order inside a pair alternates, so neither side always runs on a cache the
    other just warmed.
    """
    ratios = []
    for index in range(repeat):
        if index % 2:
            subject_time = time_call(subject, repeat=1, number=number)[0]
            floor_time = time_call(floor, repeat=1, number=number)[0]
        else:
            floor_time = time_call(floor, repeat=1, number=number)[0]
            subject_time = time_call(subject, repeat=1, number=number)[0]
        ratios.append(subject_time / floor_time if floor_time > 0 else float("inf"))
    return ratios


def median(values: list[float]) -> float:
    return statistics.median(values)
