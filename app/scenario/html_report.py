"""A scenario run as one self-contained HTML file that people read (R79).

One file, opened from disk with no network: the pictures are embedded as
``data:`` URIs, the style is inline, there is no script, and a
Content-Security-Policy forbids loading anything else. A summary table comes
first, then each scenario's steps; at each send, the pointer that left the app
(``X-Ambient-Note`` decoded), what the backend stored, the tools called, the
reply and the window's picture. A failed step is opened and marked, with its
expected and actual values; a failing scenario ends with the trace of each step.

Failures come first (R89): a red banner at the top links to each failed step,
and the failing scenarios lead both the summary and the sections.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

from app.scenario.expectations import ExpectBody
from app.scenario.problems import Problem
from app.scenario.report import Mismatch, ScenarioResult, SendRecord, StepResult, xml_text
from app.scenario.steps import CaptionStep, SendStep
from bridge.headers import HEADER_NAME

LONG_TEXT_CHARS = 20_000
"""A reply or a tool result longer than this is cut in the report (the JSON report has it whole)."""
MAX_REPORT_CHARS = 48 * 1024 * 1024
"""The page's size at most, pictures included (R93): past it, the steps left are only counted."""

_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
_STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2430;
  margin: 0 auto; padding: 16px 24px 48px; max-width: 1440px; background: #fafbfc; }
