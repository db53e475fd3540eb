"""Fuzzed ``X-Ambient-Note`` values, turn bodies and document paths: never a 5xx, never a leak.

Header cases mix valid pointers, pointers with one field made wrong in a known way (these
must be rejected, never stored), and random bytes; the server must answer every one with
200, store exactly the valid ones, and keep every stored row a valid pointer.
"""

from __future__ import annotations

import base64
import json
import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bridge.contract import MAX_HEADER_BYTES
from tests.stress.harness import (
    Figure,
    Http,
    make_workspace_files,
    pointer_value,
    server,
    snapshot,
    valid_pointer_fields,
)

WORKSPACE = "fuzz"
NOTE = "pointed/a.md"  # no fuzzed path can name it, so fuzzed saves never change it
TEXT = "# A\nalpha\n"

_WRONG: list[tuple[str, Any]] = [
    ("v", True),
    ("v", 1.0),
    ("v", 2),
    ("v", "1"),
    ("bytes", -1),
    ("bytes", 1.5),
    ("bytes", True),
    ("bytes", "10"),
    ("flushed", 1),
    ("flushed", "true"),
    ("view", "source"),
    ("view", None),
    ("path", "../etc/passwd"),
    ("path", "/etc/passwd"),
    ("path", "a//b.md"),
    ("path", "a\\b.md"),
    ("path", "a\x00b.md"),
    ("path", ""),
    ("path", "x" * 300),
    ("sha256", "ABCDEF0123456789"),
    ("sha256", "abc"),
    ("capturedAt", "yesterday"),
    ("capturedAt", "2026-11-29T19:08:18"),
    ("frameId", ""),
    ("frameId", "f" * 257),
    ("selection", {"anchor": -1, "head": 0}),
    ("selection", {"anchor": 0}),
    ("selection", [0, 1]),
    # R65: numbers past 2^53 - 1, and offsets past the note's end, are rejected, never a 5xx.
    ("bytes", 2**53),
    ("bytes", 2**64),
    ("bytes", 10**30),
    ("selection", {"anchor": 10**40, "head": 0}),
    ("selection", {"anchor": 0, "head": 2**64}),
    ("selection", {"anchor": 2**53, "head": 2**53}),
    ("selection", {"anchor": 0, "head": len(TEXT) + 1}),
    ("unknown", 1),
]


def header_case(rng: random.Random, index: int) -> tuple[str, bool | None]:
    """A header value and whether it must be stored (None: random, either answer is fine)."""
    kind = index % 4
    fields = valid_pointer_fields(NOTE, TEXT)
    if kind == 0:
        fields["frameId"] = f"f{rng.randrange(10**6)}"
        return pointer_value(fields), True
    if kind == 1:
        name, value = _WRONG[rng.randrange(len(_WRONG))]
        fields[name] = value
        return pointer_value(fields), False
    if kind == 2:
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii"), None
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/. "
    edge = MAX_HEADER_BYTES  # R15: either side of the cap
    length = rng.choice([0, 1, 5, edge - 1, edge, edge + 1, 3000, rng.randrange(100)])
    value = "".join(rng.choice(alphabet) for _ in range(length))
    return value.strip() or "A", None


def body_case(rng: random.Random) -> bytes:
    choices: list[Callable[[], bytes]] = [
        lambda: bytes(rng.randrange(256) for _ in range(rng.randrange(60))),
        lambda: json.dumps(
            {"conversation": rng.choice(["", "c", "x" * 129]), "message": 1}
        ).encode(),
        lambda: json.dumps([rng.random()]).encode(),
        lambda: b'{"conversation": "c", "message": "' + b"\xff" * rng.randrange(5) + b'"}',
        lambda: json.dumps({"conversation": "c\x00", "message": "m"}).encode(),
        lambda: b"{" * rng.randrange(1, 3000),
        lambda: json.dumps({"conversation": "c", "message": "m", "extra": {}}).encode(),
        lambda: json.dumps({"conversation": "fz", "message": "/tool read_active_note {}"}).encode(),
    ]
    return rng.choice(choices)()


def path_case(rng: random.Random) -> str:
    pieces = [
        "..",
        ".",
        "",
        "%2e%2e",
        "%2F",
        "%00",
        "%ff",
        "%fe",
        "%C3%28",
        "notes",
        "a.md",
        "ノ",
        "%E3%83%8E",
        "\\",
        "outside",
        "link",
        ".ambient-save-0011",
        "x" * 256,
    ]
    segments = [rng.choice(pieces) for _ in range(rng.randrange(1, 5))]
    return "/".join(quote(s, safe="%.") if s == "ノ" else s for s in segments)


def fuzz(data_dir: Path, *, headers: int, bodies: int, paths: int, threads: int = 2) -> Figure:
    outside = data_dir / "outside"
    make_workspace_files(outside, {"secret.md": "OUTSIDE SECRET\n"})
    root = data_dir / "workspaces" / WORKSPACE
    make_workspace_files(root, {NOTE: TEXT, "notes/a.md": TEXT})
    (root / "link").symlink_to(outside)
    before = snapshot(outside)
    figure = Figure("fuzz: headers, turn bodies, paths")
    lock = threading.Lock()
    counts = {"headers": 0, "bodies": 0, "paths": 0, "stored": 0, "rejected": 0}

    def count(status: int, leaked: bool = False, lost: bool = False) -> None:
        with lock:
            figure.cases += 1
            figure.server_errors += status >= 500
            figure.leaked += leaked
            figure.lost += lost

    with server(data_dir) as backend:

        def worker(seed: int) -> None:
            rng = random.Random(seed)
            http = Http(backend)
            http.open_key(WORKSPACE)
            share = range(seed, headers, threads)
            for index in share:
                value, must_store = header_case(rng, index)
                conversation = f"h{seed}"
                status, body = http.turn(conversation, "/tool read_active_note {}", value)
                stored = body.get("ambient", {}).get("status") == "stored"
                wrong = (must_store is True and not stored) or (must_store is False and stored)
                if stored:
                    (call,) = body["toolCalls"]
                    wrong = wrong or call["result"].get("text") != TEXT
                count(status, leaked=wrong and stored, lost=status != 200 or (wrong and not stored))
                with lock:
                    counts["headers"] += 1
                    counts["stored" if stored else "rejected"] += 1
            for _ in range(seed, bodies, threads):
                status, _ = http.request(
                    "POST", "/v1/agent/turns", body_case(rng), {"Content-Type": "application/json"}
                )
                count(status)
                with lock:
                    counts["bodies"] += 1
            for _ in range(seed, paths, threads):
                target = f"/v1/workspaces/{WORKSPACE}/documents/{path_case(rng)}"
                status, body = http.request("GET", target)
                count(status, leaked=b"OUTSIDE" in body)
                status, _ = http.request("PUT", target, b"planted")
                count(status)
                with lock:
                    counts["paths"] += 1
            http.close()

        workers = [threading.Thread(target=worker, args=(n,)) for n in range(threads)]
        for thread in workers:
            thread.start()
        for thread in workers:
            thread.join()
    after = snapshot(outside)
    figure.leaked += sum(before.get(n) != after.get(n) for n in before.keys() | after.keys())
    figure.details = dict(counts)
    return figure
