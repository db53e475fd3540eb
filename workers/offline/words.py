"""The phrasings the offline assistant recognises, per intent, in its seven languages.

Phrases written in Latin script match whole words of the request (case and
punctuation ignored); phrases in Japanese, Chinese or Korean match as substrings,
since those languages do not separate words with spaces. Matching is plain
substring search, linear in the request's size (R39).
"""

from __future__ import annotations

from typing import Final

COMPARE: Final = (
    "compare", "comparison", "difference", "differences", "diff",
    "comparer", "compare", "différence", "différences", "comparaison", "different from",
    "different to", "differ from", "differs from",
    "vergleiche", "vergleich", "vergleichen", "unterschied", "unterschiede",
    "compara", "comparar", "diferencia", "diferencias", "comparación",
    "比べ", "比較", "違い",
    "比较", "对比", "区别",
    "비교", "차이",
)  # fmt: skip

LISTING_VERBS: Final = (
    "list", "show", "which", "what", "all", "my",
    "liste", "lister", "montre", "quelles", "quels", "toutes", "mes",
    "zeige", "zeig", "welche", "alle", "meine",
    "lista", "listar", "muestra", "qué", "cuáles", "todas", "mis",
)  # fmt: skip
LISTING_NOUNS: Final = (
    "notes", "documents", "files", "fichiers",
    "notizen", "dokumente", "dateien", "notas", "documentos", "archivos",
)  # fmt: skip
LISTING_PHRASES: Final = (
    "every note", "all notes", "all my notes", "every document", "all documents",
    "ノート一覧", "ノートの一覧", "ノートのリスト", "ノートを一覧", "どんなノート", "ノートを全部",
    "列出笔记", "列出我的笔记", "笔记列表", "哪些笔记", "所有笔记",
    "노트 목록", "노트 보여", "어떤 노트", "노트 리스트", "모든 노트",
)  # fmt: skip

SEARCH: Final = (
    # Across notes (search_documents); the term comes after these.
    "notes mention", "notes mentioning", "notes that mention", "notes talk about",
    "notes that talk about", "notes contain", "notes containing", "notes that contain",
    "notes say", "notes about", "notes with", "note mentions", "note mentioning",
    "note that mentions", "note talks about", "note contains", "note has", "note says",
    "my notes on", "all notes on",
    "notes do i mention", "notes do i talk about", "notes je parle de", "notes je parle du",
    "notes je mentionne", "notes est ce que je parle de", "notizen erwähne ich",
    "notizen schreibe ich über", "notas hablo de", "notas menciono", "notas hablo del",
    "search my notes for", "search all my notes for", "search all notes for",
    "search the notes for", "search notes for", "search my notes", "search all notes",
    "look through my notes for", "across my notes", "in all my notes", "in any of my notes",
    "notes mentionnent", "notes parlent de", "notes parlent du", "notes parlent des",
    "notes qui mentionnent", "notes qui parlent de", "notes qui parlent du", "notes contiennent",
    "notes qui contiennent", "notes sur", "note mentionne", "note parle de", "note parle du",
    "note contient", "cherche dans mes notes", "cherche dans toutes mes notes",
    "recherche dans mes notes", "recherche dans toutes mes notes", "dans toutes mes notes",
    "notizen erwähnen", "notizen enthalten", "notizen über", "notizen mit", "notizen zu",
    "notizen sprechen über", "notizen nennen", "notiz erwähnt", "notiz enthält", "notiz nennt",
    "durchsuche meine notizen nach", "durchsuche alle notizen nach", "durchsuche meine notizen",
    "suche in meinen notizen nach", "suche in allen notizen nach", "suche in meinen notizen",
    "in allen notizen",
    "notas mencionan", "notas hablan de", "notas hablan del", "notas que mencionan",
    "notas que hablan de", "notas que hablan del", "notas contienen", "notas que contienen",
    "notas sobre", "notas con", "nota menciona", "nota habla de", "nota habla del",
    "nota contiene", "busca en mis notas", "busca en todas mis notas", "buscar en mis notas",
    "busca en todas las notas", "en todas mis notas",
    "哪些笔记提到了", "哪些笔记提到", "哪个笔记提到了", "哪个笔记提到", "哪篇笔记提到",
    "哪些笔记里有", "哪个笔记里有", "哪些笔记包含", "哪个笔记包含", "哪些笔记写了",
    "在所有笔记中搜索", "在所有笔记里搜索", "搜索所有笔记", "在笔记中搜索", "所有笔记里的",
)  # fmt: skip
SEARCH_SCOPE: Final = (
    # "find Priya in all my notes": a find whose scope is every note is a search.
    "in all my notes", "in all notes", "in all of my notes", "across my notes",
    "across all notes", "in every note", "dans toutes mes notes", "dans toutes les notes",
    "dans mes notes", "in allen notizen", "in allen meinen notizen", "in meinen notizen",
    "en todas mis notas", "en todas las notas", "en mis notas",
)  # fmt: skip
SEARCH_BEFORE: Final = (
    # Across notes; the term comes before these (Japanese, Korean word order).
    "が出てくるノート", "が出てるノート", "について書いたノート", "について書いてあるノート",
    "を含むノート", "に触れているノート", "に触れたノート", "が書かれたノート",
    "が書いてあるノート",
    "が入っているノート", "に関するノート", "が載っているノート", "を全部のノートから",
    "をすべてのノートから", "を全ノートから",
    "이 나오는 노트", "가 나오는 노트", "이 들어간 노트", "가 들어간 노트", "이 들어있는 노트",
    "가 들어있는 노트", "을 언급한 노트", "를 언급한 노트", "을 언급하는 노트", "를 언급하는 노트",
    "이 언급된 노트", "가 언급된 노트", "에 대한 노트", "이 있는 노트", "가 있는 노트",
    "을 모든 노트에서", "를 모든 노트에서",
)  # fmt: skip

