"""Plain view data for the screens, built from the controller's state.

Screens render these dicts and lists and call controller methods; no widget
asks the rules anything itself (in the manner of Electrum's Kivy GUI). Texts
are already translated.
"""

from __future__ import annotations

import time
from typing import Any

from banker.game import Game
from banker.ruleset import load_ruleset
from banker.variant import Variant
from ui.controller import MOVE_SECONDS, PIN_FREE_TRIES, Controller, Draft
from ui.entry import PIN_LEAST, PIN_MOST, Entry
from ui.i18n import LANGUAGES
from ui.keys import NameEditor, free_presets, keyboard_rows, name_problem
from ui.settings import LEVELS

# The new-game screen's house rules (each shown where the ruleset leaves a choice).
OPTION_TOGGLES = ("free_parking_pot", "auction_on_decline", "double_rent_with_mortgaged", "build_only_on_visit")
# brands' custom table (rulebook 001): option, step of the -/+ buttons, least value (0 = "off").
CUSTOM_OPTIONS = (("start_cash", 2500, 2500), ("turn_seconds", 15, 0), ("salary_stop_minutes", 5, 0),
                  ("rent_tax_start_minutes", 5, 0), ("mortgage_rounds", 1, 1), ("speed_die_round", 1, 0))
MONEY_OPTIONS = {"start_cash"}  # the custom table's amounts of money (the others count seconds, minutes, rounds)
DEFAULT_COLOUR = "#BDBDBD"  # a space of no colour group


