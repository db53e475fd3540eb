"""The backend's HTTP plumbing: one keep-alive session, timeouts, plain-language failures.

:class:`Transport` is what :class:`bridge.client.BackendClient` builds its calls on;
the address helpers here percent-encode each part of a route.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import quote

from bridge import errors
from bridge.errors import BackendError, BackendUnreachable, RequestRejected
from bridge.headers import KEY_SESSION_HEADER
from bridge.paths import PATH_NOT_ALLOWED, WorkspacePathError, check_workspace_path
from bridge.responses import error_for

if TYPE_CHECKING:
    import requests


@dataclass(frozen=True)
class WireKeySession:
    """Access to one workspace, sent as ``X-Key-Session`` on the requests that touch it."""

    key: str = field(repr=False)
    workspace: str
    expires_at: datetime


class Transport:
    """One backend address and one keep-alive ``requests.Session`` with its timeouts."""

    def __init__(
        self,
        base_url: str,
        device_token: str,
        *,
        connect_timeout: float = 3.0,
        read_timeout: float = 30.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._timeout = (connect_timeout, read_timeout)
        # Imported here, where a client is made (always on a worker thread in the app): at
        # start it would cost the GUI thread about 0.1 s before the first note shows (issue 33).
        import requests
        from requests.adapters import HTTPAdapter

        self._http = requests.Session()
        # No automatic retries: a turn must not be posted twice behind the user's back.
        adapter = HTTPAdapter(pool_connections=1, pool_maxsize=8, max_retries=0)
        self._http.mount("http://", adapter)
        self._http.mount("https://", adapter)
        self._http.headers["Authorization"] = f"Bearer {device_token}"
        self._http.trust_env = False  # loopback traffic must never go through a proxy

    # -- lifecycle ---------------------------------------------------------

    def close(self) -> None:
        """Close the pooled connections; the client is not used afterwards."""
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _call(
        self,
        method: str,
        path: str,
        *,
        session: WireKeySession | None = None,
        expect: tuple[int, ...] = (200,),
        unreachable: str = errors.UNREACHABLE_DOCUMENT_MESSAGE,
        headers: dict[str, str] | None = None,
        read_timeout: float | None = None,
        **kwargs: Any,
    ) -> requests.Response:
        import requests  # loaded already, by __init__

        all_headers = dict(headers or {})
        if session is not None:
            all_headers[KEY_SESSION_HEADER] = session.key
        try:
            response = self._http.request(
                method,
                self.base_url + path,
                headers=all_headers,
                timeout=self._timeout if read_timeout is None else (self._timeout[0], read_timeout),
                allow_redirects=False,
                **kwargs,
            )
        except (
            requests.exceptions.InvalidURL,
            requests.exceptions.MissingSchema,
            requests.exceptions.InvalidSchema,
            requests.exceptions.URLRequired,
        ) as error:
            raise BackendError(
                f"The assistant service address '{self.base_url}' is not a usable web address."
            ) from error
        except requests.exceptions.InvalidHeader as error:
            raise BackendError(
                "The device token or the workspace key can't be sent: it is not valid header text."
            ) from error
        except requests.RequestException as error:
            # Refused, reset, timed out or cut off mid-answer: all mean no usable answer.
            raise BackendUnreachable(unreachable) from error
        if response.status_code in expect:
            return response
        raise error_for(response)


def conditions(
    headers: dict[str, str], if_match: str | None, if_none_match: bool
) -> dict[str, str]:
    """``headers`` with the conditional-write headers a save asked for (R53)."""
    if if_match is not None:
        headers["If-Match"] = if_match
    if if_none_match:
        headers["If-None-Match"] = "*"
    return headers


def workspace_url(workspace: str) -> str:
    return f"/v1/workspaces/{quote(workspace, safe='')}"


def document_url(workspace: str, path: str) -> str:
    """The document's address, each segment percent-encoded.

    The path is checked first: a '..' segment would otherwise be folded away by
    URL normalisation and name a different document than the caller meant.
    """
    try:
        check_workspace_path(path)
    except WorkspacePathError as error:
        raise RequestRejected(PATH_NOT_ALLOWED.format(reason=error)) from error
    segments = "/".join(quote(segment, safe="") for segment in path.split("/"))
    return f"{workspace_url(workspace)}/documents/{segments}"


def conversation_url(conversation: str) -> str:
    return f"/v1/agent/conversations/{quote(conversation, safe='')}"
