"""Kivy set up for the tests before any test module imports it: no command-line parsing, no log file, and a
Kivy home of this process's own. Without that, two pytest-xdist workers importing Kivy at the same moment on a
machine with no ~/.kivy yet both try to create it, and the slower one fails collecting with FileExistsError
(seen in the fresh Debian 13 root of scripts/test-debian13.sh)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
if "KIVY_HOME" not in os.environ:
    os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="pytest-kivy-")
    atexit.register(shutil.rmtree, os.environ["KIVY_HOME"], ignore_errors=True)
