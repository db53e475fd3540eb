"""The demo tour as slides for an audience (R90): ``out/demo/slides.html``.

One slide a caption. Each shows the window before and after the steps the caption
speaks of (→ steps from before to after, then on), cropped to the frame that matters
and drawn at 1× to 2× so the app's own text reads on a projector: the assistant's
lower part after a send (the reply and the chip), else the frames the steps acted
on. A popped-out window gets a slide of its own. ``S`` shows the speaker notes (the
scenario's description and the steps in plain words); the technical detail (each
step, the pointer each send carried) is folded under the picture.

The pictures are the tour's own PNG files beside the page, referred to by name:
nothing is copied, so the page and the reports share one file per picture.
"""

from __future__ import annotations

import html
import json
import os
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.scenario.pictures import CHIP_REGION, LATEST_TURN_REGION, POPOUT_REGION
from app.scenario.report import ScenarioResult, SendRecord, StepResult, xml_text
from bridge.frames import ASSISTANT_FRAME_ID

STAGE = (1280, 720)
"""The slide's size in CSS pixels; the page scales the stage to the browser window."""
PICTURE_BOX = (1200, 500)
"""Where a picture may go on a slide; a crop is drawn at most at 2×, never below 1× when it fits."""
MAX_ZOOM = 2.0
_ASSISTANT_TALLEST = 420
"""A send's slide shows the latest turn at most this tall (its top), the chip under it."""
_GAP = 10

Box = tuple[int, int, int, int]


@dataclass
class Slide:
    title: str
    kicker: str
    notes: list[str]
    before: StepResult | None = None
    after: StepResult | None = None
    crop: Box | None = None
    detail: list[str] = field(default_factory=list)
    with_chip: bool = False
    """A send's slide: the assistant's chip and input drawn under the latest turn."""


def _box(region: Sequence[int] | None) -> Box | None:
    return None if region is None else (region[0], region[1], region[2], region[3])


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _union(boxes: Sequence[Sequence[int]]) -> Box | None:
    if not boxes:
        return None
    left = min(box[0] for box in boxes)
    top = min(box[1] for box in boxes)
    right = max(box[0] + box[2] for box in boxes)
    bottom = max(box[1] + box[3] for box in boxes)
    return (left, top, right - left, bottom - top)


def _frames_named(steps: Sequence[StepResult]) -> set[str]:
    """The frame ids the steps' report lines name (``activate inbox-1``, ``… in inbox-2``)."""
    named: set[str] = set()
    for step in steps:
        for word in step.summary.replace(",", " ").split():
            named.add(word.strip("'\"()"))
    return named


def choose_crop(steps: Sequence[StepResult], picture: StepResult) -> Box | None:
    """The part of ``picture`` the caption's steps are about, at most the picture box at 1×."""
    regions = {name: box for name, box in picture.regions.items() if name.startswith(POPOUT_REGION)}
    main = {name: box for name, box in picture.regions.items() if name not in regions}
    frames = {
        name: box for name, box in main.items() if name not in (LATEST_TURN_REGION, CHIP_REGION)
    }
    if any(step.verb == "send" for step in steps) and LATEST_TURN_REGION in main:
        # The latest turn; the chip and input are drawn under it (``Slide.with_chip``).
        x, y, width, height = main[LATEST_TURN_REGION]
        return (x, y, width, min(height, _ASSISTANT_TALLEST))
    named = _frames_named(steps)
    chosen = [box for name, box in frames.items() if name in named and name != ASSISTANT_FRAME_ID]
    crop = _union(chosen) or _union(list(frames.values()))
    if crop is None:
        return None
    x, y, width, height = crop
    # Wider or taller than the box at 1×: keep the top (a note's text starts there).
    return (x, y, min(width, PICTURE_BOX[0]), min(height, PICTURE_BOX[1]))


def _popout_crop(picture: StepResult) -> Box | None:
    """The popped-out window's top (its banner and the note) at 1× at least."""
    boxes = [box for name, box in picture.regions.items() if name.startswith(POPOUT_REGION)]
    found = _union(boxes)
    if found is None:
        return None
    x, y, width, height = found
    return (x, y, width, min(height, PICTURE_BOX[1]))


