"""Backend benchmarks through real HTTP: the cost of the ambient pointer and of read_active_note.

(a) The same note read two ways, in turns that both read it and reply with a summary:
through the pointer (a "summarise this" turn with a valid ``X-Ambient-Note``, whose
assistant calls ``read_active_note``) and by naming its path (a turn without the
header whose message names the note, so ``read_document`` reads it). Reported as
turns per second through the pointer over turns per second by name, i.e.
time(by name) / time(through the pointer): target >= 0.9, so a turn through the
pointer takes at most about 11 % longer (1 / 0.9) than one that names the path.
(b) ``read_active_note`` of a 256 KiB note through the ``/tool`` hook against a plain
document GET of it (target: <= 1.5). (c) The way the assistant really reads it: an
unnamed "summarise this" turn, which calls ``read_active_note`` with the default
64 KiB limit and replies with a summary, so the text crosses once; against the same
GET, reported without a target.

The backend runs embedded in a thread of this process, so each pair is timed in
CPU time (``CPU_CLOCK``): the client's and the server's work for that side, loopback
transfer included, without the time the cores spent on other processes. Bodies are
read as the app's client reads them (``requests``, ``.content``). (b) and (c) also
report the minor page faults per turn: memory the process got afresh from the kernel (see
:mod:`workers.allocator`; about 270 per (b) turn before it).
"""

from __future__ import annotations

import json
import resource
import tempfile
from pathlib import Path
from typing import Any

import requests

from benchmarks.backend import backend, pointer_header, post_turn, write_notes
from benchmarks.measure import CPU_CLOCK, Measurement, median, paired_ratios
from bridge.contract import MAX_MAX_BYTES
from workers.server import EmbeddedServer
from workers.settings import Settings

WORKSPACE = "bench"
SMALL_NOTE = "notes/today.md"
LARGE_NOTE = "notes/large.md"
TURNS_PER_SAMPLE = 20
READS_PER_SAMPLE = 10
HEADER_COST_TARGET = 0.9


def _small_text() -> str:
    return "# Today\nA short note with a plan. It has two sentences.\n- [ ] first\n- [x] done\n"


def _large_text() -> str:
    line = "A line of a long note, to make the saved copy a quarter of a mebibyte.\n"
    text = (line * (MAX_MAX_BYTES // len(line) + 1))[:MAX_MAX_BYTES]
    assert len(text.encode()) == MAX_MAX_BYTES
    return text


def run() -> list[Measurement]:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(data_dir=Path(folder))
        small, large = _small_text(), _large_text()
        write_notes(settings, WORKSPACE, {SMALL_NOTE: small, LARGE_NOTE: large})
        with backend(settings, WORKSPACE) as (server, session):
            return [
                _header_cost(server, session, small),
                _read_cost(server, session, large),
                _summary_cost(server, session, large),
            ]


def _header_cost(server: EmbeddedServer, session: requests.Session, text: str) -> Measurement:
    pointer = pointer_header(SMALL_NOTE, text)

    def through_pointer() -> dict[str, Any]:
        answer: dict[str, Any] = post_turn(
            server, session, "bench", "summarise this", pointer=pointer
        ).json()
        return answer

    def naming_the_path() -> dict[str, Any]:
        answer: dict[str, Any] = post_turn(
            server, session, "bench", f"summarise {SMALL_NOTE}"
        ).json()
        return answer

    # Outside the timing, and warming both paths: each reads the whole note and summarises it.
    pointed, named = through_pointer(), naming_the_path()
    assert pointed["ambient"]["status"] == "stored" and named["ambient"]["status"] == "absent"
    ((active,), (document,)) = pointed["toolCalls"], named["toolCalls"]
    assert active["name"] == "read_active_note" and document["name"] == "read_document"
    assert active["result"]["text"] == document["result"]["text"] == text
    assert SMALL_NOTE in pointed["reply"] and SMALL_NOTE in named["reply"]
    time_ratios = paired_ratios(
        through_pointer, naming_the_path, number=TURNS_PER_SAMPLE, clock=CPU_CLOCK
    )
    # time(pointer)/time(name) inverted: turns per second through the pointer over by name.
    rate_ratios = [1 / ratio for ratio in time_ratios]
    return Measurement(
        name="workers: turns/s reading a note via X-Ambient-Note vs naming its path",
        median=median(rate_ratios),
        target=HEADER_COST_TARGET,
        comparison=">=",
        samples=rate_ratios,
        details={"turns_per_sample": TURNS_PER_SAMPLE, "note_bytes": len(text.encode())},
    )


def _turn_against_get(
    server: EmbeddedServer, session: requests.Session, text: str, message: str
) -> tuple[dict[str, Any], list[float], float]:
    """The first answer to ``message`` about the large note, turn/GET time ratios, and the
    minor page faults per turn (memory the process had to get afresh from the kernel).

    The answer is checked by the caller outside the timing; the timed actions only
    fetch the raw bytes.
    """
    pointer = pointer_header(LARGE_NOTE, text)
    document_url = f"{server.url}/v1/workspaces/{WORKSPACE}/documents/{LARGE_NOTE}"
    assert session.get(document_url, timeout=10).text == text

    def turn() -> bytes:
        return post_turn(server, session, "bench-large", message, pointer=pointer).content

    def plain_get() -> bytes:
        return session.get(document_url, timeout=10).content

    answer: dict[str, Any] = json.loads(turn())
    ratios = paired_ratios(turn, plain_get, number=READS_PER_SAMPLE, clock=CPU_CLOCK)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(READS_PER_SAMPLE):
        turn()
    faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / READS_PER_SAMPLE
    return answer, ratios, faults


def _read_cost(server: EmbeddedServer, session: requests.Session, text: str) -> Measurement:
    command = f"/tool read_active_note {json.dumps({'maxBytes': MAX_MAX_BYTES})}"
    answer, ratios, faults = _turn_against_get(server, session, text, command)
    read = answer["toolCalls"][0]["result"]
    assert read["status"] == "ok" and read["text"] == text and read["caveat"] is None
    return Measurement(
        name="workers: read_active_note 256 KiB vs document GET",
        median=median(ratios),
        target=1.5,
        comparison="<=",
        samples=ratios,
        details={
            "note_bytes": MAX_MAX_BYTES,
            "reads_per_sample": READS_PER_SAMPLE,
            "minor_page_faults_per_turn": faults,
        },
    )


def _summary_cost(server: EmbeddedServer, session: requests.Session, text: str) -> Measurement:
    answer, ratios, faults = _turn_against_get(server, session, text, "summarise this")
    (call,) = answer["toolCalls"]
    assert call["name"] == "read_active_note" and call["arguments"] == {}
    assert call["result"]["status"] == "ok" and call["result"]["partial"] is True
    return Measurement(
        name="workers: 'summarise this' turn, 256 KiB note vs GET",
        median=median(ratios),
        samples=ratios,
        details={
            "note_bytes": MAX_MAX_BYTES,
            "reads_per_sample": READS_PER_SAMPLE,
            "minor_page_faults_per_turn": faults,
        },
    )
