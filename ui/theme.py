"""The app's look in one place: colours, font sizes, spacing, padding and touch-target sizes.

Lengths are in dp and font sizes in sp (kivy.metrics), turned into pixels *when read*, so the panel's
density (`Metrics.density`, set before the app builds) scales every screen alike: at density 1 (the
official 800x480 display) a dp is a pixel. Screens and widgets never write a pixel number themselves
(tests/ui/test_screens_static.py checks it); they say `theme.TARGET`, `theme.FONT_BODY`, `theme.GAP`.

    from ui import theme
    BigButton("Roll", roll, height=theme.TARGET, size=theme.FONT_BODY)

Colours are RGBA lists of floats, the same at every density.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp, sp
from kivy.utils import get_color_from_hex


def _hex(code: str) -> list[float]:
    return list(get_color_from_hex(code))


# ---------------------------------------------------------------------- colours

BG = _hex("#101418")  # the window behind everything
PANEL = _hex("#1C232B")  # a panel behind a group of widgets
TEXT = _hex("#F5F5F5")
MUTED = _hex("#B0BEC5")  # hints, status lines, the less important half of a screen
PRIMARY = _hex("#2E7D32")  # the button that does the expected thing
SECONDARY = _hex("#37474F")
DANGER = _hex("#C62828")  # errors, and buttons that cannot be taken back lightly
ACCENT = _hex("#FFC107")  # money moving, what the table must look at
ACCENT_BUTTON = _hex("#F57F17")
KINDS = {"primary": PRIMARY, "secondary": SECONDARY, "danger": DANGER, "accent": ACCENT_BUTTON}
WARNING = [1.0, 0.45, 0.35, 1.0]  # a timer in its last ten seconds
INK = [0.1, 0.1, 0.1, 1.0]  # pips and the speed die's face
DIE_FACE = [1.0, 1.0, 1.0, 1.0]
SPEED_DIE = [1.0, 0.8, 0.2, 1.0]  # brands' yellow speed die
PENDING_FILL = [0.35, 0.25, 0.0, 1.0]  # the banner asking for card taps
DEBT_FILL = [0.35, 0.08, 0.08, 1.0]  # a debt's panel
CURRENT_FILL = [0.2, 0.27, 0.33, 1.0]  # the player whose turn it is, in the list
LEADING_FILL = [0.15, 0.35, 0.15, 1.0]  # the high bidder, in an auction
TAB = [0.22, 0.28, 0.31, 1.0]  # a deeds tab not chosen
AXIS = [0.4, 0.45, 0.5, 1.0]  # the chart's base line
NO_GROUP = "#BDBDBD"  # a space of no colour group
NO_COLOUR = "#9E9E9E"  # a player with no colour (should not happen)
KEY_FILL = _hex("#546E7A")  # a letter of the on-screen keyboard
KEY_ON = _hex("#0277BD")  # the keyboard's shift while it holds
PRESET_FILL = _hex("#00695C")  # a ready name on the keyboard page
FONT_GLYPHS = "DejaVuSans"  # Kivy's own font with the keyboard's symbols (shift, backspace), which Roboto lacks

# ---------------------------------------------------------------------- font sizes, in sp

_SP: dict[str, float] = {
    "FONT_SMALL": 18,  # the least (MIN_FONT): status lines, rents on a deed, hints, buttons in a row of many
    "FONT_READ": 19,  # lines to read: the money log, the debt, the casino's rules
    "FONT_BODY": 20,  # text and buttons by default, notices
    "FONT_BIG": 22,  # a name, a cash amount in a list, a prompt
    "FONT_LARGE": 24,  # the main buttons, the move hint
    "FONT_TITLE": 28,  # a screen's title
    "FONT_HEADLINE": 30,  # whose turn it is
    "FONT_LEAD": 34,  # the current player's cash, the high bid
    "FONT_HUGE": 40,  # the app's name, the opening bid, the speed die's face
    "FONT_PAD_KEY": 40,  # a digit on the digit pad
    "FONT_PAD_VALUE": 44,  # the PIN or amount being entered on the digit pad
}

# ---------------------------------------------------------------------- lengths, in dp

_DP: dict[str, float | tuple[float, float]] = {
    # spacing and padding
    "GAP_TIGHT": 4,  # inside a title deed, the board's spaces
    "GAP": 6,  # between the lines of a column, inside a panel
    "GAP_WIDE": 8,  # between the buttons of a row, between panels
    "GAP_PANEL": 12,  # between the QR code and its words
    "PAD": 8,  # around a screen and inside a panel
    "PAD_SLIM": 2,  # inside a panel whose buttons need all of its height (an auction's bidders in two columns)
    "TEXT_INSET": 16,  # a button's text stays this far inside its edges
    "PLAYER_PAD": (8, 2),  # inside a player's line
    "HOME_PAD": (120, 10),  # the start screen's buttons keep to the middle
    "LIST_BAR": 12,  # the scroll bar of a list that scrolls (setup, deeds, the log...), always shown
    # touch targets (heights of buttons and of the rows that hold them)
    "TARGET_LIST": 48,  # a deed in the trade's lists (MIN_TARGET)
    "TARGET_COMPACT": 52,  # a row of many small buttons (trade, deeds tabs, the board's spaces)
    "TARGET_MEDIUM": 56,  # the title bar, rows of -/+ buttons
    "TARGET_SNUG": 60,  # the setup's player rows, the bottom bar
    "TARGET": 64,  # a button by default
    "TARGET_BAR": 66,  # a screen's bottom buttons
    "TARGET_LARGE": 70,  # the main action buttons
    "TARGET_HOME": 80,  # the start screen's buttons
    "TARGET_DIE": 90,  # a die's value on the dice screen
    "ROW_DIE": 96,  # a row of die values, the casino's numbers
    # lines that are not buttons
    "LINE_PLAYER": 40,  # a player in the turn screen's list
    "LINE_PLAYER_TEXT": 36,
    "LINE_RANK": 48,  # a player in the final ranking
    "LINE_RANK_TEXT": 44,
    # widths of buttons beside text
    "WIDTH_BACK": 130,
    "WIDTH_REGISTER": 210,
    "WIDTH_NUDGE": 56,  # -/+ on the "game already going" screen
    "WIDTH_OWNER": 150,
    "WIDTH_LEVEL": 110,
    "WIDTH_MORTGAGE": 130,
    "WIDTH_BID": 170,
    "WIDTH_PASS": 110,
    "WIDTH_BID_COMPACT": 140,  # an auction's buttons in two columns of bidders
    "WIDTH_PASS_COMPACT": 76,
    # shapes
    "CHIP": (28, 28),  # a player's token colour
    "CHIP_TURN": (40, 40),  # the current player's, at the top
    "DIE": (96, 96),
    "STRIPE": 14,  # a colour group's bar
    "STRIPE_DEED": 18,  # on the title deed
    "STRIPE_GROUP": 10,  # between the groups of the deeds screen
    "QR": (220, 220),
    "QR_BESIDE": (150, 150),  # a player's phone code in the turn screen's left column (many players)
    "RADIUS": 10,  # a panel's corners
    "RADIUS_DIE": 14,
    "RADIUS_CHIP": 14,
    "CHART_MARGIN": 10,
    "CHART_AXIS": 1,
    "CHART_LINE": 2,
    # the on-screen keyboard (its key rows share the height the page leaves them, never below KEY)
    "KEY": 48,  # the least height of a key: a fingertip
    "KEY_TOP": 64,  # the keyboard page's top row: Cancel, whose name and the name typed, Done
    "KEY_PRESET": 48,  # the row of ready names
    "WIDTH_KEY_ACTION": 150,  # Cancel and Done beside the name
}


def __getattr__(name: str) -> Any:
    """`theme.TARGET`: the length (or pair of lengths) in pixels for today's density."""
    if name in _DP:
        value = _DP[name]
        return (dp(value[0]), dp(value[1])) if isinstance(value, tuple) else dp(value)
    if name in _SP:
        return sp(_SP[name])
    raise AttributeError(f"ui.theme has no {name!r}")


