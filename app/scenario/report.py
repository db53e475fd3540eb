"""What a scenario run found: step outcomes and sent pointers, as JSON and as a Markdown tour.

The JSON report holds every step's outcome and every sent pointer; the
Markdown report is the demo's, readable with its screenshots and without
running anything.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from app.scenario.trace import StepTrace
from bridge.headers import HEADER_NAME

StepStatus = Literal["passed", "failed", "skipped"]


# XML 1.0 cannot hold these characters at all, even escaped, nor can UTF-8 hold a lone
# surrogate; a scenario's name, a reply or a note may have them (R93).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` with every character XML cannot hold written as ``\\xNN`` (linear in size).

    JUnit XML, the HTML page and the Markdown report go through it on their way to the
    file, so a name or a reply holding such a character cannot crash a writer (R93).
    """
    return _NOT_XML.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


@dataclass(frozen=True)
class Mismatch:
    """One expectation that did not hold: which field, what was wanted, what was there."""

    field: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return (
            f"{self.field}: expected {json.dumps(self.expected, ensure_ascii=False)}, "
            f"actual {json.dumps(self.actual, ensure_ascii=False)}"
        )


@dataclass
class SendRecord:
    """One assistant send as the runner observed it, and what the backend stored for it."""

    step: str
    message: str
    include_ambient: bool
    pointer: dict[str, Any] | None
    dropped: str | None
    header_bytes: int
    flushed: bool | None
    ambient_status: str | None
    ambient_reason: str | None
    tools: list[str]
    tool_results: list[dict[str, Any]]
    caveats: list[str]
    reply: str | None
    error: str | None
    stored: dict[str, Any] | None
    during_flush_ran: bool
    notices: list[str] = field(default_factory=list)
    """What the turn says beside its reply: a dropped context, why it is about another note."""


@dataclass
class StepResult:
    """The outcome of one step (``number`` is 1-based; ``5.2`` is a step run during a flush)."""

    number: str
    verb: str
    summary: str
    status: StepStatus = "passed"
    mismatches: list[Mismatch] = field(default_factory=list)
    error: str | None = None
    screenshot: str | None = None
    duration_ms: float = 0.0
    trace: StepTrace | None = None
    """The window's ambient state right after the step (R79); None when it could not be read."""
    regions: dict[str, list[int]] = field(default_factory=dict)
    """Where each frame is in ``screenshot`` ([x, y, width, height]): the slides crop to them."""

    def failure_text(self) -> str:
        parts = [str(mismatch) for mismatch in self.mismatches]
        if self.error is not None:
            parts.insert(0, self.error)
        return "; ".join(parts)


@dataclass
class ScenarioResult:
    """Everything one scenario file's run produced."""

    file: str
    name: str
    description: str | None = None
    rules: list[str] = field(default_factory=list)
    steps: list[StepResult] = field(default_factory=list)
    sends: list[SendRecord] = field(default_factory=list)
    error: str | None = None
    duration_ms: float = 0.0

    @property
    def passed(self) -> bool:
        return self.error is None and all(step.status == "passed" for step in self.steps)

    def failures(self) -> list[str]:
        """One plain line per failed step: file, step number, expected and actual."""
        lines: list[str] = []
        if self.error is not None:
            lines.append(f"{self.file}: {self.error}")
        for step in self.steps:
            if step.status == "failed":
                lines.append(
                    f"{self.file}: step {step.number} ({step.verb}): {step.failure_text()}"
                )
        return lines


def report_data(results: list[ScenarioResult]) -> dict[str, Any]:
    """The JSON report's content."""
    return {
        "passed": all(result.passed for result in results),
        "scenarios": [
            {**asdict(result), "passed": result.passed, "failures": result.failures()}
            for result in results
        ],
    }


