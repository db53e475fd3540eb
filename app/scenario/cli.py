"""``python -m app scenario run|record|demo``: replays, records and tours QA scenarios.

Exit codes of ``run`` and ``demo`` (contract section 1): 0 every scenario
passed, 1 any failed, 2 a file could not be read or validated (nothing ran).
``run`` also exits 2 when ``-k``/``--rules`` select nothing, so a mistyped filter
is not a green run. Its reports (R79): ``--report`` JSON, ``--junit`` XML for CI,
``--html`` one self-contained page for people.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Final, TextIO

from app.scenario.html_report import wants_picture, write_html_report
from app.scenario.junit import write_junit
from app.scenario.model import load_all
from app.scenario.problems import Problem, ScenarioFileError
from app.scenario.report import (
    ScenarioResult,
    StepResult,
    write_json_report,
    write_markdown_report,
)
from app.scenario.selection import describe_selection, load_each, rule_names, select

EXIT_PASSED = 0
EXIT_FAILED = 1
EXIT_INVALID = 2

REPO_ROOT = Path(__file__).resolve().parents[2]
DEMO_SCENARIOS = REPO_ROOT / "scenarios" / "demo"
DEMO_OUT = Path("out") / "demo"
DEMO_TITLE = "Ambient Notes — the guided tour"
ANIMATION_NAME = "popout-limitation.webp"
"""Written by ``make demo``; the README shows a copy kept in ``docs/``."""
RUN_TITLE = "Ambient Notes — QA scenario run"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m app scenario",
        description="Replay, record or tour QA scenarios (YAML; JSON is accepted as YAML).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = commands.add_parser("run", help="replay scenario files offscreen, each on a fresh app")
    run.add_argument("files", nargs="+", type=Path, metavar="FILE", help="scenario files/folders")
    run.add_argument("--report", type=Path, metavar="FILE.json", help="write a JSON report")
    run.add_argument("--screenshots", type=Path, metavar="DIR", help="save a PNG after each step")
    run.add_argument("--junit", type=Path, metavar="FILE.xml", help="write a JUnit XML report")
    run.add_argument(
        "--html", type=Path, metavar="FILE.html", help="write one self-contained HTML report"
    )
    run.add_argument(
        "-k",
        dest="keywords",
        action="append",
        default=[],
        metavar="TEXT",
        help="run only scenarios whose name or file contains TEXT (any case; repeat: any of them)",
    )
    run.add_argument(
        "--rules",
        type=rule_names,
        action="extend",
        default=[],
        metavar="R29",
        help="run only scenarios naming this rule in their rules: line (R29,R38: any of them)",
    )

    record = commands.add_parser("record", help="use the app; write what you did as a scenario")
    record.add_argument("file", type=Path, metavar="FILE", help="where to write the scenario")
    record.add_argument("--name", help="the scenario's name (default: the file name)")
    record.add_argument(
        "--workspace", type=Path, metavar="DIR", help="start from a copy of this folder's notes"
    )

    demo = commands.add_parser("demo", help="replay the demo tour; write screenshots and a report")
    demo.add_argument("--scenarios", type=Path, default=DEMO_SCENARIOS, metavar="DIR")
    demo.add_argument("--out", type=Path, default=DEMO_OUT, metavar="DIR")
    return parser


_UNPRINTABLE: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
"""Control characters (ESC starts the terminal's own commands) and lone surrogates."""


def terminal_safe(text: str) -> str:
    """``text`` with what a terminal would obey, or cannot encode, written as escapes (R93)."""
    return _UNPRINTABLE.sub(lambda found: f"\\x{{{ord(found[0]):x}}}", text)


class _TerminalSafe(io.TextIOBase):
    """A text stream that escapes, on the way to ``stream``, what :func:`terminal_safe` does."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(terminal_safe(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m app scenario``; returns the exit code.

    File names, frame ids and step texts come from the scenario files: everything it
    prints goes through :func:`terminal_safe`, so a file cannot clear a CI log or set
    a terminal's title.
    """
    with (
        contextlib.redirect_stdout(_TerminalSafe(sys.stdout)),
        contextlib.redirect_stderr(_TerminalSafe(sys.stderr)),
    ):
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(list(sys.argv[1:] if argv is None else argv))
    # ``run``'s files may follow its options too (``--junit X.xml DIR``, as make passes them).
    unknown = [item for item in extra if item.startswith("-") or args.command != "run"]
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if extra:
        args.files += [Path(item) for item in extra]
    if args.command == "run":
        return _run(args)
    if args.command == "demo":
        return _demo(args.scenarios, args.out)
    return _record(args.file, name=args.name, workspace=args.workspace)


def _run(args: argparse.Namespace) -> int:
    files: list[Path] = args.files
    loaded = load_each(files)
    if loaded.invalid:
        for problems in loaded.invalid.values():
            for problem in problems:
                print(problem, file=sys.stderr)
        # Nothing runs (contract section 1); the reports still say which files were wrong.
        not_run = [(scenario.name, scenario.label) for scenario in loaded.scenarios]
        _write_reports(args, [], invalid=loaded.invalid, not_run=not_run)
        return EXIT_INVALID
    if not loaded.scenarios:
        print("No scenario files found in: " + ", ".join(map(str, files)), file=sys.stderr)
        return EXIT_INVALID
    scenarios = select(loaded.scenarios, args.keywords, args.rules)
    chosen = describe_selection(args.keywords, args.rules)
    if not scenarios:
        print(f"No scenario matches {chosen} (of {len(loaded.scenarios)}).", file=sys.stderr)
        return EXIT_INVALID
    if chosen:
        print(f"{chosen}: {len(scenarios)} of {len(loaded.scenarios)} scenarios selected.")
    from app.scenario.runner import run_scenarios

    with contextlib.ExitStack() as stack:
        screenshots: Path | None = args.screenshots
        pictures = None  # --screenshots: a picture after every step
        if screenshots is None and (args.html is not None or args.junit is not None):
            # The HTML report embeds the pictures and the JUnit XML attaches the failing ones;
            # they need a folder only while the reports are written, and only the ones shown
            # are taken (each costs a grab and a PNG).
            scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="scenario-shots-"))
            screenshots = Path(scratch)
            pictures = wants_picture if args.html is not None else _failed_only
        with _offscreen():
            results = run_scenarios(scenarios, screenshots=screenshots, log=_log, pictures=pictures)
        written = _write_reports(args, results)
    passed = sum(result.passed for result in results)
    print(f"{passed} of {len(results)} scenarios passed.")
    code = _exit_code(results)
    return code if written else max(code, EXIT_FAILED)