def names() -> list[str]:
    """Every length and font size the theme has (for tests and for finding one)."""
    return sorted([*_DP, *_SP])


# ---------------------------------------------------------------------- minimums (issue 15), checked by ui/layout.py
# What a family must be able to see and hit from a chair at the table, at the density of a 7-inch 800x480
# panel (a dp is a pixel there); like every length above they are read through __getattr__, so on the
# other panels they scale with the density (1024x600: x1.25, 1280x720: x1.5).

_DP["MIN_TARGET"] = 48  # the least height and width of anything touched (a fingertip)
_SP["MIN_FONT"] = 18  # the least size of any text
_SP["MIN_FIGURE"] = 40  # the figures that matter: whose turn it is, a cash amount, what is owed, the bid

# ---------------------------------------------------------------------- issue 15: lengths and sizes added per part of the app
# (each block is kept by the screens named in it; add a name to _DP or _SP in its block, with a comment)

# setup, game in progress, keyboard, digit pad, home, settings, phones, replace, jump screens
_DP["SETUP_HEAD"] = 52  # the setup's top row: Back, the title and the banker's PIN
_DP["SETUP_RULESET"] = 48  # a ruleset's button, two rows of four across the setup (MIN_TARGET)
_DP["SETUP_ROW"] = 52  # a player's row on the setup, a house rule, a number of brands' own table
_DP["WIDTH_SETUP_SWATCH"] = 52  # a player's colour and the X that removes them, on the setup
_DP["WIDTH_SETUP_CARD"] = 180  # a player's card button (two lines for the longer languages)
_DP["WIDTH_SETUP_PIN"] = 240  # the banker's PIN, at the right of the setup's top row
_DP["WIDTH_PROGRESS_NAME"] = 110  # the least width of the names on the "game already going" screen
_DP["WIDTH_PROGRESS_NAME_MOST"] = 250  # the most: sixteen wide letters in the least font
_DP["WIDTH_HOUSE_SWITCH"] = 130  # a house rule's On / Off ("Wyłączone", "Выключено")
_DP["WIDTH_HOUSE_AMOUNT"] = 150  # a house rule's amount between its - and + ("12 500 zł")
_DP["WIDTH_EDITION_ACTION"] = 190  # an edition's Rename and Delete ("Dotknij znowu, aby usunąć" on two lines)

