"""Start-ups over hostile data folders: the real ``python -m app`` reaches its first note (R92).

Each case fills a data folder of its own with what an audit left there, at full size:
a layout of 5,000 provider frames or of 2,000 note frames in Preview, twelve 40 MB kept
notes (sparse), a kept record whose path has 2,000,000 characters, and every file the
app reads at start replaced by junk, a FIFO or a link to ``/dev/zero``. The app is
started with ``--quit-when-ready``: it prints ``ready`` once the first note's text is
painted, and quits. A start that does not print it before a generous deadline (a hang
is minutes; a start is seconds) or that ends with an error counts as lost.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from app.__main__ import READY
from app.assistant.assistants import KEPT_TURNS_FOLDER
from app.assistant.settings import KEY_FILE, SETTINGS_FILE
from app.sidecar.sharing import SETTING_FILE
from app.workspace.demo import workspace_id_for
from app.workspace.layout_state import LAYOUT_FILE
from renderer.ambient.recovery import RECOVERY_FOLDER
from tests.stress.harness import Figure

PROJECT_ROOT = Path(__file__).resolve().parents[2]
START_DEADLINE_SECONDS = 180.0
"""Far past any start on a busy machine; the audit's hangs lasted 109 s to over 515 s."""
KEPT_NOTE_BYTES = 40 * 1000 * 1000
FIRST_NOTE = "first.md"
WORKSPACE_FOLDER = "hostile-workspace"
OWN_FILES = (LAYOUT_FILE, SETTINGS_FILE, KEY_FILE, SETTING_FILE)
"""The files directly in the data folder the app reads before or while its window opens."""


@dataclass(frozen=True)
class Sizes:
    provider_frames: int = 5_000
    note_frames: int = 2_000
    kept_notes: int = 12
    kept_note_bytes: int = KEPT_NOTE_BYTES
    kept_path_chars: int = 2_000_000


FULL_SIZES = Sizes()


def sizes_for(provider_frames: int) -> Sizes:
    """The audit's folders with ``provider_frames`` provider frames and two fifths as many
    note frames (5,000 and 2,000 at full size); the kept notes stay at full size (sparse)."""
    return Sizes(provider_frames=provider_frames, note_frames=provider_frames * 2 // 5)


@dataclass(frozen=True)
class Started:
    """How one start ended: whether it printed ``ready``, in how long, and what it said."""

    ready: bool
    seconds: float
    code: int | None
    output: str
    errors: str


def start_app(data_dir: Path, workspace: Path, deadline: float = START_DEADLINE_SECONDS) -> Started:
    """Run ``python -m app --quit-when-ready`` over ``data_dir``; a start past ``deadline`` is
    stopped (its whole process group) and said to be not ready."""
    started = time.monotonic()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "--data-dir",
            str(data_dir),
            "--workspace",
            str(workspace),
            "--quit-when-ready",
        ],
        cwd=PROJECT_ROOT,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        output, errors = process.communicate(timeout=deadline)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        output, errors = process.communicate()
    seconds = time.monotonic() - started
    lines = output.split()
    return Started(
        READY in lines and process.returncode == 0, seconds, process.returncode, output, errors
    )


def make_workspace(folder: Path, sizes: Sizes) -> Path:
    """A workspace folder with the first note and one small note for each layout frame."""
    workspace = folder / WORKSPACE_FOLDER
    (workspace / "many").mkdir(parents=True)
    (workspace / FIRST_NOTE).write_text("# First\n\nThe note a start must reach.\n", "utf-8")
    for index in range(sizes.note_frames):
        (workspace / "many" / f"{index:05}.md").write_text(
            f"# Note {index}\n\n- [ ] a task\n> a quote\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
            "utf-8",
        )
    return workspace


def _layout(workspace: Path, notes: list[dict[str, str]], providers: list[dict[str, str]]) -> str:
    name = workspace_id_for(workspace)
    layout = {"notes": notes, "providers": providers, "active": notes[0]["id"] if notes else None}
    return json.dumps({"version": 1, "workspace": name, "workspaces": {name: layout}})


def _first_note() -> dict[str, str]:
    return {"id": "inbox-1", "path": FIRST_NOTE, "view": "edit"}