def write_json_report(results: list[ScenarioResult], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(report_data(results), indent=2, ensure_ascii=False) + "\n"
    # A lone surrogate (a file name that is not UTF-8) is written as JSON's own \\uXXXX.
    path.write_bytes(text.encode("utf-8", "backslashreplace"))


def _relative(target: str, base: Path) -> str:
    try:
        return Path(target).resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return Path(target).resolve().as_posix()


def _quote(text: str, limit: int = 600) -> str:
    cut = text if len(text) <= limit else text[:limit] + " …"
    return "\n".join(f"> {line}" if line else ">" for line in cut.splitlines())


def _send_block(send: SendRecord) -> list[str]:
    context = "" if send.include_ambient else " (with the note left out)"
    lines = [f"**Sent:** “{send.message}”{context}", ""]
    if send.pointer is not None:
        lines += [
            f"The `{HEADER_NAME}` header ({send.header_bytes} bytes) carried this pointer:",
            "",
            "```json",
            json.dumps(send.pointer, indent=2, ensure_ascii=False),
            "```",
            "",
        ]
    else:
        lines += [f"No `{HEADER_NAME}` header was sent: `{send.dropped}`.", ""]
    if send.stored is not None:
        stored = {key: send.stored.get(key) for key in ("ambient_path", "ambient_view")}
        lines += [f"The backend stored: `{json.dumps(stored, ensure_ascii=False)}`.", ""]
    else:
        lines += ["The backend holds no delivery row for this conversation.", ""]
    if send.tools:
        names = ", ".join(f"`{name}`" for name in send.tools)
        lines += [f"Tools the assistant called: {names}.", ""]
    if send.error is not None:
        lines += [f"The turn failed: {send.error}", ""]
    elif send.reply:
        lines += ["The assistant replied:", "", _quote(send.reply), ""]
    if send.notices:  # what the turn said beside the reply: why it is about another note
        lines += ["Beside the reply, the turn said:", "", _quote(" ".join(send.notices)), ""]
    return lines


def _image(step: StepResult, base: Path) -> list[str]:
    if step.screenshot is None:
        return []
    return [f"![The window after step {step.number}]({_relative(step.screenshot, base)})", ""]


def _scenario_section(index: int, result: ScenarioResult, base: Path) -> list[str]:
    verdict = "passed" if result.passed else "FAILED"
    lines = [f"## {index}. {result.name} ({verdict})", ""]
    if result.description:
        lines += [result.description.strip(), ""]
    facts = [f"Scenario file: `{result.file}`."]
    if result.rules:
        facts.insert(0, "Rules shown: " + ", ".join(result.rules) + ".")
    lines += [" ".join(facts), ""]
    if result.error is not None:
        lines += [f"**Could not run:** {result.error}", ""]
    sends = {send.step: send for send in result.sends}
    actions: list[StepResult] = []

    def flush_actions() -> None:
        if not actions:
            return
        for action in actions:
            mark = "" if action.status == "passed" else f" — **{action.status}**"
            lines.append(f"- Step {action.number}: {action.summary}{mark}")
            if action.status == "failed":
                lines.append(f"  - {action.failure_text()}")
        lines.append("")
        lines.extend(_image(actions[-1], base))
        actions.clear()

    for step in result.steps:
        if step.verb == "caption":
            flush_actions()
            lines += [f"**{step.summary}**", ""]
        elif step.verb == "send":
            flush_actions()
            mark = "" if step.status == "passed" else f" — **{step.status}**"
            lines += [f"### Step {step.number}: {step.summary}{mark}", ""]
            if step.status == "failed":
                lines += [f"Failure: {step.failure_text()}", ""]
            if step.number in sends:
                lines += _send_block(sends[step.number])
            lines.extend(_image(step, base))
        elif step.verb == "expect":
            flush_actions()
            if step.status == "passed":
                lines += [f"Checked at step {step.number}, and it held: `{step.summary}`.", ""]
            elif step.status == "skipped":
                lines += [f"Step {step.number} was skipped: `{step.summary}`.", ""]
            else:
                lines += [
                    f"**Step {step.number} failed:** `{step.summary}`.",
                    "",
                    f"Found: {step.failure_text()}",
                    "",
                ]
        else:
            actions.append(step)
    flush_actions()
    return lines


def write_markdown_report(results: list[ScenarioResult], path: Path, title: str) -> None:
    """A guided report: each scenario, what was done, what each send carried, screenshots."""
    base = path.parent
    passed = sum(result.passed for result in results)
    lines = [
        f"# {title}",
        "",
        f"{passed} of {len(results)} scenarios passed. Each scenario below drove the real "
        "app window (offscreen) step by step. Every send shows the pointer that left the app "
        f"in the `{HEADER_NAME}` header, what the backend stored, and the assistant's reply; "
        "the pictures show the window at that moment, with the context chip above the "
        "assistant's input. After a pop-out, the picture puts the main window beside the "
        "popped-out window; the real one runs in its own process, so the one pictured is the "
        "same window class rendered for the report.",
        "",
        "Contents:",
        "",
    ]
    lines += [f"{index}. {result.name}" for index, result in enumerate(results, start=1)]
    lines.append("")
    for index, result in enumerate(results, start=1):
        lines += _scenario_section(index, result, base)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(xml_text("\n".join(lines)), encoding="utf-8")
