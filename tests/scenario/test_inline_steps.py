"""Contract 13: the inline verbs and expect key parse strictly (R74)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.scenario.catalogue import ExpectStep
from app.scenario.inline_steps import InlineAcceptStep, InlineRejectStep
from app.scenario.model import load_scenario
from app.scenario.problems import ScenarioFileError
from app.scenario.steps import InlineStep, TypeStep

CASE = """
name: inline
rules: [R68, R74, R80]
workspace: {notes/a.md: "# A\\nalpha\\n"}
steps:
  - mount: {frame: inbox-1, path: notes/a.md}
  - inline: {frame: inbox-1, select: "alpha", instruction: "upper case",
             during: [{type: {frame: inbox-1, text: "x", at: 0}}]}
  - inline: {frame: inbox-1, select: [0, 3], instruction: "bold"}
  - inline: {frame: inbox-1, select: null, instruction: "add a line"}
  - inline-accept: inbox-1
  - inline-reject: inbox-1
  - expect:
      inline: {frame: inbox-1, sent: {lines: [1, 2], bytes: 10, bytesAtMost: 20},
               replacementContains: "ALPHA", kind: edit, outcome: refused}
  - expect:
      inline: {frame: inbox-1, sent: null}
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_r74_the_inline_verbs_and_key_parse(tmp_path: Path) -> None:
    scenario = load_scenario(_write(tmp_path, CASE))
    steps = scenario.steps
    assert scenario.rules == ("R68", "R74", "R80")
    first, second, third = steps[1], steps[2], steps[3]
    assert isinstance(first, InlineStep) and first.select == "alpha"
    assert [type(inner) for inner in first.during] == [TypeStep]
    assert isinstance(second, InlineStep) and second.select == (0, 3)
    assert isinstance(third, InlineStep) and third.select is None
    assert isinstance(steps[4], InlineAcceptStep) and isinstance(steps[5], InlineRejectStep)
    expect = steps[6]
    assert isinstance(expect, ExpectStep) and expect.inline is not None
    assert expect.inline.sent is not None and expect.inline.sent.lines == [1, 2]
    assert not expect.about_send  # about the frame now, usable before any send
    last = steps[7]
    assert isinstance(last, ExpectStep) and last.inline is not None
    assert "sent" in last.inline.model_fields_set and last.inline.sent is None


@pytest.mark.parametrize(
    ("step", "wanted"),
    [
        ('{inline: {frame: a, instruction: ""}}', "instruction"),
        ("{inline: {frame: a, select: [1], instruction: x}}", "select"),
        ("{inline: {frame: a, instruction: x, colour: red}}", "colour"),
        ("{inline: {frame: a, instruction: x, during: [{send: hi}]}}", "cannot run during"),
        ("{inline-accept: {frame: a}}", "inline-accept"),
        ("{expect: {inline: {frame: a, outcome: applied}}}", "outcome"),
    ],
)
def test_r74_bad_inline_steps_are_named(tmp_path: Path, step: str, wanted: str) -> None:
    with pytest.raises(ScenarioFileError) as refused:
        load_scenario(_write(tmp_path, f"name: x\nsteps:\n  - {step}\n"))
    assert wanted in str(refused.value)
