"""The workspaces a backend holds (``GET /v1/workspaces``), for the app's workspace picker.

Blocking, like every :class:`~bridge.client.BackendClient` call: run it off the GUI thread.
"""

from __future__ import annotations

from bridge import errors
from bridge.client import BackendClient
from bridge.errors import BackendError
from bridge.responses import read_json


def list_workspaces(client: BackendClient) -> list[str]:
    """The workspace ids, sorted; a backend that answers something else is an error."""
    body = read_json(client._call("GET", "/v1/workspaces", expect=(200,)))
    names = body.get("workspaces")
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise BackendError(errors.NOT_UNDERSTOOD_MESSAGE, 200)
    return sorted(names)
