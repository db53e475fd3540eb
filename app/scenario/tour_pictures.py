"""The demo tour's pictures: one file per distinct picture, and the pop-out limitation animated.

A step that changes nothing on screen (an activation of the frame already active,
a send whose answer is the same picture) saves a picture byte for byte equal to the
one before; each is dropped and its step points at the first, so the reports and
the slides share one file (R90). The animation is the pop-out scene's pictures in
turn, each under its caption, written by Pillow as an animated WebP.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from app.scenario.report import ScenarioResult

ANIMATION_WIDTH = 1600
FRAME_MS = 2600
_BAND = 64
_BAND_COLOUR = (31, 36, 48)
_TEXT_COLOUR = (241, 243, 246)
_PAD_COLOUR = (233, 236, 242)
"""The pictures' own background (:mod:`app.scenario.pictures`), under a shorter one."""


def drop_duplicate_pictures(results: Sequence[ScenarioResult]) -> int:
    """Delete every picture equal to an earlier one and point its step there; how many went."""
    first: dict[str, str] = {}
    dropped = 0
    for result in results:
        for step in result.steps:
            if step.screenshot is None:
                continue
            try:
                digest = hashlib.sha256(Path(step.screenshot).read_bytes()).hexdigest()
            except OSError:
                continue
            kept = first.setdefault(digest, step.screenshot)
            if kept != step.screenshot:
                Path(step.screenshot).unlink(missing_ok=True)
                step.screenshot = kept
                dropped += 1
    return dropped


def popout_scene(results: Sequence[ScenarioResult]) -> ScenarioResult | None:
    """The tour's scene with a pop-out: the one the animation shows."""
    for result in results:
        if any(step.verb == "popout" for step in result.steps):
            return result
    return None


def write_limitation_animation(results: Sequence[ScenarioResult], target: Path) -> bool:
    """The pop-out scene's pictures, each under its caption, as an animated WebP."""
    from PIL import Image, ImageDraw, ImageFont

    scene = popout_scene(results)
    if scene is None:
        return False
    shots: list[tuple[Image.Image, str]] = []
    seen: set[tuple[str, str]] = set()
    caption = scene.name
    for step in scene.steps:
        if step.verb == "caption":
            caption = step.summary
            continue
        if step.screenshot is None or (step.screenshot, caption) in seen:
            continue
        seen.add((step.screenshot, caption))
        with Image.open(step.screenshot) as picture:
            scale = ANIMATION_WIDTH / picture.width
            size = (ANIMATION_WIDTH, round(picture.height * scale))
            shots.append((picture.convert("RGB").resize(size, Image.Resampling.LANCZOS), caption))
    # Every frame of an animation has one size: the tallest picture's, the others padded.
    height = max((shot.height for shot, _caption in shots), default=0) + _BAND
    font = ImageFont.load_default(size=28)
    frames: list[Image.Image] = []
    for shot, text in shots:
        frame = Image.new("RGB", (ANIMATION_WIDTH, height), _PAD_COLOUR)
        draw = ImageDraw.Draw(frame)
        draw.rectangle((0, 0, ANIMATION_WIDTH, _BAND), fill=_BAND_COLOUR)
        frame.paste(shot, (0, _BAND))
        draw.text(
            (16, _BAND // 2), _fit(text, draw, font), fill=_TEXT_COLOUR, font=font, anchor="lm"
        )
        frames.append(frame)
    if not frames:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    frames[0].save(
        target,
        save_all=True,
        append_images=frames[1:],
        duration=FRAME_MS,
        loop=0,
        quality=80,
    )
    return True


def _fit(text: str, draw: object, font: object) -> str:
    """The caption shortened with an ellipsis to one line of the animation's width."""
    from PIL import ImageDraw, ImageFont

    assert isinstance(draw, ImageDraw.ImageDraw)
    assert isinstance(font, ImageFont.FreeTypeFont | ImageFont.ImageFont)
    limit = ANIMATION_WIDTH - 32
    if draw.textlength(text, font=font) <= limit:
        return text
    while text and draw.textlength(text + "…", font=font) > limit:
        text = text[:-1]
    return text.rstrip() + "…"