FIND: Final = (
    # The term comes after these.
    "what did i write about", "what have i written about", "what did i note about",
    "what did i say about", "what do i have about", "what do i have on", "what did i write on",
    "anything about", "anything on", "something about",
    "qu'est-ce que j'ai écrit sur", "qu'ai-je écrit sur", "qu'ai-je noté sur",
    "qu'est-ce que j'ai noté sur", "qu’est-ce que j’ai écrit sur", "qu’ai-je écrit sur",
    "j'ai écrit quoi sur", "quelque chose sur", "des choses sur",
    "was habe ich über", "was schrieb ich über", "was steht über", "was steht zu",
    "etwas über", "etwas zu", "was habe ich zu",
    "qué escribí sobre", "qué he escrito sobre", "qué anoté sobre", "qué tengo sobre",
    "algo sobre", "qué dice sobre",
    "where do i mention", "where did i mention", "where do i talk about", "where did i write about",
    "where does it mention", "where does it say", "do i talk about", "do i mention",
    "do i write about", "lines about", "lines mentioning", "mentions of",
    "où est-ce que je mentionne", "où est-ce que je parle de", "où est-ce que je parle du",
    "où est-ce que je parle des", "où je mentionne", "où je parle de", "où je parle du",
    "où ai-je parlé de", "où ai-je mentionné",
    "wo erwähne ich", "wo schreibe ich über", "wo habe ich", "wo steht",
    "dónde menciono", "donde menciono", "dónde hablo de", "dónde aparece", "dónde mencioné",
    "在哪里提到了", "在哪里提到", "哪里提到了", "哪里提到", "在哪里写了", "在哪里写",
)  # fmt: skip
FIND_GENERIC: Final = (
    # Also "the term comes after", but only about the note when the request says so.
    "search for", "look for", "find", "search", "cherche", "trouve", "recherche", "suche nach",
    "suche", "finde", "busca", "encuentra", "查找", "搜索", "找一下",
)  # fmt: skip
FIND_BEFORE: Final = (
    # The term comes before these (Japanese, Korean word order).
    "について何を書", "について何か", "のことで何", "に関して何", "について書いたこと",
    "에 대해 뭐", "에 대해서 뭐", "에 관해 뭐", "에 대한 내용", "관련 내용",
    "的内容", "写了什么",
    "についてどこ", "について書", "のことをどこ", "をどこに書", "はどこに書", "がどこに書",
    "どこに書", "って書いた", "어디에 언급", "어디에서 언급", "어디서 언급", "어디에 썼",
    "어디에 적",
)  # fmt: skip
FIND_BEFORE_GENERIC: Final = (
    "を探", "を検索", "はどこ", "をどこ", "がどこ", " 찾아", "를 찾아", "을 찾아", " 검색",
    "는 어디", "은 어디", "를 어디", "을 어디", "在哪里", "在哪儿",
)  # fmt: skip
NOT_A_TERM: Final = (
    # A generic "find" followed by these asks for something in the world, not in a note.
    "me", "us", "out", "moi", "nous", "mir", "uns", "heraus", "raus", "nos",
)  # fmt: skip
TERM_MAX_WORDS: Final = 3
"""A generic "find X" is about the note when X is a short term ("find dentist")."""

