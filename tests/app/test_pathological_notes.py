"""Notes of any size and content open without freezing or exhausting the app (R63).

A note over the 10 MiB limit is refused by the document GET (413) and the frame says
so plainly, with nothing loaded into memory. A 1 MiB line with no spaces, or a note
of NUL bytes, once took Qt minutes of GUI-thread layout (its word-boundary search
starts again for every visual line); they now open in the editor and the preview.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.app.conftest import AppFactory

HANG_LIMIT_SECONDS = 90  # not a speed target: far above a linear layout, far below the old one
LIMIT_BYTES = 10 * 1024 * 1024


def test_r63_a_note_over_the_limit_is_refused_and_the_frame_says_so(
    make_app: AppFactory,
) -> None:
    app = make_app()
    with (app.workspace_dir / "notes" / "huge.md").open("wb") as huge:
        huge.truncate(LIMIT_BYTES + 1)  # sparse: takes no disk
    frame = app.window.driver.mount_inbox("inbox-1", "notes/huge.md")
    with app.qtbot.waitSignal(frame.load_failed, timeout=10_000) as failed:
        pass
    message = failed.args[0]
    assert "larger than the 10,485,760 bytes a note may have" in message
    assert message in frame.problem_label.text() and frame.problem.isVisible()
    assert frame.editor.isReadOnly() and frame.editor.toPlainText() == ""


# The whole app opens the note in the preview and then in the editor, each view laid
# out by Qt; the script ends once both have drawn.
_OPEN_SCRIPT = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from app.window.main_window import MainWindow
    from app.session import AppSession, SessionOptions
    workspace, data = Path(sys.argv[1]), Path(sys.argv[2])
    session = AppSession.start(
        SessionOptions(backend_url=None, workspace_dir=workspace, data_dir=data, demo=False)
    )
    window = MainWindow(session, demo_layout=False)
    window.resize(1000, 700)
    window.show()
    frame = window.driver.mount_inbox("inbox-1", "notes/odd.md", "preview")
    while not frame.is_loaded:
        app.processEvents()
    app.processEvents()
    frame.set_view("edit")
    app.processEvents()
    print("opened", len(frame.read_text()), "[image" not in frame.preview.toPlainText(), flush=True)
    window.close()
    session.close()
    """
)


@pytest.mark.parametrize(
    "text",
    [pytest.param("x" * 1024 * 1024, id="1 MiB line"), pytest.param("\0" * 1024 * 1024, id="NULs")],
)
def test_r63_a_note_without_a_break_opens_in_the_preview_and_the_editor(
    tmp_path: Path, text: str
) -> None:
    workspace = tmp_path / "workspace"
    (workspace / "notes").mkdir(parents=True)
    (workspace / "notes" / "odd.md").write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", _OPEN_SCRIPT, str(workspace), str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=HANG_LIMIT_SECONDS,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["opened", str(len(text)), "True"]
