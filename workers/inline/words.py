"""The offline inline edits' words in the seven languages of R38 (R70).

As for the offline assistant's edit requests (:mod:`workers.offline.edit_words`):
Latin-script phrases match whole words of the case-folded instruction, CJK phrases
anywhere in it, and the phrase found gives the instruction's language. The edits are
looked for in :data:`ORDER`: a phrase that holds another's words comes first ("untick"
before "tick", "title case" before "upper case", "summarise in one line" before "one
line").
"""

from __future__ import annotations

from typing import Final, Literal, get_args

# The order the edits are looked for in (see above): ORDER is read off this Literal.
Edit = Literal[
    "untick",
    "tick",
    "remove_empty",
    "remove_repeated",
    "title_case",
    "upper_case",
    "lower_case",
    "tasks",
    "number",
    "sort",
    "heading",
    "bold",
    "italic",
    "summary",
    "join",
]

ORDER: Final[tuple[Edit, ...]] = get_args(Edit)

PHRASES: Final[dict[Edit, dict[str, tuple[str, ...]]]] = {
    "untick": {
        "en": ("untick", "uncheck", "mark as not done", "mark not done", "mark them not done",
               "mark undone", "mark as open", "reopen"),
        "fr": ("décoche", "décocher", "marque comme non fait", "marque comme non faites",
               "marquer comme non fait", "rouvre"),
        "de": ("haken entfernen", "entferne die haken", "als offen markieren",
               "als nicht erledigt markieren", "als unerledigt markieren"),
        "es": ("desmarca", "desmarcar", "marca como pendiente", "marcar como pendiente",
               "marca como pendientes", "marca como no hecho"),
        "ja": ("未完了に", "チェックを外"),
        "zh": ("标记为未完成", "标为未完成", "取消勾选", "取消完成"),
        "ko": ("체크 해제", "미완료로", "완료 취소"),
    },
    "tick": {
        "en": ("tick", "tick off", "check off", "mark as done", "mark done", "mark them done",
               "mark complete", "mark as complete", "cross off"),
        "fr": ("coche", "cocher", "marque comme fait", "marque comme faites",
               "marquer comme fait", "marque comme terminé", "marque comme terminées"),
        "de": ("abhaken", "hake ab", "hak ab", "als erledigt markieren", "markiere als erledigt",
               "erledigt markieren"),
        "es": ("marca como hecho", "marca como hechas", "marca como hecha", "marcar como hecho",
               "marca como completado", "marca como completadas", "tacha", "tachar"),
        "ja": ("完了に", "チェックを入れ", "チェックして", "済みに"),
        "zh": ("标记为完成", "标为完成", "勾选", "打勾", "标记完成"),
        "ko": ("완료로 표시", "완료 표시", "완료 처리", "체크해", "완료로"),
    },
    "remove_empty": {
        "en": ("remove empty lines", "remove the empty lines", "remove blank lines",
               "remove the blank lines", "delete empty lines", "delete blank lines",
               "delete the empty lines", "strip empty lines", "no empty lines", "empty lines",
               "blank lines"),
        "fr": ("lignes vides", "ligne vide"),
        "de": ("leere zeilen", "leeren zeilen", "leerzeilen"),
        "es": ("líneas vacías", "lineas vacias", "líneas en blanco"),
        "ja": ("空行", "空の行"),
        "zh": ("空行",),
        "ko": ("빈 줄", "빈줄"),
    },
    "remove_repeated": {
        "en": ("remove repeated lines", "remove duplicate lines", "remove duplicates",
               "remove the duplicates", "delete duplicates", "deduplicate", "dedupe",
               "repeated lines", "duplicate lines"),
        "fr": ("doublons", "lignes répétées", "lignes en double", "dédoublonne"),
        "de": ("doppelte zeilen", "doppelten zeilen", "duplikate", "wiederholte zeilen",
               "dubletten"),
        "es": ("líneas repetidas", "lineas repetidas", "duplicados", "líneas duplicadas",
               "repetidas"),
        "ja": ("重複",),
        "zh": ("去重", "重复"),
        "ko": ("중복", "반복된 줄"),
    },
    "title_case": {
        "en": ("title case", "titlecase", "capitalize", "capitalise", "capitalize each word",
               "capitalise each word"),
        "fr": ("casse de titre", "majuscule à chaque mot", "majuscules initiales",
               "initiales en majuscule"),
        "de": ("jedes wort groß", "anfangsbuchstaben groß", "titelschreibung"),
        "es": ("tipo título", "mayúscula inicial", "mayúsculas iniciales",
               "cada palabra con mayúscula"),
        "ja": ("単語の先頭を大文字", "タイトルケース", "各単語を大文字", "頭文字を大文字"),
        "zh": ("首字母大写", "标题大小写"),
        "ko": ("첫 글자를 대문자", "단어 첫 글자", "타이틀 케이스"),
    },
    "upper_case": {
        "en": ("upper case", "uppercase", "all caps", "capitals", "capital letters"),
        "fr": ("majuscules", "majuscule"),
        "de": ("großbuchstaben", "versalien", "alles groß"),
        "es": ("mayúsculas", "mayusculas"),
        "ja": ("大文字",),
        "zh": ("大写",),
        "ko": ("대문자",),
    },
    "lower_case": {
        "en": ("lower case", "lowercase", "small letters"),
        "fr": ("minuscules", "minuscule"),
        "de": ("kleinbuchstaben", "alles klein"),
        "es": ("minúsculas", "minusculas"),
        "ja": ("小文字",),
        "zh": ("小写",),
        "ko": ("소문자",),
    },
    "tasks": {
        "en": ("task list", "a task list", "into tasks", "as tasks", "to tasks", "make tasks",
               "make them tasks", "make these tasks", "todo list", "to do list", "checklist",
               "check list", "checkboxes", "todos"),
        "fr": ("liste de tâches", "en tâches", "checklist", "liste de choses à faire"),
        "de": ("aufgabenliste", "als aufgaben", "in aufgaben", "zu aufgaben", "checkliste",
               "todo liste"),
        "es": ("lista de tareas", "en tareas", "checklist", "lista de pendientes"),
        "ja": ("タスクリスト", "タスクに", "チェックリスト", "やることリスト", "todoリスト"),
        "zh": ("任务列表", "待办清单", "待办列表", "变成任务", "清单"),
        "ko": ("할 일 목록", "할일 목록", "체크리스트", "작업 목록", "할 일로"),
    },
    "number": {
        "en": ("number", "numbered", "number the lines", "number the list", "numbered list"),
        "fr": ("numérote", "numéroter", "liste numérotée", "numérotée"),
        "de": ("nummeriere", "nummerieren", "nummerierte liste", "durchnummerieren",
               "nummeriert"),
        "es": ("numera", "numerar", "lista numerada", "numerada"),
        "ja": ("番号を付け", "番号付き", "番号をつけ", "番号を振"),
        "zh": ("编号", "序号"),
        "ko": ("번호",),
    },
    "sort": {
        "en": ("sort", "alphabetize", "alphabetise", "alphabetically", "alphabetical order",
               "in order"),
        "fr": ("trie", "trier", "ordre alphabétique", "classe"),
        "de": ("sortiere", "sortieren", "alphabetisch", "ordne"),
        "es": ("ordena", "ordenar", "orden alfabético", "alfabéticamente"),
        "ja": ("並べ替え", "並び替え", "ソート", "順に並べ"),
        "zh": ("排序", "按字母"),
        "ko": ("정렬",),
    },
    "heading": {
        "en": ("heading", "header", "headline"),
        "fr": ("titre", "en tête", "intertitre"),
        "de": ("überschrift",),
        "es": ("encabezado", "título", "titular"),
        "ja": ("見出し",),
        "zh": ("标题",),
        "ko": ("제목", "헤딩"),
    },
    "bold": {
        "en": ("bold", "strong"),
        "fr": ("gras",),
        "de": ("fett", "fettdruck", "fettgedruckt"),
        "es": ("negrita", "negritas"),
        "ja": ("太字",),
        "zh": ("加粗", "粗体"),
        "ko": ("굵게", "볼드"),
    },
    "italic": {
        "en": ("italic", "italics", "italicize", "italicise", "emphasize", "emphasise"),
        "fr": ("italique",),
        "de": ("kursiv",),
        "es": ("cursiva", "itálica"),
        "ja": ("斜体", "イタリック"),
        "zh": ("斜体",),
        "ko": ("기울임", "이탤릭"),
    },
    "summary": {
        "en": ("summarise", "summarize", "summary", "digest", "tl dr", "tldr", "gist"),
        "fr": ("résume", "résumer", "résumé", "synthèse", "synthétise"),
        "de": ("zusammenfassen", "fasse", "fass", "zusammenfassung"),
        "es": ("resume", "resumir", "resumen"),
        "ja": ("要約", "要点", "サマリー"),
        "zh": ("总结", "概括", "摘要", "归纳"),
        "ko": ("요약",),
    },
    "join": {
        "en": ("join", "join the lines", "merge the lines", "merge lines", "one line",
               "single line", "combine the lines"),
        "fr": ("joins", "joindre", "fusionne les lignes", "une seule ligne", "réunis"),
        "de": ("zusammenfügen", "verbinde", "eine zeile", "zeilen verbinden"),
        "es": ("une las líneas", "unir", "junta", "juntar", "una sola línea"),
        "ja": ("一行にまとめ", "1行にまとめ", "結合", "つなげ"),
        "zh": ("合并", "连成一行", "连接成一行"),
        "ko": ("한 줄로", "합쳐", "이어 붙여"),
    },
}  # fmt: skip
"""Each edit's usual phrasings, per language (R38's seven)."""

LANGUAGES: Final = ("en", "fr", "de", "es", "ja", "zh", "ko")
