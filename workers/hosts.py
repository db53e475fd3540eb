"""Only loopback ``Host`` headers are served (R65, contract 12), unless started with ``--host``.

A web page the person visits can make their browser send requests to a name it
controls that then resolves to 127.0.0.1 (DNS rebinding). Such a request carries the
page's own name in ``Host``; refusing every name but loopback ones keeps the backend
out of the page's reach even before the device token is checked.
"""

from __future__ import annotations

from typing import Final

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send

from bridge.wire import envelope
from workers import messages

LOOPBACK_HOSTS: Final = frozenset({"127.0.0.1", "localhost", "[::1]"})
MISDIRECTED: Final = 421


def host_name(host: bytes) -> str:
    """The name part of a ``Host`` value, lower-cased, without its port; "" when malformed.

    Only ``name`` or ``name:digits`` is a Host value; an IPv6 literal keeps its
    brackets (``[::1]:8080`` is ``[::1]``).
    """
    text = host.decode("latin-1").strip().lower()
    if text.startswith("["):
        name, bracket, rest = text.partition("]")
        name += bracket
    else:
        name, _colon, port = text.partition(":")
        rest = f":{port}" if _colon else ""
    if rest and not (rest.startswith(":") and rest[1:].isdigit() and rest[1:].isascii()):
        return ""
    return name


def is_loopback_host(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether the request names exactly one ``Host``, and a loopback one."""
    hosts = [value for name, value in headers if name.lower() == b"host"]
    return len(hosts) == 1 and host_name(hosts[0]) in LOOPBACK_HOSTS


class LoopbackHostsOnly:
    """ASGI middleware: 421 ``misdirected_request`` for any other ``Host``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or is_loopback_host(scope.get("headers", [])):
            await self.app(scope, receive, send)
            return
        body = orjson.dumps(envelope("misdirected_request", messages.HOST_NOT_LOOPBACK))
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": MISDIRECTED, "headers": headers})
        await send({"type": "http.response.body", "body": body})
