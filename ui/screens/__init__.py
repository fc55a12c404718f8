"""The screens, one module each, in one registry (`SCREENS`, by the navigator's page names).

Each screen renders the view data (ui/view.py) and calls controller and navigator methods; none reads
the engine, and every size and colour comes from ui/theme.py (tests/ui/test_screens_static.py checks both).
"""

from __future__ import annotations

from ui.screens.auction import AuctionScreen
from ui.screens.banker import BankerScreen
from ui.screens.base import BaseScreen
from ui.screens.cards import CardPickScreen
from ui.screens.check import DiceCheckScreen, ReaderCheckScreen
from ui.screens.casino import CasinoScreen
from ui.screens.deeds import DeedsScreen
from ui.screens.dice import DiceEntryScreen
from ui.screens.digits import DigitsScreen
from ui.screens.home import HomeScreen
from ui.screens.inprogress import InProgressScreen
from ui.screens.jump import JumpScreen
from ui.screens.keyboard import KeyboardScreen
from ui.screens.log import LogScreen
from ui.screens.over import GameOverScreen
from ui.screens.ownauction import OwnAuctionScreen
from ui.screens.phones import PhonesScreen
from ui.screens.replace import ReplaceCardScreen
from ui.screens.settings import SettingsScreen
from ui.screens.setup import SetupScreen
from ui.screens.table import TableScreen
from ui.screens.trade import TradeScreen

SCREENS: dict[str, type[BaseScreen]] = {
    "home": HomeScreen, "setup": SetupScreen, "inprogress": InProgressScreen, "table": TableScreen,
    "auction": AuctionScreen, "deeds": DeedsScreen, "trade": TradeScreen, "log": LogScreen,
    "banker": BankerScreen, "replace": ReplaceCardScreen, "over": GameOverScreen, "settings": SettingsScreen,
    "cards": CardPickScreen, "dice": DiceEntryScreen, "ownauction": OwnAuctionScreen, "casino": CasinoScreen,
    "jump": JumpScreen, "phones": PhonesScreen, "keyboard": KeyboardScreen,
    "digits": DigitsScreen, "check_reader": ReaderCheckScreen, "check_dice": DiceCheckScreen,
}

__all__ = ["SCREENS", "BaseScreen"]
