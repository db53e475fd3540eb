"""R38, R23: the offline assistant answers the question asked, in the language it was asked in.

Every row goes through the real route (POST /v1/agent/turns) with a pointer to a
note whose tasks, headings and lines are known, and checks which tools were
called, that the reply carries the answer (task texts in order, headings, quoted
lines with their numbers) and a fixed phrase of the request's language.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from tests.workers.conftest import TestClient, client_with_key, pointer_header
from workers.offline import phrases
from workers.offline.catalogue import phrase
from workers.offline.table import classify

DAY = (
    "# Day plan\n"
    "\n"
    "Call the dentist about Thursday. Then pick up the parcel. Later, rest.\n"
    "\n"
    "## Errands\n"
    "- [ ] Book the dentist\n"
    "- [x] Buy milk\n"
    "- [ ] Send the parcel to Lyon\n"
    "\n"
    "## Words\n"
    "歯医者の予約は木曜日。\n"
    "牙医在周四。\n"
    "치과 예약은 목요일.\n"
    "Zahnarzt am Donnerstag. Le dentiste jeudi. Dentista el jueves.\n"
)
OTHER = "# Errands\n- [ ] Buy stamps\n\n## Parcel\nThe parcel goes to Lyon.\n"
DENTIST_LINES = ("3: Call the dentist", "6: - [ ] Book the dentist")

SUMMARY = {
    "en": ["summarise this", "Summarize this note, please", "what does this note say?",
           "give me a summary", "tl;dr", "this", "what is this about?"],
    "ja": ["このノートを要約して", "これをまとめて"],
    "fr": ["Résume cette note", "de quoi parle cette note ?"],
    "de": ["Fasse diese Notiz zusammen", "Worum geht es in dieser Notiz?"],
    "es": ["Resume esta nota", "¿de qué trata esta nota?"],
    "zh": ["总结这个笔记", "这篇笔记讲了什么"],
    "ko": ["이 노트를 요약해줘", "이 노트는 무슨 내용이야?"],
}  # fmt: skip
TASKS = {
    "en": ["what's still open here?", "what are my open tasks?", "list the open tasks",
           "which tasks are unticked?", "what's left to do in this note?", "show me the todos"],
    "ja": ["やることは何が残ってる？", "未完了のタスクを教えて"],
    "fr": ["Quelles tâches reste-t-il ?", "qu'est-ce qui reste à faire ici ?"],
    "de": ["Welche Aufgaben sind noch offen?", "Was ist hier noch zu erledigen?"],
    "es": ["¿Qué tareas quedan pendientes?", "¿qué queda por hacer aquí?"],
    "zh": ["还有哪些待办？", "列出未完成的任务"],
    "ko": ["남은 할 일이 뭐야?", "미완료 작업을 보여줘"],
}  # fmt: skip
OUTLINE = {
    "en": ["what are the headings?", "show me the outline", "what's the structure of this note?",
           "list the sections", "table of contents please"],
    "ja": ["見出しを見せて", "このノートの構成は？"],
    "fr": ["Quels sont les titres ?", "montre la structure de cette note"],
    "de": ["Zeige die Überschriften", "Wie ist die Gliederung?"],
    "es": ["¿Cuáles son los encabezados?", "muestra el esquema"],
    "zh": ["有哪些标题？", "给我看大纲"],
    "ko": ["제목을 보여줘", "이 노트의 목차는?"],
}  # fmt: skip
FIND = {
    "en": [("where do I mention the dentist?", "dentist"),
           ("Where did I mention the dentist", "dentist"),
           ("find 'dentist' here", "dentist"),
           ("where does it say dentist?", "dentist"),
           ("search for dentist in this note", "dentist"),
           ("lines about the parcel", "parcel")],
    "ja": [("歯医者についてどこに書いた？", "歯医者"),
           ("このノートで「歯医者」を探して", "歯医者")],
    "fr": [("Où est-ce que je parle du dentiste ?", "dentiste"),
           ("cherche « dentiste » dans cette note", "dentiste")],
    "de": [("Wo erwähne ich den Zahnarzt?", "Zahnarzt"),
           ("Suche „Zahnarzt“ in dieser Notiz", "Zahnarzt")],
    "es": [("¿Dónde menciono al dentista?", "dentista"),
           ("busca «dentista» en esta nota", "dentista")],
    "zh": [("我在哪里提到了牙医？", "牙医"), ("在这个笔记里查找牙医", "牙医")],
    "ko": [("치과를 어디에 언급했어?", "치과"), ("이 노트에서 치과 찾아줘", "치과")],
}  # fmt: skip
COMPARE = {
    "en": ["compare this with notes/other.md", "Compare this note to notes/other.md",
           "what's the difference between this and notes/other.md?",
           "how does notes/other.md compare?", "diff this against notes/other.md"],
    "ja": ["これを notes/other.md と比較して", "notes/other.md との違いは？"],
    "fr": ["Compare cette note avec notes/other.md", "quelle différence avec notes/other.md ?"],
    "de": ["Vergleiche diese Notiz mit notes/other.md", "Unterschied zu notes/other.md?"],
    "es": ["Compara esta nota con notes/other.md", "¿diferencias con notes/other.md?"],
    "zh": ["把这个和 notes/other.md 比较", "和 notes/other.md 有什么区别？"],
    "ko": ["이 노트를 notes/other.md와 비교해줘", "notes/other.md 와 차이가 뭐야?"],
}  # fmt: skip
LISTING = {
    "en": ["list my notes", "what notes do I have?", "show all documents", "which files are there?",
           "list notes"],
    "ja": ["ノート一覧を見せて", "どんなノートがある？"],
    "fr": ["Liste mes notes", "quelles notes ai-je ?"],
    "de": ["Liste meine Notizen", "Welche Notizen habe ich?"],
    "es": ["Lista mis notas", "¿qué notas tengo?"],
    "zh": ["列出我的笔记", "我有哪些笔记？"],
    "ko": ["노트 목록 보여줘", "어떤 노트가 있어?"],
}  # fmt: skip
GREETING = {
    "en": ["hello", "Hi!", "hey there", "good morning", "Hello, assistant"],
    "ja": ["こんにちは", "おはよう！"],
    "fr": ["Bonjour", "salut !"],
    "de": ["Hallo", "Guten Morgen"],
    "es": ["Hola", "¡Buenos días!"],
    "zh": ["你好", "您好！"],
    "ko": ["안녕", "안녕하세요"],
}  # fmt: skip
HELP = {
    "en": ["help", "what can you do?", "how do I connect a model?", "who are you?",
           "how does this work?"],
    "ja": ["ヘルプ", "何ができるの？"],
    "fr": ["aide", "que peux-tu faire ?"],
    "de": ["Hilfe", "Was kannst du?"],
    "es": ["ayuda", "¿qué puedes hacer?"],
    "zh": ["帮助", "你能做什么？"],
    "ko": ["도움말", "뭘 할 수 있어?"],
}  # fmt: skip
UNRELATED = [
    "what's the weather in Paris?", "tell me a joke", "what time is it?", "who won the world cup?",
    "write a poem about the sea", "what is 2 + 2?", "how are you today?", "book a flight to Rome",
    "what is the capital of France?", "remind me at 5pm", "Explain quantum physics",
    "find me a restaurant nearby", "translate cat into German", "play some music",
    "where is the nearest station?", "how tall is Mount Everest?", "set a timer for ten minutes",
    "recommend a good film", "what's the news?", "can you order pizza?",
    "明日の天気は？", "東京タワーはどこ？", "Quel temps fait-il à Lyon ?", "Raconte-moi une blague",
    "Wie spät ist es?", "Wer hat das Spiel gewonnen?", "¿Qué hora es?", "Cuéntame un chiste",
    "今天天气怎么样？", "讲个笑话", "오늘 날씨 어때?", "농담 하나 해줘", "ok", "thanks!",
]  # fmt: skip

MARKERS = {
    "summary": {"en": "Open tasks: 2", "ja": "未完了のタスク: 2", "fr": "Tâches ouvertes : 2",
                "de": "Offene Aufgaben: 2", "es": "Tareas pendientes: 2", "zh": "未完成的任务：2",
                "ko": "남은 할 일: 2"},
    "tasks": {"en": "Open tasks in notes/day.md:", "ja": "notes/day.md の未完了のタスク:",
              "fr": "Tâches ouvertes dans notes/day.md :", "de": "Offene Aufgaben in notes/day.md:",
              "es": "Tareas pendientes en notes/day.md:", "zh": "notes/day.md 中未完成的任务：",
              "ko": "notes/day.md의 남은 할 일:"},
    "outline": {"en": "Headings in notes/day.md:", "ja": "notes/day.md の見出し:",
                "fr": "Titres de notes/day.md :", "de": "Überschriften in notes/day.md:",
                "es": "Encabezados de notes/day.md:", "zh": "notes/day.md 的标题：",
                "ko": "notes/day.md의 제목:"},
    "find": {"en": "that mention", "ja": "に触れている行", "fr": "qui mentionnent",
             "de": "erwähnen", "es": "que mencionan", "zh": "中提到", "ko": "언급한 줄"},
    "selection": {"en": "Your selection in notes/day.md (lines 3–3):",
                  "ja": "notes/day.md で選択したテキスト（3〜3 行目）:",
                  "fr": "Votre sélection dans notes/day.md (lignes 3 à 3) :",
                  "de": "Deine Auswahl in notes/day.md (Zeilen 3–3):",
                  "es": "Tu selección en notes/day.md (líneas 3–3):",
                  "zh": "你在 notes/day.md 中选中的内容（第 3–3 行）：",
                  "ko": "notes/day.md에서 선택한 부분(3–3번째 줄):"},
    "compare": {"en": "Comparing notes/day.md with notes/other.md:",
                "ja": "notes/day.md と notes/other.md の比較:",
                "fr": "Comparaison de notes/day.md avec notes/other.md :",
                "de": "Vergleich von notes/day.md mit notes/other.md:",
                "es": "Comparación de notes/day.md con notes/other.md:",
                "zh": "比较 notes/day.md 和 notes/other.md：",
                "ko": "notes/day.md와(과) notes/other.md 비교:"},
    "listing": {"en": "Notes in this workspace (5):", "ja": "このワークスペースのノート（5 件）:",
                "fr": "Notes de cet espace de travail (5) :",
                "de": "Notizen in diesem Arbeitsbereich (5):",
                "es": "Notas de este espacio de trabajo (5):", "zh": "此工作区中的笔记（5 篇）：",
                "ko": "이 작업 공간의 노트(5개):"},
    "greeting": {"en": "Hello! I'm the offline assistant.", "ja": "オフラインアシスタントです",
                 "fr": "Je suis l'assistant hors ligne", "de": "Ich bin der Offline-Assistent",
                 "es": "Soy el asistente sin conexión", "zh": "我是离线助手",
                 "ko": "오프라인 어시스턴트입니다"},
    "help": {"en": "I can:", "ja": "できること:", "fr": "Je peux :", "de": "Ich kann:",
             "es": "Puedo:", "zh": "我可以：", "ko": "할 수 있는 일:"},
}  # fmt: skip

_CONVERSATIONS = itertools.count()

SELECTION = {"anchor": 12, "head": 44}  # "Call the dentist about Thursday." on line 3


def _rows(table: dict[str, list[Any]], intent: str) -> list[Any]:
    return [
        pytest.param(intent, language, row, id=f"{intent}-{language}-{index}")
        for language, rows in table.items()
        for index, row in enumerate(rows)
    ]


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    with client_with_key(tmp_path_factory.mktemp("intents")) as (client, key):
        for path, text in (("notes/day.md", DAY), ("notes/other.md", OTHER)):
            response = client.put(
                f"/v1/workspaces/demo/documents/{path}",
                content=text.encode(),
                headers={"Authorization": "Bearer test-device-token", "X-Key-Session": key},
            )
            assert response.status_code in (200, 201), response.text
        yield client, key


def turn(
    api: tuple[TestClient, str], message: str, conversation: str = "", **pointer: Any
) -> dict[str, Any]:
    """One turn; each in a conversation of its own unless one is named."""
    client, key = api
    response = client.post(
        "/v1/agent/turns",
        json={"conversation": conversation or f"table-{next(_CONVERSATIONS)}", "message": message},
        headers={
            "Authorization": "Bearer test-device-token",
            "X-Key-Session": key,
            "X-Ambient-Note": pointer_header("notes/day.md", DAY, **pointer),
        },
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def tools(reply: dict[str, Any]) -> list[str]:
    return [call["name"] for call in reply["toolCalls"]]


@pytest.mark.parametrize(("intent", "language", "message"), _rows(SUMMARY, "summary"))
def test_r38_summary(api: Any, intent: str, language: str, message: str) -> None:
    reply = turn(api, message)
    assert tools(reply) == ["read_active_note"]  # R23
    assert "**Day plan**" in reply["reply"]
    assert "Call the dentist about Thursday. Then pick up the parcel." in reply["reply"]
    assert MARKERS[intent][language] in reply["reply"]


@pytest.mark.parametrize(("intent", "language", "message"), _rows(TASKS, "tasks"))
def test_r38_open_tasks_lists_each_unticked_task_in_order(
    api: Any, intent: str, language: str, message: str
) -> None:
    reply = turn(api, message)
    assert tools(reply) == ["read_active_note"]
    text = reply["reply"]
    assert MARKERS[intent][language] in text
    assert text.index("- Book the dentist") < text.index("- Send the parcel to Lyon")
    assert "Buy milk" not in text


@pytest.mark.parametrize(("intent", "language", "message"), _rows(OUTLINE, "outline"))
def test_r38_outline_lists_the_headings(api: Any, intent: str, language: str, message: str) -> None:
    reply = turn(api, message)
    assert tools(reply) == ["read_active_note"]
    assert MARKERS[intent][language] in reply["reply"]
    assert "- Day plan\n  - Errands\n  - Words" in reply["reply"]


@pytest.mark.parametrize(("intent", "language", "row"), _rows(FIND, "find"))
def test_r38_find_quotes_the_lines_with_their_numbers(
    api: Any, intent: str, language: str, row: tuple[str, str]
) -> None:
    message, term = row
    reply = turn(api, message)
    assert tools(reply) == ["read_active_note"]
    assert MARKERS[intent][language] in reply["reply"]
    assert term in reply["reply"]
    lines = DAY.split("\n")
    expected = [
        f"{n + 1}: {line}" for n, line in enumerate(lines) if term.casefold() in line.casefold()
    ]
    assert expected and all(line in reply["reply"] for line in expected)


@pytest.mark.parametrize(("intent", "language", "message"), _rows(SUMMARY, "selection"))
def test_r38_selection_addresses_the_selected_text(
    api: Any, intent: str, language: str, message: str
) -> None:
    reply = turn(api, message, selection=SELECTION)
    assert tools(reply) == ["read_active_note"]
    assert MARKERS[intent][language] in reply["reply"]
    # R83: summarised (its first sentence, counts, words), not quoted back as Markdown.
    assert "Call the dentist about Thursday." in reply["reply"]
    assert "> " not in reply["reply"]
    assert "Then pick up the parcel" not in reply["reply"]


def test_r38_selection_on_a_stale_copy_says_so_and_answers_about_the_whole_note(api: Any) -> None:
    client, key = api
    response = client.post(
        "/v1/agent/turns",
        json={"conversation": "table", "message": "summarise this"},
        headers={
            "Authorization": "Bearer test-device-token",
            "X-Key-Session": key,
            "X-Ambient-Note": pointer_header("notes/day.md", DAY + "typed", selection=SELECTION),
        },
    )
    reply = response.json()
    assert "I can't tell which text it is. Here is the whole note instead." in reply["reply"]
    assert "Then pick up the parcel." in reply["reply"]
    # R25: the tool result keeps the exact sentence; the reply says it for the person.
    assert reply["toolCalls"][0]["result"]["caveat"].startswith("The saved copy is behind what")
    assert "The saved copy is behind your screen" in reply["reply"]
    assert "the user has on screen" not in reply["reply"]


@pytest.mark.parametrize(("intent", "language", "message"), _rows(COMPARE, "compare"))
def test_r38_compare_reads_both_notes(api: Any, intent: str, language: str, message: str) -> None:
    reply = turn(api, message)
    assert tools(reply) == ["read_active_note", "read_document"]
    assert reply["toolCalls"][1]["arguments"] == {"path": "notes/other.md"}
    text = reply["reply"]
    assert MARKERS[intent][language] in text
    assert "Errands" in text  # a heading both notes have
    assert "Day plan" in text and "Parcel" in text  # headings only one of them has


@pytest.mark.parametrize(("intent", "language", "message"), _rows(LISTING, "listing"))
def test_r38_listing(api: Any, intent: str, language: str, message: str) -> None:
    reply = turn(api, message)
    assert tools(reply) == ["list_documents"]
    assert MARKERS[intent][language] in reply["reply"]
    assert "- notes/day.md" in reply["reply"]


@pytest.mark.parametrize(
    ("intent", "language", "message"), [*_rows(GREETING, "greeting"), *_rows(HELP, "help")]
)
def test_r38_greeting_and_help_call_no_tool_and_say_how_to_connect_a_model(
    api: Any, intent: str, language: str, message: str
) -> None:
    reply = turn(api, message)
    assert tools(reply) == []
    assert MARKERS[intent][language] in reply["reply"]
    # In the app the menu is the way: its English name, as the menu shows it (R37); a chat
    # reply names no command-line flag or environment variable (R83).
    assert "**Assistant → Assistant settings…**" in reply["reply"]
    assert "--model" not in reply["reply"] and "AMBIENT_MODEL" not in reply["reply"]


@pytest.mark.parametrize("message", UNRELATED)
def test_r38_unrelated_messages_never_get_an_answer_about_the_note(api: Any, message: str) -> None:
    """R38, R83: a question may be looked up in the note's lines (its words could be
    there), but an unrelated message is never answered with the note: one sentence that
    it can't, and the nearest ask it can serve."""
    reply = turn(api, message)
    assert tools(reply) in ([], ["read_active_note"])
    assert "Day plan" not in reply["reply"] and "Open tasks" not in reply["reply"]
    first = reply["reply"].split("\n\n")[0]
    language = classify(message).language
    assert first in (
        phrase(language, phrases.OTHER),
        phrase(language, phrases.UNSUPPORTED),
        phrase(language, phrases.NOT_IN_NOTE, path="notes/day.md"),
    )
    assert phrase(language, phrases.TRY, example="")[:4] in reply["reply"]
    assert "--model" not in reply["reply"]
