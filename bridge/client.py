"""Blocking HTTP client for the backend: key sessions, documents and agent turns (R14, R16).

Note text leaves the app only through :meth:`BackendClient.put_document` (R16); a
turn carries the message and, at most, the ``X-Ambient-Note`` header built by
:mod:`bridge.pointer`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from types import TracebackType
from typing import Any
from urllib.parse import quote

import requests
from requests.adapters import HTTPAdapter

from bridge import errors
from bridge.agent import (
    STREAM_MEDIA_TYPE,
    AssistantInfo,
    ConversationMessage,
    TurnReply,
    TurnStream,
    WireVerification,
    messages_from_json,
    not_understood,
    turn_reply,
)
from bridge.documents import DocumentInfo, etag_of
from bridge.errors import BackendError, BackendUnreachable, NotFound, RequestRejected
from bridge.headers import HEADER_NAME, KEY_SESSION_HEADER
from bridge.paths import PATH_NOT_ALLOWED, WorkspacePathError, check_workspace_path
from bridge.responses import error_for, read_json

HEALTH_TIMEOUT_SECONDS = 2.0
MODEL_READ_TIMEOUT_SECONDS = 180.0
"""Streamed turns and Verify wait on a model: longer than the backend's own 120 s limit."""

_BAD_ADDRESS = (
    requests.exceptions.InvalidURL,
    requests.exceptions.MissingSchema,
    requests.exceptions.InvalidSchema,
    requests.exceptions.URLRequired,
)


@dataclass(frozen=True)
class WireKeySession:
    """Access to one workspace, sent as ``X-Key-Session`` on the requests that touch it."""

    key: str = field(repr=False)
    workspace: str
    expires_at: datetime


