"""The benchmark gate: ``make bench`` fails, naming the miss, when a measured target is missed.

Each test runs the real ``python -m benchmarks`` on the cheapest registered module
with few pairs; a target is moved out of reach (or out of the way) with
``--target-override`` so the outcome does not depend on how loaded the machine is.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.__main__ import BENCHMARKS, unregistered

ROOT = Path(__file__).resolve().parents[2]
PUBLISH = "publish cost, 10 MiB note / 1 KiB note"
CAPTURE_TARGETS = (
    "capture/floor, 64KiB note (no flush)",
    "capture/floor, 1MiB note (no flush)",
    "capture/floor, 10MiB note (no flush)",
    PUBLISH,
    "activate cost, 10 MiB note / 1 KiB note",
)


def _bench(out: Path, *overrides: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    arguments = ["--only", "bench_capture", "--pairs", "3", "--out", str(out)]
    for override in overrides:
        arguments += ["--target-override", override]
    finished = subprocess.run(
        [sys.executable, "-m", "benchmarks", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    results: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return finished, results


@pytest.mark.slow
def test_a_missed_target_fails_the_run_and_is_named(tmp_path: Path) -> None:
    # A cost ratio is always above 0, so a target of "<= 0" is missed by any real run.
    finished, results = _bench(tmp_path / "results.json", f"{PUBLISH}=0")
    assert finished.returncode == 1, finished.stderr
    assert f"MISSED {PUBLISH}: " in finished.stderr
    assert "is not <= 0\n" in finished.stderr
    assert results["passed"] is False and PUBLISH in results["missed"]
    (publish,) = (r for r in results["results"] if r["name"] == PUBLISH)
    assert publish["target"] == 0 and publish["met"] is False
    assert len(publish["samples"]) == 3 and publish["median"] > 0


@pytest.mark.slow
def test_a_run_that_meets_every_target_passes(tmp_path: Path) -> None:
    finished, results = _bench(tmp_path / "results.json", *(f"{n}=1e9" for n in CAPTURE_TARGETS))
    assert finished.returncode == 0, finished.stderr
    assert "MISSED" not in finished.stderr and "every target met" in finished.stdout
    assert results["passed"] is True and results["missed"] == []
    targeted = {r["name"] for r in results["results"] if r["target"] is not None}
    assert targeted == set(CAPTURE_TARGETS)  # so no real target was left in play


def test_a_malformed_override_is_refused_before_anything_runs() -> None:
    finished = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--target-override", "no number"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert finished.returncode == 2
    assert "NAME=VALUE" in finished.stderr and "running" not in finished.stdout


def test_every_benchmark_module_is_registered() -> None:
    assert unregistered() == []
    assert "bench_capture" in BENCHMARKS
