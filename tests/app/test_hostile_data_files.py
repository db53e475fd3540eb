"""The data folder is private, and what the app reads there cannot hang or crash it (R64).

The folder is 0700 and every file in it 0600, the SQLite database and its -wal/-shm
journals included. ``layout.json``, ``assistant.json`` and the key are read only when
they are regular files within size and depth limits; anything else is set aside with
a banner: a deeply nested JSON (once an uncaught RecursionError on every start) and a
FIFO in their place (once a start that never ended).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

from app.assistant.settings import KEY_FILE, SETTINGS_FILE
from app.workspace.layout_state import LAYOUT_FILE
from tests.app.conftest import AppFactory

SUBPROCESS_TIMEOUT_SECONDS = 60
DEEP = 200_000  # far past any recursion limit, still a small file


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def _banner_texts(window: object) -> list[str]:
    return [banner.label.text() for banner in window.banners.banners]  # type: ignore[attr-defined]


def test_r64_the_data_folder_is_0700_and_every_file_in_it_0600(
    make_app: AppFactory, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data-0"  # where make_app's first app keeps its data
    data_dir.mkdir(mode=0o755)
    os.chmod(data_dir, 0o755)
    old = data_dir / "notes-from-an-older-version.txt"
    old.write_text("kept\n", encoding="utf-8")
    os.chmod(old, 0o644)
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    record = app.send("what's in this note?")  # writes the conversation: the WAL is in use
    assert record.reply is not None
    database = data_dir / "ambient.db"
    journals = [Path(f"{database}-wal"), Path(f"{database}-shm")]
    assert all(journal.exists() for journal in journals)
    assert _mode(data_dir) == 0o700
    for path in [database, *journals, old, data_dir / "device-token"]:
        assert _mode(path) == 0o600, path.name
    files = [p for p in data_dir.iterdir() if p.is_file() and not p.is_symlink()]
    assert {p.name: _mode(p) for p in files} == {p.name: 0o600 for p in files}


def test_r64_deeply_nested_settings_and_layout_are_set_aside_with_a_banner(
    make_app: AppFactory, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data-0"
    data_dir.mkdir()
    (data_dir / LAYOUT_FILE).write_text("[" * DEEP + "]" * DEEP, encoding="utf-8")
    (data_dir / SETTINGS_FILE).write_text('{"a":' * DEEP + "1" + "}" * DEEP, encoding="utf-8")
    app = make_app()
    texts = " ".join(_banner_texts(app.window))
    assert "window layout could not be used" in texts
    assert "assistant settings could not be used" in texts
    assert "nests deeper than 32 levels" in texts
    assert not (data_dir / LAYOUT_FILE).exists() and not (data_dir / SETTINGS_FILE).exists()
    kept = sorted(p.name for p in data_dir.iterdir() if ".broken-" in p.name)
    assert len(kept) == 2  # set aside, never deleted
    label = app.window.assistant.assistant_label
    app.qtbot.waitUntil(lambda: label.text() == "Offline assistant", timeout=10_000)


# The app's own readers, as a start runs them, on FIFOs: each must answer at once.
_FIFO_SCRIPT = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from app.assistant.settings import AssistantSettingsStore, KEY_FILE, SETTINGS_FILE
    from app.workspace.layout_state import LAYOUT_FILE, LayoutStore
    data = Path(sys.argv[1])
    for name in (LAYOUT_FILE, SETTINGS_FILE, KEY_FILE):
        os.mkfifo(data / name)
    layouts = LayoutStore(data)
    print("last workspace", layouts.last_workspace(), flush=True)
    print("layout", layouts.load(), bool(layouts.set_aside_message), flush=True)
    settings = AssistantSettingsStore(data)
    print("settings", settings.load(), bool(settings.set_aside_message), flush=True)
    os.mkfifo(data / SETTINGS_FILE)
    print("key", settings.key(), flush=True)
    print(sorted(p.name.split(".broken-")[0] for p in data.iterdir() if ".broken-" in p.name))
    """
)


def test_r64_a_fifo_in_place_of_the_apps_files_never_hangs_the_start(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _FIFO_SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT_SECONDS,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == [
        "last workspace None",
        "layout SavedState(workspace=None, layouts={}) True",
        "settings None True",
        "key None",
        str(sorted([LAYOUT_FILE, SETTINGS_FILE, KEY_FILE])),
    ]
