"""Tasks named by their place: "the first open task", "the last one", "the one about milk" (R54).

People name a task by its place in the list as often as by its words. A request's
target is read for an ordinal (first, second, … tenth, last, next, or a number
such as "2nd"), a state (open or done) and an "about" phrase, in the seven
languages of R38; what is left are the task's words, if any. The place counts the
tasks the request can change (open ones for tick, done ones for untick, all for
remove, narrowed by a state or words when the request has them), top to bottom.
Each table is read once per request: linear in the request's size, which is bounded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal, TypeVar

from workers.offline.intents import is_cjk

V = TypeVar("V")
LAST: Final = -1
TaskState = Literal["open", "done"]

ORDINALS: Final[dict[str, dict[str, int]]] = {
    "en": {
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
        "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "last": LAST, "next": 1,
        "top": 1, "bottom": LAST, "final": LAST,
    },
    "fr": {
        "premier": 1, "première": 1, "deuxième": 2, "second": 2, "seconde": 2,
        "troisième": 3, "quatrième": 4, "cinquième": 5, "sixième": 6, "septième": 7,
        "huitième": 8, "neuvième": 9, "dixième": 10, "dernier": LAST, "dernière": LAST,
        "prochain": 1, "prochaine": 1, "suivant": 1, "suivante": 1,
    },
    "de": {
        **{f"erste{end}": 1 for end in ("", "n", "r", "s", "m")},
        **{f"zweite{end}": 2 for end in ("", "n", "r", "s", "m")},
        **{f"dritte{end}": 3 for end in ("", "n", "r", "s", "m")},
        **{f"vierte{end}": 4 for end in ("", "n", "r", "s", "m")},
        **{f"fünfte{end}": 5 for end in ("", "n", "r", "s", "m")},
        **{f"letzte{end}": LAST for end in ("", "n", "r", "s", "m")},
        **{f"nächste{end}": 1 for end in ("", "n", "r", "s", "m")},
    },
    "es": {
        "primera": 1, "primer": 1, "primero": 1, "segunda": 2, "segundo": 2,
        "tercera": 3, "tercer": 3, "tercero": 3, "cuarta": 4, "cuarto": 4,
        "quinta": 5, "quinto": 5, "sexta": 6, "sexto": 6, "última": LAST, "último": LAST,
        "siguiente": 1, "próxima": 1, "próximo": 1,
    },
    "ja": {
        "最初の": 1, "一番目": 1, "1番目": 1, "二番目": 2, "2番目": 2, "三番目": 3,
        "3番目": 3, "四番目": 4, "4番目": 4, "五番目": 5, "5番目": 5, "最後の": LAST,
        "次の": 1, "一つ目": 1, "二つ目": 2, "三つ目": 3,
    },
    "zh": {
        "第一个": 1, "第一": 1, "第二个": 2, "第二": 2, "第三个": 3, "第三": 3,
        "第四个": 4, "第四": 4, "第五个": 5, "第五": 5, "最后一个": LAST, "最后": LAST,
        "下一个": 1,
    },
    "ko": {
        "첫 번째": 1, "첫번째": 1, "첫": 1, "두 번째": 2, "두번째": 2, "세 번째": 3,
        "세번째": 3, "네 번째": 4, "네번째": 4, "다섯 번째": 5, "다섯번째": 5,
        "마지막": LAST, "다음": 1,
    },
}  # fmt: skip
"""Ordinal words, per language: 1 is the first, ``LAST`` the last; "next" is the first."""

_NUMBERED: Final = re.compile(
    r"(?<!\w)(?:#\s?(\d{1,3})|(\d{1,3})(?:st|nd|rd|th|e|er|re|ème|º|ª|\.)"
    r"|(?:task|tâche|aufgabe|tarea|number|nummer|numéro|número)\s(\d{1,3}))(?!\w)"
    r"|第\s?(\d{1,3})\s?个?|(\d{1,3})\s?番目|(\d{1,3})\s?번째"
)
"""A task named by its number: "#2", "2nd", "2e", "2.", "task 2", 第2个, 2番目, 2번째."""

STATES: Final[dict[str, TaskState]] = {
    # en
    "open": "open", "unticked": "open", "unchecked": "open", "pending": "open",
    "remaining": "open", "unfinished": "open", "ticked": "done", "checked": "done",
    "completed": "done", "finished": "done", "done": "done",
    # fr
    "ouverte": "open", "ouvert": "open", "à faire": "open", "non faite": "open",
    "cochée": "done", "faite": "done", "terminée": "done",
    # de
    "offene": "open", "offenen": "open", "offen": "open", "erledigte": "done",
    "erledigten": "done", "abgehakte": "done",
    # es
    "pendiente": "open", "abierta": "open", "hecha": "done", "completada": "done",
    "tachada": "done",
    # ja, zh, ko
    "未完了の": "open", "完了済みの": "done", "完了した": "done", "未完成的": "open",
    "未完成": "open", "已完成的": "done", "已完成": "done", "미완료": "open", "완료된": "done",
}  # fmt: skip
"""Words that say which tasks the place counts: open ones or done ones."""

ABOUT: Final = (
    # en
    "the one about", "the one with", "the one for", "one about", "about", "regarding",
    # fr
    "celle sur", "celle qui parle de", "celle avec", "celle de", "à propos de",
    # de
    "die über", "die mit", "die zu", "über",
    # es
    "la que habla de", "la de", "la sobre", "sobre",
    # ja, zh, ko
    "についての", "について", "に関する", "のやつ", "关于", "有关", "에 관한", "관련",
)  # fmt: skip
"""Phrases around a task's words: "the one about milk" names it by "milk"."""

