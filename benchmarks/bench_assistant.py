"""What the offline assistant understands, and what searching every note costs (R56).

(a) Hit rate of the offline classifier over :data:`benchmarks.phrasings.HELD_OUT`:
held-out phrasings (no test lists them, and the classifier was never tuned
against them), 21 per intent across the seven languages. A phrasing is a hit
when both its intent and its reply language are the expected ones. Target:
>= 0.95. The rate over :data:`~benchmarks.phrasings.DEVELOPMENT` (the table the
phrase lists were widened from) is reported beside it.

(b) ``search_documents`` over 1,000 notes of 10 KiB, as a ``/tool`` turn through
the embedded backend, against ``grep -ri`` of the same folder (a process of its
own, started in the same pair). Both are timed on the wall clock: the turn is
what a person waits for, and grep's time includes starting it. Target: <= 3.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Final

from benchmarks.backend import backend, post_turn, write_notes
from benchmarks.measure import Measurement, alternating_pairs, median, ratio
from benchmarks.phrasings import DEVELOPMENT, HELD_OUT
from workers.offline.table import classify
from workers.settings import Settings

HIT_RATE_TARGET: Final = 0.95
SEARCH_TARGET: Final = 3.0
NOTES: Final = 1_000
NOTE_BYTES: Final = 10 * 1024
NEEDLE: Final = "Quartz-Orchid"
NEEDLE_EVERY: Final = 100
"""One note in a hundred mentions the needle: ten matches, as a real search finds."""
WORKSPACE: Final = "bench-search"
DEVICE_TOKEN: Final = "bench-search-device"


Phrasings = tuple[tuple[str, str, str], ...]


def misses(table: Phrasings) -> list[tuple[str, str]]:
    """(request, what it was taken for) for each phrasing of ``table`` the classifier missed."""
    found = []
    for message, intent, language in table:
        request = classify(message)
        if request.intent != intent or request.language != language:
            found.append((message, f"{request.intent}/{request.language}"))
    return found


def hit_rate() -> Measurement:
    missed = misses(HELD_OUT)
    rate = (len(HELD_OUT) - len(missed)) / len(HELD_OUT)
    wrong = {message for message, _ in missed}
    totals = Counter(intent for _, intent, _ in HELD_OUT)
    missed_intents = Counter(intent for message, intent, _ in HELD_OUT if message in wrong)
    details: dict[str, float | str] = {
        f"{intent} hits": 1 - missed_intents[intent] / count
        for intent, count in sorted(totals.items())
    }
    details["phrasings"] = float(len(HELD_OUT))
    details["development rate"] = 1 - len(misses(DEVELOPMENT)) / len(DEVELOPMENT)
    details["misses"] = "; ".join(f"{message!r}: {taken}" for message, taken in missed)
    return Measurement(
        "offline phrasing hit rate",
        rate,
        unit="rate",
        target=HIT_RATE_TARGET,
        comparison=">=",
        samples=[rate],
        details=details,
    )


def _note(index: int) -> str:
    line = f"Line of note {index}: plans, errands and a meeting about the budget.\n"
    body = line * (NOTE_BYTES // len(line))
    if index % NEEDLE_EVERY == 0:
        body = body[: NOTE_BYTES // 2] + f"\nCall {NEEDLE} about it.\n" + body[NOTE_BYTES // 2 :]
    return f"# Note {index}\n" + body[: NOTE_BYTES - 20]


def search_cost() -> Measurement:
    grep = shutil.which("grep")
    if grep is None:
        raise RuntimeError("grep is not installed: the floor of the search benchmark")
    with tempfile.TemporaryDirectory(prefix="bench-search-") as folder:
        settings = Settings(data_dir=Path(folder), device_token=DEVICE_TOKEN)
        notes = {f"notes/{index // 100:02}/n{index:04}.md": _note(index) for index in range(NOTES)}
        root = write_notes(settings, WORKSPACE, notes)
        command = "/tool search_documents " + json.dumps({"query": NEEDLE.lower()})
        with backend(settings, WORKSPACE) as (server, session):

            def subject() -> float:
                start = time.perf_counter()
                answer = post_turn(server, session, "search", command)
                seconds = time.perf_counter() - start
                matches = answer.json()["toolCalls"][0]["result"]["matches"]
                assert len(matches) == NOTES // NEEDLE_EVERY, matches
                return seconds

            def floor() -> float:
                start = time.perf_counter()
                found = subprocess.run(
                    [grep, "-ri", NEEDLE.lower(), str(root)], capture_output=True, check=True
                )
                seconds = time.perf_counter() - start
                assert found.stdout.count(b"\n") == NOTES // NEEDLE_EVERY
                return seconds

            subject(), floor()  # warm the page cache and the backend's first request
            turns, greps = alternating_pairs(subject, floor)
    ratios = [ratio(s, f) for s, f in zip(turns, greps, strict=True)]
    return Measurement(
        "search_documents 1,000 notes / grep -ri",
        median(ratios),
        target=SEARCH_TARGET,
        samples=ratios,
        details={"turn seconds": median(turns), "grep seconds": median(greps)},
    )


def run() -> list[Measurement]:
    return [hit_rate(), search_cost()]
