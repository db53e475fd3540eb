"""``make bench-peer``: the app side by side with ReText 8.1.0, what a person would compare.

ReText (PyQt6, Python-Markdown) is the Markdown editor people install instead. It is
installed into an environment of its own, :data:`PEER_VENV` (ignored by git, never a
dependency of the project), from the pins in ``peer-requirements.txt``, and driven by
``benchmarks/peer_retext.py``. Three measures, each a ratio app / ReText, sides
alternated round by round, every round a fresh process on each side:

1. start-up to the note's text painted, from spawn (the demo workspace's first note,
   opened in both): the app's ``--quit-when-ready`` line against ReText's first paint of
   its editor with the file's text (see ``peer_retext.py``); target ≤ 1.0;
2. idle memory: PSS of every process of each side, :data:`~benchmarks.measure.SETTLE_MS`
   after that note shows (ReText runs a converter process and multiprocessing's resource
   tracker, the app its window's process); target ≤ 1.0;
3. a 5 MiB note's preview fully drawn, from the switch to the preview in a window that
   shows the note: the app's preview drawn (:class:`InboxFrame` renders done) against
   ReText's ``setHtml`` of its converted HTML returned and painted; target ≤ 0.6.

Both run offscreen (``QT_QPA_PLATFORM=offscreen``) on one 1400×900 screen, in windows
of the app's own size (1360×820): no X server or compositor whose load would fall on
one side more than the other, and nothing to install beyond the two apps.

    python -m benchmarks.peer [--rounds 5] [--out out/bench/peer.json]
    python -m benchmarks.peer app-preview FILE    (one app side: prints seconds)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Final

from benchmarks import gate
from benchmarks.measure import (
    Measurement,
    alternating_pairs,
    child_figure,
    median,
    offscreen_environment,
    ratio,
)

REPOSITORY: Final = Path(__file__).resolve().parent.parent
PEER_VENV: Final = REPOSITORY / ".bench-peer" / "venv"
PEER_PYTHON: Final = PEER_VENV / "bin" / "python"
PEER_REQUIREMENTS: Final = Path(__file__).with_name("peer-requirements.txt")
PEER_SIDE: Final = Path(__file__).with_name("peer_retext.py")
RESULTS_PATH: Final = Path("out/bench/peer.json")

START_TARGET: Final = 1.0
IDLE_TARGET: Final = 1.0
PREVIEW_TARGET: Final = 0.6
ROUNDS: Final = 5
WINDOW_SIZE: Final = (1360, 820)
"""The app's main window at its first start (``MainWindow``): ReText's is made the same."""
SCREEN: Final = {"width": 1400, "height": 900, "logicalDpi": 96, "logicalBpi": 96, "dpr": 1}
MIB: Final = 1024 * 1024
PREVIEW_NOTE_BYTES: Final = 5 * MIB
TIMEOUT_SECONDS: Final = 300


def install_peer() -> None:
    """Make :data:`PEER_VENV` with ReText in it, once (again when the pins change)."""
    stamp = PEER_VENV / ".installed"
    pins = PEER_REQUIREMENTS.read_text(encoding="utf-8")
    if stamp.is_file() and stamp.read_text(encoding="utf-8") == pins:
        return
    print(f"installing ReText into {PEER_VENV.relative_to(REPOSITORY)} (once) ...", flush=True)
    base = getattr(sys, "_base_executable", sys.executable)  # not this project's venv
    subprocess.run([base, "-m", "venv", "--clear", str(PEER_VENV)], check=True)
    subprocess.run(
        [
            str(PEER_PYTHON),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
            str(PEER_REQUIREMENTS),
        ],
        check=True,
    )
    stamp.write_text(pins, encoding="utf-8")


def run(rounds: int = ROUNDS) -> list[Measurement]:
    from app.workspace.demo import DEMO_FRAMES, DEMO_WORKSPACE
    from benchmarks.bench_idle import _side as app_idle_side
    from benchmarks.bench_startup import _app_command, _time_until_ready
    from benchmarks.bench_views import note_text

    with tempfile.TemporaryDirectory(prefix="bench-peer-") as folder:
        root = Path(folder)
        screen = root / "screen.json"
        screen.write_text(json.dumps({"screens": [{"name": "peer", **SCREEN}]}), "utf-8")
        os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={screen}"
        data_dir = root / "data"
        _time_until_ready(_app_command(data_dir))  # the first start makes the data folder
        note = data_dir / "workspaces" / DEMO_WORKSPACE / DEMO_FRAMES[0][1]
        big_note = root / "5MiB.md"
        big_note.write_text(note_text(PREVIEW_NOTE_BYTES), encoding="utf-8")
        peer_environment = _peer_environment(root)

        def app_start() -> float:
            return _time_until_ready(_app_command(data_dir))[1]

        def peer_start() -> float:
            return _time_until_ready(_peer_command("start", note), peer_environment)[1]

        start = alternating_pairs(app_start, peer_start, repeat=rounds)
        idle = alternating_pairs(
            lambda: float(app_idle_side("app", str(data_dir))),
            lambda: _peer_number("idle", note, peer_environment),
            repeat=rounds,
        )
        preview = alternating_pairs(
            lambda: _app_preview_side(big_note),
            lambda: _peer_number("preview", big_note, peer_environment),
            repeat=rounds,
        )
    return [
        _measurement("start-up to the note's text painted / ReText", start, START_TARGET, "s"),
        _measurement("idle memory, PSS of all processes / ReText", idle, IDLE_TARGET, "MiB"),
        _measurement("5 MiB preview fully drawn / ReText", preview, PREVIEW_TARGET, "s"),
    ]


def _measurement(
    name: str, values: tuple[list[float], list[float]], target: float, unit: str
) -> Measurement:
    app_values, peer_values = values
    ratios = [ratio(a, p) for a, p in zip(app_values, peer_values, strict=True)]
    scale = MIB if unit == "MiB" else 1.0
    return Measurement(
        name=name,
        median=median(ratios),
        target=target,
        samples=ratios,
        details={
            f"app_{unit}": round(median(app_values) / scale, 3),
            f"retext_{unit}": round(median(peer_values) / scale, 3),
        },
    )


def _peer_environment(root: Path) -> dict[str, str]:
    """ReText's settings and cache in throwaway folders: its defaults, no earlier session's."""
    environment = offscreen_environment()
    environment.update(
        XDG_CONFIG_HOME=str(root / "peer-config"),
        XDG_CACHE_HOME=str(root / "peer-cache"),
        DBUS_SESSION_BUS_ADDRESS="disabled:",  # no bus: always a window of its own
    )
    return environment


def _peer_command(mode: str, note: Path) -> list[str]:
    width, height = WINDOW_SIZE
    return [str(PEER_PYTHON), str(PEER_SIDE), mode, str(note), "--size", f"{width}x{height}"]


def _peer_number(mode: str, note: Path, environment: dict[str, str]) -> float:
    """The number ReText's side prints last (bytes or seconds).

    ReText (PyQt6) sometimes crashes as it exits after a 5 MiB preview; the number was
    printed before, so it counts, and the crash is said.
    """
    completed = subprocess.run(
        _peer_command(mode, note),
        capture_output=True,
        text=True,
        env=environment,
        timeout=TIMEOUT_SECONDS,
        check=False,
    )
    words = completed.stdout.split()
    try:
        number = float(words[-1])
    except (IndexError, ValueError):
        raise RuntimeError(f"ReText's {mode} side printed no figure: {completed.stderr}") from None
    if completed.returncode != 0:
        print(f"ReText's {mode} side exited {completed.returncode} after its figure", flush=True)
    return number


def _app_preview_side(note: Path) -> float:
    command = [sys.executable, "-m", "benchmarks.peer", "app-preview", str(note)]
    return child_figure(command, TIMEOUT_SECONDS)


def app_preview(note: Path) -> float:
    """In this process: the app's window showing ``note``, then seconds to its preview drawn."""
    from PySide6.QtWidgets import QApplication

    from benchmarks.bench_views import _mount, _start, _wait

    application = QApplication([])
    with tempfile.TemporaryDirectory(prefix="bench-peer-app-") as folder:
        session, window = _start(Path(folder), {"notes/big.md": note.read_text("utf-8")})
        try:
            window.resize(*WINDOW_SIZE)
            frame = _mount(window, "inbox-1", "notes/big.md")
            frame.repaint()
            started = time.perf_counter()
            frame.set_view("preview")
            _wait(lambda: not frame.renders.busy)
            frame.repaint()
            seconds = time.perf_counter() - started
        finally:
            window.close()
            session.close()
    del application
    return seconds


def main(argv: list[str]) -> int:
    if argv[:1] == ["app-preview"] and len(argv) == 2:
        print(app_preview(Path(argv[1])))
        return 0
    parser = argparse.ArgumentParser(prog="python -m benchmarks.peer", description=__doc__)
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="rounds of each measure")
    parser.add_argument("--out", type=Path, default=RESULTS_PATH, help="the results file")
    arguments = parser.parse_args(argv)
    install_peer()
    measurements = run(max(1, arguments.rounds))
    gate.write_results(arguments.out, measurements)
    print("\n" + gate.table(measurements) + f"\n\nwrote {arguments.out}")
    missed = gate.misses(measurements)
    for line in missed:
        print(f"  MISSED {line}", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
