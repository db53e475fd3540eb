"""A second app instance saving a note, as its autosave does (R53), for QA scenarios.

Run as ``python -m app.scenario.other_instance --base-url URL --workspace WS --path P``
with the note's new text on standard input and the device token in
``AMBIENT_DEVICE_TOKEN`` (never on the command line). It opens its own key session,
reads the note's ``ETag`` and saves over exactly that text with ``If-Match`` (a note
that does not exist yet with ``If-None-Match: *``), as another instance of the app
would; it prints the saved copy's SHA-256. A refused save exits 1 with the reason.
"""

from __future__ import annotations

import argparse
import os
import sys

from bridge.client import BackendClient
from bridge.errors import BackendError, NotFound

TOKEN_VARIABLE = "AMBIENT_DEVICE_TOKEN"


def save_as_another_instance(
    base_url: str, token: str, workspace: str, path: str, text: str
) -> str:
    """Save ``text`` as ``path`` through a client of its own; the saved copy's SHA-256."""
    with BackendClient(base_url, token) as client:
        session = client.open_key_session(workspace)
        try:
            _old, etag = client.get_document_tagged(session, path)
        except NotFound:
            return client.put_document(session, path, text, if_none_match=True).sha256
        return client.put_document(session, path, text, if_match=etag).sha256


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--workspace", required=True)
    parser.add_argument("--path", required=True)
    args = parser.parse_args(argv)
    token = os.environ.get(TOKEN_VARIABLE)
    if not token:
        print(f"{TOKEN_VARIABLE} is not set.", file=sys.stderr)
        return 2
    text = sys.stdin.buffer.read().decode("utf-8")
    try:
        print(save_as_another_instance(args.base_url, token, args.workspace, args.path, text))
    except BackendError as error:
        print(error.message, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
