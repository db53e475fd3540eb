"""``python -m app.system_packages``: can Qt open a window here? If not, the exact apt-get line.

Qt's xcb platform plugin needs a dozen X11 libraries that a fresh Debian or
Ubuntu machine may lack, and when one is missing Qt's own message often names
the wrong one. ``make run`` runs this first: ``ldd`` on the plugin and on the Qt
libraries the app uses lists every shared library the loader cannot find
(transitively), and each is mapped to the Debian package that ships it.

Exit 0 when nothing is missing (or nothing can be checked: offscreen, another
platform, no ``ldd``); exit 1 with the install line otherwise. Importing this
module loads no Qt: a missing library must not stop it from saying which.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

# The sonames a PySide6 window can need, and the Debian/Ubuntu package of each.
PACKAGE_OF_SONAME: dict[str, str] = {
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-xinput.so.0": "libxcb-xinput0",
    "libxcb-glx.so.0": "libxcb-glx0",
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libXau.so.6": "libxau6",
    "libXdmcp.so.6": "libxdmcp6",
    "libSM.so.6": "libsm6",
    "libICE.so.6": "libice6",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libGLX.so.0": "libglx0",
    "libOpenGL.so.0": "libopengl0",
    "libGLdispatch.so.0": "libglvnd0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libpng16.so.16": "libpng16-16",
    "libz.so.1": "zlib1g",
    "libzstd.so.1": "libzstd1",
    "libexpat.so.1": "libexpat1",
}

# The offline assistant answers in these; without a font covering them their text is boxes.
FONT_LANGUAGES: dict[str, str] = {"ja": "Japanese", "zh": "Chinese", "ko": "Korean"}
FONT_PACKAGE = "fonts-noto-cjk"

_PLUGIN = ("Qt", "plugins", "platforms", "libqxcb.so")
_QT_LIBRARIES = (("Qt", "lib", "libQt6Widgets.so.6"), ("Qt", "lib", "libQt6Gui.so.6"))
_LDD_TIMEOUT_SECONDS = 30


@dataclass(frozen=True)
class CheckResult:
    """What is missing, and a sentence when the check could not run at all."""

    missing: tuple[str, ...] = ()
    skipped: str | None = None

    @property
    def packages(self) -> tuple[str, ...]:
        known = {PACKAGE_OF_SONAME[name] for name in self.missing if name in PACKAGE_OF_SONAME}
        return tuple(sorted(known))

    @property
    def unknown(self) -> tuple[str, ...]:
        return tuple(name for name in self.missing if name not in PACKAGE_OF_SONAME)


def missing_sonames(ldd_output: str) -> list[str]:
    """The libraries ``ldd`` reports as ``NAME => not found``, each once, in order."""
    found: list[str] = []
    for line in ldd_output.splitlines():
        name, arrow, target = line.strip().partition("=>")
        if arrow and target.strip() == "not found" and name.strip() not in found:
            found.append(name.strip())
    return found


def pyside_folder() -> Path | None:
    """PySide6's package folder, found without importing it (its libraries may not load)."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


def check(environment: Mapping[str, str] | None = None) -> CheckResult:
    """Run ``ldd`` on the xcb plugin and the Qt libraries; collect what cannot be found."""
    env = dict(os.environ if environment is None else environment)
    platform = env.get("QT_QPA_PLATFORM", "").strip()
    if platform and not platform.startswith("xcb"):
        return CheckResult(skipped=f"QT_QPA_PLATFORM={platform}: no X11 libraries needed")
    if not sys.platform.startswith("linux"):
        return CheckResult(skipped="not Linux: Qt ships what it needs")
    folder = pyside_folder()
    if folder is None:
        return CheckResult(skipped="PySide6 is not installed yet")
    targets = [folder.joinpath(*parts) for parts in (_PLUGIN, *_QT_LIBRARIES)]
    targets = [target for target in targets if target.is_file()]
    if not targets:
        return CheckResult(skipped=f"no xcb plugin under {folder}")
    ldd = shutil.which("ldd", path=env.get("PATH"))
    if ldd is None:
        return CheckResult(skipped="no ldd on this system to check with")
    missing: list[str] = []
    for target in targets:
        try:
            done = subprocess.run(
                [ldd, str(target)],
                capture_output=True,
                text=True,
                env=env,
                timeout=_LDD_TIMEOUT_SECONDS,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            return CheckResult(skipped=f"ldd could not run ({error})")
        for name in missing_sonames(done.stdout):
            if name not in missing:
                missing.append(name)
    return CheckResult(missing=tuple(missing))


def languages_without_fonts(environment: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The languages no installed font covers, by fontconfig's ``fc-list :lang=CODE``.

    Nothing is reported when ``fc-list`` is absent or fails: the check only ever adds advice.
    """
    env = dict(os.environ if environment is None else environment)
    fc_list = shutil.which("fc-list", path=env.get("PATH"))
    if fc_list is None:
        return ()
    lacking: list[str] = []
    for code, language in FONT_LANGUAGES.items():
        try:
            done = subprocess.run(
                [fc_list, f":lang={code}", "family"],
                capture_output=True,
                text=True,
                env=env,
                timeout=_LDD_TIMEOUT_SECONDS,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return ()
        if done.returncode == 0 and not done.stdout.strip():
            lacking.append(language)
    return tuple(lacking)


def font_problem(languages: Sequence[str]) -> str:
    """The sentence both the terminal and the window say: which text shows as empty boxes."""
    named = " and ".join(
        [", ".join(languages[:-1]), languages[-1]] if len(languages) > 1 else languages
    )
    return f"{named} text will show as empty boxes: no installed font covers it."


def font_advice(languages: Sequence[str]) -> str:
    """A note, not a failure: the app runs, but text in ``languages`` shows as empty boxes."""
    return f"{font_problem(languages)} Install one with:\n\n  {install_line([FONT_PACKAGE])}\n"


def font_banner_text(languages: Sequence[str]) -> str:
    """The same advice on one line, for the window's banner."""
    return f"{font_problem(languages)} Install one with: {install_line([FONT_PACKAGE])}"


def install_line(packages: Sequence[str], *, as_root: bool | None = None) -> str:
    """The apt-get line that installs ``packages``: with ``sudo`` only for a user not root (R80).

    ``as_root`` None is this process's user.
    """
    return install_prefix(as_root) + "apt-get install -y " + " ".join(packages)


def install_prefix(as_root: bool | None = None) -> str:
    """``sudo `` for a user that is not root; nothing for root, who has no need of it."""
    root = os.geteuid() == 0 if as_root is None else as_root
    return "" if root else "sudo "


def report(result: CheckResult) -> str:
    """What the person reads: the missing libraries and the one line that installs them."""
    lines = [
        "Ambient Notes cannot open a window yet: Qt's X11 (xcb) platform plugin needs "
        "system libraries that are not installed:",
        *(f"  {name}" for name in result.missing),
    ]
    if result.packages:
        lines += ["Install them with:", "", "  " + install_line(result.packages), ""]
    if result.unknown:
        lines.append(
            "No package is known here for "
            + ", ".join(result.unknown)
            + "; `apt-file search NAME` finds the one that ships it."
        )
    lines.append("Or run without a window: QT_QPA_PLATFORM=offscreen (tests and `make demo`).")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments:
        print("usage: python -m app.system_packages", file=sys.stderr)
        return 2
    result = check()
    if result.missing:
        print(report(result), file=sys.stderr)
        return 1
    if result.skipped is None:  # a window will open: can it show every language's text?
        lacking = languages_without_fonts()
        if lacking:
            print(font_advice(lacking), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
