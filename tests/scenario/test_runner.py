"""The runner drives the real window through every verb and checks every expectation key.

Each case runs a scenario twice-checked: an ``expect`` that must hold, then one
that must fail on a named field, so an expectation that checked nothing would
be caught.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.scenario import cli
from app.scenario.model import load_scenario
from app.scenario.report import ScenarioResult
from app.scenario.runner import run_scenario
from app.window.main_window import MainWindow
from bridge.pointer import fingerprint

WORKSPACE = """\
workspace:
  notes/a.md: "# A\\nalpha\\n"
  notes/b.md: "# B\\nbeta\\n"
"""
A_TEXT = "# A\nalpha\n"


def scenario_file(tmp_path: Path, body: str, *, backend: str = "", name: str = "case") -> Path:
    path = tmp_path / f"{name}.yaml"
    text = f"name: {name}\n{WORKSPACE}{backend}steps:\n" + textwrap.indent(
        textwrap.dedent(body).strip() + "\n", "  "
    )
    path.write_text(text, encoding="utf-8")
    return path


def run(tmp_path: Path, body: str, **options: str) -> ScenarioResult:
    return run_scenario(load_scenario(scenario_file(tmp_path, body, **options)))


def assert_holds_then_fails(result: ScenarioResult, field: str) -> None:
    """The second-to-last step (the true expect) passed; the last failed on ``field``."""
    *before, good, bad = result.steps
    problems = [step.failure_text() for step in before if step.status != "passed"]
    assert not problems, problems
    assert good.status == "passed", good.failure_text()
    assert bad.status == "failed"
    assert [mismatch.field for mismatch in bad.mismatches] == [field], bad.mismatches


VERB_CASES: list[tuple[str, str, str]] = [
    (
        "R1 R3 mount an Inbox frame in a view",
        """
        - mount: {frame: inbox-1, path: notes/a.md, view: preview}
        - expect: {resolves: {frameId: inbox-1, path: notes/a.md, view: preview}}
        - expect: {resolves: {view: edit}}
        """,
        "resolves.view",
    ),
    (
        "R5 mount a placeholder provider and activate it",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - mount: {frame: inbox-2, path: notes/b.md}
        - activate: inbox-1
        - mount: {frame: calendar, provider: calendar}
        - activate: calendar
        - expect: {resolves: {frameId: inbox-1}}
        - expect: {resolves: {frameId: calendar}}
        """,
        "resolves.frameId",
    ),
    (
        "R2 R4 activate",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - mount: {frame: inbox-2, path: notes/b.md}
        - activate: inbox-1
        - send: summarise this
        - expect: {pointer: {frameId: inbox-1, path: notes/a.md}}
        - expect: {pointer: {frameId: inbox-2}}
        """,
        "pointer.frameId",
    ),
    (
        "R8 R11 type at the end",
        f"""
        - mount: {{frame: inbox-1, path: notes/a.md}}
        - type: {{frame: inbox-1, text: "more"}}
        - send: summarise this
        - expect: {{pointer: {{bytes: {fingerprint(A_TEXT + "more")[0]}}}}}
        - expect: {{pointer: {{bytes: {fingerprint(A_TEXT)[0]}}}}}
        """,
        "pointer.bytes",
    ),
    (
        "R8 type at an offset",
        f"""
        - mount: {{frame: inbox-1, path: notes/a.md}}
        - type: {{frame: inbox-1, text: "X", at: 0}}
        - send: summarise this
        - expect: {{pointer: {{sha256: {fingerprint("X" + A_TEXT)[1]}}}}}
        - expect: {{pointer: {{sha256: {fingerprint(A_TEXT + "X")[1]}}}}}
        """,
        "pointer.sha256",
    ),
    (
        "R8 select in UTF-16 units",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - select: {frame: inbox-1, anchor: 5, head: 2}
        - send: summarise this
        - expect: {pointer: {selection: {anchor: 5, head: 2}}}
        - expect: {pointer: {selection: null}}
        """,
        "pointer.selection",
    ),
    (
        "R8 view",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - view: {frame: inbox-1, view: todo}
        - send: summarise this
        - expect: {pointer: {view: todo, selection: null}}
        - expect: {pointer: {view: edit}}
        """,
        "pointer.view",
    ),
    (
        "R9 open another note",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - open: {frame: inbox-1, path: notes/b.md}
        - send: summarise this
        - expect: {pointer: {frameId: inbox-1, path: notes/b.md}}
        - expect: {pointer: {path: notes/a.md}}
        """,
        "pointer.path",
    ),
    (
        "R29 pop out",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - mount: {frame: inbox-2, path: notes/b.md}
        - activate: inbox-2
        - popout: inbox-2
        - send: summarise this
        - expect: {pointer: {frameId: inbox-1}}
        - expect: {pointer: {frameId: inbox-2}}
        """,
        "pointer.frameId",
    ),
    (
        "R1 R4 unmount",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - mount: {frame: inbox-2, path: notes/b.md}
        - unmount: inbox-2
        - expect: {resolves: {frameId: inbox-1}}
        - expect: {resolves: null}
        """,
        "resolves",
    ),
    (
        "R7 switch workspace",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - switch-workspace: other
        - expect: {resolves: null}
        - expect: {resolves: {frameId: inbox-1}}
        """,
        "resolves",
    ),
    (
        "R48 the chip shows the selection's lines",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - select: {frame: inbox-1, anchor: 0, head: 6}
        - expect: {chip: "notes/a.md:1–2"}
        - expect: {chip: notes/a.md}
        """,
        "chip",
    ),
    (
        "R11 send with steps during the flush",
        f"""
        - mount: {{frame: inbox-1, path: notes/a.md}}
        - send: {{message: summarise this, duringFlush: [{{type: {{frame: inbox-1, text: "zz"}}}}]}}
        - expect: {{pointer: {{bytes: {fingerprint(A_TEXT + "zz")[0]}}}, caveat: true}}
        - expect: {{pointer: {{bytes: {fingerprint(A_TEXT)[0]}}}}}
        """,
        "pointer.bytes",
    ),
    (
        "R13 a frame activated during the flush discards the capture",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - mount: {frame: inbox-2, path: notes/b.md}
        - activate: inbox-1
        - send: {message: summarise this, duringFlush: [{activate: inbox-2}]}
        - expect: {dropped: discarded, pointer: null}
        - expect: {dropped: none}
        """,
        "dropped",
    ),
    (
        "R18 send without ambient context",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - send: {message: summarise this, includeAmbient: false}
        - expect: {dropped: excluded, ambientStatus: absent, stored: null}
        - expect: {ambientStatus: stored}
        """,
        "ambientStatus",
    ),
    (
        "R17 stored columns read back from the backend",
        """
        - mount: {frame: inbox-1, path: notes/a.md, view: mindmap}
        - send: summarise this
        - expect:
            stored:
              ambient_path: notes/a.md
              ambient_view: mindmap
              ambient_meta: {frameId: inbox-1, flushed: true}
        - expect: {stored: {ambient_meta: {frameId: inbox-2}}}
        """,
        "stored.ambient_meta.frameId",
    ),
    (
        "R18 stored null after a send without a header",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - send: summarise this
        - send: {message: summarise this, includeAmbient: false}
        - expect: {stored: null}
        - expect: {stored: {ambient_path: notes/a.md}}
        """,
        "stored.ambient_path",
    ),
    (
        "R23 tools in order",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - send: summarise notes/b.md
        - expect: {tools: [read_document], replyContains: beta}
        - expect: {tools: [read_active_note]}
        """,
        "tools",
    ),
    (
        "R24 reply contains the saved text",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - send: summarise this
        - expect: {replyContains: alpha}
        - expect: {replyContains: beta}
        """,
        "replyContains",
    ),
    (
        "R25 no caveat when the saved copy matches",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - send: summarise this
        - expect: {caveat: false}
        - expect: {caveat: true}
        """,
        "caveat",
    ),
    (
        "R26 partial",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - send: '/tool read_active_note {"maxBytes": 3}'
        - expect: {partial: true, caveat: false}
        - expect: {partial: false}
        """,
        "partial",
    ),
    (
        "R6 pointer null when no Inbox frame",
        """
        - mount: {frame: web, provider: web}
        - send: summarise this
        - expect: {pointer: null, dropped: no-inbox}
        - expect: {pointer: {path: notes/a.md}}
        """,
        "pointer",
    ),
    (
        "R47 new-note creates, opens and names the frame",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - new-note: {path: ideas/c.md}
        - expect: {frames: [{id: inbox-1}, {id: inbox-2, path: ideas/c.md}], activeFrame: inbox-2}
        - expect: {frames: [{id: inbox-1}]}
        """,
        "frames",
    ),
    (
        "R47 quick-open opens the fuzzy match",
        """
        - quick-open: {query: "ntsb", frame: found}
        - expect: {frames: [{id: found, path: notes/b.md, view: edit}], activeFrame: found}
        - expect: {activeFrame: inbox-1}
        """,
        "activeFrame",
    ),
    (
        "R45 restart restores the frames and the workspace",
        """
        - mount: {frame: inbox-1, path: notes/a.md, view: todo}
        - switch-workspace: side
        - new-note: {path: s.md}
        - restart: {}
        - expect: {workspace: side, frames: [{id: inbox-1, path: s.md}]}
        - expect: {workspace: elsewhere}
        """,
        "workspace",
    ),
    (
        "R45 R49 restart reopens a note that was popped out, in its place, as quitting does",
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - mount: {frame: inbox-2, path: notes/b.md}
        - popout: inbox-1
        - restart: {}
        - expect: {frames: [{id: inbox-1, path: notes/a.md}, {id: inbox-2, path: notes/b.md}]}
        - expect: {frames: [{id: inbox-2, path: notes/b.md}]}
        """,
        "frames",
    ),
]


@pytest.mark.parametrize(
    ("steps", "failing_field"),
    [case[1:] for case in VERB_CASES],
    ids=[case[0] for case in VERB_CASES],
)
def test_verb_and_expectation(
    qapp: QApplication, tmp_path: Path, steps: str, failing_field: str
) -> None:
    assert_holds_then_fails(run(tmp_path, steps), failing_field)


def test_r10_r12_save_delay_stalls_the_flush_and_flushed_is_false(
    qapp: QApplication, tmp_path: Path
) -> None:
    result = run(
        tmp_path,
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - type: {frame: inbox-1, text: "x"}
        - send: summarise this
        - expect:
            pointer: {flushed: false}
            caveat: true
            stored: {ambient_meta: {flushed: false}}
        - expect: {pointer: {flushed: true}}
        """,
        backend="backend: {saveDelay: 2.5}\n",
    )
    assert_holds_then_fails(result, "pointer.flushed")
    assert result.sends[0].flushed is False


