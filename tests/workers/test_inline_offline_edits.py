"""R70: the offline inline edits are exact in the seven languages of R38; else one sentence."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from workers.inline import phrases
from workers.inline.edits import answer
from workers.inline.words import PHRASES as EDIT_PHRASES
from workers.offline.catalogue import LOCALE_DIR, phrase
from workers.offline.replies import LANGUAGES

EDITS = {
    # edit: (selection, replacement, summary)
    "tasks": ("buy milk\n- call Sam\n", "- [ ] buy milk\n- [ ] call Sam\n", phrases.TASKS),
    "tick": ("- [ ] a\n- [ ] b\n", "- [x] a\n- [x] b\n", phrases.TICK),
    "untick": ("- [x] a\n- [X] b\n", "- [ ] a\n- [ ] b\n", phrases.UNTICK),
    "sort": ("pear\napple\nBanana\n", "apple\nBanana\npear\n", phrases.SORT),
    "number": ("- a\n- b\n", "1. a\n2. b\n", phrases.NUMBER),
    "heading": ("Plan\n", "# Plan\n", phrases.HEADING),
    "bold": ("- [ ] buy milk\n", "- [ ] **buy milk**\n", phrases.BOLD),
    "italic": ("note\n", "*note*\n", phrases.ITALIC),
    "remove_empty": ("a\n\nb\n\n", "a\nb\n", phrases.REMOVE_EMPTY),
    "remove_repeated": ("a\nb\na\n", "a\nb\n", phrases.REMOVE_REPEATED),
    "upper": ("Abc é\n", "ABC É\n", phrases.UPPER_CASE),
    "lower": ("ABC É\n", "abc é\n", phrases.LOWER_CASE),
    "title": ("a tale of two\n", "A Tale Of Two\n", phrases.TITLE_CASE),
    "join": ("one\ntwo\nthree\n", "one two three\n", phrases.JOIN),
    "summary": ("# Plan\n- [ ] write\n- [x] read\n", "Plan; write; read\n", phrases.SUMMARY),
}

ASKED = {
    "en": ["make this a task list", "tick these off", "untick these", "sort these lines",
           "number the list", "make this a heading", "make it bold", "make it italic",
           "remove the empty lines", "remove duplicate lines", "make it upper case",
           "make it lower case", "title case please", "join these lines", "summarise this"],
    "fr": ["fais-en une liste de tâches", "coche ces tâches", "décoche ces tâches",
           "trie ces lignes", "numérote la liste", "fais-en un titre", "mets en gras",
           "mets en italique", "supprime les lignes vides", "supprime les doublons",
           "mets en majuscules", "mets en minuscules", "casse de titre", "joins ces lignes",
           "résume ça"],
    "de": ["mach daraus eine Aufgabenliste", "diese Aufgaben abhaken", "Haken entfernen",
           "Zeilen sortieren", "Liste nummerieren", "als Überschrift", "fett machen",
           "kursiv machen", "leere Zeilen entfernen", "doppelte Zeilen entfernen",
           "in Großbuchstaben", "in Kleinbuchstaben", "jedes Wort groß schreiben",
           "Zeilen verbinden", "fasse das zusammen"],
    "es": ["conviértelo en lista de tareas", "marca como hechas", "desmarca estas tareas",
           "ordena estas líneas", "numera la lista", "hazlo un encabezado", "ponlo en negrita",
           "ponlo en cursiva", "quita las líneas vacías", "quita las líneas repetidas",
           "pásalo a mayúsculas", "pásalo a minúsculas", "mayúscula inicial en cada palabra",
           "une las líneas", "resume esto"],
    "ja": ["タスクリストにして", "完了にして", "未完了にして", "並べ替えて", "番号を付けて",
           "見出しにして", "太字にして", "斜体にして", "空行を削除して", "重複を削除して",
           "大文字にして", "小文字にして", "各単語を大文字にして", "一行にまとめて", "要約して"],
    "zh": ["变成任务列表", "标记为完成", "标记为未完成", "排序", "加上编号", "设为标题", "加粗",
           "改成斜体", "删除空行", "删除重复的行", "改成大写", "改成小写", "首字母大写",
           "合并成一行", "总结一下"],
    "ko": ["할 일 목록으로 만들어 줘", "완료로 표시해 줘", "체크 해제해 줘", "정렬해 줘",
           "번호를 매겨 줘", "제목으로 만들어 줘", "굵게 해 줘", "기울임꼴로 해 줘",
           "빈 줄을 지워 줘", "중복된 줄을 지워 줘", "대문자로 바꿔 줘", "소문자로 바꿔 줘",
           "단어 첫 글자를 대문자로", "한 줄로 합쳐 줘", "요약해 줘"],
}  # fmt: skip

CASES = [
    (language, edit, instruction)
    for language, said in ASKED.items()
    for edit, instruction in zip(EDITS, said, strict=True)
]


@pytest.mark.parametrize(("language", "edit", "instruction"), CASES)
def test_r70_each_offline_edit_is_exact_in_each_language(
    language: str, edit: str, instruction: str
) -> None:
    selection, replacement, summary = EDITS[edit]
    found = answer(instruction, selection)
    assert found.kind == "edit"
    assert found.replacement == replacement
    assert found.summary == phrase(language, summary, domain="inline")
    if language != "en":
        assert found.summary != summary  # said in the instruction's language


@pytest.mark.parametrize(
    ("language", "instruction"),
    [
        ("en", "translate this into Latin"),
        ("fr", "traduis ce texte en latin s'il te plaît"),
        ("de", "übersetze das bitte ins Lateinische"),
        ("es", "traduce esto al latín por favor"),
        ("ja", "これをラテン語に翻訳して"),
        ("zh", "把这个翻译成拉丁语"),
        ("ko", "이것을 라틴어로 번역해 줘"),
    ],
)
def test_r70_anything_else_gets_one_sentence_of_what_offline_can_do(
    language: str, instruction: str
) -> None:
    found = answer(instruction, "some text\n")
    assert found.kind == "refusal" and found.replacement == ""
    assert found.summary == phrase(language, phrases.REFUSAL, domain="inline")
    # One sentence: a single full stop at its end, naming the model for the rest.
    stops = sum(found.summary.count(mark) for mark in ".。")
    assert stops == 1 and found.summary.rstrip()[-1] in ".。"


def test_r70_the_english_refusal_names_what_it_can_do_and_the_model() -> None:
    said = answer("write a poem", "x\n").summary
    named = ("task list", "tick", "sort", "number", "heading", "bold", "italic", "empty")
    named += ("repeated", "case", "join", "summarise", "configured model")
    for words in named:
        assert words in said


def test_r70_nothing_selected_is_refused_offline_and_an_unchanged_selection_says_so() -> None:
    assert answer("sort these lines", "").kind == "refusal"
    same = answer("sort these lines", "a\nb\n")
    assert same.kind == "edit" and same.replacement == "a\nb\n"
    assert same.summary == phrases.NO_CHANGE


def test_r70_edits_keep_indents_and_a_missing_final_line_break() -> None:
    assert answer("make this a task list", "  one\n  two").replacement == "  - [ ] one\n  - [ ] two"
    assert answer("tick", "text - [ ] not a task\n").replacement == "text - [ ] not a task\n"
    assert answer("heading 2", "# Plan").replacement == "## Plan"


@pytest.mark.parametrize("language", ["ja", "fr", "de", "es", "zh", "ko"])
def test_r70_each_inline_catalogue_translates_every_sentence(language: str) -> None:
    with (LOCALE_DIR / language / "LC_MESSAGES" / "inline.po").open("rb") as source:
        catalog = read_po(source)
    translated = {message.id: message.string for message in catalog if message.id}
    assert set(translated) == set(phrases.ALL)
    for message_id, text in translated.items():
        assert isinstance(text, str) and text.strip() and text != message_id, message_id


def test_r39_r70_an_edit_is_linear_in_the_selection() -> None:
    line = "- [ ] " + "a" * 60 + "\n"
    small = answer("tick", line * 20).replacement
    large = answer("tick", line * 270).replacement  # about 16 KiB
    assert small.count("[x]") == 20 and large.count("[x]") == 270


def test_every_inline_edit_has_words_in_each_language_the_assistant_speaks_R38() -> None:
    """One list of the languages (the offline assistant's): the inline edits keep no copy."""
    for edit, by_language in EDIT_PHRASES.items():
        assert sorted(by_language) == sorted(LANGUAGES), edit
