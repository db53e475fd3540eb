"""The verbs and expect keys are declared once; the parser, the guide and the recorder follow.

Contract section 6 (and R79's reports): what QA reads in ``scenarios/README.md`` is
the catalogue the runner uses, and a step written back out reads in again the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.scenario.catalogue import BY_NAME, EXPECT_KEYS, VERBS, ExpectStep, with_tables
from app.scenario.model import expand_sources, load_scenario, parse_scenario
from app.scenario.problems import ScenarioFileError
from app.scenario.registry import Verb, step_data

PROJECT = Path(__file__).resolve().parents[2]
GUIDE = PROJECT / "scenarios" / "README.md"
SCENARIOS = expand_sources([PROJECT / "scenarios", PROJECT / "scenarios" / "demo"])


def test_the_guide_tables_are_the_catalogue() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    assert with_tables(text) == text, "run: python -m app.scenario.catalogue scenarios/README.md"


def test_every_verb_and_key_has_a_row_naming_it() -> None:
    for verb in VERBS:
        if verb is BY_NAME[ExpectStep.verb]:
            assert not verb.rows  # its keys have a table of their own
            continue
        assert verb.rows, verb.name
        for written, _meaning in verb.rows:
            assert written.startswith(f"`{verb.name}:"), written
    for key in EXPECT_KEYS:
        assert key.rows, key.name
        for written, _meaning in key.rows:
            assert f"{key.name}:" in written, written


def test_names_are_unique_and_the_expect_model_has_a_field_per_key() -> None:
    assert len(BY_NAME) == len(VERBS)
    assert list(ExpectStep.model_fields) == [key.name for key in EXPECT_KEYS]


def test_the_keys_about_now_are_usable_before_any_send_R48_R53() -> None:
    # A key about now that silently waited for a send would fail "no send yet".
    now = {key.name for key in EXPECT_KEYS if key.about == "now"}
    assert now == {
        "resolves",
        "frames",
        "activeFrame",
        "workspace",
        "chip",
        "note",
        "saved",
        "applied",
        "conflict",
        "shared",
        "conflictBar",
        "kept",
        "inline",
    }
    about_now = ExpectStep.model_validate({"workspace": "w", "chip": None})
    assert not about_now.about_send
    assert ExpectStep.model_validate({"workspace": "w", "tools": []}).about_send


@pytest.mark.parametrize("source", SCENARIOS, ids=lambda path: path.name)
def test_every_scenario_reads_back_from_its_steps_written_out(source: Path) -> None:
    # The recorder writes steps through the same serialisation (step_data).
    scenario = load_scenario(source)
    data = {
        "name": scenario.name,
        "workspace": scenario.workspace,
        "steps": [step_data(step) for step in scenario.steps],
    }
    again = parse_scenario(data, source)
    assert again.steps == scenario.steps


@pytest.mark.parametrize("verb", VERBS, ids=lambda verb: verb.name)
def test_only_the_verbs_that_may_run_during_a_flush_are_accepted_there(verb: Verb[Any]) -> None:
    declared = BY_NAME[verb.name]
    raw = {"send": {"message": "m", "duringFlush": [{declared.name: {}}]}}
    try:
        parse_scenario({"steps": [raw]}, Path("case.yaml"))
    except ScenarioFileError as error:
        refused = any("cannot run during a flush" in str(problem) for problem in error.problems)
    else:
        refused = False
    assert refused == (not declared.during)
