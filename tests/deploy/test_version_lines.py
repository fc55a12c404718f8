"""The installer's and the updater's version lines: which app was there and which is now (issue 53).

The fast installer tests (test_deploy.py) leave pip out, and the version lines are in pip's part of install.sh,
so they are tested here by pieces: install.sh's functions, sourced, against stand-ins for the venv's `banker` and
`python`; its stage_source on this checkout; and update.sh's closing lines, with a stand-in for the install.sh
it runs. The real installs (tests/deploy/chroot_install.sh, BANKER_SLOW_TESTS=1) print them for real.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from banker.version import format_version_line

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
PACKAGE = ("pyproject.toml", "setup.py", "README.md", "banker", "hardware", "ui")  # what stage_source copies

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="install.sh and update.sh run as root")


def run(*command: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})}, check=False)


def install_sh(script: str, *args: str | Path) -> subprocess.CompletedProcess[str]:
    """`script` run in bash after sourcing install.sh (which then only defines its functions); $2... are `args`."""
    return run("bash", "-c", f'source "$1"; shift; {script}', "test", DEPLOY / "install.sh", *args)


def stand_in(path: Path, body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


def version_line_of(venv: Path) -> str:
    done = install_sh('VENV=$1; app_version_line', venv)
    assert done.returncode == 0, done.stderr
    return done.stdout.rstrip("\n")


# The venv's python, asked for the distribution's version: it must run isolated (-I), so that a checkout in the
# current folder cannot answer for the venv.
METADATA_PYTHON = ('if [ "$1" = -I ] && [ "$2" = -c ] && echo "$3" | grep -q importlib.metadata; then\n'
                   '    echo "board-banker 0.1.0"; exit 0\n'
                   'fi\n'
                   'exit 1\n')


def test_the_installed_app_says_its_version_line(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    stand_in(venv / "bin/banker", 'echo "board-banker 0.2.0 (git abc1234)"\n')
    stand_in(venv / "bin/python", METADATA_PYTHON)
    assert version_line_of(venv) == "board-banker 0.2.0 (git abc1234)"


def test_the_real_banker_version_is_taken_as_it_prints_it(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    stand_in(venv / "bin/banker", f'cd "{REPO}" && exec "{sys.executable}" -m banker "$@"\n')
    line = version_line_of(venv)
    said = run(sys.executable, "-c", "from banker.version import version_line; print(version_line())")
    assert line == said.stdout.rstrip("\n") and line.startswith("board-banker ")


def test_an_app_from_before_version_is_named_by_its_distribution(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    # 0.1.0's banker refuses --version (on standard error, status 2).
    stand_in(venv / "bin/banker", 'echo "banker: unrecognized arguments: --version" >&2; exit 2\n')
    stand_in(venv / "bin/python", METADATA_PYTHON)
    assert version_line_of(venv) == "board-banker 0.1.0"
    # Something else on standard output is not a version line either.
    stand_in(venv / "bin/banker", 'echo "usage: banker [-h] COMMAND ..."; exit 2\n')
    assert version_line_of(venv) == "board-banker 0.1.0"


def test_no_app_is_none(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    assert version_line_of(venv) == "none"  # no venv at all
    stand_in(venv / "bin/python", "echo 'importlib.metadata.PackageNotFoundError: board-banker' >&2; exit 1\n")
    assert version_line_of(venv) == "none"  # a venv without the app


def test_the_installed_line_names_the_one_replaced() -> None:
    done = install_sh('replacing "board-banker 0.1.0"; replacing none')
    assert done.stdout.splitlines() == ["replacing board-banker 0.1.0", "the first install here"]


@as_root
def test_stage_source_passes_the_checkouts_commit(tmp_path: Path) -> None:
    git = shutil.which("git")
    if git is None:
        pytest.skip("no git here (Debian: apt-get install git)")
    head = run(git, "-C", REPO, "rev-parse", "--short=7", "HEAD")
    if head.returncode != 0:
        pytest.skip("the tests do not run from a git checkout")
    root = tmp_path / "root"
    root.mkdir()
    staged = install_sh('R=$1; CHECKOUT=$2; stage_source; echo "$BUILD_COMMIT"', root, REPO)
    assert staged.returncode == 0, staged.stderr
    assert staged.stdout.strip() == head.stdout.strip()

    # A copy of the sources, not a git checkout: no commit.
    plain = tmp_path / "plain"
    for name in PACKAGE:
        (plain / name).parent.mkdir(parents=True, exist_ok=True)
        if name.endswith((".toml", ".py", ".md")):
            (plain / name).write_text("")
        else:
            (plain / name).mkdir()
    staged = install_sh('R=$1; CHECKOUT=$2; stage_source; echo "[$BUILD_COMMIT]"', root, plain)
    assert staged.returncode == 0, staged.stderr
    assert staged.stdout.strip() == "[]"

    # A git checkout of another user's (the pi user's, the installer run with sudo): its commit all the same.
    run(git, "-C", plain, "init", "-q")
    run(git, "-C", plain, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "--allow-empty",
        "-m", "a commit")
    commit = run(git, "-C", plain, "rev-parse", "--short=7", "HEAD").stdout.strip()
    assert len(commit) == 7
    subprocess.run(["chown", "-R", "nobody", str(plain)], check=True)
    staged = install_sh('R=$1; CHECKOUT=$2; stage_source; echo "$BUILD_COMMIT"', root, plain)
    assert staged.stdout.strip() == commit


# ----------------------------------------------------------------------------
# update.sh's closing lines, with a stand-in install.sh saying how many changes it made and which versions


@pytest.fixture
def updater(tmp_path: Path) -> tuple[Path, Path]:
    """update.sh in a deploy folder of its own beside a stand-in install.sh, and an installed root."""
    deploy = tmp_path / "deploy"
    deploy.mkdir()
    shutil.copy2(DEPLOY / "update.sh", deploy / "update.sh")
    stand_in(deploy / "install.sh", 'echo "$FAKE_CHANGES" >"$BANKER_INSTALL_CHANGES_FILE"\n'
                                    'if [ -n "$FAKE_VERSIONS" ]; then\n'
                                    '    printf "%s" "$FAKE_VERSIONS" >"$BANKER_INSTALL_VERSIONS_FILE"\n'
                                    'fi\n')
    root = tmp_path / "root"
    (root / "etc/systemd/system").mkdir(parents=True)
    (root / "etc/systemd/system/board-banker.service").write_text("")
    (root / "opt/board-banker").mkdir(parents=True)
    return deploy / "update.sh", root


def closing_lines(updater: tuple[Path, Path], changes: int, versions: tuple[str, str] | None) -> list[str]:
    script, root = updater
    done = run("bash", script, "--root", root,
               env={"FAKE_CHANGES": str(changes), "FAKE_VERSIONS": "\n".join(versions) + "\n" if versions else ""})
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip().splitlines()


OLD = format_version_line("0.1.0", "1111111")
NEW = format_version_line("0.2.0", "2222222")


@as_root
def test_update_names_the_version_replaced_and_the_new_one(updater: tuple[Path, Path]) -> None:
    assert closing_lines(updater, 5, (OLD, NEW)) == [
        "board-banker update: 0.1.0 (git 1111111) -> 0.2.0 (git 2222222)",
        "board-banker update: done; the service was not restarted (no service manager in use here)"]
    # From an app that predates --version, or onto a venv without one.
    assert closing_lines(updater, 5, ("board-banker 0.1.0", NEW))[0] == \
        "board-banker update: 0.1.0 -> 0.2.0 (git 2222222)"
    assert closing_lines(updater, 5, ("none", NEW))[0] == "board-banker update: none -> 0.2.0 (git 2222222)"


@as_root
def test_update_with_nothing_new_says_the_version_there(updater: tuple[Path, Path]) -> None:
    assert closing_lines(updater, 0, (NEW, NEW)) == [
        "board-banker update: already up to date (board-banker 0.2.0 (git 2222222)); the service was not restarted"]
    # Other files changed (the unit, a rule), the app did not.
    assert closing_lines(updater, 1, (NEW, NEW))[0] == "board-banker update: the app is still board-banker 0.2.0 (git 2222222)"
    # install.sh left pip out (BANKER_INSTALL_SKIP_PACKAGES=1): no versions to say.
    assert closing_lines(updater, 0, None) == ["board-banker update: already up to date; the service was not restarted"]
