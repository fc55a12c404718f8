"""Every page of the app, once: its screen, its flow, when it may show and where a button leads to it.

The navigator (ui/navigator.py) reads this list to decide which page shows, and ui/screens/__init__.py
reads it to make the screens; neither keeps a list of its own. A new screen is its screen module, its flow
(ui/flows/, or an existing one) and one `Page` here, registered as the constant of its name (`TALLY_PAGE` for
"tally") that the rest of ui/ goes to it by (docs/app.md, "A new screen", walks through one).
No Kivy here: a page names its screen class by "module:Class", imported only by the app.
"""

from __future__ import annotations

from dataclasses import dataclass

HOME, SETUP, TABLE, OVER = "home", "setup", "table", "over"  # what the table is doing (`Flows.mode`)
ANY = (HOME, SETUP, TABLE, OVER)


@dataclass(frozen=True)
class Page:
    """One page. `screen`: its screen class ("ui.screens.trade:TradeScreen"); `flow`: the flow its screen
    calls, a name of `Flows` ("trade") or a flow class of its own ("module:Class"); `modes`: while which of
    HOME, SETUP, TABLE and OVER it may show (at other times the mode's own page shows); `over_auction`: it
    stays up while an auction runs (other pages give way to the auction); `bar`: the key of its button's
    words on the turn screen's bottom bar (None: reached another way); `check`: the hardware check it is
    ("reader" or "dice": while it shows, card taps and the dice button are only shown there); `place`: where its
    messages belong (`place_of`), when it is not a place of its own."""

    name: str
    screen: str
    flow: str
    modes: tuple[str, ...] = (TABLE,)
    over_auction: bool = False
    bar: str | None = None
    check: str | None = None
    place: str | None = None


PAGES: dict[str, Page] = {}


def register(page: Page) -> Page:
    """Add a page (or replace the one of its name)."""
    PAGES[page.name] = page
    return page


def unregister(name: str) -> None:
    PAGES.pop(name, None)


def home_page(mode: str) -> str:
    """The page each mode shows unless the family chose another that may show then."""
    return {HOME: HOME_PAGE, SETUP: SETUP_PAGE, OVER: OVER_PAGE}.get(mode, TABLE_PAGE)


def place_of(name: str) -> str:
    """Where a message raised on page `name` belongs: the page itself, or for the pages the turn steps through by
    itself (the dice entered, a card picked, the casino, a jump, an auction taking the table) the turn screen's
    place, "table", so that what a roll or a bid did is still said when the table shows again. A message shows
    only at its place and goes when the family leaves it (ui/session.py's `Session.enter`)."""
    page = PAGES.get(name)
    return (page.place or page.name) if page is not None else name


def bar_pages() -> list[Page]:
    """The pages the turn screen's bottom bar leads to, in the registry's order."""
    return [p for p in PAGES.values() if p.bar is not None]


def checks() -> dict[str, str]:
    """The hardware checks' pages: page -> "reader" or "dice"."""
    return {p.name: p.check for p in PAGES.values() if p.check is not None}


# Each page's name is a constant declared with its entry, NAME_PAGE for "name": the rest of ui/ names a page by its
# constant only, never by a string (tests/ui/test_page_names.py), so that a misspelt page is a NameError and a
# renamed one is renamed everywhere. (HOME, SETUP, TABLE and OVER above are the modes, not pages.)
HOME_PAGE = register(Page("home", "ui.screens.home:HomeScreen", "home", modes=(HOME,))).name
SETUP_PAGE = register(Page("setup", "ui.screens.setup:SetupScreen", "setup", modes=(SETUP,))).name
INPROGRESS_PAGE = register(Page("inprogress", "ui.screens.inprogress:InProgressScreen", "progress",
                                modes=(SETUP,))).name
KEYBOARD_PAGE = register(Page("keyboard", "ui.screens.keyboard:KeyboardScreen", "names", modes=(SETUP,))).name
HOUSERULES_PAGE = register(Page("houserules", "ui.screens.houserules:HouseRulesScreen", "setup", modes=(SETUP,))).name
TABLE_PAGE = register(Page("table", "ui.screens.table:TableScreen", "turn")).name
AUCTION_PAGE = register(Page("auction", "ui.screens.auction:AuctionScreen", "auction", place=TABLE_PAGE)).name
DEEDS_PAGE = register(Page("deeds", "ui.screens.deeds:DeedsScreen", "deeds", over_auction=True, bar="deeds")).name
TRADE_PAGE = register(Page("trade", "ui.screens.trade:TradeScreen", "trade", bar="ui.nav.trade")).name
LOG_PAGE = register(Page("log", "ui.screens.log:LogScreen", "home", bar="ui.nav.log")).name
RULES_PAGE = register(Page("rules", "ui.screens.rules:RulesScreen", "home", bar="ui.nav.rules")).name
BANKER_PAGE = register(Page("banker", "ui.screens.banker:BankerScreen", "banker", over_auction=True,
                            bar="ui.nav.banker")).name
