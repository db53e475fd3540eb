"""The inline answer shown as a change to the selection: removed text struck, added marked (R71).

Lines the selection and the answer share at their start and end are shown plain; the
lines between are the change. Finding them compares the two texts once from each
end, so drawing the review is linear in the selection (redrawn as the answer streams).
"""

from __future__ import annotations

import html

from renderer.qt.scheme import LIGHT, Scheme


def _line(text: str, style: str) -> str:
    shown = html.escape(text) if text else "&nbsp;"
    return f'<div style="white-space: pre-wrap; {style}">{shown}</div>'


def change_lines(
    old: str, new: str, *, partial: bool
) -> tuple[list[str], list[str], list[str], list[str]]:
    """(shared start, removed, added, shared end) lines; a ``partial`` answer has no end yet."""
    before = old.splitlines()
    after = new.splitlines()
    start = 0
    while start < len(before) and start < len(after) and before[start] == after[start]:
        start += 1
    end = 0
    if not partial:
        while (
            end < len(before) - start
            and end < len(after) - start
            and before[len(before) - 1 - end] == after[len(after) - 1 - end]
        ):
            end += 1
    shared_end = before[len(before) - end :] if end else []
    return (
        before[:start],
        before[start : len(before) - end],
        after[start : len(after) - end],
        shared_end,
    )


def review_html(old: str, new: str, *, partial: bool = False, scheme: Scheme = LIGHT) -> str:
    """The review: shared lines plain, removed lines struck, added lines marked.

    Shared lines take the review's own colours; a marked line sets its text colour
    with its background, both from ``scheme`` (R82).
    """
    shared, removed, added, tail = change_lines(old, new, partial=partial)
    gone, new_lines = scheme.removed, scheme.added
    parts = ['<div style="font-family: monospace;">']
    parts += [_line(text, "") for text in shared]
    parts += [
        _line(text, f"background: {gone.background}; color: {gone.text}; "
              "text-decoration: line-through;")
        for text in removed
    ]  # fmt: skip
    parts += [
        _line(text, f"background: {new_lines.background}; color: {new_lines.text};")
        for text in added
    ]
    if partial:
        parts.append(_line("…", "font-style: italic;"))
    parts += [_line(text, "") for text in tail]
    parts.append("</div>")
    return "".join(parts)
