"""The words of the offline edit requests, in the seven languages of R38 (R54).

Latin-script phrases are matched as whole words of the case-folded request, CJK
phrases anywhere in it; the phrase found also gives the request's language. Untick
is looked for before tick, since some untick phrases hold a tick phrase ("mark as
not done").
"""

from __future__ import annotations

from typing import Final

UNTICK: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "untick",
        "uncheck",
        "mark it not done",
        "mark as not done",
        "mark not done",
        "mark it as not done",
        "mark it open",
        "mark as open",
        "reopen",
        "not done yet",
    ),
    "fr": (
        "décoche",
        "décocher",
        "marque comme non fait",
        "marque la comme non faite",
        "marque comme à faire",
    ),
    "de": ("als offen markieren", "markiere als offen", "haken entfernen", "als nicht erledigt"),
    "es": ("desmarca", "desmarcar", "marca como pendiente", "marcar como pendiente"),
    "ja": ("未完了に", "チェックを外"),
    "zh": ("标记为未完成", "标为未完成", "取消勾选"),
    "ko": ("미완료로", "체크 해제", "완료 취소"),
}
TICK: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "tick off",
        "tick",
        "check off",
        "cross off",
        "mark it done",
        "mark it as done",
        "mark as done",
        "mark done",
        "mark it complete",
        "mark as complete",
        "mark complete",
        "mark it as complete",
        "complete the task",
    ),
    "fr": (
        "coche",
        "cocher",
        "marque comme fait",
        "marque comme faite",
        "marque le comme fait",
        "marque la comme faite",
        "marque comme terminé",
        "marque comme terminée",
    ),
    "de": ("hake", "abhaken", "als erledigt markieren", "markiere als erledigt", "als erledigt"),
    "es": (
        "tacha",
        "tachar",
        "marca como hecho",
        "marca como hecha",
        "marcar como hecho",
        "marca como completada",
        "marca como completado",
    ),
    "ja": ("完了にして", "完了にする", "完了に", "済みにして", "チェックして"),
    "zh": ("标记为完成", "标为完成", "勾选", "打勾"),
    "ko": ("완료로 표시", "완료 표시", "완료 처리", "체크해"),
}
ADD: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "add a task",
        "add task",
        "add the task",
        "add a todo",
        "add todo",
        "add a to do",
        "new task",
        "create a task",
    ),
    "fr": ("ajoute une tâche", "ajouter une tâche", "ajoute la tâche", "nouvelle tâche"),
    "de": ("füge eine aufgabe hinzu", "aufgabe hinzufügen", "neue aufgabe", "füge die aufgabe"),
    "es": (
        "añade una tarea",
        "agrega una tarea",
        "añadir una tarea",
        "nueva tarea",
        "añade la tarea",
    ),
    "ja": ("タスクを追加", "タスクに追加", "タスク追加"),
    "zh": ("添加任务", "添加一个任务", "新增任务", "加一个任务"),
    "ko": ("할 일 추가", "할일 추가", "작업 추가"),
}
REMOVE: Final[dict[str, tuple[str, ...]]] = {
    "en": ("remove the task", "remove task", "delete the task", "delete task", "remove", "delete"),
    "fr": ("supprime la tâche", "supprimer la tâche", "retire la tâche", "supprime", "enlève"),
    "de": ("lösche die aufgabe", "aufgabe löschen", "entferne die aufgabe", "entferne", "lösche"),
    "es": ("elimina la tarea", "borra la tarea", "quita la tarea", "elimina", "borra"),
    "ja": ("タスクを削除", "を削除", "削除して"),
    "zh": ("删除任务", "删除", "删掉", "移除"),
    "ko": ("할 일 삭제", "작업 삭제", "삭제해", "지워"),
}

