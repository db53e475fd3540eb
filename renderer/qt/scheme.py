"""The two colour schemes, light and dark: every colour the window draws, in pairs (R82).

Each text colour here is named beside the background it is drawn on, and each pair
reads at least 4.5:1 (WCAG 2.x contrast); each border and focus ring at least 3:1
against what surrounds it. ``tests/renderer/qt/test_scheme.py`` holds every pair to
those figures. The app turns a scheme into its palette and stylesheet
(:mod:`app.window.style`); the frames that draw their own colours (a proposal's diff, the
inline review, the mindmap) ask :func:`scheme_of` which scheme the palette is in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, NamedTuple

from PySide6.QtGui import QColor, QPalette

SchemeName = Literal["light", "dark"]

TEXT_CONTRAST: Final = 4.5
"""WCAG 2.x AA for text of normal size."""
BORDER_CONTRAST: Final = 3.0
"""WCAG 2.x for the parts of a control that show it is there (borders, focus rings)."""


class Tone(NamedTuple):
    """A tinted area: its background, the text on it and its border."""

    background: str
    text: str
    border: str


@dataclass(frozen=True)
class Scheme:
    """Every colour of one scheme. ``text``, ``muted`` and ``accent`` read on both
    ``surface`` and ``raised``; ``border`` and ``focus`` stand out from ``surface`` and
    ``window``, and ``border`` from the banners' tints too (their buttons)."""

    name: SchemeName
    window: str
    """Behind the frames."""
    surface: str
    """Frames, editors, lists, the transcript, dialogs."""
    raised: str
    """Title bars, turns, buttons."""
    active_bar: str
    """The active frame's title bar."""
    text: str
    muted: str
    """Secondary words: hints, the details' labels, the assistant's name."""
    accent: str
    """"This note", links and the active frame."""
    on_accent: str
    """Text on the accent colour (the Send button)."""
    accent_pressed: str
    border: str
    focus: str
    """The ring around the focused input or button."""
    selection: str
    selection_text: str
    disabled: Tone
    chip: Tone
    chip_empty: Tone
    warning: Tone
    error: Tone
    info: Tone
    saving: Tone
    saved: Tone
    new: Tone
    neutral: Tone
    removed: Tone
    """A removed line in a diff or the inline review (struck)."""
    added: Tone
    error_text: str
    """An error said in a reply or the transcript, on ``raised`` and ``surface``."""
    notice_text: str
    """The assistant's notices and tool lines, on ``raised`` and ``surface``."""
    link_visited: str
    scrollbar: str
    mindmap_root: Tone
    """The map's root node; the other nodes are ``raised`` with ``text``."""
    mindmap_edge: str


LIGHT: Final = Scheme(
    name="light",
    window="#eef0f5",
    surface="#ffffff",
    raised="#f6f7fb",
    active_bar="#edf1ff",
    text="#1f2544",
    muted="#4a5070",
    accent="#3b5bdb",
    on_accent="#ffffff",
    accent_pressed="#2f4ac0",
    border="#7d859e",
    focus="#3b5bdb",
    selection="#c5d3ff",
    selection_text="#111111",
    disabled=Tone("#f0f1f5", "#5f6580", "#7d859e"),
    chip=Tone("#edf2ff", "#2f46b0", "#6678c4"),
    chip_empty=Tone("#f1f3f5", "#565d6b", "#7a828c"),
    warning=Tone("#fff9db", "#6b4f00", "#9a7a1c"),
    error=Tone("#fff5f5", "#a61e1e", "#d05050"),
    info=Tone("#edf2ff", "#2f46b0", "#6678c4"),
    saving=Tone("#e7f5ff", "#155a96", "#74a9d8"),
    saved=Tone("#ebfbee", "#1f6b30", "#6fb37f"),
    new=Tone("#f3f0ff", "#5535b8", "#9c88e0"),
    neutral=Tone("#e9ecef", "#454b55", "#8a9199"),
    removed=Tone("#fde8e8", "#8a1c1c", "#d98080"),
    added=Tone("#e6f6e6", "#1b5e20", "#6fb37f"),
    error_text="#b02525",
    notice_text="#6a2a85",
    link_visited="#6741d9",
    scrollbar="#9aa1b5",
    mindmap_root=Tone("#3b5bdb", "#ffffff", "#2f4ac0"),
    mindmap_edge="#7d859e",
)

DARK: Final = Scheme(
    name="dark",
    window="#14161c",
    surface="#1d2029",
    raised="#252935",
    active_bar="#26304f",
    text="#e7e9f2",
    muted="#a9afc6",
    accent="#8fa6ff",
    on_accent="#10172e",
    accent_pressed="#b3c2ff",
    border="#7d859e",
    focus="#8fa6ff",
    selection="#3d4f8f",
    selection_text="#ffffff",
    disabled=Tone("#23262f", "#a3a8ba", "#6b738d"),
    chip=Tone("#24305a", "#d3dcff", "#6f83cf"),
    chip_empty=Tone("#272a33", "#b8bdcc", "#737a8a"),
    warning=Tone("#3a3014", "#ffe08a", "#9c8236"),
    error=Tone("#3d1d20", "#ffb3b3", "#b86468"),
    info=Tone("#1f2a4a", "#c5d2ff", "#5d72bd"),
    saving=Tone("#15304a", "#a5d8ff", "#4c86b8"),
    saved=Tone("#173322", "#a9e5b5", "#4f9a62"),
    new=Tone("#2c2350", "#d0c4ff", "#7a68c4"),
    neutral=Tone("#2c303a", "#ced3dd", "#6b7180"),
    removed=Tone("#4a2023", "#ffc9c9", "#a65458"),
    added=Tone("#1d3b25", "#b2f2bb", "#4f9a62"),
    error_text="#ff9e9e",
    notice_text="#e0a8f0",
    link_visited="#c4b0ff",
    scrollbar="#6b738d",
    mindmap_root=Tone("#8fa6ff", "#10172e", "#b3c2ff"),
    mindmap_edge="#7d859e",
)

SCHEMES: Final = (LIGHT, DARK)


def scheme_named(name: SchemeName) -> Scheme:
    return DARK if name == "dark" else LIGHT


def scheme_of(palette: QPalette) -> Scheme:
    """The scheme a palette is in: dark when its window colour is dark.

    The app sets the palette from its scheme (:mod:`app.window.style`), so this names the
    scheme in use; a palette set by the platform alone is judged the same way.
    """
    window = palette.color(QPalette.ColorRole.Window)
    return DARK if window.lightnessF() < 0.5 else LIGHT


def relative_luminance(colour: QColor) -> float:
    """WCAG 2.x relative luminance of an sRGB colour."""

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * linear(colour.redF())
        + 0.7152 * linear(colour.greenF())
        + 0.0722 * linear(colour.blueF())
    )


def contrast(first: str | QColor, second: str | QColor) -> float:
    """WCAG 2.x contrast ratio of two colours, 1 to 21."""
    lighter, darker = sorted(
        (relative_luminance(QColor(first)), relative_luminance(QColor(second))), reverse=True
    )
    return (lighter + 0.05) / (darker + 0.05)
