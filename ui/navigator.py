"""Which page shows: the one the family chose, unless the game says otherwise.

No Kivy here, so it is tested without a window (tests/ui/test_navigator.py). The pages, their flows and
when each may show come from the one page list (ui/pages.py); the App asks `screen_name()` at every redraw.
An auction takes the table (the pages marked `over_auction` stay), a page of another mode gives way to that
mode's own page, and a page's flow may send the family elsewhere once the page's moment has passed (its
`leave`: a card drawn, a choice made, an entry whose game has gone).

Every message (a refusal, a notice) belongs to the place that showed when it was raised (ui/pages.py's
`place_of`): the navigator tells the session where the family is (`Session.enter`) at every move and every
redraw, and the messages of the place left go with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ui import pages
from ui.entry import Confirm

if TYPE_CHECKING:
    from ui.flows import Flows


class Navigator:
    def __init__(self, flows: Flows) -> None:
        self.f = flows  # ui/flows/__init__.py's Flows (which makes this)
        self.page = pages.TABLE_PAGE  # the page the family chose while a game runs
        self.settings_return = pages.HOME_PAGE  # the page the settings' Back returns to
        self.check_return = pages.SETTINGS_PAGE  # the page a hardware check's Back returns to
        self.confirm = Confirm()  # the destructive button armed for its second touch (ui/flows/banker.py)

    def screen_name(self) -> str:
        """The screen to show now. A hardware check not on the screen is over: taps and presses go to the game
        again."""
        name = self._screen_name()
        self.f.session.enter(pages.place_of(name))  # the messages of the place left behind go
        checks = pages.checks()
        if name not in checks and self.f.settings.check is not None:
            self.f.settings.start_check(None)
        return name

    def _screen_name(self) -> str:
        mode = self.f.mode
        for _ in range(len(pages.PAGES) + 1):  # a page's flow may send the family on, but never round in a circle
            page = pages.PAGES.get(self.page)
            if page is None:
                self.page = pages.home_page(mode)
                continue
            instead = self.f.of(page.flow).leave(page.name)
            if instead is None or instead == self.page:
                break
            self.page = instead
        if mode in (pages.HOME, pages.SETUP):
            self.f.banker.unlocked = False  # no game, or a new one: its PIN is asked afresh
        page = pages.PAGES.get(self.page)
        if page is None or mode not in page.modes:
            if mode == pages.TABLE:
                self.page = pages.TABLE_PAGE  # a page of another mode: the game has started (or was resumed)
            return pages.home_page(mode)
        game = self.f.session.game
        if mode == pages.TABLE and game is not None and game.auction is not None and not page.over_auction:
            return pages.AUCTION_PAGE
        return page.name

    def go(self, page: str) -> None:
        if page == pages.BANKER_PAGE and self.f.banker.is_locked():
            self.f.pad.ask_pin("unlock")  # the PIN pad first; its OK opens the menu
            return
        self.confirm.disarm()  # an armed button does not stay armed on another page
        checks = pages.checks()
        if page == pages.SETTINGS_PAGE and self.page not in checks:  # (back from a check: the settings' Back stays)
            self.settings_return = self.page
        if page in checks and self.page not in checks:
            self.check_return = self.page
        self.f.banker.going_to(page)  # the menu stays unlocked only on its own pages
        self.f.settings.start_check(checks.get(page))  # a check starts afresh on its screen and ends when it is left
        self.page = page
        self.f.session.enter(pages.place_of(page))  # what the page left said goes with it
        self.f.session.changed()

    def back_from_settings(self) -> None:
        self.go(self.settings_return if self.f.mode == pages.TABLE else pages.TABLE_PAGE)

    def back_from_check(self) -> None:
        """A hardware check's Back: where it was opened from (the settings, or the start screen's note)."""
        self.go(self.check_return)


__all__ = ["Navigator"]
