"""Blocking HTTP client for the backend: key sessions, documents and agent turns (R14, R16).

Note text leaves the app only through :meth:`BackendClient.put_document` (R16); a
turn carries the message and, at most, the ``X-Ambient-Note`` header built by
:mod:`bridge.pointer`.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from bridge import errors
from bridge.agent import STREAM_MEDIA_TYPE, TurnStream, not_understood
from bridge.documents import etag_of
from bridge.errors import NotFound, RequestRejected
from bridge.headers import HEADER_NAME
from bridge.inline import InlineRequest, InlineStream, inline_outcome_url, inline_url
from bridge.responses import read_answer, read_json
from bridge.transport import (
    Transport,
    WireKeySession,
    conditions,
    conversation_url,
    document_url,
    workspace_url,
)
from bridge.wire import (
    AssistantAbilities,
    AssistantDescription,
    ConversationMessage,
    ConversationMessages,
    DocumentEntry,
    DocumentListing,
    DocumentSaved,
    InlineAnswer,
    InlineHistory,
    InlineRecord,
    KeptProposalAnswer,
    KeySessionIssued,
    TurnAnswer,
    Verification,
    WorkspaceNames,
)

if TYPE_CHECKING:
    import requests

__all__ = ["BackendClient", "WireKeySession", "turn_body"]

HEALTH_TIMEOUT_SECONDS = 2.0
MODEL_READ_TIMEOUT_SECONDS = 180.0
"""Streamed turns and Verify wait on a model: longer than the backend's own 120 s limit."""