def money(c: Controller, amount: int) -> str:
    """An amount shown on its own (cash, a bid, a net worth), the way the family's language writes it."""
    return c.tr.money(amount)



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
        held = ", ".join(flags)  # the turn screen's list: what its debt panel does not say already
        for d in p.debts:
            flags.append(c.tr("ui.player.owes", amount=d.amount, to=_party(c, game, d.creditor)))
        out.append({
            "name": p.name, "colour": c.colour(p.name), "cash": p.cash, "cash_text": money(c, p.cash),
            "current": p.index == game.turn,
            "bankrupt": p.bankrupt, "where": game.space_name(p.position), "flags": ", ".join(flags), "held": held,
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
    small, big = game.variant.building_words  # houses and hotels, or the ruleset's own words
    if s.kind == "lot":
        labels = ["ui.deed.rent"] + [f"ui.deed.{small[0] if small != 'house' else 'h'}{k}" for k in range(1, 5)]
        for level in range(game.hotel_houses + 1):
            lines.append(f"{c.tr(labels[level])}: {money(c, s.rents[level])}")
        lines.append(f"{c.tr('ui.deed.' + big)}: {money(c, s.rents[-1])}")
        lines.append(f"{c.tr('ui.deed.building_cost')}: {money(c, s.building_cost)}")
    elif s.kind == "railroad":
        for k, rent in enumerate(s.rents):
            lines.append(c.tr("ui.deed.owned", count=k + 1) + f": {money(c, rent)}")
    elif s.kind == "utility":
        for k, m in enumerate(s.multipliers):
            lines.append(c.tr("ui.deed.dice_times", count=k + 1, times=m))
    owner = game.owner[i] if s.is_property else -1
    level = game.level[i]
    built = buildings_text(c, game, i) if s.kind == "lot" else ""
    return {
        "index": i, "name": s.name, "kind": s.kind, "colour": colour, "price": s.price if s.is_property else None,
        "lines": lines, "owner": game.players[owner].name if owner >= 0 else None,
        "owner_colour": c.colour(game.players[owner].name) if owner >= 0 else None,
        "built": built, "mortgaged": bool(game.mortgaged[i]),
        "mortgage": s.mortgage if s.is_property else None,
    }


def board(c: Controller) -> dict[str, Any]:
    """The live game's board for ui/board.py: every space in order (its name, group colour or None, the
    ruleset's kind, the owner's colour or None, houses, hotels, mortgaged), every token still in the game
    (bankrupt players are left out) with its space, and whose turn it is."""
    game = c.game
    assert game is not None
    groups = game.ruleset.groups
    spaces = []
    for s in game.ruleset.spaces:
        i = s.index
        owner = game.owner[i] if s.is_property else -1
        level = game.level[i]
        hotel = level == game.hotel_level
        spaces.append({
            "index": i, "name": game.space_name(i), "kind": s.kind,
            "colour": groups.get(s.group, {}).get("color") if s.group else None,
            "owner_colour": c.colour(game.players[owner].name) if owner >= 0 else None,
            "houses": 0 if hotel else level, "hotels": 1 if hotel else 0, "mortgaged": bool(game.mortgaged[i]),
        })
    tokens = [{"name": p.name, "colour": c.colour(p.name), "position": p.position, "in_jail": p.in_jail,
               "current": p.index == game.turn} for p in game.players if not p.bankrupt]
    return {"spaces": spaces, "tokens": tokens, "current": game.current.name}


def buttons(c: Controller) -> list[dict[str, Any]]:
    """The turn screen's action buttons, from what the engine says is owed now."""
    game = c.game
    if game is None or game.ended or game.paused_at >= 0:  # nothing to press while the game is paused
        return []
    cur = game.current
    out: list[dict[str, Any]] = []
    owed = {o["player"]: o["verbs"] for o in game.owed()}
    verbs = owed.get(cur.name, [])
    d = game.decision
    if d is not None and d.kind == "buy" and game.auction is None:
        i = d.space
        out.append(_button(c, "buy", {"do": "buy"}, c.tr("ui.btn.buy", space=game.space_name(i),
                                                            price=game.prices[i]), "primary"))
        out.append(_button(c, "decline", {"do": "decline"}, c.tr("ui.btn.decline"), "secondary"))
    if "draw" in verbs and d is not None:
        deck = game.ruleset.decks[d.deck]["name"]
        name = c.tr(f"deck.{d.deck}") if c.tr.has(f"deck.{d.deck}") else deck
        out.append(_button(c, "draw", {"do": "draw"}, c.tr("ui.btn.draw", deck=name), "primary"))
    if "tax" in verbs:
        flat = game.income_tax(cur.index, "flat")
        pct = game.income_tax(cur.index, "percent")
        out.append(_button(c, "tax_flat", {"do": "tax", "choice": "flat"}, c.tr("ui.btn.tax_flat", amount=flat),
                           "primary"))
        out.append(_button(c, "tax_percent", {"do": "tax", "choice": "percent"},
                           c.tr("ui.btn.tax_percent", percent=game.options["income_tax_percent"], amount=pct),
                           "primary"))
    if "casino" in verbs:
        out.append(_button(c, "casino", {"page": "casino"}, c.tr("ui.btn.casino", bet=game.options["casino_bet"]),
                           "primary"))
        out.append(_button(c, "casino_no", {"do": "casino"}, c.tr("ui.btn.casino_no"), "secondary"))
    if "bus" in verbs and d is not None:
        for steps in sorted({d.dice[0], d.dice[1], sum(d.dice)}):
            out.append(_button(c, f"bus {steps}", {"do": "bus", "steps": steps}, c.tr("ui.btn.bus", steps=steps),
                               "primary"))
    if "jump" in verbs:
        out.append(_button(c, "jump", {"page": "jump"}, c.tr("ui.btn.jump"), "primary"))
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
        pos = cur.position
        if game.variant.builds_on_visit and game.kinds[pos] == "lot" and game.can({"do": "build", "space": pos}) is None:
            level = game.level[pos]
            out.append(_button(c, "build_here", {"do": "build", "space": pos},
                               c.tr("ui.btn.build_here_hotel" if level == game.hotel_houses else "ui.btn.build_here",
                                    space=game.space_name(pos), price=game.ruleset.spaces[pos].building_cost),
                               "secondary"))
        key = "ui.btn.end_move_double" if game.extra_roll else "ui.btn.end_turn"
        out.append(_button(c, "end_turn", {"do": "end_turn"}, c.tr(key), "primary"))
    return out


PROMPTS = {"buy": "ui.prompt.buy", "draw": "ui.prompt.draw", "tax_flat": "ui.prompt.tax", "casino": "ui.prompt.casino",
           "jump": "ui.prompt.jump", "pay_fine": "ui.prompt.jail", "use_card": "ui.prompt.jail",
           "roll": "ui.prompt.roll", "build_here": "ui.prompt.build_here", "end_turn": "ui.prompt.end_turn"}
"""The turn screen's prompt for the first of its buttons that asks something (bus buttons: ui.prompt.bus)."""


def prompt(c: Controller, shown: list[dict[str, Any]] | None = None) -> str | None:
    """What happens now, in one sentence for the turn screen's large prompt: what the first of the turn's
    buttons (`shown`, view.buttons) asks of whose turn it is. None while card taps are awaited, a debt is
    open or nothing is asked (the banner, the debt panel or a pause say it). Where to move the token is
    said on the board (`Controller.move_hint`)."""
    game = c.game
    if game is None or c.pending is not None or any(p.debts for p in game.players):
        return None
    for b in buttons(c) if shown is None else shown:
        key = "ui.prompt.bus" if b["id"].startswith("bus ") else PROMPTS.get(b["id"])
        if key is None:
            continue
        if b["id"] == "buy" and game.decision is not None:
            i = game.decision.space
            return c.tr(key, player=game.current.name, space=game.space_name(i), price=game.prices[i])
        if b["id"] == "build_here":
            i = game.current.position
            return c.tr(key, player=game.current.name, space=game.space_name(i),
                        price=game.ruleset.spaces[i].building_cost)
        return c.tr(key, player=game.current.name)
    return None


def clock(c: Controller) -> dict[str, Any] | None:
    """brands: the game clock, the economy and the timers, for the table screen."""
    game = c.game
    if game is None or not game.variant.clocked:
        return None
    lines = [c.tr("ui.clock.minute", minute=int(game.economy_minutes()))]
    if not game.salary_paid():
        lines.append(c.tr("ui.clock.no_salary"))
    if game.rent_tax_percent():
        lines.append(c.tr("ui.clock.rent_tax", percent=game.rent_tax_percent()))
    if game.speed_die_active():
        lines.append(c.tr("ui.clock.speed_die"))
    vote = None
    if c.vote_kind:
        alive = [p.name for p in game.players if not p.bankrupt]
        vote = {"text": c.tr(f"ui.vote.{c.vote_kind}", seconds=c.vote_countdown(),
                             players=", ".join(n for n in alive if n not in c.votes))}
    resume = c.resume_countdown()
    if resume is not None:
        vote = {"text": c.tr("ui.pause.resuming", seconds=resume)}
    return {"line": " · ".join(lines), "turn": c.turn_countdown(), "debt": c.debt_countdown(),
            "paused": game.paused_at >= 0, "vote": vote, "jackpot": game.jackpot if game.variant.has_casino else None}


def speed_face(value: int) -> str:
    """The speed die's face: 1-3 steps, Mr. Monopoly on 4 and 5, the bus on 6."""
    return str(value) if value <= 3 else ("M" if value <= 5 else "BUS")


def _button(c: Controller, key: str, action: dict[str, Any], text: str, kind: str) -> dict[str, Any]:
    return {"id": key, "action": action, "text": text, "kind": kind}


def auction(c: Controller) -> dict[str, Any] | None:
    game = c.game
    if game is None or game.auction is None:
        return None
    a = game.auction
    in_turn = game.variant.auction_in_turn  # bids in turn order
    what = game.space_name(a.space) if a.space >= 0 else c.tr(f"ui.kind.{a.kind}")
    bidders = []
    for p in game.players:
        if p.bankrupt or p.index == a.seller:
            continue
        bidders.append({"name": p.name, "colour": c.colour(p.name), "cash": p.cash, "cash_text": money(c, p.cash),
                        "in": p.index in a.bidders, "leading": p.index == a.high_bidder,
                        "turn": in_turn and p.index == a.next_bidder,
                        "may_bid": p.index in a.bidders and p.index != a.high_bidder
                        and (not in_turn or p.index == a.next_bidder),
                        "next": c.bid_amount(p.name)})
    return {"what": what, "space": a.space if a.space >= 0 else None, "high_bid": a.high_bid,
            "leader": game.players[a.high_bidder].name if a.high_bidder >= 0 else None,
            "min_bid": a.min_bid, "step": c.settings.bid_step, "bidders": bidders,
            "price": game.prices[a.space] if a.space >= 0 else None,
            "stepped": in_turn, "fixed_step": game.auction_step,
            "seller": game.players[a.seller].name if a.seller >= 0 else None,
            "countdown": c.auction_countdown(), "bid_countdown": c.bid_countdown(),
            "can_close": game.can({"do": "close_auction"}) is None}


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
            if game.variant.raises_by_selling:  # no mortgages: at worst the bank buys the property back
                raisable += game.bank_price(i)
                continue
            raisable += game.buildings_sale_value(i)
            if not game.mortgaged[i]:
                raisable += game.mortgage_value(i)
        out.append({
            "name": p.name, "colour": c.colour(p.name), "cash": p.cash, "owed": owed,
            "missing": max(0, owed - p.cash), "missing_text": money(c, max(0, owed - p.cash)),
            "to": ", ".join(f"{_party(c, game, d.creditor)} {money(c, d.amount)}" for d in p.debts),
            "raisable": raisable, "enough": p.cash + raisable >= owed, "sell_off": game.variant.raises_by_selling,
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
        entry["houses_text"] = buildings_text(c, game, i)
        verbs = DEED_VERBS if game.kinds[i] == "lot" else DEED_VERBS[3:]
        entry["actions"] = [
            {"verb": verb, "text": c.tr(f"ui.btn.{verb}"), "enabled": game.can({"do": verb, "space": i}) is None}
            for verb in verbs if verb in game.space_verbs
        ]
        groups.setdefault(game.groups[i] or "", []).append(entry)
    return [{"group": g, "name": c.tr.group(g, game.ruleset.groups.get(g, {}).get("name", g)),
             "colour": game.ruleset.groups.get(g, {}).get("color", "#BDBDBD"), "deeds": items}
            for g, items in groups.items()]


# What a deed's row offers, in this order, where the ruleset has the verb (lots take all, others the last four).
DEED_VERBS = ("build", "sell", "sell_all", "mortgage", "unmortgage", "auction_own", "sell_to_bank")


def buildings_text(c: Controller, game: Game, i: int) -> str:
    """"2 houses" / "hotel", or biznes's "2 offices" / "holding"."""
    level = game.level[i]
    if not level:
        return ""
    small, big = game.variant.building_words
    if level == game.hotel_level:
        return c.tr(f"ui.deed.{big}")
    return c.tr(f"ui.deed.{small}es_n" if small == "branch" else f"ui.deed.{small}s_n", count=level)


def pool_text(c: Controller, game: Game) -> str:
    """"Bank: 30 houses, 12 hotels", in the ruleset's words (offices, branches...)."""
    key = {"office": "ui.pool_offices", "branch": "ui.pool_branches"}.get(game.variant.building_words[0], "ui.pool")
    return c.tr(key, houses=game.bank_houses, hotels=game.bank_hotels)


def deeds_key(game: Game | None) -> str:
    """The deeds button's label key, in the ruleset's words."""
    small = game.variant.building_words[0] if game is not None else "house"
    return {"office": "ui.nav.deeds_offices", "branch": "ui.nav.deeds_branches"}.get(small, "ui.nav.deeds")


def own_auction(c: Controller, player: str, i: int) -> dict[str, Any]:
    """What the seller chooses before an own-property auction: the reserve's bounds and step."""
    game = c.game
    assert game is not None
    low, high = game.own_auction_reserves(game.index_of[player], i)
    return {"space": game.space_name(i), "index": i, "low": low, "high": high, "step": game.auction_step,
            "bank_price": game.bank_price(i)}


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
    return [{"name": name, "worth": worth, "worth_text": money(c, worth), "colour": c.colour(name), "place": k + 1,
             "bankrupt": game.players[game.index_of[name]].bankrupt}
            for k, (name, worth) in enumerate(game.ranking())]


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


# ---------------------------------------------------------------------- what each screen shows
# (the screens read only these, and the functions above; nothing of the engine)


def notices(c: Controller, count: int) -> list[dict[str, str]]:
    """The latest notices, oldest first: {"text", "kind"}."""
    return c.notice_lines(count)


def pending(c: Controller) -> dict[str, Any] | None:
    """An action waiting for card taps: the prompt, and who still has to tap."""
    p = c.pending
    if p is None:
        return None
    return {"prompt": p.prompt, "needs": list(p.needs), "waiting": [n for n in p.needs if n not in p.tapped],
            "tapped": sorted(p.tapped), "stand_ins": c.settings.stand_ins}


def status_text(c: Controller) -> str:
    """The card reader's and the dice button's state, in a line."""
    return c.tr("ui.status", reader=c.tr(f"ui.reader.{c.reader}"), button=c.tr(f"ui.button.{c.button}"))


def reader_silent(c: Controller) -> bool:
    """The start screen's note: a reader named in the config has not answered (Controller.reader_silent)."""
    return c.reader_silent()


def hardware_check(c: Controller, kind: str) -> dict[str, Any]:
    """The settings' hardware check, `kind` "reader" or "dice": what came since its screen opened, in large
    figures (the card's id, or the dice of the press: `figure`, None until something comes) with whose card it
    is or how many came (`about`), else what to do (`waiting`); the part's kind, port or pin and last status
    (`facts`); what to check when nothing comes, or that it works (`hints`), in the family's words."""
    tr, h, check = c.tr, c.hardware, c.check
    source = h["source"] if h is not None else ""
    figure: str | None = None
    about: list[str] = []
    if kind == "reader":
        port = h["reader_port"] if h is not None else ""
        used = bool(h is not None and h["reader_used"])  # a PC/SC reader may have no port: the first reader
        if check is not None and check.card is not None:
            figure = check.card
            owner = c.card_owner(check.card)
            if owner is not None:
                about.append(tr("ui.check.card_of", player=owner))
            elif c.mode in ("setup", "table"):
                about.append(tr("ui.check.card_unknown"))
            about.append(tr("ui.check.taps", count=check.taps))
        facts = [tr("ui.check.reader_facts", status=tr(f"ui.reader.{c.reader}"),
                    kind=(h["reader_kind"] if h is not None and used else "") or "—", port=port or "—")]
        why = c.reader_detail if c.reader != "connected" else ""
        if not used:
            hints = [tr("ui.check.reader_unset", config=source), tr("ui.check.use_buttons")]
        elif c.reader != "connected":
            hints = [tr("ui.check.reader_cable")]
            if port:
                hints.append(tr("ui.check.reader_port", port=port, config=source))
        else:
            hints = [tr("ui.check.reader_works" if figure is not None else "ui.check.reader_nothing")]
    else:
        pin = h["dice_pin"] if h is not None else ""
        if check is not None and check.presses:
            figure = " + ".join(str(d) for d in check.dice)
            about.append(tr("ui.check.presses", count=check.presses))
        facts = [tr("ui.check.dice_facts", status=tr(f"ui.button.{c.button}"), pin=pin or "—")]
        why = c.button_detail if c.button == "missing" else ""
        if not pin:
            hints = [tr("ui.check.dice_unset", config=source)]
        elif c.button == "missing":
            hints = [tr("ui.check.dice_missing", pin=pin)]
        else:
            hints = [tr("ui.check.dice_works" if figure is not None else "ui.check.dice_wires", pin=pin)]
    if why:  # the hardware's own reason, as it gave it
        facts.append(tr("ui.check.why", detail=why))
    if h is None:  # the app runs without its hardware, or its config file is wrong: that first
        hints = [tr("ui.check.no_hardware")]
    elif h["problem"]:
        hints = [tr("ui.check.config_problem", config=source), h["problem"]]
    waiting = tr("ui.check.tap_any" if kind == "reader" else "ui.check.press_button")
    return {"title": tr(f"ui.check.{kind}_title"), "figure": figure, "about": " · ".join(about),
            "waiting": waiting, "facts": facts, "hints": hints}


def can_resume(c: Controller) -> bool:
    """There is an unfinished game in the journal to go back to."""
    return c.journal.latest_active() is not None


def draft_names(d: Draft) -> list[str]:
    """The players being set up, by name (#1, #2... until named)."""
    return [p.name or f"#{k + 1}" for k, p in enumerate(d.players)]


def setup(c: Controller) -> dict[str, Any]:
    """The new-game screen: the rulesets, the players and their cards, and the choices this ruleset leaves."""
    d = c.draft
    assert d is not None
    ruleset = load_ruleset(d.rules)
    facts = Variant.of_ruleset(ruleset)
    options = []
    for option in OPTION_TOGGLES:
        if option == "double_rent_with_mortgaged" and not facts.has_mortgages:
            continue  # no mortgages in this ruleset
        if option == "build_only_on_visit" and facts.builds_on_visit:
            continue  # always on the visited firm in this ruleset
        options.append({"option": option, "on": bool(d.options.get(option, ruleset.options[option]))})
    custom = None
    if facts.builds_at_turn_start:  # brands: the family's own table
        numbers = []
        for option, step, least in CUSTOM_OPTIONS:
            value = int(d.options.get(option, ruleset.options[option]))
            shown = money(c, value) if option in MONEY_OPTIONS else c.tr.number(value)
            numbers.append({"option": option, "value": value, "shown": shown, "step": step, "least": least})
        custom = {"numbers": numbers,
                  "build_evenly": bool(d.options.get("build_evenly", ruleset.options["build_evenly"]))}
    time_limit = (d.time_limit or int(ruleset.options["time_limit"])) if ruleset.options["time_limit"] else None
    return {
        "rulesets": [{"name": name, "text": c.tr(f"ui.rules.{name}") if c.tr.has(f"ui.rules.{name}") else name,
                      "chosen": name == d.rules} for name in c.rulesets()],
        "players": [{"index": k, "name": p.name, "colour": p.colour, "card": p.card is not None,
                     "registering": d.registering == k} for k, p in enumerate(d.players)],
        "can_add": len(d.players) < ruleset.players_max,  # the ruleset's most (biznes 6): Add a player greyed
        "can_remove": len(d.players) > 2,  # the controller keeps two at least
        "pin": d.pin, "options": options, "custom": custom, "time_limit": time_limit, "problems": c.draft_problems(),
    }


def keyboard(c: Controller, editor: NameEditor) -> dict[str, Any]:
    """The keyboard page: whose name is typed (their number and colour), the name so far, the keys in the
    family's language (ui/keys.py), the ready names nobody has, and what stops Done (None: nothing)."""
    d = c.draft
    assert d is not None
    player = d.players[editor.index]
    others = [p.name for k, p in enumerate(d.players) if k != editor.index and p.name]
    problem = name_problem(editor.text, others)
    return {"title": c.tr("ui.keyboard.title", number=editor.index + 1), "colour": player.colour,
            "text": editor.text, "fresh": editor.fresh, "full": editor.full(),
            "rows": keyboard_rows(c.tr, editor),
            "presets": free_presets(c.tr, [p.name for p in d.players]),
            "problem": None if problem is None else c.tr(problem, name=editor.result()),
            "can_finish": bool(editor.result()) and problem is None}


def in_progress(c: Controller) -> dict[str, Any]:
    """"Game already going?": each player's cash and position, and every property's owner, buildings and
    mortgage, as entered so far."""
    d = c.draft
    assert d is not None
    entered = d.setup or {"players": {}, "spaces": {}}
    ruleset = load_ruleset(d.rules)
    start_cash = int(ruleset.options["start_cash"])
    players = []
    for name in draft_names(d):
        entry = entered["players"].get(name, {})
        cash, position = int(entry.get("cash", start_cash)), int(entry.get("position", 0))
        players.append({"name": name, "cash": cash, "cash_text": money(c, cash), "position": position,
                        "where": ruleset.spaces[position].name})
    spaces = []
    for s in ruleset.spaces:
        if not s.is_property:
            continue
        entry = entered["spaces"].get(str(s.index), {})
        spaces.append({"index": s.index, "name": s.name,
                       "colour": ruleset.groups[s.group]["color"] if s.group else DEFAULT_COLOUR,
                       "owner": entry.get("owner"), "lot": s.kind == "lot",
                       "level": 5 if entry.get("hotel") else int(entry.get("houses", 0)),
                       "mortgaged": bool(entry.get("mortgaged"))})
    return {"players": players, "spaces": spaces, "mortgages": Variant.of_ruleset(ruleset).has_mortgages}


def table(c: Controller) -> dict[str, Any]:
    """The turn screen: the players, whose turn, the dice, the clock, debts, the space's deed and the bar."""
    game = c.game
    assert game is not None
    everyone = players(c)
    real = game.ruleset.dice
    speed = len(c.last_dice) == real + 1  # the speed die rolled beside the white dice
    dice = [{"value": v, "speed": speed and k == real, "face": speed_face(v) if speed and k == real else ""}
            for k, v in enumerate(c.last_dice)]
    qr_player, until = c.player_qr
    link = c.player_link(qr_player) if qr_player and time.monotonic() < until else None
    return {
        "players": everyone, "current": next(p for p in everyone if p["current"]), "debts": debts(c),
        "clocked": game.variant.clocked, "dice": dice, "move_hint": c.move_hint, "end_time": c.end_time(),
        "player_qr": {"player": qr_player, "link": link} if link else None,
        "deed": space(c, game.current.position), "nav": nav_bar(c),
    }


def nav_bar(c: Controller) -> dict[str, Any]:
    """The turn screen's bottom bar: the deeds button's words, the bank's buildings, pause, the hardware."""
    game = c.game
    return {"deeds_key": deeds_key(game), "pool": pool_text(c, game) if game is not None else "",
            "can_pause": game is not None and game.variant.clocked and game.paused_at < 0 and not c.vote_kind,
            "status": status_text(c)}


def pool(c: Controller) -> str:
    game = c.game
    return pool_text(c, game) if game is not None else ""


def trade_sale(c: Controller, offer: dict[str, Any]) -> dict[str, Any] | None:
    """biznes: a debtor's one firm for a rival's cash is a sale to that rival (sell_to_player), not a trade."""
    game = c.game
    if game is None or not game.variant.raises_by_selling or offer.get("from") not in game.index_of:
        return None
    if not game.players[game.index_of[offer["from"]]].debts:
        return None
    give, get = offer["give"], offer["get"]
    if len(give["spaces"]) != 1 or give["cash"] or get["spaces"] or get["jail_cards"] or give["jail_cards"]:
        return None
    return {"do": "sell_to_player", "player": offer["from"], "space": give["spaces"][0], "to": offer["to"],
            "price": get["cash"]}


def trade(c: Controller, offer: dict[str, Any]) -> dict[str, Any]:
    """The trade screen: the players to choose from, and each side's cash, deeds and jail cards on offer."""
    game = c.game
    assert game is not None
    sides = []
    for side, who_key in (("give", "from"), ("get", "to")):
        owner = game.index_of[offer[who_key]]
        items = offer[side]
        sides.append({
            "side": side, "who_key": who_key, "who": offer[who_key], "cash": items["cash"],
            "deeds": [{"index": i, "name": game.space_name(i), "chosen": i in items["spaces"]}
                      for i in game.iter_properties(owner)],
            "jail_cards": items["jail_cards"], "jail_cards_held": len(game.players[owner].jail_cards),
        })
    sale = trade_sale(c, offer)
    return {"names": [p.name for p in game.players if not p.bankrupt], "from": offer["from"], "to": offer["to"],
            "sides": sides, "sale_least": game.bank_price(sale["space"]) if sale is not None else None}


def casino(c: Controller) -> dict[str, Any]:
    """brands' casino: the bet, the jackpot and its odds, the numbers picked and what a hit pays."""
    game = c.game
    assert game is not None
    bet = int(game.options["casino_bet"])
    pick = list(c.casino_pick)
    return {"player": game.current.name, "bet": bet, "jackpot": game.jackpot,
            "odds": game.options["casino_jackpot_odds"], "pick": pick,
            "win": game.variant.casino_win(len(pick)) if pick else None}


def card_choices(c: Controller) -> list[dict[str, str]]:
    """Physical decks: the cards the player may have drawn from the deck they draw from now."""
    game = c.game
    if game is None or game.decision is None or game.decision.kind != "draw":
        return []
    deck = game.decision.deck
    by_id = game.ruleset.card_by_id
    return [{"id": card_id, "text": c.tr.card(card_id, by_id[card_id].text)}
            for card_id in sorted(set(game.decks[deck]))]


def dice_count(c: Controller) -> int:
    """How many dice this roll takes (brands' speed die is a third)."""
    game = c.game
    return game.dice_count() if game is not None else 0


def jump_spaces(c: Controller) -> list[dict[str, Any]]:
    """brands' triple on the speed die: every space of the board, to jump to."""
    game = c.game
    assert game is not None
    return [{"index": s.index, "name": s.name} for s in game.ruleset.spaces]


def turn_player(c: Controller) -> str:
    game = c.game
    assert game is not None
    return game.current.name


def game_over(c: Controller) -> dict[str, Any]:
    """The winner, the ranking by net worth, and everyone's net worth over the game for the chart (with the
    round of each of its points)."""
    game = c.game
    assert game is not None
    assert game.outcome is not None
    history, rounds = worth_history_and_rounds(game)
    return {"winner": " & ".join(game.outcome.winners), "ranking": ranking(c),
            "history": history, "rounds": rounds, "colours": {p.name: c.colour(p.name) for p in game.players}}


def banker(c: Controller) -> dict[str, Any]:
    """The banker's menu: the players still in (for corrections and lost cards), and whether phones can follow."""
    return {"players": [p for p in players(c) if not p["bankrupt"]], "replacing": c.replacing,
            "phones": c.table_link() is not None, "stand_ins": c.settings.stand_ins}


def digits(c: Controller, e: Entry) -> dict[str, Any]:
    """The digit pad (ui/entry.py): its title; the value shown large the language's way (a PIN as dots,
    a correction with its sign); the lines under it (whose cash, the new balance, the rule the amount
    keeps, the PIN's tries left or its wait), each {"text", "kind"} (info | money | error); a
    correction's sign; whether the keys and OK may be touched now; and the wait in seconds, or None."""
    tr = c.tr
    lines: list[dict[str, str]] = []
    broken = e.breaks()
    player = e.subject.get("player", "")
    wait = None
    ok_text = tr("ui.digits.ok")
    if e.secret:
        shown = e.masked() or tr("ui.digits.pin_empty")
        if e.purpose == "new_pin":
            title = tr("ui.setup.pin")
            lines.append({"text": tr("ui.digits.pin_rule", least=PIN_LEAST, most=PIN_MOST),
                          "kind": "error" if broken else "info"})
        else:
            title = tr("ui.banker.pin")
            ok_text = tr("ui.banker.unlock")
            if e.purpose == "undo_pin":
                lines.append({"text": tr("ui.digits.undo_why"), "kind": "info"})
            wait = c.pin_wait()
            left = c.pin_tries_left()
            if wait is not None:
                text = (tr("ui.digits.pin_wait", seconds=wait) if wait < 120
                        else tr("ui.digits.pin_wait_long", time=f"{wait // 60}:{wait % 60:02d}"))
                lines.append({"text": text, "kind": "error"})
            elif left == 0:
                lines.append({"text": tr("ui.digits.pin_last"), "kind": "error"})
            elif left < PIN_FREE_TRIES:
                lines.append({"text": tr("ui.digits.pin_wrong", tries=left), "kind": "error"})
    else:
        shown = (("+" if e.sign > 0 else "\u2212") if e.signed else "") + money(c, e.value)
        if e.purpose == "correction":
            title = tr("ui.digits.correct_title", player=player)
            lines.append({"text": tr("ui.digits.has", player=player, cash=e.base or 0), "kind": "info"})
            if broken == "most":
                lines.append({"text": tr("ui.digits.at_most", amount=e.upper() or 0, player=player), "kind": "error"})
            else:
                lines.append({"text": tr("ui.digits.new_balance", amount=e.result() or 0), "kind": "money"})
        elif e.purpose == "trade_cash":
            title = tr("ui.digits.trade_title", player=player)
            lines.append({"text": tr("ui.digits.at_most", amount=e.most or 0, player=player),
                          "kind": "error" if broken else "info"})
        else:
            title = tr("ui.own.title", space=e.subject.get("space", ""), player=player)
            lines.append({"text": tr("ui.own.bounds", low=e.least, high=e.most or 0, step=e.step),
                          "kind": "error" if broken else "info"})
    return {"title": title, "shown": shown, "empty": not e.digits, "secret": e.secret, "lines": lines,
            "sign": e.sign if e.signed else None, "keys": wait is None, "ok": e.ready() and wait is None,
            "ok_text": ok_text, "wait": wait}


def phones(c: Controller) -> dict[str, Any]:
    """The table's link, and how many minutes a one-time move link lives."""
    return {"link": c.table_link(), "move_minutes": MOVE_SECONDS // 60}


SETTING_ROWS = (("sounds", "motion"), ("voice", "voice_volume", "voice_speed"), ("taps", "physical_decks"))


def settings(c: Controller) -> dict[str, Any]:
    """The settings screen: the languages, the settings' buttons in rows (each says what it is set to; a
    touch switches it, or steps a level on to the next), and the hardware's and the voice's state."""
    s = c.settings
    rows = []
    for keys in SETTING_ROWS:
        buttons = []
        for key in keys:
            value = getattr(s, key)
            if isinstance(value, bool):
                buttons.append({"key": key, "text_key": f"ui.settings.{key}.{'on' if value else 'off'}",
                                "on": value, "next": not value})
            else:  # a level of the voice's: it only counts while the voice is on
                following = LEVELS[(LEVELS.index(value) + 1) % len(LEVELS)] if value in LEVELS else LEVELS[0]
                buttons.append({"key": key, "text_key": f"ui.settings.{key}.{value}", "on": s.voice,
                                "next": following})
        rows.append(buttons)
    status = status_text(c).replace("\n", " · ")  # one line under the checks' buttons, the voice's below it
    silent = c.voice_status() if s.voice else None
    return {"language": s.language, "languages": dict(LANGUAGES), "rows": rows,
            "status": f"{status}\n{silent}" if silent else status}
