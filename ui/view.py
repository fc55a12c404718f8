"""Plain view data for the screens, built from the controller's state.

Screens render these dicts and lists and call controller methods; no widget
asks the rules anything itself (in the manner of Electrum's Kivy GUI). Texts
are already translated.
"""

from __future__ import annotations

from typing import Any

from banker.game import Game
from ui.controller import Controller



def players(c: Controller) -> list[dict[str, Any]]:
    game = c.game
    assert game is not None
    out = []
    for p in game.players:
        flags = []
        if p.bankrupt:
            flags.append(c.tr("ui.player.bankrupt"))
        if p.in_jail:
            flags.append(c.tr("ui.player.in_jail"))
        if p.jail_cards:
            flags.append(c.tr("ui.player.jail_cards", count=len(p.jail_cards)))
        for d in p.debts:
            flags.append(c.tr("ui.player.owes", amount=d.amount, to=_party(c, game, d.creditor)))
        out.append({
            "name": p.name, "colour": c.colour(p.name), "cash": p.cash, "current": p.index == game.turn,
            "bankrupt": p.bankrupt, "where": game.space_name(p.position), "flags": ", ".join(flags),
            "worth": 0 if p.bankrupt else game.net_worth(p.index),
        })
    return out


def _party(c: Controller, game: Game, who: int) -> str:
    if who < 0:
        return c.tr("ui.bank")
    return game.players[who].name


def space(c: Controller, i: int) -> dict[str, Any]:
    """The title deed (or the space) at index i, as the screen shows it."""
    game = c.game
    assert game is not None
    s = game.ruleset.spaces[i]
    group = s.group or ""
    colour = game.ruleset.groups.get(group, {}).get("color", "#BDBDBD") if group else "#BDBDBD"
    lines: list[str] = []
    if s.kind == "lot":
        labels = ["ui.deed.rent", "ui.deed.h1", "ui.deed.h2", "ui.deed.h3", "ui.deed.h4"]
        for level in range(game.hotel_houses + 1):
            lines.append(f"{c.tr(labels[level])}: {s.rents[level]}")
        lines.append(f"{c.tr('ui.deed.hotel')}: {s.rents[-1]}")
        lines.append(f"{c.tr('ui.deed.building_cost')}: {s.building_cost}")
    elif s.kind == "railroad":
        for k, rent in enumerate(s.rents):
            lines.append(c.tr("ui.deed.owned", count=k + 1) + f": {rent}")
    elif s.kind == "utility":
        for k, m in enumerate(s.multipliers):
            lines.append(c.tr("ui.deed.dice_times", count=k + 1, times=m))
    owner = game.owner[i] if s.is_property else -1
    level = game.level[i]
    built = ""
    if level == game.hotel_level:
        built = c.tr("ui.deed.has_hotel")
    elif level:
        built = c.tr("ui.deed.has_houses", count=level)
    return {
        "index": i, "name": s.name, "kind": s.kind, "colour": colour, "price": s.price if s.is_property else None,
        "lines": lines, "owner": game.players[owner].name if owner >= 0 else None,
        "owner_colour": c.colour(game.players[owner].name) if owner >= 0 else None,
        "built": built, "mortgaged": bool(game.mortgaged[i]),
        "mortgage": s.mortgage if s.is_property else None,
    }


def buttons(c: Controller) -> list[dict[str, Any]]:
    """The turn screen's action buttons, from what the engine says is owed now."""
    game = c.game
    if game is None or game.ended:
        return []
    cur = game.current
    out: list[dict[str, Any]] = []
    owed = {o["player"]: o["verbs"] for o in game.owed()}
    verbs = owed.get(cur.name, [])
    d = game.decision
    if d is not None and d[0] == "buy" and game.auction is None:
        i = d[1]
        out.append(_button(c, "buy", {"do": "buy"}, c.tr("ui.btn.buy", space=game.space_name(i),
                                                            price=game.prices[i]), "primary"))
        out.append(_button(c, "decline", {"do": "decline"}, c.tr("ui.btn.decline"), "secondary"))
    if "draw" in verbs and d is not None:
        deck = game.ruleset.decks[d[1]]["name"]
        name = c.tr(f"deck.{d[1]}") if c.tr.has(f"deck.{d[1]}") else deck
        out.append(_button(c, "draw", {"do": "draw"}, c.tr("ui.btn.draw", deck=name), "primary"))
    if "tax" in verbs:
        flat = game.income_tax(cur.index, "flat")
        pct = game.income_tax(cur.index, "percent")
        out.append(_button(c, "tax_flat", {"do": "tax", "choice": "flat"}, c.tr("ui.btn.tax_flat", amount=flat),
                           "primary"))
        out.append(_button(c, "tax_percent", {"do": "tax", "choice": "percent"},
                           c.tr("ui.btn.tax_percent", percent=game.options["income_tax_percent"], amount=pct),
                           "primary"))
    if "roll" in verbs:
        if cur.in_jail and game.roll_owed and d is None:
            if "pay_fine" in verbs:
                out.append(_button(c, "pay_fine", {"do": "pay_fine"},
                                   c.tr("ui.btn.pay_fine", fine=game.options["jail_fine"]), "secondary"))
            if "use_card" in verbs:
                out.append(_button(c, "use_card", {"do": "use_card"}, c.tr("ui.btn.use_card"), "secondary"))
        out.append(_button(c, "roll", {"do": "roll"}, c.tr("ui.btn.roll"), "primary"))
        out.append(_button(c, "enter_dice", {"do": "roll"}, c.tr("ui.btn.enter_dice"), "secondary"))
    if "end_turn" in verbs:
        out.append(_button(c, "end_turn", {"do": "end_turn"}, c.tr("ui.btn.end_turn"), "primary"))
    return out


