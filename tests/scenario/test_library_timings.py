"""The shipped scenarios' delays stand on the right side of the flush bound (R10, R12).

A scenario is YAML and cannot import :data:`bridge.contract.FLUSH_LIMIT_SECONDS`, so
this holds each delay it sets to the constant: a scenario that expects an unflushed
pointer must stall the save past the bound, one that expects a note dropped as still
loading must stall the load past it, and one that waits for a load must let it land
within it. Change the bound and the scenarios that no longer show their rule fail here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from bridge.contract import FLUSH_LIMIT_SECONDS

LIBRARY = Path(__file__).resolve().parents[2] / "scenarios"
FILES = sorted([*LIBRARY.glob("*.yaml"), *(LIBRARY / "demo").glob("*.yaml")])


def _expectations(value: Any) -> Iterator[dict[str, Any]]:
    """Every ``expect`` mapping in a scenario, nested steps (``duringFlush``) included."""
    if isinstance(value, dict):
        expected = value.get("expect")
        if isinstance(expected, dict):
            yield expected
        for item in value.values():
            yield from _expectations(item)
    elif isinstance(value, list):
        for item in value:
            yield from _expectations(item)


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_r10_r12_each_scenario_delay_is_on_its_side_of_the_flush_bound(path: Path) -> None:
    scenario = yaml.safe_load(path.read_text(encoding="utf-8"))
    backend = scenario.get("backend") or {}
    save_delay = float(backend.get("saveDelay", 0))
    load_delay = float(backend.get("loadDelay", 0))
    expected = list(_expectations(scenario.get("steps")))
    pointers = [e["pointer"] for e in expected if isinstance(e.get("pointer"), dict)]
    if any(pointer.get("flushed") is False for pointer in pointers):
        assert save_delay > FLUSH_LIMIT_SECONDS, "an unflushed send needs a save past the bound"
    dropped_loading = any(e.get("dropped") == "loading" for e in expected)
    if dropped_loading:
        assert load_delay > FLUSH_LIMIT_SECONDS, "a note left out as loading needs a slow load"
    elif load_delay:
        assert load_delay < FLUSH_LIMIT_SECONDS, "a send that waits for a load needs it in time"


def test_the_library_has_scenarios_on_both_sides_of_the_bound() -> None:
    """The check above is not vacuous: the library stalls saves and loads both ways."""
    delays = [
        yaml.safe_load(path.read_text(encoding="utf-8")).get("backend") or {} for path in FILES
    ]
    assert any(float(d.get("saveDelay", 0)) > FLUSH_LIMIT_SECONDS for d in delays)
    assert any(float(d.get("loadDelay", 0)) > FLUSH_LIMIT_SECONDS for d in delays)
    assert any(0 < float(d.get("loadDelay", 0)) < FLUSH_LIMIT_SECONDS for d in delays)
