"""The suite's import check: banker, ui and hardware come from the installed package, never the checkout.

scripts/_venv.sh copies this file into the test venv's site-packages as ``_banker_import_check`` with a
``.pth`` file that calls `install` at every start of that venv's Python: the suite itself and every process
a test starts with ``sys.executable`` (``python -m banker``, the apps the end-to-end tests drive). Then an
import of one of the product's packages that Python would find in the checkout (the checkout's folder put on
``sys.path`` by ``python -m`` from it, by ``PYTHONPATH``, or by a script) is refused with an ImportError that
names both places, and written to the log that tests/conftest.py reads when the run ends, so that a refusal
a test swallowed still fails the run.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import ModuleType

PACKAGES = ("banker", "ui", "hardware")


class CheckoutImportRefused(ImportError):
    pass


class _Refuse(importlib.abc.MetaPathFinder):
    def __init__(self, checkout: str, log: str) -> None:
        self.checkout = os.path.realpath(checkout)
        self.venv = os.path.realpath(sys.prefix)  # the venv may be a folder of the checkout (.venv-test)
        self.log = log

    def _in_checkout(self, path: str | None) -> bool:
        if not path:
            return False
        real = os.path.realpath(path)
        return _under(real, self.checkout) and not _under(real, self.venv)

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in PACKAGES:
            return None  # a submodule is looked up in its package's own folder, which is checked here
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None:
            return None
        places = [spec.origin, *(spec.submodule_search_locations or [])]
        found = next((place for place in places if self._in_checkout(place)), None)
        if found is None:
            return spec
        message = (f"{fullname} would be imported from the checkout ({found}), not from the installed package: "
                   f"the suite tests what the Pi installs (sys.path starts {sys.path[:3]!r}; "
                   f"process {os.getpid()}: {' '.join(sys.argv)[:200]})")
        try:
            with open(self.log, "a", encoding="utf-8") as file:
                file.write(message + "\n")
        except OSError:
            pass
        raise CheckoutImportRefused(message)


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder + os.sep)


def install(checkout: str, log: str) -> None:
    """Refuse the product's packages from `checkout`, writing each refusal to `log` (or to the file
    BANKER_IMPORT_CHECK_LOG names: tests/test_installed.py's own refusals go there, not into the run's log)."""
    if not any(isinstance(finder, _Refuse) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Refuse(checkout, os.environ.get("BANKER_IMPORT_CHECK_LOG", log)))
