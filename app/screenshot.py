"""``python -m app.screenshot FILE.png``: render the demo window after some turns, for the README.

Runs offscreen against a throwaway embedded backend and demo workspace, so the
user's own data folder is never touched. Each ``--message`` is one turn, sent in
order once the one before has its reply; ``--part assistant`` grabs the
assistant frame alone (its answers readable at full size) instead of the whole
window. With ``--model-base-url`` and ``--model`` the embedded backend answers
with that model (contract 7); ``--first-tool`` makes the model's first request
of the turn name that tool, so a very small model gives a repeatable picture of
a tool call (the app itself always lets the model choose).

The README's pictures are made by ``make screenshots``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from app.window.main_window import MainWindow
    from renderer.ambient.turns import TurnRecord

SETTLE_TIMEOUT_SECONDS = 90.0  # a small local model on a busy CPU takes a while to load
WINDOW_SIZE = (1360, 820)
DEFAULT_MESSAGE = "what's still open here?"

Part = Literal["window", "assistant"]


@dataclass
class Shot:
    """What to show: the turns to send, a selection, which part to grab and at what size."""

    messages: list[str] = field(default_factory=lambda: [DEFAULT_MESSAGE])
    select: tuple[int, int] | None = None  # characters of the first note, start and end
    details: bool = True  # the last turn's details open
    part: Part = "window"
    size: tuple[int, int] = WINDOW_SIZE


def capture(window: MainWindow, shot: Shot, output: Path) -> list[TurnRecord]:
    """Send ``shot``'s turns in the demo window and save the picture; the turns' records.

    The first Inbox frame is "this note"; a second one shows its mindmap view.
    """
    from PySide6.QtCore import QTimer

    from app.scenario.waiting import wait_until
    from bridge.views import MINDMAP
    from renderer.frames.assistant.turn_view import TurnView

    def settle(ready: Callable[[], bool], what: str) -> None:
        wait_until(ready, timeout=SETTLE_TIMEOUT_SECONDS, what=what)

    window.resize(*shot.size)
    window.show()
    frames = window.driver.inbox_frames()
    settle(lambda: all(frame.is_loaded for frame in frames), "the notes to load")
    if len(frames) > 1:
        frames[1].set_view(MINDMAP)
    window.driver.activate_frame(frames[0].frame_id)
    if shot.select is not None:
        frames[0].select(*shot.select)
    assistant = window.assistant
    for number, message in enumerate(shot.messages, start=1):
        assistant.send(message)
        settle(lambda n=number: len(assistant.records) >= n, f"turn {number} to finish")  # type: ignore[misc]
    turns = assistant.transcript.findChildren(TurnView)
    if turns and shot.details:
        turns[-1].details_button.setChecked(True)
    assistant.transcript_view.scroll_to_end()
    # scroll_to_end scrolls from a zero-delay timer; one started after it fires after it.
    scrolled: list[bool] = []
    QTimer.singleShot(0, lambda: scrolled.append(True))
    settle(lambda: bool(scrolled), "the transcript to scroll to the latest turn")
    widget = window if shot.part == "window" else assistant
    output.parent.mkdir(parents=True, exist_ok=True)
    if not widget.grab().save(str(output)):
        raise OSError(f"Could not write {output}.")
    return list(assistant.records)


def _size(text: str) -> tuple[int, int]:
    width, _, height = text.partition("x")
    try:
        return int(width), int(height)
    except ValueError:
        raise argparse.ArgumentTypeError(f"“{text}” is not WIDTHxHEIGHT, e.g. 1360x820") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.screenshot")
    parser.add_argument("output", type=Path, help="the PNG to write")
    parser.add_argument(
        "--message",
        action="append",
        metavar="TEXT",
        help=f"a turn to send (repeat for several; default {DEFAULT_MESSAGE!r})",
    )
    parser.add_argument(
        "--select",
        nargs=2,
        type=int,
        metavar=("START", "END"),
        help="select these characters of the first note before sending",
    )
    parser.add_argument("--no-details", action="store_true", help="keep every turn's details shut")
    parser.add_argument("--part", choices=["window", "assistant"], default="window")
    parser.add_argument("--size", type=_size, default=WINDOW_SIZE, metavar="WIDTHxHEIGHT")
    parser.add_argument("--model-base-url", metavar="URL")
    parser.add_argument("--model", metavar="NAME")
    parser.add_argument("--first-tool", default="auto", metavar="NAME")
    parser.add_argument(
        "--scheme",
        choices=["light", "dark"],
        help="the colour scheme to draw in (default: the system's, light offscreen)",
    )
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtWidgets import QApplication

    from app.session import AppSession, SessionOptions
    from app.window.main_window import MainWindow
    from app.window.style import follow_system_scheme

    shot = Shot(
        messages=args.message or [DEFAULT_MESSAGE],
        select=None if args.select is None else (args.select[0], args.select[1]),
        details=not args.no_details,
        part=args.part,
        size=args.size,
    )
    application = QApplication.instance() or QApplication(sys.argv[:1])
    if args.scheme is not None:
        follow_system_scheme().choose(args.scheme)  # R82: the window as a dark desktop shows it
    with tempfile.TemporaryDirectory(prefix="ambient-screenshot-") as folder:
        session = AppSession.start(
            SessionOptions(
                backend_url=None,
                workspace_dir=None,
                data_dir=Path(folder),
                model_first_tool_choice=args.first_tool,
                model_base_url=args.model_base_url,
                model=args.model,
            )
        )
        window = MainWindow(session)
        try:
            capture(window, shot, args.output)
        except OSError as error:
            print(error, file=sys.stderr)
            return 1
        finally:
            window.close()
            window.deleteLater()
            session.close()
    del application
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
