"""Scenario files are validated strictly before anything runs (contract section 6, exit code 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.scenario import cli
from app.scenario.catalogue import ExpectStep
from app.scenario.model import load_all, load_scenario
from app.scenario.problems import ScenarioFileError
from app.scenario.step_fields import ASSISTANT_FRAME
from app.scenario.steps import (
    ActivateStep,
    CaptionStep,
    MountStep,
    NewNoteStep,
    OpenStep,
    PopoutStep,
    QuickOpenStep,
    RestartStep,
    SelectStep,
    SendStep,
    SwitchWorkspaceStep,
    TypeStep,
    UnmountStep,
    ViewStep,
)
from bridge.frames import ASSISTANT_FRAME_ID

CONTRACT_EXAMPLE = """\
name: two inbox frames, the assistant keeps the last choice
workspace:
  notes/a.md: "# A\\nalpha\\n"
  notes/b.md: "# B\\nbeta\\n"
backend: {saveDelay: 0}
steps:
  - mount: {frame: inbox-1, path: notes/a.md}
  - mount: {frame: inbox-2, path: notes/b.md, view: preview}
  - mount: {frame: web, provider: web}
  - activate: inbox-1
  - activate: assistant
  - type: {frame: inbox-1, text: " more", at: end}
  - select: {frame: inbox-1, anchor: 0, head: 3}
  - view: {frame: inbox-2, view: mindmap}
  - open: {frame: inbox-2, path: notes/a.md}
  - popout: inbox-2
  - unmount: inbox-1
  - switch-workspace: other
  - send: {message: "summarise this", duringFlush: [{type: {frame: inbox-1, text: "x"}}]}
  - expect:
      pointer: {path: notes/a.md, view: edit, frameId: inbox-1, flushed: true}
      dropped: oversize
      stored: {ambient_path: notes/a.md, ambient_view: edit}
      tools: [read_active_note]
      caveat: false
      partial: false
      replyContains: "alpha"