# deeds, trade, banker, game over, log, auction, own auction, casino, cards, dice screens
_SP["FONT_FIGURE"] = 40  # a figure that matters (MIN_FIGURE): a high bid, its seconds left, the opening bid
_DP["BIDDER_ROW"] = 56  # a bidder's line in an auction of up to three (one column)
_DP["BIDDER_ROW_COMPACT"] = 48  # a bidder's line in two columns (up to eight bidders at 480 px high): MIN_TARGET
_DP["WIDTH_TIMER"] = 110  # an auction's seconds left, "60 s", in FONT_FIGURE
_DP["WIDTH_POOL"] = 250  # the bank's houses and hotels beside the deeds screen's title (two lines)
_DP["WIDTH_DEED_VERB"] = 96  # a deed's Build, Sell all... ("Sprzedaj wszystko" on two lines)
_DP["LINE_BAR"] = 24  # a bar of the report's money in and out (ui/chart.py's MoneyBars), in a LINE_PLAYER_TEXT row

# the turn screen and the board view
_SP["FONT_PROMPT"] = 28  # the turn screen's one large prompt: what happens now
_DP["DIE_BOARD"] = (64, 64)  # a die in the board's middle (three fit: brands' speed die)
_DP["LINE_FIGURE"] = 48  # a line holding a figure that matters (MIN_FIGURE): what a debt still misses
_DP["LINE_PLAYER_COMPACT"] = 36  # a player in the turn screen's list of two columns (more than four players)

# money in motion and the end of a game (ui/motion.py)
_SP["FONT_FLYING"] = 48  # an amount travelling from the payer to the payee: large, read from across the table
_SP["FONT_WINNER"] = 72  # the winner's name over the game-over screen
_DP["FLYING_OUTLINE"] = 2  # the outline of a flying amount or the winner's name, in the player's colour