def _button(c: Controller, key: str, action: dict[str, Any], text: str, kind: str) -> dict[str, Any]:
    return {"id": key, "action": action, "text": text, "kind": kind}


def auction(c: Controller) -> dict[str, Any] | None:
    game = c.game
    if game is None or game.auction is None:
        return None
    a = game.auction
    what = game.space_name(a.space) if a.space >= 0 else c.tr(f"ui.kind.{a.kind}")
    bidders = []
    for p in game.players:
        if p.bankrupt:
            continue
        bidders.append({"name": p.name, "colour": c.colour(p.name), "cash": p.cash,
                        "in": p.index in a.bidders, "leading": p.index == a.high_bidder,
                        "next": max(a.min_bid, a.high_bid + c.settings.bid_step)})
    return {"what": what, "space": a.space if a.space >= 0 else None, "high_bid": a.high_bid,
            "leader": game.players[a.high_bidder].name if a.high_bidder >= 0 else None,
            "min_bid": a.min_bid, "step": c.settings.bid_step, "bidders": bidders,
            "price": game.prices[a.space] if a.space >= 0 else None}


def debts(c: Controller) -> list[dict[str, Any]]:
    """Who owes whom how much, what is missing, and what selling and mortgaging could raise."""
    game = c.game
    if game is None:
        return []
    out = []
    for p in game.players:
        if not p.debts:
            continue
        owed = sum(d.amount for d in p.debts)
        raisable = 0
        for i in game.iter_properties(p.index):
            raisable += game.buildings_sale_value(i)
            if not game.mortgaged[i]:
                raisable += game.mortgage_value(i)
        out.append({
            "name": p.name, "colour": c.colour(p.name), "cash": p.cash, "owed": owed,
            "missing": max(0, owed - p.cash),
            "to": ", ".join(f"{_party(c, game, d.creditor)} {d.amount}" for d in p.debts),
            "raisable": raisable, "enough": p.cash + raisable >= owed,
        })
    return out


def deeds(c: Controller, player: str) -> list[dict[str, Any]]:
    """A player's properties grouped by colour, each with what can be done to it."""
    game = c.game
    assert game is not None
    p = game.index_of[player]
    groups: dict[str, list[dict[str, Any]]] = {}
    for i in game.iter_properties(p):
        entry = space(c, i)
        entry["houses_text"] = (c.tr("ui.deed.hotel") if game.level[i] == game.hotel_level
                                else c.tr("ui.deed.houses_n", count=game.level[i]) if game.level[i] else "")
        entry["actions"] = [
            {"verb": verb, "text": c.tr(f"ui.btn.{verb}"), "enabled": game.can({"do": verb, "space": i}) is None}
            for verb in (("build", "sell", "sell_all", "mortgage", "unmortgage") if game.kinds[i] == "lot"
                         else ("mortgage", "unmortgage"))
        ]
        groups.setdefault(game.groups[i] or "", []).append(entry)
    return [{"group": g, "name": c.tr.group(g, game.ruleset.groups.get(g, {}).get("name", g)),
             "colour": game.ruleset.groups.get(g, {}).get("color", "#BDBDBD"), "deeds": items}
            for g, items in groups.items()]


def log(c: Controller, limit: int = 200) -> list[str]:
    """Every money movement in words, newest first."""
    game = c.game
    if game is None:
        return []
    entries = game.money_log()[-limit:]
    return [c.money_text(e.code, e.payer, e.payee, e.amount, e.params) for e in reversed(entries)]


def ranking(c: Controller) -> list[dict[str, Any]]:
    game = c.game
    assert game is not None
    return [{"name": name, "worth": worth, "colour": c.colour(name), "place": k + 1,
             "bankrupt": game.players[game.index_of[name]].bankrupt}
            for k, (name, worth) in enumerate(game.ranking())]


def worth_history(game: Game) -> dict[str, list[int]]:
    """Every player's net worth at the start of each turn, from the game's own actions."""
    replay = game.new_like()
    replay.record_events = False
    series: dict[str, list[int]] = {p.name: [replay.net_worth(p.index)] for p in replay.players}
    turns = replay.turns
    for action in game.history:
        replay.apply(action)
        if replay.turns != turns or replay.ended:
            turns = replay.turns
            for p in replay.players:
                series[p.name].append(0 if p.bankrupt else replay.net_worth(p.index))
    return series
