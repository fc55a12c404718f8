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

from typing import Any, Callable, Iterator, Mapping, Sequence

from banker.errors import IllegalAction, InvalidAction, SetupError
from banker.mechanics import HANDLERS as MECHANIC_HANDLERS, Mechanics, choose as choose_mechanics
from banker.model import BANK, NO_PARAMS, POT, Auction, Debt, Decision, Entry, Event, Player
from banker.ruleset import OPTION_DEFAULTS, Ruleset, check_option_value

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
        opts = dict(ruleset.options)
        for key, value in (options or {}).items():
            if key not in OPTION_DEFAULTS:
                raise SetupError("setup.unknown_option", option=key)
            opts[key] = check_option_value(
                key, value, lambda problem, k=key: SetupError("setup.bad_option", option=k, problem=problem))
        self.options: dict[str, Any] = opts
        names = list(players)
        if not ruleset.players_min <= len(names) <= ruleset.players_max:
            raise SetupError("setup.player_count", count=len(names), least=ruleset.players_min,
                             most=ruleset.players_max, rules=ruleset.name)
        for name in names:
            if not isinstance(name, str) or not name.strip():
                raise SetupError("setup.bad_name", name=name)
            if name == "bank":
                raise SetupError("setup.bank_name")
        if len(set(names)) != len(names):
            raise SetupError("setup.duplicate_name")
        if opts["teams"] and len(names) != 4:
            raise SetupError("setup.player_count", count=len(names), least=4, most=4, rules=ruleset.name)
        hotel_houses = int(opts["hotel_houses"])
        for s in ruleset.spaces:
            if s.kind == "lot" and len(s.rents) < hotel_houses + 2:
                raise SetupError("setup.short_rents", space=s.name, need=hotel_houses + 2)

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
        mech = ruleset.mechanics
        self.rules: Mechanics = choose_mechanics(mech, opts, self.kinds)  # the variant of each family (banker/mechanics)
        # Auctions in turn order: "stepped" (biznes: exact steps, everyone) or "in_turn"
        # (brands: at least a step more, the decliner left out).
        self.stepped = mech.get("auction") in ("stepped", "in_turn")
        self.exact_bids = mech.get("auction") == "stepped"
        self.turn_start_building = mech.get("building") == "turn_start"
        self.teams = bool(opts["teams"])
        self.refund_percent = int(opts["building_refund_percent"])
        self.visit_building = mech.get("building") == "visit"
        self.sell_off = mech.get("debt") == "sell_off"
        self.has_random_move = any(c.effect == "random_move" for c in ruleset.cards)
        verbs = ["build", "sell"]
        if not self.visit_building:
            verbs.append("sell_all")
        if self.rules.mortgage.allowed():
            verbs += ["mortgage", "unmortgage", "keep_mortgage"]
        if self.sell_off or self.rules.trade.own_auctions() or opts["mortgage_auction_now"]:
            verbs.append("auction_own")
        if self.sell_off:
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
        self.ended = False
        self.end_reason: str | None = None
        self.winner: str | list[str] | None = None
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
        self.rolls = 0
        self.turns = 0  # turns handed on so far
        self.debtors = 0  # number of players with debts: a fast "any debts?"

        if setup:
            self._apply_setup(setup)

    # ------------------------------------------------------------------
    # Setup

    def _apply_setup(self, setup: Mapping[str, Any]) -> None:
        if not isinstance(setup, Mapping):
            raise SetupError("setup.bad", problem="setup must be an object")
        for key in setup:
            if key not in ("players", "spaces"):
                raise SetupError("setup.bad", problem=f"unknown key {key!r}")
        players = setup.get("players", {})
        spaces = setup.get("spaces", {})
        if not isinstance(players, Mapping) or not isinstance(spaces, Mapping):
            raise SetupError("setup.bad", problem="players and spaces must be objects")
        jail_free_cards = [c.id for c in self.ruleset.cards if c.effect == "jail_free"]
        for name, entry in players.items():
            if name not in self.index_of:
                raise SetupError("setup.bad", problem=f"no player {name!r}")
            p = self.players[self.index_of[name]]
            if not isinstance(entry, Mapping):
                raise SetupError("setup.bad", problem=f"players.{name} must be an object")
            for key, value in entry.items():
                where = f"players.{name}.{key}"
                if key == "cash":
                    p.cash = _setup_int(value, where, 0)
                elif key == "position":
                    p.position = _setup_int(value, where, 0, self.n_spaces - 1)
                elif key == "in_jail":
                    p.in_jail = _setup_bool(value, where)
                elif key == "jail_turns":
                    p.jail_turns = _setup_int(value, where, 0, 2)
                elif key == "jail_cards":
                    count = _setup_int(value, where, 0, len(jail_free_cards))
                    p.jail_cards = []
                    for _ in range(count):
                        free = [c for c in jail_free_cards
                                if not any(c in q.jail_cards for q in self.players)]
                        if not free:
                            raise SetupError("setup.bad", problem=f"{where}: no Get Out of Jail Free card is left")
                        p.jail_cards.append(free[0])
                        self._remove_from_deck(free[0])
                else:
                    raise SetupError("setup.bad", problem=f"unknown key {where}")
            if p.in_jail:
                p.position = self.jail_index
            elif p.jail_turns:
                raise SetupError("setup.bad", problem=f"players.{name}.jail_turns needs in_jail")
        for key, entry in spaces.items():
            i = self._setup_space(key)
            if not isinstance(entry, Mapping):
                raise SetupError("setup.bad", problem=f"spaces.{key} must be an object")
            houses = 0
            hotel = False
            for field_name, value in entry.items():
                where = f"spaces.{key}.{field_name}"
                if field_name == "owner":
                    if value is None:
                        self.owner[i] = -1
                    elif value not in self.index_of:
                        raise SetupError("setup.bad", problem=f"{where}: no player {value!r}")
                    else:
                        self.owner[i] = self.index_of[value]
                elif field_name == "houses":
                    houses = _setup_int(value, where, 0, self.hotel_houses)
                elif field_name == "hotel":
                    hotel = _setup_bool(value, where)
                elif field_name == "mortgaged":
                    self.mortgaged[i] = _setup_bool(value, where)
                    if self.mortgaged[i] and not self.rules.mortgage.allowed():
                        raise SetupError("setup.rule", problem=f"{where}: there are no mortgages in {self.ruleset.name}")
                else:
                    raise SetupError("setup.bad", problem=f"unknown key {where}")
            if hotel and houses:
                raise SetupError("setup.bad", problem=f"spaces.{key}: a lot with a hotel has no houses")
            level = self.hotel_level if hotel else houses
            if level and self.kinds[i] != "lot":
                raise SetupError("setup.bad", problem=f"spaces.{key}: only lots take buildings")
            self.level[i] = level
        # Check the whole position like any other state.
        for i in self.ruleset.property_indices:
            name = self.ruleset.spaces[i].name
            if self.owner[i] < 0 and (self.level[i] or self.mortgaged[i]):
                raise SetupError("setup.rule", problem=f"{name} has no owner but has buildings or a mortgage")
            if self.mortgaged[i] and self.level[i]:
                raise SetupError("setup.rule", problem=f"{name} is mortgaged and has buildings")
        for group, members in self.group_members.items():
            levels = [self.level[i] for i in members]
            if max(levels) == 0:
                continue
            owners = {self.owner[i] for i in members}
            first = self.ruleset.spaces[members[0]].name
            if len(owners) != 1:
                raise SetupError("setup.rule", problem=f"buildings on {first}'s group need one owner of the whole group")
            if any(self.mortgaged[i] for i in members):
                raise SetupError("setup.rule", problem=f"buildings in {first}'s group with a lot mortgaged")
            if max(levels) - min(levels) > 1 and self.options["build_evenly"]:
                raise SetupError("setup.rule", problem=f"buildings in {first}'s group are not even")
        self.bank_houses -= sum(lv for lv in self.level if lv <= self.hotel_houses)
        self.bank_hotels -= sum(1 for lv in self.level if lv == self.hotel_level)
        if self.bank_houses < 0 or self.bank_hotels < 0:
            raise SetupError("setup.rule", problem=(
                f"more buildings on the board than the bank holds ({self.options['houses']} houses, "
                f"{self.options['hotels']} hotels)"))

    def _setup_space(self, key: Any) -> int:
        try:
            return self._space_index(key)
        except InvalidAction:
            raise SetupError("setup.bad", problem=f"no space {key!r}") from None

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
            if value.isdigit() and int(value) < self.n_spaces:
                return int(value)
            found = self.ruleset.space_index(value)
            if found is not None:
                return found
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
        t = action.get("t")
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or t < 0):
            raise InvalidAction("action.bad_time", value=t)
        if verb == "undo":
            self.undo(record=dict(action))
            return []
        if self.ended:
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
                self._rebuild(self.history)
                raise
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
        if verb not in VERB_FIELDS:
            raise InvalidAction("action.unknown_verb", verb=verb)
        for key in action:
            if key not in COMMON_FIELDS and key not in VERB_FIELDS[verb]:
                raise InvalidAction("action.unknown_field", verb=verb, field=key)
        if verb == "undo":
            if not self.history:
                raise IllegalAction("rule.nothing_to_undo")
            return
        if self.ended:
            raise IllegalAction("rule.game_over", verb=verb)
        if self.paused_at >= 0 and verb not in ("resume", "end_game"):
            raise IllegalAction("rule.paused_now", verb=verb)
        actor = self._actor(verb, action)
        _HANDLERS[verb][0](self, actor, action)

    def undo(self, record: dict[str, Any] | None = None) -> None:
        """Take back the latest action not yet taken back."""
        if not self.history:
            raise IllegalAction("rule.nothing_to_undo")
        script = self.script
        self._rebuild(self.history[:-1])
        self.script = script
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
            self._rebuild([])
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

    def _rebuild(self, actions: list[dict[str, Any]]) -> None:
        fresh = self.new_like()
        for a in actions:
            fresh.apply(a)
        for name in _STATE:
            setattr(self, name, getattr(fresh, name))

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
            if a is not None and self.stepped and a.next_bidder >= 0:
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
                and not self.ended and not self.current.in_jail and not self.current.bankrupt):
            self._mr_monopoly_move()
            if self.debtors:
                for p in self.players:
                    if p.debts:
                        self._settle(p)
        if self.turn_over_after_auctions and self.auction is None and not self.auction_queue and not self.ended:
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
        stop = int(self.options["salary_stop_minutes"])
        return not stop or self.economy_minutes() < stop

    def rent_tax_percent(self) -> int:
        """brands: the tax on collected rent now (0 before it starts)."""
        start = int(self.options["rent_tax_start_minutes"])
        if not start:
            return 0
        minutes = self.economy_minutes()
        if minutes < start:
            return 0
        steps = int((minutes - start) // int(self.options["rent_tax_step_minutes"]))
        pct = int(self.options["rent_tax_start_percent"]) + steps * int(self.options["rent_tax_step_percent"])
        return min(pct, int(self.options["rent_tax_max_percent"]))

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
                self.decision = Decision("buy", space=i)
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
            self.decision = Decision("casino", space=i)
            return
        if kind == "card":
            self.decision = Decision("draw", deck=self.ruleset.spaces[i].deck)  # type: ignore[arg-type]
        elif kind == "tax_choice":
            self.decision = Decision("tax", space=i)
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
        if self.allies(payer, owner):
            return
        self._charge(payer, owner, rent, "rent", self.space_params[i])
        if not self.players[payer].debts:  # paid now (owed, it is taxed when the debt is paid)
            self._rent_tax(owner, rent, self.space_params[i])

    def _rent_tax(self, owner: int, rent: int, params: dict[str, Any]) -> None:
        """brands: the tax on rent the owner has just collected, at the rate of the moment it is collected."""
        pct = self.rent_tax_percent()
        if pct and rent:
            self._transfer(owner, BANK, rent * pct // 100, "rent_tax", params)

    def allies(self, p: int, q: int) -> bool:
        """brands-teams: seats 1 and 3 play against 2 and 4."""
        return self.teams and p != q and p % 2 == q % 2

    def _remove_from_deck(self, card_id: str) -> None:
        for deck in self.decks.values():
            if card_id in deck:
                deck.remove(card_id)
                return

    def _return_card(self, card_id: str) -> None:
        """A used or returned Get Out of Jail Free card goes under its deck."""
        self.decks[self.ruleset.card_by_id[card_id].deck].append(card_id)

    # ------------------------------------------------------------------
    # deal

    def _check_deal(self, p: int, a: Mapping[str, Any]) -> None:
        if not self.deal_owed:
            raise IllegalAction("rule.no_deal")
        deeds = a.get("deeds")
        if deeds is None:
            raise IllegalAction("rule.chance_needed", verb="deal", what="deeds")
        self._parse_deeds(deeds)

    def _parse_deeds(self, deeds: Any) -> dict[int, list[int]]:
        if not isinstance(deeds, Mapping):
            raise InvalidAction("action.bad_field", field="deeds", problem="must map players to lists of spaces")
        want = int(self.options["deal_deeds"])
        result: dict[int, list[int]] = {}
        seen: set[int] = set()
        for name, spaces in deeds.items():
            p = self._player_index(name)
            if not isinstance(spaces, list):
                raise InvalidAction("action.bad_field", field="deeds", problem=f"{name}: must be a list of spaces")
            idx = [self._space_index(s) for s in spaces]
            for i in idx:
                if self.kinds[i] not in ("lot", "railroad", "utility"):
                    raise IllegalAction("rule.deal_not_property", space=self.space_name(i))
                if i in seen or self.owner[i] >= 0:
                    raise IllegalAction("rule.deal_twice", space=self.space_name(i))
                seen.add(i)
            result[p] = idx
        if self.options["deal_all"]:
            # brands-showdown: the whole board, dealt round the table from the first player, free.
            players = [q for q in self.players if not q.bankrupt]
            total = len(self.ruleset.property_indices)
            for k, player in enumerate(players):
                count = total // len(players) + (1 if k < total % len(players) else 0)
                if len(result.get(player.index, [])) != count:
                    raise IllegalAction("rule.deal_count", player=player.name, count=count)
            return result
        for player in self.players:
            if player.bankrupt:
                continue
            if len(result.get(player.index, [])) != want:
                raise IllegalAction("rule.deal_count", player=player.name, count=want)
        return result

    def _do_deal(self, p: int, a: Mapping[str, Any]) -> None:
        for q, spaces in self._parse_deeds(a["deeds"]).items():
            for i in spaces:
                self.owner[i] = q
                self.owner_version += 1
                if not self.options["deal_all"]:  # a dealt board (showdown) costs nothing
                    self._charge(q, BANK, self.prices[i], "deal", self.space_params[i])
        self.deal_owed = False
        self.events.append(("dealt", {}))

    # ------------------------------------------------------------------
    # roll

    def _parse_dice(self, a: Mapping[str, Any], verb: str = "roll") -> tuple[int, ...]:
        dice = a.get("dice")
        if dice is None:
            raise IllegalAction("rule.chance_needed", verb=verb, what="dice")
        n = self.ruleset.dice
        d = self.decision
        if self.speed_die_active() and not (d is not None and d.kind == "card_roll"):
            n += 1  # brands-fast and -showdown: the speed die joins from its round on
        if (not isinstance(dice, (list, tuple)) or len(dice) != n
                or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
            raise InvalidAction("action.bad_dice", dice=dice, count=n)
        return tuple(dice)

    def speed_die_active(self) -> bool:
        """The speed die is rolled from round `speed_die_round` on (counting rounds from 1)."""
        start = int(self.options["speed_die_round"])
        return bool(start) and self.round + 1 >= start

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
        if self.speed_die_active():  # the third die is the speed die: 1-3 steps, 4-5 Mr. Monopoly, 6 the bus
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
            if player.jail_turns >= 3:
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
                self.decision = Decision("jump")  # a triple: jump to any space
                self.events.append(("speed_die", {"player": player.name, "face": "triple"}))
                return
            if speed == 6:
                self.decision = Decision("bus", dice=(dice[0], dice[1]))  # the bus: by either die or their sum
                self.events.append(("speed_die", {"player": player.name, "face": "bus"}))
                return
            if speed >= 4:
                self.mr_monopoly = True  # after this landing is settled
                self.events.append(("speed_die", {"player": player.name, "face": "mr_monopoly"}))
            else:
                total += speed
        self._move_forward(player, total)

    # ------------------------------------------------------------------
    # buy / decline

    def _check_buy(self, p: int, a: Mapping[str, Any]) -> None:
        self._require_current(p, "buy")
        d = self.decision
        if d is None or d.kind != "buy":
            raise IllegalAction("rule.nothing_to_buy", player=self.players[p].name)
        player = self.players[p]
        if player.debts:
            raise IllegalAction("rule.in_debt", player=player.name, verb="buy")
        if player.cash < self.prices[d.space]:
            raise IllegalAction("rule.cannot_afford", player=player.name, space=self.space_name(d.space),
                                price=self.prices[d.space], cash=player.cash)

    def _do_buy(self, p: int, a: Mapping[str, Any]) -> None:
        i = self.decision.space  # type: ignore[union-attr]
        self._pay_bank(p, self.prices[i], "buy", self.space_params[i])
        self.owner[i] = p
        self.owner_version += 1
        self.decision = None

    def _check_decline(self, p: int, a: Mapping[str, Any]) -> None:
        self._require_current(p, "decline")
        d = self.decision
        if d is None or d.kind != "buy":
            raise IllegalAction("rule.nothing_to_buy", player=self.players[p].name)

    def _do_decline(self, p: int, a: Mapping[str, Any]) -> None:
        i = self.decision.space  # type: ignore[union-attr]
        self.decision = None
        self.events.append(("declined", {"player": self.players[p].name, "space": self.space_name(i)}))
        if self.options["auction_on_decline"]:
            self._start_property_auction(i, decliner=p)

    # ------------------------------------------------------------------
    # auctions

    def _bidders_from_current(self) -> list[int]:
        n = len(self.players)
        order = [(self.turn + k) % n for k in range(n)]
        return [q for q in order if not self.players[q].bankrupt]

    def _start_property_auction(self, i: int, decliner: int = -1) -> None:
        """The bank auctions space i (after `decliner` declined it, or a bankruptcy or a lapsed mortgage)."""
        bidders = self._bidders_from_current()
        if self.stepped:
            if not self.exact_bids and decliner >= 0:
                bidders = [q for q in bidders if q != decliner]  # brands: the decliner takes no part
            pct = int(self.options["auction_start_percent"])
            opening = -(-self.prices[i] * pct // 100)
            self.auction = Auction(space=i, kind="property", bidders=bidders, min_bid=opening,
                                   next_bidder=bidders[0] if bidders else -1, opened_at=self.action_t)
            self.events.append(("auction", {"space": self.space_names[i], "start": opening}))
            self._auction_changed()
            return
        self.auction = Auction(space=i, kind="property", bidders=bidders)
        self.events.append(("auction", self.space_params[i]))

    def _auction_for(self, p: int, high_code: str) -> Auction:
        """The running auction, if player p may still bid or pass in it."""
        auction = self.auction
        name = self.players[p].name
        if auction is None:
            raise IllegalAction("rule.no_auction", player=name)
        if p not in auction.bidders:
            raise IllegalAction("rule.not_bidding", player=name)
        if p == auction.high_bidder and not (self.stepped and high_code == "rule.high_bidder_cannot_pass"):
            raise IllegalAction(high_code, player=name, amount=auction.high_bid)
        return auction

    def _check_bid(self, p: int, a: Mapping[str, Any]) -> None:
        auction = self._auction_for(p, "rule.already_high")
        player = self.players[p]
        name = player.name
        if player.debts:
            raise IllegalAction("rule.in_debt", player=name, verb="bid")
        amount = a.get("amount")
        if self.stepped:
            if p != auction.next_bidder:
                raise IllegalAction("rule.not_next_bidder", player=name,
                                    next=self.players[auction.next_bidder].name)
            if amount is None:
                amount = auction.min_bid
        if amount is None:
            raise InvalidAction("action.amount_needed", player=name)
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise InvalidAction("action.bad_field", field="amount", problem="must be a whole number")
        if self.exact_bids and amount != auction.min_bid:
            raise IllegalAction("rule.bid_exact", player=name, amount=amount, bid=auction.min_bid,
                                step=self.auction_step)
        if amount < auction.min_bid:
            raise IllegalAction("rule.bid_too_low", player=name, amount=amount, least=auction.min_bid)
        if amount > player.cash:
            raise IllegalAction("rule.bid_over_cash", player=name, amount=amount, cash=player.cash)

    def _do_bid(self, p: int, a: Mapping[str, Any]) -> None:
        auction = self.auction
        assert auction is not None
        amount = a.get("amount")
        amount = auction.min_bid if amount is None else int(amount)
        auction.high_bid = amount
        auction.high_bidder = p
        self.events.append(("bid", {"player": self.players[p].name, "amount": amount}))
        if self.stepped:
            auction.min_bid = amount + self.auction_step
            auction.next_bidder = self._bidder_after(auction, p)
            self._auction_changed()
            return
        auction.min_bid = amount + 1
        self._auction_maybe_over()

    def _check_pass(self, p: int, a: Mapping[str, Any]) -> None:
        self._auction_for(p, "rule.high_bidder_cannot_pass")

    def _do_pass(self, p: int, a: Mapping[str, Any]) -> None:
        auction = self.auction
        assert auction is not None
        auction.bidders.remove(p)
        self.events.append(("passed", {"player": self.players[p].name}))
        if self.stepped:
            if auction.next_bidder == p:
                auction.next_bidder = self._bidder_after(auction, p)
            self._auction_changed()
            return
        self._auction_maybe_over()

    def _bidder_after(self, auction: Auction, p: int) -> int:
        """The next player round the table after p who is still in and not the high bidder (-1: none)."""
        n = len(self.players)
        for k in range(1, n + 1):
            q = (p + k) % n
            if q in auction.bidders and q != auction.high_bidder:
                return q
        return -1

    def _auction_changed(self) -> None:
        """Stepped auctions: pass whoever cannot make the next bid, then end the auction if it is over."""
        auction = self.auction
        assert auction is not None
        for q in list(auction.bidders):
            if q == auction.high_bidder:
                continue
            player = self.players[q]
            if player.debts or player.cash < auction.min_bid:
                auction.bidders.remove(q)
                self.events.append(("passed", {"player": player.name,
                                               "reason": "debt" if player.debts else "cash"}))
                if auction.next_bidder == q:
                    auction.next_bidder = self._bidder_after(auction, q)
        if auction.next_bidder >= 0 and (auction.next_bidder not in auction.bidders
                                         or auction.next_bidder == auction.high_bidder):
            auction.next_bidder = self._bidder_after(auction, auction.next_bidder)
        self._auction_maybe_over()

    def _check_close_auction(self, p: int, a: Mapping[str, Any]) -> None:
        auction = self.auction
        if auction is None:
            raise IllegalAction("rule.no_auction", player=self.players[p].name)
        if self.stepped and auction.high_bidder >= 0:
            raise IllegalAction("rule.close_after_bid", bidder=self.players[auction.high_bidder].name,
                                amount=auction.high_bid)

    def _do_close_auction(self, p: int, a: Mapping[str, Any]) -> None:
        auction = self.auction
        assert auction is not None
        if self.stepped and auction.high_bidder < 0:
            self.events.append(("auction_cancelled", {"space": self.space_name(auction.space)}))
        self._finish_auction()

    def _auction_maybe_over(self) -> None:
        auction = self.auction
        assert auction is not None
        high = auction.high_bidder
        if not any(b != high for b in auction.bidders):
            self._finish_auction()

    def _finish_auction(self) -> None:
        auction = self.auction
        assert auction is not None
        self.auction = None
        winner = auction.high_bidder
        if auction.kind == "own":
            i = auction.space
            seller = auction.seller
            if winner >= 0:
                self._transfer(winner, seller, auction.high_bid, "own_auction", self.space_params[i])
                self.owner[i] = winner
                self.owner_version += 1
                self.events.append(("sold", {"player": self.players[winner].name,
                                             "space": self.space_name(i), "amount": auction.high_bid}))
            else:
                self.events.append(("unsold_own", {"player": self.players[seller].name,
                                                   "space": self.space_name(i)}))
        elif auction.kind == "property":
            i = auction.space
            if winner >= 0:
                self._charge(winner, BANK, auction.high_bid, "auction", self.space_params[i])
                self.owner[i] = winner
                self.owner_version += 1
                self.mortgaged[i] = False
                self.events.append(("sold", {"player": self.players[winner].name,
                                                  "space": self.space_name(i), "amount": auction.high_bid}))
            else:
                self.events.append(("unsold", self.space_params[i]))
        elif winner >= 0:
            self._charge(winner, BANK, auction.high_bid, "building_auction", {"kind": auction.kind})
            self.build_owed.append((winner, auction.kind))
            self.events.append(("building_won", {"player": self.players[winner].name,
                                                      "kind": auction.kind, "amount": auction.high_bid}))
        if self.auction_queue:
            self._start_property_auction(self.auction_queue.pop(0))

    def _check_building_auction(self, p: int, a: Mapping[str, Any]) -> None:
        if self.visit_building or self.turn_start_building:
            raise IllegalAction("rule.no_building_auctions", rules=self.ruleset.name)
        kind = a.get("kind")
        if kind not in ("house", "hotel"):
            raise InvalidAction("action.bad_field", field="kind", problem='must be "house" or "hotel"')
        if not self._free_window():
            self._refuse_blocked("building_auction", p)
            raise IllegalAction("rule.blocked_auction", verb="building_auction", player=self.players[p].name)
        left = self.bank_houses if kind == "house" else self.bank_hotels
        if left == 0:
            raise IllegalAction("rule.bank_out_of", kind=kind)
        if len(self._building_bidders(kind)) < 2:
            raise IllegalAction("rule.no_building_shortage", kind=kind)

    def _building_bidders(self, kind: str) -> list[int]:
        result = []
        for q in self._bidders_from_current():
            for i in self.ruleset.property_indices:
                if self.owner[i] == q and self.kinds[i] == "lot" and self._build_problem(q, i, kind, True) is None:
                    result.append(q)
                    break
        return result

    def _do_building_auction(self, p: int, a: Mapping[str, Any]) -> None:
        kind = str(a["kind"])
        bidders = self._building_bidders(kind)
        cheapest = min(self.ruleset.spaces[i].building_cost for i in self.ruleset.property_indices
                       if self.owner[i] in bidders and self.kinds[i] == "lot"
                       and self._build_problem(self.owner[i], i, kind, True) is None)
        self.auction = Auction(space=-1, kind=kind, bidders=bidders, min_bid=cheapest)
        self.events.append(("building_auction", {"kind": kind, "start": cheapest}))

    # ------------------------------------------------------------------
    # draw

    def _check_draw(self, p: int, a: Mapping[str, Any]) -> None:
        self._require_current(p, "draw")
        d = self.decision
        if d is None or d.kind != "draw":
            raise IllegalAction("rule.no_draw_owed", player=self.players[p].name)
        card = a.get("card")
        if card is None:
            raise IllegalAction("rule.chance_needed", verb="draw", what="card")
        found = self.ruleset.card_by_id.get(card) if isinstance(card, str) else None
        if found is None:
            raise InvalidAction("action.unknown_card", card=card)
        if found.deck != d.deck:
            raise IllegalAction("rule.wrong_deck", card=card, deck=self.ruleset.decks[d.deck]["name"])
        if card not in self.decks[found.deck]:
            holder = next((q.name for q in self.players if card in q.jail_cards), "?")
            raise IllegalAction("rule.card_held", card=card, holder=holder)
        target = a.get("target")
        if found.effect == "random_move" and not self.random_moved:
            if target is None:
                raise IllegalAction("rule.chance_needed", verb="draw", what="target")
            i = self._space_index(target)
            if i == self.players[p].position:
                raise IllegalAction("rule.random_target_here", space=self.space_name(i))
            if i == self.last_random_target:
                raise IllegalAction("rule.random_target_last", space=self.space_name(i))
        elif target is not None:
            raise InvalidAction("action.bad_field", field="target",
                                problem="only a random-move card that moves the player takes a target")

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

    def _do_draw(self, p: int, a: Mapping[str, Any]) -> None:
        card = self.ruleset.card_by_id[a["card"]]
        player = self.players[p]
        deck = self.decks[card.deck]
        deck.remove(card.id)
        if card.effect == "random_move" and self.random_moved:
            # A second random move in the same roll is skipped: the card goes under, the draw stays owed.
            deck.append(card.id)
            self.events.append(("card_skipped", {"player": player.name, "card": card.id, "text": card.text}))
            return
        self.decision = None
        self.events.append(("card", {"player": player.name, "card": card.id, "text": card.text}))
        effect = card.effect
        self.rules.deck.after_draw(self, deck, card)
        if effect == "jail_free":
            player.jail_cards.append(card.id)
            return
        if effect == "money":
            if card.amount >= 0:
                self._transfer(BANK, p, card.amount, "card", {"card": card.id})
                if player.debts:
                    self._settle(player)
            else:
                self._charge(p, BANK, -card.amount, "card", {"card": card.id}, pot=True)
        elif effect == "collect_each":
            for q in self.players:
                if q.index != p and not q.bankrupt:
                    if card.amount >= 0:
                        self._charge(q.index, p, card.amount, "card", {"card": card.id})
                    else:
                        self._charge(p, q.index, -card.amount, "card", {"card": card.id})
        elif effect == "repairs":
            houses = hotels = 0
            for i in self.ruleset.property_indices:
                if self.owner[i] == p and self.level[i]:
                    if self.level[i] == self.hotel_level:
                        hotels += 1
                    else:
                        houses += self.level[i]
            amount = houses * card.per_house + hotels * card.per_hotel
            self._charge(p, BANK, amount, "card", {"card": card.id}, pot=True)
        elif effect == "go_to_jail":
            self._send_to_jail(player)
        elif effect == "advance":
            self._move_to(player, card.to)
        elif effect == "destroy_building":
            built = [i for i in self.ruleset.property_indices if self.owner[i] == p and self.level[i]]
            if built:  # the most built lot of the drawer loses one building, for nothing
                i = max(built, key=lambda j: self.level[j])
                if self.level[i] == self.hotel_level:  # a corporation comes down to its branches
                    self.bank_hotels += 1
                    keep = self.hotel_houses if self.bank_houses >= self.hotel_houses else 0
                    self.bank_houses -= keep
                    self.level[i] = keep
                else:
                    self.level[i] -= 1
                    self.bank_houses += 1
                self.events.append(("building_destroyed", {"player": player.name, "space": self.space_name(i)}))
        elif effect == "random_move":
            target = self._space_index(a["target"])
            self.random_moved = True
            self.last_random_target = target
            player.position = target
            if target == 0:
                self._salary(player)  # landing straight on the start pays; passing it does not
            self._land(player, target)
        elif effect == "back":
            target = (player.position - card.steps) % self.n_spaces
            player.position = target
            self._land(player, target)
        elif effect == "nearest":
            n = self.n_spaces
            target = next((player.position + k) % n for k in range(1, n + 1)
                          if self.kinds[(player.position + k) % n] == card.kind)
            if target <= player.position:
                self._salary(player)
            player.position = target
            self.visit_builds = 0
            self.events.append(("moved", {"player": player.name, "space": self.space_name(target),
                                               "index": target}))
            owner = self.owner[target]
            if owner < 0:
                self.decision = Decision("buy", space=target)
            elif owner != p and not self.mortgaged[target]:
                if card.dice_multiplier:
                    self.decision = Decision("card_roll", space=target, multiplier=card.dice_multiplier)
                else:
                    rent = self.rent_due(target, self.last_roll, rent_multiplier=card.rent_multiplier)
                    self._pay_rent(p, target, rent)

    # ------------------------------------------------------------------
    # tax

    def _check_tax(self, p: int, a: Mapping[str, Any]) -> None:
        self._require_current(p, "tax")
        d = self.decision
        if d is None or d.kind != "tax":
            raise IllegalAction("rule.no_tax_owed", player=self.players[p].name)
        if a.get("choice") not in ("flat", "percent"):
            raise InvalidAction("action.bad_field", field="choice", problem='must be "flat" or "percent"')

    def income_tax(self, p: int, choice: str) -> int:
        if choice == "flat":
            return int(self.options["income_tax_flat"])
        return self.total_worth(p) * int(self.options["income_tax_percent"]) // 100

    def _do_tax(self, p: int, a: Mapping[str, Any]) -> None:
        i = self.decision.space  # type: ignore[union-attr]
        self.decision = None
        amount = self.income_tax(p, a["choice"])
        self._charge(p, BANK, amount, "tax", {"space": self.space_name(i), "choice": a["choice"]}, pot=True)

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
        """Why player p cannot add a building to lot i now (None when they can)."""
        name = self.players[p].name
        space = self.ruleset.spaces[i]
        if space.kind != "lot":
            return IllegalAction("rule.not_buildable", player=name, space=space.name)
        if self.owner[i] != p:
            return IllegalAction("rule.not_owner", player=name, space=space.name)
        members = self.group_members[space.group]  # type: ignore[index]
        for j in members:
            if self.owner[j] != p:
                return IllegalAction("rule.build_group", player=name, space=space.name,
                                     missing=self.space_name(j))
        for j in members:
            if self.mortgaged[j]:
                return IllegalAction("rule.build_mortgaged", player=name, space=space.name,
                                     mortgaged=self.space_name(j))
        lv = self.level[i]
        if lv == self.hotel_level:
            return IllegalAction("rule.build_max", player=name, space=space.name)
        low = min(self.level[j] for j in members)
        if lv > low and self.options["build_evenly"]:
            behind = next(j for j in members if self.level[j] == low)
            return IllegalAction("rule.build_even_first" if low == 0 else "rule.build_even", player=name,
                                 space=space.name, other=self.space_name(behind), houses=low)
        hotel = lv == self.hotel_houses
        if kind is not None and (kind == "hotel") != hotel:
            return IllegalAction("rule.build_kind", player=name, space=space.name, kind=kind)
        if hotel:
            if self.bank_hotels - self._reserved("hotel", p) <= 0:
                return IllegalAction("rule.bank_out_of", kind="holding" if self.visit_building else "hotel")
        elif self.bank_houses - self._reserved("house", p) <= 0:
            return IllegalAction("rule.bank_out_of", kind="office" if self.visit_building else "house")
        if (self.options["build_only_on_visit"] and self.players[p].position != i
                and not any(q == p for q, _ in self.build_owed)):
            return IllegalAction("rule.build_on_visit", player=name, space=space.name)
        if not ignore_cash and not self._owed_build(p, "hotel" if hotel else "house"):
            if self.players[p].cash < space.building_cost:
                return IllegalAction("rule.cannot_afford", player=name, space=space.name,
                                     price=space.building_cost, cash=self.players[p].cash)
        return None

    def _reserved(self, kind: str, p: int) -> int:
        """Buildings won at auction by others and not yet built: not for sale."""
        return sum(1 for q, k in self.build_owed if k == kind and q != p)

    def _owed_build(self, p: int, kind: str) -> bool:
        return (p, kind) in self.build_owed

    def _check_build(self, p: int, a: Mapping[str, Any]) -> None:
        i = self._space_arg(a, "build")
        if self.visit_building:
            self._check_visit_build(p, i)
            return
        if self.turn_start_building:
            self._check_turn_start_build(p, i)
            return
        won = any(q == p for q, _ in self.build_owed)
        if not won:  # the winner of a building auction builds what they won at once
            self._may_manage(p, "build", raising=False)
        problem = self._build_problem(p, i, None)
        if problem is not None:
            raise problem
        if won:
            kind = "hotel" if self.level[i] == self.hotel_houses else "house"
            if not self._owed_build(p, kind):
                owed_kind = next(k for q, k in self.build_owed if q == p)
                raise IllegalAction("rule.build_kind", player=self.players[p].name,
                                    space=self.space_name(i), kind=owed_kind)

    def _check_visit_build(self, p: int, i: int) -> None:
        """Building = "visit": the player whose move it is, after the roll, on the lot under the token."""
        name = self.players[p].name
        self._may_manage(p, "build", raising=False)
        if p != self.turn:
            raise IllegalAction("rule.not_your_move", player=name, verb="build", current=self.current.name)
        if self.roll_owed:
            raise IllegalAction("rule.build_before_roll", player=name)
        if self.players[p].position != i:
            raise IllegalAction("rule.build_on_visit", player=name, space=self.space_name(i))
        if self.visit_builds >= int(self.options["builds_per_visit"]):
            raise IllegalAction("rule.build_once_per_visit", player=name, space=self.space_name(i),
                                count=int(self.options["builds_per_visit"]))
        problem = self._build_problem(p, i, None)
        if problem is not None:
            raise problem

    def _check_turn_start_build(self, p: int, i: int) -> None:
        """Building = "turn_start" (brands): the player whose turn it is, before rolling, once per group a turn."""
        name = self.players[p].name
        self._may_manage(p, "build", raising=False)
        if p != self.turn:
            raise IllegalAction("rule.not_your_move", player=name, verb="build", current=self.current.name)
        if not self.roll_owed:
            raise IllegalAction("rule.build_after_roll", player=name)
        most = int(self.options["builds_per_group_turn"])
        group = self.groups[i]
        if most and group is not None and self.group_builds.get(group, 0) >= most:
            raise IllegalAction("rule.build_once_per_turn", player=name, space=self.space_name(i), count=most)
        problem = self._build_problem(p, i, None)
        if problem is not None:
            raise problem

    def _do_build(self, p: int, a: Mapping[str, Any]) -> None:
        i = self._space_index(a["space"])
        space = self.ruleset.spaces[i]
        self.visit_builds += 1
        if space.group is not None:
            self.group_builds[space.group] = self.group_builds.get(space.group, 0) + 1
        hotel = self.level[i] == self.hotel_houses
        kind = "hotel" if hotel else "house"
        if self._owed_build(p, kind):
            self.build_owed.remove((p, kind))
        else:
            self._pay_bank(p, space.building_cost, "build", {"space": space.name, "kind": kind})
        if hotel:
            self.bank_hotels -= 1
            self.bank_houses += self.hotel_houses
            self.level[i] = self.hotel_level
        else:
            self.bank_houses -= 1
            self.level[i] += 1
        self.events.append(("built", {"player": self.players[p].name, "space": space.name, "kind": kind}))

    def _check_sell(self, p: int, a: Mapping[str, Any]) -> None:
        i = self._space_arg(a, "sell")
        self._may_manage(p, "sell", raising=True)
        if self.visit_building and p != self.turn and not self.players[p].debts:
            raise IllegalAction("rule.not_your_move", player=self.players[p].name, verb="sell",
                                current=self.current.name)
        name = self.players[p].name
        space = self.ruleset.spaces[i]
        if self.owner[i] != p:
            raise IllegalAction("rule.not_owner", player=name, space=space.name)
        lv = self.level[i]
        if lv == 0:
            raise IllegalAction("rule.no_building", player=name, space=space.name)
        members = self.group_members[space.group]  # type: ignore[index]
        high = max(self.level[j] for j in members)
        if lv < high and self.options["build_evenly"]:
            ahead = next(j for j in members if self.level[j] == high)
            raise IllegalAction("rule.sell_even", player=name, space=space.name, other=self.space_name(ahead))
        if lv == self.hotel_level and self.bank_houses - self._reserved("house", p) < self.hotel_houses:
            raise IllegalAction("rule.holding_breakdown" if self.visit_building else "rule.hotel_breakdown",
                                player=name, space=space.name, need=self.hotel_houses, left=self.bank_houses)

    def _do_sell(self, p: int, a: Mapping[str, Any]) -> None:
        i = self._space_index(a["space"])
        space = self.ruleset.spaces[i]
        if self.level[i] == self.hotel_level:
            self.level[i] = self.hotel_houses
            self.bank_hotels += 1
            self.bank_houses -= self.hotel_houses
            kind = "hotel"
        else:
            self.level[i] -= 1
            self.bank_houses += 1
            kind = "house"
        self._transfer(BANK, p, self.building_refund(i), "sell", {"space": space.name, "kind": kind})
        self.events.append(("sold_building", {"player": self.players[p].name, "space": space.name,
                                                   "kind": kind}))

    def _check_sell_all(self, p: int, a: Mapping[str, Any]) -> None:
        if self.visit_building:
            raise IllegalAction("rule.no_sell_all", rules=self.ruleset.name)
        i = self._space_arg(a, "sell_all")
        self._may_manage(p, "sell_all", raising=True)
        name = self.players[p].name
        space = self.ruleset.spaces[i]
        if self.owner[i] != p:
            raise IllegalAction("rule.not_owner", player=name, space=space.name)
        if space.kind != "lot" or not any(self.level[j] for j in self.group_members[space.group]):  # type: ignore[index]
            raise IllegalAction("rule.no_building", player=name, space=space.name)

    def _do_sell_all(self, p: int, a: Mapping[str, Any]) -> None:
        i = self._space_index(a["space"])
        space = self.ruleset.spaces[i]
        total = 0
        for j in self.group_members[space.group]:  # type: ignore[index]
            total += self.buildings_sale_value(j)
            self._return_buildings(j)
        self._transfer(BANK, p, total, "sell_all", {"space": space.name})
        self.events.append(("sold_all", {"player": self.players[p].name, "space": space.name}))

    # ------------------------------------------------------------------
    # mortgages

    def _require_mortgages(self) -> None:
        if not self.rules.mortgage.allowed():  # biznes: none
            raise IllegalAction("rule.no_mortgages", rules=self.ruleset.name)

    def _check_mortgage(self, p: int, a: Mapping[str, Any]) -> None:
        self._require_mortgages()
        i = self._space_arg(a, "mortgage")
        self._may_manage(p, "mortgage", raising=True)
        name = self.players[p].name
        space = self.ruleset.spaces[i]
        if self.owner[i] != p:
            raise IllegalAction("rule.not_owner", player=name, space=space.name)
        if self.mortgaged[i]:
            raise IllegalAction("rule.already_mortgaged", player=name, space=space.name)
        if space.group is not None and space.kind == "lot":
            for j in self.group_members[space.group]:
                if self.level[j]:
                    raise IllegalAction("rule.mortgage_buildings", player=name, space=space.name,
                                        other=self.space_name(j))

    def _do_mortgage(self, p: int, a: Mapping[str, Any]) -> None:
        i = self._space_index(a["space"])
        self.mortgaged[i] = True
        self.mortgage_round[i] = self.round
        self._transfer(BANK, p, self.mortgage_value(i), "mortgage", self.space_params[i])

    def _check_unmortgage(self, p: int, a: Mapping[str, Any]) -> None:
        self._require_mortgages()
        i = self._space_arg(a, "unmortgage")
        player = self.players[p]
        owed = (p, i) in self.mortgage_owed
        if not owed:
            self._may_manage(p, "unmortgage", raising=False)
        if player.debts:
            raise IllegalAction("rule.in_debt", player=player.name, verb="unmortgage")
        if self.owner[i] != p:
            raise IllegalAction("rule.not_owner", player=player.name, space=self.space_name(i))
        if not self.mortgaged[i]:
            raise IllegalAction("rule.not_mortgaged", player=player.name, space=self.space_name(i))
        cost = self.unmortgage_cost(i)
        if player.cash < cost:
            raise IllegalAction("rule.cannot_afford", player=player.name, space=self.space_name(i),
                                price=cost, cash=player.cash)

    def _do_unmortgage(self, p: int, a: Mapping[str, Any]) -> None:
        i = self._space_index(a["space"])
        if (p, i) in self.mortgage_owed:
            self.mortgage_owed.remove((p, i))
        self.mortgaged[i] = False
        self._pay_bank(p, self.unmortgage_cost(i), "unmortgage", self.space_params[i])

    def _check_keep_mortgage(self, p: int, a: Mapping[str, Any]) -> None:
        self._require_mortgages()
        i = self._space_arg(a, "keep_mortgage")
        if (p, i) not in self.mortgage_owed:
            raise IllegalAction("rule.no_mortgage_decision", player=self.players[p].name,
                                space=self.space_name(i))

    def _do_keep_mortgage(self, p: int, a: Mapping[str, Any]) -> None:
        i = self._space_index(a["space"])
        self.mortgage_owed.remove((p, i))
        self._charge(p, BANK, self.interest(i), "keep_mortgage", self.space_params[i])

    # ------------------------------------------------------------------
    # jail

    def _check_pay_fine(self, p: int, a: Mapping[str, Any]) -> None:
        self._require_current(p, "pay_fine")
        player = self.players[p]
        self._jail_exit_window(player, "pay_fine")
        fine = int(self.options["jail_fine"])
        if player.cash < fine:
            raise IllegalAction("rule.cannot_afford_fine", player=player.name, fine=fine, cash=player.cash)

    def _jail_exit_window(self, player: Player, verb: str) -> None:
        if not player.in_jail:
            raise IllegalAction("rule.not_in_jail", player=player.name)
        self._refuse_blocked(verb, player.index)
        if not self.roll_owed:
            raise IllegalAction("rule.jail_before_roll", player=player.name)

    def _do_pay_fine(self, p: int, a: Mapping[str, Any]) -> None:
        player = self.players[p]
        fine = int(self.options["jail_fine"])
        target = POT if self.options["free_parking_pot"] else BANK
        self._transfer(p, target, fine, "jail_fine", {})
        player.in_jail = False
        player.jail_turns = 0
        self.events.append(("left_jail", {"player": player.name, "how": "fine"}))

    def _check_use_card(self, p: int, a: Mapping[str, Any]) -> None:
        self._require_current(p, "use_card")
        player = self.players[p]
        self._jail_exit_window(player, "use_card")
        if not player.jail_cards:
            raise IllegalAction("rule.no_jail_card", player=player.name)

    def _do_use_card(self, p: int, a: Mapping[str, Any]) -> None:
        player = self.players[p]
        card = player.jail_cards.pop(0)
        self._return_card(card)
        player.in_jail = False
        player.jail_turns = 0
        self.events.append(("left_jail", {"player": player.name, "how": "card"}))

    # ------------------------------------------------------------------
    # trades

    def _parse_side(self, value: Any, where: str) -> tuple[int, list[int], int]:
        if value is None:
            return 0, [], 0
        if not isinstance(value, Mapping):
            raise InvalidAction("action.bad_field", field=where, problem="must be an object")
        for key in value:
            if key not in ("cash", "spaces", "jail_cards"):
                raise InvalidAction("action.unknown_field", verb="trade", field=f"{where}.{key}")
        cash = value.get("cash", 0)
        cards = value.get("jail_cards", 0)
        spaces = value.get("spaces", [])
        for v, f in ((cash, "cash"), (cards, "jail_cards")):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InvalidAction("action.bad_field", field=f"{where}.{f}", problem="must be a whole number of at least 0")
        if not isinstance(spaces, list):
            raise InvalidAction("action.bad_field", field=f"{where}.spaces", problem="must be a list")
        idx = [self._space_index(s) for s in spaces]
        if len(set(idx)) != len(idx):
            raise InvalidAction("action.bad_field", field=f"{where}.spaces", problem="names a space twice")
        return cash, idx, cards

    def _trade_parties(self, a: Mapping[str, Any]) -> tuple[int, int]:
        if "from" not in a or "to" not in a:
            raise InvalidAction("action.bad_field", field="from/to", problem="a trade names both players")
        giver = self._player_index(a["from"])
        taker = self._player_index(a["to"])
        return giver, taker

    def _check_trade(self, p: int, a: Mapping[str, Any]) -> None:
        giver, taker = self._trade_parties(a)
        g, t = self.players[giver], self.players[taker]
        if giver == taker:
            raise IllegalAction("rule.trade_self", player=g.name)
        for q in (g, t):
            if q.bankrupt:
                raise IllegalAction("rule.bankrupt_player", player=q.name)
        give = self._parse_side(a.get("give"), "give")
        get = self._parse_side(a.get("get"), "get")
        if not (give[0] or give[1] or give[2] or get[0] or get[1] or get[2]):
            raise IllegalAction("rule.trade_empty")
        self.rules.trade.check(self, giver, taker, give, get)  # when, how often, in what forms
        for (cash, spaces, cards), q in ((give, g), (get, t)):
            if cash > q.cash:
                raise IllegalAction("rule.trade_cash", player=q.name, amount=cash, cash=q.cash)
            if cards > len(q.jail_cards):
                raise IllegalAction("rule.trade_cards", player=q.name, count=cards)
            for i in spaces:
                if self.owner[i] != q.index:
                    raise IllegalAction("rule.not_owner", player=q.name, space=self.space_name(i))
                group = self.groups[i]
                if group is not None and any(self.level[j] for j in self.group_members[group]):
                    raise IllegalAction("rule.trade_buildings", space=self.space_name(i))

    def _do_trade(self, p: int, a: Mapping[str, Any]) -> None:
        self.turn_trades += 1
        self.rules.trade.traded(self)
        giver, taker = self._trade_parties(a)
        give = self._parse_side(a.get("give"), "give")
        get = self._parse_side(a.get("get"), "get")
        for (cash, spaces, cards), src, dst in ((give, giver, taker), (get, taker, giver)):
            self._transfer(src, dst, cash, "trade", {})
            for i in spaces:
                self.owner[i] = dst
                self.owner_version += 1
                if self.mortgaged[i] and self.rules.mortgage.decision_on_transfer():
                    self.mortgage_owed.append((dst, i))
            for _ in range(cards):
                self.players[dst].jail_cards.append(self.players[src].jail_cards.pop(0))
        self.events.append(("traded", {"from": self.players[giver].name, "to": self.players[taker].name}))

    # ------------------------------------------------------------------
    # biznes: own-property auctions and sales to raise money (debt = "sell_off")

    def bank_price(self, i: int) -> int:
        """What the bank pays for property i: half its price plus half the cost of its buildings."""
        return self.prices[i] // 2 + self.buildings_sale_value(i)

    def _unbuilt(self, i: int) -> bool:
        """No building on any lot of space i's group (logistics and utilities always qualify)."""
        group = self.groups[i]
        return group is None or not any(self.level[j] for j in self.group_members[group])

    def _sellable(self, p: int, i: int, verb: str) -> None:
        name = self.players[p].name
        if not self.is_property[i]:
            raise IllegalAction("rule.not_property", player=name, space=self.space_name(i))
        if self.owner[i] != p:
            raise IllegalAction("rule.not_owner", player=name, space=self.space_name(i))
        if self.auction is not None:
            raise IllegalAction("rule.blocked_auction", verb=verb, player=name)

    def own_auction_reserves(self, p: int, i: int) -> tuple[int, int]:
        """The lowest and highest opening bid player p may set for an auction of space i."""
        low = self.bank_price(i)
        richest = max((q.cash for q in self.players if q.index != p and not q.bankrupt and not q.debts),
                      default=0)
        return low, max(low, low + (richest - low) // self.auction_step * self.auction_step)

    def _check_auction_own(self, p: int, a: Mapping[str, Any]) -> None:
        i = self._space_arg(a, "auction_own")
        player = self.players[p]
        name = player.name
        if self.rules.mortgage.check_own_auction(self, p, i, a):  # brands-showdown: a lapsing mortgage
            return
        if not (self.sell_off or self.rules.trade.own_auctions()):
            raise IllegalAction("rule.no_own_auctions", rules=self.ruleset.name)
        self._sellable(p, i, "auction_own")
        if not self._unbuilt(i):
            raise IllegalAction("rule.own_auction_buildings", player=name, space=self.space_name(i))
        if player.debts:
            if i in player.debt_auctioned:
                raise IllegalAction("rule.auctioned_this_debt", player=name, space=self.space_name(i))
        else:
            if p != self.turn:
                raise IllegalAction("rule.not_your_move", player=name, verb="auction_own",
                                    current=self.current.name)
            if not self._free_window():
                self._refuse_blocked("auction_own", p)
            if self.roll_owed:
                raise IllegalAction("rule.own_auction_before_roll", player=name)
            if self.trades_used >= int(self.options["trades_per_move"]):
                raise IllegalAction("rule.own_auction_trade_used", player=name)
        reserve = a.get("reserve")
        if reserve is None:
            return
        if isinstance(reserve, bool) or not isinstance(reserve, int):
            raise InvalidAction("action.bad_field", field="reserve", problem="must be a whole number")
        low, high = self.own_auction_reserves(p, i)
        if reserve < low or reserve > high or (reserve - low) % self.auction_step:
            raise IllegalAction("rule.reserve", player=name, space=self.space_name(i), reserve=reserve,
                                low=low, high=high, step=self.auction_step)

    def _do_auction_own(self, p: int, a: Mapping[str, Any]) -> None:
        i = self._space_index(a["space"])
        player = self.players[p]
        if self.rules.mortgage.do_own_auction(self, p, i):
            return
        reserve = a.get("reserve")
        opening = self.bank_price(i) if reserve is None else int(reserve)
        if player.debts:
            player.debt_auctioned.append(i)
        n = len(self.players)
        rivals = [(p + k) % n for k in range(1, n)]
        bidders = [q for q in rivals if not self.players[q].bankrupt]
        self.auction = Auction(space=i, kind="own", bidders=bidders, min_bid=opening, seller=p,
                               next_bidder=bidders[0], opened_at=self.action_t)
        self.events.append(("own_auction", {"player": player.name, "space": self.space_name(i),
                                            "start": opening}))
        self._auction_changed()

    def _check_sell_to_bank(self, p: int, a: Mapping[str, Any]) -> None:
        i = self._space_arg(a, "sell_to_bank")
        player = self.players[p]
        if not self.sell_off:
            raise IllegalAction("rule.no_bank_sales", rules=self.ruleset.name)
        self._sellable(p, i, "sell_to_bank")
        if not player.debts:
            raise IllegalAction("rule.bank_sale_needs_debt", player=player.name)
        if i not in player.debt_auctioned and not self._holding_stuck(i):
            raise IllegalAction("rule.bank_sale_needs_auction", player=player.name, space=self.space_name(i))

    def _holding_stuck(self, i: int) -> bool:
        """The holding exception: i's branch has a holding that cannot break up (too few offices in the pool)."""
        group = self.groups[i]
        if group is None or self.kinds[i] != "lot":
            return False
        return (any(self.level[j] == self.hotel_level for j in self.group_members[group])
                and self.bank_houses < self.hotel_houses)

    def _do_sell_to_bank(self, p: int, a: Mapping[str, Any]) -> None:
        i = self._space_index(a["space"])
        price = self.bank_price(i)
        self._return_buildings(i)
        self.owner[i] = -1
        self.owner_version += 1
        self._transfer(BANK, p, price, "sell_to_bank", self.space_params[i])
        self.events.append(("sold_to_bank", {"player": self.players[p].name, "space": self.space_name(i),
                                             "amount": price}))

    def _check_sell_to_player(self, p: int, a: Mapping[str, Any]) -> None:
        i = self._space_arg(a, "sell_to_player")
        player = self.players[p]
        if not self.sell_off:
            raise IllegalAction("rule.no_direct_sales", rules=self.ruleset.name)
        if "to" not in a:
            raise InvalidAction("action.bad_field", field="to", problem="names the buyer")
        buyer = self.players[self._player_index(a["to"])]
        price = a.get("price")
        if isinstance(price, bool) or not isinstance(price, int):
            raise InvalidAction("action.bad_field", field="price", problem="must be a whole number")
        self._sellable(p, i, "sell_to_player")
        if not player.debts:
            raise IllegalAction("rule.sale_needs_debt", player=player.name)
        if buyer.index == p:
            raise IllegalAction("rule.trade_self", player=player.name)
        if buyer.bankrupt:
            raise IllegalAction("rule.bankrupt_player", player=buyer.name)
        if buyer.debts:
            raise IllegalAction("rule.in_debt", player=buyer.name, verb="buy")
        if not self._unbuilt(i):
            raise IllegalAction("rule.trade_buildings", space=self.space_name(i))
        least = self.bank_price(i)
        if price < least:
            raise IllegalAction("rule.sale_below_bank", player=player.name, price=price, least=least)
        if price > buyer.cash:
            raise IllegalAction("rule.trade_cash", player=buyer.name, amount=price, cash=buyer.cash)

    def _do_sell_to_player(self, p: int, a: Mapping[str, Any]) -> None:
        i = self._space_index(a["space"])
        buyer = self._player_index(a["to"])
        price = int(a["price"])
        self._transfer(buyer, p, price, "sell_to_player", self.space_params[i])
        self.owner[i] = buyer
        self.owner_version += 1
        self.events.append(("sold_to_player", {"player": self.players[p].name, "to": self.players[buyer].name,
                                               "space": self.space_name(i), "amount": price}))

    # ------------------------------------------------------------------
    # brands: the casino, the turn timer and pauses

    def has_casino(self) -> bool:
        """Whether the board has a casino space (brands): the jackpot is then part of the bank's state."""
        return self.rules.casino.present()

    def casino_win(self, count: int) -> int:
        """What a casino hit pays on a bet on `count` numbers (option `casino_payout`)."""
        return self.rules.casino.win(count)

    def _check_bus(self, p: int, a: Mapping[str, Any]) -> None:
        self._require_current(p, "bus")
        d = self.decision
        if d is None or d.kind != "bus":
            raise IllegalAction("rule.no_speed_choice", player=self.players[p].name, verb="bus")
        steps = a.get("steps")
        a_, b_ = d.dice
        if steps not in (a_, b_, a_ + b_) or isinstance(steps, bool):
            raise IllegalAction("rule.bus_steps", steps=steps, a=a_, b=b_, both=a_ + b_)

    def _do_bus(self, p: int, a: Mapping[str, Any]) -> None:
        self.decision = None
        self._move_forward(self.players[p], int(a["steps"]))

    def _check_jump(self, p: int, a: Mapping[str, Any]) -> None:
        self._require_current(p, "jump")
        d = self.decision
        if d is None or d.kind != "jump":
            raise IllegalAction("rule.no_speed_choice", player=self.players[p].name, verb="jump")
        self._space_index(self._space_arg(a, "jump"))

    def _do_jump(self, p: int, a: Mapping[str, Any]) -> None:
        self.decision = None
        player = self.players[p]
        target = self._space_index(a["space"])
        if target == player.position:
            self._land(player, target)  # staying put: the space counts again, no lap
        else:
            self._move_forward(player, (target - player.position) % self.n_spaces)

    def _mr_monopoly_move(self) -> None:
        """Mr. Monopoly: on to the nearest unowned property ahead, else the nearest an opponent owns."""
        self.mr_monopoly = False
        player = self.current
        n = self.n_spaces
        ahead = [(player.position + k) % n for k in range(1, n)]
        props = [i for i in ahead if self.is_property[i]]
        target = next((i for i in props if self.owner[i] < 0), -1)
        if target < 0:
            target = next((i for i in props if self.owner[i] >= 0 and self.owner[i] != player.index
                           and not self.allies(player.index, self.owner[i])), -1)
        self.events.append(("mr_monopoly", {"player": player.name,
                                            "space": self.space_name(target) if target >= 0 else None}))
        if target >= 0:
            self._move_forward(player, (target - player.position) % n)

    def _check_timeout(self, p: int, a: Mapping[str, Any]) -> None:
        if not int(self.options["turn_seconds"]):
            raise IllegalAction("rule.no_turn_timer", rules=self.ruleset.name)
        if self.turn_skipped:
            raise IllegalAction("rule.already_timed_out", player=self.current.name)

    def _do_timeout(self, p: int, a: Mapping[str, Any]) -> None:
        """The turn timer ran out: a skipped turn for the current player; too many in a row is bankruptcy."""
        cur = self.turn
        self.turn_skipped = True
        self.skipped[cur] += 1
        name = self.players[cur].name
        self.events.append(("timed_out", {"player": name, "count": self.skipped[cur]}))
        if self.skipped[cur] >= int(self.options["skipped_turns_bankrupt"]):
            self._do_concede(cur, {})

    def clocked(self) -> bool:
        """Whether the ruleset runs on the game clock (brands' economy or turn timer)."""
        o = self.options
        return bool(o["salary_stop_minutes"] or o["rent_tax_start_minutes"] or o["turn_seconds"])

    def _check_pause(self, p: int, a: Mapping[str, Any]) -> None:
        if not self.clocked():
            raise IllegalAction("rule.no_clock", rules=self.ruleset.name)
        if self.paused_at >= 0:
            raise IllegalAction("rule.paused")

    def _do_pause(self, p: int, a: Mapping[str, Any]) -> None:
        self.paused_at = self.action_t if self.action_t >= 0 else self.clock
        self.events.append(("paused", {}))

    def _check_resume(self, p: int, a: Mapping[str, Any]) -> None:
        if self.paused_at < 0:
            raise IllegalAction("rule.not_paused")

    def _do_resume(self, p: int, a: Mapping[str, Any]) -> None:
        now = self.action_t if self.action_t >= 0 else self.clock
        self.paused_total += max(0.0, now - self.paused_at)
        self.paused_at = -1.0
        self.events.append(("resumed", {}))

    # ------------------------------------------------------------------
    # end of turn

    def _check_end_turn(self, p: int, a: Mapping[str, Any]) -> None:
        self._require_current(p, "end_turn")
        self._refuse_blocked("end_turn", p)
        if self.roll_owed:
            raise IllegalAction("rule.roll_owed", player=self.players[p].name)

    def _do_end_turn(self, p: int, a: Mapping[str, Any]) -> None:
        if not self.rules.doubles.end_move(self, p):  # doubles = "after_move": the extra roll comes now
            self._next_turn()

    # ------------------------------------------------------------------
    # bankruptcy

    def _check_concede(self, p: int, a: Mapping[str, Any]) -> None:
        auction = self.auction
        if auction is not None and auction.high_bidder == p:
            raise IllegalAction("rule.concede_high_bidder", player=self.players[p].name)
        if auction is not None and auction.seller == p:
            raise IllegalAction("rule.concede_seller", player=self.players[p].name,
                                space=self.space_name(auction.space))

    def _do_concede(self, p: int, a: Mapping[str, Any]) -> None:
        player = self.players[p]
        creditor = player.debts[0].creditor if player.debts else BANK
        self.events.append(("bankrupt", {"player": player.name, "to": self.name(creditor)}))
        player.debts.clear()
        self._recount_debtors()
        owned = [i for i in self.ruleset.property_indices if self.owner[i] == p]
        player.debt_auctioned.clear()
        owned = self.rules.bankruptcy.hand_over(self, p, creditor, owned)  # what the bank auctions
        player.jail_cards = []
        player.bankrupt = True
        player.in_jail = False
        player.jail_turns = 0
        # Debts owed to the bankrupt pass to whoever took their assets.
        for q in self.players:
            for d in q.debts:
                if d.creditor == p:
                    d.creditor = creditor
        self.mortgage_owed = [(q, i) for q, i in self.mortgage_owed if q != p]
        self.build_owed = [(q, k) for q, k in self.build_owed if q != p]
        if self.auction is not None and p in self.auction.bidders:
            self.auction.bidders.remove(p)
            if self.stepped:
                if self.auction.next_bidder == p:
                    self.auction.next_bidder = self._bidder_after(self.auction, p)
                self._auction_changed()
            else:
                self._auction_maybe_over()
        self.bankruptcies += 1
        remaining = [q for q in self.players if not q.bankrupt]
        limit = int(self.options["end_after_bankruptcies"])
        if len(remaining) == 1:
            self._end("last_standing", remaining[0].name)
            return
        if self.teams and all(self.allies(remaining[0].index, q.index) for q in remaining[1:]):
            self._end("last_standing", [q.name for q in remaining])  # the last team standing
            return
        if limit and self.bankruptcies >= limit:
            self._end("bankruptcies", self._richest())
            return
        if creditor < 0:
            self.auction_queue.extend(i for i in owned if i not in self.auction_queue)
        if p == self.turn:
            self.decision = None
            self.roll_owed = False
            self.doubles = 0
            self.mr_monopoly = False
            self.turn_over_after_auctions = True
        if self.auction is None and self.auction_queue:
            self._start_property_auction(self.auction_queue.pop(0))

    # ------------------------------------------------------------------
    # corrections and the end

    def _check_adjust(self, p: int, a: Mapping[str, Any]) -> None:
        cash = a.get("cash", 0)
        if isinstance(cash, bool) or not isinstance(cash, int):
            raise InvalidAction("action.bad_field", field="cash", problem="must be a whole number (a change, + or -)")
        if "position" in a and a["position"] is not None:
            self._space_index(a["position"])
        reason = a.get("reason", "")
        if not isinstance(reason, str):
            raise InvalidAction("action.bad_field", field="reason", problem="must be text")
        player = self.players[p]
        if player.cash + cash < 0:
            raise IllegalAction("rule.adjust_negative", player=player.name, cash=player.cash, change=cash)

    def _do_adjust(self, p: int, a: Mapping[str, Any]) -> None:
        cash = int(a.get("cash", 0))
        reason = a.get("reason", "")
        if cash > 0:
            self._transfer(BANK, p, cash, "adjust", {"reason": reason})
        elif cash < 0:
            self._transfer(p, BANK, -cash, "adjust", {"reason": reason})
        if a.get("position") is not None:
            self.players[p].position = self._space_index(a["position"])
        self.events.append(("adjusted", {"player": self.players[p].name, "cash": cash, "reason": reason}))

    def _check_end_game(self, p: int, a: Mapping[str, Any]) -> None:
        return None

    def _do_end_game(self, p: int, a: Mapping[str, Any]) -> None:
        self._end("ended", self._richest())

    def _richest(self) -> str | list[str]:
        remaining = [q for q in self.players if not q.bankrupt]
        worth = {q.name: self.net_worth(q.index) for q in remaining}
        best = max(worth.values())
        top = [name for name, w in worth.items() if w == best]
        return top[0] if len(top) == 1 else top

    def _end(self, reason: str, winner: str | list[str]) -> None:
        self.ended = True
        self.end_reason = reason
        self.winner = winner
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
        if self.ended:
            return []
        out: list[dict[str, Any]] = []
        if self.deal_owed:
            return [{"player": "bank", "verbs": ["deal"]}]
        a = self.auction
        if a is not None and self.stepped:
            if a.next_bidder >= 0:
                out.append({"player": self.players[a.next_bidder].name, "verbs": ["bid", "pass"]})
            if a.high_bidder < 0:
                out.append({"player": "bank", "verbs": ["close_auction"]})
        elif a is not None:
            for b in a.bidders:
                if b != a.high_bidder:
                    out.append({"player": self.players[b].name, "verbs": ["bid", "pass"]})
            out.append({"player": "bank", "verbs": ["close_auction"]})
        seen: set[int] = set()
        for q, _ in self.mortgage_owed:
            if q not in seen:
                seen.add(q)
                out.append({"player": self.players[q].name, "verbs": ["keep_mortgage", "unmortgage"]})
        for q, _ in self.build_owed:
            out.append({"player": self.players[q].name, "verbs": ["build"]})
        for debtor in self.players:
            if debtor.debts:
                if self.sell_off:
                    verbs = [v for v in ("sell", "auction_own", "sell_to_bank") if self._has_any(debtor.index, v)]
                    if self._can_sell_to_player(debtor.index):
                        verbs.append("sell_to_player")
                    if self.can({"do": "concede", "player": debtor.name}) is None:
                        verbs.append("concede")  # not while their own auction runs
                    if verbs:
                        out.append({"player": debtor.name, "verbs": verbs})
                    continue
                verbs = [v for v in ("sell", "sell_all", "mortgage") if self._has_any(debtor.index, v)]
                out.append({"player": debtor.name, "verbs": verbs + ["trade", "concede"]})
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

    def _can_sell_to_player(self, p: int) -> bool:
        """Whether debtor p could sell some property to some rival at the bank's price now."""
        for i in self.ruleset.property_indices:
            if self.owner[i] == p:
                for q in self.players:
                    if q.index != p and self.can({"do": "sell_to_player", "player": self.players[p].name,
                                                  "space": i, "to": q.name,
                                                  "price": self.bank_price(i)}) is None:
                        return True
        return False

    def _has_any(self, p: int, verb: str) -> bool:
        for i in self.ruleset.property_indices:
            if self.owner[i] == p and self.can({"do": verb, "space": i, "player": self.players[p].name}) is None:
                return True
        return False

    def legal_actions(self, player: str | None = None) -> list[dict[str, Any]]:
        """Concrete actions that would be accepted now (trades aside: those are composed).

        Chance inputs are left out: a roll is listed as {"do": "roll"}.
        """
        if self.ended:
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
            if self.sell_off and q.debts:
                for i in self.ruleset.property_indices:
                    if self.owner[i] == q.index:
                        for r in self.players:
                            if r.index != q.index:
                                candidates.append({"do": "sell_to_player", "player": q.name, "space": i,
                                                   "to": r.name, "price": self.bank_price(i)})
            if self.auction is not None and q.index in self.auction.bidders:
                candidates.append({"do": "bid", "player": q.name, "amount": self.auction.min_bid})
                candidates.append({"do": "pass", "player": q.name})
            candidates.append({"do": "concede", "player": q.name})
        for verb in ("buy", "decline", "pay_fine", "use_card", "end_turn"):
            candidates.append({"do": verb, "player": cur})
        if self.auction is not None:
            candidates.append({"do": "close_auction"})
        if not (self.visit_building or self.turn_start_building):
            for kind in ("house", "hotel"):
                candidates.append({"do": "building_auction", "kind": kind})
        legal = [c for c in candidates if self.can(c) is None]
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
        """The state exactly as `banker replay --json` prints it (docs/game-script.md)."""
        players = []
        for q in self.players:
            players.append({
                "name": q.name, "cash": q.cash, "position": q.position, "in_jail": q.in_jail,
                "jail_turns": q.jail_turns, "jail_cards": len(q.jail_cards), "bankrupt": q.bankrupt,
                "debts": [{"amount": d.amount, "to": self.name(d.creditor)} for d in q.debts],
            })
        spaces = {}
        for i in self.ruleset.property_indices:
            lv = self.level[i]
            owner = self.owner[i]
            spaces[str(i)] = {
                "name": self.space_name(i),
                "owner": self.players[owner].name if owner >= 0 else None,
                "houses": lv if lv <= self.hotel_houses else 0,
                "hotel": lv == self.hotel_level,
                "mortgaged": self.mortgaged[i],
            }
        bank: dict[str, Any] = {"houses": self.bank_houses, "hotels": self.bank_hotels}
        if self.options["free_parking_pot"]:
            bank["pot"] = self.pot
        if self.has_casino():
            bank["jackpot"] = self.jackpot
        auction: dict[str, Any] | None = None
        if self.auction is not None:
            a = self.auction
            auction = {
                "space": a.space if a.space >= 0 else None,
                "kind": a.kind,
                "high_bid": a.high_bid,
                "high_bidder": self.players[a.high_bidder].name if a.high_bidder >= 0 else None,
                "bidders": [self.players[b].name for b in a.bidders],
                "min_bid": a.min_bid,
                "next_bidder": self.players[a.next_bidder].name if a.next_bidder >= 0 else None,
            }
            if self.sell_off or self.rules.trade.own_auctions():
                auction["seller"] = self.players[a.seller].name if a.seller >= 0 else None
                opened = a.opened_at
                auction["opened_at"] = (int(opened) if opened.is_integer() else opened) if opened >= 0 else None
        state: dict[str, Any] = {
            "rules": self.ruleset.name,
            "turn": self.current.name,
            "ended": self.ended,
            "winner": self.winner,
            "players": players,
            "spaces": spaces,
            "bank": bank,
            "auction": auction,
            "owed": self.owed(),
        }
        if self.sell_off:
            for entry, q in zip(players, self.players):
                entry["debt_auctioned"] = list(q.debt_auctioned)
        rules = self.rules
        if rules.trade.per_move_limit() is not None or self.visit_building or rules.doubles.per_move():
            state["move"] = {"trades_used": self.trades_used, "visit_builds": self.visit_builds,
                             "extra_roll": self.extra_roll}
        if self.has_random_move:
            state["last_random_target"] = self.last_random_target if self.last_random_target >= 0 else None
        rules.mortgage.describe(self, state)
        if self.clocked():
            state["clock"] = {"minutes": round(self.economy_minutes(), 2), "paused": self.paused_at >= 0,
                              "salary": self.salary_paid(), "rent_tax_percent": self.rent_tax_percent()}
            if int(self.options["turn_seconds"]):
                for entry, q in zip(players, self.players):
                    entry["skipped_turns"] = self.skipped[q.index]
        if self.ended:
            state["end_reason"] = self.end_reason
            state["ranking"] = [{"name": n, "net_worth": w} for n, w in self.ranking()]
        return state

    def money_log(self) -> list[Entry]:
        """Every money movement so far: who paid whom, how much and why."""
        name = self.name
        return [Entry(seq, name(a), name(b), amount, code, params) for seq, a, b, amount, code, params in self.log]

    def iter_properties(self, p: int) -> list[int]:
        """The properties player p owns, by index."""
        owner = self.owner
        return [i for i in self.ruleset.property_indices if owner[i] == p]




# Everything an action can change, copied over by _rebuild (the compiled build
# has no __dict__ to copy); the rest is fixed at creation. A test checks that
# this list and the constructor agree.
_STATE = (
    "players", "owner", "owner_version", "_groups_cache", "level", "mortgaged", "bank_houses",
    "bank_hotels", "pot", "decks", "turn", "roll_owed", "doubles", "last_roll", "decision", "auction",
    "auction_queue", "turn_over_after_auctions", "mortgage_owed", "build_owed", "deal_owed", "ended",
    "end_reason", "winner", "bankruptcies", "clock", "seq", "log", "events", "history", "rolls",
    "turns", "debtors", "trades_used", "visit_builds", "extra_roll", "random_moved", "last_random_target",
    "action_t", "round", "mortgage_round", "group_builds", "turn_trades", "jackpot", "skipped", "turn_skipped",
    "paused_at", "paused_total", "mr_monopoly",
)


def _setup_int(value: Any, where: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bound = f"{low} to {high}" if high is not None else f"at least {low}"
        raise SetupError("setup.bad", problem=f"{where} must be a whole number, {bound}, not {value!r}")
    return value


def _setup_bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise SetupError("setup.bad", problem=f"{where} must be true or false, not {value!r}")
    return value


# verb -> (check, do): a mechanics module's, or else Game's own; module-level so that the compiled build
# (mypyc) can hold it.
_HANDLERS: dict[str, tuple[Callable[..., None], Callable[..., None]]] = {
    verb: MECHANIC_HANDLERS.get(verb) or (getattr(Game, f"_check_{verb}"), getattr(Game, f"_do_{verb}"))
    for verb in VERBS if verb != "undo"
}
_DOERS: dict[str, Callable[..., None]] = {verb: pair[1] for verb, pair in _HANDLERS.items()}
