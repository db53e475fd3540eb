"""R92: the app's own files cannot stop it: a start reaches its first note whatever they hold.

The window opens what a layout can keep (at most :data:`MAX_NOTE_FRAMES` note and
:data:`MAX_PROVIDER_FRAMES` provider frames) and says what it left out; kept notes are
read on a worker and a record that is not one is set aside with a banner. The real
``python -m app`` starts over the audit's data folders at full size.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from app.sidecar.sharing import SETTING_FILE
from app.workspace.layout_state import LAYOUT_FILE, MAX_NOTE_FRAMES, MAX_PROVIDER_FRAMES
from app.workspace.switch import RESTORED_AT_ONCE
from renderer.ambient.recovery import RECOVERY_FOLDER, RecoveryStore
from renderer.frames.inbox.frame import InboxFrame
from tests.app.conftest import AppFactory, AppUnderTest
from tests.stress.start import FULL_SIZES, cases, clean_start, start_app

BANNER_TIMEOUT_MS = 60_000


def _texts(app: AppUnderTest) -> list[str]:
    return [banner.label.text() for banner in app.window.banners.banners]


def _kept_layout(workspace: str, notes: int, providers: int) -> str:
    layout = {
        "notes": [
            {"id": f"inbox-{n + 1}", "path": f"many/{n}.md", "view": "preview"}
            for n in range(notes)
        ],
        "providers": [
            {"id": f"p-{n}", "provider": "workspace" if n % 2 else f"feed {n}"}
            for n in range(providers)
        ],
        "active": "inbox-1",
    }
    return json.dumps({"version": 1, "workspace": workspace, "workspaces": {workspace: layout}})


def test_r92_a_layout_of_hundreds_of_frames_opens_the_first_ones_and_says_so(
    make_app: AppFactory,
) -> None:
    """At full size (5,000 provider frames, 2,000 note frames in Preview) the window froze
    for minutes at every start; here fewer, past the caps all the same."""
    first = make_app({f"many/{n}.md": f"# Note {n}\n\n> quoted\n" for n in range(120)})
    first.quit()
    layout = _kept_layout(first.session.workspace, 120, 300)
    (first.data_dir / LAYOUT_FILE).write_text(layout, encoding="utf-8")

    app = make_app(restart=first)
    window = app.window
    app.qtbot.waitUntil(lambda: not window.switcher.restoring, timeout=60_000)
    notes = window.driver.inbox_frames()
    assert [frame.path for frame in notes] == [f"many/{n}.md" for n in range(MAX_NOTE_FRAMES)]
    providers = [
        frame for frame in window.frames.values() if frame.parent() is window.providers_column
    ]
    assert len(providers) == MAX_PROVIDER_FRAMES
    text = " ".join(_texts(app))
    assert "The saved window layout could not be used whole" in text
    assert f"120 note frames, more than the {MAX_NOTE_FRAMES} a window opens" in text
    assert f"300 provider frames, more than the {MAX_PROVIDER_FRAMES}" in text
    aside = list(app.data_dir.glob(f"{LAYOUT_FILE}.broken-*"))
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == layout
    app.qtbot.waitUntil(lambda: all(frame.is_loaded for frame in notes), timeout=60_000)


def _layout_of(app: AppUnderTest, notes: int, active: str) -> str:
    workspace = app.session.workspace
    layout = {
        "notes": [
            {"id": f"inbox-{n + 1}", "path": f"many/{n}.md", "view": "preview"}
            for n in range(notes)
        ],
        "providers": [{"id": f"p-{n}", "provider": "workspace"} for n in range(12)],
        "active": active,
        "recent": ["inbox-2", active],
    }
    return json.dumps({"version": 1, "workspace": workspace, "workspaces": {workspace: layout}})


def test_r92_the_first_frames_of_a_layout_mount_before_the_window_shows_the_rest_after(
    make_app: AppFactory,
) -> None:
    """Building a frame takes 40-120 ms of the GUI thread: 32 notes and 16 providers held
    the first note back for seconds. The first 8 of each column come at once, the rest
    one per event-loop turn; the layout's frame is "this note" once all are in (R81)."""
    first = make_app({f"many/{n}.md": f"# Note {n}\n" for n in range(MAX_NOTE_FRAMES)})
    first.quit()
    (first.data_dir / LAYOUT_FILE).write_text(
        _layout_of(first, MAX_NOTE_FRAMES, "inbox-20"), encoding="utf-8"
    )
    app = make_app(restart=first)
    window = app.window
    assert len(window.driver.inbox_frames()) == RESTORED_AT_ONCE  # the rest still waiting
    assert window.switcher.restoring
    app.qtbot.waitUntil(lambda: not window.switcher.restoring, timeout=60_000)
    assert len(window.driver.inbox_frames()) == MAX_NOTE_FRAMES
    assert len([f for f in window.frames.values() if f.frame_id.startswith("p-")]) == 12
    assert window.registry.active_frame_id == "inbox-20"
    assert list(app.session.store.activation_history)[-2:] == ["inbox-2", "inbox-20"]


