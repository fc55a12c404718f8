"""View data the flows share: plain dicts, lists and texts (already translated) for the screens.

Each flow (ui/flows/) makes its own screens' view data; what several of them show is here: amounts, the
players' rows, a title deed, the board, the buildings in the ruleset's words, the ranking and the net worth
over a game. Every function takes the session (ui/session.py). No Kivy here; no widget asks the rules
anything itself (in the manner of Electrum's Kivy GUI).

Every dict of view data has its keys declared (a `TypedDict` beside the function that makes it: the shared ones
here, a flow's own in its module), so that a screen reading a key that is not there is a type error.
"""

from __future__ import annotations

from typing import TypedDict

from banker.game import Game
from banker.options import DECLARED, Options
from banker.report import ranks
from banker.ruleset import Ruleset, offered_house_rules
from ui.session import NoticeLine, Session

DEFAULT_COLOUR = "#BDBDBD"  # a space of no colour group
DARK_INK = 0.55  # a colour band lighter than this (its luminance, 0 to 1) is written on in dark ink, else in light


def dark_ink(colour: str) -> bool:
    """Whether a band of `colour` ("#RRGGBB") is light enough to be written on in dark ink (its luminance by the
    ITU-R BT.709 weights: classic's green and orange take dark ink, its red and blue light)."""
    try:
        r, g, b = (int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5))
    except ValueError:
        return True
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > DARK_INK


class PlayerRow(TypedDict):
    """A player as the screens list them (`players`): the cash as a number and in words, whose turn it is,
    where they stand, what is said of them (`flags`: bankrupt, in jail, jail cards, debts; `held`: the same
    without the debts, which the turn screen's debt panel says) and their net worth (0 once bankrupt)."""

    name: str
    colour: str
    cash: int
    cash_text: str
    current: bool
    bankrupt: bool
    where: str
    flags: str
    held: str
    worth: int


class Deed(TypedDict):
    """A title deed, or the space, as the screens show it (`space`): its rents and costs in lines, its owner
    (None: the bank's) and their colour, its buildings in words and whether it is mortgaged; `price` and
    `mortgage` None for a space that is no property; `rent_line`: which of `lines` is the rent it takes now
    (`rent_line`), None when it takes none."""

    index: int
    name: str
    kind: str
    colour: str
    price: int | None
    lines: list[str]
    owner: str | None
    owner_colour: str | None
    built: str
    mortgaged: bool
    mortgage: int | None
    rent_line: int | None


class BoardSpace(TypedDict):
    """A space of the board (`board`): its colour group's colour and its owner's (None: none)."""

    index: int
    name: str
    kind: str
    colour: str | None
    owner_colour: str | None
    houses: int
    hotels: int
    mortgaged: bool


class Token(TypedDict):
    """A player's token on the board (`board`)."""

    name: str
    colour: str
    position: int
    in_jail: bool
    current: bool


class Board(TypedDict):
    """The live game's board (`board`): its spaces, the tokens still in the game, whose turn it is and the Free
    Parking jackpot in words (None with its house rule off)."""

    spaces: list[BoardSpace]
    tokens: list[Token]
    current: str
    pot: str | None


class Pot(TypedDict):
    """The Free Parking jackpot (`pot`): the amount, in words, and its label."""

    amount: int
    text: str
    label: str


class Rank(TypedDict):
    """A player in the ranking (`ranking`): their net worth, in words, and their place."""

    name: str
    worth: int
    worth_text: str
    colour: str
    place: int
    bankrupt: bool


class HouseRule(TypedDict):
    """A house rule in force (`house_rules`): its option, its value and the rule in words."""

    option: str
    value: object
    text: str


def money(s: Session, amount: int) -> str:
    """An amount shown on its own (cash, a bid, a net worth), the way the family's language writes it."""
    return s.tr.money(amount)


def players(s: Session) -> list[PlayerRow]:
    game = s.game
    assert game is not None
    out: list[PlayerRow] = []
    for p in game.players:
        flags = []
        if p.bankrupt:
            flags.append(s.tr("ui.player.bankrupt"))
        if p.in_jail:
            flags.append(s.tr("ui.player.in_jail"))
        if p.jail_cards:
            flags.append(s.tr("ui.player.jail_cards", count=len(p.jail_cards)))
        held = ", ".join(flags)  # the turn screen's list: what its debt panel does not say already
        for d in p.debts:
            flags.append(s.tr("ui.player.owes", amount=d.amount, to=party(s, game, d.creditor)))
        out.append({
            "name": p.name, "colour": s.colour(p.name), "cash": p.cash, "cash_text": money(s, p.cash),
            "current": p.index == game.turn,
            "bankrupt": p.bankrupt, "where": game.space_name(p.position), "flags": ", ".join(flags), "held": held,
            "worth": 0 if p.bankrupt else game.net_worth(p.index),
        })
    return out


