"""`make run` says which system packages Qt's xcb plugin lacks, as one apt-get line (issue item 1).

The check runs as its own process, the way the Makefile runs it, with the
environment altered: an ``ldd`` earlier on ``PATH`` that reports libraries as
missing stands in for a machine without them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.system_packages import install_line, install_prefix

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the xcb plugin is Linux-only"
)

PROJECT = Path(__file__).resolve().parents[2]
LINUX_LOADER_LINES = "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0000000000)\n"


def fake_ldd(folder: Path, missing: list[str]) -> Path:
    """An ``ldd`` that reports ``missing`` as not found for every file it is asked about."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = LINUX_LOADER_LINES + "".join(f"\t{name} => not found\n" for name in missing)
    script = folder / "ldd"
    script.write_text(f"#!/bin/sh\ncat <<'OUT'\n{lines}OUT\n", encoding="utf-8")
    script.chmod(0o755)
    return folder


def fake_fc_list(folder: Path, lacking: list[str]) -> Path:
    """An ``fc-list`` that finds a font for every ``:lang=CODE`` but the codes in ``lacking``."""
    folder.mkdir(parents=True, exist_ok=True)
    cases = "".join(f"  :lang={code}) exit 0 ;;\n" for code in lacking)
    script = folder / "fc-list"
    script.write_text(
        f'#!/bin/sh\ncase "$1" in\n{cases}esac\necho "Noto Sans CJK JP"\n', encoding="utf-8"
    )
    script.chmod(0o755)
    return folder


def run_check(path_first: Path | None, platform: str | None) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "QT_QPA_PLATFORM"}
    if platform is not None:
        env["QT_QPA_PLATFORM"] = platform
    if path_first is not None:
        env["PATH"] = f"{path_first}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        [sys.executable, "-m", "app.system_packages"],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_missing_xcb_libraries_print_the_exact_apt_get_line(tmp_path: Path) -> None:
    bin_dir = fake_ldd(
        tmp_path / "bin", ["libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libmystery.so.9"]
    )
    done = run_check(bin_dir, platform=None)
    assert done.returncode == 1
    assert f"{install_prefix()}apt-get install -y libxcb-icccm4 libxcb-keysyms1\n" in done.stderr
    assert "libxcb-icccm.so.4" in done.stderr and "libxcb-keysyms.so.1" in done.stderr
    # A library with no known package is named, with how to find its package.
    assert "libmystery.so.9" in done.stderr and "apt-file search" in done.stderr
    assert "Traceback" not in done.stderr


def test_nothing_missing_starts_silently_and_offscreen_skips_the_check(tmp_path: Path) -> None:
    complete = run_check(fake_fc_list(fake_ldd(tmp_path / "ok", []), []), platform=None)
    assert (complete.returncode, complete.stderr) == (0, "")
    offscreen = run_check(fake_ldd(tmp_path / "bad", ["libxcb-icccm.so.4"]), platform="offscreen")
    assert (offscreen.returncode, offscreen.stderr) == (0, "")
    explicit_xcb = run_check(fake_ldd(tmp_path / "xcb", ["libxcb-cursor.so.0"]), platform="xcb")
    assert explicit_xcb.returncode == 1
    assert f"{install_prefix()}apt-get install -y libxcb-cursor0\n" in explicit_xcb.stderr


@pytest.mark.skipif(shutil.which("ldd") is None, reason="no ldd on this machine")
def test_this_machine_every_library_the_real_loader_misses_is_in_the_line() -> None:
    """The real plugin and the real ldd: whatever this machine lacks is named with its package."""
    import importlib.util

    spec = importlib.util.find_spec("PySide6")
    assert spec is not None and spec.origin is not None
    plugin = Path(spec.origin).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    assert plugin.is_file()
    listed = subprocess.run(
        ["ldd", str(plugin)], capture_output=True, text=True, timeout=60, check=False
    ).stdout
    missing = sorted(
        {line.split("=>")[0].strip() for line in listed.splitlines() if "not found" in line}
    )
    done = run_check(None, platform=None)
    if not missing:
        assert done.returncode == 0
        return
    assert done.returncode == 1
    install = next(line for line in done.stderr.splitlines() if "apt-get install" in line)
    for name in missing:
        assert name in done.stderr
    assert install.strip().startswith(f"{install_prefix()}apt-get install -y lib")


def test_make_run_checks_the_system_packages_before_starting_the_app() -> None:
    make = shutil.which("make")
    if make is None:
        pytest.skip("no make on this machine")
    planned = subprocess.run(
        [make, "-n", "-W", "pyproject.toml", "run", "INSTALLED=/dev/null"],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    ).stdout.splitlines()
    check_line = next(i for i, line in enumerate(planned) if "-m app.system_packages" in line)
    app_line = next(i for i, line in enumerate(planned) if line.rstrip().endswith("-m app"))
    assert check_line < app_line


def test_readme_lists_the_packages() -> None:
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    for package in ("libxcb-icccm4", "libxcb-keysyms1", "libxcb-cursor0", "libxkbcommon-x11-0"):
        assert package in readme


def test_a_language_no_font_covers_is_named_with_the_font_package_R38(tmp_path: Path) -> None:
    """The offline assistant answers in Korean; with no Korean font the app says how to get one."""
    bin_dir = fake_fc_list(fake_ldd(tmp_path / "bin", []), ["ko", "zh"])
    done = run_check(bin_dir, platform=None)
    assert done.returncode == 0  # advice only: the window still opens
    assert "Chinese and Korean text will show as empty boxes" in done.stderr
    assert f"{install_prefix()}apt-get install -y fonts-noto-cjk\n" in done.stderr
    assert "Japanese" not in done.stderr
    # Offscreen runs (tests, screenshots in CI) are not told about fonts.
    offscreen = run_check(bin_dir, platform="offscreen")
    assert (offscreen.returncode, offscreen.stderr) == (0, "")


def test_r80_sudo_is_in_the_hint_only_for_a_user_that_is_not_root() -> None:
    assert install_line(["fonts-noto-cjk"], as_root=True) == "apt-get install -y fonts-noto-cjk"
    assert install_line(["fonts-noto-cjk"], as_root=False) == (
        "sudo apt-get install -y fonts-noto-cjk"
    )
    expected = "apt-get" if os.geteuid() == 0 else "sudo apt-get"  # this process's user
    assert install_line(["x"]).startswith(expected + " install")
