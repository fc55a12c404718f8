"""End-to-end, as the family plays: a four-player classic game on the real app, driven only by touching
what is on the screen and tapping cards on the (pseudo-terminal) card reader, through to the last player
standing and the game-over chart.

Run by test_app_e2e.py in a subprocess (Kivy opens one window per process):

    python tests/ui/e2e_family.py WORKDIR

Nothing is typed and no key is sent: names on the on-screen keyboard, the PIN and amounts on the digit pad,
everything else on the screens' own buttons, money moved by card taps. Dice are entered by touches on the
dice screen (real dice), so the game is the same every time. To get to the end in a minute it starts as a
game already going, entered by touches:

- setup: four players named on the keyboard (Ann, Ben and Dan typed, Cat a ready name), their cards
  registered by taps (a card already taken is refused), a banker PIN on the digit pad; then "Game already
  going?": Ann owns Park Place and Boardwalk, Cat the Short Line; Ben, Cat and Dan have 1,000, 800 and 1,000
  and stand a few spaces before Ann's corner;
- Ann builds three houses on each, evenly, each paid by her card; buys Baltic Avenue (Ben's card refused);
- Ben lands on Park Place: 1,100 rent he cannot pay; he declares bankruptcy with his card;
- Cat declines Pennsylvania Avenue: an auction bid by card taps (Ann and Dan), Cat passes, sold to Dan;
- Dan pays Cat rent on the Short Line, then buys it from her for 150 typed on the digit pad, both tapping
  to agree; the banker, behind the PIN (a wrong one refused first), corrects Cat's cash on the digit pad;
- Ann just visits jail; Cat lands on Park Place: bankrupt (Dan's card refused for her);
- Dan lands on Boardwalk (1,400), mortgages Pennsylvania Avenue from the debt panel, is still short and
  declares bankruptcy: Ann is the last player standing, and the game-over screen ranks everyone and draws
  everyone's net worth.

Every step checks what the screen shows (texts, the buttons' words, who leads, the debt's sums); afterwards
the journal (banker.journal.Journal) must hold the setup as entered, the cards, the PIN only as a hash,
every action the touches and taps asked for in order, and the finished game, which rebuilt from its rows is
exactly the one the app showed at the end.

Exits 0 when every check passed; otherwise prints the failing step.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e_kit import Cards, Step, by_role, enter, labels, press, run_app, seen, texts, touch, touch_role, widgets
from kivy.uix.label import Label

from banker.journal import Journal
from banker.report import ranks

PLAYERS = ("Ann", "Ben", "Cat", "Dan")
CARDS = {"Ann": "04A32B1C", "Ben": "04B7771A2C5E80", "Cat": "04C0FFEE", "Dan": "04D15EA5"}
START_CASH = 1500
SETUP_STEP = 50  # the game-in-progress screen's -/+ on cash
# "Game already going", by -/+ touches: today's cash and where each stands (Ben on Pennsylvania Avenue, Cat
# on Pacific Avenue, Dan on North Carolina Avenue: a few spaces before Ann's corner); the deeds each holds,
# by touching the owner button until it shows the name.
TODAY = {"Ann": (1500, 0), "Ben": (1000, 34), "Cat": (800, 31), "Dan": (1000, 32)}
DEEDS = {37: "Ann", 39: "Ann", 35: "Cat"}  # Park Place, Boardwalk, Short Line
BOARD = 40
CORRECTION = 50  # the banker gives Cat the 50 the family forgot to pay her


def row_text(app: Any, role: str) -> str:
    """The texts in the same row as the button marked `role` (e.g. a player's cash beside its -/+)."""
    found = by_role(app, role)
    if found is None or found.parent is None:
        return ""
    return "\n".join(w.text for w in found.parent.children if isinstance(w, Label) and w.__class__.__name__ == "Text")


def side_button(app: Any, text: str, side: str) -> Any:
    """The button reading `text` on the left or right half of the screen (the trade's two sides)."""
    found = [w for w in widgets(app) if w.__class__.__name__ == "BigButton" and w.text == text]
    found.sort(key=lambda w: w.to_window(*w.center)[0])
    if not found:
        return None
    return found[0] if side == "left" else found[-1]


def family(app: Any, reader: Any) -> list[Step]:
    c = app.flows
    cards = Cards(reader)
    money = c.session.tr.money

    def tap(name: str) -> Callable[[], bool]:
        return cards.tap(CARDS[name])

    def game() -> Any:
        assert c.session.game is not None
        return c.session.game

    def cash(name: str) -> int:
        g = game()
        return int(g.players[g.index_of[name]].cash)

    def player_line(name: str, amount: int) -> Callable[[], bool]:
        """The table's list of players shows `name` with `amount` in cash."""
        def check() -> bool:
            for w in widgets(app):  # a player's line: the cash beside the name (or the name and what holds them)
                children = getattr(w, "children", [])
                kids = [k.text for k in children if isinstance(k, Label)]
                names = kids + [g.text for k in children for g in getattr(k, "children", []) if isinstance(g, Label)]
                if name in names and money(amount) in kids:
                    return True
            return False
        return check

    def registers(k: int, name: str) -> list[Step]:
        return [(f"{name} taps to register", tap(name)),
                (f"{name}'s card registered", lambda: c.setup.draft is not None and c.setup.draft.players[k].card == CARDS[name]
                 and f"Card registered for {name}." in texts(app))]

    def nudge(name: str, key: str, target: int, start: int, step: int) -> list[Step]:
        """Touch a player's -/+ on the game-in-progress screen until it shows `target`."""
        out: list[Step] = []
        if key == "cash":
            count, sign = abs(start - target) // step, "-" if target < start else "+"
        else:  # round the board the short way
            ahead = (target - start) % BOARD
            count, sign = (ahead, "+") if ahead <= BOARD // 2 else (BOARD - ahead, "-")
        for k in range(count):
            out.append((f"{name} {key} {sign} ({k + 1}/{count})",
                        lambda n=name, s=sign: touch_role(app, f"{n} {key} {s}")))
        return out

    steps: list[Step] = [
        # ------------------------------------------------------------------ a new game
        ("home", lambda: touch(app, "New game")),
        ("the setup", seen(app, "New game")),
        ("a third player", lambda: touch(app, "Add a player")),
        ("a fourth player", lambda: touch(app, "Add a player")),
        ("four rows", lambda: labels(app).count("Tap card to register") == 4),
        *name_players(app),
        ("the card reader is connected", lambda: c.settings.reader == "connected"),
        ("register the first card", lambda: touch(app, "Tap card to register")),
        ("waiting for a card", lambda: "Tap the card now…" in labels(app)),
        *registers(0, "Ann"),
        ("Ann's card again, for Ben", tap("Ann")),
        ("refused: it is Ann's", seen(app, "That card is already Ann's.")),
        *registers(1, "Ben"),
        *registers(2, "Cat"),
        *registers(3, "Dan"),
        ("every card registered", lambda: labels(app).count("Card registered") == 4),
        *set_pin(app),
        ("game already going", lambda: touch(app, "Game already going? Enter it")),
        ("the game-in-progress screen", seen(app, "Game in progress: cash, places and deeds")),
    ]
    for name, (amount, where) in TODAY.items():
        steps += nudge(name, "cash", amount, START_CASH, SETUP_STEP)
        steps.append((f"{name} has {amount}",
                      lambda n=name, a=amount: f"Cash: {money(a)}" in row_text(app, f"{n} cash -")))
        steps += nudge(name, "position", where, 0, 1)
    steps += [
        ("Ben on Pennsylvania Avenue", lambda: "Standing on: Pennsylvania Avenue" in row_text(app, "Ben position -")),
        ("Cat on Pacific", lambda: "Standing on: Pacific Avenue" in row_text(app, "Cat position -")),
        ("Dan on North Carolina", lambda: "Standing on: North Carolina Avenue" in row_text(app, "Dan position -")),
    ]
    for space, owner in DEEDS.items():
        for k in range(PLAYERS.index(owner) + 1):  # the bank, then each player in turn
            steps.append((f"space {space}: owner {k + 1}", lambda s=space: touch_role(app, f"owner {s}")))
        steps.append((f"space {space} is {owner}'s", lambda s=space, o=owner: (b := by_role(app, f"owner {s}"))
                      is not None and b.text == o))
    steps += [
        ("start", lambda: touch(app, "Start the game")),
        ("the table", seen(app, "Ann's turn", money(1500))),
        *[(f"{n} on the table with {money(a)}", player_line(n, a)) for n, (a, _w) in TODAY.items()],
        ("the setup went in", lambda: game().owner[37] == 0 and game().owner[39] == 0 and game().owner[35] == 2
         and game().players[1].position == 34),

        # ------------------------------------------------------------------ Ann builds, then buys
        ("Ann's deeds", lambda: touch(app, "Deeds & houses")),
        ("Park Place and Boardwalk", seen(app, "Ann's deeds", "Park Place", "Boardwalk")),
    ]
    for k, space in enumerate((37, 39) * 3):  # three houses each, evenly
        houses = k // 2 + 1
        name = {37: "Park Place", 39: "Boardwalk"}[space]
        steps += [
            (f"build on {name} ({houses})", lambda s=space: touch_role(app, f"build {s}")),
            ("Ann must tap to build", seen(app, "Ann: tap your card")),
            ("Ann taps", tap("Ann")),
            (f"{name}: {houses} house(s)", lambda s=space, h=houses, n=name: game().level[s] == h
             and f"{n}  {c.session.tr('ui.deed.houses_n', count=h)}" in texts(app)),
        ]
    steps += [
        ("the bank's houses", seen(app, c.session.tr("ui.pool", houses=26, hotels=12))),
        ("Ann paid 1,200", lambda: cash("Ann") == 300),
        ("back to the table", lambda: touch(app, "Back")),
        *enter(app, 1, 2),
        ("where to move", seen(app, "Ann: move your token to Baltic Avenue")),
        ("buy", lambda: touch(app, "Buy Baltic Avenue for 60")),
        ("the banner asks for Ann's card", seen(app, "Ann: tap your card to buy Baltic Avenue for 60")),
        ("Ben's card", tap("Ben")),
        ("is refused with his name", seen(app, "That is Ben's card. Ann must tap.")),
        ("Ann taps to pay", tap("Ann")),
        ("bought", lambda: game().owner[3] == 0 and cash("Ann") == 240),
        ("the new balance", seen(app, money(240), "Ann buys Baltic Avenue for 60")),
        ("end Ann's turn", lambda: touch(app, "End turn")),

        # ------------------------------------------------------------------ Ben: rent he cannot pay
        ("Ben's turn", seen(app, "Ben's turn")),
        *enter(app, 1, 2),
        ("Ben on Park Place", seen(app, "Ben: move your token to Park Place")),
        ("Ben owes the rent", seen(app, f"Ben owes Ann {money(1100)}: missing {money(100)}",
                                   "declaring bankruptcy is the way out")),
        ("declare bankruptcy", lambda: touch(app, "Declare bankruptcy")),
        ("Ben must tap", seen(app, "Ben: tap your card to declare bankruptcy")),
        ("Ben taps", tap("Ben")),
        ("Ben is out", lambda: game().players[1].bankrupt and cash("Ann") == 1240),
        ("on the table", lambda: player_line("Ben", 0)() and "bankrupt" in texts(app)
         and seen(app, f"Ben is bankrupt: {money(1000)} goes to Ann")()),

        # ------------------------------------------------------------------ Cat: an auction by card taps
        ("Cat's turn", seen(app, "Cat's turn")),
        *enter(app, 1, 2),
        ("Cat on Pennsylvania Avenue", seen(app, "Cat: move your token to Pennsylvania Avenue")),
        ("Cat declines", lambda: touch(app, "Don't buy: auction")),
        ("the auction", seen(app, "Auction: Pennsylvania Avenue", "No bid yet")),
        ("Ann taps to bid", tap("Ann")),
        ("Ann leads", seen(app, f"{money(10)} — Ann leads")),
        ("Dan taps to bid", tap("Dan")),
        ("Dan leads", seen(app, f"{money(20)} — Dan leads")),
        ("Ann bids again", tap("Ann")),
        ("Ann leads again", seen(app, f"{money(30)} — Ann leads")),
        ("Dan bids again", tap("Dan")),
        ("Dan leads again", seen(app, f"{money(40)} — Dan leads")),
        ("Cat passes", lambda: touch_role(app, "pass Cat")),
        ("Cat is out of the bidding", lambda: game().auction is not None and 2 not in game().auction.bidders),
        ("the hammer", lambda: touch(app, "Sold!")),
        ("sold to Dan for 40", lambda: game().owner[34] == 3 and cash("Dan") == 960
         and app.manager.current == "table"),
        ("said so", seen(app, f"Dan pays {money(40)} for Pennsylvania Avenue at auction")),
        ("end Cat's turn", lambda: touch(app, "End turn")),

        # ------------------------------------------------------------------ Dan: rent, then a trade
        ("Dan's turn", seen(app, "Dan's turn")),
        *enter(app, 1, 2),
        ("Dan pays Cat rent", seen(app, f"Dan pays Cat {money(25)} rent for Short Line")),
        ("the rent moved", lambda: cash("Dan") == 935 and cash("Cat") == 825),
        ("trade", lambda: touch(app, "Trade")),
        ("the trade screen", seen(app, "Trade")),
        ("Dan offers", lambda: (b := side_button(app, "Dan", "left")) is not None and press(b)),
        ("to Cat", seen(app, f"Dan gives {money(0)}", f"Cat gives {money(0)}")),
        ("Cat gives the Short Line", lambda: (b := side_button(app, "Short Line", "right")) is not None and press(b)),
        ("chosen", lambda: side_button(app, "+ Short Line", "right") is not None),
        *trade_cash(app, "Dan", 150),
        ("Dan gives 150", seen(app, f"Dan gives {money(150)}", f"Cat gives {money(0)}")),
        ("agree", lambda: touch(app, "Dan and Cat: tap to agree")),
        ("both must tap", seen(app, "Dan + Cat: tap your card to agree to this trade")),
        ("Dan taps", tap("Dan")),
        ("still Cat's", lambda: game().owner[35] == 2 and c.paying.pending is not None),
        ("Cat taps", tap("Cat")),
        ("traded", lambda: game().owner[35] == 3 and cash("Dan") == 785 and cash("Cat") == 975),
        ("said so", seen(app, f"Dan hands Cat {money(150)} in a trade")),
        ("leave the trade", lambda: touch(app, "Back")),

        # ------------------------------------------------------------------ the banker's correction
        *correct_cash(app, "Cat", 975, CORRECTION),
        ("corrected", lambda: cash("Cat") == 975 + CORRECTION),
        ("the table again", lambda: touch(app, "Back") if app.manager.current != "table" else True),
        ("Cat's new cash on the table", player_line("Cat", 975 + CORRECTION)),
        ("end Dan's turn", lambda: touch(app, "End turn")),

        # ------------------------------------------------------------------ Ann, just visiting
        ("Ann's turn again", seen(app, "Ann's turn")),
        *enter(app, 3, 4),
        ("Ann just visiting", lambda: seen(app, "Ann: move your token to Jail")()
         and game().players[0].position == 10 and not game().players[0].in_jail),
        ("end Ann's second turn", lambda: touch(app, "End turn")),

        # ------------------------------------------------------------------ Cat: bankrupt on Park Place
        ("Cat's turn again", seen(app, "Cat's turn")),
        *enter(app, 1, 2),
        ("Cat owes the rent", seen(app, f"Cat owes Ann {money(1100)}: missing {money(125 - CORRECTION)}",
                                   "declaring bankruptcy is the way out")),
        ("Cat declares bankruptcy", lambda: touch(app, "Declare bankruptcy")),
        ("Cat must tap", seen(app, "Cat: tap your card to declare bankruptcy")),
        ("Dan's card will not do", tap("Dan")),
        ("refused", seen(app, "That is Dan's card. Cat must tap.")),
        ("Cat taps", tap("Cat")),
        ("Cat is out", lambda: game().players[2].bankrupt and not game().ended),

        # ------------------------------------------------------------------ Dan: Boardwalk, and the end
        ("Dan's turn again", seen(app, "Dan's turn")),
        *enter(app, 1, 3),
        ("Dan owes the rent", seen(app, f"Dan owes Ann {money(1400)}: missing {money(615)}",
                                   "Even selling everything cannot cover it")),
        ("raise money", lambda: touch(app, "Sell or mortgage")),
        ("Dan's deeds", seen(app, "Dan's deeds", "Pennsylvania Avenue", "Short Line")),
        ("mortgage Pennsylvania Avenue", lambda: touch_role(app, "mortgage 34")),
        ("Dan must tap", seen(app, "Dan: tap your card")),
        ("Dan taps", tap("Dan")),
        ("mortgaged", lambda: bool(game().mortgaged[34]) and cash("Dan") == 945),
        ("still short", lambda: bool(game().players[3].debts)),
        ("back to the table", lambda: touch(app, "Back")),
        ("not enough", seen(app, f"Dan owes Ann {money(1400)}: missing {money(455)}",
                            "declaring bankruptcy is the way out")),
        ("Dan declares bankruptcy", lambda: touch(app, "Declare bankruptcy")),
        ("Dan must tap to go", seen(app, "Dan: tap your card to declare bankruptcy")),
        ("Dan taps", tap("Dan")),

        # ------------------------------------------------------------------ game over, by the rules
        ("the game is over", lambda: game().ended and app.manager.current == "over"),
        ("Ann wins", seen(app, "Ann wins!", "Net worth during the game")),
        ("the ranking", lambda: ranking_shown()),
        ("the chart", lambda: chart_drawn()),
        ("what the app shows at the end", lambda: save_final()),
    ]

    def save_final() -> bool:
        (Path(c.session.journal.path).parent / "final.json").write_text(json.dumps(game().to_json()), "utf-8")
        return True

    def ranking_shown() -> bool:
        g = game()
        words = texts(app)
        places = ranks(g)  # the report's places: the bankrupt by when they went, the last first (issue 54)
        return all(f"{places[g.index_of[name]]}. {name}" in words for name, _w in g.ranking()) \
            and g.ranking()[0] == ("Ann", g.net_worth(0)) and money(g.net_worth(0)) in words

    def chart_drawn() -> bool:
        from kivy.graphics import Line
        chart = next((w for w in widgets(app) if w.__class__.__name__ == "Chart"), None)
        if chart is None or chart.width < 100 or chart.height < 100:
            return False
        series = chart.series
        lines = [i for i in chart.canvas.children if isinstance(i, Line)]
        return (sorted(series) == sorted(PLAYERS) and all(len(s) >= 3 for s in series.values())
                and series["Ann"][-1] == game().net_worth(0) and all(series[n][-1] == 0 for n in PLAYERS[1:])
                and len(lines) >= 1 + len(PLAYERS))

    return steps


PIN = "2468"
WRONG_PIN = "1357"


def digits(app: Any, number: str, what: str) -> list[Step]:
    """Touch each digit of `number` on the digit pad."""
    return [(f"{what}: {d} ({k + 1}/{len(number)})", lambda d=d: touch_role(app, f"digit {d}"))
            for k, d in enumerate(number)]


def on(app: Any, screen: str) -> Callable[[], bool]:
    return lambda: app.manager.current == screen


def name_players(app: Any) -> list[Step]:
    """The four names on the on-screen keyboard, a touch a key (the first letter a capital by itself): Ann
    typed, Ben typed with a slip taken back by the backspace key, Dan typed, and Cat one touch on a ready
    name (free once Dan no longer has it)."""
    c = app.flows

    def named(k: int, name: str) -> Callable[[], bool]:
        return lambda: (app.manager.current == "setup" and c.setup.draft is not None and c.setup.draft.players[k].name == name
                        and (b := by_role(app, f"name {k}")) is not None and b.text == name)

    def typed(text: str) -> Callable[[], bool]:
        return lambda: (w := by_role(app, "name typed")) is not None and w.text == text + "|"

    def keys(word: str) -> list[Step]:
        return [(f"key {ch}", lambda ch=ch: touch_role(app, f"key {ch}")) for ch in word]

    steps: list[Step] = [("ready names to begin with", lambda: c.setup.draft is not None
                          and [p.name for p in c.setup.draft.players] == ["Car", "Ship", "Dog", "Cat"])]
    for k in (0, 1, 3, 2):  # Dan before Cat: the fourth player's ready name is Cat until then
        name = PLAYERS[k]
        steps += [(f"player {k + 1}'s name", lambda k=k: touch_role(app, f"name {k}")),
                  ("the keyboard", on(app, "keyboard"))]
        if name == "Cat":
            steps += [("Cat is free now", lambda: by_role(app, "preset Cat") is not None),
                      ("the ready name Cat", lambda: touch_role(app, "preset Cat"))]
        else:
            steps.append(("clear the ready name", lambda: touch_role(app, "key clear")))
            if name == "Ben":
                steps += [*keys("bem"), ("a slip", typed("Bem")),
                          ("backspace", lambda: touch_role(app, "key backspace")), ("taken back", typed("Be")),
                          *keys("n")]
            else:
                steps += keys(name.lower())
            steps += [(f"{name} typed", typed(name)), ("done", lambda: touch_role(app, "done"))]
        steps.append((f"{name} named", named(k, name)))
    return steps


def set_pin(app: Any) -> list[Step]:
    """The banker's PIN, on the digit pad."""
    c = app.flows
    return [("the banker's PIN", lambda: touch_role(app, "setup pin")),
            ("the digit pad", on(app, "digits")),
            *digits(app, PIN, "the PIN"),
            ("shown as dots", lambda: (w := by_role(app, "digits shown")) is not None and PIN not in w.text),
            ("OK", lambda: touch_role(app, "digit ok")),
            ("back on the setup", lambda: app.manager.current == "setup" and c.setup.draft is not None
             and c.setup.draft.pin == PIN)]


def trade_cash(app: Any, who: str, amount: int) -> list[Step]:
    """The cash `who` (the side that offers) gives, on the digit pad."""
    return [(f"{who}'s cash", lambda: touch_role(app, "trade cash give")),
            ("the digit pad", on(app, "digits")),
            *digits(app, str(amount), "the cash"),
            ("OK", lambda: touch_role(app, "digit ok")),
            ("back to the trade", on(app, "trade"))]


def correct_cash(app: Any, who: str, cash: int, amount: int) -> list[Step]:
    """Behind the banker's PIN (a wrong one first), `who`'s cash (`cash` now) corrected on the digit pad:
    `amount` added."""
    money = app.session.tr.money
    return [("the banker's menu", lambda: touch(app, "Banker")),
            ("asks for the PIN", on(app, "digits")),
            *digits(app, WRONG_PIN, "a wrong PIN"),
            ("OK", lambda: touch_role(app, "digit ok")),
            ("refused, and how many tries are left", seen(app, "Wrong PIN: 4 more tries before a wait")),
            ("still locked", lambda: app.manager.current == "digits" and app.flows.banker.is_locked()),
            *digits(app, PIN, "the PIN"),
            ("OK", lambda: touch_role(app, "digit ok")),
            ("the banker's menu is open", lambda: app.manager.current == "banker" and not app.flows.banker.is_locked()),
            ("corrections", seen(app, "Correct a player's cash")),
            (f"correct {who}", lambda: touch_role(app, f"correct {who}")),
            ("the digit pad", on(app, "digits")),
            ("whose and how much", seen(app, f"Correct {who}'s cash", f"{who} has {money(cash)}")),
            ("add to the cash", lambda: touch_role(app, "digit +")),
            *digits(app, str(amount), "the correction"),
            ("the new balance before OK", lambda: seen(app, f"New balance: {money(cash + amount)}")()
             and app.session.game.players[app.session.game.index_of[who]].cash == cash),
            ("OK", lambda: touch_role(app, "digit ok")),
            ("back to the menu", on(app, "banker"))]


def journal_checks(work: Path) -> list[str]:
    """What the journal must hold after the game: the setup as touched in, the cards and the PIN (hashed),
    every action the touches and taps asked for, in order, and the finished game, rebuilt from its rows,
    exactly as the app last showed it."""
    problems = []
    with Journal(work / "games.sqlite3", create=False) as j:
        info = j.games()[-1]
        header = j.header(info.id)
        meta = j.meta(info.id)
        game = j.load(info.id).game
        actions = j.actions(info.id)
    if info.status != "finished":
        problems.append(f"the game is {info.status}, not finished")
    if header.rules != "classic" or header.players != list(PLAYERS):
        problems.append(f"the header: {header.rules} {header.players}")
    setup = header.setup or {}
    entered = {n: (p.get("cash"), p.get("position")) for n, p in setup.get("players", {}).items()}
    if entered != TODAY:
        problems.append(f"the game in progress was entered as {entered}")
    owners = {int(i): e.get("owner") for i, e in setup.get("spaces", {}).items() if e.get("owner")}
    if owners != DEEDS:
        problems.append(f"the deeds were entered as {owners}")
    if meta.get("cards") != {uid: name for name, uid in CARDS.items()}:
        problems.append(f"the cards: {meta.get('cards')}")
    if not meta.get("pin") or PIN in json.dumps(meta):
        problems.append("the PIN is not kept, or kept as it was typed")
    mine = [a for a in actions if a["do"] not in ("roll", "end_turn")]
    expected = ([("build", s) for s in (37, 39) * 3] + [("buy", None), ("concede", "Ben"), ("decline", None)]
                + [("bid", (who, amount)) for who, amount in (("Ann", 10), ("Dan", 20), ("Ann", 30), ("Dan", 40))]
                + [("pass", "Cat"), ("close_auction", None), ("trade", None), ("adjust", ("Cat", CORRECTION)),
                   ("concede", "Cat"), ("mortgage", 34), ("concede", "Dan")])

    def key(a: dict[str, Any]) -> tuple[str, Any]:
        verb = a["do"]
        if verb in ("build", "mortgage"):
            return verb, a["space"]
        if verb in ("concede", "pass"):
            return verb, a["player"]
        if verb == "bid":
            return verb, (a["player"], a["amount"])
        if verb == "adjust":
            return verb, (a["player"], a["cash"])
        return verb, None

    got = [key(a) for a in mine]
    if got != expected:
        problems.append(f"the actions were {got}")
    trade = next((a for a in actions if a["do"] == "trade"), {})
    if (trade.get("from"), trade.get("to"), trade.get("give"), trade.get("get")) != \
            ("Dan", "Cat", {"cash": 150}, {"spaces": [35]}):
        problems.append(f"the trade was {trade}")
    if game.outcome is None or game.outcome.winners != ("Ann",):
        problems.append(f"the outcome is {game.outcome!r}")
    if [p.bankrupt for p in game.players] != [False, True, True, True]:
        problems.append("Ben, Cat and Dan should be bankrupt")
    shown = json.loads((work / "final.json").read_text("utf-8"))
    if game.to_json() != shown:
        problems.append("the game rebuilt from the journal is not the one the app showed at the end")
    return problems


def main() -> int:
    work = Path(sys.argv[1])
    status, script = run_app(work, family, timeout=20)  # a step's time: the machine may be busy
    if status:
        return status
    problems = journal_checks(work)
    if problems:
        print("FAILED: the journal:", "; ".join(problems))
        return 1
    assert script is not None
    print(f"family: {len(script.steps)} steps passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