STOP_WORDS: Final = frozenset(
    (
        # en
        "the",
        "a",
        "an",
        "it",
        "its",
        "task",
        "todo",
        "off",
        "done",
        "mark",
        "as",
        "my",
        "i",
        "ve",
        "have",
        "please",
        "and",
        "to",
        "of",
        "in",
        "on",
        "this",
        "that",
        "one",
        "for",
        "from",
        "note",
        "list",
        "can",
        "you",
        "just",
        "now",
        "already",
        # fr
        "le",
        "la",
        "les",
        "un",
        "une",
        "de",
        "du",
        "des",
        "tâche",
        "ma",
        "mon",
        "comme",
        "fait",
        "faite",
        "et",
        "j",
        "ai",
        "s",
        "il",
        "te",
        "plaît",
        "stp",
        # de
        "der",
        "die",
        "das",
        "den",
        "dem",
        "ein",
        "eine",
        "aufgabe",
        "ab",
        "als",
        "ich",
        "habe",
        "bitte",
        "und",
        "erledigt",
        "mein",
        "meine",
        # es
        "el",
        "los",
        "las",
        "una",
        "tarea",
        "hecho",
        "hecha",
        "como",
        "mi",
        "ya",
        "he",
        "por",
        "favor",
        "y",
        "que",
    )
)
"""Words that never tell tasks apart: articles, the request's own words."""

CJK_FILLERS: Final = (
    "を",
    "は",
    "が",
    "の",
    "把",
    "将",
    "这个",
    "任务",
    "타스크",
    "을",
    "를",
    "할 일",
)
"""Particles and request words cut from the edges of a CJK task description."""

ADD_LEADS: Final = frozenset(("to", "into", "in", "on", "à", "dans", "zu", "in", "a", "en"))
"""A word before the note's path in an add request ("add a task to notes/x.md: …")."""

