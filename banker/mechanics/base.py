"""What every mechanic shares: it is made from the game's options (banker/options.py) and holds configuration only."""

from __future__ import annotations

from typing import Any

from banker.options import Options

try:  # the compiled build lets interpreted code subclass its mechanics (a ruleset's own variant)
    from mypy_extensions import mypyc_attr
except ImportError:  # pure Python without mypy installed: nothing to allow
    def mypyc_attr(*_: Any, **__: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls

__all__ = ["Mechanic", "mypyc_attr"]


@mypyc_attr(allow_interpreted_subclasses=True)
class Mechanic:
    """A variant of one family of rules. Subclasses override the family's hooks."""

    def __init__(self, options: Options) -> None:
        self.options = options
