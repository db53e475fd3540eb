"""A proposal card names its note in the app's words and cannot mislead (R93, issue 45).

The audit's card was titled with the model's own summary ("Tick off "buy milk" in
notes/today.md") above an edit of finance/budget.md. Here the card's title is the
app's, from the proposal's target and its diff; the model's summary is a quoted line
below it; a proposal for another note than the one asked from warns, naming both; and
a model that turns "tick off the first task" into an edit of another note gets no card.
The model is a scripted OpenAI-compatible server on loopback, chosen in Settings.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from renderer.frames.assistant.proposal_view import ProposalView
from tests.app.conftest import AppFactory, AppUnderTest
from tests.support.scripted_model import MODEL_ID, ScriptedModel, scripted_model, text, tool

WAIT_MS = 10_000
PLANTED = "Tick the first task in notes/a.md"
"""The model's summary: what it says it does, not what it does."""
OTHER_EDIT = json.dumps(
    {"path": "notes/b.md", "edits": [{"oldText": "beta", "newText": "gamma"}], "summary": PLANTED}
)


@pytest.fixture
def scripted() -> Iterator[ScriptedModel]:
    with scripted_model() as server:
        yield server


def _card(app: AppUnderTest, message: str) -> ProposalView:
    record = app.send(message)
    assert record.reply is not None and len(record.reply.proposals) == 1
    (view,) = app.window.assistant.latest_proposals
    app.qtbot.waitUntil(lambda: view.state == "ready", timeout=WAIT_MS)
    return view


def _shown(view: ProposalView) -> list[str]:
    """The card's lines of text as a person sees them, top to bottom."""
    labels = (view.title, view.other_note, view.summary)
    return [label.text() for label in labels if label.isVisibleTo(view)]


def _use_model(app: AppUnderTest, server: ScriptedModel) -> None:
    dialog = app.window.driver.open_assistant_settings()
    dialog.model_choice.setChecked(True)
    dialog.endpoint.setText(server.url)
    dialog.model.setEditText(MODEL_ID)
    server.then(text("ready"))
    with app.qtbot.waitSignal(dialog.verified, timeout=WAIT_MS):
        QTest.mouseClick(dialog.verify_button, Qt.MouseButton.LeftButton)
    with app.qtbot.waitSignal(dialog.applied, timeout=WAIT_MS):
        QTest.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)


def test_r93_the_card_title_names_the_note_and_the_change_in_the_apps_words(
    make_app: AppFactory,
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    view = _card(app, "tick off the first task")
    summary = view.proposal.summary
    assert summary  # the offline assistant's own summary, kept as the quoted line
    assert _shown(view) == [
        "Change notes/a.md: tick 1 task",
        f"The assistant says: “{summary}”",
    ]


def test_r93_a_proposal_for_another_note_warns_naming_both(
    make_app: AppFactory, scripted: ScriptedModel
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    _use_model(app, scripted)
    scripted.then(tool("propose_note_edit", OTHER_EDIT), text("Proposed."))
    view = _card(app, "also change the wording of notes/b.md")  # named: the backend allows it
    assert _shown(view) == [
        "Change notes/b.md: 1 line changed",
        "⚠ You asked about notes/a.md, but this changes another note: notes/b.md.",
        f"The assistant says: “{PLANTED}”",
    ]


def test_r93_an_edit_of_this_note_turned_to_another_note_shows_no_card(
    make_app: AppFactory, scripted: ScriptedModel
) -> None:
    app = make_app()
    app.mount("inbox-1", "notes/a.md")
    _use_model(app, scripted)
    scripted.then(tool("propose_note_edit", OTHER_EDIT), text("Done."))
    record = app.send("tick off the first task")
    assert record.reply is not None and record.reply.proposals == []
    assert app.window.assistant.latest_proposals == []
    assert app.saved_text("notes/b.md") == "# B\nbeta\n## Child\ntext\n"
