"""A response whose body is sent as the parts it was rendered from, never joined first.

A turn's answer can hold 256 KiB of note text twice (the QA hook's reply and its
``toolCalls`` result): joining the parts would add a half-mebibyte copy per turn,
and each fresh allocation that size costs the process page faults. The client sees
one ordinary body with a ``Content-Length``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from starlette.responses import Response
from starlette.types import Receive, Scope, Send

SMALL_PART_BYTES: Final = 64 * 1024
"""Parts below this size are joined with their neighbours: one write instead of many."""


def grouped(parts: Sequence[bytes]) -> Iterator[bytes]:
    """The parts in order, each run of small ones joined, each large one as it is."""
    pending: list[bytes] = []
    for part in parts:
        if len(part) < SMALL_PART_BYTES:
            pending.append(part)
            continue
        if pending:
            yield b"".join(pending)
            pending = []
        yield part
    if pending:
        yield b"".join(pending)


class PartsResponse(Response):
    """``Response`` over a list of byte strings, sent in order without joining them."""

    def __init__(self, parts: Sequence[bytes], media_type: str) -> None:
        self._chunks = list(grouped(parts))
        super().__init__(media_type=media_type)
        self.headers["content-length"] = str(sum(map(len, self._chunks)))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send(
            {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
        )
        last = len(self._chunks) - 1
        for index, chunk in enumerate(self._chunks):
            await send({"type": "http.response.body", "body": chunk, "more_body": index < last})
        if not self._chunks:
            await send({"type": "http.response.body", "body": b""})
