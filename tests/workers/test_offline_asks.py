"""R83 (issue 41): everyday asks of the offline assistant, in the seven languages.

Every ask goes through the real route (``POST /v1/agent/turns``) with a pointer to a
note whose tasks and lines are written in those languages; each proposal is applied
to the saved copy here and compared with the text the ask means. None of these
phrasings is in the benchmark's held-out table (R56).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from bridge.markdown import read_note
from bridge.proposals import apply_edits
from bridge.wire import Proposal
from tests.workers.conftest import TestClient, client_with_key, pointer_header
from workers.offline import phrases
from workers.offline.catalogue import phrase
from workers.offline.dates import dated_lines

WEEK = (
    "# Week\n"
    "Plans for the week.\n"
    "\n"
    "## Must do\n"
    "- [x] Buy stamps\n"
    "- [ ] Call the bank\n"
    "- [ ] Appeler le plombier\n"
    "- [ ] Pflanzen gießen\n"
    "- [ ] Regar las plantas\n"
    "- [ ] 歯医者を予約する\n"
    "- [ ] 买牛奶\n"
    "- [ ] 세탁소 가기\n"
    "\n"
    "## Notes\n"
    "The standup moved to 9:30 from next week.\n"
    "Sam is out Friday.\n"
    "Lena is in Lyon on Tuesday.\n"
    "スタンドアップは月曜の10時から。\n"
    "站会改到周三上午。\n"
    "세탁소는 토요일에 문을 닫는다.\n"
)
PATH = "notes/week.md"
_CONVERSATIONS = itertools.count()


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    with client_with_key(tmp_path_factory.mktemp("asks")) as (client, key):
        response = client.put(
            f"/v1/workspaces/demo/documents/{PATH}",
            content=WEEK.encode(),
            headers={"Authorization": "Bearer test-device-token", "X-Key-Session": key},
        )
        assert response.status_code in (200, 201), response.text
        yield client, key


def turn(api: tuple[TestClient, str], message: str) -> dict[str, Any]:
    client, key = api
    response = client.post(
        "/v1/agent/turns",
        json={"conversation": f"asks-{next(_CONVERSATIONS)}", "message": message},
        headers={
            "Authorization": "Bearer test-device-token",
            "X-Key-Session": key,
            "X-Ambient-Note": pointer_header(PATH, WEEK),
        },
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def applied(reply: dict[str, Any]) -> str:
    assert len(reply["proposals"]) == 1, reply["reply"]
    proposal = Proposal.model_validate(reply["proposals"][0])
    assert proposal.is_base(WEEK)
    return apply_edits(WEEK, proposal.edits)


def ticked(task: str) -> str:
    return WEEK.replace(f"- [ ] {task}", f"- [x] {task}")


BY_PLACE = [
    ("mark the second one done", "Appeler le plombier"),
    ("the last task is done", "세탁소 가기"),
    ("check off the third open task", "Pflanzen gießen"),
    ("marque la deuxième comme faite", "Appeler le plombier"),
    ("markiere die zweite als erledigt", "Appeler le plombier"),
    ("marca la segunda como hecha", "Appeler le plombier"),
    ("二番目のタスクを完了にして", "Appeler le plombier"),
    ("把第二个任务标为完成", "Appeler le plombier"),
    ("두 번째 할 일 완료 처리해 줘", "Appeler le plombier"),
]


@pytest.mark.parametrize(("message", "task"), BY_PLACE)
def test_r83_a_task_by_its_place(api: Any, message: str, task: str) -> None:
    assert applied(turn(api, message)) == ticked(task)


BY_WORDS = [
    ("calling the bank is done", "Call the bank"),
    ("I've done the bank call", "Call the bank"),
    ("c'est fait : appeler le plombier", "Appeler le plombier"),
    ("die Pflanzen gießen: erledigt", "Pflanzen gießen"),
    ("regar las plantas ya está", "Regar las plantas"),
    ("歯医者の予約は終わった", "歯医者を予約する"),
    ("买牛奶做完了", "买牛奶"),
    ("세탁소 가기 끝났어", "세탁소 가기"),
]


@pytest.mark.parametrize(("message", "task"), BY_WORDS)
def test_r83_a_task_by_its_words_said_or_asked(api: Any, message: str, task: str) -> None:
    assert applied(turn(api, message)) == ticked(task)


def test_r83_a_question_never_ticks(api: Any) -> None:
    reply = turn(api, "is calling the bank done?")
    assert reply["proposals"] == []


ADDED = [
    ("put pick up the parcel on my list", "pick up the parcel"),
    ("add “water the fern” to my list", "water the fern"),
    ("water the fern needs doing too", "water the fern"),
    ("ajoute arroser la fougère à ma liste", "arroser la fougère"),
    ("setz Farn gießen auf meine Liste", "Farn gießen"),
    ("añade regar el helecho a mi lista", "regar el helecho"),
    ("シダの水やりをリストに追加して", "シダの水やり"),
    ("把浇蕨类加到我的清单", "浇蕨类"),
    ("고사리 물주기 목록에 추가해 줘", "고사리 물주기"),
]


@pytest.mark.parametrize(("message", "task"), ADDED)
def test_r83_additions_in_any_form(api: Any, message: str, task: str) -> None:
    """Into the note's first task list, after its last item (R54)."""
    assert applied(turn(api, message)) == WEEK.replace("가기\n", f"가기\n- [ ] {task}\n")


