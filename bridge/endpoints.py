"""Where an API key may go (R61): its endpoint's origin, never plain http to another machine.

A saved key belongs to the origin (scheme, host, port) of the endpoint it was saved
with; the app and the backend both ask these functions, so they never disagree about
what "the same endpoint" or "loopback" means.
"""

from __future__ import annotations

import ipaddress
from typing import Final
from urllib.parse import urlsplit

LOOPBACK_NAMES: Final = frozenset({"localhost"})
DEFAULT_PORTS: Final = {"http": 80, "https": 443}

CREDENTIALS_IN_URL: Final = (
    "The endpoint URL carries a user name or password. Remove them from the address "
    "and type the key in the API key field instead."
)
KEY_OVER_PLAIN_HTTP: Final = (
    "An API key is never sent over plain http to another machine ({host}): "
    "use an https:// address, or leave the key empty."
)


def endpoint_origin(url: str | None) -> str | None:
    """``scheme://host:port`` of ``url``, lower-cased, its port written; None if unusable."""
    if not url:
        return None
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port if port is not None else DEFAULT_PORTS[scheme]}"


def has_credentials(url: str) -> bool:
    """Whether ``url`` names a user or a password (``https://user:secret@host/``)."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    return parts.username is not None or parts.password is not None or "@" in parts.netloc


def is_loopback_host(host: str) -> bool:
    """``localhost``, ``127.0.0.0/8`` or ``::1``; every other name may be another machine."""
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def key_refusal(url: str, api_key: str | None) -> str | None:
    """Why ``api_key`` may not be sent to ``url``, in plain words; None when it may."""
    if has_credentials(url):
        return CREDENTIALS_IN_URL
    if not api_key:
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None  # not an address at all: the caller says so in its own words
    host = parts.hostname or ""
    if parts.scheme.lower() == "http" and host and not is_loopback_host(host):
        return KEY_OVER_PLAIN_HTTP.format(host=host)
    return None