def test_during_flush_steps_that_cannot_run_fail_the_send(
    qapp: QApplication, tmp_path: Path
) -> None:
    result = run(
        tmp_path,
        """
        - send: {message: hi, duringFlush: [{activate: assistant}]}
        - caption: never reached
        """,
    )
    send, caption = result.steps
    assert send.status == "failed"
    assert send.error is not None and "never ran" in send.error and "no-inbox" in send.error
    assert caption.status == "skipped"


def test_expect_before_any_send_fails_plainly(qapp: QApplication, tmp_path: Path) -> None:
    result = run(tmp_path, "- expect: {tools: []}\n")
    (step,) = result.steps
    assert step.status == "failed"
    assert (
        str(step.mismatches[0])
        == 'send: expected "a send before this expect", actual "no send yet"'
    )


def test_failing_scenario_exits_1_naming_the_step_and_skipping_after_an_action_failure(
    qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = scenario_file(
        tmp_path,
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - mount: {frame: inbox-2, path: notes/b.md}
        - activate: inbox-1
        - send: summarise this
        - expect: {pointer: {frameId: inbox-2}}
        - expect: {tools: [read_active_note]}
        - activate: nowhere
        - send: never sent
        """,
    )
    report = tmp_path / "out" / "report.json"
    assert cli.main(["run", str(path), "--report", str(report)]) == cli.EXIT_FAILED
    err = capsys.readouterr().err
    assert f'{path}: step 5 (expect): pointer.frameId: expected "inbox-2", actual "inbox-1"' in err
    assert f"{path}: step 7 (activate): there is no frame 'nowhere'" in err
    data = json.loads(report.read_text(encoding="utf-8"))
    (scenario,) = data["scenarios"]
    statuses = [step["status"] for step in scenario["steps"]]
    assert statuses == ["passed"] * 4 + ["failed", "passed", "failed", "skipped"]
    assert data["passed"] is False


def test_report_and_screenshots_hold_every_step_and_sent_pointer(
    qapp: QApplication, tmp_path: Path
) -> None:
    path = scenario_file(
        tmp_path,
        """
        - mount: {frame: inbox-1, path: notes/a.md}
        - send: summarise this
        - send: {message: summarise this, includeAmbient: false}
        """,
        name="reported",
    )
    report = tmp_path / "report.json"
    shots = tmp_path / "shots"
    assert cli.main(["run", str(path), "--report", str(report), "--screenshots", str(shots)]) == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    (scenario,) = data["scenarios"]
    assert [step["number"] for step in scenario["steps"]] == ["1", "2", "3"]
    first, second = scenario["sends"]
    assert first["pointer"]["path"] == "notes/a.md" and first["pointer"]["frameId"] == "inbox-1"
    assert first["stored"]["ambient_path"] == "notes/a.md"
    assert second["pointer"] is None and second["dropped"] == "excluded"
    images = sorted(shots.glob("reported/*.png"))
    assert [image.name for image in images] == ["01-mount.png", "02-send.png", "03-send.png"]
    picture = QImage(str(images[0]))
    assert picture.width() > 600 and picture.height() > 400
    colours = {
        picture.pixel(x, y)
        for x in range(0, picture.width(), 37)
        for y in range(0, picture.height(), 37)
    }
    assert len(colours) > 5  # not a blank image


def test_a_run_leaves_no_window_behind(qapp: QApplication, qtbot: QtBot, tmp_path: Path) -> None:
    # Only this run's windows count: an earlier test's may still wait for deletion.
    before = {id(widget) for widget in QApplication.topLevelWidgets()}
    result = run(tmp_path, "- mount: {frame: inbox-1, path: notes/a.md}\n")
    assert result.passed
    qtbot.waitUntil(
        lambda: (
            not any(
                isinstance(widget, MainWindow) and id(widget) not in before
                for widget in QApplication.topLevelWidgets()
            )
        )
    )