def provider_frames_layout(workspace: Path, sizes: Sizes) -> str:
    providers = [
        {"id": f"provider-{index}", "provider": "workspace" if index % 2 else f"feed {index}"}
        for index in range(sizes.provider_frames)
    ]
    return _layout(workspace, [_first_note()], providers)


def note_frames_layout(workspace: Path, sizes: Sizes) -> str:
    notes = [_first_note()] + [
        {"id": f"inbox-{index + 2}", "path": f"many/{index:05}.md", "view": "preview"}
        for index in range(sizes.note_frames)
    ]
    return _layout(workspace, notes, [])


def kept_notes(data_dir: Path, sizes: Sizes) -> None:
    """Twelve 40 MB files in the kept-notes folder (sparse) and a record with a huge path."""
    folder = data_dir / RECOVERY_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for index in range(sizes.kept_notes):
        with (folder / f"{index:032x}.json").open("wb") as kept:
            kept.truncate(sizes.kept_note_bytes)
    record = {"workspace": "w", "path": "n" * sizes.kept_path_chars, "text": "planted"}
    (folder / f"{'f' * 32}.json").write_text(json.dumps(record), "utf-8")


Fill = Callable[[Path], None]


def _junk(path: Path) -> None:
    path.write_bytes(b"\xff\x00{" * 100_000)


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _zero_link(path: Path) -> None:
    path.symlink_to("/dev/zero")


HOSTILE_FILLS: dict[str, Fill] = {"junk": _junk, "a FIFO": _fifo, "a link to /dev/zero": _zero_link}


def fill_own_files(data_dir: Path, fill: Fill, *, layout: bool = True) -> None:
    """Every file the app reads at start (``layout.json`` unless told not to), the kept
    turns and a kept note replaced by what ``fill`` makes."""
    data_dir.mkdir(parents=True, exist_ok=True)
    for name in OWN_FILES:
        if name != LAYOUT_FILE or layout:
            fill(data_dir / name)
    for folder in (KEPT_TURNS_FOLDER, RECOVERY_FOLDER):
        (data_dir / folder).mkdir(exist_ok=True)
        fill(data_dir / folder / f"{'e' * 32}.json")


def cases(folder: Path, sizes: Sizes) -> list[tuple[str, Path, Path]]:
    """(what, data folder, workspace) for each hostile start, each folder filled."""
    workspace = make_workspace(folder, sizes)
    made: list[tuple[str, Path, Path]] = []

    def case(what: str, layout: str | None, fill: Fill | None) -> None:
        data_dir = folder / f"data-{len(made)}"
        data_dir.mkdir()
        if fill is not None:
            fill_own_files(data_dir, fill, layout=layout is None)
        if layout is not None:
            (data_dir / LAYOUT_FILE).write_text(layout, "utf-8")
        kept_notes(data_dir, sizes)
        made.append((what, data_dir, workspace))

    case(
        f"{sizes.provider_frames:,} provider frames",
        provider_frames_layout(workspace, sizes),
        _junk,
    )
    case(
        f"{sizes.note_frames:,} note frames in Preview", note_frames_layout(workspace, sizes), None
    )
    for what, fill in HOSTILE_FILLS.items():
        case(f"every own file {what}", None, fill)
    return made


def clean_start(folder: Path, workspace: Path) -> Started:
    """A start over an empty data folder, to compare with."""
    data_dir = folder / "data-clean"
    data_dir.mkdir()
    return start_app(data_dir, workspace)


def hostile_starts(folder: Path, sizes: Sizes = FULL_SIZES) -> Figure:
    """``make stress``'s part: every hostile folder starts to its first note."""
    figure = Figure("start: python -m app over hostile data folders")
    longest = 0.0
    for what, data_dir, workspace in cases(folder, sizes):
        started = start_app(data_dir, workspace)
        figure.cases += 1
        longest = max(longest, started.seconds)
        if not started.ready:
            figure.lost += 1
            figure.details.setdefault("not ready", []).append(
                f"{what}: code {started.code}, {started.errors[-300:]!r}"
            )
    clean = clean_start(folder, folder / WORKSPACE_FOLDER)
    figure.details["longest start s"] = round(longest, 1)
    figure.details["clean start s"] = round(clean.seconds, 1)
    figure.lost += not clean.ready
    figure.details = {
        key: json.dumps(value) if isinstance(value, list) else value
        for key, value in figure.details.items()
    }
    return figure
