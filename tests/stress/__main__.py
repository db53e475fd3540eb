"""``python -m tests.stress [--short] [--only PART...] [sizes]``: every part and its figure.

Exits 1 when any figure is not "0 lost, 0 leaked, 0 × 5xx" (and, for the sidecar part, 0 GUI
stalls over 100 ms).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tests.stress.conversations import interleaved_turns
from tests.stress.crash import kill_during_saves
from tests.stress.fuzz import fuzz
from tests.stress.harness import Figure
from tests.stress.hostile import hostile_inputs
from tests.stress.load import sustained_load
from tests.stress.race import swap_race
from tests.stress.sidecar import sidecar_attacks
from tests.stress.slow import slow_clients
from tests.stress.start import hostile_starts, sizes_for

FULL = {
    "headers": 10_000,
    "bodies": 2_000,
    "paths": 2_000,
    "kills": 20,
    "race_seconds": 30.0,
    "turns": 200,
    "load_seconds": 60.0,
    "slow_each": 10,
    "hosts": 2_000,
    "idle_connections": 1_100,
    "diffs": 200,
    "start_frames": 5_000,
}
SHORT = {
    "headers": 200,
    "bodies": 100,
    "paths": 100,
    "kills": 2,
    "race_seconds": 3.0,
    "turns": 10,
    "load_seconds": 3.0,
    "slow_each": 1,
    "hosts": 100,
    "idle_connections": 100,
    "diffs": 20,
    "start_frames": 100,
}


def parts(sizes: dict[str, float]) -> list[tuple[str, Callable[[Path], Figure]]]:
    """Every part, each to run in a data folder of its own."""
    return [
        (
            "fuzz",
            lambda d: fuzz(
                d,
                headers=int(sizes["headers"]),
                bodies=int(sizes["bodies"]),
                paths=int(sizes["paths"]),
            ),
        ),
        ("kill", lambda d: kill_during_saves(d, kills=int(sizes["kills"]))),
        (
            "race",
            lambda d: swap_race(d, seconds=sizes["race_seconds"], max_requests=10**9),
        ),
        ("turns", lambda d: interleaved_turns(d, turns=int(sizes["turns"]))),
        ("load", lambda d: sustained_load(d, seconds=sizes["load_seconds"])),
        ("slow", lambda d: slow_clients(d, each=int(sizes["slow_each"]))),
        ("hostile", lambda d: hostile_inputs(d, hosts=int(sizes["hosts"]))),
        ("start", lambda d: hostile_starts(d, sizes_for(int(sizes["start_frames"])))),
        (
            "sidecar",
            lambda d: sidecar_attacks(
                d, idle=int(sizes["idle_connections"]), diffs=int(sizes["diffs"])
            ),
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.stress", description=__doc__)
    parser.add_argument("--short", action="store_true", help="the small sizes make test uses")
    parser.add_argument("--only", nargs="*", help="run only these parts (fuzz, kill, race, ...)")
    for name, value in FULL.items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=None)
    arguments = parser.parse_args(argv)
    sizes: dict[str, float] = dict(SHORT if arguments.short else FULL)
    for name in FULL:
        given = getattr(arguments, name)
        if given is not None:
            sizes[name] = given
    failures = 0
    for name, run in parts(sizes):
        if arguments.only and name not in arguments.only:
            continue
        started = time.monotonic()
        with tempfile.TemporaryDirectory(prefix=f"stress-{name}-") as folder:
            figure = run(Path(folder))
        print(f"{figure.line()} in {time.monotonic() - started:.0f} s", flush=True)
        failures += not figure.ok
    print(
        "stress: all figures 0 lost, 0 leaked, 0 × 5xx, 0 stalls over 100 ms"
        if not failures
        else f"stress: {failures} part(s) FAILED"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
