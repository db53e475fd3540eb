"""``make bench``: run every registered benchmark, write ``out/bench/results.json``, gate.

Each module in :data:`BENCHMARKS` exposes ``run() -> list[Measurement]``. Results
are ratios against a floor measured in the same run, because this machine is
shared and noisy. The run exits 1 and names every missed target, 0 when all are
met, 2 when it cannot run as asked.

    python -m benchmarks [--only bench_capture ...] [--pairs 5] [--out PATH]
                         [--target-override 'NAME=VALUE' ...]
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from pathlib import Path
from typing import Final

import benchmarks
from benchmarks import gate
from benchmarks.measure import Measurement, set_pairs

RESULTS_PATH = Path("out/bench/results.json")

# The benchmarks `make bench` runs, in order: one line per module of this package.
BENCHMARKS: Final = (
    "bench_capture",
    "bench_workers",
    "bench_typing",
    "bench_adversarial",
    "bench_retention",
    "bench_model",
    "bench_assistant",
    "bench_views",
    "bench_preview",
    "bench_hostile_notes",
    "bench_open",
    "bench_startup",
    "bench_idle",
    "bench_edits",
    "bench_sidecar",
    "bench_inline",
    "bench_find",
)


def unregistered() -> list[str]:
    """``bench_*`` modules of this package that :data:`BENCHMARKS` does not list."""
    modules = pkgutil.iter_modules(benchmarks.__path__)
    found = {info.name for info in modules if info.name.startswith("bench_")}
    return sorted(found - set(BENCHMARKS))


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--only", action="append", default=[], choices=BENCHMARKS, help="run this module only"
    )
    parser.add_argument("modules", nargs="*", metavar="MODULE", help="the same as --only MODULE")
    parser.add_argument(
        "--target-override",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="judge the measurement NAME (as the table prints it) against VALUE instead",
    )
    parser.add_argument("--pairs", type=int, help="pairs per measurement (default 21)")
    parser.add_argument("--out", type=Path, default=RESULTS_PATH, help="the results file")
    arguments = parser.parse_args(argv)
    for module in arguments.modules:
        if module not in BENCHMARKS:
            parser.error(f"{module!r} is not one of {', '.join(BENCHMARKS)}")
    return arguments


def main(argv: list[str]) -> int:
    arguments = _arguments(argv)
    missing = unregistered()
    if missing:
        print(f"not listed in BENCHMARKS ({__file__}): {', '.join(missing)}", file=sys.stderr)
        return 2
    try:
        overrides = dict(map(gate.parse_override, arguments.target_override))
        if arguments.pairs is not None:
            set_pairs(arguments.pairs)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    measurements: list[Measurement] = []
    for name in [*arguments.only, *arguments.modules] or BENCHMARKS:
        print(f"running {name} ...", flush=True)
        measurements.extend(importlib.import_module(f"benchmarks.{name}").run())
    try:
        measurements = gate.override_targets(measurements, overrides)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    gate.write_results(arguments.out, measurements)
    print("\n" + gate.table(measurements) + f"\n\nwrote {arguments.out}")
    missed = gate.misses(measurements)
    if missed:
        print(f"\nbenchmark gate: {len(missed)} target(s) missed", file=sys.stderr)
        for line in missed:
            print(f"  MISSED {line}", file=sys.stderr)
        return 1
    print("benchmark gate: every target met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
