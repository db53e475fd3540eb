"""A real loopback HTTP server that speaks OpenAI chat completions from a script.

Tests say what each model call answers (text, tool calls, an HTTP error, broken
JSON, a stall) and read back every request the backend made. It speaks plain JSON
and server-sent events over real sockets, so the product's openai SDK client is
exercised as it is against a real provider.

``ScriptedModel(like_llama_cpp=True)`` answers as llama-cpp-python's server does
with ``--chat_format chatml-function-calling``: a streamed request with tool choice
``auto`` whose answer is a tool call gets 200 and its event-stream headers, then a
TCP reset (the server raises "Automatic streaming tool choice is not supported"
once the model has picked the tool); a named tool choice streams, repeating the id
and name in every piece; a plain answer streams as usual.

Like the bundled server, the peer renders every chat request into the prompt the
model would be shown (:func:`workers.model.chatml.render`, the bundled server's own
handler): ``Recorded.prompt``. Tests assert on what the model sees, not on what the
wire carries (R75). With ``prefill_seconds_per_kib`` set (the benchmarks), the peer
takes as long before its first piece as a local model reading that prompt would:
in proportion to the bytes past the prefix it read for the previous request, which
a real server's prompt cache skips.
"""

from __future__ import annotations

import json
import select
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from workers.model import chatml

MODEL_ID = "scripted-model"


@dataclass
class Reply:
    """One answer to a chat-completions request."""

    content: str | None = None
    tool_calls: list[tuple[str, str]] = field(default_factory=list)  # (name, arguments text)
    pieces: list[str] | None = None  # how a streamed content is cut (default: by word)
    status: int = 200
    body: bytes | None = None  # sent as is (an error body, or something malformed)
    content_type: str = "application/json"
    stall: bool = False  # wait, sending nothing, until the server is released or closed
    stall_after_first_piece: bool = False
    hold_after_first_piece: threading.Event | None = None  # then the rest, once it is set
    first_piece_delay: float = 0.0  # seconds before the first piece (a model's prefill)
    empty_stream: bool = False  # a streamed request is answered 200 and closed at once
    repeat_tool_name: bool = False  # every tool-call piece repeats id and name (llama.cpp)


def text(content: str | None, **changes: Any) -> Reply:
    return Reply(content=content, **changes)


def tool(name: str, arguments: str = "{}", **changes: Any) -> Reply:
    return Reply(tool_calls=[(name, arguments)], **changes)


def error(status: int, message: str = "scripted failure") -> Reply:
    body = json.dumps({"error": {"message": message, "type": "scripted"}}).encode()
    return Reply(status=status, body=body)


