"""Issue 54's words in the real app, offscreen, by touches (and card taps where cards are used). Run by
tests/ui/test_words.py in a subprocess (Kivy opens one window per process):

    python tests/ui/words_app.py WORKDIR LANGUAGE buttons   # point 6: on-screen buttons instead of cards
    python tests/ui/words_app.py WORKDIR LANGUAGE words     # point 7: just visiting, a tie, the phones' link

buttons: with cards off (play_touch_only), the start screen, the table, an auction, a trade and the settings
never ask for a card (no text of a message that asks for one, in the app's language); the settings' switch
says "Pay with: on-screen buttons" and does not look switched off; the auction's "No bid yet (from X)" is
the first bid its Bid buttons make, and its step buttons say they step the bid.
words: with cards (run_app, the phone server on), a player landing on the jail's space is told they are
just visiting; a game ended in a tie says the players share first place and ranks them both first; the
game-over screen's button for a new link says it is the phones' link.

Exits 0 when every check passed; otherwise prints the failing step.
"""

from __future__ import annotations

import string
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from e2e_kit import Cards, Step, by_role, labels, passed, play_touch_only, run_app, texts, touch, touch_role

from ui import theme
from ui.session import BUTTONS_WORDS, CARDS_ONLY

# The messages that ask for a card: those shown only when cards are used (tests/ui/test_words_catalogue.py
# keeps the list whole), and the cards' side of every text with an on-screen buttons' twin.
CARD_WORDS = sorted(set(CARDS_ONLY) | set(BUTTONS_WORDS))


def asking_for_cards(tr: Any) -> list[str]:
    """What a reader sees of every message that asks for a card, in the app's language: each template's
    words between its placeholders (6 characters or more)."""
    parts = []
    for key in CARD_WORDS:
        template = tr.template(key, {"count": 2, "seconds": 2}) or ""
        for text, *_ in string.Formatter().parse(template):
            words = text.strip(" :.,?!—–-«»„“”\"'")
            if len(words) >= 6:
                parts.append(words)
    return parts


def no_card_words(app: Any) -> Callable[[], bool]:
    """Nothing on the screen asks for a card (fails the run, naming the text, if something does)."""
    def check() -> bool:
        shown = texts(app) + "\n" + "\n".join(labels(app))
        found = [p for p in asking_for_cards(app.session.tr) if p in shown]
        if found:
            raise AssertionError(f"with on-screen buttons the screen asks for a card: {found}")
        return True
    return check


def on(app: Any, screen: str) -> Callable[[], bool]:
    return lambda: app.manager.current == screen


def dice(app: Any, a: int, b: int) -> list[Step]:
    tr = app.session.tr
    return [(f"enter {a}+{b}", lambda: touch(app, tr("ui.btn.enter_dice"))),
            (f"die {a}", lambda: touch_role(app, f"die0-{a}")),
            (f"die {b}", lambda: touch_role(app, f"die1-{b}")),
            ("move by them", lambda: touch(app, tr("ui.dice.done")))]