"""


def write(tmp_path: Path, text: str, name: str = "case.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ScenarioFileError) as caught:
        load_scenario(path)
    return [str(problem) for problem in caught.value.problems]


def test_the_contract_example_parses_into_every_verb(tmp_path: Path) -> None:
    scenario = load_scenario(write(tmp_path, CONTRACT_EXAMPLE))
    kinds = [type(step) for step in scenario.steps]
    assert kinds == [
        MountStep,
        MountStep,
        MountStep,
        ActivateStep,
        ActivateStep,
        TypeStep,
        SelectStep,
        ViewStep,
        OpenStep,
        PopoutStep,
        UnmountStep,
        SwitchWorkspaceStep,
        SendStep,
        ExpectStep,
    ]
    assert scenario.workspace == {"notes/a.md": "# A\nalpha\n", "notes/b.md": "# B\nbeta\n"}
    mount = scenario.steps[1]
    assert isinstance(mount, MountStep) and mount.view == "preview"
    first = scenario.steps[0]
    assert isinstance(first, MountStep) and first.inbox_view == "edit"
    send = scenario.steps[12]
    assert isinstance(send, SendStep)
    assert [type(step) for step in send.during_flush] == [TypeStep]
    expect = scenario.steps[13]
    assert isinstance(expect, ExpectStep) and expect.pointer is not None
    assert expect.pointer.expected() == {
        "path": "notes/a.md",
        "view": "edit",
        "frameId": "inbox-1",
        "flushed": True,
    }


def test_the_desktop_verbs_and_now_keys_parse_R45_R47(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "rules: [R45, R47, R49]\n"
        "steps:\n"
        "  - new-note: {path: ideas/a.md, frame: inbox-3}\n"
        "  - quick-open: {query: lnch}\n"
        "  - restart: {}\n"
        "  - expect: {frames: [{id: inbox-3, path: ideas/a.md}, {view: edit}],"
        " activeFrame: inbox-3, workspace: w}\n",
    )
    scenario = load_scenario(path)
    new_note, quick, restart, expect = scenario.steps
    assert isinstance(new_note, NewNoteStep) and new_note.frame == "inbox-3"
    assert isinstance(quick, QuickOpenStep) and quick.frame is None
    assert isinstance(restart, RestartStep)
    assert isinstance(expect, ExpectStep) and not expect.about_send
    assert expect.frames is not None and expect.frames[1].expected() == {"view": "edit"}
    assert scenario.rules == ("R45", "R47", "R49")


def test_json_is_accepted_as_yaml(tmp_path: Path) -> None:
    text = '{"name": "json", "steps": [{"activate": "assistant"}, {"caption": "hello"}]}'
    scenario = load_scenario(write(tmp_path, text, "case.json"))
    assert [type(step) for step in scenario.steps] == [ActivateStep, CaptionStep]


def test_the_format_names_the_assistant_frame_as_the_window_does() -> None:
    # The model stays free of Qt, so it keeps its own copy of the contract's name.
    assert ASSISTANT_FRAME == ASSISTANT_FRAME_ID


def test_null_pointer_and_stored_mean_no_header_and_null_columns(tmp_path: Path) -> None:
    text = "steps:\n  - send: hi\n  - expect: {pointer: null, stored: null, dropped: no-inbox}\n"
    expect = load_scenario(write(tmp_path, text)).steps[1]
    assert isinstance(expect, ExpectStep)
    assert expect.pointer is None and expect.stored is None
    assert {"pointer", "stored", "dropped"} <= expect.model_fields_set


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        ("  - activat: inbox-1\n", "step 1: field 'activat': unknown verb 'activat'"),
        ("  - type: {frame: a, txt: x}\n", "step 1: field 'type.txt': unknown key 'txt'"),
        ("  - type: {frame: a}\n", "step 1: field 'type.text': Field required"),
        ("  - type: {frame: a, text: x, at: -1}\n", "step 1: field 'type.at': 'at' is 'end'"),
        ("  - select: {frame: a, anchor: x, head: 1}\n", "step 1: field 'select.anchor'"),
        ("  - view: {frame: a, view: outline}\n", "step 1: field 'view.view'"),
        ("  - mount: {frame: a, path: /etc/passwd}\n", "step 1: field 'mount.path'"),
        ("  - mount: {frame: a, path: x.md, provider: web}\n", "step 1: field 'mount': give"),
        ("  - mount: {frame: assistant, path: x.md}\n", "step 1: field 'mount.frame'"),
        ("  - switch-workspace: ../up\n", "step 1: field 'switch-workspace': a workspace name"),
        ("  - popout: {frame: a}\n", "step 1: field 'popout': 'popout' takes one frame"),
        ("  - expect: {}\n", "step 1: field 'expect': expect needs at least one key"),
        ("  - expect: {pointer: {pth: a}}\n", "step 1: field 'expect.pointer.pth': unknown key"),
        ("  - expect: {dropped: never}\n", "step 1: field 'expect.dropped': dropped is one of"),
        ("  - expect: {tools: read_active_note}\n", "step 1: field 'expect.tools'"),
        ("  - expect: {caveat: 'yes please'}\n", "step 1: field 'expect.caveat'"),
        (
            "  - send: {message: hi, duringFlush: [{expect: {caveat: true}}]}\n",
            "step 1.1: field 'send.duringFlush[1].expect': 'expect' cannot run during a flush",
        ),
        ("  - send: {message: hi, later: true}\n", "step 1: field 'send.later': unknown key"),
        ("  - [activate, a]\n", "step 1: a step is a mapping with exactly one verb"),
        ("  - new-note: {path: ../up.md}\n", "step 1: field 'new-note.path'"),
        ("  - new-note: {frame: inbox-1}\n", "step 1: field 'new-note.path'"),
        ("  - new-note: {path: a.md, frame: assistant}\n", "step 1: field 'new-note.frame'"),
        ("  - quick-open: {query: ''}\n", "step 1: field 'quick-open.query'"),
        ("  - quick-open: {qury: a}\n", "step 1: field 'quick-open.qury': unknown key"),
        ("  - restart: now\n", "step 1: field 'restart': 'restart' takes no value"),
        ("  - expect: {frames: [{idd: a}]}\n", "step 1: field 'expect.frames.0.idd': unknown key"),
        ("  - expect: {frames: null}\n", "step 1: field 'expect': 'frames' cannot be null"),
        (
            "  - send: {message: hi, duringFlush: [{restart: {}}]}\n",
            "step 1.1: field 'send.duringFlush[1].restart': 'restart' cannot run during a flush",
        ),
        ("  - {activate: a, popout: a}\n", "step 1: a step is a mapping with exactly one verb"),
    ],
)
def test_invalid_step_names_file_step_and_field(tmp_path: Path, steps: str, expected: str) -> None:
    path = write(tmp_path, "steps:\n  - caption: first\n" + steps.replace("step 1", "step 2"))
    problems = problems_of(path)
    wanted = f"{path}: {expected.replace('step 1', 'step 2')}"
    assert any(problem.startswith(wanted) for problem in problems), problems


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("steps: []\n", "field 'steps': a scenario needs a non-empty list of steps"),
        ("stepz: [{activate: a}]\n", "field 'stepz': unknown key"),
        ("backend: {saveDelay: -1}\nsteps: [{activate: a}]\n", "field 'backend.saveDelay'"),
        ("backend: {delay: 1}\nsteps: [{activate: a}]\n", "field 'backend.delay': unknown key"),
        ("backend: {loadDelay: -1}\nsteps: [{activate: a}]\n", "field 'backend.loadDelay'"),
        ("steps: [{mount: {frame: w, provider: web, wait: false}}]\n", "Inbox frames only"),
        ("workspace: {'../x.md': a}\nsteps: [{activate: a}]\n", "field 'workspace.../x.md'"),
        ("workspace: {a.md: 3}\nsteps: [{activate: a}]\n", "field 'workspace.a.md'"),
        ("rules: [R94]\nsteps: [{activate: a}]\n", "field 'rules': not a rule number"),
        ("steps:\n  - activate: a\n  - activate: b\nsteps: []\n", "appears twice"),
        ("steps: [{activate: a}\n", "not valid YAML at line"),
        ("- just a list\n", "a scenario is a mapping"),
    ],
)
def test_invalid_file_level_content_is_named(tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, text)
    problems = problems_of(path)
    assert any(problem.startswith(str(path)) and expected in problem for problem in problems), (
        problems
    )


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        (
            "  - expect: {pointer: {frame: inbox-1}}\n",
            "step 1: field 'expect.pointer.frame': unknown key 'frame'; allowed here: v, path, "
            "view, frameId, selection, bytes, sha256, flushed, capturedAt",
        ),
        (
            "  - type: {frame: a, txt: x}\n",
            "step 1: field 'type.txt': unknown key 'txt'; allowed here: frame, text, at, direct",
        ),
        (
            "  - expect: {frames: [{idd: a}]}\n",
            "step 1: field 'expect.frames.0.idd': unknown key 'idd'; allowed here: id, path, view",
        ),
        (
            "  - expect: {shared: {activeNote: {pth: a}}}\n",
            "step 1: field 'expect.shared.activeNote.pth': unknown key 'pth'; allowed here: v, "
            "path,",
        ),
    ],
)
def test_r89_an_unknown_key_lists_the_keys_allowed_there(
    tmp_path: Path, steps: str, expected: str
) -> None:
    path = write(tmp_path, "steps:\n" + steps)
    problems = problems_of(path)
    assert any(problem.startswith(f"{path}: {expected}") for problem in problems), problems


def test_r89_a_selection_past_the_end_of_a_known_note_is_a_validation_error(
    tmp_path: Path,
) -> None:
    text = (
        'workspace: {notes/a.md: "abcd"}\n'
        "steps:\n"
        "  - mount: {frame: inbox-1, path: notes/a.md}\n"
        "  - select: {frame: inbox-1, anchor: 0, head: 4}\n"
        "  - select: {frame: inbox-1, anchor: 0, head: 500}\n"
        '  - type: {frame: inbox-1, text: "🙂"}\n'
        "  - select: {frame: inbox-1, anchor: 7, head: 6}\n"
        "  - mount: {frame: inbox-2, path: notes/new.md}\n"
        "  - select: {frame: inbox-2, anchor: 1, head: 0}\n"
        "  - send: {message: hi, duringFlush: [{type: {frame: inbox-1, text: more}}]}\n"
        "  - select: {frame: inbox-1, anchor: 0, head: 90}\n"
    )
    problems = problems_of(write(tmp_path, text))
    located = [problem.split(": ", 1)[1] for problem in problems]
    assert located == [
        "step 3: field 'select.head': 500 is past the end of notes/a.md in 'inbox-1' "
        "(4 UTF-16 units at this step): 0–4 are allowed",
        "step 5: field 'select.anchor': 7 is past the end of notes/a.md in 'inbox-1' "
        "(6 UTF-16 units at this step): 0–6 are allowed",
        "step 7: field 'select.anchor': 1 is past the end of notes/new.md in 'inbox-2' "
        "(0 UTF-16 units at this step): 0–0 are allowed",
    ], problems


def test_every_problem_in_a_file_is_reported_together(tmp_path: Path) -> None:
    text = "steps:\n  - activat: a\n  - type: {frame: a}\n  - expect: {}\n"
    problems = problems_of(write(tmp_path, text))
    assert [problem.split(": ")[1] for problem in problems] == ["step 1", "step 2", "step 3"]


def test_missing_file_and_folder_expansion(tmp_path: Path) -> None:
    assert problems_of(tmp_path / "absent.yaml") == [
        f"{tmp_path / 'absent.yaml'}: the file does not exist"
    ]
    write(tmp_path, "steps: [{caption: b}]\n", "b.yaml")
    write(tmp_path, "steps: [{caption: a}]\n", "a.yml")
    write(tmp_path, "not a scenario", "notes.txt")
    names = [scenario.source.name for scenario in load_all([tmp_path])]
    assert names == ["a.yml", "b.yaml"]


def test_cli_exits_2_naming_file_step_and_field_before_running_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, "steps: [{caption: fine}]\n", "good.yaml")
    bad = write(tmp_path, "steps:\n  - caption: ok\n  - type: {frame: a, txt: x}\n", "bad.yaml")
    report = tmp_path / "report.json"
    code = cli.main(["run", str(good), str(bad), "--report", str(report)])
    assert code == cli.EXIT_INVALID
    err = capsys.readouterr().err
    assert f"{bad}: step 2: field 'type.txt': unknown key 'txt'" in err
    assert not report.exists()  # nothing ran, so no report


def test_cli_exits_2_for_an_unreadable_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"name: caf\xe9\nsteps: [{caption: x}]\n")
    assert cli.main(["run", str(path)]) == cli.EXIT_INVALID
    assert f"{path}: the file is not UTF-8 text" in capsys.readouterr().err


def test_cli_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["replay", "x.yaml"])
    assert caught.value.code == cli.EXIT_INVALID
    assert "invalid choice" in capsys.readouterr().err


def test_a_send_while_loading_is_written_with_wait_false_and_load_delay(tmp_path: Path) -> None:
    text = (
        "backend: {loadDelay: 2.5}\n"
        "steps:\n"
        "  - mount: {frame: inbox-1, path: notes/a.md, wait: false}\n"
        "  - open: {frame: inbox-1, path: notes/b.md, wait: false}\n"
        "  - send: hi\n"
        "  - expect: {dropped: loading}\n"
    )
    scenario = load_scenario(write(tmp_path, text))
    mount, opened, _, expect = scenario.steps
    assert scenario.load_delay == 2.5 and scenario.save_delay == 0.0
    assert isinstance(mount, MountStep) and not mount.wait
    assert isinstance(opened, OpenStep) and not opened.wait
    assert "without waiting for it to load" in mount.describe()
    assert isinstance(expect, ExpectStep) and expect.dropped == "loading"


def test_r93_file_names_reach_the_terminal_without_their_control_sequences(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "clear\x1b[2J\x1b]0;owned\x07.yaml"
    path = write(tmp_path, "steps: []\n", name)
    assert cli.main(["run", str(path)]) == cli.EXIT_INVALID
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert "clear\\x{1b}[2J\\x{1b}]0;owned\\x{7}.yaml" in err
