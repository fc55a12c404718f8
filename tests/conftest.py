"""Set up for every test run.

Kivy, before any test module imports it: no command-line parsing, no log file, and a Kivy home of this
process's own. Without that, two pytest-xdist workers importing Kivy at the same moment on a machine with no
~/.kivy yet both try to create it, and the slower one fails collecting with FileExistsError (seen in the
fresh Debian 13 root of scripts/test-debian13.sh).

The installed package: under scripts/test.sh (BANKER_TEST_INSTALLED=1) the suite tests the wheel installed
in .venv-test, as the Pi installs it. The run fails at its start when banker, ui or hardware is imported
from anywhere else, or when the venv's import check (tests/import_check.py) is not active; and at its end
when any process of the run was refused an import from the checkout (the check's log). BANKER_EXPECT_ENGINE
(compiled or pure) says which engine the run must be testing. Processes the tests start find nothing of the
checkout on their path either: PYTHONSAFEPATH keeps ``python -m`` and ``python -c`` from putting the
current folder first.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from installedkit import INSTALLED, import_problems

CHECKOUT = Path(__file__).resolve().parent.parent

# Pure Python refuses writes to the engine's records from outside its core only when asked (the compiled build
# always does): the whole suite asks, and so do the processes it starts (banker/model.py, "The records").
os.environ.setdefault("BANKER_GUARD_RECORDS", "1")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
if "KIVY_HOME" not in os.environ:
    os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="pytest-kivy-")
    atexit.register(shutil.rmtree, os.environ["KIVY_HOME"], ignore_errors=True)

if INSTALLED:
    # The processes the tests start: nothing of the checkout first on their path (python -m, python -c), and
    # the test helpers' folders where pytest has them (pyproject.toml's pythonpath), for the apps the
    # end-to-end tests run as scripts.
    os.environ["PYTHONSAFEPATH"] = "1"
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [
        os.environ.get("PYTHONPATH"), str(CHECKOUT / "tests"), str(CHECKOUT / "tests" / "ui"),
        str(CHECKOUT / "scripts")]))


def pytest_sessionstart(session: pytest.Session) -> None:
    if not INSTALLED:
        return
    problems = import_problems()
    if problems:
        raise pytest.UsageError("The suite must test the installed package:\n  " + "\n  ".join(problems))


def _check_log() -> Path:
    return Path(sys.prefix) / "import-check.log"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not INSTALLED or hasattr(session.config, "workerinput"):
        return  # the controller reads the log once every worker has ended
    log = _check_log()
    refused = log.read_text("utf-8").splitlines() if log.exists() else []
    if refused:
        print("\nImports from the checkout were refused during the run (tests/import_check.py):")
        for line in refused[:20]:
            print("  " + line)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