def buttons_steps(app: Any) -> list[Step]:
    f, s = app.flows, app.session
    tr = s.tr

    def switch_reads(words: str) -> Callable[[], bool]:
        def check() -> bool:
            b = by_role(app, "setting taps")
            if b is None:
                return False
            assert b.text == words, b.text
            assert list(b.background_color) == list(theme.PRIMARY), "the way chosen looks switched off"
            return True
        return check

    def players() -> list[str]:
        return [p.name for p in s.game.players]  # type: ignore[union-attr]

    def auction_words() -> bool:
        a = f.auction.view()
        if a is None or app.manager.current != "auction":
            return False
        bid = by_role(app, "bid")
        opening = tr.money(10)
        assert bid is not None and bid.text == tr("ui.auction.no_bid", amount=10), bid and bid.text
        assert opening in bid.text
        bids = [w for w in labels(app) if w == tr("ui.auction.bid", amount=10)]
        assert len(bids) == 2, labels(app)  # both players' Bid buttons bid what the line says
        assert tr("ui.auction.how_buttons", step=10) in texts(app), texts(app)
        assert tr("ui.auction.step", delta="+5") in labels(app) and tr("ui.auction.step", delta="-5") in labels(app)
        return True

    return [
        ("the start screen", on(app, "home")),
        ("its tagline asks for no card", lambda: tr("ui.home.tagline_buttons") in texts(app)),
        ("no card words at home", no_card_words(app)),
        ("New game", lambda: touch(app, tr("ui.home.new"))),
        ("the new-game screen", on(app, "setup")),
        ("no card words at the setup", no_card_words(app)),
        ("Start the game", lambda: touch(app, tr("ui.setup.start"))),
        ("the table", on(app, "table")),
        ("no card words on the table", no_card_words(app)),
        ("the banker's menu", lambda: touch(app, tr("ui.nav.banker"))),
        ("Settings", lambda: touch(app, tr("ui.settings"))),
        ("the switch says its way", switch_reads(tr("ui.settings.taps.off"))),
        ("no card words in the settings", no_card_words(app)),
        ("cards chosen", lambda: touch_role(app, "setting taps")),
        ("the switch says cards", lambda: s.settings.taps and switch_reads(tr("ui.settings.taps.on"))()),
        ("buttons again", lambda: touch_role(app, "setting taps")),
        ("buttons chosen", lambda: not s.settings.taps and switch_reads(tr("ui.settings.taps.off"))()),
        ("back to the banker", lambda: touch(app, tr("ui.back"))),
        ("back to the table", lambda: app.manager.current == "banker" and touch(app, tr("ui.back"))),
        ("the table again", on(app, "table")),
        *dice(app, 1, 2),
        ("no purchase: an auction", lambda: touch(app, tr("ui.btn.decline"))),
        ("the auction agrees with its buttons", auction_words),
        ("no card words at the auction", no_card_words(app)),
        ("the first player bids", lambda: touch(app, tr("ui.auction.bid", amount=10))),
        ("leading", lambda: tr("ui.auction.high", amount=10, player=players()[0]) in texts(app)),
        ("no card words at the auction still", no_card_words(app)),
        ("the hammer", lambda: touch(app, tr("ui.auction.sold"))),
        ("sold, the table", lambda: on(app, "table")() and s.game.owner[3] == 0),  # type: ignore[union-attr]
        ("a trade", lambda: touch(app, tr("ui.btn.trade"))),
        ("the trade's agreement asks for no card",
         lambda: tr("ui.trade.agree_buttons", a=players()[0], b=players()[1]) in labels(app)),
        ("no card words in the trade", no_card_words(app)),
        ("back from the trade", lambda: touch(app, tr("ui.back"))),
        ("the table at last", on(app, "table")),
    ]


def words_steps(app: Any, reader: Any) -> list[Step]:
    f, s = app.flows, app.session
    tr = s.tr
    cards = Cards(reader)
    uids = ["04A32B1C", "04B7771A2C5E80"]

    def game() -> Any:
        return s.game

    def over_words() -> bool:
        if app.manager.current != "over":
            return False
        a, b = (p.name for p in game().players)
        assert tr("ui.over.tie", players=tr("ui.over.and", first=a, next=b)) in texts(app), texts(app)
        assert f"{a} & {b}" not in texts(app), texts(app)
        assert f"1. {a}" in texts(app) and f"1. {b}" in texts(app), texts(app)  # both ranked first
        assert tr("ui.phones.revoke") in labels(app), labels(app)
        return True

    return [
        ("the start screen", on(app, "home")),
        ("New game", lambda: touch(app, tr("ui.home.new"))),
        ("register the first card", lambda: touch(app, tr("ui.setup.register"))),
        ("the first card", cards.tap(uids[0])),
        ("registered", lambda: f.setup.draft is not None and f.setup.draft.players[0].card == uids[0]),
        ("the second card", cards.tap(uids[1])),
        ("registered too", lambda: f.setup.draft is not None and f.setup.draft.players[1].card == uids[1]),
        ("Start the game", lambda: touch(app, tr("ui.setup.start"))),
        ("the table", on(app, "table")),
        *dice(app, 4, 6),
        ("on the jail's space", lambda: game().players[0].position == 10 and not game().players[0].in_jail),
        ("just visiting", lambda: tr("ui.move_to_visiting", player=game().players[0].name,
                                     space=game().space_names[10]) in texts(app)),
        ("not sent there", lambda: tr("ui.move_to", player=game().players[0].name, space=game().space_names[10])
         not in texts(app).splitlines()),
        ("the banker's menu", lambda: touch(app, tr("ui.nav.banker"))),
        ("end the game", lambda: touch(app, tr("ui.banker.end"))),
        ("touch again to end it", lambda: touch(app, tr("ui.confirm.end"))),
        ("a tie: both first, and the phones' link named", over_words),
    ]


def main() -> int:
    work, language, scenario = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    work.mkdir(parents=True, exist_ok=True)
    if scenario == "buttons":
        return play_touch_only(work, language, buttons_steps)
    from ui.settings import Settings

    Settings(language=language, voice=False, motion=False).save(work / "settings.json")
    holder: dict[str, Any] = {}

    def make(app: Any, reader: Any) -> list[Step]:
        holder["app"] = app
        return words_steps(app, reader)

    return passed(*run_app(work, make, phones=True))


if __name__ == "__main__":
    sys.exit(main())
