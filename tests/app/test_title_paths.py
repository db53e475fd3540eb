"""Frame titles keep the note's file name whole and shorten its folders first (R46)."""

from __future__ import annotations

from tests.app.conftest import AppFactory

PLAN = "projects/launch-plan.md"


def test_a_title_with_room_for_the_file_name_elides_the_folders_not_the_name_R46(
    make_app: AppFactory,
) -> None:
    app = make_app({PLAN: "# Launch plan\n"})
    frame = app.mount("inbox-1", PLAN)
    title = frame.title_bar.title
    metrics = title.fontMetrics()
    # Room for the file name and a little of its folder, not for the whole path.
    room = metrics.horizontalAdvance("proj…/launch-plan.md") + 4
    assert room < metrics.horizontalAdvance(PLAN)
    title.resize(room, title.height())
    shown = title.text()
    assert shown.endswith("/launch-plan.md"), shown
    assert "…" in shown and shown.startswith("p")
    assert title.full_text() == PLAN and title.toolTip() == PLAN


def test_a_title_too_narrow_for_the_file_name_is_shortened_as_a_whole_R46(
    make_app: AppFactory,
) -> None:
    app = make_app({PLAN: "# Launch plan\n"})
    title = app.mount("inbox-1", PLAN).title_bar.title
    room = title.fontMetrics().horizontalAdvance("launch-p")
    title.resize(room, title.height())
    assert "…" in title.text()
    assert title.fontMetrics().horizontalAdvance(title.text()) <= max(room, 60)