TICK_AROUND: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    # The task's words sit between the two: "mark the second task done".
    "en": (("mark", "as done"), ("mark", "done"), ("mark", "as complete"), ("mark", "complete"),
           ("mark", "as completed"), ("mark", "completed"), ("mark", "as finished"),
           ("mark", "finished"), ("check", "off"), ("cross", "off"), ("tick", "off")),
    "fr": (("marque", "comme faite"), ("marque", "comme fait"), ("marque", "comme terminée"),
           ("marque", "comme terminé"), ("marquer", "comme faite"), ("marquer", "comme fait")),
    "de": (("markiere", "als erledigt"), ("markier", "als erledigt"), ("markiere", "als fertig"),
           ("hake", "ab"), ("hak", "ab")),
    "es": (("marca", "como hecha"), ("marca", "como hecho"), ("marca", "como completada"),
           ("marca", "como completado"), ("marca", "como terminada"), ("marca", "como terminado")),
}  # fmt: skip
UNTICK_AROUND: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "en": (("mark", "as not done"), ("mark", "not done"), ("mark", "as open"), ("mark", "open"),
           ("mark", "as undone"), ("mark", "undone"), ("mark", "as unfinished")),
    "fr": (("marque", "comme non faite"), ("marque", "comme non fait"),
           ("marque", "comme à faire")),
    "de": (("markiere", "als offen"), ("markiere", "als nicht erledigt")),
    "es": (("marca", "como pendiente"), ("marca", "como no hecha"), ("marca", "como no hecho")),
}  # fmt: skip
TICK_SAID: Final[dict[str, tuple[str, ...]]] = {
    # Said, not asked: "I did X", "X is done". Never read in a question ("is X done?").
    "en": ("i've done", "i have done", "i did", "i've finished", "i have finished", "i finished",
           "i've completed", "i completed", "is done", "are done", "'s done", "is finished",
           "is complete", "i'm done with", "done with", "finished with", "is sorted"),
    "fr": ("j'ai fait", "j'ai fini", "j'ai terminé", "est faite", "est fait", "est terminée",
           "est terminé", "c'est fait", "c'est fini"),
    "de": ("ist erledigt", "sind erledigt", "habe ich erledigt", "ist fertig", "hab ich erledigt",
           "erledigt", "habe ich gemacht", "ich bin fertig mit"),
    "es": ("ya hice", "he hecho", "hice", "he terminado", "terminé", "está hecho", "está hecha",
           "está terminado", "está terminada", "ya está"),
    "ja": ("終わった", "終わりました", "終えた", "やった", "やりました", "済んだ", "済ませた",
           "完了した", "は完了", "できた"),
    "zh": ("做完了", "完成了", "搞定了", "弄好了", "已经做了", "办完了"),
    "ko": ("다 했어", "했어", "했다", "끝났어", "끝냈어", "완료했어", "마쳤어"),
}  # fmt: skip
ADD_SAID: Final[dict[str, tuple[str, ...]]] = {
    # Words around a new task the person says rather than asks for ("X needs doing too").
    # The task comes before the first four; after "remind me to" and the like.
    "en": ("needs doing", "need doing", "needs to be done", "has to be done", "must be done",
           "should be done too", "remind me to", "don't forget to", "i also need to",
           "i also have to", "i need to", "i have to", "i must"),
    "fr": ("est à faire", "à faire aussi", "il faut aussi", "il faut que je", "je dois aussi",
           "je dois", "n'oublie pas de"),
    "de": ("muss auch erledigt werden", "muss noch erledigt werden", "muss erledigt werden",
           "muss auch gemacht werden", "muss noch gemacht werden", "ich muss noch", "ich muss auch",
           "ich muss", "vergiss nicht"),
    "es": ("también hay que hacerlo", "hay que hacerlo", "también hay que", "tengo que", "hay que",
           "también tengo que", "no olvides", "recuérdame"),
    "ja": ("もやらなきゃ", "もやらないと", "もしないと", "しなきゃ", "をやらなきゃ", "もやる"),
    "zh": ("也要做", "还要做", "也得做", "还得", "也要", "还要", "别忘了"),
    "ko": ("도 해야 해", "도 해야 돼", "도 해야", "해야 해", "해야 돼", "잊지 말고"),
}  # fmt: skip
ADD_VERBS: Final[dict[str, tuple[str, ...]]] = {
    # A plain "add X" or "put X on my list": the new task follows the verb, or comes
    # first in the languages that put the verb last.
    "en": ("add", "put", "append", "jot down", "note down", "write down", "include"),
    "fr": ("ajoute", "ajouter", "rajoute", "mets", "mettre", "inscris", "note"),
    "de": ("füge", "setz", "setze", "schreib", "schreibe", "trag", "trage", "nimm"),
    "es": ("añade", "añadir", "agrega", "agregar", "pon", "apunta", "anota", "incluye"),
    "ja": ("リストに追加", "に追加して", "を追加して", "を追加", "に追加", "追加して", "追加",
           "リストに入れて", "に入れて", "に書いて", "を足して"),
    "zh": ("添加到", "加到", "加进", "放到", "写到", "添加", "加上", "加入", "记下"),
    "ko": ("목록에 추가", "추가해", "추가", "목록에 넣어", "넣어", "적어"),
}  # fmt: skip
LIST_WORDS: Final = (
    # Where a new task goes, cut from the task's words ("add milk to my list").
    "to my to do list", "to my todo list", "to my list", "on my list", "onto my list",
    "to the list", "on the list", "to my tasks", "to the tasks", "to my todos", "to this note",
    "to the note", "in my list", "as a task", "to do list", "as well", "too", "also",
    "à ma liste", "sur ma liste", "dans ma liste", "à la liste", "sur la liste", "à mes tâches",
    "dans la note", "aussi",
    "zu meiner liste", "auf meine liste", "auf die liste", "in meine liste", "zur liste",
    "zu meinen aufgaben", "hinzu", "ein", "auch", "noch",
    "a mi lista", "en mi lista", "a la lista", "en la lista", "a mis tareas", "también",
    "リストに", "リスト", "タスクに", "我的清单里", "我的清单", "清单里", "清单", "列表里",
    "列表", "任务里", "목록에", "리스트에", "할 일에",
)  # fmt: skip
FILLER_ENDS: Final = (
    # Politeness and verb endings around a CJK task: cut from its edges.
    "してください", "して下さい", "してね", "して", "ください", "おいて", "吧", "一下", "我的",
    "把", "해 줘", "해줘", "해 주세요", "해주세요", "줘", "주세요", "줄래", "좀", "を", "を", "は",
    "を", "が", "も", "를", "을", "도", "は", "了",
)  # fmt: skip
ASKING: Final = (
    # A request that opens with these asks about the note: "what have I done?" ticks nothing.
    "what", "which", "when", "where", "who", "why", "how", "is", "are", "did", "do", "does",
    "have", "has", "was", "were", "qu", "que", "quoi", "quand", "où", "quel", "quelle",
    "quels", "quelles", "est ce", "was", "wann", "wo", "wer", "welche", "welcher", "wie",
    "ist", "sind", "hat", "habe", "qué", "cuándo", "dónde", "cuál", "cuáles", "quién", "cómo",
    "está", "hay",
)  # fmt: skip
ASKING_CJK: Final = (
    "何", "いつ", "どこ", "どれ", "だれ", "誰", "か？", "什么", "哪", "谁", "吗", "呢", "几",
    "뭐", "무엇", "언제", "어디", "누가", "어느", "까?", "까",
)  # fmt: skip