def _pictured(steps: Sequence[StepResult]) -> StepResult | None:
    shots = [step for step in steps if step.screenshot]
    return shots[-1] if shots else None


def _acts(steps: Sequence[StepResult]) -> bool:
    return any(step.verb not in ("caption", "expect") for step in steps)


def _spoken_of(top: Sequence[StepResult], captions: Sequence[int], order: int) -> list[StepResult]:
    """The steps a caption speaks of: those after it up to the next caption; when those only
    check (a caption written after its steps), the ones since the caption before it."""
    position = captions[order]
    end = captions[order + 1] if order + 1 < len(captions) else len(top)
    after = [step for step in top[position + 1 : end] if step.verb != "caption"]
    if _acts(after):
        return after
    start = captions[order - 1] + 1 if order > 0 else 0
    earlier = [step for step in top[start:position] if step.verb != "caption"]
    return earlier if _acts(earlier) else after


def _detail(steps: Sequence[StepResult], sends: dict[str, SendRecord]) -> list[str]:
    lines: list[str] = []
    for step in steps:
        lines.append(f"Step {step.number} ({step.status}): {step.summary}")
        send = sends.get(step.number)
        if send is not None:
            carried = json.dumps(send.pointer, ensure_ascii=False) if send.pointer else "none"
            lines.append(f"  X-Ambient-Note: {carried} (dropped: {send.dropped})")
            lines.append(f"  tools: {', '.join(send.tools) or 'none'}")
            lines += [f"  beside the reply: {notice}" for notice in send.notices]
    return lines


def build_slides(results: Sequence[ScenarioResult]) -> list[Slide]:
    """The deck: per scenario a title slide, then one slide a caption (and its pop-out's)."""
    slides: list[Slide] = []
    for index, result in enumerate(results, start=1):
        top = [step for step in result.steps if "." not in step.number]
        sends = {send.step: send for send in result.sends}
        description = (result.description or "").strip()
        rules = ", ".join(result.rules)
        slides.append(
            Slide(
                title=result.name,
                kicker=f"Part {index} of {len(results)}" + (f" · {rules}" if rules else ""),
                notes=[description] if description else [],
            )
        )
        captions = [position for position, step in enumerate(top) if step.verb == "caption"]
        for order, position in enumerate(captions):
            covered = _spoken_of(top, captions, order)
            first = top.index(covered[0]) if covered else position
            before = _pictured(top[:first])
            after = _pictured(covered) or before
            if before is not None and after is not None and before.screenshot == after.screenshot:
                before = None  # nothing changed on screen: one picture, no "before"
            kicker = f"{result.name} · {order + 1} of {len(captions)}"
            crop = choose_crop(covered, after) if after is not None else None
            slides.append(
                Slide(
                    title=top[position].summary,
                    kicker=kicker,
                    notes=[top[position].summary, *(f"Step: {step.summary}" for step in covered)],
                    before=before,
                    after=after,
                    crop=crop,
                    detail=_detail(covered, sends),
                    with_chip=any(step.verb == "send" for step in covered),
                )
            )
            popout = _popout_crop(after) if after is not None else None
            if popout is not None and any(step.verb == "popout" for step in covered):
                slides.append(
                    Slide(
                        title="Beside it, the popped-out window: its own process and assistant",
                        kicker=kicker,
                        notes=["The same moment, in the popped-out note's own window."],
                        after=after,
                        crop=popout,
                    )
                )
    return slides


