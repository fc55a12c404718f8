"""The suite tests the installed package: this run's banker, ui and hardware are the venv's, and the import
check refuses the checkout's in any process the tests start (tests/import_check.py, tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from installedkit import INSTALLED, import_problems

ROOT = Path(__file__).resolve().parent.parent

needs_install = pytest.mark.skipif(not INSTALLED, reason="the installed package is tested under scripts/test.sh "
                                                         "(this is the developers' loop from the checkout)")


@needs_install
def test_this_run_imports_the_installed_package() -> None:
    assert import_problems() == []
    import banker
    import hardware
    import ui

    for package in (banker, hardware, ui):
        assert not Path(package.__file__ or "").resolve().is_relative_to(ROOT / package.__name__), package


@needs_install
@pytest.mark.parametrize("how", ["python -m from the checkout", "PYTHONPATH", "sys.path"])
def test_a_process_that_would_import_the_checkout_is_refused(how: str, tmp_path: Path) -> None:
    log = tmp_path / "refused.log"
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONSAFEPATH", "PYTHONPATH")}
    env["BANKER_IMPORT_CHECK_LOG"] = str(log)
    command, cwd = [sys.executable, "-m", "banker", "rules"], ROOT
    if how == "PYTHONPATH":
        env["PYTHONPATH"], cwd = str(ROOT), tmp_path
    elif how == "sys.path":
        command, cwd = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); import ui.i18n"], tmp_path
    run = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env, timeout=120)
    assert run.returncode != 0
    assert "would be imported from the checkout" in run.stderr
    assert "from the checkout" in log.read_text("utf-8")


@needs_install
def test_the_same_command_from_elsewhere_runs_the_installed_app(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONSAFEPATH"}
    env["BANKER_IMPORT_CHECK_LOG"] = str(tmp_path / "refused.log")
    run = subprocess.run([sys.executable, "-m", "banker", "rules"], capture_output=True, text=True, cwd=tmp_path,
                         env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "classic" in run.stdout
    assert not (tmp_path / "refused.log").exists()
