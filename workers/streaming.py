"""Server-sent events for turns: work on a worker thread, pieces relayed as they come (R35, R40).

The event loop only moves finished bytes: the assistant, the tools and the JSON
encoding run on a worker thread, which hands each piece over through a queue.
When the client goes away, streamed or waiting for a plain JSON answer, the
work's :class:`~workers.assistants.Cancellation` fires and the worker stops
calling the model (R93).

Work that waits on a model (a stream's pump, a plain answer) runs on threads of its
own limiter, :func:`model_work_limiter`, never on the default pool the document
routes use: slow streams cannot queue a save behind them (R93).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Generator
from typing import Any, Final, TypeVar

from anyio import CapacityLimiter, to_thread
from anyio.lowlevel import RunVar
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response, StreamingResponse
from starlette.types import Message

from bridge.agent import STREAM_MEDIA_TYPE
from workers import jsontext
from workers.assistants import Cancellation

logger = logging.getLogger(__name__)

Answer = TypeVar("Answer")

MEDIA_TYPE: Final = STREAM_MEDIA_TYPE
HEADERS: Final = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}

MODEL_WORK_THREADS: Final = 64
"""Requests that may wait on a model at once (streams and plain answers); more queue among
themselves. The default pool (40 threads) stays for everything else: saves, reads, lists."""
_MODEL_WORK: RunVar[CapacityLimiter] = RunVar("ambient_model_work")

_END: Final = object()
_running: set[asyncio.Future[None]] = set()
"""Workers still finishing after their client left; referenced so none is collected early."""


def model_work_limiter() -> CapacityLimiter:
    """The running event loop's limiter for work that waits on a model (one per loop)."""
    try:
        return _MODEL_WORK.get()
    except LookupError:
        limiter = CapacityLimiter(MODEL_WORK_THREADS)
        _MODEL_WORK.set(limiter)
        return limiter


async def run_model_work(work: Callable[[], Answer]) -> Answer:
    """``work()`` on a worker thread of :func:`model_work_limiter`."""
    return await to_thread.run_sync(work, limiter=model_work_limiter())


def wants_stream(accept: str) -> bool:
    return MEDIA_TYPE in accept.lower()


def sse(event: str, data: bytes) -> bytes:
    """One event; ``data`` is compact JSON, which never holds a line break."""
    return b"event: " + event.encode("ascii") + b"\ndata: " + data + b"\n\n"


def sse_json(event: str, value: Any) -> bytes:
    return sse(event, jsontext.dumps(value))


async def relay(
    produce: Callable[[], Generator[bytes, None, None]],
    cancellation: Cancellation,
    disconnected: Callable[[], Awaitable[None]],
) -> AsyncIterator[bytes]:
    """The pieces ``produce()`` makes on a worker thread, in order, as they come.

    ``disconnected()`` returns when the client goes away: the response may be
    waiting on the model with nothing to send, so a failed write would come too late.
    """
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[object] = asyncio.Queue()

    async def watch() -> None:
        await disconnected()
        cancellation.cancel()
        queue.put_nowait(_END)

    def put(item: object) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody listens
            loop.call_soon_threadsafe(queue.put_nowait, item)

    def pump() -> None:
        try:
            with contextlib.closing(produce()) as pieces:
                for piece in pieces:
                    if cancellation.cancelled:
                        break
                    put(piece)
        finally:
            put(_END)

    worker = asyncio.ensure_future(run_model_work(pump))
    _running.add(worker)
    worker.add_done_callback(_finished)
    watcher = asyncio.ensure_future(watch())
    try:
        while True:
            item = await queue.get()
            if item is _END:
                return
            assert isinstance(item, bytes)
            yield item
            # A full queue would hand over piece after piece without the loop ever running
            # in between, so a client that left is noticed (its connection_lost runs) only
            # after every queued piece was written to a dead socket, each write logging
            # "socket.send() raised exception.". One turn of the loop per piece lets it in.
            await asyncio.sleep(0)
    finally:
        watcher.cancel()
        cancellation.cancel()


async def answer_or_stream(
    request: Request,
    produce: Callable[[Cancellation], Generator[bytes, None, None]],
    answer: Callable[[Cancellation], bytes | None],
) -> Response:
    """The stream of events the request's ``Accept`` asks for, else the JSON answer.

    Both run on a worker thread and stop when the client goes: ``produce(cancellation)``
    yields the events of a stream; ``answer(cancellation)`` returns the whole JSON body,
    or None when it was cancelled.
    """
    cancellation = Cancellation()
    if wants_stream(request.headers.get("accept", "")):
        pieces = relay(
            lambda: produce(cancellation), cancellation, lambda: until_disconnected(request.receive)
        )
        return StreamingResponse(pieces, media_type=MEDIA_TYPE, headers=HEADERS)
    body = await _answer_while_connected(request, lambda: answer(cancellation), cancellation)
    if body is None:
        raise ClientDisconnect  # nobody reads an answer now; its handler logs nothing
    return Response(body, media_type="application/json")


async def _answer_while_connected(
    request: Request, answer: Callable[[], bytes | None], cancellation: Cancellation
) -> bytes | None:
    """``answer()`` on a model worker thread, cancelled as soon as the client goes away.

    The body has been read, so the next ASGI message is the disconnect: waiting for it
    beside the work is how a plain request notices, as a stream does (R93).
    """
    work = asyncio.ensure_future(run_model_work(answer))
    watcher = asyncio.ensure_future(until_disconnected(request.receive))
    try:
        await asyncio.wait((work, watcher), return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not work.done():
            cancellation.cancel()  # the client left (or this request was cancelled)
        watcher.cancel()
        if watcher.done() and not watcher.cancelled():
            watcher.exception()  # a receive that failed counts as the client gone; not logged
    return await work


async def until_disconnected(receive: Callable[[], Awaitable[Message]]) -> None:
    """Wait for the ASGI ``http.disconnect`` (the body has been read already)."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _finished(worker: asyncio.Future[None]) -> None:
    _running.discard(worker)
    if not worker.cancelled() and worker.exception() is not None:
        logger.error("A streamed turn failed", exc_info=worker.exception())