def test_r92_quitting_while_a_layout_is_restored_keeps_the_frames_not_mounted_yet(
    make_app: AppFactory,
) -> None:
    first = make_app({f"many/{n}.md": f"# Note {n}\n" for n in range(MAX_NOTE_FRAMES)})
    first.quit()
    (first.data_dir / LAYOUT_FILE).write_text(
        _layout_of(first, MAX_NOTE_FRAMES, "inbox-20"), encoding="utf-8"
    )
    second = make_app(restart=first)
    assert second.window.switcher.restoring
    second.quit()
    saved = json.loads((first.data_dir / LAYOUT_FILE).read_text(encoding="utf-8"))
    layout = saved["workspaces"][first.session.workspace]
    assert [note["path"] for note in layout["notes"]] == [
        f"many/{n}.md" for n in range(MAX_NOTE_FRAMES)
    ]
    assert len(layout["providers"]) == 12 and layout["active"] == "inbox-20"


def test_r92_kept_notes_are_read_on_a_worker_and_a_bad_one_is_set_aside(
    make_app: AppFactory,
) -> None:
    """Twelve 40 MB kept notes froze the window 109 s: each was read on the GUI thread."""
    app = make_app()
    workspace = app.session.workspace
    folder = app.data_dir / RECOVERY_FOLDER
    store = RecoveryStore(folder)
    for name in ("notes/a.md", "notes/b.md"):
        # Control characters are kept as JSON escapes: 30 MB of JSON each.
        assert store.keep(workspace, name, "\x01" * 5_000_000, "why", 1) is not None
    with (folder / f"{'0' * 32}.json").open("wb") as sparse:
        sparse.truncate(40 * 1000 * 1000)  # 40 MB of NUL bytes: no record
    os.mkfifo(folder / f"{'1' * 32}.json")
    (folder / f"{'2' * 32}.json").symlink_to("/dev/zero")
    (folder / f"{'3' * 32}.json").write_text('{"workspace": [1], "path": 2}', encoding="utf-8")

    began = time.monotonic()
    app.window.driver.offer_kept_notes()
    handed_over = time.monotonic() - began
    app.qtbot.waitUntil(
        lambda: any("kept for notes/a.md, notes/b.md" in text for text in _texts(app)),
        timeout=BANNER_TIMEOUT_MS,
    )
    # Reading them took seconds on the GUI thread; handing them to a worker takes none.
    assert handed_over < 1.0, handed_over
    set_aside = [text for text in _texts(app) if "record(s) of unsaved text" in text]
    assert set_aside == [
        "4 record(s) of unsaved text were not records of unsaved text this app writes and "
        f"were set aside, unread, in {folder}."
    ]
    assert sorted(p.name.split(".")[0][:1] for p in folder.glob("*.broken-*")) == list("0123")
    assert len(list(folder.glob("*.json"))) == 2


def test_r92_kept_text_is_still_restored_after_the_offer_came_from_a_worker(
    make_app: AppFactory,
) -> None:
    app = make_app()
    store = RecoveryStore(app.data_dir / RECOVERY_FOLDER)
    store.keep(app.session.workspace, "notes/a.md", "kept text", "why", 1)
    app.window.driver.offer_kept_notes()
    app.qtbot.waitUntil(lambda: any("kept for notes/a.md" in text for text in _texts(app)))
    offer = next(b for b in app.window.banners.banners if "kept for" in b.label.text())
    offer.buttons["Restore"].click()
    app.qtbot.waitUntil(lambda: bool(app.window.driver.inbox_frames()))
    frame = app.window.driver.inbox_frames()[0]
    assert isinstance(frame, InboxFrame)
    app.qtbot.waitUntil(lambda: frame.read_text() == "kept text")


@pytest.mark.parametrize("content", ["{not json", '{"shareActiveNote": "yes"}', "fifo"])
def test_r92_an_unusable_sharing_choice_is_set_aside_with_a_banner_and_sharing_stays_off(
    make_app: AppFactory, content: str
) -> None:
    first = make_app()
    first.quit()
    setting = first.data_dir / SETTING_FILE
    if content == "fifo":
        os.mkfifo(setting)
    else:
        setting.write_text(content, encoding="utf-8")
    app = make_app(restart=first)
    assert not app.window.sharing.chosen
    said = [text for text in _texts(app) if "share the active note could not be used" in text]
    assert len(said) == 1 and "set aside as sharing.json.broken-" in said[0]
    assert not setting.exists() and list(app.data_dir.glob("sharing.json.broken-*"))


@pytest.fixture(scope="module")
def hostile_folders(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Path, Path]]:
    return cases(tmp_path_factory.mktemp("hostile-starts"), FULL_SIZES)


HOSTILE_CASES = [
    "5,000 provider frames",
    "2,000 note frames in Preview",
    "every own file junk",
    "every own file a FIFO",
    "every own file a link to /dev/zero",
]


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(HOSTILE_CASES)), ids=HOSTILE_CASES)
def test_r92_python_m_app_reaches_its_first_note_over_a_hostile_data_folder(
    hostile_folders: list[tuple[str, Path, Path]], index: int
) -> None:
    """Each folder also holds twelve 40 MB kept notes and a 2,000,000-character path."""
    what, data_dir, workspace = hostile_folders[index]
    assert what == HOSTILE_CASES[index]
    started = start_app(data_dir, workspace)
    assert started.ready, (started.code, started.output, started.errors[-2000:])
    assert "Traceback" not in started.errors
    assert list(data_dir.glob(f"{LAYOUT_FILE}.broken-*"))  # set aside, never deleted


@pytest.mark.slow
def test_r92_a_clean_data_folder_starts_the_same_way(
    hostile_folders: list[tuple[str, Path, Path]], tmp_path: Path
) -> None:
    started = clean_start(tmp_path, hostile_folders[0][2])
    assert started.ready, started.errors[-2000:]
