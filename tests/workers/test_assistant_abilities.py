"""R84: the backend says what its offline assistant understands, for the app's Help window."""

from __future__ import annotations

import pytest

from bridge.wire import AssistantAbilities
from tests.workers.conftest import Backend

ROUTE = "/v1/assistant/abilities"


@pytest.mark.parametrize(("asked", "language"), [("ja", "ja"), ("en", "en"), ("fr", "fr")])
def test_r84_the_list_is_in_the_language_asked(backend: Backend, asked: str, language: str) -> None:
    response = backend.client.get(ROUTE, params={"language": asked}, headers=backend.auth)
    assert response.status_code == 200, response.text
    abilities = AssistantAbilities.model_validate_json(response.content)
    assert abilities.language == language
    english = backend.client.get(ROUTE, params={"language": "en"}, headers=backend.auth).json()
    assert (abilities.text == english["text"]) is (language == "en")


def test_r84_the_english_list_names_the_asks_with_examples(backend: Backend) -> None:
    text = backend.client.get(ROUTE, headers=backend.auth).json()["text"]
    assert "summarise this" in text and "list my notes" in text
    japanese = backend.client.get(ROUTE, params={"language": "ja"}, headers=backend.auth).json()
    assert "要約" in japanese["text"]


@pytest.mark.parametrize("asked", ["xx", "", "EN", "x" * 5_000, "ja\x00", "../en"])
def test_r84_a_language_without_a_catalogue_reads_english(backend: Backend, asked: str) -> None:
    response = backend.client.get(ROUTE, params={"language": asked}, headers=backend.auth)
    assert response.status_code == 200 and response.json()["language"] == "en"


def test_r84_the_list_needs_the_device_token(backend: Backend) -> None:
    assert backend.client.get(ROUTE).status_code == 401
