"""The game: state, the rules that change it, and the questions the app asks.

``Game.apply(action)`` is the one checked entry point. An action is a dict in
the game script format (docs/game-script.md): ``{"do": "roll", "dice": [3, 4]}``.
It either happens whole, or raises ``InvalidAction`` / ``IllegalAction`` and
changes nothing. Chance never comes from inside: dice, card draws and the
opening deal arrive in the action (``banker.chance`` fills them in for a
caller that wants a seeded source).

Internally every rule is a pair of methods: ``_check_<verb>`` raises when the
action is not allowed now, ``_do_<verb>`` changes the state and cannot fail
by the rules (what cannot be paid becomes a debt). ``can(action)`` runs only
the check; ``legal_actions()`` lists what passes it.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from banker import cards, game_setup, limits, state, undo, verbs
from banker.errors import IllegalAction, InvalidAction, SetupError
from banker.mechanics import HANDLERS as MECHANIC_HANDLERS, Mechanics, building, choose as choose_mechanics, debt, speed_die
from banker.mechanics import auction as auctions
from banker.model import BANK, NO_PARAMS, POT, Auction, Debt, Decision, Entry, Event, Outcome, Player, decision
from banker.ruleset import Ruleset

COMMON_FIELDS = frozenset({"do", "player", "t"})
VERB_FIELDS: dict[str, frozenset[str]] = {
    "deal": frozenset({"deeds"}),
    "roll": frozenset({"dice"}),
    "buy": frozenset(),
    "decline": frozenset(),
    "bid": frozenset({"amount"}),
    "pass": frozenset(),
    "close_auction": frozenset(),
    "building_auction": frozenset({"kind"}),
    "draw": frozenset({"card", "target"}),
    "tax": frozenset({"choice"}),
    "build": frozenset({"space"}),
    "sell": frozenset({"space"}),
    "sell_all": frozenset({"space"}),
    "mortgage": frozenset({"space"}),
    "unmortgage": frozenset({"space"}),
    "keep_mortgage": frozenset({"space"}),
    "pay_fine": frozenset(),
    "use_card": frozenset(),
    "trade": frozenset({"from", "to", "give", "get"}),
    "end_turn": frozenset(),
    "concede": frozenset(),
    "adjust": frozenset({"cash", "position", "reason"}),
    "end_game": frozenset(),
    "auction_own": frozenset({"space", "reserve"}),
    "sell_to_bank": frozenset({"space"}),
    "sell_to_player": frozenset({"space", "to", "price"}),
    "casino": frozenset({"numbers", "die", "jackpot"}),
    "bus": frozenset({"steps"}),
    "jump": frozenset({"space"}),
    "timeout": frozenset(),
    "pause": frozenset(),
    "resume": frozenset(),
    "undo": frozenset(),
}
VERBS = tuple(VERB_FIELDS)
# Verbs whose actor is the owner of the named space when no player is given.
SPACE_VERBS = frozenset({"build", "sell", "sell_all", "mortgage", "unmortgage", "keep_mortgage",
                         "auction_own", "sell_to_bank", "sell_to_player"})


class Game:
    """One game under one ruleset. See the module docstring."""

    def __init__(
        self,
        ruleset: Ruleset,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
        deck_order: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self._init_args = (list(players), dict(options or {}), setup, dict(deck_order or {}))
        names = game_setup.player_names(ruleset, players)
        opts = game_setup.game_options(ruleset, options or {}, len(names))
        self.options: dict[str, Any] = opts
        # The variant of each family (banker/mechanics).
        self.rules: Mechanics = choose_mechanics(ruleset.mechanics, opts, [s.kind for s in ruleset.spaces])
        self.rules.teams.check_setup(ruleset, names)
        hotel_houses = game_setup.hotel_houses(ruleset, opts)

        spaces = ruleset.spaces
        self.n_spaces = len(spaces)
        self.kinds = [s.kind for s in spaces]
        self.space_names = [s.name for s in spaces]
        self.is_property = [s.is_property for s in spaces]
        # Shared, never-mutated parameter dicts for log entries naming a space.
        self.space_params = [{"space": s.name} for s in spaces]
        self.prices = [s.price for s in spaces]
        self.groups = [s.group for s in spaces]
        self.group_members = ruleset.group_members
        # Colour groups of lots with their building cost, for quick scans.
        self.lot_groups = [(members, spaces[members[0]].building_cost)
                           for members in ruleset.group_members.values() if spaces[members[0]].kind == "lot"]
        self.hotel_houses = hotel_houses
        self.salary = int(opts["salary"])
        self.time_limit = int(opts["time_limit"]) * 60  # seconds; 0 = no limit
        self.hotel_level = hotel_houses + 1
        self.jail_index = ruleset.jail_index
        self.jail_tries = int(opts["jail_tries"])
        self.refund_percent = int(opts["building_refund_percent"])
        self.has_random_move = any(c.effect == "random_move" for c in ruleset.cards)
        verbs = ["build", "sell"]
        if self.rules.building.sells_whole_groups():
            verbs.append("sell_all")
        if self.rules.mortgage.allowed():
            verbs += ["mortgage", "unmortgage", "keep_mortgage"]
        sells = self.rules.debt.raises_by_selling()
        if sells or self.rules.trade.own_auctions() or opts["mortgage_auction_now"]:
            verbs.append("auction_own")
        if sells:
            verbs.append("sell_to_bank")
        self._space_verbs = tuple(verbs)  # verbs on a space that legal_actions tries
        self.auction_step = int(opts["auction_step"])

        self.players = [Player(name, i, int(opts["start_cash"])) for i, name in enumerate(names)]
        self.index_of = {name: i for i, name in enumerate(names)}
        self.owner = [-1] * self.n_spaces
        self.owner_version = 0  # bumped whenever a deed changes hands (caches key on it)
        self._groups_cache: tuple[int, list[list[tuple[int, ...]]]] = (-1, [])
        self.level = [0] * self.n_spaces  # houses 0..hotel_houses, hotel_level for a hotel
        self.mortgaged = [False] * self.n_spaces
        self.bank_houses = int(opts["houses"])
        self.bank_hotels = int(opts["hotels"])
        self.pot = 0
        self.decks: dict[str, list[str]] = {}
        for deck, ids in ruleset.deck_cards.items():
            order = list(deck_order.get(deck, ids)) if deck_order else list(ids)
            if sorted(order) != sorted(ids):
                raise SetupError("setup.bad_deck_order", deck=deck)
            self.decks[deck] = order

        # Turn state.
        self.turn = 0
        self.roll_owed = True
        self.doubles = 0
        self.last_roll = 0
        self.decision: Decision | None = None
        self.auction: Auction | None = None
        self.auction_queue: list[int] = []
        self.turn_over_after_auctions = False
        self.mortgage_owed: list[tuple[int, int]] = []  # (player, space)
        self.build_owed: list[tuple[int, str]] = []  # (player, "house"|"hotel") won at a building auction
        self.deal_owed = (int(opts["deal_deeds"]) > 0 or bool(opts["deal_all"])) and not setup
        self.outcome: Outcome | None = None  # set once, when the game ends
        self.bankruptcies = 0
        self.clock = 0.0
        # Per-move counters of the biznes mechanics (a move = one roll up to its end_turn).
        self.trades_used = 0  # trades made in this move
        self.visit_builds = 0  # buildings added on this visit (reset at every landing)
        self.extra_roll = False  # a double was rolled: end_turn keeps the turn (doubles = "after_move")
        self.random_moved = False  # a random-move card already moved the player in this roll
        self.last_random_target = -1  # shared by all players; -1 = none yet
        # brands: rounds played, mortgages' start rounds, builds per group this turn, trades this
        # turn, the casino jackpot, skipped turns in a row, paused time.
        self.round = 0
        self.mortgage_round = [0] * self.n_spaces
        self.group_builds: dict[str, int] = {}
        self.turn_trades = 0
        self.jackpot = int(opts["casino_jackpot_start"])
        self.skipped = [0] * len(self.players)
        self.turn_skipped = False
        self.paused_at = -1.0  # game clock when a pause began; -1 = running
        self.paused_total = 0.0  # seconds spent paused so far
        self.mr_monopoly = False  # the speed die's Mr. Monopoly move is still to come
        self.action_t = -1.0  # the `t` of the action being applied (-1: unstamped)

        self.seq = 0
        # Money movements and events are kept as plain tuples (cheap to record);
        # money_log() and apply() hand them out as Entry and Event objects.
        self.log: list[tuple[int, int, int, int, str, dict[str, Any]]] = []
        self.events: list[tuple[str, dict[str, Any]]] = []
        # The simulator turns off the most frequent events (rolled, moved,
        # turn), as a table never shows them; every other event and the
        # money log are always kept.
        self.record_events = True
        self.history: list[dict[str, Any]] = []  # effective actions (undos applied)
        self.script: list[dict[str, Any]] = []  # every accepted action, undos included
        # Copies of the state for going back (banker/undo.py), by the number of actions in effect; `apply`
        # keeps one every undo.SPARSE actions unless told not to (the simulator, which never undoes).
        self.trail_at: list[int] = []
        self.trail: list[tuple[Any, ...]] = []
        self.keeps_trail = True
        self.rolls = 0
        self.turns = 0  # turns handed on so far
        self.debtors = 0  # number of players with debts: a fast "any debts?"

        if setup:
            game_setup.apply_setup(self, setup)

    # ------------------------------------------------------------------
    # Lookups

    def _space_index(self, value: Any) -> int:
        if isinstance(value, bool):
            raise InvalidAction("action.unknown_space", space=value)
        if isinstance(value, int):
            if 0 <= value < self.n_spaces:
                return value
            raise InvalidAction("action.unknown_space", space=value)
        if isinstance(value, str):
            # Only ASCII digits name an index: "²".isdigit() is true, and int("٣") is 3. At most 18
            # digits: int() of a longer one could pass Python's 4,300-digit limit, and no board is that big.
            if value.isascii() and value.isdigit() and len(value) <= 18 and int(value) < self.n_spaces:
                return int(value)
            found = self.ruleset.space_index(value)
            if found is not None:
                return found
            if len(value) > 40:
                value = value[:37] + "..."  # the reason stays a line to read
        raise InvalidAction("action.unknown_space", space=value)

    def space_index(self, value: Any) -> int:
        """The index of a space named by index, index string or exact name (InvalidAction if none)."""
        return self._space_index(value)

    def new_like(self) -> "Game":
        """A fresh game with the same ruleset, players, options, setup and deck order, before any action."""
        players, options, setup, deck_order = self._init_args
        return Game(self.ruleset, players, options, setup, deck_order)

    def _player_index(self, value: Any) -> int:
        if isinstance(value, str) and value in self.index_of:
            return self.index_of[value]
        raise InvalidAction("action.unknown_player", player=value)

    def space_name(self, i: int) -> str:
        return self.space_names[i]

    def name(self, p: int) -> str:
        if p == BANK:
            return "bank"
        if p == POT:
            return "pot"
        return self.players[p].name

    @property
    def ended(self) -> bool:
        """Whether the game is over (`outcome` says how)."""
        return self.outcome is not None

    @property
    def current(self) -> Player:
        return self.players[self.turn]

    # ------------------------------------------------------------------
    # The checked entry point

    def apply(self, action: Mapping[str, Any]) -> list[Event]:
        """Apply one action; return what happened. Raises and changes nothing when refused."""
        if type(action) is not dict and not isinstance(action, Mapping):
            raise InvalidAction("action.not_object")
        verb = action.get("do")
        if not isinstance(verb, str) or verb not in VERB_FIELDS:
            raise InvalidAction("action.unknown_verb", verb=verb)
        allowed = VERB_FIELDS[verb]
        for key in action:
            if key not in allowed and key not in COMMON_FIELDS:
                raise InvalidAction("action.unknown_field", verb=verb, field=key)
        limits.check_fields(action)  # every field's kind and range (docs/game-script.md, "Bounds")
        t = action.get("t")
        if verb == "undo":
            self.undo(record=dict(action))
            return []
        if self.outcome is not None:
            raise IllegalAction("rule.game_over", verb=verb)
        if self.paused_at >= 0 and verb not in ("resume", "end_game"):
            raise IllegalAction("rule.paused_now", verb=verb)
        start = len(self.events)
        if self.time_limit and t is not None and t >= self.time_limit:
            self.push(verb, self.turn, dict(action))  # time is up: this action ends the game
        else:
            actor = self._actor(verb, action)
            _HANDLERS[verb][0](self, actor, action)  # check: raises, changes nothing
            try:
                self.push(verb, actor, dict(action))
            except Exception:
                # A rule's effect must never fail halfway; if one does anyway,
                # put the state back as it was before this action and re-raise.
                undo.go_back(self, len(self.history), _STATE)
                raise
        if self.keeps_trail and len(self.history) % undo.SPARSE == 0:
            undo.keep(self, _STATE)
        return [Event(code, params) for code, params in self.events[start:]]

    def push(self, verb: str, actor: int, action: dict[str, Any]) -> None:
        """The unchecked core: apply an action already known to be legal.

        For callers that have checked it themselves (the computer players of
        `banker simulate`, whose every game is also replayed through `apply`
        by the tests). Anything else must call `apply`.
        """
        t = action.get("t")
        self.action_t = -1.0 if t is None else float(t)
        if t is not None:
            if self.time_limit and t >= self.time_limit:
                self._end("time", self._richest())  # the agreed end time has come: the action is not carried out
            else:
                _DOERS[verb](self, actor, action)
            self.clock = float(t)
        else:
            _DOERS[verb](self, actor, action)
        if self.debtors or self.turn_over_after_auctions or self.mr_monopoly:
            self._after_action()
        self.history.append(action)
        self.script.append(action)
        self.seq += 1

    def can(self, action: Mapping[str, Any]) -> str | None:
        """None when `action` would be accepted now, else the reason it would be refused."""
        try:
            self.check(action)
        except (InvalidAction, IllegalAction) as exc:
            return str(exc)
        return None

    def check(self, action: Mapping[str, Any]) -> None:
        """Raise as `apply` would, without changing anything."""
        if not isinstance(action, Mapping):
            raise InvalidAction("action.not_object")
        verb = action.get("do")
        if not isinstance(verb, str) or verb not in VERB_FIELDS:
            raise InvalidAction("action.unknown_verb", verb=verb)
        for key in action:
            if key not in COMMON_FIELDS and key not in VERB_FIELDS[verb]:
                raise InvalidAction("action.unknown_field", verb=verb, field=key)
        limits.check_fields(action)
        self._check_rules(verb, action)

    def _allowed(self, action: dict[str, Any]) -> bool:
        """`can(action) is None` for an action the engine made itself, well formed by construction: the rules
        alone are asked, and a refusal's message is never rendered (legal_actions tries hundreds a call)."""
        try:
            self._check_rules(action["do"], action)
        except (InvalidAction, IllegalAction):
            return False
        return True

    def _check_rules(self, verb: str, action: Mapping[str, Any]) -> None:
        """`check` after the action's form is known good: whether the rules allow it now."""
        if verb == "undo":
            if not self.history:
                raise IllegalAction("rule.nothing_to_undo")
            return
        if self.outcome is not None:
            raise IllegalAction("rule.game_over", verb=verb)
        if self.paused_at >= 0 and verb not in ("resume", "end_game"):
            raise IllegalAction("rule.paused_now", verb=verb)
        actor = self._actor(verb, action)
        _HANDLERS[verb][0](self, actor, action)

    def undo(self, record: dict[str, Any] | None = None) -> None:
        """Take back the latest action not yet taken back."""
        if not self.history:
            raise IllegalAction("rule.nothing_to_undo")
        undo.go_back(self, len(self.history) - 1, _STATE)  # banker/undo.py: in time for what it takes back
        self.script.append(record or {"do": "undo"})

    def restore(self, script: Sequence[Mapping[str, Any]]) -> None:
        """Replay a whole recorded script (undos included) into this fresh game, in one pass.

        Each undo takes back the latest action still in effect, so the actions
        in effect are found first and applied once: loading a long game with
        many undos costs one replay, not one per undo. Raises like `apply` on
        an action that does not fit, leaving the game as it was.
        """
        if self.script:
            raise ValueError("restore() needs a game with no actions yet")
        effective: list[dict[str, Any]] = []
        for action in script:
            if isinstance(action, Mapping) and action.get("do") == "undo":
                if not effective:
                    raise IllegalAction("rule.nothing_to_undo")
                effective.pop()
            else:
                effective.append(dict(action))
        try:
            for action in effective:
                self.apply(action)
        except Exception:
            undo.go_back(self, 0, _STATE)
            self.script = []
            raise
        self.script = [dict(a) for a in script]

    def truncate(self, length: int) -> None:
        """Go back to the state after the first `length` recorded actions (undos count as actions)."""
        fresh = self.new_like()
        fresh.restore(self.script[:length])
        for name in _STATE:
            setattr(self, name, getattr(fresh, name))
        self.script = fresh.script
        undo.forget(self)

    # ------------------------------------------------------------------
    # Who acts

    def _actor(self, verb: str, action: Mapping[str, Any]) -> int:
        given = action.get("player")
        if given is not None:
            p = self._player_index(given)
            if self.players[p].bankrupt:
                raise IllegalAction("rule.bankrupt_player", player=self.players[p].name)
            return p
        if verb in SPACE_VERBS and "space" in action:
            i = self._space_index(action["space"])
            if self.owner[i] >= 0:
                return self.owner[i]
            raise IllegalAction("rule.not_owned", space=self.space_name(i))
        if verb in ("bid", "pass"):
            a = self.auction
            if a is not None and self.rules.auction.in_turn() and a.next_bidder >= 0:
                return a.next_bidder
            if a is not None and len([b for b in a.bidders if b != a.high_bidder]) == 1 and verb == "pass":
                return next(b for b in a.bidders if b != a.high_bidder)
            raise InvalidAction("action.player_needed", verb=verb)
        if verb == "concede":
            debtors = [p.index for p in self.players if p.debts]
            if len(debtors) == 1:
                return debtors[0]
        if verb == "adjust":
            raise InvalidAction("action.player_needed", verb=verb)
        if verb in ("keep_mortgage",) and self.mortgage_owed:
            return self.mortgage_owed[0][0]
        return self.turn

    # ------------------------------------------------------------------
    # After every action

    def _after_action(self) -> None:
        if self.debtors:
            for p in self.players:
                if p.debts:
                    self._settle(p)
        if (self.mr_monopoly and self.decision is None and self.auction is None and not self.debtors
                and self.outcome is None and not self.current.in_jail and not self.current.bankrupt):
            speed_die.mr_monopoly_move(self)
            if self.debtors:
                for p in self.players:
                    if p.debts:
                        self._settle(p)
        if self.turn_over_after_auctions and self.auction is None and not self.auction_queue and self.outcome is None:
            self.turn_over_after_auctions = False
            self._next_turn()

    def _settle(self, p: Player) -> None:
        """Pay debts in order while cash covers the next one."""
        while p.debts and p.cash >= p.debts[0].amount:
            debt = p.debts.pop(0)
            payee = POT if debt.to_pot else debt.creditor
            self._transfer(p.index, payee, debt.amount, "debt_paid", {"reason": debt.code})
            if debt.code == "rent" and payee >= 0:  # brands: rent is taxed when it is collected
                self._rent_tax(payee, debt.amount, debt.params)
        if not p.debts:
            p.debt_auctioned.clear()
            self._recount_debtors()

    def _recount_debtors(self) -> None:
        self.debtors = sum(1 for p in self.players if p.debts)

    # ------------------------------------------------------------------
    # Money

    def _transfer(self, payer: int, payee: int, amount: int, code: str, params: dict[str, Any]) -> None:
        if amount <= 0:
            return
        if payer >= 0:
            self.players[payer].cash -= amount
        elif payer == POT:
            self.pot -= amount
        if payee >= 0:
            self.players[payee].cash += amount
        elif payee == POT:
            self.pot += amount
        self.log.append((self.seq, payer, payee, amount, code, params))

    def _charge(self, payer: int, payee: int, amount: int, code: str, params: dict[str, Any],
                pot: bool = False) -> None:
        """A payment the rules impose: paid at once, or a debt for the whole amount."""
        if amount <= 0:
            return
        if pot and payee == BANK and self.options["free_parking_pot"]:
            target = POT
        else:
            target = payee
            pot = False
        p = self.players[payer]
        if not p.debts and p.cash >= amount:
            self._transfer(payer, target, amount, code, params)
            return
        p.debts.append(Debt(amount, payee, pot, code, params))
        self._recount_debtors()
        self.events.append(("debt", {"player": p.name, "amount": amount, "to": self.name(payee),
                                          "reason": code}))

    def _pay_bank(self, p: int, amount: int, code: str, params: dict[str, Any]) -> None:
        """A voluntary payment to the bank; the caller has checked the cash."""
        self._transfer(p, BANK, amount, code, params)

    # ------------------------------------------------------------------
    # Values

    def _return_buildings(self, i: int) -> None:
        """Every building on lot i back to the bank's pool (a hotel as one hotel)."""
        lv = self.level[i]
        if lv == self.hotel_level:
            self.bank_hotels += 1
        else:
            self.bank_houses += lv
        self.level[i] = 0

    def buildings_sale_value(self, i: int) -> int:
        """What the bank pays for every building on lot i: half their cost (a hotel with its houses)."""
        return self.level[i] * self.building_refund(i)

    def building_refund(self, i: int) -> int:
        """What the bank pays back for one building on lot i (half its cost in classic)."""
        return self.ruleset.spaces[i].building_cost * self.refund_percent // 100

    def building_value(self, i: int) -> int:
        """What the buildings on lot i cost (a hotel with the houses it replaced)."""
        lv = self.level[i]
        return lv * self.ruleset.spaces[i].building_cost if lv else 0

    def net_worth(self, p: int) -> int:
        """Cash + price of unmortgaged properties + half price of mortgaged ones + buildings - debts."""
        player = self.players[p]
        worth = player.cash - sum(d.amount for d in player.debts)
        for i in self.ruleset.property_indices:
            if self.owner[i] == p:
                worth += self.prices[i] // 2 if self.mortgaged[i] else self.prices[i]
                worth += self.building_value(i)
        return worth

    def total_worth(self, p: int) -> int:
        """The income-tax base: cash + printed price of every property + cost of every building."""
        worth = self.players[p].cash
        for i in self.ruleset.property_indices:
            if self.owner[i] == p:
                worth += self.prices[i] + self.building_value(i)
        return worth

    def complete_lot_groups(self, p: int) -> list[tuple[int, ...]]:
        """The colour groups of lots that player p owns whole (members of each)."""
        version, per_player = self._groups_cache
        if version != self.owner_version:
            owner = self.owner
            per_player = [[] for _ in self.players]
            for members, _cost in self.lot_groups:
                first = owner[members[0]]
                if first >= 0 and all(owner[j] == first for j in members):
                    per_player[first].append(members)
            self._groups_cache = (self.owner_version, per_player)
        return per_player[p]

    def mortgage_value(self, i: int) -> int:
        return self.ruleset.spaces[i].mortgage

    def interest(self, i: int) -> int:
        """10% of the mortgage value, rounded up."""
        pct = int(self.options["mortgage_interest_percent"])
        return -(-self.mortgage_value(i) * pct // 100)

    def unmortgage_cost(self, i: int) -> int:
        return self.rules.mortgage.unmortgage_cost(self, i)

    def rent_due(self, i: int, dice_total: int, rent_multiplier: int = 1, dice_multiplier: int = 0) -> int:
        """The rent a visitor to space i owes its owner now."""
        owner = self.owner[i]
        if owner < 0 or self.mortgaged[i]:
            return 0
        space = self.ruleset.spaces[i]
        kind = space.kind
        if kind == "lot":
            lv = self.level[i]
            if lv == 0:
                rent = space.rents[0]
                members = self.group_members[space.group]  # type: ignore[index]
                if all(self.owner[j] == owner for j in members) and (
                        self.options["double_rent_with_mortgaged"]
                        or not any(self.mortgaged[j] for j in members)):
                    rent *= 2
                return rent * rent_multiplier
            if lv == self.hotel_level:
                return space.rents[-1] * rent_multiplier
            return space.rents[lv] * rent_multiplier
        members = self.group_members[space.group]  # type: ignore[index]
        count = sum(1 for j in members if self.owner[j] == owner)
        if kind == "railroad":
            return space.rents[count - 1] * rent_multiplier
        multiplier = dice_multiplier or space.multipliers[count - 1]
        return multiplier * dice_total

    # ------------------------------------------------------------------
    # Turn flow helpers

    def _require_current(self, p: int, verb: str) -> None:
        if p != self.turn:
            raise IllegalAction("rule.not_your_turn", player=self.players[p].name, verb=verb,
                                current=self.current.name)

    def _blocking(self) -> str | None:
        """What must be settled before the current player rolls or ends the turn."""
        if self.deal_owed:
            return "deal"
        if self.auction is not None:
            return "auction"
        if self.mortgage_owed:
            return "mortgage_decision"
        if self.build_owed:
            return "building_owed"
        if self.decision is not None:
            return "decision"
        if self.debtors:
            return "debt"
        return None

    def _refuse_blocked(self, verb: str, p: int) -> None:
        blocker = self._blocking()
        if blocker is None:
            return
        name = self.players[p].name
        if blocker == "decision":
            raise IllegalAction("rule.decision_owed", player=name, verb=verb,
                                owed=self._decision_verbs_text())
        if blocker == "debt":
            debtor = next(q for q in self.players if q.debts)
            raise IllegalAction("rule.debt_blocks", player=name, verb=verb, debtor=debtor.name,
                                amount=sum(d.amount for d in debtor.debts))
        if blocker == "mortgage_decision":
            who, i = self.mortgage_owed[0]
            raise IllegalAction("rule.mortgage_decision_owed", verb=verb, player=self.players[who].name,
                                space=self.space_name(i))
        raise IllegalAction("rule.blocked_" + blocker, verb=verb, player=name)

    def _decision_verbs_text(self) -> str:
        d = self.decision
        if d is None:
            return ""
        return {"buy": "buy or decline", "draw": "draw a card", "tax": "choose the tax",
                "card_roll": "roll for the card", "casino": "bet at the casino or decline",
                "bus": "choose the bus move", "jump": "choose where to jump"}[d.kind]

    def _free_window(self) -> bool:
        """True when the only thing owed is the current player's roll or end of turn."""
        return self._blocking() is None

    def _next_turn(self) -> None:
        players = self.players
        i = self.turn + 1
        if i == len(players):
            i = 0
        while players[i].bankrupt:  # at least two players are left while the game runs
            i = i + 1 if i + 1 < len(players) else 0
        if i <= self.turn:
            self.round += 1  # the turn came round past the first seat: a new round
        if not self.turn_skipped:
            self.skipped[self.turn] = 0  # a turn played (not timed out) ends a run of skipped turns
        self.turn_skipped = False
        self.turn = i
        self.turns += 1
        self.roll_owed = True
        self.doubles = 0
        self.decision = None
        self.extra_roll = False
        self.mr_monopoly = False
        self.trades_used = 0
        self.turn_trades = 0
        self.group_builds = {}
        self.rules.mortgage.turn_passed(self)  # brands: a mortgage kept too long is lost to an auction
        if self.record_events:
            self.events.append(("turn", {"player": self.players[i].name}))

    def _send_to_jail(self, p: Player) -> None:
        p.position = self.jail_index
        p.in_jail = True
        p.jail_turns = 0
        self.doubles = 0
        self.decision = None
        if p.index == self.turn:
            self.roll_owed = False
            self.extra_roll = False
            self.mr_monopoly = False
        self.events.append(("jail", {"player": p.name}))

    def _move_forward(self, p: Player, steps: int) -> None:
        pos = p.position + steps
        if pos >= self.n_spaces:
            pos %= self.n_spaces
            self._salary(p)
        p.position = pos
        self._land(p, pos)

    def _move_to(self, p: Player, target: int, salary: bool = True) -> None:
        """Advance (forward) to `target`, paying the salary on passing or landing on GO."""
        if salary and target <= p.position:
            self._salary(p)
        p.position = target
        self._land(p, target)

    def economy_minutes(self) -> float:
        """Minutes of play by the game clock (pauses left out), for the brands economy."""
        now = self.action_t if self.action_t >= 0 else self.clock
        return max(0.0, now - self.paused_total) / 60

    def salary_paid(self) -> bool:
        """Whether passing the start still pays a salary (brands stops it after `salary_stop_minutes`)."""
        return self.rules.clock.salary_paid(self)

    def rent_tax_percent(self) -> int:
        """brands: the tax on collected rent now (0 before it starts)."""
        return self.rules.clock.rent_tax_percent(self)

    def _salary(self, p: Player) -> None:
        if not self.salary_paid():
            return  # brands: salaries have stopped
        self._transfer(BANK, p.index, self.salary, "salary", NO_PARAMS)
        if p.debts:
            self._settle(p)

    def _land(self, p: Player, i: int) -> None:
        self.visit_builds = 0
        if self.record_events:
            self.events.append(("moved", {"player": p.name, "space": self.space_names[i], "index": i}))
        if self.is_property[i]:
            owner = self.owner[i]
            if owner < 0:
                self.decision = decision("buy", space=i)
            elif owner != p.index and not self.mortgaged[i]:
                self._pay_rent(p.index, i, self.rent_due(i, self.last_roll))
            return
        kind = self.kinds[i]
        if kind == "go":
            bonus = int(self.options["start_landing_bonus"])
            if bonus and self.salary_paid():
                self._transfer(BANK, p.index, bonus, "start_bonus", NO_PARAMS)
                if p.debts:
                    self._settle(p)
            return
        if kind == "casino":
            self.decision = decision("casino", space=i)
            return
        if kind == "card":
            self.decision = decision("draw", deck=self.ruleset.spaces[i].deck)  # type: ignore[arg-type]
        elif kind == "tax_choice":
            self.decision = decision("tax", space=i)
        elif kind == "tax":
            amount = int(self.options[self.ruleset.spaces[i].amount_option])  # type: ignore[index]
            self._charge(p.index, BANK, amount, "tax", self.space_params[i], pot=True)
        elif kind == "go_to_jail":
            self._send_to_jail(p)
        elif kind == "free_parking":
            if self.options["free_parking_pot"] and self.pot > 0:
                self._transfer(POT, p.index, self.pot, "pot", {})

    def _pay_rent(self, payer: int, i: int, rent: int) -> None:
        """Rent for space i to its owner; brands: nothing to a jailed owner or an ally, and the rent tax."""
        owner = self.owner[i]
        if self.options["jail_no_rent"] and self.players[owner].in_jail:
            return
        if self.rules.teams.allies(payer, owner):  # the hooks themselves, not the questions: a call less a rent
            return
        self._charge(payer, owner, rent, "rent", self.space_params[i])
        if not self.players[payer].debts:  # paid now (owed, it is taxed when the debt is paid)
            self._rent_tax(owner, rent, self.space_params[i])

    def _rent_tax(self, owner: int, rent: int, params: dict[str, Any]) -> None:
        """brands: the tax on rent the owner has just collected, at the rate of the moment it is collected."""
        pct = self.rules.clock.rent_tax_percent(self)
        if pct and rent:
            self._transfer(owner, BANK, rent * pct // 100, "rent_tax", params)

    def has_teams(self) -> bool:
        """Whether the game is played as two teams of two (option `teams`)."""
        return self.rules.teams.present()

    def allies(self, p: int, q: int) -> bool:
        """Whether players p and q play on the same team (brands-teams: seats 1 and 3 against 2 and 4)."""
        return self.rules.teams.allies(p, q)

    def _remove_from_deck(self, card_id: str) -> None:
        for deck in self.decks.values():
            if card_id in deck:
                deck.remove(card_id)
                return

    def _return_card(self, card_id: str) -> None:
        """A used or returned Get Out of Jail Free card goes under its deck."""
        self.decks[self.ruleset.card_by_id[card_id].deck].append(card_id)

    # ------------------------------------------------------------------
    # roll

    def _parse_dice(self, a: Mapping[str, Any], verb: str = "roll") -> tuple[int, ...]:
        dice = a.get("dice")
        if dice is None:
            raise IllegalAction("rule.chance_needed", verb=verb, what="dice")
        n = self.ruleset.dice
        d = self.decision
        if self.rules.speed_die.active(self) and not (d is not None and d.kind == "card_roll"):
            n += 1  # brands-fast and -showdown: the speed die joins from its round on
        if (not isinstance(dice, (list, tuple)) or len(dice) != n
                or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
            raise InvalidAction("action.bad_dice", dice=dice, count=n)
        return tuple(dice)

    def speed_die_active(self) -> bool:
        """The speed die is rolled from round `speed_die_round` on (counting rounds from 1)."""
        return self.rules.speed_die.active(self)

    def dice_count(self) -> int:
        """How many dice the next roll takes."""
        d = self.decision
        return self.ruleset.dice + (1 if self.speed_die_active() and not (d is not None and d.kind == "card_roll")
                                    else 0)

    def _check_roll(self, p: int, a: Mapping[str, Any]) -> None:
        self._require_current(p, "roll")
        self._parse_dice(a)
        d = self.decision
        if d is not None and d.kind == "card_roll":
            if self.auction is not None or self.mortgage_owed or self.build_owed:
                self._refuse_blocked("roll", p)
            return
        self._refuse_blocked("roll", p)
        if not self.roll_owed:
            raise IllegalAction("rule.no_roll_owed", player=self.current.name)

    def _do_roll(self, p: int, a: Mapping[str, Any]) -> None:
        dice = a["dice"]
        total = dice[0] + dice[1] if len(dice) == 2 else sum(dice)
        self.rolls += 1
        player = self.players[p]
        if self.record_events:
            self.events.append(("rolled", {"player": player.name, "dice": dice}))
        d = self.decision
        if d is not None and d.kind == "card_roll":
            self.decision = None
            i, multiplier = d.space, d.multiplier
            owner = self.owner[i]
            if owner >= 0 and owner != p and not self.mortgaged[i]:
                self._pay_rent(p, i, multiplier * total)
            return
        speed = 0
        if self.rules.speed_die.active(self):  # the third die is the speed die: 1-3 steps, 4-5 Mr. Monopoly, 6 the bus
            speed = dice[2]
            total = dice[0] + dice[1]
        self.last_roll = total
        self.random_moved = False
        double = len(dice) == 2 and dice[0] == dice[1] or len(dice) > 2 and len(set(dice)) == 1
        if speed and not player.in_jail:  # in jail only the white dice count: a triple there is a double
            double = dice[0] == dice[1] and not (speed <= 3 and speed == dice[0])  # a triple is no double
        elif speed:
            double = dice[0] == dice[1]
        if player.in_jail:
            self.roll_owed = False
            if double:
                player.in_jail = False
                player.jail_turns = 0
                self.events.append(("left_jail", {"player": player.name, "how": "double"}))
                self._move_forward(player, total)
                return
            player.jail_turns += 1
            if player.jail_turns >= self.jail_tries:
                player.in_jail = False
                player.jail_turns = 0
                self._charge(p, BANK, int(self.options["jail_fine"]), "jail_fine", {}, pot=True)
                self.events.append(("left_jail", {"player": player.name, "how": "forced_fine"}))
                self._move_forward(player, total)
            return
        if double:
            self.doubles += 1
            if self.doubles >= self.rules.doubles.to_jail:
                self._send_to_jail(player)
                return
            self.rules.doubles.rolled_double(self)
        else:
            self.roll_owed = False
        if speed:
            if speed <= 3 and dice[0] == dice[1] == speed:
                self.decision = decision("jump")  # a triple: jump to any space
                self.events.append(("speed_die", {"player": player.name, "face": "triple"}))
                return
            if speed == 6:
                self.decision = decision("bus", dice=(dice[0], dice[1]))  # the bus: by either die or their sum
                self.events.append(("speed_die", {"player": player.name, "face": "bus"}))
                return
            if speed >= 4:
                self.mr_monopoly = True  # after this landing is settled
                self.events.append(("speed_die", {"player": player.name, "face": "mr_monopoly"}))
            else:
                total += speed
        self._move_forward(player, total)

    # ------------------------------------------------------------------
    # auctions (the verbs are banker/mechanics/auction.py's)

    def auction_in_turn(self) -> bool:
        """Whether the bidders bid in turn order (`auction.next_bidder` is whose bid it is, and the next bid
        is `auction.min_bid`), rather than anyone any amount at any time."""
        return self.rules.auction.in_turn()

    # ------------------------------------------------------------------
    # questions about the decks and the trades

    def random_targets(self) -> list[int]:
        """The spaces a random-move card may send the current player to now."""
        here = self.current.position
        return [i for i in range(self.n_spaces) if i != here and i != self.last_random_target]

    def next_card(self, deck: str) -> str:
        """The top card of a deck (what a draw without a card takes)."""
        return self.decks[deck][0]

    def trades_left_in_move(self) -> int | None:
        """How many more trades the mover may make in this move, where trades are counted by the move (biznes);
        None where they are not."""
        limit = self.rules.trade.per_move_limit()
        return None if limit is None else max(0, limit - self.trades_used)

    def trades_per_turn(self) -> int | None:
        """The trades a turn allows, where a turn's trades are limited (brands); None where they are not."""
        return self.rules.trade.per_turn_limit()

    def shuffled_decks(self) -> bool:
        """Whether the decks come in a random order (the chance filler then draws any card of the deck)."""
        return self.rules.deck.shuffled()

    # ------------------------------------------------------------------
    # tax

    def income_tax(self, p: int, choice: str) -> int:
        if choice == "flat":
            return int(self.options["income_tax_flat"])
        return self.total_worth(p) * int(self.options["income_tax_percent"]) // 100

    # ------------------------------------------------------------------
    # buildings

    def _space_arg(self, a: Mapping[str, Any], verb: str) -> int:
        if "space" not in a:
            raise InvalidAction("action.space_needed", verb=verb)
        return self._space_index(a["space"])

    def _may_manage(self, p: int, verb: str, raising: bool) -> None:
        """Building, mortgages and trades: between decisions, or a debtor raising money."""
        player = self.players[p]
        if player.debts and raising:
            return
        if player.debts:
            raise IllegalAction("rule.in_debt", player=player.name, verb=verb)
        if not self._free_window():
            self._refuse_blocked(verb, p)

    def _build_problem(self, p: int, i: int, kind: str | None, ignore_cash: bool = False) -> IllegalAction | None:
        """Why player p cannot add a building to lot i now (None when they can): the building family's answer,
        which the building auction and the computer players ask too."""
        return building.build_problem(self, p, i, kind, ignore_cash)

    def building_words(self) -> tuple[str, str]:
        """What the ruleset calls a house and a hotel (house/hotel, office/holding, branch/corporation)."""
        return self.rules.building.words()

    def builds_on_visit(self) -> bool:
        """Whether buildings go up on a visit to one's own lot, after the roll, a few a visit (biznes)."""
        return self.rules.building.on_visit()

    def builds_at_turn_start(self) -> bool:
        """Whether buildings go up at the start of one's turn, before rolling, a few a group (brands)."""
        return self.rules.building.at_turn_start()

    def building_auctions(self) -> bool:
        """Whether the bank's last houses and hotels may be auctioned (`building_auction`)."""
        return self.rules.building.building_auctions()

    # ------------------------------------------------------------------
    # debts: how a debtor raises money (banker/mechanics/debt.py carries out the verbs)

    def bank_price(self, i: int) -> int:
        """What the bank pays for property i: half its price plus half the cost of its buildings."""
        return debt.bank_price(self, i)

    def own_auction_reserves(self, p: int, i: int) -> tuple[int, int]:
        """The lowest and highest opening bid player p may set for an auction of space i."""
        return debt.own_auction_reserves(self, p, i)

    def raises_by_selling(self) -> bool:
        """Whether a debtor raises money by own auctions and sales to the bank or a player (biznes's
        `sell_off`: no mortgages; the bank takes a firm of a holding that cannot break up at once) rather
        than by mortgages and trades."""
        return self.rules.debt.raises_by_selling()

    # ------------------------------------------------------------------
    # brands: the casino, the turn timer and pauses

    def has_casino(self) -> bool:
        """Whether the board has a casino space (brands): the jackpot is then part of the bank's state."""
        return self.rules.casino.present()

    def casino_win(self, count: int) -> int:
        """What a casino hit pays on a bet on `count` numbers (option `casino_payout`)."""
        return self.rules.casino.win(count)

    def clocked(self) -> bool:
        """Whether the ruleset runs on the game clock (brands' economy or turn timer)."""
        return self.rules.clock.present()

    # ------------------------------------------------------------------
    # the end

    def _richest(self) -> str | list[str]:
        remaining = [q for q in self.players if not q.bankrupt]
        worth = {q.name: self.net_worth(q.index) for q in remaining}
        best = max(worth.values())
        top = [name for name, w in worth.items() if w == best]
        return top[0] if len(top) == 1 else top

    def _end(self, reason: str, winner: str | list[str]) -> None:
        self.outcome = Outcome(reason, (winner,) if isinstance(winner, str) else tuple(winner))
        self.auction = None
        self.auction_queue = []
        self.turn_over_after_auctions = False
        self.events.append(("game_over", {"reason": reason, "winner": winner}))

    def ranking(self) -> list[tuple[str, int]]:
        """Players still in, richest first, with their net worth; then the bankrupt."""
        alive = sorted((q for q in self.players if not q.bankrupt), key=lambda q: -self.net_worth(q.index))
        out = [(q.name, self.net_worth(q.index)) for q in alive]
        out += [(q.name, 0) for q in self.players if q.bankrupt]
        return out

    # ------------------------------------------------------------------
    # Questions

    def owed(self) -> list[dict[str, Any]]:
        """The decisions the game is waiting for, as in the state's `owed`."""
        if self.outcome is not None:
            return []
        out: list[dict[str, Any]] = []
        if self.deal_owed:
            return [{"player": "bank", "verbs": ["deal"]}]
        a = self.auction
        if a is not None:
            out += self.rules.auction.owed(self, a)
        seen: set[int] = set()
        for q, _ in self.mortgage_owed:
            if q not in seen:
                seen.add(q)
                out.append({"player": self.players[q].name, "verbs": ["keep_mortgage", "unmortgage"]})
        for q, _ in self.build_owed:
            out.append({"player": self.players[q].name, "verbs": ["build"]})
        for debtor in self.players:
            if debtor.debts:
                verbs = self.rules.debt.debtor_verbs(self, debtor.index)
                if verbs:
                    out.append({"player": debtor.name, "verbs": verbs})
        d = self.decision
        cur = self.current
        if d is not None and a is None:
            if d.kind == "buy":
                verbs = ["buy", "decline"] if not cur.debts and cur.cash >= self.prices[d.space] else ["decline"]
            elif d.kind == "card_roll":
                verbs = ["roll"]
            else:
                verbs = [d.kind]
            out.append({"player": cur.name, "verbs": verbs})
        if not out:
            if self.roll_owed:
                verbs = ["roll"]
                if cur.in_jail:
                    if cur.cash >= int(self.options["jail_fine"]):
                        verbs.append("pay_fine")
                    if cur.jail_cards:
                        verbs.append("use_card")
                out.append({"player": cur.name, "verbs": verbs})
            else:
                out.append({"player": cur.name, "verbs": ["end_turn"]})
        return out

    def _has_any(self, p: int, verb: str) -> bool:
        for i in self.ruleset.property_indices:
            if self.owner[i] == p and self._allowed({"do": verb, "space": i, "player": self.players[p].name}):
                return True
        return False

    def legal_actions(self, player: str | None = None) -> list[dict[str, Any]]:
        """Concrete actions that would be accepted now (trades aside: those are composed).

        Chance inputs are left out: a roll is listed as {"do": "roll"}.
        """
        if self.outcome is not None:
            return [{"do": "undo"}] if self.history else []
        candidates: list[dict[str, Any]] = []
        cur = self.current.name
        for q in self.players:
            if q.bankrupt:
                continue
            for verb in self._space_verbs:
                for i in self.ruleset.property_indices:
                    if self.owner[i] == q.index:
                        candidates.append({"do": verb, "player": q.name, "space": i})
            self.rules.debt.add_candidates(self, q, candidates)  # debt = "sell_off": sales to a rival
            if self.auction is not None and q.index in self.auction.bidders:
                candidates.append({"do": "bid", "player": q.name, "amount": self.auction.min_bid})
                candidates.append({"do": "pass", "player": q.name})
            candidates.append({"do": "concede", "player": q.name})
        for verb in ("buy", "decline", "pay_fine", "use_card", "end_turn"):
            candidates.append({"do": verb, "player": cur})
        if self.auction is not None:
            candidates.append({"do": "close_auction"})
        if self.building_auctions():
            for kind in ("house", "hotel"):
                candidates.append({"do": "building_auction", "kind": kind})
        legal = [c for c in candidates if self._allowed(c)]
        d = self.decision
        if (self.roll_owed or (d is not None and d.kind == "card_roll")) and self.can(
                {"do": "roll", "dice": [1] * self.dice_count()}) is None:
            legal.append({"do": "roll", "player": cur})
        if d is not None and d.kind == "draw":
            draw: dict[str, Any] = {"do": "draw", "card": self.decks[d.deck][0]}
            if self.ruleset.card_by_id[draw["card"]].effect == "random_move" and not self.random_moved:
                draw["target"] = self.random_targets()[0]
            if self.can(draw) is None:
                legal.append({"do": "draw", "player": cur})
        if d is not None and d.kind == "tax":
            legal += [{"do": "tax", "player": cur, "choice": c} for c in ("flat", "percent")]
        if d is not None and d.kind == "bus":
            legal += [{"do": "bus", "player": cur, "steps": k} for k in sorted({d.dice[0], d.dice[1], sum(d.dice)})]
        if d is not None and d.kind == "jump":
            legal += [{"do": "jump", "player": cur, "space": i} for i in range(self.n_spaces)]
        if d is not None and d.kind == "casino":
            legal.append({"do": "casino", "player": cur})
            if self.can({"do": "casino", "numbers": [1], "die": 1, "jackpot": False}) is None:
                legal.append({"do": "casino", "player": cur, "numbers": [1]})
        if self.deal_owed:
            legal.append({"do": "deal"})
        if self.history:
            legal.append({"do": "undo"})
        legal.append({"do": "end_game"})
        if player is not None:
            legal = [c for c in legal if c.get("player") == player]
        return legal

    # ------------------------------------------------------------------
    # State

    def to_json(self) -> dict[str, Any]:
        """The state exactly as `banker replay --json` prints it (docs/game-script.md; banker/state.py)."""
        return state.describe(self)

    def money_log(self) -> list[Entry]:
        """Every money movement so far: who paid whom, how much and why."""
        name = self.name
        return [Entry(seq, name(a), name(b), amount, code, params) for seq, a, b, amount, code, params in self.log]

    def iter_properties(self, p: int) -> list[int]:
        """The properties player p owns, by index."""
        owner = self.owner
        return [i for i in self.ruleset.property_indices if owner[i] == p]




# Everything an action can change, copied by banker/undo.py (the compiled build
# has no __dict__ to copy); the rest is fixed at creation. A test checks that
# this list and the constructor agree.
_STATE = (
    "players", "owner", "owner_version", "_groups_cache", "level", "mortgaged", "bank_houses",
    "bank_hotels", "pot", "decks", "turn", "roll_owed", "doubles", "last_roll", "decision", "auction",
    "auction_queue", "turn_over_after_auctions", "mortgage_owed", "build_owed", "deal_owed", "outcome",
    "bankruptcies", "clock", "seq", "log", "events", "history", "rolls",
    "turns", "debtors", "trades_used", "visit_builds", "extra_roll", "random_moved", "last_random_target",
    "action_t", "round", "mortgage_round", "group_builds", "turn_trades", "jackpot", "skipped", "turn_skipped",
    "paused_at", "paused_total", "mr_monopoly",
)


# verb -> (check, do): a module's (the mechanics', the cards'), or else Game's own; module-level so that the
# compiled build (mypyc) can hold it.
_MODULE_HANDLERS = {**MECHANIC_HANDLERS, **cards.HANDLERS, **verbs.HANDLERS}
_HANDLERS: dict[str, tuple[Callable[..., None], Callable[..., None]]] = {
    verb: _MODULE_HANDLERS.get(verb) or (getattr(Game, f"_check_{verb}"), getattr(Game, f"_do_{verb}"))
    for verb in VERBS if verb != "undo"
}
_DOERS: dict[str, Callable[..., None]] = {verb: pair[1] for verb, pair in _HANDLERS.items()}