h1 { font-size: 22px; margin: 8px 0 4px; } h2 { font-size: 18px; margin: 0 0 4px; }
h3 { font-size: 14px; margin: 12px 0 4px; }
.lead { margin: 0 0 16px; color: #4a5263; }
.banner { border-radius: 6px; padding: 10px 16px; margin: 8px 0 16px; font-size: 15px; }
.banner.bad { background: #b3261e; color: #fff; }
.banner.bad a { color: #fff; font-weight: 600; }
.banner.bad ul { margin: 6px 0 0; padding-left: 20px; }
.banner.bad li { margin: 3px 0; }
.banner.good { background: #dcf3e2; color: #135c2a; font-weight: 600; }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border: 1px solid #d5d9e0; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #eef1f5; font-weight: 600; }
table.summary { width: 100%; background: #fff; }
td.num, td.time { text-align: right; white-space: nowrap; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px;
  font-weight: 600; }
.badge.passed { background: #dcf3e2; color: #135c2a; }
.badge.failed, .badge.error { background: #fbdcdc; color: #8a1111; }
.badge.skipped { background: #eceef2; color: #4a5263; }
section.scenario { background: #fff; border: 1px solid #d5d9e0; border-radius: 6px;
  margin: 18px 0; padding: 12px 16px; }
section.scenario.failed { border-color: #d64545; }
.meta { color: #4a5263; margin: 0 0 8px; }
ol.steps { list-style: none; padding: 0; margin: 8px 0; }
ol.steps > li { margin: 3px 0; }
details.step { border: 1px solid #e1e4ea; border-left: 4px solid #3f9a5d; border-radius: 4px;
  background: #fff; }
details.step.failed { border-left-color: #d64545; background: #fff6f6; }
details.step.skipped { border-left-color: #a5abb8; color: #6a7181; }
details.step > summary { cursor: pointer; padding: 4px 8px; }
details.step .body { padding: 4px 12px 10px; }
.stepnum { font-weight: 600; }
.mark { color: #b31b1b; font-weight: 700; }
.dur { color: #6a7181; font-size: 12px; }
p.caption { font-weight: 600; margin: 10px 0 4px; }
pre { background: #f3f5f8; border: 1px solid #e1e4ea; padding: 6px 8px; margin: 4px 0;
  white-space: pre-wrap; word-break: break-word; font: 12px/1.4 ui-monospace, monospace; }
.failure { border: 1px solid #e8a0a0; background: #fff0f0; padding: 6px 10px; margin: 6px 0; }
dl.send { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0; }
dl.send dt { font-weight: 600; } dl.send dd { margin: 0; }
img.shot { display: block; max-width: 100%; border: 1px solid #c9ced8; margin: 8px 0; }
table.trace td { font: 12px/1.35 ui-monospace, monospace; }
table.trace tr.failed td { background: #fff0f0; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _json(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def _cut(text: str) -> str:
    if len(text) <= LONG_TEXT_CHARS:
        return text
    return text[:LONG_TEXT_CHARS] + f"\n… ({len(text) - LONG_TEXT_CHARS} more characters)"


def _pre(text: str, css: str = "") -> str:
    cls = f' class="{css}"' if css else ""
    return f"<pre{cls}>{_e(_cut(text))}</pre>"


def picture_uri(path: str | None) -> str | None:
    """A saved picture as a ``data:`` URI, or None when there is none to embed."""
    if path is None:
        return None
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def wants_picture(step: StepResult, *, every_picture: bool = False) -> bool:
    """Whether the report shows the window after this step (so whether a run must take it)."""
    if every_picture:
        return step.verb not in (
            ExpectBody.verb,
            CaptionStep.verb,
        )  # an expect changes nothing on screen
    return step.verb == SendStep.verb or step.status == "failed"


def _status(result: ScenarioResult) -> str:
    if result.error is not None:
        return "error"
    return "passed" if result.passed else "failed"


def _anchor(index: int) -> str:
    return f"scenario-{index}"


def _step_anchor(index: int, step: StepResult) -> str:
    return f"scenario-{index}-step-{step.number}"


def failures_first(results: Sequence[ScenarioResult]) -> list[ScenarioResult]:
    """Failing (and unstartable) scenarios first, each group in its run order."""
    return sorted(results, key=lambda result: result.passed)


def _banner(
    results: Sequence[ScenarioResult],
    invalid: Mapping[str, Sequence[Problem]],
) -> list[str]:
    """The red banner naming every failed step, with a link to it; green when all passed."""
    items: list[str] = []
    for problems in invalid.values():
        items += [f"<li>{_e(problem)}</li>" for problem in problems]
    for index, result in enumerate(results, start=1):
        if result.error is not None:
            items.append(
                f'<li><a href="#{_anchor(index)}">{_e(result.file)}</a>: '
                f"could not run: {_e(result.error)}</li>"
            )
        for step in result.steps:
            if step.status == "failed":
                items.append(
                    f'<li><a href="#{_step_anchor(index, step)}">{_e(result.file)}: step '
                    f"{_e(step.number)} ({_e(step.verb)})</a>: {_e(step.failure_text())}</li>"
                )
    if not items:
        return [f'<div class="banner good">All {len(results)} scenarios passed.</div>']
    failed = sum(not result.passed for result in results)
    if invalid:
        head = f"{len(invalid)} scenario file(s) could not be read or validated; nothing ran."
    else:
        head = f"{failed} of {len(results)} scenarios failed."
    return [
        '<div class="banner bad" role="alert">',
        f"<strong>{_e(head)}</strong>",
        f"<ul>{''.join(items)}</ul>",
        "</div>",
    ]


# -- the summary -----------------------------------------------------------------


def _summary(
    results: Sequence[ScenarioResult],
    invalid: Mapping[str, Sequence[Problem]],
    not_run: Sequence[tuple[str, str]],
) -> list[str]:
    rows = [
        '<table class="summary"><thead><tr><th>#</th><th>Scenario</th><th>File</th>'
        "<th>Rules</th><th>Steps</th><th>Time</th><th>Result</th><th>First failure</th>"
        "</tr></thead><tbody>"
    ]
    for index, result in enumerate(results, start=1):
        status = _status(result)
        failures = result.failures()
        rows.append(
            f'<tr><td class="num">{index}</td>'
            f'<td><a href="#{_anchor(index)}">{_e(result.name)}</a></td>'
            f"<td><code>{_e(result.file)}</code></td><td>{_e(', '.join(result.rules))}</td>"
            f'<td class="num">{len(result.steps)}</td>'
            f'<td class="time">{result.duration_ms / 1000:.1f} s</td>'
            f'<td><span class="badge {status}">{status}</span></td>'
            f"<td>{_e(failures[0]) if failures else ''}</td></tr>"
        )
    for file, problems in invalid.items():
        rows.append(
            f'<tr><td class="num">–</td><td>{_e(file)}</td><td><code>{_e(file)}</code></td>'
            '<td></td><td></td><td></td><td><span class="badge error">invalid file</span></td>'
            f"<td>{_e('; '.join(str(problem) for problem in problems))}</td></tr>"
        )
    for name, file in not_run:
        rows.append(
            f'<tr><td class="num">–</td><td>{_e(name)}</td><td><code>{_e(file)}</code></td>'
            '<td></td><td></td><td></td><td><span class="badge skipped">not run</span></td>'
            "<td>another file could not be read or validated</td></tr>"
        )
    rows.append("</tbody></table>")
    return rows


# -- one step --------------------------------------------------------------------


def _mismatches(mismatches: Iterable[Mismatch]) -> str:
    rows = "".join(
        f"<tr><td><code>{_e(item.field)}</code></td>"
        f"<td>{_pre(_json(item.expected))}</td><td>{_pre(_json(item.actual))}</td></tr>"
        for item in mismatches
    )
    return f"<table><tr><th>field</th><th>expected</th><th>actual</th></tr>{rows}</table>"


def _failure(step: StepResult) -> str:
    parts = ['<div class="failure">']
    parts.append(f"<strong>Step {_e(step.number)} ({_e(step.verb)}) failed.</strong>")
    if step.error is not None:
        parts.append(f"<p>{_e(step.error)}</p>")
    if step.mismatches:
        parts.append(_mismatches(step.mismatches))
    parts.append("</div>")
    return "".join(parts)


def _send(send: SendRecord) -> str:
    rows: list[tuple[str, str]] = []
    left_out = "" if send.include_ambient else " (with the note left out)"
    rows.append(("Message sent", f"“{_e(send.message)}”{_e(left_out)}"))
    if send.pointer is not None:
        pointer = f"{send.header_bytes} bytes, decoded:" + _pre(_json(send.pointer))
        rows.append((f"{HEADER_NAME} sent", pointer))
    else:
        rows.append((f"{HEADER_NAME} sent", f"none: <code>{_e(send.dropped)}</code>"))
    status = _e(send.ambient_status or "no answer")
    if send.ambient_reason:
        status += f" ({_e(send.ambient_reason)})"
    rows.append(("The backend said", status))
    if send.stored is None:
        rows.append(("The backend stored", "no delivery row for this conversation"))
    else:
        stored = {key: send.stored.get(key) for key in ("ambient_path", "ambient_view")}
        stored["ambient_meta"] = send.stored.get("ambient_meta")
        rows.append(("The backend stored", _pre(_json(stored))))
    if send.tool_results:
        calls = []
        for call in send.tool_results:
            arguments = json.dumps(call.get("arguments"), ensure_ascii=False, default=str)
            calls.append(
                f"<li><details><summary><code>{_e(call.get('name'))}</code> "
                f"<code>{_e(arguments)}</code></summary>"
                f"{_pre(_json(call.get('result')))}</details></li>"
            )
        rows.append(("Tools called", "<ol>" + "".join(calls) + "</ol>"))
    else:
        rows.append(("Tools called", "none"))
    if send.error is not None:
        rows.append(("The turn failed", _e(send.error)))
    else:
        rows.append(("The reply", _pre(send.reply or "")))
    if send.notices:
        rows.append(("Beside the reply", _e(" ".join(send.notices))))
    if send.caveats:
        rows.append(("Caveats", _e(" ".join(send.caveats))))
    body = "".join(f"<dt>{label}</dt><dd>{value}</dd>" for label, value in rows)
    return f'<dl class="send">{body}</dl>'


def _step_trace(step: StepResult) -> str:
    if step.trace is None:
        return ""
    rows = "".join(
        f"<tr><th>{_e(label)}</th><td>{_e(value)}</td></tr>" for label, value in step.trace.lines()
    )
    return f'<h3>Right after this step</h3><table class="trace">{rows}</table>'


def _step(
    step: StepResult,
    send: SendRecord | None,
    *,
    anchor: str,
    picture: bool,
    traced: bool,
    tour: bool,
) -> list[str]:
    if step.verb == CaptionStep.verb:
        return [f'<li><p class="caption">{_e(step.summary)}</p></li>']
    failed = step.status == "failed"
    mark = ' <span class="mark">✗ FAILED</span>' if failed else ""
    if step.status == "skipped":
        mark = ' <span class="badge skipped">skipped</span>'
    head = (
        f'<summary><span class="stepnum">Step {_e(step.number)}</span> '
        f"{_e(step.summary)}{mark} "
        f'<span class="dur">{step.duration_ms:.0f} ms</span></summary>'
    )
    body: list[str] = []
    if failed:
        body.append(_failure(step))
    if send is not None:
        body.append(_send(send))
    if traced and failed:
        body.append(_step_trace(step))
    uri = picture_uri(step.screenshot) if picture else None
    if uri is not None:
        body.append(f'<img class="shot" alt="The window after step {_e(step.number)}" src="{uri}">')
    if not body:
        body.append("<p>Done.</p>" if step.status == "passed" else "<p>Not run.</p>")
    # A tour is read top to bottom: its sends stand open; a run opens only what failed.
    opened = " open" if failed or (tour and send is not None) else ""
    return [
        f'<li><details class="step {step.status}" id="{_e(anchor)}"{opened}>{head}'
        '<div class="body">',
        *body,
        "</div></details></li>",
    ]


def _trace_table(steps: Sequence[StepResult]) -> list[str]:
    header = (
        "<tr><th>step</th><th>verb</th><th>result</th><th>MRU (most recent first)</th>"
        "<th>active frame</th><th>resolves to</th><th>chip</th><th>capture now</th>"
        "<th>send in preparation</th></tr>"
    )
    rows = ['<h3>Trace of each step</h3><table class="trace">', header]
    for step in steps:
        if step.verb == CaptionStep.verb:
            continue
        trace = step.trace
        css = ' class="failed"' if step.status == "failed" else ""
        if trace is None:
            rows.append(
                f"<tr{css}><td>{_e(step.number)}</td><td>{_e(step.verb)}</td>"
                f'<td>{_e(step.status)}</td><td colspan="6">no trace</td></tr>'
            )
            continue
        cells = dict(trace.lines())
        rows.append(
            f"<tr{css}><td>{_e(step.number)}</td><td>{_e(step.verb)}</td>"
            f"<td>{_e(step.status)}</td>"
            f"<td>{_e(cells['MRU (most recent first)'])}</td>"
            f"<td>{_e(cells['active frame'])}</td><td>{_e(cells['resolves to'])}</td>"
            f"<td>{_e(cells['chip'])}</td><td>{_e(cells['capture now'])}</td>"
            f"<td>{_e(trace.pending or '')}</td></tr>"
        )
    rows.append("</table>")
    return rows


class _Budget:
    """What is left of :data:`MAX_REPORT_CHARS` while the page is written."""

    def __init__(self, chars: int) -> None:
        self.left = chars

    def take(self, lines: Sequence[str]) -> bool:
        """Whether ``lines`` still fit (they are then counted as written)."""
        size = sum(len(line) + 1 for line in lines)
        if size > self.left:
            self.left = 0
            return False
        self.left -= size
        return True


def _cut_steps(left: int) -> str:
    return (
        f'<li><p class="mark">{left} more steps are not shown: the report reached its '
        f"{MAX_REPORT_CHARS // (1024 * 1024)} MiB limit (the JSON report has every step).</p></li>"
    )


def _scenario(
    index: int, result: ScenarioResult, *, every_picture: bool, budget: _Budget
) -> list[str]:
    status = _status(result)
    lines = [
        f'<section class="scenario {status}" id="{_anchor(index)}">',
        f'<h2>{index}. {_e(result.name)} <span class="badge {status}">{status}</span></h2>',
    ]
    facts = [f"<code>{_e(result.file)}</code>", f"{result.duration_ms / 1000:.1f} s"]
    if result.rules:
        facts.insert(1, "rules " + _e(", ".join(result.rules)))
    lines.append(f'<p class="meta">{" · ".join(facts)}</p>')
    if result.description:
        lines.append(f"<p>{_e(result.description.strip())}</p>")
    if result.error is not None:
        lines.append(
            f'<div class="failure"><strong>Could not run:</strong> {_e(result.error)}</div>'
        )
    sends = {send.step: send for send in result.sends}
    failing = not result.passed
    lines.append('<ol class="steps">')
    for shown, step in enumerate(result.steps):
        picture = wants_picture(step, every_picture=every_picture)
        send = sends.get(step.number)
        written = _step(
            step,
            send,
            anchor=_step_anchor(index, step),
            picture=picture,
            traced=failing,
            tour=every_picture,
        )
        if not budget.take(written):
            lines.append(_cut_steps(len(result.steps) - shown))
            break
        lines += written
    lines.append("</ol>")
    if failing and result.steps:
        trace = _trace_table(result.steps)
        if budget.take(trace):
            lines += trace
    lines.append("</section>")
    return lines


def html_report(
    results: Sequence[ScenarioResult],
    title: str,
    *,
    invalid: Mapping[str, Sequence[Problem]] | None = None,
    not_run: Sequence[tuple[str, str]] = (),
    every_picture: bool = False,
) -> str:
    """The whole report as one HTML document.

    Pictures are embedded at each send and each failed step, or, with
    ``every_picture`` (the demo's tour), after every step that acts, and the
    tour's sends are shown open.
    """
    invalid = invalid or {}
    results = failures_first(results)
    passed = sum(result.passed for result in results)
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    verdict = f"{passed} of {len(results)} scenarios passed"
    if invalid:
        verdict = f"{len(invalid)} scenario files could not be read or validated; nothing ran"
    lines = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        *_banner(results, invalid),
        f'<p class="lead">{_e(verdict)} · {_e(when)}. Each scenario drove the real app window '
        "offscreen; every send shows the pointer that left the app in the "
        f"<code>{HEADER_NAME}</code> header, decoded, and what the backend stored.</p>",
        *_summary(results, invalid, not_run),
    ]
    budget = _Budget(MAX_REPORT_CHARS - sum(len(line) + 1 for line in lines))
    for index, result in enumerate(results, start=1):
        lines += _scenario(index, result, every_picture=every_picture, budget=budget)
    lines.append("</body></html>")
    # Names, replies and notes may hold what HTML cannot carry (a lone surrogate, a control
    # character): written as escapes, never a crash of the writer (R93).
    return xml_text("\n".join(lines) + "\n")


def write_html_report(
    results: Sequence[ScenarioResult],
    path: Path,
    title: str,
    *,
    invalid: Mapping[str, Sequence[Problem]] | None = None,
    not_run: Sequence[tuple[str, str]] = (),
    every_picture: bool = False,
) -> None:
    """Write the report (UTF-8), creating its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = html_report(
        results, title, invalid=invalid, not_run=not_run, every_picture=every_picture
    )
    path.write_text(text, encoding="utf-8")