DATES: Final = (
    "deadline", "deadlines", "due", "due date", "due dates", "dates", "date", "when is",
    "when s", "schedule", "appointment", "appointments", "calendar", "what s due",
    "échéance", "échéances", "date limite", "dates limites", "rendez vous", "à rendre",
    "pour quand",
    "frist", "fristen", "termin", "termine", "fällig", "datum", "daten", "wann",
    "fecha límite", "fechas límite", "fecha", "fechas", "plazo", "plazos", "vence", "vencen",
    "citas", "cuándo", "para cuándo",
    "締め切り", "締切", "期限", "日付", "予定", "いつまで", "何日",
    "截止", "期限", "日期", "到期", "日程", "什么时候", "几号",
    "마감", "기한", "날짜", "일정", "언제",
    "overdue", "past due", "en retard", "überfällig", "vencidas", "vencidos", "atrasadas",
    "期限切れ", "逾期", "过期", "연체",
)  # fmt: skip

UNSUPPORTED: Final = (
    # Requests only a model can serve: the offline assistant says so in one sentence.
    "translate", "translation", "shorten", "rewrite", "rephrase", "reword", "paraphrase",
    "write me", "write a", "draft", "improve", "proofread", "correct the", "fix the grammar",
    "make it shorter", "make this shorter", "make it longer", "expand", "continue writing",
    "shorter", "plus court", "plus courte", "kürzer", "más corta", "más corto",
    "traduis", "traduire", "traduction", "raccourcis", "raccourcir", "réécris", "reformule",
    "rédige", "écris moi", "écris un", "améliore", "corrige",
    "übersetze", "übersetzen", "übersetzung", "kürze", "kürzen", "verkürze", "schreibe um",
    "formuliere", "umformulieren", "verbessere", "korrigiere", "schreib mir", "schreibe mir",
    "traduce", "traducir", "traducción", "acorta", "acortar", "resume en una", "reescribe",
    "reformula", "redacta", "escríbeme", "escribe un", "mejora", "corrige",
    "翻訳", "訳して", "短くして", "書き直", "言い換え", "添削",
    "翻译", "缩短", "改写", "重写", "润色", "写一",
    "번역", "줄여", "다시 써", "고쳐 써", "바꿔 써", "써줘", "써 줘",
)  # fmt: skip

