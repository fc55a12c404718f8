"""Build hook: compile the engine's hot modules with mypyc when possible.

mypyc (part of mypy) compiles type-annotated Python to C extensions; for the
engine it plays about 2.5 times as many games a second as the same source
interpreted (docs/performance.md, "The engine"). It is only an optimisation: the modules stay
plain Python, and without a C compiler or Python headers, or with
BANKER_PURE=1 set, the package installs and runs as pure Python.
Everything else is configured in pyproject.toml.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
# The engine's core, its modules and every mechanic module (a new mechanic module is compiled without being
# listed here).
COMPILED = ["banker/game.py", "banker/kernel.py", "banker/model.py", "banker/game_setup.py", "banker/verbs.py",
            "banker/cards.py", "banker/state.py", "banker/limits.py", "banker/outside.py",
            "banker/ai.py", "banker/simulate.py", "banker/variant.py",
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


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