RENAME: Final[dict[str, tuple[str, ...]]] = {
    # Then the heading's words, a joining word (RENAME_TO) and its new words.
    "en": ("rename the heading", "rename heading", "rename the section", "rename section",
           "rename the title", "change the heading", "change the title", "change the section",
           "retitle", "rename"),
    "fr": ("renomme le titre", "renomme la section", "renomme l intertitre", "renommer le titre",
           "change le titre", "renomme"),
    "de": ("benenne die überschrift", "benenne den abschnitt", "ändere die überschrift",
           "benenne", "nenne die überschrift", "nenne den abschnitt"),
    "es": ("renombra el encabezado", "renombra la sección", "renombra el título",
           "cambia el encabezado", "cambia el título", "renombra"),
}  # fmt: skip
RENAME_TO: Final = (
    " to ",
    " as ",
    " into ",
    " en ",
    " par ",
    " in ",
    " zu ",
    " a ",
    " como ",
    " por ",
)
RENAME_CALL: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    # "call the Notes section Details": the heading between, its new words after.
    "en": (("call the", "section"), ("call the", "heading"), ("name the", "section"),
           ("name the", "heading"), ("call section", ""), ("call the section", "")),
    "fr": (("appelle la section", ""), ("appelle le titre", ""), ("nomme la section", "")),
    "de": (("nenne den abschnitt", ""), ("nenne die überschrift", "")),
    "es": (("llama a la sección", ""), ("llama al encabezado", ""), ("llama la sección", "")),
}  # fmt: skip
RENAME_CJK: Final[dict[str, tuple[str, ...]]] = {
    # The heading, then its new words, then these: 見出し「A」を「B」に変えて.
    "ja": ("に名前を変更", "に名前を変え", "にリネーム", "に変更して", "に変更", "に変えて"),
    "zh": ("重命名为", "改名为", "改成", "改为"),
    "ko": ("로 이름을 바꿔", "으로 이름을 바꿔", "로 바꿔", "으로 바꿔", "로 변경", "으로 변경"),
}  # fmt: skip
RENAME_CJK_NAMING: Final = (
    "に名前を変更", "に名前を変え", "にリネーム", "重命名为", "改名为", "로 이름을 바꿔",
    "으로 이름을 바꿔",
)  # fmt: skip
"""CJK rename words that say "name" themselves; the others ("にして", "改成", "로 바꿔")
change anything, so they rename only when the ask says "heading" (HEADING_NOUNS_CJK)."""
HEADING_NOUNS_CJK: Final = (
    "見出し",
    "タイトル",
    "セクション",
    "标题",
    "章节",
    "제목",
    "섹션",
    "헤딩",
)
HEADING_WORDS: Final = (
    "見出しの", "見出し", "セクション", "标题", "部分", "章节", "把", "제목", "섹션", "헤딩",
    "the heading", "heading", "the section", "section", "the title", "title", "le titre",
    "la section", "die überschrift", "den abschnitt", "el encabezado", "la sección", "um", "の",
)  # fmt: skip

