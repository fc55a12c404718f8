"""Whether this run tests the installed package, and what is wrong with where its banker, ui and hardware come
from. tests/conftest.py checks it at the start of a run and tests/test_installed.py tests it; a module of its own
rather than conftest's, as test modules cannot import a conftest by name (tests/hardware has one too).
"""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

INSTALLED = os.environ.get("BANKER_TEST_INSTALLED") == "1"


def installed_places() -> list[Path]:
    """Where the installed package may live: the venv's site-packages, and the pure engine's folder."""
    places = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
    if os.environ.get("BANKER_PURE_ENGINE"):
        places.add(Path(os.environ["BANKER_PURE_ENGINE"]).resolve())
    return sorted(places)


def import_problems() -> list[str]:
    """What is wrong with where this process's banker, ui and hardware come from (nothing: [])."""
    import importlib

    problems = []
    if "_banker_import_check" not in sys.modules:
        problems.append("the import check is not active in this Python (scripts/_venv.sh installs it in "
                        ".venv-test; run the suite with ./scripts/test.sh)")
    for name in ("banker", "ui", "hardware"):
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            problems.append(f"{name}: {exc}")
            continue
        where = Path(next(iter(module.__path__))).resolve()
        if not any(where.is_relative_to(place) for place in installed_places()):
            problems.append(f"{name} is imported from {where}, not the installed package "
                            f"({', '.join(map(str, installed_places()))})")
    expected = os.environ.get("BANKER_EXPECT_ENGINE")
    if expected and not problems:
        import banker.game

        engine = "compiled" if banker.game.__file__.endswith((".so", ".pyd")) else "pure"
        if engine != expected:
            problems.append(f"the run tests the {engine} engine ({banker.game.__file__}), not the {expected} one")
    return problems