OPEN_NOTE_REFERENCES: Final = (
    # The request is about the open note: no other note is looked up by name.
    "this", "here", "this note", "the open note", "current note", "it",
    "ceci", "ça", "cette note", "ici", "diese notiz", "dieser notiz", "hier", "das", "dies",
    "esta nota", "esto", "aquí", "この", "これ", "ここ", "这个", "这里", "这篇", "这条",
    "이 노트", "이거", "이것", "여기",
)  # fmt: skip
NOTE_REFERENCES: Final = (
    "here", "this note", "my note", "my notes", "the note", "in it",
    "ici", "cette note", "mes notes", "hier", "notiz", "aquí", "esta nota", "mis notas",
    "ノート", "ここ", "笔记", "这里", "노트", "여기",
)  # fmt: skip
TERM_EDGES: Final = (
    # Stripped from the start or end of a found term.
    "the", "a", "an", "my", "le", "la", "les", "l", "un", "une", "der", "die", "das", "den",
    "dem", "ein", "eine", "el", "los", "las", "una", "al", "del", "du", "des", "de", "au", "aux",
    "von", "vom", "über", "a", "here", "geschrieben", "notiert", "gesagt", "erwähnt",
    "aufgeschrieben", "written", "noted", "in this note", "in the note",
    "in my notes", "ici", "dans cette note", "dans mes notes", "hier", "in dieser notiz",
    "aquí", "en esta nota", "en mis notas",
)  # fmt: skip
CJK_TERM_PREFIXES: Final = (
    "このノートで", "このノートの", "このノートに", "ここで", "私は", "이 노트에서", "이 노트에",
    "여기서", "有没有关于", "我写了关于", "关于", "我在", "我", "这个笔记里", "笔记里",
)  # fmt: skip
CJK_TERM_SUFFIXES: Final = (
    "について", "のこと", "って", "は", "を", "が", "に", "も", "에 대해서", "에 대해", "을", "를",
    "은", "는", "이", "가", "에", "了",
)  # fmt: skip

TASKS: Final = (
    "open tasks", "open task", "tasks", "task", "todo", "todos", "to do list", "still open",
    "open items", "s open", "left to do", "still to do", "still have to do", "need to do here",
    "unticked", "unchecked", "not done", "aren t done", "isn t done", "still need to",
    "haven t done", "haven t finished", "not finished", "not yet done", "remaining tasks",
    "remaining items", "what s left",
    "tâches", "tâche", "à faire", "reste à faire", "en suspens", "pas encore fait", "non cochées",
    "aufgaben", "aufgabe", "noch offen", "offene", "offenen", "zu erledigen", "unerledigt",
    "erledigen", "noch tun", "noch zu tun",
    "pendiente", "pendientes", "tareas", "tarea", "por hacer", "sin marcar",
    "やること", "タスク", "未完了", "残っている", "残ってる", "終わっていない", "終わってない",
    "任务", "待办", "未完成", "没做", "要做的",
    "할 일", "할일", "작업", "남은", "미완료", "안 끝난",
)  # fmt: skip

OUTLINE: Final = (
    "headings", "heading", "outline", "structure", "structured", "organised", "organized",
    "sections", "table of contents", "toc",
    "titres", "intertitres", "table des matières",
    "überschriften", "gliederung", "gegliedert", "aufgebaut", "struktur", "abschnitte",
    "inhaltsverzeichnis",
    "encabezados", "títulos", "esquema", "estructura", "secciones", "índice",
    "見出し", "構成", "目次", "アウトライン",
    "标题", "大纲", "结构", "目录", "提纲",
    "제목", "목차", "구조", "개요", "헤딩",
)  # fmt: skip

SUMMARY: Final = (
    "summarise", "summarize", "summary", "sum up", "tl dr", "tldr", "recap", "gist",
    "this note", "what does it say", "what does this say", "what s this about",
    "what is this about", "what is this", "explain this", "explain it", "explain that",
    "main points", "key points", "selection", "selected text",
    "résume", "résumer", "résumé", "cette note", "explique ça", "explique ceci", "explique cela",
    "de quoi parle", "que dit", "sélection", "qu y a t il dans", "c est quoi cette note",
    "fasse", "zusammen", "zusammenfassung", "diese notiz", "dieser notiz", "diese seite",
    "erkläre das", "erkläre dies", "erklär das", "worum geht", "auswahl", "markierten",
    "was steht in", "was steht hier", "was steht da", "was ist das", "überblick",
    "resume", "resumen", "resumir", "esta nota", "explica esto", "explícame esto",
    "de qué trata", "qué dice", "selección", "resúmeme", "resúmelo", "resúmela", "qué pone",
    "qué hay en", "de qué va",
    "要約", "まとめ", "これは何", "これ何", "このノート", "概要", "これを説明", "ここを説明",
    "何が書いて", "選択",
    "总结", "概括", "摘要", "这个笔记", "这篇笔记", "这条笔记", "解释一下这", "解释这", "讲了什么",
    "说了什么", "选中", "选择的",
    "요약", "이 노트", "정리", "이거 설명", "이것을 설명", "무슨 내용", "선택",
)  # fmt: skip
SUMMARY_WHOLE: Final = ("this", "これ", "ceci", "das", "esto", "这个", "이거", "ça")
"""Whole requests that mean the open note on their own."""