@dataclass
class Recorded:
    """One request the server received; header names in lower case."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    raw: bytes
    prompt: str = ""
    """What the model is shown for a chat request, rendered as the bundled server does."""


class ScriptedModel:
    """The server; ``url`` is the base URL to configure (``…/v1``)."""

    def __init__(
        self, *, like_llama_cpp: bool = False, prefill_seconds_per_kib: float = 0.0
    ) -> None:
        self.like_llama_cpp = like_llama_cpp
        self.prefill_seconds_per_kib = prefill_seconds_per_kib
        self._cached_prompt = ""
        self.resets = 0
        """Streamed requests answered with a TCP reset (llama-cpp-python's refusal)."""
        self.script: deque[Reply] = deque()
        self.default: Reply | Callable[[dict[str, Any]], Reply] = error(500, "script exhausted")
        self.requests: list[Recorded] = []
        self.models: list[str] = [MODEL_ID]
        self.release = threading.Event()
        self.client_went_away = threading.Event()
        self.stalled = threading.Event()
        self._lock = threading.Lock()
        self._server = _ResettingServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = False  # server_close() joins every handler thread
        self._thread = threading.Thread(target=self._server.serve_forever, name="scripted-model")

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    @property
    def chat_requests(self) -> list[Recorded]:
        with self._lock:
            return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def then(self, *replies: Reply) -> ScriptedModel:
        self.script.extend(replies)
        return self

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self.release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self.script:
                return self.script.popleft()
        return self.default(body) if callable(self.default) else self.default

    def _refuses(self, body: dict[str, Any], reply: Reply) -> bool:
        """llama-cpp-python cannot stream a tool call the model chose itself."""
        return (
            self.like_llama_cpp
            and bool(body.get("stream"))
            and bool(body.get("tools"))  # a request that offers no tools is answered in text
            and body.get("tool_choice", "auto") == "auto"
            and bool(reply.tool_calls)
        )

    def _unread(self, reply: Reply) -> None:
        """The model decides the same way when asked again (its choice runs at temperature 0)."""
        with self._lock:
            self.script.appendleft(reply)
            self.resets += 1

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return None

            def do_GET(self) -> None:
                model._record(self, b"")
                if self.path.endswith("/models"):
                    data = [{"id": m, "object": "model", "owned_by": "tests"} for m in model.models]
                    self._send(200, json.dumps({"object": "list", "data": data}).encode())
                else:
                    self._send(404, b'{"error": {"message": "no such route"}}')

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                body = model._record(self, raw)
                if not self.path.endswith("/chat/completions"):
                    self._send(404, b'{"error": {"message": "no such route"}}')
                    return
                reply = model._next(body)
                prefill = model._prefill(model.requests[-1].prompt)
                if prefill:
                    # A local model reads the prompt before its first piece (benchmarks only).
                    time.sleep(prefill)  # sleep-ok
                if reply.stall:
                    model.stalled.set()
                    self._wait_for_release()
                    return
                if model._refuses(body, reply):
                    model._unread(reply)
                    self._reset_after_headers()
                elif reply.body is not None:
                    self._send(reply.status, reply.body, reply.content_type)
                elif body.get("stream") and reply.empty_stream:
                    self._stream(Reply(), pieces=0)
                elif body.get("stream"):
                    named = model.like_llama_cpp and isinstance(body.get("tool_choice"), dict)
                    self._stream(replace(reply, repeat_tool_name=True) if named else reply)
                else:
                    self._send(200, json.dumps(_completion(reply)).encode())

            def _send(self, status: int, data: bytes, kind: str = "application/json") -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, reply: Reply, pieces: int | None = None) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                if reply.first_piece_delay:
                    # The scripted model "thinks" before its first piece, as a real one does
                    # (the first-delta benchmark); no test waits on it.
                    time.sleep(reply.first_piece_delay)  # sleep-ok
                if pieces == 0:
                    return  # closed before the first piece, without [DONE]
                try:
                    for index, chunk in enumerate(_chunks(reply)):
                        self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
                        self.wfile.flush()
                        if index == 1 and reply.stall_after_first_piece:
                            model.stalled.set()
                            self._wait_for_release()
                            return
                        if index == 1 and reply.hold_after_first_piece is not None:
                            hold = reply.hold_after_first_piece
                            while not hold.wait(0.02) and not model.release.is_set():
                                pass  # closing the server releases a hold a test left set
                    self.wfile.write(b"data: [DONE]\n\n")
                except OSError:
                    model.client_went_away.set()

            def _reset_after_headers(self) -> None:
                """200 and the event-stream headers, a keep-alive comment, then a TCP reset."""
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream; charset=utf-8")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                ping = b": ping\r\n\r\n"
                self.wfile.write(f"{len(ping):x}\r\n".encode() + ping + b"\r\n")
                self.wfile.flush()
                self.close_connection = True
                # SO_LINGER 0: closing sends RST instead of FIN (see _ResettingServer).
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                )
                self.server.resetting.add(self.connection)  # type: ignore[attr-defined]

            def _wait_for_release(self) -> None:
                """Send nothing until released; notice when the client closes the socket."""
                while not model.release.is_set():
                    readable, _, _ = select.select([self.connection], [], [], 0.02)
                    if readable and not self.connection.recv(1, 0):
                        model.client_went_away.set()
                        return
                self.close_connection = True

        return Handler

    def _record(self, handler: BaseHTTPRequestHandler, raw: bytes) -> dict[str, Any]:
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = {}
        if not isinstance(body, dict):
            body = {}
        prompt = ""
        if handler.path.endswith("/chat/completions"):
            messages = body.get("messages")
            messages = (
                [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []
            )
            tools = body.get("tools") if isinstance(body.get("tools"), list) else None
            prompt = chatml.render(messages, tools, body.get("tool_choice"))
        headers = {k.lower(): v for k, v in handler.headers.items()}
        with self._lock:
            self.requests.append(Recorded(handler.path, headers, body, raw, prompt))
        return body

    def read_last(self, prompt: str) -> None:
        """Make ``prompt`` what the model read last: the prefix its prompt cache holds."""
        with self._lock:
            self._cached_prompt = prompt

    def _prefill(self, prompt: str) -> float:
        """Seconds a local model takes to read ``prompt`` past the prefix it has cached."""
        if not self.prefill_seconds_per_kib:
            return 0.0
        with self._lock:
            cached, self._cached_prompt = self._cached_prompt, prompt
        shared = _shared_prefix(cached, prompt)
        fresh = len(prompt.encode("utf-8")) - len(prompt[:shared].encode("utf-8"))
        return self.prefill_seconds_per_kib * fresh / 1024


class _ResettingServer(ThreadingHTTPServer):
    """Closes a connection marked for reset without the FIN that ``shutdown`` would send."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.resetting: set[socket.socket] = set()

    def shutdown_request(self, request: Any) -> None:
        if request in self.resetting:
            self.resetting.discard(request)
            request.close()  # with SO_LINGER 0: a TCP reset
            return
        super().shutdown_request(request)


def _shared_prefix(one: str, other: str) -> int:
    """How many leading characters the two prompts share (what a prompt cache reuses)."""
    length = 0
    for left, right in zip(one, other, strict=False):
        if left != right:
            break
        length += 1
    return length


def _message(reply: Reply) -> dict[str, Any]:
    calls = [
        {"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": a}}
        for i, (n, a) in enumerate(reply.tool_calls)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if calls:
        message["tool_calls"] = calls
    return message


def _completion(reply: Reply) -> dict[str, Any]:
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 0,
        "model": MODEL_ID,
        "choices": [
            {
                "index": 0,
                "message": _message(reply),
                "finish_reason": "tool_calls" if reply.tool_calls else "stop",
            }
        ],
    }


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": MODEL_ID,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def _chunks(reply: Reply) -> Iterator[dict[str, Any]]:
    yield _chunk({"role": "assistant", "content": ""})
    content = reply.content or ""
    pieces = reply.pieces if reply.pieces is not None else _words(content)
    for piece in pieces:
        yield _chunk({"content": piece})
    for index, (name, arguments) in enumerate(reply.tool_calls):
        half = len(arguments) // 2  # arguments arrive in two pieces, as real servers do
        yield _chunk(
            {
                "tool_calls": [
                    {
                        "index": index,
                        "id": f"call_{index}",
                        "type": "function",
                        "function": {"name": name, "arguments": arguments[:half]},
                    }
                ]
            }
        )
        rest: dict[str, Any] = {"index": index, "function": {"arguments": arguments[half:]}}
        if reply.repeat_tool_name:
            rest["id"] = f"call_{index}"
            rest["function"]["name"] = name
        yield _chunk({"tool_calls": [rest]})
    yield _chunk({}, "tool_calls" if reply.tool_calls else "stop")


def _words(content: str) -> list[str]:
    words = content.split(" ")
    return [word + " " for word in words[:-1]] + [words[-1]] if content else []


@contextmanager
def scripted_model(*replies: Reply) -> Iterator[ScriptedModel]:
    server = ScriptedModel().then(*replies)
    server.start()
    try:
        yield server
    finally:
        server.close()
