"""The demo's presenter view and pictures (R90): one slide a caption, no picture twice, the
pop-out limitation animated."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from app.scenario.report import ScenarioResult, StepResult
from app.scenario.slides import PICTURE_BOX, build_slides, png_size, slides_html
from app.scenario.tour_pictures import drop_duplicate_pictures, write_limitation_animation

MAIN = {"inbox-1": [0, 0, 700, 860], "inbox-2": [0, 430, 700, 430], "assistant": [700, 0, 660, 860]}


def _picture(folder: Path, name: str, colour: str, width: int = 1360) -> str:
    path = folder / name
    Image.new("RGB", (width, 860), colour).save(path)
    return str(path)


def _step(number: int, verb: str, summary: str, picture: str | None = None) -> StepResult:
    step = StepResult(str(number), verb, summary, screenshot=picture)
    if picture is not None:
        step.regions = dict(MAIN)
    return step


def _tour(folder: Path) -> ScenarioResult:
    popped = _step(6, "popout", "pop out inbox-2", _picture(folder, "06.png", "white", 2400))
    popped.regions = {**MAIN, "popout:inbox-2": [1400, 24, 980, 720]}
    sent = _step(7, "send", "send 'summarise this'", _picture(folder, "07.png", "blue", 2400))
    # Every picture after a pop-out has it beside; a send's shows the latest turn.
    sent.regions = {
        **popped.regions,
        "assistant:latest": [700, 500, 660, 360],
        "assistant:chip": [700, 760, 660, 100],
    }
    steps = [
        _step(1, "mount", "mount inbox-1 on a.md (edit)", _picture(folder, "01.png", "white")),
        _step(2, "caption", "Two frames; the second is used last."),
        _step(3, "mount", "mount inbox-2 on b.md (edit)", _picture(folder, "03.png", "grey")),
        _step(4, "activate", "activate inbox-2", _picture(folder, "04.png", "grey")),  # same
        _step(5, "caption", "The second one pops out into its own window."),
        popped,
        sent,
        _step(8, "expect", "expect pointer {}"),
    ]
    return ScenarioResult(
        file="demo.yaml", name="A scene", description="What it shows.", rules=["R29"], steps=steps
    )


def test_r90_one_slide_a_caption_with_before_and_after_and_the_popout_on_its_own(
    tmp_path: Path,
) -> None:
    slides = build_slides([_tour(tmp_path)])
    titles = [slide.title for slide in slides]
    assert titles == [
        "A scene",
        "Two frames; the second is used last.",
        "The second one pops out into its own window.",
        "Beside it, the popped-out window: its own process and assistant",
    ]
    first, second, popout = slides[1], slides[2], slides[3]
    assert first.before is not None and first.before.number == "1"
    assert first.after is not None and first.after.number == "4"
    assert second.before is not None and second.before.number == "4"
    assert second.after is not None and second.after.number == "7"
    # After a send: the assistant from its latest turn down to its input.
    assert second.crop == (700, 500, 660, 360) and second.with_chip and not first.with_chip
    assert first.crop is not None and first.crop[2] <= PICTURE_BOX[0]
    assert popout.crop == (1400, 24, 980, PICTURE_BOX[1])  # its top, at 1× at least
    assert "What it shows." in slides[0].notes
    assert any("send 'summarise this'" in line for line in second.notes)


def test_r90_the_page_steps_with_arrows_shows_notes_and_points_at_the_pictures(
    tmp_path: Path,
) -> None:
    page = slides_html([_tour(tmp_path)], "Tour", tmp_path)
    assert "ArrowRight" in page and "ArrowLeft" in page and "'S'" in page
    assert 'class="notes"' in page and "Technical detail" in page
    assert 'src="04.png"' in page and "data:" not in page  # beside it, not copied in
    send_slide = page.split('id="slide-4"')[1].split("</section>")[0]
    # Before: one crop; after the send: the latest turn, and the chip and input under it.
    assert send_slide.count('class="crop"') == 3
    assert png_size(tmp_path / "06.png") == (2400, 860)


def test_r90_a_picture_equal_to_an_earlier_one_is_kept_once(tmp_path: Path) -> None:
    tour = _tour(tmp_path)
    assert drop_duplicate_pictures([tour]) == 1
    third, fourth = tour.steps[2], tour.steps[3]
    assert fourth.screenshot == third.screenshot
    assert not (tmp_path / "04.png").exists() and (tmp_path / "03.png").exists()


def test_r90_the_popout_scene_is_written_as_an_animated_webp(tmp_path: Path) -> None:
    target = tmp_path / "popout.webp"
    assert write_limitation_animation([_tour(tmp_path)], target)
    with Image.open(target) as animation:
        assert animation.format == "WEBP"
        # One frame a picture; the two equal grey ones make one frame.
        assert getattr(animation, "n_frames", 1) == 4
        assert animation.width == 1600