_CSS = """
html, body { margin: 0; height: 100%; background: #111318; overflow: hidden;
  font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
#stage { position: absolute; left: 0; top: 0; width: 1280px; height: 720px;
  transform-origin: 0 0; }
.slide { display: none; position: absolute; inset: 0; background: #fafbfc; color: #1f2430;
  padding: 22px 40px 0; box-sizing: border-box; }
.slide.current { display: block; }
.kicker { font-size: 18px; color: #4a5263; margin: 0; }
h1 { font-size: 34px; line-height: 1.2; margin: 6px 0 12px; }
.slide.title h1 { font-size: 52px; margin-top: 200px; }
.slide.title .lead { font-size: 26px; line-height: 1.4; color: #2c3342; max-width: 1100px; }
.pictures { position: relative; height: 520px; }
.state { position: absolute; left: 0; top: 0; display: none; }
.state.shown { display: block; }
.label { display: inline-block; font-size: 18px; font-weight: 700; padding: 2px 12px;
  border-radius: 12px; margin-bottom: 6px; }
.label.before { background: #eceef2; color: #4a5263; }
.label.after { background: #dcf3e2; color: #135c2a; }
.crop { overflow: hidden; position: relative; border: 2px solid #c9ced8; border-radius: 4px;
  background: #fff; }
.crop img { position: absolute; max-width: none; image-rendering: auto; }
details.tech { position: absolute; right: 40px; bottom: 14px; max-width: 700px;
  font-size: 14px; color: #4a5263; background: #fff; border: 1px solid #d5d9e0;
  border-radius: 4px; padding: 2px 8px; }
details.tech pre { white-space: pre-wrap; max-height: 300px; overflow: auto; margin: 4px 0;
  font: 13px/1.35 ui-monospace, monospace; }
.notes { display: none; position: absolute; left: 0; right: 0; bottom: 0; background: #20242c;
  color: #f1f3f6; font-size: 20px; line-height: 1.4; padding: 12px 40px; max-height: 300px;
  overflow: auto; }
body.speaker .notes { display: block; }
.help { position: absolute; left: 40px; bottom: 16px; font-size: 14px; color: #6a7181; }
"""

_SCRIPT = """
(function () {
  const slides = Array.from(document.querySelectorAll('.slide'));
  let index = 0, step = 0;
  function states(slide) { return Array.from(slide.querySelectorAll('.state')); }
  function show() {
    slides.forEach((slide, i) => slide.classList.toggle('current', i === index));
    const shown = states(slides[index]);
    shown.forEach((state, i) => state.classList.toggle('shown', i === step));
    location.hash = '#' + (index + 1) + (shown.length > 1 ? '.' + (step + 1) : '');
  }
  function forward() {
    if (step + 1 < states(slides[index]).length) { step++; }
    else if (index + 1 < slides.length) { index++; step = 0; }
    show();
  }
  function back() {
    if (step > 0) { step--; }
    else if (index > 0) { index--; step = Math.max(0, states(slides[index]).length - 1); }
    show();
  }
  function fit() {
    const scale = Math.min(innerWidth / 1280, innerHeight / 720);
    const stage = document.getElementById('stage');
    stage.style.transform = 'scale(' + scale + ')';
    stage.style.left = ((innerWidth - 1280 * scale) / 2) + 'px';
    stage.style.top = ((innerHeight - 720 * scale) / 2) + 'px';
  }
  document.addEventListener('keydown', (event) => {
    if (['ArrowRight', 'PageDown', ' ', 'Enter'].includes(event.key)) { forward(); }
    else if (['ArrowLeft', 'PageUp', 'Backspace'].includes(event.key)) { back(); }
    else if (event.key === 's' || event.key === 'S') { document.body.classList.toggle('speaker'); }
    else if (event.key === 'Home') { index = 0; step = 0; show(); }
    else if (event.key === 'End') { index = slides.length - 1; step = 0; show(); }
    else { return; }
    event.preventDefault();
  });
  const wanted = /^#(\\d+)(?:\\.(\\d+))?$/.exec(location.hash);
  if (wanted) {
    index = Math.min(slides.length - 1, Math.max(0, Number(wanted[1]) - 1));
    step = wanted[2] ? Number(wanted[2]) - 1 : 0;
    step = Math.min(step, Math.max(0, states(slides[index]).length - 1));
  }
  addEventListener('resize', fit);
  fit();
  show();
})();
"""


