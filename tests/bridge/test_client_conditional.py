"""The client's conditional saves against the real backend on loopback (R53, contract 10)."""

from __future__ import annotations

import pytest

from bridge.client import BackendClient
from bridge.documents import etag_of
from bridge.errors import PreconditionFailed
from tests.bridge.conftest import WorkspaceFactory


def test_a_save_over_the_text_it_was_read_from_lands(
    client: BackendClient, workspace_factory: WorkspaceFactory
) -> None:
    workspace = workspace_factory()
    session = client.open_key_session(workspace)
    client.put_document(session, "notes/a.md", "first\n", if_none_match=True)
    text, etag = client.get_document_tagged(session, "notes/a.md")
    assert (text, etag) == ("first\n", etag_of(b"first\n"))
    client.put_document(session, "notes/a.md", "second\n", if_match=etag)
    assert client.get_document(session, "notes/a.md") == "second\n"


def test_r53_a_save_over_a_note_changed_elsewhere_is_refused_and_writes_nothing(
    client: BackendClient, workspace_factory: WorkspaceFactory
) -> None:
    workspace = workspace_factory()
    session = client.open_key_session(workspace)
    client.put_document(session, "notes/a.md", "first\n")
    _text, etag = client.get_document_tagged(session, "notes/a.md")
    client.put_document(session, "notes/a.md", "changed elsewhere\n")
    with pytest.raises(PreconditionFailed) as refused:
        client.put_document(session, "notes/a.md", "mine\n", if_match=etag)
    assert refused.value.status == 412
    assert refused.value.code == "note_changed"
    assert client.get_document(session, "notes/a.md") == "changed elsewhere\n"
    with pytest.raises(PreconditionFailed) as exists:
        client.put_document(session, "notes/a.md", "new\n", if_none_match=True)
    assert exists.value.code == "note_exists"