MOVE: Final[dict[str, tuple[str, ...]]] = {
    "en": ("move", "put", "bump", "shift"),
    "fr": ("déplace", "déplacer", "mets", "remonte", "descends"),
    "de": ("verschiebe", "schiebe", "setze", "setz", "stelle", "bewege"),
    "es": ("mueve", "mover", "pon", "sube", "baja"),
    "ja": ("に移動", "へ移動", "移動して", "移して", "動かして", "に持って"),
    "zh": ("移到", "挪到", "放到", "移动到", "调到"),
    "ko": ("로 옮겨", "으로 옮겨", "로 이동", "으로 이동", "옮겨", "이동"),
}  # fmt: skip
MOVE_PLACES: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    # Where to: "top", "bottom", or "after"/"before" the task named next (or, in the
    # languages that put it first, the task named before).
    "en": (("to the top", "top"), ("at the top", "top"), ("to the start", "top"), ("first", "top"),
           ("up top", "top"), ("to the bottom", "bottom"), ("at the bottom", "bottom"),
           ("to the end", "bottom"), ("last", "bottom"), ("below", "after"), ("after", "after"),
           ("under", "after"), ("above", "before"), ("before", "before")),
    "fr": (("tout en haut", "top"), ("en haut", "top"), ("en premier", "top"),
           ("au début", "top"), ("tout en bas", "bottom"), ("en bas", "bottom"),
           ("à la fin", "bottom"), ("en dernier", "bottom"), ("après", "after"),
           ("sous", "after"), ("avant", "before")),
    "de": (("ganz nach oben", "top"), ("nach oben", "top"), ("an den anfang", "top"),
           ("ganz oben", "top"), ("ganz nach unten", "bottom"), ("nach unten", "bottom"),
           ("ans ende", "bottom"), ("ganz unten", "bottom"), ("hinter", "after"),
           ("nach", "after"), ("unter", "after"), ("vor", "before")),
    "es": (("arriba del todo", "top"), ("arriba", "top"), ("al principio", "top"),
           ("al inicio", "top"), ("primero", "top"), ("abajo del todo", "bottom"),
           ("abajo", "bottom"), ("al final", "bottom"), ("después de", "after"),
           ("detrás de", "after"), ("debajo de", "after"), ("antes de", "before")),
    "ja": (("一番上", "top"), ("先頭", "top"), ("最初", "top"), ("一番下", "bottom"),
           ("最後", "bottom"), ("末尾", "bottom"), ("の後ろ", "after"), ("の後", "after"),
           ("のあと", "after"), ("の次", "after"), ("の下", "after"), ("の前", "before"),
           ("の上", "before")),
    "zh": (("最前面", "top"), ("最上面", "top"), ("顶部", "top"), ("开头", "top"),
           ("第一位", "top"), ("最后面", "bottom"), ("最下面", "bottom"), ("底部", "bottom"),
           ("末尾", "bottom"), ("最后", "bottom"), ("后面", "after"), ("之后", "after"),
           ("下面", "after"), ("前面", "before"), ("之前", "before")),
    "ko": (("맨 위", "top"), ("맨 앞", "top"), ("처음", "top"), ("맨 아래", "bottom"),
           ("맨 뒤", "bottom"), ("마지막", "bottom"), ("다음", "after"), ("뒤", "after"),
           ("아래", "after"), ("앞", "before"), ("위", "before")),
}  # fmt: skip
