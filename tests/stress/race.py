"""R43: a folder swapped between a real folder and a link to an outside folder while requests run.

Nothing outside may be read or written, no request may fail with a 5xx, and a refusal
(4xx) must leave the kept-alive connection working.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from pathlib import Path

from tests.stress.harness import (
    Figure,
    Http,
    leftover_temporaries,
    make_workspace_files,
    server,
    snapshot,
)

_LIBC = ctypes.CDLL(None, use_errno=True)
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2

WORKSPACE = "race"
INSIDE = "inside text\n"
OUTSIDE = "OUTSIDE SECRET\n"


class Swapper(threading.Thread):
    """Renames ``notes`` between the real folder and a link to ``outside`` until stopped."""

    def __init__(self, root: Path, outside: Path) -> None:
        super().__init__(name="stress-swapper", daemon=True)
        self.root = root
        self.stop = threading.Event()
        self.swaps = 0
        (root / "notes.link").symlink_to(outside / "notes")

    def run(self) -> None:
        folder, link = bytes(self.root / "notes"), bytes(self.root / "notes.link")
        while not self.stop.is_set():
            exchange(folder, link)  # "notes" is now a link leading outside
            exchange(folder, link)  # and the real folder again
            self.swaps += 1


def exchange(first: bytes, second: bytes) -> None:
    """Swap two names in one step (Linux ``renameat2`` with ``RENAME_EXCHANGE``).

    An atomic swap means the folder is never missing, so a save cannot recreate it
    meanwhile; every request sees either the real folder or the link.
    """
    if _LIBC.renameat2(_AT_FDCWD, first, _AT_FDCWD, second, _RENAME_EXCHANGE) != 0:
        number = ctypes.get_errno()
        raise OSError(number, os.strerror(number))


def swap_race(data_dir: Path, *, seconds: float, max_requests: int, threads: int = 2) -> Figure:
    """Readers and writers on ``notes/x.md`` while the swapper runs; counts every escape."""
    outside = data_dir / "outside"
    make_workspace_files(outside, {"notes/x.md": OUTSIDE, "notes/secret.md": OUTSIDE})
    root = data_dir / "workspaces" / WORKSPACE
    make_workspace_files(root, {"notes/x.md": INSIDE})
    before = snapshot(outside)
    figure = Figure("symlink swap race")
    lock = threading.Lock()
    statuses: dict[int, int] = {}
    with server(data_dir) as backend:
        swapper = Swapper(root, outside)
        deadline = time.monotonic() + seconds
        budget = [max_requests]

        def client(index: int) -> None:
            http = Http(backend)
            http.open_key(WORKSPACE)
            base = f"/v1/workspaces/{WORKSPACE}/documents"
            step = 0
            while time.monotonic() < deadline:
                with lock:
                    if budget[0] <= 0:
                        break
                    budget[0] -= 1
                step += 1
                kind = step % 4
                try:
                    if kind == 0:
                        status, body = http.request("PUT", f"{base}/notes/x.md", INSIDE.encode())
                    elif kind == 1:
                        status, body = http.request("GET", f"{base}/notes/secret.md")
                    elif kind == 2:
                        status, body = http.request("GET", base)
                    else:
                        status, body = http.request("GET", f"{base}/notes/x.md")
                except OSError:
                    with lock:
                        figure.lost += 1
                    continue
                with lock:
                    figure.cases += 1
                    statuses[status] = statuses.get(status, 0) + 1
                    if status >= 500:
                        figure.server_errors += 1
                    listed_outside = kind == 2 and b"secret.md" in body
                    if b"OUTSIDE" in body or listed_outside:
                        figure.leaked += 1  # an outside file was read or listed
            with lock:
                figure.lost += http.reconnects  # a refusal must not break the connection
            http.close()

        swapper.start()
        workers = [threading.Thread(target=client, args=(n,)) for n in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        swapper.stop.set()
        swapper.join()
    after = snapshot(outside)
    changed = {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}
    figure.leaked += len(changed)  # anything written, created or left outside
    figure.leaked += len(leftover_temporaries(outside))
    figure.details = {
        "swaps": swapper.swaps,
        "statuses": dict(sorted(statuses.items())),
        "outside changed": len(changed),
    }
    return figure
