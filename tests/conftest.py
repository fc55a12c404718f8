"""Kivy set up for the tests before any test module imports it: no command-line parsing, no log file, and a
Kivy home of this process's own. Without that, two pytest-xdist workers importing Kivy at the same moment on a
machine with no ~/.kivy yet both try to create it, and the slower one fails collecting with FileExistsError
(seen in the fresh Debian 13 root of scripts/test-debian13.sh).

Mesa's software renderer (llvmpipe, the stand-in for the Pi's GPU here) draws in the calling thread
(LP_NUM_THREADS=0) in every app the tests start: with two workers and their apps on two cores, its helper
threads only added hand-overs. Measured on the idle machine (2026-12-05): a tour at 1280x720 took 32.6 s of
CPU with the default two threads and 26.9 s with none; tests/ui/e2e_family.py 118 s and 96 s."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("LP_NUM_THREADS", "0")
if "KIVY_HOME" not in os.environ:
    os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="pytest-kivy-")
    atexit.register(shutil.rmtree, os.environ["KIVY_HOME"], ignore_errors=True)
