"""Hostile inputs against ordinary ones of the same size, through real HTTP (R39, R40).

For each adversarial note, a "summarise this" turn that reads it (the assistant's
default 64 KiB read, parsed and summarised) over the same turn on an ordinary note
of the same size; for each adversarial message, a turn carrying it over a turn
carrying ordinary text of the same size. The everyday asks of R83 (an edit that reads
256 KiB, a question matched against the note's lines) are timed the same way on a
note of 20,000 tasks and on a 5 MiB note whose every line holds the question's words,
against the same ask on an ordinary note of the same size; and their messages (an ask
of 4,000 characters, stop words only, an edit word repeated) against an ordinary
message. Target: every ratio <= 2.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import requests

from benchmarks.backend import backend, pointer_header, post_turn, write_notes
from benchmarks.measure import Measurement, median, paired_ratios
from workers.server import EmbeddedServer
from workers.settings import Settings

WORKSPACE = "bench"
NOTE_BYTES = 64 * 1024  # what a turn reads by default
LINE_BYTES = 1024 * 1024 - 1024  # one line, just under the 1 MiB body limit with its JSON
MESSAGE_BYTES = 40_000
TARGET = 2.0

ORDINARY_NOTE = (
    "# Launch plan\n\nShip the beta to the first fifty teams before the end of the month. "
    "Learn which parts of onboarding confuse people.\n\n## Tasks\n- [ ] Invite ten teams\n"
    "- [x] Freeze features\n> Keep a shared inbox and a rota.\n\n"
)
ORDINARY_MESSAGE = "please tell me what is in this note and what is still open "


def _fill(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _nested(size: int) -> str:
    lines: list[str] = []
    total = depth = 0
    while total < size:
        line = "  " * depth + "- [ ] item\n"
        lines.append(line)
        total += len(line)
        depth += 1
    return "".join(lines)[:size]


ADVERSARIAL_NOTES: dict[str, Callable[[int], str]] = {
    "'# a' + spaces + 'b'": lambda n: ("# a" + " " * n)[: n - 1] + "b",
    "runs of '*'": lambda n: "*" * n,
    "'*a' repeated": lambda n: _fill("*a", n),
    "backticks": lambda n: _fill("`a``", n),
    "'[ ]' repeated": lambda n: _fill("[ ]", n),
    "runs of '['": lambda n: "[" * n,
    "'> ' nesting": lambda n: _fill("> ", n),
    "nested lists": _nested,
}
ADVERSARIAL_MESSAGES: dict[str, Callable[[int], str]] = {
    "'list ' * N": lambda n: _fill("list ", n),
    "runs of '*'": lambda n: "*" * n,
    "backticks": lambda n: "`" * n,
    "'[ ]' repeated": lambda n: _fill("[ ]", n),
    "'> ' nesting": lambda n: _fill("> ", n),
    "'where do I mention' + one long word": lambda n: ("where do I mention " + "a" * n)[:n],
    # R83: the everyday asks' own words, at any length (only the first 4,096 are read).
    "stop words only": lambda n: _fill("the of a is to and ", n),
    "'mark the second task done' + distinct words": lambda n: _fill(
        "mark the second task done " + " ".join(f"w{index}" for index in range(n // 4)), n
    ),
    "'what time is the' * N + '?'": lambda n: _fill("what time is the ", n - 1) + "?",
    "'add ' + one long word": lambda n: ("add " + "a" * n)[:n],
    "'move it to the top ' * N": lambda n: _fill("move it to the top ", n),
    "'締め切りはいつ' * N": lambda n: _fill("締め切りはいつ", n // 3),  # 3 bytes a character
}
TASKS = 20_000
BIG_NOTE_BYTES = 5 * 1024 * 1024
EVERYDAY_ASKS: dict[str, Callable[[int], str]] = {
    # The subject note of each everyday ask, made to the size asked; the floor is the
    # ordinary note filled to the same size.
    "mark the second task done": lambda _n: (
        "# Tasks\n\n"
        + "".join(f"- [ ] task number {index} about things\n" for index in range(TASKS))
    ),
    "move the last task to the top": lambda _n: (
        "# Tasks\n\n"
        + "".join(f"- [ ] task number {index} about things\n" for index in range(TASKS))
    ),
    "what time is the standup?": lambda n: _fill("The standup moved to 9:30 on Friday.\n", n),
}
EVERYDAY_SIZES = {
    "mark the second task done": 0,
    "move the last task to the top": 0,
    "what time is the standup?": BIG_NOTE_BYTES,
}
"""0: the size of the 20,000-task note itself."""


class _Turns:
    def __init__(self, server: EmbeddedServer, session: requests.Session, root: Path) -> None:
        self.server, self.session, self.root = server, session, root

    def _post(self, message: str, pointer: str) -> requests.Response:
        response = post_turn(
            self.server, self.session, "bench-adversarial", message, pointer=pointer, timeout=600
        )
        assert response.status_code == 200, response.text
        return response

    def on_note(self, name: str, text: str, message: str = "summarise this") -> Callable[[], None]:
        (self.root / name).write_text(text, encoding="utf-8")
        pointer = pointer_header(name, text)

        def turn() -> None:
            answer = self._post(message, pointer)
            assert answer.json()["toolCalls"][0]["name"] == "read_active_note"

        return turn

    def with_message(self, message: str) -> Callable[[], None]:
        pointer = pointer_header("ordinary.md", ORDINARY_NOTE)

        def turn() -> None:
            self._post(message, pointer)

        return turn


def _measure(name: str, subject: Callable[[], None], floor: Callable[[], None]) -> Measurement:
    subject()  # warm both paths, and fail loudly before timing if either is broken
    floor()
    ratios = paired_ratios(subject, floor)
    return Measurement(name=name, median=median(ratios), target=TARGET, samples=ratios)


def run() -> list[Measurement]:
    results: list[Measurement] = []
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(data_dir=Path(folder))
        root = write_notes(settings, WORKSPACE, {"ordinary.md": ORDINARY_NOTE})
        with backend(settings, WORKSPACE) as (server, session):
            turns = _Turns(server, session, root)
            floor = turns.on_note("ordinary-64k.md", _fill(ORDINARY_NOTE, NOTE_BYTES))
            for index, (label, make) in enumerate(ADVERSARIAL_NOTES.items()):
                subject = turns.on_note(f"adversarial-{index}.md", make(NOTE_BYTES))
                results.append(
                    _measure(f"adversarial note {label} (64 KiB) vs ordinary", subject, floor)
                )
            line_floor = turns.on_note("ordinary-line.md", _fill("word ", LINE_BYTES))
            line_subject = turns.on_note("adversarial-line.md", _fill("*a[`", LINE_BYTES))
            results.append(
                _measure("adversarial note: one 1 MiB line vs ordinary", line_subject, line_floor)
            )
            message_floor = turns.with_message(_fill(ORDINARY_MESSAGE, MESSAGE_BYTES))
            for label, make in ADVERSARIAL_MESSAGES.items():
                subject = turns.with_message(make(MESSAGE_BYTES))
                results.append(
                    _measure(
                        f"adversarial message {label} (40 kB) vs ordinary", subject, message_floor
                    )
                )
            results.append(
                _measure(
                    "adversarial message: one 1 MiB line vs ordinary",
                    turns.with_message(_fill("*a[`", LINE_BYTES)),
                    turns.with_message(_fill(ORDINARY_MESSAGE, LINE_BYTES)),
                )
            )
            # Last: the big notes would be in the workspace of every gate after them (an ask
            # that says no "this" looks for a note it names by title among them all).
            for index, (ask, make) in enumerate(EVERYDAY_ASKS.items()):
                text = make(EVERYDAY_SIZES[ask])
                size = len(text)
                subject = turns.on_note(f"everyday-{index}.md", text, ask)
                floor_note = turns.on_note(
                    f"everyday-floor-{index}.md", _fill(ORDINARY_NOTE, size), ask
                )
                label = (
                    f"{size / 1024 / 1024:.1f} MiB" if size > NOTE_BYTES * 16 else "20,000 tasks"
                )
                results.append(
                    _measure(f"everyday ask {ask!r} on {label} vs ordinary", subject, floor_note)
                )
    return results