class BackendClient:
    """One backend, one keep-alive ``requests.Session``.

    Every method blocks on the network for up to the connect and read timeouts,
    so none may be called on a GUI thread: the desktop app runs them on worker
    threads and hands the results back to the GUI thread. Several worker threads
    may use one client at once (a save and a turn in flight together).

    Failures raise :class:`bridge.errors.BackendError` subclasses whose
    ``message`` a UI can show as is; the backend's own plain-language message is
    used when its error envelope carries one.
    """

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

    def __enter__(self) -> BackendClient:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- identity and workspaces --------------------------------------------

    def health(self) -> bool:
        """True when the backend answers its health check; never raises."""
        try:
            response = self._http.get(
                f"{self.base_url}/v1/health", timeout=(HEALTH_TIMEOUT_SECONDS,) * 2
            )
        except requests.RequestException:
            return False
        return response.status_code == 200

    def list_workspaces(self) -> list[str]:
        """The workspace ids the backend holds, sorted (``GET /v1/workspaces``)."""
        names = read_json(self._call("GET", "/v1/workspaces")).get("workspaces")
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            raise not_understood(200)
        return sorted(names)

    def create_workspace(self, workspace: str) -> None:
        """Create an empty workspace; an existing one is left as it is."""
        self._call("POST", "/v1/workspaces", json={"workspace": workspace}, expect=(200, 201))

    def open_key_session(self, workspace: str) -> WireKeySession:
        """Acquire workspace access for the requests that touch ``workspace``."""
        body = read_json(
            self._call("POST", "/v1/key-sessions", json={"workspace": workspace}, expect=(201,))
        )
        try:
            return WireKeySession(
                key=str(body["key"]),
                workspace=str(body["workspace"]),
                expires_at=datetime.fromisoformat(str(body["expiresAt"])),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise not_understood() from error

    # -- documents (R16: the only way note text moves) ------------------------

    def list_documents(
        self, session: WireKeySession, prefix: str | None = None
    ) -> list[DocumentInfo]:
        """The workspace's saved documents, sorted by path, optionally under ``prefix``."""
        params = {"prefix": prefix} if prefix is not None else None
        response = self._call(
            "GET",
            f"{_workspace_url(session.workspace)}/documents",
            session=session,
            params=params,
        )
        body = read_json(response)
        try:
            return [DocumentInfo.from_json(item) for item in body["documents"]]
        except (KeyError, TypeError, ValueError) as error:
            raise not_understood() from error

    def get_document(self, session: WireKeySession, path: str) -> str:
        """The saved UTF-8 text of ``path``."""
        response = self._call("GET", _document_url(session.workspace, path), session=session)
        try:
            return response.content.decode("utf-8")
        except UnicodeDecodeError as error:
            raise not_understood() from error

    def get_document_tagged(self, session: WireKeySession, path: str) -> tuple[str, str]:
        """The saved UTF-8 text of ``path`` and its strong ``ETag`` (R53)."""
        response = self._call("GET", _document_url(session.workspace, path), session=session)
        try:
            text = response.content.decode("utf-8")
        except UnicodeDecodeError as error:
            raise not_understood() from error
        return text, response.headers.get("ETag") or etag_of(response.content)

    def put_document(
        self,
        session: WireKeySession,
        path: str,
        text: str,
        *,
        if_match: str | None = None,
        if_none_match: bool = False,
    ) -> DocumentInfo:
        """Save ``text`` as ``path`` (atomically on the backend); ``modified_at`` may be "".

        ``if_match`` (an ETag) saves only over that exact text and ``if_none_match`` only
        when no note is there; otherwise :class:`PreconditionFailed` and nothing is
        written (R53).
        """
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as error:
            raise RequestRejected(
                "The note contains characters that can't be saved as UTF-8 text."
            ) from error
        response = self._call(
            "PUT",
            _document_url(session.workspace, path),
            session=session,
            data=data,
            headers=_conditions(
                {"Content-Type": "text/plain; charset=utf-8"}, if_match, if_none_match
            ),
        )
        body = read_json(response)
        try:
            return DocumentInfo.from_json(body)
        except (KeyError, TypeError, ValueError) as error:
            raise not_understood() from error

    # -- agent turns ----------------------------------------------------------

    def post_turn(
        self,
        conversation: str,
        message: str,
        *,
        session: WireKeySession | None,
        ambient_header: str | None,
        note_left_out: bool = False,
    ) -> TurnReply:
        """Send one turn; the header, when given, is sent as is (built by bridge.pointer).

        ``note_left_out`` tells the backend the user chose to leave the open note out (R48).
        """
        response = self._post_turn(
            conversation, message, session, ambient_header, note_left_out, stream=False
        )
        return turn_reply(read_json(response))

    def stream_turn(
        self,
        conversation: str,
        message: str,
        *,
        session: WireKeySession | None,
        ambient_header: str | None,
        note_left_out: bool = False,
    ) -> TurnStream:
        """Send one turn asking for a stream (R35); iterate the result on a worker thread.

        Failures before the stream starts raise :class:`BackendError`; later ones
        arrive as an ``ErrorEvent``. ``TurnStream.cancel()`` stops the turn.
        """
        response = self._post_turn(
            conversation, message, session, ambient_header, note_left_out, stream=True
        )
        return TurnStream(response)

    def _post_turn(
        self,
        conversation: str,
        message: str,
        session: WireKeySession | None,
        ambient_header: str | None,
        note_left_out: bool,
        *,
        stream: bool,
    ) -> requests.Response:
        """POST one turn; a stream asks for events and waits on a model for longer."""
        headers = {"Accept": STREAM_MEDIA_TYPE} if stream else {}
        if ambient_header is not None:
            headers[HEADER_NAME] = ambient_header
        return self._call(
            "POST",
            "/v1/agent/turns",
            session=session,
            json=turn_body(conversation, message, note_left_out=note_left_out),
            headers=headers,
            unreachable=errors.UNREACHABLE_MESSAGE,
            stream=stream,
            read_timeout=MODEL_READ_TIMEOUT_SECONDS if stream else None,
        )

    def get_conversation(
        self, session: WireKeySession, conversation: str
    ) -> list[ConversationMessage]:
        """A conversation's messages, oldest first; empty when there is none."""
        response = self._call("GET", _conversation_url(conversation), session=session)
        return messages_from_json(read_json(response))

    def clear_conversation(self, session: WireKeySession, conversation: str) -> None:
        self._call("DELETE", _conversation_url(conversation), session=session, expect=(204,))

    # -- the assistant (contract 7, R37) ---------------------------------------------

    def assistant(self) -> AssistantInfo:
        """Which assistant answers now."""
        return AssistantInfo.from_json(read_json(self._call("GET", "/v1/assistant")))

    def set_assistant(
        self, base_url: str | None, model: str | None, api_key: str | None
    ) -> AssistantInfo:
        """Switch the backend's assistant; both None: the offline assistant."""
        body = {"baseUrl": base_url, "model": model, "apiKey": api_key}
        return AssistantInfo.from_json(read_json(self._call("PUT", "/v1/assistant", json=body)))

    def verify_assistant(
        self, base_url: str, model: str | None, api_key: str | None
    ) -> WireVerification:
        """Check an endpoint before saving it: its models and a request with the tools."""
        body = {"baseUrl": base_url, "model": model, "apiKey": api_key}
        response = self._call(
            "POST", "/v1/assistant/verify", json=body, read_timeout=MODEL_READ_TIMEOUT_SECONDS
        )
        return WireVerification.from_json(read_json(response))

    def get_delivery(self, session: WireKeySession, conversation: str) -> dict[str, Any] | None:
        """The stored ambient columns of the live delivery row, or None when there is none."""
        try:
            response = self._call(
                "GET",
                f"/v1/agent/deliveries/{quote(conversation, safe='')}",
                session=session,
            )
        except NotFound:
            return None
        return read_json(response)

    # -- plumbing ---------------------------------------------------------------

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
        except _BAD_ADDRESS as error:
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


def turn_body(conversation: str, message: str, *, note_left_out: bool = False) -> dict[str, str]:
    """A turn's JSON body; ``"ambient": "excluded"`` is the R48 extension for Leave out."""
    body = {"conversation": conversation, "message": message}
    if note_left_out:
        body["ambient"] = "excluded"
    return body


def _conditions(
    headers: dict[str, str], if_match: str | None, if_none_match: bool
) -> dict[str, str]:
    """``headers`` with the conditional-write headers a save asked for (R53)."""
    if if_match is not None:
        headers["If-Match"] = if_match
    if if_none_match:
        headers["If-None-Match"] = "*"
    return headers


def _workspace_url(workspace: str) -> str:
    return f"/v1/workspaces/{quote(workspace, safe='')}"


def _document_url(workspace: str, path: str) -> str:
    """The document's address, each segment percent-encoded.

    The path is checked first: a '..' segment would otherwise be folded away by
    URL normalisation and name a different document than the caller meant.
    """
    try:
        check_workspace_path(path)
    except WorkspacePathError as error:
        raise RequestRejected(PATH_NOT_ALLOWED.format(reason=error)) from error
    segments = "/".join(quote(segment, safe="") for segment in path.split("/"))
    return f"{_workspace_url(workspace)}/documents/{segments}"


def _conversation_url(conversation: str) -> str:
    return f"/v1/agent/conversations/{quote(conversation, safe='')}"