HELP: Final = (
    "help", "what can you do", "what do you do", "how do i connect", "connect a model", "model",
    "how does this work", "who are you", "what are you", "how do i use", "how to use",
    "aide", "que peux-tu faire", "que peux tu faire", "que sais-tu faire", "modèle",
    "comment connecter",
    "hilfe", "was kannst du", "modell", "wie verbinde",
    "ayuda", "qué puedes hacer", "que puedes hacer", "modelo", "cómo conecto",
    "ヘルプ", "何ができ", "使い方", "モデル",
    "帮助", "你能做什么", "你会什么", "模型", "怎么用",
    "도움말", "도와", "뭘 할 수", "무엇을 할 수", "모델",
)  # fmt: skip

GREETING: Final = (
    "hello", "hi", "hey", "good morning", "good afternoon", "good evening", "howdy", "greetings",
    "bonjour", "salut", "bonsoir", "coucou",
    "hallo", "guten morgen", "guten tag", "guten abend", "servus", "moin",
    "hola", "buenos días", "buenas tardes", "buenas noches", "buenas",
    "こんにちは", "こんばんは", "おはよう", "やあ",
    "你好", "您好", "早上好", "晚上好",
    "안녕",
)  # fmt: skip
GREETING_MAX_WORDS: Final = 6
"""A greeting is a short message; "hi" inside a longer request is not one."""

LANGUAGE_WORDS: Final = {
    "en": (
        "the", "what", "whats", "this", "is", "my", "where", "do", "i", "are", "here", "still",
        "open", "note", "mention", "please", "me", "can", "you", "with", "and", "it", "of", "in",
        "a", "to", "show", "hello", "hi", "summarise", "summarize", "tasks", "headings", "find",
    ),
    "fr": (
        "le", "la", "les", "des", "du", "de", "est", "cette", "ce", "quoi", "où", "je", "mes",
        "ma", "mon", "quelles", "quels", "sont", "encore", "ici", "résume", "tâches", "bonjour",
        "salut", "avec", "et", "parle", "mentionne", "titres", "montre", "aide", "peux", "tu",
        "bonsoir", "coucou", "comment", "connecter", "modèle", "un", "toi", "moi", "fais",
        "faire", "qui", "reste", "explique", "ça", "ceci", "cherche", "trouve",
        "traduis", "anglais", "raccourcis", "réécris", "sur", "dans", "une", "pour", "écrit",
        "ai", "quelles", "échéances", "mentionnent", "toutes", "qu", "il", "y",
    ),
    "de": (
        "der", "die", "das", "den", "dem", "ist", "ich", "diese", "dieser", "was", "wo", "noch",
        "hier", "zusammen", "fasse", "hallo", "notiz", "notizen", "erwähne", "aufgaben", "offen",
        "offenen", "überschriften", "vergleiche", "mit", "und", "zeige", "hilfe", "kannst", "du",
        "sind", "welche", "mir", "meine", "bitte", "gibt", "erkläre", "suche", "finde", "zu",
        "unterschied", "guten", "morgen", "tag", "abend", "wie", "habe", "servus", "moin",
        "verbinde", "modell", "brauche", "alles", "zeig", "mit",
        "übersetze", "kürze", "ins", "englische", "deutsche", "über", "geschrieben", "steht",
        "drin", "es", "fristen", "gibt", "welche", "erwähnen", "bis", "nach", "auf", "nicht",
    ),
    "es": (
        "el", "los", "las", "qué", "esta", "este", "dónde", "donde", "mis", "mi", "resume",
        "resumen", "hola", "nota", "notas", "menciono", "tareas", "pendientes", "encabezados",
        "compara", "con", "y", "muestra", "ayuda", "puedes", "hacer", "hay", "aquí", "está",
        "son", "cuáles", "explica", "esto", "busca", "quedan", "buenos", "buenas", "días",
        "tardes", "noches", "tengo", "diferencias", "conecto", "modelo", "cómo", "necesito",
        "traduce", "acorta", "al", "inglés", "pone", "escribí", "sobre", "va", "plazos",
        "mencionan", "qué", "cuándo", "para", "por", "favor", "todas", "notas",
    ),
}  # fmt: skip