RENAMED = [
    ("rename the heading Notes to Details", "Details"),
    ("call the Notes section Details", "Details"),
    ("renomme le titre Notes en Détails", "Détails"),
    ("benenne den Abschnitt Notes in Anmerkungen um", "Anmerkungen"),
    ("renombra la sección Notes como Detalles", "Detalles"),
    ("見出し「Notes」を「メモ」に変更して", "メモ"),
    ("把标题Notes重命名为备注", "备注"),
    ("제목 Notes를 메모로 변경해 줘", "메모"),
]


@pytest.mark.parametrize(("message", "name"), RENAMED)
def test_r83_a_heading_renamed(api: Any, message: str, name: str) -> None:
    assert applied(turn(api, message)) == WEEK.replace("## Notes\n", f"## {name}\n")


def test_r83_an_unnamed_heading_with_several_titles_is_asked_about(api: Any) -> None:
    """The note has one title: "the heading" is it; a note with two top headings asks."""
    assert applied(turn(api, "rename the heading to Month")) == WEEK.replace("# Week", "# Month")
    reply = turn(api, "rename the heading Must to Should")
    assert applied(reply) == WEEK.replace("## Must do", "## Should")
    unknown = turn(api, "rename the heading Garden to Yard")
    assert unknown["proposals"] == []
    assert "No heading in notes/week.md matches “Garden”" in unknown["reply"]
    assert "- Week\n- Must do\n- Notes" in unknown["reply"]


def _moved(task: str, where: str) -> str:
    lines = WEEK.split("\n")
    line = f"- [ ] {task}"
    lines.remove(line)
    first = lines.index("- [x] Buy stamps")
    if where == "top":
        lines.insert(first, line)
    elif where == "bottom":
        lines.insert(lines.index("- [ ] 세탁소 가기") + 1, line)
    else:
        lines.insert(lines.index(where) + 1, line)
    return "\n".join(lines)


MOVED = [
    ("move the bank to the top", "Call the bank", "top"),
    ("move the bank after Pflanzen", "Call the bank", "- [ ] Pflanzen gießen"),
    ("déplace le plombier en bas", "Appeler le plombier", "bottom"),
    ("verschiebe Pflanzen gießen ganz nach oben", "Pflanzen gießen", "top"),
    ("mueve regar las plantas al final", "Regar las plantas", "bottom"),
    ("歯医者の予約を一番上に移動して", "歯医者を予約する", "top"),
    ("把买牛奶移到最前面", "买牛奶", "top"),
    ("세탁소 가기를 맨 위로 옮겨", "세탁소 가기", "top"),
]