def _picture(
    step: StepResult, crop: Box | None, base: Path, label: str, under: Box | None = None
) -> str:
    """The crop of ``step``'s picture (and ``under`` it, a second crop), zoomed to fit."""
    assert step.screenshot is not None
    source = Path(os.path.relpath(step.screenshot, base)).as_posix()
    alt = f"The window {label.lower()}: {step.summary}"
    full_width, full_height = png_size(Path(step.screenshot))
    parts = [crop if crop is not None else (0, 0, full_width, full_height)]
    if under is not None:
        parts.append(under)
    width = max(part[2] for part in parts)
    height = sum(part[3] for part in parts) + _GAP * (len(parts) - 1)
    zoom = min(PICTURE_BOX[0] / width, PICTURE_BOX[1] / height, MAX_ZOOM)
    boxes = []
    for x, y, part_width, part_height in parts:
        boxes.append(
            f'<div class="crop" style="width:{round(part_width * zoom)}px;'
            f'height:{round(part_height * zoom)}px;margin-bottom:{_GAP}px">'
            f'<img src="{_e(source)}" alt="{_e(alt)}" style="left:{-round(x * zoom)}px;'
            f'top:{-round(y * zoom)}px;width:{round(full_width * zoom)}px"></div>'
        )
    return "".join(boxes)


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its header (IHDR comes first)."""
    with path.open("rb") as file:
        header = file.read(24)
    return struct.unpack(">II", header[16:24])


def _slide_html(number: int, slide: Slide, base: Path) -> list[str]:
    is_title = slide.after is None
    css = "slide title" if is_title else "slide"
    lines = [f'<section class="{css}" id="slide-{number}">']
    lines.append(f'<p class="kicker">{_e(slide.kicker)}</p>')
    lines.append(f"<h1>{_e(slide.title)}</h1>")
    if is_title:
        if slide.notes:
            lines.append(f'<p class="lead">{_e(slide.notes[0])}</p>')
    else:
        lines.append('<div class="pictures">')
        shown = [("Before", slide.before), ("After", slide.after)]
        for label, step in shown:
            if step is None or step.screenshot is None:
                continue
            tag = f'<span class="label {label.lower()}">{label}</span>'
            if slide.before is None:
                tag = ""
            under = _box(step.regions.get(CHIP_REGION)) if slide.with_chip else None
            picture = _picture(step, slide.crop, base, label, under)
            lines.append(f'<div class="state">{tag}{picture}</div>')
        lines.append("</div>")
    if slide.detail:
        lines.append(
            '<details class="tech"><summary>Technical detail</summary>'
            f"<pre>{_e(chr(10).join(slide.detail))}</pre></details>"
        )
    if number == 1:
        lines.append('<p class="help">→ / ← to step · S speaker notes</p>')
    notes = "".join(f"<p>{_e(note)}</p>" for note in slide.notes) or "<p>(no notes)</p>"
    lines.append(f'<aside class="notes">{notes}</aside>')
    lines.append("</section>")
    return lines


def slides_html(results: Sequence[ScenarioResult], title: str, base: Path) -> str:
    deck = [Slide(title=title, kicker="Ambient Notes", notes=[_opening(results)])]
    deck += build_slides(results)
    lines = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        # Its own pictures beside it and its inline style and script; nothing else loads.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "img-src 'self' file:; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">",
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        '<div id="stage">',
    ]
    for number, slide in enumerate(deck, start=1):
        lines += _slide_html(number, slide, base)
    lines += ["</div>", f"<script>{_SCRIPT}</script>", "</body></html>"]
    return "\n".join(lines) + "\n"


def _opening(results: Sequence[ScenarioResult]) -> str:
    passed = sum(result.passed for result in results)
    return (
        f"{len(results)} short scenes, each replayed on the real app window ({passed} of "
        f"{len(results)} passed): what the assistant means by “this note”, and what it sends."
    )


def write_slides(results: Sequence[ScenarioResult], path: Path, title: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(xml_text(slides_html(results, title, path.parent)), encoding="utf-8")
