"""The demo tour's private-note scene (R86): one slide's send leaves the private diary out
while the chip says so, the next slide's send points at the shared note beside it."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from PySide6.QtWidgets import QApplication

from app.scenario.model import load_scenario
from app.scenario.runner import run_scenario
from app.scenario.slides import build_slides
from bridge.privacy import CHIP_PRIVATE

DEMO = (
    Path(__file__).resolve().parents[2]
    / "scenarios"
    / "demo"
    / "08-a-private-note-beside-a-shared-one.yaml"
)
PRIVATE, SHARED = "journal/diary.md", "journal/party.md"


def test_r86_the_tour_shows_a_private_note_beside_a_shared_one(
    qapp: QApplication, tmp_path: Path
) -> None:
    scenario = load_scenario(DEMO)
    assert scenario.workspace[".aiexclude"].splitlines() == [f"/{PRIVATE}"]
    result = run_scenario(scenario, screenshots=tmp_path)
    assert result.passed, result.failures()
    # The slides a send ends: the caption above, the chip drawn under the turn.
    private, shared = [slide for slide in build_slides([result]) if slide.with_chip]
    assert "private" in private.title
    assert private.after is not None and private.after.trace is not None
    assert private.after.trace.chip == f"{CHIP_PRIVATE} ({PRIVATE})"
    assert any("X-Ambient-Note: none (dropped: private)" in line for line in private.detail)
    assert shared.after is not None and shared.after.trace is not None
    assert shared.after.trace.chip.startswith(f"This note: {SHARED}")
    assert any(f'"path": "{SHARED}"' in line for line in shared.detail)
    for slide in (private, shared):
        assert slide.after is not None and slide.after.screenshot is not None
        assert Path(slide.after.screenshot).is_file()
    # What the audience is told holds: nothing of the diary went out with any send.
    diary = scenario.workspace[PRIVATE].splitlines()[1]
    assert all(diary not in json.dumps(asdict(send)) for send in result.sends)