DONE: Final = (
    # What is ticked already: "what have I done?"
    "what have i done", "what have i already done", "what did i do", "what did i finish",
    "what did i get done", "what have i finished", "what have i completed", "what s done",
    "what is done", "what s finished", "what is finished", "done tasks", "ticked tasks",
    "completed tasks", "finished tasks", "checked tasks", "tasks i ve done", "tasks are done",
    "already done", "ticked off", "what i ve done", "done so far",
    "qu est ce que j ai fait", "qu ai je fait", "qu est ce que j ai déjà fait", "déjà fait",
    "tâches faites", "tâches terminées", "tâches cochées", "ce que j ai fait", "j ai fait quoi",
    "qu est ce qui est fait", "qu est ce qui est terminé",
    "was habe ich erledigt", "was habe ich schon erledigt", "was habe ich gemacht",
    "was habe ich schon gemacht", "erledigte aufgaben", "abgehakte aufgaben", "was ist erledigt",
    "was ist schon erledigt", "schon erledigt", "bereits erledigt", "was ist fertig",
    "qué he hecho", "qué hice", "qué he terminado", "qué ya hice", "tareas hechas",
    "tareas completadas", "tareas terminadas", "ya he hecho", "qué está hecho", "ya hecho",
    "qué está terminado", "lo que hice",
    "何をやった", "何を終えた", "何が終わった", "何が完了", "終わったタスク", "完了したタスク",
    "完了済み", "済んだタスク", "もう終わった", "何を済ませた", "終わったこと", "完了した項目",
    "做了什么", "做完了什么", "完成了什么", "完成了哪些", "已完成的任务", "做完的任务", "已经做完",
    "已经完成", "哪些做完了", "哪些已经完成", "已完成",
    "뭘 했", "무엇을 했", "뭐 했", "완료한 일", "끝낸 일", "완료된 작업", "완료된 할 일",
    "다 한 일", "끝난 일", "완료된 일", "뭐 끝냈", "이미 끝낸",
)  # fmt: skip
STILL_OPEN: Final = (
    # A done-question that asks for what is not done is about open tasks.
    "not done", "not yet", "still", "left", "pas encore", "reste", "noch nicht", "noch offen",
    "todavía no", "falta", "未完了", "まだ", "未完成", "没", "还", "미완료", "아직", "안 끝난",
)  # fmt: skip

