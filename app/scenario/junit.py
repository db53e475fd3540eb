"""A scenario run as JUnit XML, the report every CI reads (R79).

One ``<testsuite>`` (inside ``<testsuites>``, as pytest writes it), one
``<testcase>`` per scenario: ``name`` the scenario's name, ``classname`` and
``file`` the scenario file, ``time`` in seconds. A failing scenario has a
``<failure>`` whose ``message`` is its first failed step (number, verb,
expected and actual) and whose text gives each failed step with one mismatch a
line, then the trace of the steps around the first failure (R89). The failing
step's picture, when there is one, is copied beside the XML and named in
``<system-out>`` as ``[[ATTACHMENT|path]]``, the line Jenkins' and GitLab's
JUnit readers turn into an attachment. A scenario whose app could not start,
and a file that could not be read or validated, is an ``<error>``; when any
file is invalid nothing runs (exit 2) and the valid files are ``<skipped>``.
"""

from __future__ import annotations

import platform
import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

from app.scenario.problems import Problem
from app.scenario.report import ScenarioResult, StepResult, xml_text

SUITE_NAME = "ambient-notes scenarios"
NOT_RUN = "not run: another scenario file could not be read or validated"


def _seconds(milliseconds: float) -> str:
    return f"{milliseconds / 1000:.3f}"


def _step_line(step: StepResult) -> str:
    return f"step {step.number} ({step.verb}) {step.status}: {step.summary}"


TRACE_BEFORE = 2
TRACE_AFTER = 1
"""The trace in a failure's text: this many steps before the first failed one, and after."""


def failure_lines(result: ScenarioResult) -> list[str]:
    """Each failed step as a heading line, then one line per mismatch (or its error)."""
    lines: list[str] = []
    for step in result.steps:
        if step.status != "failed":
            continue
        lines.append(f"{result.file}: step {step.number} ({step.verb}) failed: {step.summary}")
        if step.error is not None:
            lines.append(f"  {step.error}")
        lines += [f"  {mismatch}" for mismatch in step.mismatches]
    return lines


def steps_around(steps: Sequence[StepResult]) -> list[StepResult]:
    """The first failed step with the few before and after it (the whole list if none)."""
    failed = [index for index, step in enumerate(steps) if step.status == "failed"]
    if not failed:
        return list(steps)
    first = failed[0]
    return list(steps[max(0, first - TRACE_BEFORE) : first + TRACE_AFTER + 1])


def trace_text(steps: Sequence[StepResult]) -> str:
    """Each step's trace as plain lines (the failure's text; the HTML shows it as a table)."""
    lines = ["Trace of each step (after it ran):"]
    for step in steps:
        lines.append("  " + _step_line(step))
        if step.trace is None:
            lines.append("    (no trace: the step did not run or the window could not be read)")
            continue
        lines += [f"    {label}: {value}" for label, value in step.trace.lines()]
    return "\n".join(lines)


def _case(suite: ET.Element, name: str, file: str, milliseconds: float) -> ET.Element:
    return ET.SubElement(
        suite,
        "testcase",
        {
            "name": xml_text(name),
            "classname": xml_text(file),
            "file": xml_text(file),
            "time": _seconds(milliseconds),
        },
    )


def _attach_picture(result: ScenarioResult, folder: Path | None) -> str | None:
    """Copy the first failed step's picture beside the XML; its path as the run names it."""
    if folder is None:
        return None
    failed = [step for step in result.steps if step.status == "failed" and step.screenshot]
    if not failed:
        return None
    step = failed[0]
    assert step.screenshot is not None
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(result.file).stem).strip("-") or "scenario"
    target = folder / f"{name}-step-{step.number}.png"
    try:
        shutil.copyfile(step.screenshot, target)
    except OSError:
        return None
    return target.as_posix()


def _add_result(suite: ET.Element, result: ScenarioResult, attachments: Path | None = None) -> str:
    """Add one scenario's testcase; returns its outcome: passed, failure or error."""
    case = _case(suite, result.name, result.file, result.duration_ms)
    log = [_step_line(step) for step in result.steps]
    if result.error is not None:
        error = ET.SubElement(case, "error", {"message": xml_text(result.error), "type": "error"})
        error.text = xml_text(result.error)
        outcome = "error"
    elif not result.passed:
        first = next(step for step in result.steps if step.status == "failed")
        firsts = [first.error] if first.error is not None else []
        firsts += [str(mismatch) for mismatch in first.mismatches[:1]]
        message = f"step {first.number} ({first.verb}): {(firsts or [''])[0]}"
        failure = ET.SubElement(
            case, "failure", {"message": xml_text(message), "type": "ScenarioFailure"}
        )
        trace = trace_text(steps_around(result.steps))
        failure.text = xml_text("\n".join([*failure_lines(result), "", trace]))
        outcome = "failure"
        picture = _attach_picture(result, attachments)
        if picture is not None:
            log += ["", f"[[ATTACHMENT|{picture}]]"]
    else:
        outcome = "passed"
    if log:
        ET.SubElement(case, "system-out").text = xml_text("\n".join(log))
    return outcome


def junit_tree(
    results: Sequence[ScenarioResult],
    *,
    invalid: Mapping[str, Sequence[Problem]] | None = None,
    not_run: Sequence[tuple[str, str]] = (),
    attachments: Path | None = None,
) -> ET.ElementTree[ET.Element]:
    """The JUnit document: ``results`` that ran, ``invalid`` files, ``not_run`` (name, file);
    failing pictures are copied into ``attachments`` (None: none attached)."""
    root = ET.Element("testsuites", {"name": SUITE_NAME})
    suite = ET.SubElement(
        root,
        "testsuite",
        {
            "name": SUITE_NAME,
            "timestamp": datetime.now(UTC).replace(tzinfo=None).isoformat(timespec="seconds"),
            "hostname": xml_text(platform.node() or "localhost"),
        },
    )
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    total_ms = 0.0
    for file, problems in (invalid or {}).items():
        case = _case(suite, file, file, 0.0)
        message = "; ".join(str(problem) for problem in problems)
        error = ET.SubElement(
            case, "error", {"message": xml_text(message), "type": "InvalidScenarioFile"}
        )
        error.text = xml_text("\n".join(str(problem) for problem in problems))
        counts["tests"] += 1
        counts["errors"] += 1
    for name, file in not_run:
        case = _case(suite, name, file, 0.0)
        ET.SubElement(case, "skipped", {"message": NOT_RUN})
        counts["tests"] += 1
        counts["skipped"] += 1
    for result in results:
        outcome = _add_result(suite, result, attachments)
        counts["tests"] += 1
        total_ms += result.duration_ms
        if outcome == "failure":
            counts["failures"] += 1
        elif outcome == "error":
            counts["errors"] += 1
    for element in (root, suite):
        for key, value in counts.items():
            element.set(key, str(value))
        element.set("time", _seconds(total_ms))
    ET.indent(root)
    return ET.ElementTree(root)


def write_junit(
    results: Sequence[ScenarioResult],
    path: Path,
    *,
    invalid: Mapping[str, Sequence[Problem]] | None = None,
    not_run: Sequence[tuple[str, str]] = (),
) -> None:
    """Write the JUnit XML file (UTF-8, with its declaration), creating its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tree = junit_tree(results, invalid=invalid, not_run=not_run, attachments=path.parent)
    tree.write(path, encoding="utf-8", xml_declaration=True)
