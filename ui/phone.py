"""What the phone page shows: the live game as plain JSON, in the family's language.

`phone_state(session)` is built from the same view data the touchscreen
draws (ui/view.py) and the session's translator, so a phone reads exactly
what the table reads. No Kivy here, and nothing personal beyond the names the
family typed: no card UIDs, no PIN hash, no journal path.

Every property's title deed comes with it (`deed_cards`), for the card a phone opens when a deed is touched:
the table's deed (`view.space`) with its owner, the rent it takes now (the engine's `rent_due`) and its level.

The net-worth chart replays the game; so that publishing after every tap stays
cheap, the series are kept here and extended by the new actions only (a full
replay happens only after an undo or for another game).
"""

from __future__ import annotations

import threading
from typing import Any, TypedDict

from banker.game import Game
from banker.report import game_report
from ui import view
from ui.flows.report import report_view
from ui.i18n import winners_msg
from ui.session import Session

LOG_LINES = 50  # the newest money-log lines the page shows


def phone_state(c: Session) -> dict[str, Any]:
    """The JSON-safe state of the session's live game (ValueError if there is none)."""
    game = c.game
    if game is None:
        raise ValueError("no live game")
    tr = c.tr
    name = game.ruleset.name
    title = tr(f"ui.rules.{name}") if tr.has(f"ui.rules.{name}") else game.ruleset.title
    winner_text = ""
    if game.outcome is not None:
        winner_text = tr.render(winners_msg(game.outcome.winners))
    labels = {
        "cash": tr("ui.progress.cash"),
        "turn_line": tr("ui.turn_of", player=game.current.name),
        "net_worth": tr("ui.phone.net_worth"),
        "bank": tr("ui.phone.bank"),
        "log": tr("ui.nav.log"),
        "chart": tr("ui.over.chart"),
        "ranking": tr("ui.phone.ranking"),
        "deeds": tr(view.deeds_key(game)),
        "none": tr("ui.phone.none"),
        "connection_lost": tr("ui.phone.connection_lost"),
        "winner": winner_text,
        "mortgaged": tr("ui.deed.mortgaged"),
        "not_mortgaged": tr("ui.progress.not_mortgaged"),
        "bankrupt": tr("ui.player.bankrupt"),
        "gone": tr("ui.phone.gone"),
        "ended": tr("ui.phone.ended"),
        "house_rules": tr("ui.phone.house_rules"),
        "rulebook": tr("ui.house.rulebook"),
        "report": tr("ui.report.title"),
        "for_sale": tr("ui.deed.for_sale"),
        "close": tr("ui.phone.close"),
    }
    players = []
    for p in view.players(c):
        players.append({
            "name": p["name"], "colour": p["colour"], "cash": p["cash"], "net_worth": p["worth"],
            "where": p["where"], "flags": p["flags"], "bankrupt": p["bankrupt"], "current": p["current"],
            "deeds": _grouped(c, game, game.iter_properties(game.index_of[p["name"]])),
        })
    return {
        "title": title,
        "language": tr.language,
        "labels": labels,
        "turn": game.current.name,
        "ended": bool(game.ended),
        "winner": game.outcome.winner if game.outcome is not None else None,
        "players": players,
        "for_sale": _grouped(c, game, [i for i in game.ruleset.property_indices if game.owner[i] < 0]),
        "deed_cards": deed_cards(c, game),
        "bank": view.pool_text(c, game),
        "house_rules": [r["text"] for r in view.house_rules(c, game.ruleset, game.options, pot_now=game.pot)],
        "pot": view.pot(c),  # the Free Parking jackpot: {"amount", "text", "label"}, or None with the rule off
        "log": view.log(c, limit=LOG_LINES),
        "chart": worth_history(game),
        "ranking": [{"name": r["name"], "worth": r["worth"], "place": r["place"]} for r in view.ranking(c)]
        if game.ended else [],
        "report": report_view(c, _report(c, game)) if game.ended else None,
    }


_kept: list[Any] = [None, -1, None]  # the game, its actions, its game_report: worked out once the game is over


def _report(c: Session, game: Game) -> dict[str, Any]:
    """The engine's report of the game just over (banker/report.py), kept until the game changes (it replays
    the game), in words by `ui.flows.report.report_view` as on the touchscreen."""
    with _chart.lock:
        if _kept[0] is not game or _kept[1] != len(game.history):
            assert c.live is not None
            gid = c.live.id
            _kept[:] = [game, len(game.history),
                        game_report(game, gid, c.journal.status(gid), c.journal.action_times(gid))]
        return dict(_kept[2])


def _grouped(c: Session, game: Game, indices: list[int]) -> list[dict[str, Any]]:
    """Deeds (a player's, or the bank's still for sale) by colour group, as the deeds screen groups them, without
    the touchscreen's buttons: each is its space's `index` (its card in `deed_cards`), name, buildings and mortgage.

    (the deeds screen also asks the rules which of seven actions each deed allows; the phone does not, and this
    is called on every tap.)
    """
    groups: dict[str, list[dict[str, Any]]] = {}
    for i in indices:
        groups.setdefault(game.groups[i] or "", []).append({
            "index": i,
            "name": game.space_name(i),
            "buildings": view.buildings_text(c, game, i) if game.kinds[i] == "lot" else "",
            "mortgaged": bool(game.mortgaged[i]),
        })
    info = game.ruleset.groups
    return [{"group": g, "group_name": c.tr.group(g, info.get(g, {}).get("name", g)),
             "colour": info.get(g, {}).get("color", view.DEFAULT_COLOUR), "deeds": items}
            for g, items in groups.items()]