QUESTION_OPENERS: Final = (
    # A request that opens with these asks something (a question mark or not).
    "what", "whats", "which", "when", "whens", "where", "wheres", "who", "whos", "why", "how",
    "is", "are", "was", "were", "do", "does", "did", "has", "have", "had", "can", "will",
    "should", "any", "qu", "que", "quoi", "quand", "où", "quel", "quelle", "quels", "quelles",
    "est", "qui", "comment", "pourquoi", "y", "wann", "wo", "wer", "welche", "welcher",
    "welches", "wie", "warum", "ist", "sind", "hat", "gibt", "kommt", "qué", "cuándo", "dónde",
    "cuál", "cuáles", "quién", "cómo", "por", "hay", "tiene", "es", "está", "va",
)  # fmt: skip
CJK_QUESTION_WORDS: Final = (
    # Taken out of a Chinese, Japanese or Korean question before its content is matched.
    "ですか", "でしょうか", "ますか", "いつ", "何時", "どこ", "だれ", "誰", "何", "なに", "どう",
    "って", "は", "が", "の", "を", "に", "で", "も", "か", "？", "いる", "ある", "する", "した",
    "什么时候", "几点", "在哪里", "在哪儿", "哪里", "哪儿", "什么", "谁", "怎么", "吗", "呢", "是",
    "的", "了", "在", "有", "吧", "几",
    "언제", "몇 시", "어디", "누가", "뭐", "무엇", "있어", "있나", "있니", "인가", "야", "까",
)  # fmt: skip
CJK_QUESTION_ASKS: Final = (
    # A Chinese, Japanese or Korean ask holding these is a question.
    "いつ", "何時", "どこ", "誰", "ですか", "ますか", "什么时候", "几点", "哪里", "哪儿", "谁",
    "吗", "언제", "몇 시", "어디", "누가", "있어?", "까?",
)  # fmt: skip
TIME_QUESTIONS: Final = (
    "what time", "when", "what day", "which day", "how late", "how early", "à quelle heure",
    "quand", "quel jour", "um wie viel uhr", "wann", "welcher tag", "an welchem tag",
    "a qué hora", "cuándo", "qué día", "いつ", "何時", "何曜", "什么时候", "几点", "哪天", "星期几",
    "언제", "몇 시", "무슨 요일",
)  # fmt: skip
PLACE_QUESTIONS: Final = (
    "where", "which room", "what place", "où", "wo", "dónde", "どこ", "哪里", "哪儿", "在哪",
    "어디",
)  # fmt: skip
PLACE_WORDS: Final = (
    "at", "in", "room", "office", "venue", "à", "au", "chez", "salle", "im", "raum", "bei",
    "en", "sala", "oficina", "で", "会議室", "在", "会议室", "에서", "회의실",
)  # fmt: skip
QUESTION_STOP_WORDS: Final = frozenset(
    (
        # en
        "the", "a", "an", "is", "are", "was", "were", "be", "been", "am", "do", "does", "did",
        "what", "whats", "which", "when", "whens", "where", "wheres", "who", "whos", "why", "how",
        "time", "day", "i", "me", "my", "we", "our", "you", "your", "it", "its", "this", "that",
        "there", "here", "of", "to", "in", "on", "at", "for", "with", "about", "from", "by",
        "and", "or", "s", "t", "have", "has", "had", "will", "would", "can", "could", "should",
        "any", "anything", "note", "notes", "say", "says", "tell", "please", "still", "again",
        "around", "going", "get", "got", "much", "many", "some", "today", "thing", "things",
        "know", "want", "need", "if", "then", "so", "up", "out", "next", "last", "m", "ll",
        "re", "ve", "d", "late", "early", "must", "should", "could", "might", "also", "just",
        "more", "into", "over", "than", "them", "they", "their", "these", "those", "were",
        "start", "starts", "begin", "begins", "end", "ends", "happen", "happens", "does",
        # fr
        "le", "la", "les", "l", "un", "une", "des", "du", "de", "d", "est", "ce", "c", "qu",
        "que", "quoi", "quand", "où", "quel", "quelle", "quels", "quelles", "qui", "comment",
        "je", "j", "tu", "il", "elle", "on", "nous", "vous", "mon", "ma", "mes", "à", "au",
        "aux", "en", "et", "ou", "dans", "sur", "pour", "avec", "y", "a", "heure", "jour",
        "ça", "cette", "note", "dit", "quelle", "t", "là", "encore", "sont", "être", "fait",
        "faire", "commence", "finit",
        # de
        "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "ist", "sind", "war",
        "was", "wann", "wo", "wer", "welche", "welcher", "welches", "wie", "warum", "um", "uhr",
        "viel", "ich", "du", "er", "sie", "es", "wir", "mein", "meine", "in", "im", "am", "an",
        "auf", "für", "mit", "und", "oder", "zu", "zum", "zur", "von", "vom", "bei", "noch",
        "hier", "da", "gibt", "hat", "habe", "tag", "notiz", "steht", "kommt",
        # es
        "el", "los", "las", "una", "unos", "del", "al", "es", "son", "está", "están", "qué",
        "cuándo", "dónde", "cuál", "cuáles", "quién", "cómo", "hora", "día", "yo", "mi", "mis",
        "su", "con", "por", "para", "y", "o", "hay", "nota", "dice", "tiene", "va", "se", "lo",
        # ko
        "언제", "어디", "뭐", "무엇", "몇", "시", "있어", "있나", "이", "그", "노트", "여기",
    )
)  # fmt: skip
"""Words no line is found by: articles, question words, the ask's own words."""