def _failed_only(step: StepResult) -> bool:
    return step.status == "failed"


def _write_reports(
    args: argparse.Namespace,
    results: list[ScenarioResult],
    *,
    invalid: dict[str, list[Problem]] | None = None,
    not_run: Sequence[tuple[str, str]] = (),
) -> bool:
    """Write each report asked for; False (and a plain message) when one could not be."""
    writers: list[tuple[str, Path | None, Callable[[Path], None]]] = [
        ("JSON report", args.report, lambda path: write_json_report(results, path)),
        (
            "JUnit report",
            args.junit,
            lambda path: write_junit(results, path, invalid=invalid, not_run=not_run),
        ),
        (
            "HTML report",
            args.html,
            lambda path: write_html_report(
                results, path, RUN_TITLE, invalid=invalid, not_run=not_run
            ),
        ),
    ]
    written = True
    for what, path, write in writers:
        if path is None or (what == "JSON report" and invalid):
            continue
        try:
            write(path)
        except OSError as error:
            print(f"{path}: could not write the {what}: {error.strerror}", file=sys.stderr)
            written = False
        else:
            print(f"{what}: {path}")
    return written


def _demo(folder: Path, out: Path) -> int:
    try:
        scenarios = load_all([folder])
    except ScenarioFileError as error:
        print(error, file=sys.stderr)
        return EXIT_INVALID
    if not scenarios:
        print(f"No demo scenarios in {folder}", file=sys.stderr)
        return EXIT_INVALID
    from app.scenario.runner import picture_folder, run_scenarios

    out.mkdir(parents=True, exist_ok=True)
    for scenario in scenarios:  # the tour's own folders: no picture of an earlier run stays
        for stale in (out / picture_folder(scenario)).glob("*.png"):
            stale.unlink()
    with _offscreen():
        # A picture after each step that acts; a caption or an expect changes nothing on screen.
        results = run_scenarios(
            scenarios,
            screenshots=out,
            log=_log,
            pictures=lambda step: wants_picture(step, every_picture=True),
        )
    from app.scenario.slides import write_slides
    from app.scenario.tour_pictures import drop_duplicate_pictures, write_limitation_animation

    dropped = drop_duplicate_pictures(results)
    write_json_report(results, out / "report.json")
    write_markdown_report(results, out / "report.md", DEMO_TITLE)
    write_html_report(results, out / "report.html", DEMO_TITLE, every_picture=True)
    write_slides(results, out / "slides.html", DEMO_TITLE)
    animation = out / ANIMATION_NAME
    animated = write_limitation_animation(results, animation)
    print(f"Demo report: {out / 'report.md'} and {out / 'report.html'}")
    print(f"Slides: {out / 'slides.html'} (→/← to step, S for speaker notes)")
    if animated:
        print(f"The pop-out limitation, animated: {animation}")
    print(f"{dropped} pictures equal to an earlier one were not kept twice.")
    return _exit_code(results)


def _exit_code(results: list[ScenarioResult]) -> int:
    """Print every failed step on stderr; the exit code for these results."""
    for result in results:
        for line in result.failures():
            print(line, file=sys.stderr)
    return EXIT_PASSED if all(result.passed for result in results) else EXIT_FAILED


def _record(file: Path, *, name: str | None, workspace: Path | None) -> int:
    from app.scenario.recorder import record_interactively

    try:
        written = record_interactively(file, name=name, workspace=workspace)
    except OSError as error:
        print(f"{file}: could not write the scenario: {error.strerror}", file=sys.stderr)
        return EXIT_FAILED
    print(f"Recorded {written} steps into {file}")
    return EXIT_PASSED


@contextlib.contextmanager
def _offscreen() -> Iterator[None]:
    """Replays run offscreen (contract section 1), whatever display there is."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from app.qt_messages import drop_offscreen_noise, restore

    previous = drop_offscreen_noise()
    try:
        yield
    finally:
        restore(previous)


def _log(line: str) -> None:
    print(line, flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
