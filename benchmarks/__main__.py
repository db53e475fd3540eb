"""``make bench``: run every ``benchmarks/bench_*.py`` and write ``out/bench/results.json``.

Each module exposes ``run() -> list[Measurement]``. Results are ratios against a
floor measured in the same run, because this machine is shared and noisy.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from pathlib import Path

import benchmarks
from benchmarks.measure import Measurement

RESULTS_PATH = Path("out/bench/results.json")


def main(argv: list[str]) -> int:
    selected = set(argv)
    measurements: list[Measurement] = []
    for info in sorted(pkgutil.iter_modules(benchmarks.__path__), key=lambda m: m.name):
        if not info.name.startswith("bench_"):
            continue
        if selected and info.name not in selected:
            continue
        module = importlib.import_module(f"benchmarks.{info.name}")
        print(f"running {info.name} ...", flush=True)
        measurements.extend(module.run())
    RESULTS_PATH.parent.mkdir(parents=True, exist_ok=True)
    payload = {"results": [m.as_dict() for m in measurements]}
    RESULTS_PATH.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    print(f"\n{'benchmark':<58} {'median':>10} {'target':>12}  met")
    for m in measurements:
        target = "" if m.target is None else f"{m.comparison} {m.target:g}"
        met = "" if m.met is None else ("yes" if m.met else "NO")
        print(f"{m.name:<58} {m.median:>10.4g} {target:>12}  {met}")
    print(f"\nwrote {RESULTS_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