REPLACE_PAGE = register(Page("replace", "ui.screens.replace:ReplaceCardScreen", "banker")).name
OVER_PAGE = register(Page("over", "ui.screens.over:GameOverScreen", "home", modes=(OVER,))).name
REPORT_PAGE = register(Page("report", "ui.screens.report:ReportScreen", "ui.flows.report:ReportFlow",
                            modes=(OVER,))).name
FAME_PAGE = register(Page("fame", "ui.screens.report:FameScreen", "ui.flows.report:ReportFlow", modes=(HOME,))).name
PAST_REPORT_PAGE = register(Page("past_report", "ui.screens.report:ReportScreen", "ui.flows.report:ReportFlow",
                                 modes=(HOME,))).name
SETTINGS_PAGE = register(Page("settings", "ui.screens.settings:SettingsScreen", "settings", modes=(HOME, SETUP, TABLE),
                              over_auction=True)).name
CARDS_PAGE = register(Page("cards", "ui.screens.cards:CardPickScreen", "turn", place=TABLE_PAGE)).name
DICE_PAGE = register(Page("dice", "ui.screens.dice:DiceEntryScreen", "turn", place=TABLE_PAGE)).name
OWNAUCTION_PAGE = register(Page("ownauction", "ui.screens.ownauction:OwnAuctionScreen", "auction",
                                place=TABLE_PAGE)).name
CASINO_PAGE = register(Page("casino", "ui.screens.casino:CasinoScreen", "turn", place=TABLE_PAGE)).name
JUMP_PAGE = register(Page("jump", "ui.screens.jump:JumpScreen", "turn", place=TABLE_PAGE)).name
PHONES_PAGE = register(Page("phones", "ui.screens.phones:PhonesScreen", "phones")).name
DIGITS_PAGE = register(Page("digits", "ui.screens.digits:DigitsScreen", "pad", modes=(SETUP, TABLE, OVER),
                            over_auction=True)).name
EDITIONS_PAGE = register(Page("editions", "ui.screens.editions:EditionsScreen", "ui.flows.editions:EditionsFlow",
                              modes=(HOME,))).name
# The editions' keyboard and phone pages are the editions page's own steps: what a rename or a phone's save did
# ("Renamed: ...") is said on the editions page they return to.
EDITION_KEYBOARD_PAGE = register(Page("edition_keyboard", "ui.screens.keyboard:EditionKeyboardScreen",
                                      "ui.flows.editions:EditionsFlow", modes=(HOME,), place=EDITIONS_PAGE)).name
TAGGING_PAGE = register(Page("tagging", "ui.screens.tagging:TaggingScreen", "tagging", modes=(HOME,))).name
EDITION_PHONE_PAGE = register(Page("edition_phone", "ui.screens.editions:EditionPhoneScreen",
                                   "ui.flows.editions:EditionsFlow", modes=(HOME,), place=EDITIONS_PAGE)).name
# The big deed (a tagged deed put on the reader, ui/taps.py): over an auction too, to see the lot's rents.
DEED_PAGE = register(Page("deed", "ui.screens.deedcard:DeedCardScreen", "deedcard", modes=(TABLE, OVER),
                          over_auction=True)).name
CHECK_READER_PAGE = register(Page("check_reader", "ui.screens.check:ReaderCheckScreen", "settings",
                                  modes=(HOME, SETUP, TABLE), over_auction=True, check="reader")).name
CHECK_DICE_PAGE = register(Page("check_dice", "ui.screens.check:DiceCheckScreen", "settings",
                                modes=(HOME, SETUP, TABLE), over_auction=True, check="dice")).name

__all__ = ["ANY", "AUCTION_PAGE", "BANKER_PAGE", "CARDS_PAGE", "CASINO_PAGE", "CHECK_DICE_PAGE", "CHECK_READER_PAGE",
           "DEED_PAGE", "DEEDS_PAGE", "DICE_PAGE", "DIGITS_PAGE", "EDITIONS_PAGE", "EDITION_KEYBOARD_PAGE",
           "EDITION_PHONE_PAGE", "FAME_PAGE", "HOME", "HOME_PAGE", "HOUSERULES_PAGE", "INPROGRESS_PAGE", "JUMP_PAGE",
           "KEYBOARD_PAGE", "LOG_PAGE", "OVER", "OVER_PAGE", "OWNAUCTION_PAGE", "PAGES", "PAST_REPORT_PAGE",
           "PHONES_PAGE", "Page", "REPLACE_PAGE", "REPORT_PAGE", "RULES_PAGE", "SETTINGS_PAGE", "SETUP", "SETUP_PAGE",
           "TABLE", "TABLE_PAGE", "TAGGING_PAGE", "TRADE_PAGE", "bar_pages", "checks", "home_page", "place_of",
           "register", "unregister"]