GENERIC: Final = frozenset(
    (
        "the", "a", "an", "one", "task", "tasks", "todo", "item", "in", "on", "my", "list",
        "le", "la", "les", "l", "tâche", "tâches", "de", "du", "des",
        "die", "der", "das", "den", "dem", "aufgabe", "aufgaben", "ab", "in",
        "el", "los", "las", "tarea", "tareas", "del",
        "タスク", "を", "の", "任务", "项", "个", "把", "将",
        "할", "일", "할 일", "작업", "항목", "을", "를", "해줘", "해", "줘", "해주세요",
    )
)  # fmt: skip
"""Words that name no task: what is left of a place reference once its words are read."""


@dataclass(frozen=True)
class TaskReference:
    """What a request's target says about the task: a place, a state and its words."""

    position: int | None
    """1 for the first, 2 for the second, ``LAST`` for the last; None when no place is named."""
    state: TaskState | None
    words: str
    """The task's own words, or "" when the place alone names it."""
    about: bool
    """The words came after "about" (or the like): they name the task, not a place."""


def task_reference(target: str) -> TaskReference:
    """Read the place, the state and the words of a request's target."""
    text = target.casefold()
    position: int | None = None
    numbered = _NUMBERED.search(text)
    if numbered is not None:
        position = int(next(group for group in numbered.groups() if group))
        text = _cut(text, numbered.start(), numbered.end())
    else:
        position, text = _take(text, (w for table in ORDINALS.values() for w in table.items()))
    state, text = _take(text, STATES.items())
    about = False
    for phrase in ABOUT:
        at = _find(text, phrase)
        if at >= 0:
            about = True
            text = _cut(text, at, at + len(phrase))
            break
    return TaskReference(position, state, _meaningful(text), about)


def _take(text: str, table: Iterable[tuple[str, V]]) -> tuple[V | None, str]:
    """The value of the longest word of ``table`` found in ``text``, and the text without it."""
    best: tuple[int, int, V] | None = None
    for word, value in table:
        at = _find(text, word)
        if at >= 0 and (best is None or len(word) > best[1] - best[0]):
            best = (at, at + len(word), value)
    if best is None:
        return None, text
    return best[2], _cut(text, best[0], best[1])


def _find(text: str, word: str) -> int:
    """Where ``word`` starts in ``text`` as whole words (Latin) or anywhere (CJK); -1 if not.

    A plain search, then a look at the characters on each side: a regular expression per
    word of the tables cost a long ask ten times more.
    """
    start = text.find(word)
    if start < 0 or is_cjk(word):
        return start
    while start >= 0:
        end = start + len(word)
        before = start == 0 or not (text[start - 1].isalnum() or text[start - 1] == "_")
        after = end == len(text) or not (text[end].isalnum() or text[end] == "_")
        if before and after:
            return start
        start = text.find(word, start + 1)
    return -1


def _cut(text: str, start: int, end: int) -> str:
    return f"{text[:start]} {text[end:]}"


def _meaningful(text: str) -> str:
    """The words left that could name a task: "" when only articles and task nouns are left."""
    words = [word for word in re.split(r"[\s,.:;!?'’。、，！？]+", text) if word]
    kept = [word for word in words if word not in GENERIC]
    if is_cjk(text):
        joined = "".join(kept)
        for filler in sorted(GENERIC, key=len, reverse=True):
            if is_cjk(filler):
                joined = joined.replace(filler, "")
        return joined
    return " ".join(kept)
