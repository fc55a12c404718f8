"""The version a family can read out: `banker --version` and the app's About line in Settings.

    board-banker 0.2.0 (git abc1234)    an installed build of a git checkout
    board-banker 0.2.0                  an installed build whose commit is not known (no git, no
                                        BANKER_BUILD_COMMIT)
    board-banker (version unknown)      not installed (the sources alone on the path)

The version is the installed distribution's (importlib.metadata, "board-banker"); the commit is the one setup.py
stamped into the build as ``banker/_build_info.py`` (``COMMIT = "abc1234"``). That module exists only in a built
package, never in the checkout, so it is looked up by name at run time and the code here does not depend on it.
Nothing is read at import: only when a line is asked for.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import re

DISTRIBUTION = "board-banker"
BUILD_INFO = "banker._build_info"  # written by setup.py's build_py, into the build only
_COMMIT = re.compile(r"[0-9a-f]{7}")


def installed_version() -> str | None:
    """The installed distribution's version, or None when board-banker is not installed."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return None


def build_commit() -> str | None:
    """The commit stamped at build time (7 hex digits), or None: built without one, or not built at all."""
    try:
        info = importlib.import_module(BUILD_INFO)
    except ModuleNotFoundError as exc:
        if exc.name != BUILD_INFO:
            raise
        return None
    commit = getattr(info, "COMMIT", None)
    return commit if isinstance(commit, str) and _COMMIT.fullmatch(commit) else None


def format_version_line(version: str | None, commit: str | None) -> str:
    """`board-banker 0.2.0 (git abc1234)`, `board-banker 0.2.0`, or `board-banker (version unknown)` (with the
    commit after it, if one is known)."""
    line = f"{DISTRIBUTION} {version}" if version else f"{DISTRIBUTION} (version unknown)"
    return f"{line} (git {commit})" if commit else line


def version_line() -> str:
    """This installation's version line (see the module's docstring)."""
    return format_version_line(installed_version(), build_commit())


__all__ = ["build_commit", "format_version_line", "installed_version", "version_line"]