class BackendClient(Transport):
    """One backend, one keep-alive ``requests.Session``.

    Every method blocks on the network for up to the connect and read timeouts,
    so none may be called on a GUI thread: the desktop app runs them on worker
    threads and hands the results back to the GUI thread. Several worker threads
    may use one client at once (a save and a turn in flight together).

    Failures raise :class:`bridge.errors.BackendError` subclasses whose
    ``message`` a UI can show as is; the backend's own plain-language message is
    used when its error envelope carries one.
    """

    # -- identity and workspaces --------------------------------------------

    def health(self) -> bool:
        """True when the backend answers its health check; never raises."""
        import requests  # loaded already, by the transport

        try:
            response = self._http.get(
                f"{self.base_url}/v1/health", timeout=(HEALTH_TIMEOUT_SECONDS,) * 2
            )
        except requests.RequestException:
            return False
        return response.status_code == 200

    def list_workspaces(self) -> list[str]:
        """The workspace ids the backend holds, sorted (``GET /v1/workspaces``)."""
        return sorted(read_answer(self._call("GET", "/v1/workspaces"), WorkspaceNames).workspaces)

    def create_workspace(self, workspace: str) -> None:
        """Create an empty workspace; an existing one is left as it is."""
        self._call("POST", "/v1/workspaces", json={"workspace": workspace}, expect=(200, 201))

    def open_key_session(self, workspace: str) -> WireKeySession:
        """Acquire workspace access for the requests that touch ``workspace``."""
        response = self._call(
            "POST", "/v1/key-sessions", json={"workspace": workspace}, expect=(201,)
        )
        issued = read_answer(response, KeySessionIssued)
        try:
            expires_at = datetime.fromisoformat(issued.expires_at)
        except ValueError as error:
            raise not_understood() from error
        return WireKeySession(key=issued.key, workspace=issued.workspace, expires_at=expires_at)

    # -- documents (R16: the only way note text moves) ------------------------

    def list_documents(
        self, session: WireKeySession, prefix: str | None = None
    ) -> list[DocumentEntry]:
        """The workspace's saved documents, sorted by path, optionally under ``prefix``."""
        params = {"prefix": prefix} if prefix is not None else None
        response = self._call(
            "GET",
            f"{workspace_url(session.workspace)}/documents",
            session=session,
            params=params,
        )
        return read_answer(response, DocumentListing).documents

    def get_document(self, session: WireKeySession, path: str) -> str:
        """The saved UTF-8 text of ``path``."""
        response = self._call("GET", document_url(session.workspace, path), session=session)
        try:
            return response.content.decode("utf-8")
        except UnicodeDecodeError as error:
            raise not_understood() from error

    def get_document_tagged(self, session: WireKeySession, path: str) -> tuple[str, str]:
        """The saved UTF-8 text of ``path`` and its strong ``ETag`` (R53)."""
        response = self._call("GET", document_url(session.workspace, path), session=session)
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
    ) -> DocumentSaved:
        """Save ``text`` as ``path`` (atomically on the backend).

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
            document_url(session.workspace, path),
            session=session,
            data=data,
            headers=conditions(
                {"Content-Type": "text/plain; charset=utf-8"}, if_match, if_none_match
            ),
        )
        return read_answer(response, DocumentSaved)

    # -- agent turns ----------------------------------------------------------

    def post_turn(
        self,
        conversation: str,
        message: str,
        *,
        session: WireKeySession | None,
        ambient_header: str | None,
        note_left_out: bool = False,
        note_private: bool = False,
    ) -> TurnAnswer:
        """Send one turn; the header, when given, is sent as is (built by bridge.pointer).

        ``note_left_out`` tells the backend the user chose to leave the open note out (R48),
        ``note_private`` that the open note is private, so no pointer names it (R86).
        """
        response = self._post_turn(
            conversation,
            message,
            session,
            ambient_header,
            note_left_out,
            stream=False,
            note_private=note_private,
        )
        return read_answer(response, TurnAnswer)

    def stream_turn(
        self,
        conversation: str,
        message: str,
        *,
        session: WireKeySession | None,
        ambient_header: str | None,
        note_left_out: bool = False,
        note_private: bool = False,
    ) -> TurnStream:
        """Send one turn asking for a stream (R35); iterate the result on a worker thread.

        Failures before the stream starts raise :class:`BackendError`; later ones
        arrive as an ``ErrorEvent``. ``TurnStream.cancel()`` stops the turn.
        """
        response = self._post_turn(
            conversation,
            message,
            session,
            ambient_header,
            note_left_out,
            stream=True,
            note_private=note_private,
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
        note_private: bool = False,
    ) -> requests.Response:
        """POST one turn; a stream asks for events and waits on a model for longer."""
        headers = {"Accept": STREAM_MEDIA_TYPE} if stream else {}
        if ambient_header is not None:
            headers[HEADER_NAME] = ambient_header
        return self._call(
            "POST",
            "/v1/agent/turns",
            session=session,
            json=turn_body(
                conversation, message, note_left_out=note_left_out, note_private=note_private
            ),
            headers=headers,
            unreachable=errors.UNREACHABLE_MESSAGE,
            stream=stream,
            read_timeout=MODEL_READ_TIMEOUT_SECONDS if stream else None,
        )

    def get_conversation(
        self, session: WireKeySession, conversation: str
    ) -> list[ConversationMessage]:
        """A conversation's messages, oldest first; empty when there is none."""
        response = self._call("GET", conversation_url(conversation), session=session)
        return read_answer(response, ConversationMessages).messages

    def clear_conversation(self, session: WireKeySession, conversation: str) -> None:
        self._call("DELETE", conversation_url(conversation), session=session, expect=(204,))

    def report_proposal(
        self, session: WireKeySession, conversation: str, proposal: str, outcome: str
    ) -> KeptProposalAnswer:
        """Tell the conversation what became of one of its proposals: applied or discarded (R50).

        An id the conversation does not hold raises :class:`NotFound`.
        """
        address = f"{conversation_url(conversation)}/proposals/{quote(proposal, safe='')}"
        response = self._call("POST", address, session=session, json={"outcome": outcome})
        return read_answer(response, KeptProposalAnswer)

    # -- the inline command (contract 13, R68–R74) ----------------------------------

    def stream_inline(self, session: WireKeySession, request: InlineRequest) -> InlineStream:
        """Ask for an inline answer as a stream; iterate its ``events()`` on a worker thread.

        No ``X-Ambient-Note`` goes with it: the request carries its own bounded slice.
        """
        response = self._call(
            "POST",
            inline_url(session.workspace),
            session=session,
            json=request.to_json(),
            headers={"Accept": STREAM_MEDIA_TYPE},
            unreachable=errors.UNREACHABLE_MESSAGE,
            stream=True,
            read_timeout=MODEL_READ_TIMEOUT_SECONDS,
        )
        return InlineStream(response)

    def post_inline(self, session: WireKeySession, request: InlineRequest) -> InlineAnswer:
        """The whole inline answer at once."""
        response = self._call(
            "POST",
            inline_url(session.workspace),
            session=session,
            json=request.to_json(),
            unreachable=errors.UNREACHABLE_MESSAGE,
            read_timeout=MODEL_READ_TIMEOUT_SECONDS,
        )
        return read_answer(response, InlineAnswer)

    def report_inline(self, session: WireKeySession, request_id: str, outcome: str) -> None:
        """Keep what the person did with an answer: accepted or rejected (R73)."""
        address = inline_outcome_url(session.workspace, request_id)
        self._call("POST", address, session=session, json={"outcome": outcome})

    def clear_inline_history(self, session: WireKeySession) -> None:
        """Forget the workspace's inline requests."""
        self._call("DELETE", inline_url(session.workspace), session=session, expect=(204,))

    def inline_history(self, session: WireKeySession, limit: int) -> list[InlineRecord]:
        """The workspace's latest inline requests, newest first; never note text."""
        response = self._call(
            "GET", inline_url(session.workspace), session=session, params={"limit": limit}
        )
        return read_answer(response, InlineHistory).requests

    # -- the assistant (contract 7, R37) ---------------------------------------------

    def assistant(self) -> AssistantDescription:
        """Which assistant answers now."""
        return read_answer(self._call("GET", "/v1/assistant"), AssistantDescription)

    def set_assistant(
        self, base_url: str | None, model: str | None, api_key: str | None
    ) -> AssistantDescription:
        """Switch the backend's assistant; both None: the offline assistant."""
        body = {"baseUrl": base_url, "model": model, "apiKey": api_key}
        response = self._call("PUT", "/v1/assistant", json=body)
        return read_answer(response, AssistantDescription)

    def assistant_abilities(self, language: str) -> AssistantAbilities:
        """What the offline assistant understands, in ``language`` when it can (R84)."""
        response = self._call("GET", "/v1/assistant/abilities", params={"language": language})
        return read_answer(response, AssistantAbilities)

    def verify_assistant(
        self, base_url: str, model: str | None, api_key: str | None
    ) -> Verification:
        """Check an endpoint before saving it: its models and a request with the tools."""
        body = {"baseUrl": base_url, "model": model, "apiKey": api_key}
        response = self._call(
            "POST", "/v1/assistant/verify", json=body, read_timeout=MODEL_READ_TIMEOUT_SECONDS
        )
        return read_answer(response, Verification)

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


def turn_body(
    conversation: str, message: str, *, note_left_out: bool = False, note_private: bool = False
) -> dict[str, str]:
    """A turn's JSON body; ``"ambient": "excluded"`` is the R48 extension for Leave out,
    ``"ambient": "private"`` the R86 one for a private open note (no pointer sent)."""
    body = {"conversation": conversation, "message": message}
    if note_left_out:
        body["ambient"] = "excluded"
    elif note_private:
        body["ambient"] = "private"
    return body