class PhoneDeed(TypedDict):
    """A property's title deed as the phone's deed card shows it, every text in the family's language.

    `rents` are the table's deed lines (`view.space`): a lot's rent with no building, with each house and with
    a hotel (or the ruleset's offices and holding), a railroad's by how many its owner has, a utility's dice
    multiplier likewise; `level` is the line in force now (None: the bank's, or mortgaged). `rent_now` is what a
    visitor pays now, the engine's answer (None while it is the bank's); `owner_text` is "Owner: Ann" or
    "For sale", and `price` goes with it; `built` the buildings in words ("2 houses", "" for none)."""

    index: int
    name: str
    colour: str
    group_name: str
    price: str
    rents: list[str]
    building_cost: str | None
    mortgage: str
    owner: str | None
    owner_colour: str | None
    owner_text: str
    rent_now: str | None
    level: int | None
    mortgaged: bool
    built: str


_printed: list[Any] = [None, None, []]  # the game, (language, currency), its deeds' printed parts: made once


def deed_cards(c: Session, game: Game) -> list[PhoneDeed]:
    """Every property's deed card, in board order: what is printed on it (the table's deed, `view.space`; worked
    out once per game and language, since this is called on every tap), then who has it and what it takes now."""
    tr = c.tr
    with _chart.lock:
        if _printed[0] is not game or _printed[1] != (tr.language, tr.currency):
            _printed[:] = [game, (tr.language, tr.currency), [_printed_part(c, game, i)
                                                              for i in game.ruleset.property_indices]]
        printed: list[PhoneDeed] = _printed[2]
    cards: list[PhoneDeed] = []
    for deed in printed:
        card = deed.copy()
        i = card["index"]
        owner = game.owner[i]
        name = game.players[owner].name if owner >= 0 else None
        card["owner"] = name
        card["owner_colour"] = c.colour(name) if name is not None else None
        card["owner_text"] = tr("ui.deed.owner", owner=name) if name is not None else tr("ui.deed.for_sale")
        card["mortgaged"] = bool(game.mortgaged[i])
        card["built"] = view.buildings_text(c, game, i) if game.kinds[i] == "lot" else ""
        if owner >= 0:
            # The engine's rent for a visitor now; a utility's is per pip of the dice, so a roll of 1 gives its
            # multiplier ("4 × dice").
            due = game.rent_due(i, 1)
            utility = game.kinds[i] == "utility"
            card["rent_now"] = (tr("ui.phone.rent_now_dice", times=due) if utility and due
                                else tr("ui.phone.rent_now", amount=due))
            card["level"] = view.rent_line(game, i)  # the line in force, as the table's big deed marks it
        cards.append(card)
    return cards


def _printed_part(c: Session, game: Game, i: int) -> PhoneDeed:
    """What the deed says whoever has it: the table's deed (`view.space`), the bank's as yet."""
    tr = c.tr
    sp = game.ruleset.spaces[i]
    deed = view.space(c, i)
    rents, cost = deed["lines"], None
    if sp.kind == "lot":  # the table's lines end with the building cost: on the card it is said apart
        cost = f"{tr('ui.deed.building_cost')}: {tr.money(sp.building_cost)}"
        rents = [line for line in rents if line != cost]
    group = sp.group or ""
    return {
        "index": i, "name": game.space_name(i), "colour": deed["colour"],
        "group_name": tr.group(group, game.ruleset.groups.get(group, {}).get("name", group)) if group else "",
        "price": tr("ui.deed.price", price=sp.price), "rents": rents, "building_cost": cost,
        "mortgage": tr("ui.phone.mortgage_value", amount=sp.mortgage),
        "owner": None, "owner_colour": None, "owner_text": "", "rent_now": None, "level": None, "mortgaged": False,
        "built": "",
    }


class _Chart:
    """view.worth_history kept up to date action by action for the game last asked about."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.game: Game | None = None  # the live game the series belong to
        self.replay: Game | None = None  # a copy that has applied game.history[:applied]
        self.applied = 0
        self.last: Any = None  # game.history[applied - 1] itself: the history only ever grows in place
        self.turns = 0
        self.series: dict[str, list[int]] = {}

    def get(self, game: Game) -> dict[str, list[int]]:
        with self.lock:
            history = game.history
            n = self.applied
            if (self.game is not game or self.replay is None or len(history) < n
                    or (n and history[n - 1] is not self.last)):
                self._reset(game)  # another game, or an undo rebuilt the history
            replay = self.replay
            assert replay is not None
            try:
                for action in history[self.applied:]:
                    replay.apply(action)
                    if replay.turns != self.turns or replay.ended:
                        self.turns = replay.turns
                        for p in replay.players:
                            self.series[p.name].append(0 if p.bankrupt else replay.net_worth(p.index))
            except Exception:
                self.game = None  # start afresh next time
                raise
            self.applied = len(history)
            self.last = history[-1] if history else None
            return {name: list(values) for name, values in self.series.items()}

    def _reset(self, game: Game) -> None:
        replay = game.new_like()
        replay.record_events = False
        self.game = game
        self.replay = replay
        self.applied = 0
        self.last = None
        self.turns = replay.turns
        self.series = {p.name: [replay.net_worth(p.index)] for p in replay.players}


_chart = _Chart()


def worth_history(game: Game) -> dict[str, list[int]]:
    """view.worth_history(game), computed incrementally (same result, see tests)."""
    return _chart.get(game)


__all__ = ["PhoneDeed", "deed_cards", "phone_state", "worth_history"]
