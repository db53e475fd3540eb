"""R56: more ways to ask, dates and deadlines, brief refusals, replies in the request's language.

Every turn goes through the real route with a pointer to a known note, and a
conversation of its own unless the test is about a conversation.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from tests.workers.conftest import TestClient, client_with_key, pointer_header
from workers.offline import phrases
from workers.offline.catalogue import phrase

PLAN = (
    "# Launch plan\n"
    "Ship the launch on 2026-12-04.\n"
    "Review with the dentist on Friday at 14:30.\n"
    "- [ ] call Sam\n"
    "The budget is 1.5 million.\n"
    "Abgabe bis 3.12. an Lena.\n"
    "締め切りは12月5日。\n"
    "Plain line without any of it.\n"
)
DATED = [2, 3, 6, 7]
"""1-based lines of PLAN with a date, a weekday or a time."""
_CONVERSATIONS = itertools.count()


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    with client_with_key(tmp_path_factory.mktemp("requests")) as (client, key):
        response = client.put(
            "/v1/workspaces/demo/documents/notes/plan.md",
            content=PLAN.encode(),
            headers={"Authorization": "Bearer test-device-token", "X-Key-Session": key},
        )
        assert response.status_code in (200, 201), response.text
        yield client, key


def turn(
    api: tuple[TestClient, str], message: str, conversation: str = "", *, note: bool = True
) -> dict[str, Any]:
    client, key = api
    headers = {"Authorization": "Bearer test-device-token", "X-Key-Session": key}
    if note:
        headers["X-Ambient-Note"] = pointer_header("notes/plan.md", PLAN) or ""
    response = client.post(
        "/v1/agent/turns",
        json={"conversation": conversation or f"r-{next(_CONVERSATIONS)}", "message": message},
        headers=headers,
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def tools(reply: dict[str, Any]) -> list[str]:
    return [call["name"] for call in reply["toolCalls"]]


FINDS = [
    ("what did I write about the dentist", "en", "dentist"),
    ("find dentist", "en", "dentist"),
    ("anything about the budget?", "en", "budget"),
    ("qu'ai-je écrit sur Sam ?", "fr", "Sam"),
    ("Was habe ich über Lena geschrieben?", "de", "Lena"),
    ("¿Qué escribí sobre el dentista?", "es", "dentista"),
    ("Samについて何を書いた？", "ja", "Sam"),
    ("有没有关于Sam的内容？", "zh", "Sam"),
    ("Sam에 대해 뭐라고 썼어?", "ko", "Sam"),
]


@pytest.mark.parametrize(("message", "language", "term"), FINDS)
def test_r56_more_ways_to_find_read_the_note_and_quote_the_lines(
    api: Any, message: str, language: str, term: str
) -> None:
    reply = turn(api, message)
    assert tools(reply) == ["read_active_note"]
    lines = PLAN.split("\n")
    expected = [
        f"{n + 1}: {line}" for n, line in enumerate(lines) if term.casefold() in line.casefold()
    ]
    if expected:
        heading = phrase(language, phrases.FIND, path="notes/plan.md", term=term)
        assert heading in reply["reply"]
        assert all(line in reply["reply"] for line in expected)
    else:
        none = phrase(language, phrases.FIND_NONE, path="notes/plan.md", term=term)
        assert reply["reply"].startswith(none)


def test_r56_find_with_no_note_open_searches_every_note(api: Any) -> None:
    reply = turn(api, "find dentist", note=False)
    assert tools(reply) == ["read_active_note", "search_documents"]
    assert "- **notes/plan.md**" in reply["reply"]
    assert "  - 3: Review with the dentist on Friday at 14:30." in reply["reply"]


DATES = [
    ("any deadlines here?", "en"),
    ("Quelles sont les échéances ?", "fr"),
    ("Welche Fristen gibt es hier?", "de"),
    ("¿Qué plazos hay en esta nota?", "es"),
    ("締め切りはいつ？", "ja"),
    ("有什么截止日期？", "zh"),
    ("마감 일정 알려줘", "ko"),
]


@pytest.mark.parametrize(("message", "language"), DATES)
def test_r56_dates_and_deadlines_are_the_lines_with_dates_weekdays_and_times(
    api: Any, message: str, language: str
) -> None:
    reply = turn(api, message)
    assert tools(reply) == ["read_active_note"]
    assert phrase(language, phrases.DATES, path="notes/plan.md") in reply["reply"]
    lines = PLAN.split("\n")
    for number in DATED:
        assert f"{number}: {lines[number - 1]}" in reply["reply"]
    for number in (1, 4, 5, 8):  # the title, a task, a decimal number, a plain line
        assert f"{number}: {lines[number - 1]}" not in reply["reply"]


REFUSED = [
    ("translate this note", "en"),
    ("shorten this", "en"),
    ("traduis cette note en anglais", "fr"),
    ("Übersetze diese Notiz ins Englische", "de"),
    ("Kürze diese Notiz bitte", "de"),
    ("Traduce esta nota al inglés", "es"),
    ("acorta esta nota", "es"),
    ("このノートを英語に翻訳して", "ja"),
    ("把这个笔记翻译成英文", "zh"),
    ("이 노트를 영어로 번역해줘", "ko"),
]


@pytest.mark.parametrize(("message", "language"), REFUSED)
def test_r56_what_only_a_model_can_do_gets_one_honest_sentence(
    api: Any, message: str, language: str
) -> None:
    conversation = f"refused-{next(_CONVERSATIONS)}"
    first = turn(api, message, conversation)
    assert tools(first) == []
    sentence = phrase(language, phrases.UNSUPPORTED)
    assert first["reply"].startswith(sentence)
    assert phrase(language, phrases.CAN_DO) in first["reply"]  # the first time: what it can do
    again = turn(api, message, conversation)
    # Then the one sentence and the nearest ask it can serve (R83), no list.
    sentence_again, nearest = again["reply"].split("\n\n")
    assert sentence_again == sentence
    assert nearest.startswith(phrase(language, phrases.TRY, example="")[:4])


def test_r56_abilities_are_listed_once_per_conversation(api: Any) -> None:
    first = turn(api, "tell me a joke", "jokes")
    assert first["reply"].startswith(phrases.OTHER)
    assert "I can:" in first["reply"]
    second = turn(api, "sing me a song", "jokes")
    assert second["reply"] == phrases.OTHER + "\n\nTry: “summarise this”"
    assert "I can:" in turn(api, "help", "jokes")["reply"]  # asked for, it is always given


IN_LANGUAGE = [
    ("was steht in dieser Notiz?", "de"),
    ("Was steht hier drin?", "de"),
    ("¿Qué pone en esta nota?", "es"),
    ("¿De qué va esta nota?", "es"),
]


@pytest.mark.parametrize(("message", "language"), IN_LANGUAGE)
def test_r56_german_and_spanish_phrasings_get_a_reply_in_their_language(
    api: Any, message: str, language: str
) -> None:
    reply = turn(api, message)
    assert tools(reply) == ["read_active_note"]
    assert phrase(language, phrases.COUNTS, headings=1, tasks=1) in reply["reply"]


NAMED = {
    "notes/budget.md": "# Budget 2027\n- [ ] ask Lena for the figures\n- [x] book the room\n",
    "notes/party-plan.md": "# Party\n- [ ] print the flyers\n",
    "notes/trips.md": "# Viaje a Lyon\n- [ ] reservar el tren\n",
}


@pytest.fixture(scope="module")
def named_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    with client_with_key(tmp_path_factory.mktemp("named")) as (client, key):
        for path, text in {"notes/plan.md": PLAN, **NAMED}.items():
            response = client.put(
                f"/v1/workspaces/demo/documents/{path}",
                content=text.encode(),
                headers={"Authorization": "Bearer test-device-token", "X-Key-Session": key},
            )
            assert response.status_code in (200, 201), response.text
        yield client, key


@pytest.mark.parametrize(
    ("message", "path", "shown"),
    [
        ("what's still open in the budget?", "notes/budget.md", "ask Lena for the figures"),
        ("résume le budget", "notes/budget.md", "**Budget 2027**"),
        ("what's left in my party plan?", "notes/party-plan.md", "print the flyers"),
        ("Fasse die Notiz Budget 2027 zusammen", "notes/budget.md", "**Budget 2027**"),
        ("¿qué queda por hacer en el viaje a Lyon?", "notes/trips.md", "reservar el tren"),
    ],
)
def test_r56_a_note_named_by_its_title_or_words_is_read(
    named_api: Any, message: str, path: str, shown: str
) -> None:
    reply = turn(named_api, message)
    assert reply["toolCalls"][0]["name"] == "read_document"
    assert reply["toolCalls"][0]["arguments"] == {"path": path}
    assert shown in reply["reply"]


@pytest.mark.parametrize(
    "message",
    [
        "what's still open here?",
        "summarise this",
        "tl;dr",
        "what's left in my launch plan?",  # the open note's title fits: it is the one
    ],
)
def test_r56_the_open_note_stays_the_note_of_an_unnamed_request(
    named_api: Any, message: str
) -> None:
    assert tools(turn(named_api, message)) == ["read_active_note"]


def test_r56_a_name_that_fits_several_notes_is_asked_about(
    named_api: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    client, key = named_api
    response = client.put(
        "/v1/workspaces/demo/documents/archive/budget.md",
        content=b"# Old budget\n",
        headers={"Authorization": "Bearer test-device-token", "X-Key-Session": key},
    )
    assert response.status_code in (200, 201), response.text
    reply = turn(named_api, "summarise the budget")
    assert tools(reply) == []
    assert reply["reply"] == (
        "Which note do you mean? Name it by its path:\n"
        "- archive/budget.md (Old budget)\n"
        "- notes/budget.md (Budget 2027)"
    )
