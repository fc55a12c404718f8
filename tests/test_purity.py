"""banker/ stays pure: no Kivy, serial, gpiozero, ui or hardware, and no I/O at import."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

FORBIDDEN = {"kivy", "serial", "gpiozero", "ui", "hardware", "lgpio", "qrcode"}
BANKER = Path(__file__).resolve().parent.parent / "banker"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_banker_imports_nothing_impure() -> None:
    offenders = {}
    for path in BANKER.rglob("*.py"):
        bad = imported_modules(path) & FORBIDDEN
        if bad:
            offenders[str(path.relative_to(BANKER))] = sorted(bad)
    assert offenders == {}


def test_importing_the_engine_loads_no_hardware_or_ui() -> None:
    code = ("import sys, banker, banker.game, banker.script, banker.simulate, banker.cli; "
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