def party(s: Session, game: Game, who: int) -> str:
    if who < 0:
        return s.tr("ui.bank")
    return game.players[who].name


def space(s: Session, i: int) -> Deed:
    """The title deed (or the space) at index i, as the screen shows it."""
    game = s.game
    assert game is not None
    sp = game.ruleset.spaces[i]
    group = sp.group or ""
    colour = game.ruleset.groups.get(group, {}).get("color", "#BDBDBD") if group else "#BDBDBD"
    lines: list[str] = []
    small, big = game.variant.building_words  # houses and hotels, or the ruleset's own words
    if sp.kind == "lot":
        labels = ["ui.deed.rent"] + [f"ui.deed.{small[0] if small != 'house' else 'h'}{k}" for k in range(1, 5)]
        for level in range(game.hotel_houses + 1):
            lines.append(f"{s.tr(labels[level])}: {money(s, sp.rents[level])}")
        lines.append(f"{s.tr('ui.deed.' + big)}: {money(s, sp.rents[-1])}")
        lines.append(f"{s.tr('ui.deed.building_cost')}: {money(s, sp.building_cost)}")
    elif sp.kind == "railroad":
        for k, rent in enumerate(sp.rents):
            lines.append(s.tr("ui.deed.owned", count=k + 1) + f": {money(s, rent)}")
    elif sp.kind == "utility":
        for k, m in enumerate(sp.multipliers):
            lines.append(s.tr("ui.deed.dice_times", count=k + 1, times=m))
    owner = game.owner[i] if sp.is_property else -1
    level = game.level[i]
    built = buildings_text(s, game, i) if sp.kind == "lot" else ""
    return {
        "index": i, "name": sp.name, "kind": sp.kind, "colour": colour, "price": sp.price if sp.is_property else None,
        "lines": lines, "owner": game.players[owner].name if owner >= 0 else None,
        "owner_colour": s.colour(game.players[owner].name) if owner >= 0 else None,
        "built": built, "mortgaged": bool(game.mortgaged[i]),
        "mortgage": sp.mortgage if sp.is_property else None, "rent_line": rent_line(game, i),
    }


def rent_line(game: Game, i: int) -> int | None:
    """Which of a title deed's rent lines (`space`'s `lines`) the rent it takes now is: a lot's by its buildings
    (its lines go bare, then each house, then the hotel), a railroad's or a utility's by how many of its group its
    owner holds; None for a space that is no property, the bank's or mortgaged (no rent)."""
    sp = game.ruleset.spaces[i]
    owner = game.owner[i] if sp.is_property else -1
    if owner < 0 or game.mortgaged[i]:
        return None
    if sp.kind == "lot":
        return game.level[i]
    members = game.group_members[sp.group] if sp.group else (i,)
    return sum(1 for j in members if game.owner[j] == owner) - 1


def board(s: Session) -> Board:
    """The live game's board for ui/board.py: every space in order (its name, group colour or None, the
    ruleset's kind, the owner's colour or None, houses, hotels, mortgaged), every token still in the game
    (bankrupt players are left out) with its space, and whose turn it is."""
    game = s.game
    assert game is not None
    groups = game.ruleset.groups
    spaces: list[BoardSpace] = []
    for sp in game.ruleset.spaces:
        i = sp.index
        owner = game.owner[i] if sp.is_property else -1
        level = game.level[i]
        hotel = level == game.hotel_level
        spaces.append({
            "index": i, "name": game.space_name(i), "kind": sp.kind,
            "colour": groups.get(sp.group, {}).get("color") if sp.group else None,
            "owner_colour": s.colour(game.players[owner].name) if owner >= 0 else None,
            "houses": 0 if hotel else level, "hotels": 1 if hotel else 0, "mortgaged": bool(game.mortgaged[i]),
        })
    tokens: list[Token] = [{"name": p.name, "colour": s.colour(p.name), "position": p.position, "in_jail": p.in_jail,
               "current": p.index == game.turn} for p in game.players if not p.bankrupt]
    shown = pot(s)
    return {"spaces": spaces, "tokens": tokens, "current": game.current.name,
            "pot": shown["text"] if shown is not None else None}


def pot(s: Session) -> Pot | None:
    """The Free Parking jackpot of the `free_parking_pot` house rule (the engine's `game.pot`, `bank.pot` in
    its state; not brands' casino jackpot): {"amount", "text", "label"}, or None when the house rule is off
    (then nothing about a pot shows anywhere). Shown even when empty: the family sees it go back to the seed
    or to nothing when someone takes it."""
    game = s.game
    if game is None or not game.options.free_parking_pot:
        return None
    return {"amount": game.pot, "text": money(s, game.pot), "label": s.tr("ui.pot.label")}


