"""`banker --version` and the commit setup.py stamps into a build (banker/version.py, setup.py's build_py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import types
import zipfile
from pathlib import Path

import pytest

from banker import version
from banker.version import format_version_line, version_line

REPO = Path(__file__).resolve().parent.parent
LINE = re.compile(r"board-banker (?:[0-9][0-9A-Za-z.+-]*|\(version unknown\))(?: \(git [0-9a-f]{7}\))?")
# What deploy/install.sh stages for pip: the package's sources, nothing of the checkout's build leftovers.
SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "banker", "hardware", "ui")


def pyproject_version() -> str:
    return str(tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["version"])


def test_the_line_says_the_version_and_the_commit_when_known() -> None:
    assert format_version_line("0.2.0", "abc1234") == "board-banker 0.2.0 (git abc1234)"
    assert format_version_line("0.2.0", None) == "board-banker 0.2.0"
    assert format_version_line(None, None) == "board-banker (version unknown)"
    assert format_version_line(None, "abc1234") == "board-banker (version unknown) (git abc1234)"
    for line in ("board-banker 0.2.0 (git abc1234)", "board-banker 0.2.0", "board-banker (version unknown)"):
        assert LINE.fullmatch(line)


def test_the_commit_is_the_builds_stamp(monkeypatch: pytest.MonkeyPatch) -> None:
    # The checkout has no stamp (setup.py writes it into the build alone): no commit.
    assert not (REPO / "banker" / "_build_info.py").exists()
    monkeypatch.delitem(sys.modules, version.BUILD_INFO, raising=False)
    if version.build_commit() is None:  # the checkout's banker, as the tests import it today
        assert " (git " not in version_line()
    stamp = types.ModuleType(version.BUILD_INFO)
    stamp.COMMIT = "abc1234"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, version.BUILD_INFO, stamp)
    assert version.build_commit() == "abc1234"
    assert version_line().endswith(" (git abc1234)")
    for unusable in ("", "ABC1234", "abc12345", "abc123", 1234567, None):  # not what setup.py writes: no commit
        stamp.COMMIT = unusable  # type: ignore[attr-defined]
        assert version.build_commit() is None


def test_banker_version_prints_the_line() -> None:
    out = subprocess.run([sys.executable, "-m", "banker", "--version"], capture_output=True, text=True, timeout=60,
                         cwd=REPO)
    assert out.returncode == 0 and out.stderr == ""
    assert LINE.fullmatch(out.stdout.rstrip("\n")), out.stdout
    # What version_line says in the same place: the command adds nothing and leaves nothing out.
    said = subprocess.run([sys.executable, "-c", "from banker.version import version_line; print(version_line())"],
                          capture_output=True, text=True, timeout=60, cwd=REPO, check=True)
    assert out.stdout == said.stdout
    assert "--version" in subprocess.run([sys.executable, "-m", "banker", "--help"], capture_output=True, text=True,
                                         timeout=60, cwd=REPO).stdout


def build_wheel(sources: Path, out: Path, commit: str | None) -> Path:
    """The wheel pip builds from `sources` (the pure-Python engine: the stamp is the same either way), with
    BANKER_BUILD_COMMIT set to `commit` (None: not set)."""
    env = {k: v for k, v in os.environ.items() if k not in ("BANKER_BUILD_COMMIT", "PYTHONPATH")}
    env["BANKER_PURE"] = "1"
    if commit is not None:
        env["BANKER_BUILD_COMMIT"] = commit
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(sources)],
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = out.glob("board_banker-*.whl")
    return wheel


def stamped(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as z:
        text = z.read("banker/_build_info.py").decode("utf-8")
    found = re.search(r"^COMMIT = '([0-9a-f]*)'$", text, re.M)
    assert found, text
    return found.group(1)


def version_of_unpacked(wheel: Path, where: Path) -> str:
    """`banker --version` of the wheel's files, unpacked into `where` (a pure wheel installs so) and first on the
    path: its banker and its metadata, not the checkout's."""
    with zipfile.ZipFile(wheel) as z:
        z.extractall(where)
    env = {**os.environ, "PYTHONPATH": str(where)}  # before the venv's own install (PYTHONSAFEPATH: not by cwd)
    out = subprocess.run([sys.executable, "-m", "banker", "--version"], capture_output=True, text=True, timeout=60,
                         cwd=where, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout.rstrip("\n")


def test_a_wheel_built_from_a_git_checkout_says_its_commit(tmp_path: Path) -> None:
    git = shutil.which("git")
    if git is None:
        pytest.skip("no git here (Debian: apt-get install git)")
    head = subprocess.run([git, "-C", str(REPO), "rev-parse", "--short=7", "HEAD"], capture_output=True, text=True,
                          check=False)
    if head.returncode != 0:
        pytest.skip("the tests do not run from a git checkout: no commit to stamp")
    commit = head.stdout.strip()
    git_dir = subprocess.run([git, "-C", str(REPO), "rev-parse", "--absolute-git-dir"], capture_output=True,
                             text=True, check=True).stdout.strip()
    # The sources copied out, so that the build leaves nothing in the checkout, and made the checkout's own
    # working copy again by a .git file pointing at its git folder: `git rev-parse HEAD` there is the checkout's.
    sources = tmp_path / "src"
    sources.mkdir()
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, sources / name, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        else:
            shutil.copy2(REPO / name, sources / name)
    (sources / ".git").write_text(f"gitdir: {git_dir}\n")

    wheel = build_wheel(sources, tmp_path / "from-git", None)
    assert stamped(wheel) == commit
    assert wheel.name.startswith(f"board_banker-{pyproject_version()}-")
    assert version_of_unpacked(wheel, tmp_path / "unpacked-git") == f"board-banker {pyproject_version()} (git {commit})"

    # deploy/install.sh's case: a copy of the sources without .git, the checkout's commit given.
    (sources / ".git").unlink()
    wheel = build_wheel(sources, tmp_path / "given", "abcdef0")
    assert stamped(wheel) == "abcdef0"
    assert version_of_unpacked(wheel, tmp_path / "unpacked-given") == f"board-banker {pyproject_version()} (git abcdef0)"
