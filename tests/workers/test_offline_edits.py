"""R54: the offline assistant's edit requests, in the seven languages, through the real route.

Each request goes to POST /v1/agent/turns with a pointer to a known note; the
proposal it answers with is applied to the saved copy here and compared with the
text the request means. Ambiguous and unmatched requests propose nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from bridge.proposals import apply_edits
from bridge.wire import Proposal
from tests.workers.conftest import TestClient, client_with_key, pointer_header
from workers.offline import phrases
from workers.offline.catalogue import phrase

DAY = (
    "# Day plan\n"
    "\n"
    "- [ ] Book the dentist for Thursday\n"
    "- [x] Buy milk\n"
    "- [ ] Send the parcel to Lyon\n"
    "- [ ] 歯医者を予約する\n"
    "\n"
    "## Later\n"
    "- [ ] Call the dentist back\n"
    "Notes end here.\n"
)
TICKED = DAY.replace("- [ ] Book the dentist", "- [x] Book the dentist")
TICK = {
    "en": ["tick off booking the dentist for thursday",
           "I've booked the dentist for Thursday, mark it done"],
    "fr": ["coche « Book the dentist for Thursday »"],
    "de": ["hake „Book the dentist for Thursday“ ab"],
    "es": ["marca como hecha «Book the dentist for Thursday»"],
    "ja": ["「Book the dentist for Thursday」を完了にして"],
    "zh": ["把“Book the dentist for Thursday”标记为完成"],
    "ko": ["“Book the dentist for Thursday” 완료로 표시해 줘"],
}  # fmt: skip
PHRASES = {
    "en": "Review the change", "fr": "Vérifiez la modification", "de": "Prüfen Sie",
    "es": "Revisa el cambio", "ja": "変更を確認", "zh": "请查看", "ko": "변경 사항을 확인",
}  # fmt: skip


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    with client_with_key(tmp_path_factory.mktemp("edits")) as (client, key):
        response = client.put(
            "/v1/workspaces/demo/documents/notes/day.md",
            content=DAY.encode(),
            headers={"Authorization": "Bearer test-device-token", "X-Key-Session": key},
        )
        assert response.status_code == 200, response.text
        yield client, key


def turn(api: tuple[TestClient, str], message: str) -> dict[str, Any]:
    client, key = api
    response = client.post(
        "/v1/agent/turns",
        json={"conversation": "edits", "message": message},
        headers={
            "Authorization": "Bearer test-device-token",
            "X-Key-Session": key,
            "X-Ambient-Note": pointer_header("notes/day.md", DAY),
        },
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def applied(reply: dict[str, Any]) -> str:
    (raw,) = reply["proposals"]
    proposal = Proposal.model_validate(raw)
    assert proposal.is_base(DAY)
    return apply_edits(DAY, proposal.edits)


@pytest.mark.parametrize(
    ("language", "message"),
    [
        pytest.param(lang, m, id=f"{lang}-{i}")
        for lang, ms in TICK.items()
        for i, m in enumerate(ms)
    ],
)
def test_r54_tick_a_task_named_by_its_words(api: Any, language: str, message: str) -> None:
    reply = turn(api, message)
    assert [call["name"] for call in reply["toolCalls"]] == [
        "read_active_note",
        "propose_note_edit",
    ]
    assert applied(reply) == TICKED
    assert PHRASES[language] in reply["reply"]


def test_r54_the_japanese_task_is_ticked_by_its_words(api: Any) -> None:
    reply = turn(api, "「歯医者を予約する」を完了にして")
    assert applied(reply) == DAY.replace("- [ ] 歯医者", "- [x] 歯医者")


def test_r54_untick_add_and_remove(api: Any) -> None:
    assert applied(turn(api, "untick buy milk")) == DAY.replace("- [x] Buy milk", "- [ ] Buy milk")
    added = applied(turn(api, "add a task: buy bread"))
    # Into the note's first task list, after its last item.
    assert added == DAY.replace("予約する\n", "予約する\n- [ ] buy bread\n")
    removed = applied(turn(api, "remove the parcel task"))
    assert removed == DAY.replace("- [ ] Send the parcel to Lyon\n", "")
    summary = turn(api, "add a task: buy bread")["proposals"][0]["summary"]
    assert summary == "Add the task “buy bread”"


def test_r54_add_without_a_task_list_goes_at_the_end(api: Any) -> None:
    client, key = api
    headers = {"Authorization": "Bearer test-device-token", "X-Key-Session": key}
    client.put(
        "/v1/workspaces/demo/documents/notes/plain.md", content=b"# P\ntext\n", headers=headers
    )
    reply = turn(api, "add a task to notes/plain.md: water plants")
    proposal = Proposal.model_validate(reply["proposals"][0])
    assert apply_edits("# P\ntext\n", proposal.edits) == "# P\ntext\n\n- [ ] water plants\n"


def test_r54_ambiguous_and_unmatched_requests_propose_nothing(api: Any) -> None:
    ambiguous = turn(api, "tick off the dentist")
    assert ambiguous["proposals"] == []
    assert "Several tasks" in ambiguous["reply"]
    assert "Book the dentist for Thursday" in ambiguous["reply"]
    assert "Call the dentist back" in ambiguous["reply"]
    none = turn(api, "tick off the plumber")
    assert none["proposals"] == [] and "No task" in none["reply"]
    assert [call["name"] for call in none["toolCalls"]] == ["read_active_note"]
    japanese = turn(api, "「配管工」を完了にして")
    assert japanese["proposals"] == [] and "当てはまるタスクがない" in japanese["reply"]


def test_r50_the_conversation_keeps_the_path_and_summary_never_the_text(api: Any) -> None:
    client, key = api
    turn(api, "untick buy milk")
    kept = client.get(
        "/v1/agent/conversations/edits",
        headers={"Authorization": "Bearer test-device-token", "X-Key-Session": key},
    ).json()
    calls = [call for message in kept["messages"] for call in message["toolCalls"]]
    proposed = [call for call in calls if call["name"] == "propose_note_edit"]
    assert proposed and proposed[-1]["arguments"] == {
        "path": "notes/day.md",
        "summary": "Untick “Buy milk”",
    }
    assert "- [ ] Buy milk" not in str(kept)


def _ticked(task: str) -> str:
    return DAY.replace(f"- [ ] {task}", f"- [x] {task}")


PLACES = [
    ("tick off the first open task", "Book the dentist for Thursday"),
    ("tick off the second task", "Send the parcel to Lyon"),
    ("tick the last one", "Call the dentist back"),
    ("tick off the next task", "Book the dentist for Thursday"),
    ("tick the 2nd task", "Send the parcel to Lyon"),
    ("tick the one about the parcel", "Send the parcel to Lyon"),
    ("tick off the second one about the dentist", "Call the dentist back"),
    ("coche la deuxième tâche", "Send the parcel to Lyon"),
    ("hake die erste offene Aufgabe ab", "Book the dentist for Thursday"),
    ("marca como hecha la última tarea", "Call the dentist back"),
    ("最初のタスクを完了にして", "Book the dentist for Thursday"),
    ("把第二个任务标记为完成", "Send the parcel to Lyon"),
    ("첫 번째 할 일 완료로 표시해 줘", "Book the dentist for Thursday"),
]


@pytest.mark.parametrize(("message", "task"), PLACES)
def test_r54_r80_a_task_named_by_its_place(api: Any, message: str, task: str) -> None:
    """First, second, last, next and "the one about X", in the seven languages."""
    assert applied(turn(api, message)) == _ticked(task)


def test_r54_r80_untick_and_remove_by_place(api: Any) -> None:
    assert applied(turn(api, "untick the first one")) == DAY.replace("- [x] Buy", "- [ ] Buy")
    removed = applied(turn(api, "remove the last task"))
    assert removed == DAY.replace("- [ ] Call the dentist back\n", "")
    done = applied(turn(api, "remove the first done task"))
    assert done == DAY.replace("- [x] Buy milk\n", "")
    assert applied(turn(api, "supprime la dernière tâche")) == removed


def test_r54_r80_an_ambiguous_or_missing_place_asks_back_naming_the_tasks(api: Any) -> None:
    ambiguous = turn(api, "tick the one about the dentist")
    assert ambiguous["proposals"] == [] and "Several tasks" in ambiguous["reply"]
    assert "- Book the dentist for Thursday" in ambiguous["reply"]
    assert "- Call the dentist back" in ambiguous["reply"]
    beyond = turn(api, "tick off the fifth task")  # four open tasks
    assert beyond["proposals"] == [] and "No task" in beyond["reply"]
    assert "- Send the parcel to Lyon" in beyond["reply"]


HELP = {
    "en": "help", "fr": "que peux-tu faire ?", "de": "was kannst du?", "es": "¿qué puedes hacer?",
    "ja": "何ができますか？", "zh": "你能做什么？", "ko": "뭘 할 수 있어?",
}  # fmt: skip
_EXAMPLE = re.compile(r"“([^”]+)”|«\s?([^»]+?)\s?»|„([^“]+)“|「([^」]+)」")


@pytest.mark.parametrize("language", list(HELP))
def test_r54_r80_help_lists_the_edits_first_and_their_examples_work(
    api: Any, language: str
) -> None:
    """The edits are the only changes it can make: help names them first, in the ask's language."""
    reply = turn(api, HELP[language])
    assert reply["proposals"] == []
    lines = reply["reply"].split("\n")
    assert lines[0] == phrase(language, phrases.CAN_DO)
    assert lines[1] == "- " + phrase(language, phrases.CAN_EDIT)
    examples = ["".join(found) for found in _EXAMPLE.findall(lines[1])]
    assert len(examples) == 2, examples
    for example in examples:  # each example, asked as written, proposes a change
        assert len(turn(api, example)["proposals"]) == 1, example
