"""Build hook: compile the engine's hot modules with mypyc when possible.

mypyc (part of mypy) compiles type-annotated Python to C extensions; for the
engine it plays about 2.5 times as many games a second as the same source
interpreted (docs/performance.md, "The engine"). It is only an optimisation: the modules stay
plain Python, and without a C compiler or Python headers, or with
BANKER_PURE=1 set, the package installs and runs as pure Python.

Build hook: stamp the commit the package was built from into the build (never into the sources), as
banker/_build_info.py, for `banker --version` and the app's About line (banker/version.py). The commit is
BANKER_BUILD_COMMIT when set (deploy/install.sh builds from a copy of the sources without .git and passes the
checkout's; set but empty: no commit), else this folder's git HEAD when this folder is a git checkout, else none.
Everything else is configured in pyproject.toml.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
# The engine's core, its modules and every mechanic module (a new mechanic module is compiled without being
# listed here).
COMPILED = ["banker/game.py", "banker/kernel.py", "banker/model.py", "banker/game_setup.py", "banker/verbs.py",
            "banker/cards.py", "banker/state.py", "banker/limits.py", "banker/outside.py",
            "banker/ai.py", "banker/simulate.py", "banker/variant.py", "banker/options.py", "banker/statefields.py",
            *sorted(f"banker/mechanics/{name}" for name in os.listdir(os.path.join(HERE, "banker", "mechanics"))
                    if name.endswith(".py"))]


def compiled_extensions() -> list[Any]:
    if os.environ.get("BANKER_PURE"):
        return []
    try:
        from mypyc.build import mypycify

        return list(mypycify(COMPILED, opt_level="3"))
    except Exception as exc:  # mypyc missing or unable to translate: pure Python it is
        print(f"board-banker: installing the pure-Python engine ({exc})", file=sys.stderr)
        return []


class OptionalBuildExt(build_ext):
    """All or nothing: if any compiled module fails to build, install none of them."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            print(f"board-banker: no C compiler or headers ({exc}); installing the pure-Python engine",
                  file=sys.stderr)


# The stamped commit: a module of the build alone (the checkout has none), never compiled (not in COMPILED).
BUILD_INFO = os.path.join("banker", "_build_info.py")
COMMIT = re.compile(r"[0-9a-fA-F]{7,40}")


def build_commit() -> str:
    """The commit to stamp, 7 lowercase hex digits, or "" when none is known."""
    given = os.environ.get("BANKER_BUILD_COMMIT")
    if given is not None:
        given = given.strip()
        if given and not COMMIT.fullmatch(given):
            raise SystemExit(f"board-banker: BANKER_BUILD_COMMIT must be a git commit (7 to 40 hex digits), "
                             f"not {given!r}")
        return given[:7].lower()
    if not os.path.exists(os.path.join(HERE, ".git")):  # a copy of the sources, or an sdist: no commit of its own
        return ""
    try:
        # safe.directory: built as root from a user's checkout (sudo pip install .), git would refuse it otherwise;
        # it is the checkout whose setup.py this is.
        done = subprocess.run(["git", "-c", f"safe.directory={HERE}", "-C", HERE, "rev-parse", "--short=7", "HEAD"],
                              capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):  # no git here
        return ""
    commit = done.stdout.strip()
    return commit[:7].lower() if done.returncode == 0 and COMMIT.fullmatch(commit) else ""


class StampedBuildPy(build_py):
    """The ordinary build_py, then banker/_build_info.py with the commit written into the build folder."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:  # an editable install runs the sources themselves: nothing stamped
            path = os.path.join(self.build_lib, BUILD_INFO)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as out:
                out.write('"""Written by setup.py when this package was built: the commit it was built from '
                          '("" when not known)."""\n\n'
                          f"COMMIT = {build_commit()!r}\n")

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        if not self.editable_mode:
            outputs.append(os.path.join(self.build_lib, BUILD_INFO))
        return outputs


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": StampedBuildPy})
