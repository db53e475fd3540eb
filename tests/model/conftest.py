"""Real-model tests (contract 9): run by ``make test-model`` against a real local server.

``make test-model`` starts llama-cpp-python's server with the SmolLM2 weights, sets
``AMBIENT_TEST_MODEL_BASE_URL`` and ``AMBIENT_TEST_MODEL_REQUIRED=1``: there a missing
server fails every test. A plain ``make test`` has no server and skips them.
"""

from __future__ import annotations

import os

import pytest

BASE_URL_ENV = "AMBIENT_TEST_MODEL_BASE_URL"
MODEL_ENV = "AMBIENT_TEST_MODEL"
REQUIRED_ENV = "AMBIENT_TEST_MODEL_REQUIRED"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get(BASE_URL_ENV) or os.environ.get(REQUIRED_ENV) == "1":
        return
    skip = pytest.mark.skip(reason=f"no model server: {BASE_URL_ENV} is unset (make test-model)")
    for item in items:
        if item.get_closest_marker("model") is not None:
            item.add_marker(skip)


@pytest.fixture
def model_server() -> tuple[str, str]:
    """(base URL, model id) of the real server; its absence fails under make test-model."""
    base_url = os.environ.get(BASE_URL_ENV, "")
    if not base_url:
        pytest.fail(f"{BASE_URL_ENV} is not set: make test-model starts the model server.")
    return base_url, os.environ.get(MODEL_ENV, "smollm2")
