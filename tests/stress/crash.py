"""kill -9 at random moments during saves: after a restart no note is torn and nothing is left.

A writer streams 2 MiB versions of a note (each version one repeated letter, so a torn
file is easy to see) and signals the killer at a random point of a random save: part
way through the body, or just after its last byte while the server writes the file.
"""

from __future__ import annotations

import http.client
import random
import select
import signal
import threading
from pathlib import Path
from urllib.parse import urlsplit

from tests.stress.harness import (
    Figure,
    Http,
    leftover_temporaries,
    make_workspace_files,
    server,
)
from tests.support.backend import RunningBackend

WORKSPACE = "big"
NOTE = "big/note.md"
SIZE = 2 * 1024 * 1024
LETTERS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
CHUNK = 64 * 1024


def version(number: int) -> bytes:
    return LETTERS[number % len(LETTERS) : number % len(LETTERS) + 1] * SIZE


def _save_until_killed(
    backend: RunningBackend, key: str, rng: random.Random, kill: threading.Event
) -> None:
    """PUT versions on one connection; set ``kill`` part way through a random one."""
    parts = urlsplit(backend.url)
    victim = rng.randrange(1, 4)
    moment = rng.choice(["mid-body", "after the body", "while the file is written"])
    chunks = SIZE // CHUNK
    cut = rng.randrange(1, chunks) if moment == "mid-body" else chunks
    folder = backend.data_dir / "workspaces" / WORKSPACE / "big"
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    try:
        for number in range(victim + 1):
            data = version(rng.randrange(len(LETTERS)))
            connection.putrequest("PUT", f"/v1/workspaces/{WORKSPACE}/documents/{NOTE}")
            connection.putheader("Authorization", f"Bearer {backend.token}")
            connection.putheader("X-Key-Session", key)
            connection.putheader("Content-Length", str(SIZE))
            connection.endheaders()
            for index in range(SIZE // CHUNK):
                connection.send(data[index * CHUNK : (index + 1) * CHUNK])
                if number == victim and index + 1 == cut:
                    if moment == "while the file is written":
                        _until_a_save_is_on_disk(folder, connection)
                    kill.set()
                    return
            connection.getresponse().read()
    except OSError:
        kill.set()
    finally:
        connection.close()


def _until_a_save_is_on_disk(folder: Path, connection: http.client.HTTPConnection) -> None:
    """Watch the folder until the server's temporary file appears (or its answer arrives)."""
    assert connection.sock is not None
    for _ in range(1_000_000):
        if leftover_temporaries(folder):
            return
        ready, _, _ = select.select([connection.sock], [], [], 0)
        if ready:
            return


def kill_during_saves(data_dir: Path, *, kills: int, seed: int = 12) -> Figure:
    rng = random.Random(seed)
    root = data_dir / "workspaces" / WORKSPACE
    make_workspace_files(root, {NOTE: "A" * SIZE})
    figure = Figure("kill -9 during 2 MiB saves")
    left_by_kills = 0
    for _ in range(kills):
        with server(data_dir) as backend:
            http = Http(backend)
            key = http.open_key(WORKSPACE)
            http.close()
            kill = threading.Event()
            writer = threading.Thread(
                target=_save_until_killed, args=(backend, key, rng, kill), daemon=True
            )
            writer.start()
            kill.wait(60)
            backend.process.send_signal(signal.SIGKILL)
            backend.process.wait(30)
            writer.join(60)
        left_by_kills += len(leftover_temporaries(root))
        figure.cases += 1
        # The next start must sweep the leftovers, and the note must be one whole version.
        with server(data_dir) as backend:
            http = Http(backend)
            http.open_key(WORKSPACE)
            status, body = http.request("GET", f"/v1/workspaces/{WORKSPACE}/documents/{NOTE}")
            listing_status, listing = http.request("GET", f"/v1/workspaces/{WORKSPACE}/documents")
            http.close()
        figure.server_errors += (status >= 500) + (listing_status >= 500)
        whole = status == 200 and len(body) == SIZE and body == body[:1] * SIZE
        figure.lost += not whole
        figure.leaked += len(leftover_temporaries(root)) + listing.count(b".ambient-save-")
    figure.details = {"temporary files left by the kills, then swept": left_by_kills}
    return figure