@pytest.mark.parametrize(("message", "task", "where"), MOVED)
def test_r83_a_task_moved(api: Any, message: str, task: str, where: str) -> None:
    assert applied(turn(api, message)) == _moved(task, where)


ANSWERED = [
    ("when does the standup move?", [15]),
    ("is Lena in Lyon?", [17]),
    ("le standup, c'est à quelle heure ?", [15]),
    ("Ist Sam da?", [16]),
    ("¿Lena está en Lyon?", [17]),
    ("スタンドアップって何時？", [18]),
    ("站会什么时候？", [19]),
    ("세탁소 언제야?", [20]),
]


@pytest.mark.parametrize(("message", "numbers"), ANSWERED)
def test_r83_questions_are_answered_from_the_notes_lines(
    api: Any, message: str, numbers: list[int]
) -> None:
    reply = turn(api, message)
    assert [call["name"] for call in reply["toolCalls"]] == ["read_active_note"]
    lines = WEEK.split("\n")
    quoted = [line for line in reply["reply"].split("\n") if line.startswith("- ")]
    assert quoted == [f"- {number}: {lines[number - 1]}" for number in numbers]


DONE = [
    ("what have I finished?", "en"), ("qu'ai-je fait ?", "fr"), ("was habe ich gemacht?", "de"),
    ("¿qué hice?", "es"), ("終わったタスクは？", "ja"), ("我做了什么？", "zh"), ("뭐 했어?", "ko"),
]  # fmt: skip


@pytest.mark.parametrize(("message", "language"), DONE)
def test_r83_what_is_done_lists_the_ticked_tasks(api: Any, message: str, language: str) -> None:
    reply = turn(api, message)
    assert reply["reply"] == phrase(language, phrases.DONE, path=PATH) + "\n\n- Buy stamps"


def test_r83_a_heading_is_never_a_date() -> None:
    reading = read_note("# Today\n\n## Friday\nCall Sam tomorrow.\n")
    assert dated_lines(reading) == [(3, "Call Sam tomorrow.")]


CANNOT = [
    ("translate this note into Italian", "en", phrases.UNSUPPORTED),
    ("what's the capital of Peru?", "en", phrases.NOT_IN_NOTE),
    ("quelle est la capitale du Pérou ?", "fr", phrases.NOT_IN_NOTE),
    ("Übersetze das ins Italienische", "de", phrases.UNSUPPORTED),
    ("¿cuál es la capital de Perú?", "es", phrases.NOT_IN_NOTE),
    ("ペルーの首都はどこ？", "ja", phrases.NOT_IN_NOTE),
    ("秘鲁的首都在哪里？", "zh", phrases.NOT_IN_NOTE),
    ("페루의 수도는 어디야?", "ko", phrases.NOT_IN_NOTE),
]


@pytest.mark.parametrize(("message", "language", "sentence"), CANNOT)
def test_r83_what_it_cannot_do_it_says_with_the_nearest_ask(
    api: Any, message: str, language: str, sentence: str
) -> None:
    """One plain sentence, then an ask it understands for this note; never another answer,
    never a command-line flag."""
    reply = turn(api, message)["reply"]
    parts = reply.split("\n\n")
    assert parts[0] == phrase(language, sentence, path=PATH)
    try_prefix = phrase(language, phrases.TRY, example="")[:4]
    assert parts[1].startswith(try_prefix)
    if sentence == phrases.NOT_IN_NOTE:  # the note was read: its first open task is the example
        example = phrase(language, phrases.TRY_TICK, task="Call the bank")
        assert parts[1] == phrase(language, phrases.TRY, example=example)
    assert "--model" not in reply and "Plans for the week" not in reply
