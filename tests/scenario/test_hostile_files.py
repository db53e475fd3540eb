"""R93: a scenario file from someone else is data.

Any parse failure or limit is an invalid file: exit 2, a JUnit ``<error>`` naming it and
the HTML report still written; a name no report can carry (a lone surrogate, a control
character) is written as an escape; nesting, values, steps and the report are bounded,
and a hostile file costs what its first few thousand values cost.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from junitparser import Error, JUnitXml

from app.scenario import cli, html_report
from app.scenario.html_report import write_html_report
from app.scenario.model import MAX_NESTING, MAX_NODES, MAX_PROBLEMS, MAX_STEPS
from app.scenario.report import ScenarioResult, StepResult, write_json_report
from tests.support.hostile_scenarios import HOSTILE_FILES as AUDITED_FILES
from tests.support.hostile_scenarios import unreadable_name

READ_SECONDS = 5.0
"""A hostile file is refused within this (the audit saw 81 s, 94 s and hangs)."""

HOSTILE_FILES: dict[str, Callable[[Path], object]] = {
    **AUDITED_FILES,
    "nesting just past the bound": lambda path: path.write_text(
        "steps: " + "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1) + "\n"
    ),
    "more steps than a scenario may have": lambda path: path.write_text(
        "steps:\n" + "  - caption: x\n" * (MAX_STEPS + 1)
    ),
}


@pytest.mark.parametrize("kind", list(HOSTILE_FILES))
def test_r93_a_hostile_file_is_an_invalid_file_with_both_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    path = tmp_path / "a.yaml"
    HOSTILE_FILES[kind](path)
    junit, page = tmp_path / "out" / "junit.xml", tmp_path / "out" / "report.html"
    started = time.monotonic()
    code = cli.main(["run", str(path), "--junit", str(junit), "--html", str(page)])
    assert time.monotonic() - started < READ_SECONDS
    assert code == cli.EXIT_INVALID
    err = capsys.readouterr().err
    assert f"{path}: " in err and "Traceback" not in err
    suite = next(iter(JUnitXml.fromfile(str(junit))))
    assert (suite.tests, suite.errors) == (1, 1)
    [case] = suite
    [error] = case.result
    assert isinstance(error, Error) and error.message and str(path) in error.message
    text = page.read_text(encoding="utf-8")
    assert "invalid file" in text and str(path) in text


def test_r93_nesting_up_to_the_bound_is_read(tmp_path: Path) -> None:
    """The bound refuses only what is past it: a value nested right at it is data."""
    path = tmp_path / "a.yaml"
    deepest = "[" * (MAX_NESTING - 3) + "1" + "]" * (MAX_NESTING - 3)
    path.write_text(f"steps: [{{caption: x}}]\nbackend: {{saveDelay: {deepest}}}\n")
    assert cli.main(["run", str(path)]) == cli.EXIT_INVALID
    # Read to the end: the problem is the value's type, not its depth or the parser.
    from app.scenario.model import load_scenario
    from app.scenario.problems import ScenarioFileError

    with pytest.raises(ScenarioFileError) as caught:
        load_scenario(path)
    [problem] = caught.value.problems
    assert problem.field == "backend.saveDelay" and "nest" not in problem.message


def test_r93_problems_of_one_file_are_capped_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text("steps:\n" + "  - nosuchverb: x\n" * (MAX_PROBLEMS + 50))
    from app.scenario.model import load_scenario
    from app.scenario.problems import ScenarioFileError

    with pytest.raises(ScenarioFileError) as caught:
        load_scenario(path)
    problems = caught.value.problems
    assert len(problems) == MAX_PROBLEMS + 1
    assert problems[-1].message == "… and 50 more problems"
    assert MAX_NODES > 3 * MAX_STEPS  # a scenario of the most steps still fits in the values


def test_r93_a_file_name_no_report_can_carry_is_escaped_in_every_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A name that is not UTF-8 reaches Python as a lone surrogate; the HTML writer crashed."""
    path = unreadable_name(tmp_path)
    junit, page = tmp_path / "junit.xml", tmp_path / "report.html"
    assert cli.main(["run", str(path), "--junit", str(junit), "--html", str(page)]) == 2
    assert "Traceback" not in capsys.readouterr().err
    [case] = next(iter(JUnitXml.fromfile(str(junit))))
    assert "bad\\xdcff\\x1b[2J.yaml" in case.classname
    text = page.read_text(encoding="utf-8")
    assert "bad\\xdcff\\x1b[2J.yaml" in text and "\x1b" not in text


def test_r93_a_result_with_text_no_report_can_carry_is_written_by_each_writer(
    tmp_path: Path,
) -> None:
    step = StepResult("1", "caption", "a lone \ud800 and a \x07 bell", status="passed")
    result = ScenarioResult(file="x.yaml", name="odd \udcff name", steps=[step])
    write_html_report([result], tmp_path / "r.html", "run")
    write_json_report([result], tmp_path / "r.json")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "odd \\xdcff name" in page and "a lone \\xd800 and a \\x07 bell" in page
    written = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert written["scenarios"][0]["name"] == "odd \udcff name"  # JSON's own escape


def test_r93_the_html_report_stops_at_its_size_and_says_how_many_steps_are_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(html_report, "MAX_REPORT_CHARS", 200_000)
    steps = [StepResult(str(n), "caption", "x" * 1_000) for n in range(1, 1_001)]
    result = ScenarioResult(file="x.yaml", name="long", steps=steps)
    path = tmp_path / "r.html"
    write_html_report([result], path, "run")
    text = path.read_text(encoding="utf-8")
    assert len(text) <= 200_000 + 10_000
    assert "more steps are not shown" in text and text.rstrip().endswith("</html>")
