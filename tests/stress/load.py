"""Sustained load from several threads: turns, reads, saves and listings, with memory at both ends.

Each thread saves its own note and reads it back, so a lost save is seen at once.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from tests.stress.harness import (
    Figure,
    Http,
    make_workspace_files,
    pointer_value,
    rss_kib,
    server,
    valid_pointer_fields,
)

WORKSPACE = "load"


def sustained_load(data_dir: Path, *, seconds: float, threads: int = 4) -> Figure:
    make_workspace_files(
        data_dir / "workspaces" / WORKSPACE,
        {f"t{n}/note.md": f"thread {n}\n" for n in range(threads)},
    )
    figure = Figure(f"{seconds:g} s of load from {threads} threads")
    lock = threading.Lock()
    turns = [0]
    with server(data_dir) as backend:
        rss_start = rss_kib(backend.process.pid)
        started = time.monotonic()
        deadline = started + seconds

        def worker(number: int) -> None:
            http = Http(backend)
            http.open_key(WORKSPACE)
            base = f"/v1/workspaces/{WORKSPACE}/documents"
            path = f"t{number}/note.md"
            step = 0
            while time.monotonic() < deadline:
                step += 1
                text = f"thread {number} save {step}\n"
                results: list[tuple[int, bool]] = []
                status, _ = http.request("PUT", f"{base}/{path}", text.encode())
                results.append((status, status == 200))
                status, body = http.request("GET", f"{base}/{path}")
                results.append((status, body.decode("utf-8", "replace") == text))
                header = pointer_value(valid_pointer_fields(path, text))
                status, answer = http.turn(f"load{number}", "/tool read_active_note {}", header)
                result = (answer.get("toolCalls") or [{}])[0].get("result", {})
                results.append((status, result.get("text") == text))
                if step % 10 == 0:
                    status, _ = http.request("GET", base)
                    results.append((status, status == 200))
                with lock:
                    turns[0] += 1
                    for status, good in results:
                        figure.cases += 1
                        figure.server_errors += status >= 500
                        figure.lost += not good
            with lock:
                figure.lost += http.reconnects
            http.close()

        workers = [threading.Thread(target=worker, args=(n,)) for n in range(threads)]
        for thread in workers:
            thread.start()
        for thread in workers:
            thread.join()
        elapsed = time.monotonic() - started
        rss_end = rss_kib(backend.process.pid)
    figure.details = {
        "requests/s": round(figure.cases / elapsed),
        "turns/s": round(turns[0] / elapsed),
        "RSS start MiB": round(rss_start / 1024, 1),
        "RSS end MiB": round(rss_end / 1024, 1),
    }
    return figure
