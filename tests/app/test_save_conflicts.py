"""The app's saves are conditional: a note changed elsewhere is never overwritten (R53)."""

from __future__ import annotations

from renderer.frames.inbox.conflict import (
    CONFLICT_MESSAGE,
    MINE_COPY_LABEL,
    OTHER_COPY_LABEL,
    kept_copy_path,
)
from renderer.frames.inbox.frame import InboxFrame
from tests.app.conftest import AppFactory, AppUnderTest

SAVE_TIMEOUT_MS = 10_000
ELSEWHERE = "# A\nchanged by another app\n"


def _conflict_after_typing(app: AppUnderTest) -> InboxFrame:
    frame = app.mount("inbox-1", "notes/a.md")
    (app.workspace_dir / "notes/a.md").write_text(ELSEWHERE, encoding="utf-8")
    frame.type_text("mine ", at=0)
    with app.qtbot.waitSignal(app.session.autosave.save_conflict, timeout=SAVE_TIMEOUT_MS):
        pass
    assert frame.conflict.isVisible()
    assert app.saved_text("notes/a.md") == ELSEWHERE  # nothing written over it
    kept = app.session.recovery.get(app.session.workspace, "notes/a.md")
    assert kept is not None and kept.text == frame.read_text()
    return frame


def test_r53_a_save_over_a_note_changed_elsewhere_is_refused_and_keep_mine_saves_it(
    make_app: AppFactory,
) -> None:
    app = make_app()
    frame = _conflict_after_typing(app)
    mine = frame.read_text()
    frame.conflict.mine_button.click()
    app.qtbot.waitUntil(lambda: app.saved_text("notes/a.md") == mine, timeout=SAVE_TIMEOUT_MS)
    assert not frame.conflict.isVisible()
    other = app.session.recovery.get(
        app.session.workspace, kept_copy_path("notes/a.md", OTHER_COPY_LABEL)
    )
    assert other is not None and other.text == ELSEWHERE  # the other text is not lost


def test_r53_keep_the_other_loads_it_and_keeps_mine(make_app: AppFactory) -> None:
    app = make_app()
    frame = _conflict_after_typing(app)
    mine = frame.read_text()
    with app.qtbot.waitSignal(frame.loaded, timeout=SAVE_TIMEOUT_MS):
        frame.conflict.other_button.click()
    assert frame.read_text() == ELSEWHERE
    assert not frame.conflict.isVisible()
    kept = app.session.recovery.get(
        app.session.workspace, kept_copy_path("notes/a.md", MINE_COPY_LABEL)
    )
    assert kept is not None and kept.text == mine
    frame.type_text("later\n", at="end")  # the next save builds on the other text and lands
    with app.qtbot.waitSignal(
        frame.save_state_changed, timeout=SAVE_TIMEOUT_MS, check_params_cb=lambda s: s == "saved"
    ):
        pass
    assert app.saved_text("notes/a.md") == ELSEWHERE + "later\n"


def test_r53_keep_mine_says_when_the_other_text_cannot_be_read_and_can_be_tried_again(
    make_app: AppFactory,
) -> None:
    app = make_app()
    frame = _conflict_after_typing(app)
    mine = frame.read_text()
    note = app.workspace_dir / "notes/a.md"
    note.unlink()  # the other text is gone before it could be kept: nothing is saved over it
    frame.conflict.mine_button.click()
    app.qtbot.waitUntil(
        lambda: frame.conflict.label.text().startswith("The other text could not be read:"),
        timeout=SAVE_TIMEOUT_MS,
    )
    assert frame.conflict.isVisible()
    assert not note.exists()
    note.write_text(ELSEWHERE, encoding="utf-8")
    frame.conflict.mine_button.click()  # tried again, the other text is there to keep
    app.qtbot.waitUntil(lambda: app.saved_text("notes/a.md") == mine, timeout=SAVE_TIMEOUT_MS)
    assert not frame.conflict.isVisible()
    # A later conflict is news of its own: the bar says so, not the earlier failure.
    note.write_text("# A\nchanged elsewhere again\n", encoding="utf-8")
    frame.type_text("more ", at=0)
    with app.qtbot.waitSignal(app.session.autosave.save_conflict, timeout=SAVE_TIMEOUT_MS):
        pass
    assert frame.conflict.isVisible()
    assert frame.conflict.label.text() == CONFLICT_MESSAGE
