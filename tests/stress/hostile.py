"""Hostile Host names, notes and data files against a real server: never a 5xx, a leak or a hang.

- ``Host`` headers (R65): every name that is not loopback must be answered 421 and
  never served; loopback names, in any case and with any port, are served.
- Notes (R63): NUL bytes, invalid UTF-8, one 512 KiB line without spaces, a sparse
  note past the 10 MiB limit. Each GET answers 200 or 413, each turn that reads it
  answers 200; nothing is lost.
- The app's own data files (R64): ``layout.json``, ``assistant.json`` and the key
  replaced by deep nesting, a FIFO, a link to ``/dev/zero``, a folder, 2 MiB of
  junk or bytes that are not UTF-8. Each reader answers at once, without raising,
  and sets the file aside; a reader that raises counts as lost.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Callable
from pathlib import Path

from app.assistant.settings import KEY_FILE, SETTINGS_FILE, AssistantSettingsStore
from app.workspace.layout_state import LAYOUT_FILE, LayoutStore
from tests.stress.harness import Figure, Http, pointer_value, server, valid_pointer_fields

WORKSPACE = "hostile"
LIMIT_BYTES = 10 * 1024 * 1024
NOTES: dict[str, bytes] = {
    "nul.md": b"\x00" * 65_536,
    "latin1.md": "caf\xe9 na\xefve\n".encode("latin-1"),
    "line.md": b"x" * 512 * 1024,
    "mixed.md": b"# ok\n\x00\xff\xfe\n" + b"y" * 70_000 + b"\n",
}
HOSTILE_HOSTS = [
    "evil.example",
    "evil.example:80",
    "127.0.0.1.nip.io",
    "localhost.evil.example",
    "10.0.0.1",
    "[::2]",
    "",
    "127.0.0.1 evil",
    "localhost:80@evil.example",
]
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "LocalHost:1", "[::1]", "[::1]:65535", "127.0.0.1:80"]


def _hostile_data_files(folder: Path) -> list[tuple[str, Callable[[Path], None]]]:
    deep = "[" * 100_000 + "]" * 100_000

    def write(text: str | bytes) -> Callable[[Path], None]:
        return lambda path: path.write_bytes(text.encode() if isinstance(text, str) else text)

    return [
        ("deep nesting", write(deep)),
        ("deep object", write('{"a":' * 50_000 + "1" + "}" * 50_000)),
        ("a FIFO", lambda path: os.mkfifo(path)),
        ("a link to /dev/zero", lambda path: path.symlink_to("/dev/zero")),
        ("a folder", lambda path: path.mkdir()),
        ("2 MiB of junk", write(b"{" + b" " * (2 * 1024 * 1024))),
        ("not UTF-8", write(b"\xff\xfe\x00{")),
        ("a list", write("[1, 2, 3]")),
    ]


def _clear(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()


def _data_files(figure: Figure, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for why, make in _hostile_data_files(folder):
        for name in (LAYOUT_FILE, SETTINGS_FILE, KEY_FILE):
            for leftover in folder.iterdir():
                _clear(leftover)
            make(folder / name)
            figure.cases += 1
            try:
                LayoutStore(folder).load()
                LayoutStore(folder).last_workspace()
                settings = AssistantSettingsStore(folder)
                settings.load()
                settings.key()
            except Exception as error:  # any escape is what this part counts
                figure.lost += 1
                figure.details.setdefault("data file failures", []).append(
                    f"{name}: {why}: {error!r}"
                )


def _hosts(figure: Figure, http: Http, rng: random.Random, cases: int) -> None:
    for index in range(cases):
        hostile = index % 2 == 0
        host = rng.choice(HOSTILE_HOSTS if hostile else LOOPBACK_HOSTS)
        status, _ = http.request("GET", "/v1/assistant", headers={"Host": host})
        figure.cases += 1
        figure.server_errors += status >= 500
        if hostile:
            figure.leaked += status != 421  # served, or not refused as misdirected
        else:
            figure.lost += status != 200


def _notes(figure: Figure, http: Http) -> None:
    for name in [*NOTES, "huge.md"]:
        status, _ = http.request("GET", f"/v1/workspaces/{WORKSPACE}/documents/{name}")
        figure.cases += 1
        figure.server_errors += status >= 500
        figure.lost += status not in (200, 413) or (name == "huge.md") != (status == 413)
        fields = valid_pointer_fields(name, "")
        fields["bytes"] = len(NOTES.get(name, b""))
        status, answer = http.turn("hostile", "/tool read_active_note {}", pointer_value(fields))
        figure.cases += 1
        figure.server_errors += status >= 500
        figure.lost += status != 200 or not answer.get("toolCalls")


def hostile_inputs(data_dir: Path, *, hosts: int) -> Figure:
    figure = Figure("hostile: Host names, notes, data files")
    root = data_dir / "workspaces" / WORKSPACE
    root.mkdir(parents=True)
    for name, data in NOTES.items():
        (root / name).write_bytes(data)
    with (root / "huge.md").open("wb") as huge:
        huge.truncate(LIMIT_BYTES + 1)  # sparse: no disk used
    with server(data_dir) as backend:
        http = Http(backend)
        http.open_key(WORKSPACE)
        _hosts(figure, http, random.Random(65), hosts)
        _notes(figure, http)
        http.close()
    _data_files(figure, data_dir / "app-data")
    figure.details["hosts"] = hosts
    figure.details = {
        key: value if not isinstance(value, list) else json.dumps(value[:3])
        for key, value in figure.details.items()
    }
    return figure
