"""Shared measurement helpers: repeated timing, medians, and the result record."""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal

Clock = Callable[[], float]

WALL_CLOCK: Final[Clock] = time.perf_counter
"""Elapsed time: what a person waits, and everything else the machine does meanwhile."""

CPU_CLOCK: Final[Clock] = time.process_time
"""CPU time of this process, every thread, user and system: what one side costs.

For a cost ratio between two sides that both run in this process (the backend is
embedded in a thread), so time the cores spent on other processes, which on a
shared machine moves a wall-clock pair by tens of percent, is left out.
"""


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


def time_call(
    action: Callable[[], object],
    *,
    repeat: int = 7,
    number: int = 1,
    clock: Clock = WALL_CLOCK,
) -> list[float]:
    """Seconds per call, one sample per repetition (each the mean of ``number`` calls)."""
    samples = []
    for _ in range(repeat):
        start = clock()
        for _ in range(number):
            action()
        samples.append((clock() - start) / number)
    return samples


PAIRED_SAMPLES = 21
"""Pairs per measurement: enough that one burst of load from elsewhere moves no median."""

_pairs = PAIRED_SAMPLES


def set_pairs(count: int) -> None:
    """Pairs for every later measurement of this run (``--pairs``: fewer for a quick check)."""
    global _pairs
    if count < 1:
        raise ValueError("a measurement needs at least one pair")
    _pairs = count


def pairs() -> int:
    """Pairs per measurement in this run: :data:`PAIRED_SAMPLES` unless ``--pairs`` said."""
    return _pairs


def alternating_pairs(
    subject: Callable[[], float],
    floor: Callable[[], float],
    *,
    repeat: int | None = None,
) -> tuple[list[float], list[float]]:
    """Seconds of ``subject`` and of ``floor``, measured pair by pair.

    Each callable times itself and returns its seconds, so set-up it does before
    the clock starts stays out. The order inside a pair alternates, so neither side
    always runs on a cache the other just warmed, nor always second under a burst of
    load that began during the first.
    """
    subject_seconds: list[float] = []
    floor_seconds: list[float] = []
    for index in range(pairs() if repeat is None else repeat):
        if index % 2:
            subject_seconds.append(subject())
            floor_seconds.append(floor())
        else:
            floor_seconds.append(floor())
            subject_seconds.append(subject())
    return subject_seconds, floor_seconds


def ratio(subject_seconds: float, floor_seconds: float) -> float:
    return subject_seconds / floor_seconds if floor_seconds > 0 else float("inf")


def paired_ratios(
    subject: Callable[[], object],
    floor: Callable[[], object],
    *,
    repeat: int | None = None,
    number: int = 1,
    clock: Clock = WALL_CLOCK,
) -> list[float]:
    """Ratios subject/floor, each pair timed back to back so noise hits both alike.

    Each side is timed over ``number`` calls on ``clock``; the order inside a pair
    alternates (see :func:`alternating_pairs`).
    """
    subject_seconds, floor_seconds = alternating_pairs(
        lambda: time_call(subject, repeat=1, number=number, clock=clock)[0],
        lambda: time_call(floor, repeat=1, number=number, clock=clock)[0],
        repeat=repeat,
    )
    return [ratio(s, f) for s, f in zip(subject_seconds, floor_seconds, strict=True)]


def median(values: list[float]) -> float:
    return statistics.median(values)


def offscreen_environment() -> dict[str, str]:
    """The environment for a Qt child process: offscreen, with this run's options if it has some.

    ``make bench-peer`` chooses ``offscreen:configfile=…`` (a bigger screen) for every side.
    """
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    chosen = platform if platform.startswith("offscreen") else "offscreen"
    return {**os.environ, "QT_QPA_PLATFORM": chosen}


def child_figure(command: list[str], timeout: float) -> float:
    """The number a benchmark's child process prints last (offscreen, as every side runs)."""
    completed = subprocess.run(
        command,
        capture_output=True,
        text=True,
        env=offscreen_environment(),
        timeout=timeout,
        check=True,
    )
    return float(completed.stdout.split()[-1])


SETTLE_MS = 2000
"""Idle time after the first note shows, before memory is read: lazy work is done."""


def proportional_bytes(pid: int) -> int:
    """The process's PSS: its private pages plus its share of each shared one."""
    with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
        for line in rollup:
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no Pss line for process {pid}")


def children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
        except OSError:  # gone meanwhile
            continue
    return found


def process_tree_bytes(pid: int) -> int:
    """PSS of ``pid`` and every process under it: what an app with helper processes costs.

    Summing PSS counts a page shared by several of them once.
    """
    total = 0
    waiting = [pid]
    while waiting:
        current = waiting.pop()
        try:
            total += proportional_bytes(current)
        except OSError:  # ended meanwhile: it costs nothing now
            continue
        waiting.extend(children_of(current))
    return total
