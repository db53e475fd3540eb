"""Two key sessions on one workspace, both using the same two conversation names: no cross-talk.

Every turn points at a note unique to its key session and conversation; the assistant's
``read_active_note`` must read exactly that note, never another session's or conversation's.
"""

from __future__ import annotations

import threading
from pathlib import Path

from tests.stress.harness import (
    Figure,
    Http,
    make_workspace_files,
    pointer_value,
    server,
    valid_pointer_fields,
)

WORKSPACE = "shared"
SESSIONS = ("s1", "s2")
CONVERSATIONS = ("c1", "c2")


def note_text(session: str, conversation: str, turn: int) -> str:
    return f"# {session} {conversation} {turn}\nbelongs to {session}/{conversation} only\n"


def interleaved_turns(data_dir: Path, *, turns: int, notes: int = 5) -> Figure:
    make_workspace_files(
        data_dir / "workspaces" / WORKSPACE,
        {
            f"{session}/{conversation}/{n}.md": note_text(session, conversation, n)
            for session in SESSIONS
            for conversation in CONVERSATIONS
            for n in range(notes)
        },
    )
    figure = Figure(f"{len(CONVERSATIONS)} conversations × {turns} turns × 2 key sessions")
    lock = threading.Lock()
    with server(data_dir) as backend:

        def session(name: str) -> None:
            http = Http(backend)
            http.open_key(WORKSPACE)
            for turn in range(turns):
                for conversation in CONVERSATIONS:
                    path = f"{name}/{conversation}/{turn % notes}.md"
                    text = note_text(name, conversation, turn % notes)
                    header = pointer_value(valid_pointer_fields(path, text))
                    status, body = http.turn(conversation, "/tool read_active_note {}", header)
                    result = (body.get("toolCalls") or [{}])[0].get("result", {})
                    with lock:
                        figure.cases += 1
                        figure.server_errors += status >= 500
                        if status != 200 or result.get("status") != "ok":
                            figure.lost += 1
                        elif result.get("text") != text:
                            figure.leaked += 1  # another session's or conversation's note
            http.close()

        threads = [threading.Thread(target=session, args=(name,)) for name in SESSIONS]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return figure
