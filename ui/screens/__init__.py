"""The screens, one module each, made from the one page list (ui/pages.py): `screens()` gives each page's
screen class by its page name.

Each screen renders its flow's view data and calls its flow's commands (ui/flows/); none reads the engine,
and every size and colour comes from ui/theme.py (tests/ui/test_screens_static.py checks both).
"""

from __future__ import annotations

import importlib

from ui import pages
from ui.screens.base import BaseScreen


def screen_class(page: pages.Page) -> type[BaseScreen]:
    """The screen class a page names ("module:Class")."""
    module, name = page.screen.split(":")
    cls = getattr(importlib.import_module(module), name)
    if not (isinstance(cls, type) and issubclass(cls, BaseScreen)):
        raise TypeError(f"page {page.name!r}: {page.screen} is not a screen")
    return cls


def screens() -> dict[str, type[BaseScreen]]:
    """Every page's screen class, by page name, in the registry's order."""
    return {name: screen_class(page) for name, page in pages.PAGES.items()}


__all__ = ["BaseScreen", "screen_class", "screens"]