def buildings_text(s: Session, game: Game, i: int) -> str:
    """"2 houses" / "hotel", or biznes's "2 offices" / "holding"."""
    level = game.level[i]
    if not level:
        return ""
    small, big = game.variant.building_words
    if level == game.hotel_level:
        return s.tr(f"ui.deed.{big}")
    return s.tr(f"ui.deed.{small}es_n" if small == "branch" else f"ui.deed.{small}s_n", count=level)


def pool_text(s: Session, game: Game) -> str:
    """"Bank: 30 houses, 12 hotels", in the ruleset's words (offices, branches...)."""
    key = {"office": "ui.pool_offices", "branch": "ui.pool_branches"}.get(game.variant.building_words[0], "ui.pool")
    return s.tr(key, houses=game.bank_houses, hotels=game.bank_hotels)


def deeds_key(game: Game | None) -> str:
    """The deeds button's label key, in the ruleset's words."""
    small = game.variant.building_words[0] if game is not None else "house"
    return {"office": "ui.nav.deeds_offices", "branch": "ui.nav.deeds_branches"}.get(small, "ui.nav.deeds")


def ranking(s: Session) -> list[Rank]:
    """The players by net worth, each with their place: once the game is over the report's places
    (banker/report.py's `ranks`: tied winners share the first, and the next place skips as many), in place
    order, seat order among equals; during the game, one place each, richest first."""
    game = s.game
    assert game is not None
    order = game.ranking()
    places = {name: k + 1 for k, (name, _) in enumerate(order)}
    if game.outcome is not None:
        ranked = ranks(game)
        places = {name: ranked[game.index_of[name]] for name, _ in order}
        order = sorted(order, key=lambda nw: (places[nw[0]], game.index_of[nw[0]]))
    return [{"name": name, "worth": worth, "worth_text": money(s, worth), "colour": s.colour(name),
             "place": places[name], "bankrupt": game.players[game.index_of[name]].bankrupt}
            for name, worth in order]


def worth_history(game: Game) -> dict[str, list[int]]:
    """Every player's net worth at the start of each turn, from the game's own actions."""
    return worth_history_and_rounds(game)[0]


def worth_history_and_rounds(game: Game) -> tuple[dict[str, list[int]], list[int]]:
    """worth_history, and the round (1 for the first) each of its points falls in: the chart's bottom axis."""
    replay = game.new_like()
    replay.record_events = False
    series: dict[str, list[int]] = {p.name: [replay.net_worth(p.index)] for p in replay.players}
    rounds = [replay.round + 1]
    turns = replay.turns
    for action in game.history:
        replay.apply(action)
        if replay.turns != turns or replay.ended:
            turns = replay.turns
            rounds.append(replay.round + 1)
            for p in replay.players:
                series[p.name].append(0 if p.bankrupt else replay.net_worth(p.index))
    return series, rounds


def log(s: Session, limit: int = 200) -> list[str]:
    """Every money movement in words, newest first."""
    game = s.game
    if game is None:
        return []
    entries = game.money_log()[-limit:]
    return [s.money_text(e.code, e.payer, e.payee, e.amount, e.params) for e in reversed(entries)]


def house_rules(s: Session, ruleset: Ruleset, options: Options,
                pot_now: int | None = None) -> list[HouseRule]:
    """The house rules in force in a game of `ruleset` with these `options` (all of them, the ruleset's own
    included): each offered house rule (`offered_house_rules`) whose value is not its rulebook default
    (its declaration's, banker/options.py), in the order the new-game screen offers them, then the starting cash when it is not
    the ruleset's own. Each is {"option", "value", "text"}: "Landing on GO pays 200 more", "No auctions".
    `pot_now`: a game going, its Free Parking jackpot now, said in the jackpot's line."""
    out: list[HouseRule] = []
    for option in offered_house_rules(ruleset):
        value = chosen = options.value(option)
        declared = DECLARED[option]
        if value != declared.default:
            key = declared.house_words("on")
            if option == "free_parking_pot" and pot_now is not None:
                key, value = "ui.house.free_parking_pot.now", pot_now
            out.append({"option": option, "value": chosen, "text": s.tr(key, amount=int(value))})
    cash = options.start_cash
    if cash != ruleset.options.start_cash:
        out.append({"option": "start_cash", "value": cash, "text": s.tr("ui.house.start_cash.on", amount=cash)})
    return out


def notices(s: Session, count: int) -> list[NoticeLine]:
    """The latest notices, oldest first: {"text", "kind"}."""
    return s.notice_lines(count)


__all__ = ["Board", "BoardSpace", "DEFAULT_COLOUR", "Deed", "HouseRule", "PlayerRow", "Pot", "Rank", "Token", "board",
           "buildings_text", "deeds_key", "house_rules", "log", "money", "notices", "party", "players", "pool_text",
           "pot", "ranking", "rent_line", "space", "worth_history", "worth_history_and_rounds"]
