"""The kernel: the game's state and every change to it.

`Kernel` holds the state of one game and is the only code that changes it. The rules live around it:
`banker.game.Game` (a `Kernel`) checks and carries out actions, the mechanics (banker/mechanics), the card
effects (banker/cards.py), the shared verbs (banker/verbs.py), the setup (banker/game_setup.py) and the
computer players (banker/ai.py) decide what happens and ask the kernel to make it so. Outside this module
and banker/game.py no code writes a game's attributes or calls a name of it that starts with an underscore
(tests/test_engine_layout.py walks the code and fails on either). See docs/engine.md, "The kernel".

The state is declared once, in `FIELDS` below (banker/statefields.py's `Field`: each piece and how going back
copies it); what belongs to a family of mechanic is one typed object of that family's, declared and started in
its module (`game.trade_state`, `game.clock_state`, ...: docs/engine.md, "The kernel's state").

The kernel's changes, by what they move:

- money: `transfer` (any payment, unchecked), `charge` (what the rules impose: paid now or a debt),
  `pay_bank`, `pay_salary`, `settle` (pay debts while cash covers them), `rent_tax`, `pay_rent`;
- tokens: `move_forward`, `move_to`, `land`, `send_to_jail`, `next_turn`;
- deeds: `give_deed` (the only place `owner_version` changes) and `set_mortgaged`;
- buildings and cards back to the bank: `set_level` (the bank's pool follows), `return_buildings`,
  `return_card`, `remove_from_deck`;
- what the game waits for: `set_decision`, `set_auction`;
- what happened: `emit` (an event), `end` (the game's outcome).

A player's, a debt's and an auction's fields are `Final` (banker/model.py, "The records"): read-only outside
the core, so each write here carries `# type: ignore[misc]`, mypy's word for a final name assigned.

And the guards the verbs share, which raise `IllegalAction` / `InvalidAction` and change nothing:
`require_current`, `refuse_blocked`, `may_manage`, `space_arg`, `space_index`, `player_index`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from banker import game_setup
from banker.cards import RandomMoveState
from banker.errors import IllegalAction, InvalidAction, SetupError
from banker.mechanics import Mechanics
from banker.mechanics import choose as choose_mechanics
from banker.mechanics.building import BuildingState
from banker.mechanics.casino import CasinoState
from banker.mechanics.clock import ClockState
from banker.mechanics.doubles import DoublesState
from banker.mechanics.mortgage import MortgageState
from banker.mechanics.speed_die import SpeedDieState
from banker.mechanics.trade import TradeState
from banker.messages import decision_owed
from banker.model import BANK, NO_PARAMS, POT, Auction, Debt, Decision, Outcome, Player, debt, decision
from banker.options import Options
from banker.ruleset import Ruleset
from banker.statefields import APPEND_ONLY, COPIERS, FLAT, KINDS, LISTS, PART, RECORD, RECORDS, SHARED, Field
from banker.variant import Variant

if TYPE_CHECKING:
    from banker.game import Game


# ----------------------------------------------------------------------
# Going back: undo in time proportional to what it takes back.
#
# The engine keeps no inverse of its rules: the state after the first k actions
# in effect is made by playing them again. Playing the whole history again for
# every undo made a run of n undos cost about n*n/2 actions (2,000 actions and
# then 2,000 undos: 7 to 9 seconds; twice that, 42). So a game keeps a *trail*:
# copies of its state, each labelled with the number of actions in effect it
# belongs to.
#
# `Game.apply` keeps a copy every SPARSE actions (about 2% of its time; the
# simulator, which never undoes, turns it off). To go back to k actions,
# `Kernel.go_back` takes the copy for exactly k if there is one (moving it into the
# game: going further back never needs it again); otherwise it starts from the
# copy nearest below k (or from the start of the game), plays forward to k
# through `Game.apply`, and keeps a copy after each of the last DENSE actions.
# The next undo (to k - 1) then finds its copy waiting; once those are used up,
# one more replay of at most SPARSE actions makes the next DENSE. A run of n
# undos thus plays each action about once more (benchmarks/bench_undo.py), and
# the trail holds at most k / SPARSE + DENSE copies.
#
# A copy for j actions stays true while the first j actions in effect stay the
# same. Actions are only ever appended to the history, and going back to k drops
# every copy above k, so the trail is always true and always sorted.
#
# A copy holds every field `FIELDS` declares (a family's state object field by
# field), each copied by its declared kind so that it shares nothing that can
# change, except the append-only lists (the money log, the events, the
# history): of those it keeps the length, and going back cuts the game's list
# to it. Going back puts a family's fields into the game's own object of that
# family, which no copy ever holds.

SPARSE = 64  # a copy every this many actions on the way forward
DENSE = 64  # and one after each of the last this many

# The kernel's state: everything an action can change, one declaration each (banker/statefields.py: its name and
# how a copy for going back holds it); the rest of a game is fixed when it is made. `Kernel.__init__` sets the
# kernel's own fields one by one (so that the compiled build knows them always set: a loop over these would cost
# it a check at every read, about 1% of a roll); the families' own state is one `State` object each (`PART`),
# declared and started in the family's module. `STATE` names them all and the copies for going back follow their
# kinds; tests/test_undo.py and tests/test_engine.py check that the constructor, these declarations and a copy
# agree.
FIELDS: tuple[Field, ...] = (
    Field("players", RECORDS),  # in seat order
    Field("owner", FLAT),  # each space's owner (-1: the bank)
    Field("owner_version"),
    Field("_groups_cache"),  # (owner_version, groups): replaced whole, never edited
    Field("level", FLAT),
    Field("mortgaged", FLAT),
    Field("bank_houses"),
    Field("bank_hotels"),
    Field("pot"),  # the Free Parking pot (house rule `free_parking_pot`)
    Field("decks", LISTS),  # deck -> card ids, the top first
    Field("turn"),
    Field("roll_owed"),
    Field("doubles"),
    Field("last_roll"),
    Field("decision"),  # a frozen `Decision`, or None
    Field("auction", RECORD),  # the auction under way, or None
    Field("auction_queue", FLAT),
    Field("turn_over_after_auctions"),
    Field("mortgage_owed", FLAT),  # (player, space) tuples
    Field("build_owed", FLAT),  # (player, kind) tuples
    Field("deal_owed"),
    Field("outcome"),  # a frozen `Outcome`, or None
    Field("bankruptcies"),
    Field("clock"),
    Field("round"),
    Field("action_t"),
    Field("seq"),
    Field("log", APPEND_ONLY),
    Field("events", APPEND_ONLY),
    Field("history", APPEND_ONLY),
    Field("rolls"),
    Field("turns"),
    Field("debtors"),
    # The families' own state, one object each.
    Field("trade_state", PART, TradeState),
    Field("building_state", PART, BuildingState),
    Field("doubles_state", PART, DoublesState),
    Field("mortgage_state", PART, MortgageState),
    Field("casino_state", PART, CasinoState),
    Field("clock_state", PART, ClockState),
    Field("speed_die_state", PART, SpeedDieState),
    Field("random_move_state", PART, RandomMoveState),  # the cards' random move (banker/cards.py)
)


def _held(fields: tuple[Field, ...]) -> list[tuple[str, str, str, str]]:
    """What a copy for going back holds, one (path, family, name, kind) a field: the kernel's own (family "")
    and each family's through its object (path "trade_state.trades_used", family "trade_state")."""
    held: list[tuple[str, str, str, str]] = []
    for f in fields:
        if f.copy == PART:
            held += [(f"{f.name}.{g.name}", f.name, g.name, g.copy) for g in f.start.FIELDS]
        else:
            held.append((f.name, "", f.name, f.copy))
    for path, _, _, kind in held:
        if kind not in KINDS or kind == PART:
            raise ValueError(f"{path}: no such kind of copy: {kind!r}")
    return held


# Every attribute an action can change (the compiled build has no __dict__ to copy): what `take_state_of` takes.
STATE = tuple(f.name for f in FIELDS)
HELD = _held(FIELDS)
# The fields a copy shares as they are (never changed in place, only replaced), a family's by its path.
SHARED_FIELDS = frozenset(path for path, _, _, kind in HELD if kind == SHARED)


class _Plan:
    """How a copy holds the state (`HELD`): every field read at once (a family's through its object), those
    that can change in place copied by their kind, the append-only lists by their length; and how it is put
    back (a family's fields into the game's own object of the family)."""

    def __init__(self, held: list[tuple[str, str, str, str]]) -> None:
        self.read: Callable[[Any], Any] = operator.attrgetter(*[path for path, _, _, _ in held])
        self.copied = [(i, COPIERS[kind]) for i, (_, _, _, kind) in enumerate(held) if kind in COPIERS]
        self.lengths = [i for i, (_, _, _, kind) in enumerate(held) if kind == APPEND_ONLY]
        self.cut = [(i, name) for i, (_, _, name, kind) in enumerate(held) if kind == APPEND_ONLY]
        self.assign = [(i, name) for i, (_, family, name, kind) in enumerate(held)
                       if not family and kind != APPEND_ONLY]
        parts: dict[str, list[tuple[int, str]]] = {}
        for i, (_, family, name, _) in enumerate(held):
            if family:
                parts.setdefault(family, []).append((i, name))
        self.parts = list(parts.items())  # (the family's attribute, [(index, field name)])


_PLAN = _Plan(HELD)


def _copies(values: list[Any]) -> list[Any]:
    for i, copier in _PLAN.copied:
        values[i] = copier(values[i])
    return values


# A Kernel is always the `Game` (banker/game.py) it is the base of, and the mechanics' hooks take the game. On a
# roll's path the kernel hands itself over as `game: Game = self  # type: ignore[assignment]`, which costs
# nothing, where `typing.cast` would be a function call in pure Python (about 1 a roll).


class Kernel:
    """The state of one game and every change to it (see the module docstring)."""

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
        self.options: Options = opts
        # The variant of each family (banker/mechanics).
        self.rules: Mechanics = choose_mechanics(ruleset.mechanics, opts, [s.kind for s in ruleset.spaces])
        self.variant = Variant.of(self.rules)  # the variant's facts, asked by the engine, the players and the app
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
        self.tax_amounts = [int(opts.value(s.amount_option)) if s.amount_option else 0 for s in spaces]  # kind "tax"
        self.groups = [s.group for s in spaces]
        self.group_members = ruleset.group_members
        # Colour groups of lots with their building cost, for quick scans.
        self.lot_groups = [(members, spaces[members[0]].building_cost)
                           for members in ruleset.group_members.values() if spaces[members[0]].kind == "lot"]
        self.hotel_houses = hotel_houses
        self.salary = opts.salary
        self.time_limit = opts.time_limit * 60  # seconds; 0 = no limit
        self.hotel_level = hotel_houses + 1
        self.jail_index = ruleset.jail_index
        self.jail_tries = opts.jail_tries
        self.refund_percent = opts.building_refund_percent
        self.has_random_move = any(c.effect == "random_move" for c in ruleset.cards)
        verbs = ["build", "sell"]
        if self.rules.building.sells_whole_groups():
            verbs.append("sell_all")
        if self.rules.mortgage.allowed():
            verbs += ["mortgage", "unmortgage", "keep_mortgage"]
        sells = self.rules.debt.raises_by_selling()
        if sells or self.rules.trade.own_auctions() or opts.mortgage_auction_now:
            verbs.append("auction_own")
        if sells:
            verbs.append("sell_to_bank")
        self.space_verbs = tuple(verbs)  # verbs on a space that legal_actions tries
        self.auction_step = opts.auction_step
        # House rules (docs/rulesets.md, "House rules").
        self.lap_rule = opts.buy_after_first_lap  # unlapped players neither buy nor bid
        self.snake_eyes = opts.snake_eyes_bonus  # two ones pay this from the bank
        self.pot_seed = opts.free_parking_seed if opts.free_parking_pot else 0

        self.players = [Player(name, i, opts.start_cash) for i, name in enumerate(names)]
        self.index_of = {name: i for i, name in enumerate(names)}
        self.owner = [-1] * self.n_spaces
        self.owner_version = 0  # bumped whenever a deed changes hands (caches key on it)
        self._groups_cache: tuple[int, list[list[tuple[int, ...]]]] = (-1, [])
        self.level = [0] * self.n_spaces  # houses 0..hotel_houses, hotel_level for a hotel
        self.mortgaged = [False] * self.n_spaces
        self.bank_houses = opts.houses
        self.bank_hotels = opts.hotels
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
        self.deal_owed = (opts.deal_deeds > 0 or opts.deal_all) and not setup
        self.outcome: Outcome | None = None  # set once, when the game ends
        self.bankruptcies = 0
        self.clock = 0.0
        self.round = 0  # rounds played (the expiring mortgages, the speed die and the app count by them)
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
        # Copies of the state for going back ("Going back" above), by the number of actions in effect; `apply`
        # keeps one every SPARSE actions unless told not to (the simulator, which never undoes).
        self.trail_at: list[int] = []
        self.trail: list[tuple[Any, ...]] = []
        self.keeps_trail = True
        self.rolls = 0
        self.turns = 0  # turns handed on so far
        self.debtors = 0  # number of players with debts: a fast "any debts?"
        # The families' own state, one object each, started from its declarations (banker/statefields.py).
        self.trade_state = TradeState(self)
        self.building_state = BuildingState(self)
        self.doubles_state = DoublesState(self)
        self.mortgage_state = MortgageState(self)
        self.casino_state = CasinoState(self)
        self.clock_state = ClockState(self)
        self.speed_die_state = SpeedDieState(self)
        self.random_move_state = RandomMoveState(self)

        if setup:
            game_setup.apply_setup(cast("Game", self), setup)
        if self.pot_seed:  # the bank seeds the Free Parking pot (the game's setup: entries of action -1)
            self.log.append((-1, BANK, POT, self.pot_seed, "pot_seed", NO_PARAMS))
            self.pot = self.pot_seed

    # ------------------------------------------------------------------
    # Lookups

    def space_index(self, value: Any) -> int:
        """The index of a space named by index, index string or exact name (InvalidAction if none)."""
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

    def player_index(self, value: Any) -> int:
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
    # Money

    def settle(self, p: Player) -> None:
        """Pay debts in order while cash covers the next one."""
        while p.debts and p.cash >= p.debts[0].amount:
            owed = p.debts[0]
            p.debts = p.debts[1:]  # type: ignore[misc]
            payee = POT if owed.to_pot else owed.creditor
            self.transfer(p.index, payee, owed.amount, "debt_paid", {"reason": owed.code, **owed.params})
            if owed.code == "rent" and payee >= 0:  # brands: rent is taxed when it is collected
                self.rent_tax(payee, owed.amount, dict(owed.params))
        if not p.debts:
            p.debt_auctioned = ()  # type: ignore[misc]
            self.recount_debtors()

    def recount_debtors(self) -> None:
        self.debtors = sum(1 for p in self.players if p.debts)

    def transfer(self, payer: int, payee: int, amount: int, code: str, params: dict[str, Any]) -> None:
        if amount <= 0:
            return
        if payer >= 0:
            self.players[payer].cash -= amount  # type: ignore[misc]
        elif payer == POT:
            self.pot -= amount
        if payee >= 0:
            self.players[payee].cash += amount  # type: ignore[misc]
        elif payee == POT:
            self.pot += amount
        self.log.append((self.seq, payer, payee, amount, code, params))

    def charge(self, payer: int, payee: int, amount: int, code: str, params: dict[str, Any],
                pot: bool = False) -> None:
        """A payment the rules impose: paid at once, or a debt for the whole amount."""
        if amount <= 0:
            return
        if pot and payee == BANK and self.options.free_parking_pot:
            target = POT
        else:
            target = payee
            pot = False
        p = self.players[payer]
        if not p.debts and p.cash >= amount:
            self.transfer(payer, target, amount, code, params)
            return
        p.debts = p.debts + (debt(amount, payee, pot, code, params),)  # type: ignore[misc]
        self.recount_debtors()
        self.events.append(("debt", {"player": p.name, "amount": amount, "to": self.name(payee),
                                          "reason": code}))

    def pay_bank(self, p: int, amount: int, code: str, params: dict[str, Any]) -> None:
        """A voluntary payment to the bank; the caller has checked the cash."""
        self.transfer(p, BANK, amount, code, params)

    def return_buildings(self, i: int) -> None:
        """Every building on lot i back to the bank's pool (a hotel as one hotel)."""
        self.set_level(i, 0)

    # ------------------------------------------------------------------
    # Values the changes need

    def building_value(self, i: int) -> int:
        """What the buildings on lot i cost (a hotel with the houses it replaced)."""
        lv = self.level[i]
        return lv * self.ruleset.spaces[i].building_cost if lv else 0

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
                        self.options.double_rent_with_mortgaged
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
    # Guards the verbs share: they raise and change nothing

    def require_current(self, p: int, verb: str) -> None:
        if p != self.turn:
            raise IllegalAction("rule.not_your_turn", player=self.players[p].name, verb=verb,
                                current=self.current.name)

    def blocking(self) -> str | None:
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

    def refuse_blocked(self, verb: str, p: int) -> None:
        blocker = self.blocking()
        if blocker is None:
            return
        name = self.players[p].name
        if blocker == "decision":  # the decision's kind names the message: banker/messages.py words what is owed
            raise IllegalAction(decision_owed(cast(Decision, self.decision).kind), player=name, verb=verb)
        if blocker == "debt":
            debtor = next(q for q in self.players if q.debts)
            raise IllegalAction("rule.debt_blocks", player=name, verb=verb, debtor=debtor.name,
                                amount=sum(d.amount for d in debtor.debts))
        if blocker == "mortgage_decision":
            who, i = self.mortgage_owed[0]
            raise IllegalAction("rule.mortgage_decision_owed", verb=verb, player=self.players[who].name,
                                space=self.space_name(i))
        raise IllegalAction("rule.blocked_" + blocker, verb=verb, player=name)

    def free_window(self) -> bool:
        """True when the only thing owed is the current player's roll or end of turn."""
        return self.blocking() is None

    # ------------------------------------------------------------------
    # Turns and tokens

    def next_turn(self) -> None:
        players = self.players
        i = self.turn + 1
        if i == len(players):
            i = 0
        while players[i].bankrupt:  # at least two players are left while the game runs
            i = i + 1 if i + 1 < len(players) else 0
        if i <= self.turn:
            self.round += 1  # the turn came round past the first seat: a new round
        timer = self.clock_state
        if not timer.turn_skipped:
            timer.skipped[self.turn] = 0  # a turn played (not timed out) ends a run of skipped turns
        timer.turn_skipped = False
        self.turn = i
        self.turns += 1
        self.roll_owed = True
        self.doubles = 0
        self.decision = None
        self.doubles_state.extra_roll = False
        self.speed_die_state.mr_monopoly = False
        trade = self.trade_state
        trade.trades_used = 0
        trade.turn_trades = 0
        building = self.building_state
        if building.group_builds:  # a new dict only when this turn built something
            building.group_builds = {}
        game: Game = self  # type: ignore[assignment]  # always a Game; no typing.cast call
        self.rules.mortgage.turn_passed(game)  # brands: a mortgage kept too long is lost to an auction
        if self.record_events:
            self.events.append(("turn", {"player": self.players[i].name}))

    def send_to_jail(self, p: Player) -> None:
        p.position = self.jail_index  # type: ignore[misc]
        p.in_jail = True  # type: ignore[misc]
        p.jail_turns = 0  # type: ignore[misc]
        self.doubles = 0
        self.decision = None
        if p.index == self.turn:
            self.roll_owed = False
            self.doubles_state.extra_roll = False
            self.speed_die_state.mr_monopoly = False
        self.events.append(("jail", {"player": p.name}))

    def move_forward(self, p: Player, steps: int) -> None:
        pos = p.position + steps
        if pos >= self.n_spaces:
            pos %= self.n_spaces
            if not p.lapped:
                p.lapped = True  # type: ignore[misc]  # passed or landed on GO: the lap counts before the landing
            self.pay_salary(p)
        p.position = pos  # type: ignore[misc]
        self.land(p, pos)

    def move_to(self, p: Player, target: int, salary: bool = True, lands: bool = True) -> None:
        """Advance (forward) to `target`, paying the salary on passing or landing on GO; then land there, unless
        the caller settles the landing itself (`lands=False`: a card sending the token to the nearest railroad)."""
        if target <= p.position:
            if not p.lapped:
                p.lapped = True  # type: ignore[misc]
            if salary:
                self.pay_salary(p)
        p.position = target  # type: ignore[misc]
        if lands:
            self.land(p, target)

    def move_back(self, p: Player, steps: int) -> None:
        """Go back `steps` spaces and land there; landing on GO is a lap (passing it backwards is not), with no
        salary."""
        target = (p.position - steps) % self.n_spaces
        p.position = target  # type: ignore[misc]
        if target == 0:
            self.lap(p)
        self.land(p, target)

    def move_straight_to(self, p: Player, target: int) -> None:
        """Put the token on `target` without going round the board (a random-move card) and land there: landing
        straight on GO is a lap and pays the salary, passing it does not."""
        p.position = target  # type: ignore[misc]
        if target == 0:
            self.lap(p)
            self.pay_salary(p)
        self.land(p, target)

    def lap(self, p: Player) -> None:
        """`p`'s token passed or landed on GO by a move other than `move_forward` and `move_to` (a card's, or a
        jump that stays on GO)."""
        if not p.lapped:
            p.lapped = True  # type: ignore[misc]

    def offer(self, p: Player, i: int) -> None:
        """`p` landed on unowned property i: they may buy it, unless they have not been round the board yet
        (house rule `buy_after_first_lap`: then nothing happens and it stays with the bank)."""
        if self.lap_rule and not p.lapped:
            self.events.append(("not_lapped", {"player": p.name, "space": self.space_names[i]}))
            return
        self.decision = decision("buy", space=i)

    def may_bid(self, q: int) -> bool:
        """Whether player q may take part in auctions: still in, and (`buy_after_first_lap`) lapped."""
        player = self.players[q]
        return not player.bankrupt and (player.lapped or not self.lap_rule)

    def pay_snake_eyes(self, p: Player) -> None:
        """Two ones: the bank pays the house rule's bonus (`snake_eyes_bonus`), before the move."""
        self.transfer(BANK, p.index, self.snake_eyes, "snake_eyes", NO_PARAMS)
        if p.debts:
            self.settle(p)

    def salary_paid(self) -> bool:
        """Whether passing the start still pays a salary (brands stops it after `salary_stop_minutes`)."""
        game: Game = self  # type: ignore[assignment]  # always a Game; no typing.cast call
        return self.rules.clock.salary_paid(game)

    def pay_salary(self, p: Player) -> None:
        if not self.salary_paid():
            return  # brands: salaries have stopped
        self.transfer(BANK, p.index, self.salary, "salary", NO_PARAMS)
        if p.debts:
            self.settle(p)

    def land(self, p: Player, i: int) -> None:
        self.building_state.visit_builds = 0
        if self.record_events:
            self.events.append(("moved", {"player": p.name, "space": self.space_names[i], "index": i}))
        if self.is_property[i]:
            owner = self.owner[i]
            if owner < 0:
                self.offer(p, i)
            elif owner != p.index and not self.mortgaged[i]:
                self.pay_rent(p.index, i, self.rent_due(i, self.last_roll))
            return
        kind = self.kinds[i]
        if kind == "go":
            bonus = self.options.start_landing_bonus
            if bonus and self.salary_paid():
                self.transfer(BANK, p.index, bonus, "start_bonus", self.space_params[i])  # GO by its own name
                if p.debts:
                    self.settle(p)
            return
        if kind == "casino":
            self.decision = decision("casino", space=i)
            return
        if kind == "card":
            self.decision = decision("draw", deck=self.ruleset.spaces[i].deck)  # type: ignore[arg-type]
        elif kind == "tax_choice":
            self.decision = decision("tax", space=i)
        elif kind == "tax":
            amount = self.tax_amounts[i]
            self.charge(p.index, BANK, amount, "tax", self.space_params[i], pot=True)
        elif kind == "go_to_jail":
            self.send_to_jail(p)
        elif kind == "free_parking":
            if self.options.free_parking_pot and self.pot > 0:
                self.transfer(POT, p.index, self.pot, "pot", {})
                if self.pot_seed:  # the bank seeds the pot again
                    self.transfer(BANK, POT, self.pot_seed, "pot_seed", NO_PARAMS)

    def pay_rent(self, payer: int, i: int, rent: int) -> None:
        """Rent for space i to its owner; brands: nothing to a jailed owner or an ally, and the rent tax."""
        owner = self.owner[i]
        if self.options.jail_no_rent and self.players[owner].in_jail:
            return
        if self.rules.teams.allies(payer, owner):  # the hooks themselves, not the questions: a call less a rent
            return
        self.charge(payer, owner, rent, "rent", self.space_params[i])
        if not self.players[payer].debts:  # paid now (owed, it is taxed when the debt is paid)
            self.rent_tax(owner, rent, self.space_params[i])

    def rent_tax(self, owner: int, rent: int, params: dict[str, Any]) -> None:
        """brands: the tax on rent the owner has just collected, at the rate of the moment it is collected."""
        game: Game = self  # type: ignore[assignment]  # always a Game; no typing.cast call
        pct = self.rules.clock.rent_tax_percent(game)
        if pct and rent:
            self.transfer(owner, BANK, rent * pct // 100, "rent_tax", params)

    # ------------------------------------------------------------------
    # Cards

    def remove_from_deck(self, card_id: str) -> None:
        for deck in self.decks.values():
            if card_id in deck:
                deck.remove(card_id)
                return

    def return_card(self, card_id: str) -> None:
        """A used or returned Get Out of Jail Free card goes under its deck."""
        self.decks[self.ruleset.card_by_id[card_id].deck].append(card_id)

    # ------------------------------------------------------------------
    # Guards on a space and on managing

    def space_arg(self, a: Mapping[str, Any], verb: str) -> int:
        if "space" not in a:
            raise InvalidAction("action.space_needed", verb=verb)
        return self.space_index(a["space"])

    def may_manage(self, p: int, verb: str, raising: bool) -> None:
        """Building, mortgages and trades: between decisions, or a debtor raising money."""
        player = self.players[p]
        if player.debts and raising:
            return
        if player.debts:
            raise IllegalAction("rule.in_debt", player=player.name, verb=verb)
        if not self.free_window():
            self.refuse_blocked(verb, p)

    # ------------------------------------------------------------------
    # The end

    def richest(self) -> str | list[str]:
        remaining = [q for q in self.players if not q.bankrupt]
        worth = {q.name: self.net_worth(q.index) for q in remaining}
        best = max(worth.values())
        top = [name for name, w in worth.items() if w == best]
        return top[0] if len(top) == 1 else top

    def end(self, reason: str, winner: str | list[str]) -> None:
        self.outcome = Outcome(reason, (winner,) if isinstance(winner, str) else tuple(winner))
        self.auction = None
        self.auction_queue = []
        self.turn_over_after_auctions = False
        self.events.append(("game_over", {"reason": reason, "winner": winner}))

    def net_worth(self, p: int) -> int:
        """Cash + price of unmortgaged properties + half price of mortgaged ones + buildings - debts."""
        player = self.players[p]
        worth = player.cash - sum(d.amount for d in player.debts)
        for i in self.ruleset.property_indices:
            if self.owner[i] == p:
                worth += self.prices[i] // 2 if self.mortgaged[i] else self.prices[i]
                worth += self.building_value(i)
        return worth

    # ------------------------------------------------------------------
    # Deeds, buildings, decisions and events

    def give_deed(self, i: int, p: int) -> None:
        """Space i now belongs to player p (-1: back to the bank). Caches key on `owner_version`."""
        self.owner[i] = p
        self.owner_version += 1

    def set_mortgaged(self, i: int, mortgaged: bool) -> None:
        self.mortgaged[i] = mortgaged

    def set_level(self, i: int, level: int) -> None:
        """Lot i now has `level` (0..hotel_houses houses, hotel_level a hotel); the bank's pool of houses and
        hotels gives what is added and takes back what is removed."""
        old = self.level[i]
        hotel = self.hotel_level
        self.bank_houses += (old if old != hotel else 0) - (level if level != hotel else 0)
        self.bank_hotels += (old == hotel) - (level == hotel)
        self.level[i] = level

    def set_decision(self, d: Decision | None) -> None:
        """What the current player must decide next (None: nothing)."""
        self.decision = d

    def set_auction(self, a: Auction | None) -> None:
        """The auction under way (None: none)."""
        self.auction = a

    # The auction under way changes only here (banker/mechanics/auction.py decides how).

    # (`assert a is not None` narrows the type for mypy at no cost; `typing.cast` is a call in pure Python.)

    def record_bid(self, p: int, amount: int) -> None:
        """Player p is the high bidder at `amount` in the auction under way."""
        a = self.auction
        assert a is not None
        a.high_bid = amount  # type: ignore[misc]
        a.high_bidder = p  # type: ignore[misc]

    def set_least_bid(self, amount: int, bidder: int = -2) -> None:
        """The next bid in the auction under way must be at least `amount` (and, given, is `bidder`'s: an
        auction bid in turn)."""
        a = self.auction
        assert a is not None
        a.min_bid = amount  # type: ignore[misc]
        if bidder != -2:
            a.next_bidder = bidder  # type: ignore[misc]

    def give_bid_to(self, q: int) -> None:
        """In an auction bid in turn, it is player q's bid now (-1: nobody's)."""
        a = self.auction
        assert a is not None
        a.next_bidder = q  # type: ignore[misc]

    def set_bidders(self, bidders: tuple[int, ...], next_bidder: int) -> None:
        """Who is still bidding in the auction under way, and whose bid it is (-1: nobody's)."""
        a = self.auction
        assert a is not None
        a.bidders = bidders  # type: ignore[misc]
        a.next_bidder = next_bidder  # type: ignore[misc]

    def drop_bidder(self, q: int) -> None:
        """Player q is out of the auction under way (passed, or cannot bid, or went bankrupt)."""
        a = self.auction
        assert a is not None
        bidders = a.bidders
        i = bidders.index(q)
        a.bidders = bidders[:i] + bidders[i + 1:]  # type: ignore[misc]

    def emit(self, code: str, params: dict[str, Any]) -> None:
        """Record an event (docs/game-script.md, "Events")."""
        self.events.append((code, params))

    # ------------------------------------------------------------------
    # What the game owes and counts: auctions to come, decisions owed, the move's and the turn's counters

    def queue_auctions(self, spaces: Iterable[int]) -> None:
        """Put properties up for auction after the one under way, each once."""
        queue = self.auction_queue
        for i in spaces:
            if i not in queue:
                queue.append(i)

    def next_queued_auction(self) -> int:
        """The next property queued for auction, taken off the queue; -1 when none is."""
        return self.auction_queue.pop(0) if self.auction_queue else -1

    def owe_mortgage_decision(self, p: int, i: int) -> None:
        """Player p, given mortgaged space i, must lift the mortgage or pay to keep it (`keep_mortgage`)."""
        self.mortgage_owed.append((p, i))

    def mortgage_decided(self, p: int, i: int) -> None:
        """Player p's decision on space i's mortgage is made (if one was owed)."""
        if (p, i) in self.mortgage_owed:
            self.mortgage_owed.remove((p, i))

    def owe_building(self, p: int, kind: str) -> None:
        """Player p won a building auction: a `kind` ("house" or "hotel") of theirs must go up."""
        self.build_owed.append((p, kind))

    def building_placed(self, p: int, kind: str) -> None:
        """The `kind` player p owed from a building auction is up."""
        self.build_owed.remove((p, kind))

    def forget_owed_by(self, p: int) -> None:
        """Player p is out: the mortgage decisions and buildings they owed are owed no more."""
        self.mortgage_owed = [(q, i) for q, i in self.mortgage_owed if q != p]
        self.build_owed = [(q, k) for q, k in self.build_owed if q != p]

    def count_bankruptcy(self) -> int:
        """One more player has gone bankrupt; how many have so far."""
        self.bankruptcies += 1
        return self.bankruptcies

    def end_turn_after_auctions(self) -> None:
        """The current player is out mid-turn: nothing more is owed by them, and the turn passes once the
        auctions queued have been held."""
        self.set_decision(None)
        self.roll_owed = False
        self.doubles = 0
        self.speed_die_state.mr_monopoly = False
        self.turn_over_after_auctions = True

    def owe_roll(self) -> None:
        """The current player rolls again now (a double)."""
        self.roll_owed = True

    def owe_roll_after_move(self) -> None:
        """The current player rolls again when the move is ended (biznes's double)."""
        self.roll_owed = False
        self.doubles_state.extra_roll = True

    def start_extra_roll(self) -> bool:
        """The move is ended and a double's roll was owed after it: a new move begins. False if none was."""
        if not self.doubles_state.extra_roll:
            return False
        self.doubles_state.extra_roll = False
        self.roll_owed = True
        self.trade_state.trades_used = 0
        return True

    def count_trade(self) -> None:
        """A trade made: one more in this turn."""
        self.trade_state.turn_trades += 1

    def count_trade_in_move(self) -> None:
        """A trade made where trades are counted by the move (biznes)."""
        self.trade_state.trades_used += 1

    def mortgaged_now(self, i: int) -> None:
        """Space i is mortgaged from this round on (brands counts the rounds a mortgage lasts)."""
        self.mortgaged[i] = True
        self.mortgage_state.mortgage_round[i] = self.round

    def skip_turn(self) -> int:
        """The turn timer ran out on the current player: their turn is skipped; how many in a row so far."""
        timer = self.clock_state
        timer.turn_skipped = True
        timer.skipped[self.turn] += 1
        return timer.skipped[self.turn]

    def pause(self) -> None:
        """The game clock stops (brands)."""
        self.clock_state.paused_at = self.action_t if self.action_t >= 0 else self.clock

    def resume(self) -> None:
        """The game clock runs again; the pause is left out of the game's minutes."""
        now = self.action_t if self.action_t >= 0 else self.clock
        timer = self.clock_state
        timer.paused_total += max(0.0, now - timer.paused_at)
        timer.paused_at = -1.0

    def give_jail_cards(self, p: int, q: int, count: int | None = None) -> None:
        """`count` of player p's Get Out of Jail Free cards (all when None), oldest first, go to player q."""
        giver, taker = self.players[p], self.players[q]
        cards = giver.jail_cards
        moved = cards if count is None else cards[:count]
        giver.jail_cards = cards[len(moved):]  # type: ignore[misc]
        taker.jail_cards = taker.jail_cards + moved  # type: ignore[misc]

    # ------------------------------------------------------------------
    # Tokens and cards outside a roll, buildings counted, the deal

    def place_token(self, p: int, i: int) -> None:
        """Player p's token is put on space i (a correction: nothing is paid, nothing is landed on)."""
        self.players[p].position = i  # type: ignore[misc]

    def new_visit(self) -> None:
        """A token arrives somewhere: the builds of this visit start again from none (biznes)."""
        self.building_state.visit_builds = 0

    def note_random_move(self, target: int) -> None:
        """A random-move card moved the current player to `target` in this roll (once a roll; the same target
        may not come twice in a row)."""
        moves = self.random_move_state
        moves.random_moved = True
        moves.last_random_target = target

    def keep_jail_card(self, p: int, card_id: str) -> None:
        """Player p keeps a Get Out of Jail Free card until it is used or traded."""
        player = self.players[p]
        player.jail_cards = player.jail_cards + (card_id,)  # type: ignore[misc]

    def take_jail_card(self, p: int) -> str:
        """Player p gives up their oldest Get Out of Jail Free card (to use it); which one."""
        player = self.players[p]
        card = player.jail_cards[0]
        player.jail_cards = player.jail_cards[1:]  # type: ignore[misc]
        return card

    def count_build(self, group: str | None) -> None:
        """One building more on this visit and, for its group, in this turn."""
        building = self.building_state
        building.visit_builds += 1
        if group is not None:
            building.group_builds[group] = building.group_builds.get(group, 0) + 1

    def dealt(self) -> None:
        """The opening deal is done."""
        self.deal_owed = False

    def unobserved(self, watched: bool) -> None:
        """A game nobody takes back (`banker simulate`): no copies are kept for undo; and unless someone
        `watched` it, the frequent events (rolled, moved, turn) are not recorded."""
        self.record_events = watched
        self.keeps_trail = False

    # ------------------------------------------------------------------
    # h-verbs (issue 39, item 2): the roll's changes (banker/verbs.py's `do_roll`), the speed die's and the
    # casino's

    def count_roll(self, player: Player, dice: Sequence[int]) -> None:
        """A roll of the dice by `player`: counted, and the `rolled` event (when events are recorded)."""
        self.rolls += 1
        if self.record_events:
            self.events.append(("rolled", {"player": player.name, "dice": dice}))

    def set_last_roll(self, steps: int) -> None:
        """The dice say `steps` (what a utility's rent counts); a random-move card may move the roller again."""
        self.last_roll = steps
        self.random_move_state.random_moved = False

    def set_roll_owed(self, owed: bool) -> None:
        """Whether the current player still has a roll to make (a double rolls again)."""
        self.roll_owed = owed

    def count_double(self) -> int:
        """One double more in the current turn; how many it has now."""
        self.doubles += 1
        return self.doubles

    def count_jail_try(self, player: Player) -> int:
        """A jailed player rolled and did not leave by a double; how many tries they have had now."""
        player.jail_turns = player.jail_turns + 1  # type: ignore[misc]
        return player.jail_turns

    def leave_jail(self, player: Player, how: str) -> None:
        """`player` leaves jail (`how`: "double", "forced_fine", "fine", "card"), with the `left_jail` event."""
        player.in_jail = False  # type: ignore[misc]
        player.jail_turns = 0  # type: ignore[misc]
        self.events.append(("left_jail", {"player": player.name, "how": how}))

    def set_mr_monopoly(self, due: bool) -> None:
        """The speed die's Mr. Monopoly move is due once the current landing is settled (False: done)."""
        self.speed_die_state.mr_monopoly = due

    def set_jackpot(self, amount: int) -> None:
        """The casino's jackpot is now `amount`."""
        self.casino_state.jackpot = amount


    # ------------------------------------------------------------------
    # Debts and bankruptcy, and a player's record at the game's setup

    def note_debt_auction(self, p: int, i: int) -> None:
        """Player p, in debt, put space i up for auction (biznes: once per space and debt)."""
        player = self.players[p]
        player.debt_auctioned = player.debt_auctioned + (i,)  # type: ignore[misc]

    def forgive_debts(self, p: int) -> None:
        """Player p owes nothing any more (they went bankrupt: what they have goes to their creditor instead)."""
        player = self.players[p]
        player.debts = ()  # type: ignore[misc]
        player.debt_auctioned = ()  # type: ignore[misc]
        self.recount_debtors()

    def declare_bankrupt(self, p: int) -> None:
        """Player p is out of the game: bankrupt, out of jail, their release cards gone."""
        player = self.players[p]
        player.jail_cards = ()  # type: ignore[misc]
        player.bankrupt = True  # type: ignore[misc]
        player.in_jail = False  # type: ignore[misc]
        player.jail_turns = 0  # type: ignore[misc]

    def pass_debts_owed_to(self, p: int, creditor: int) -> None:
        """Debts owed to player p are owed to `creditor` now (who took p's assets)."""
        for q in self.players:
            if any(d.creditor == p for d in q.debts):
                q.debts = tuple([Debt(d.amount, creditor, d.to_pot, d.code, d.params)  # type: ignore[misc]
                                 if d.creditor == p else d for d in q.debts])

    def set_up_player(self, p: int, cash: int, position: int, in_jail: bool, jail_turns: int, lapped: bool,
                      jail_cards: tuple[str, ...]) -> None:
        """Player p's record as a game's setup gives it (banker/game_setup.py has checked every value)."""
        player = self.players[p]
        player.cash = cash  # type: ignore[misc]
        player.position = position  # type: ignore[misc]
        player.in_jail = in_jail  # type: ignore[misc]
        player.jail_turns = jail_turns  # type: ignore[misc]
        player.lapped = lapped  # type: ignore[misc]
        player.jail_cards = jail_cards  # type: ignore[misc]

    # ------------------------------------------------------------------
    # Going back (see "Going back" at the top of this module)

    def snapshot(self) -> tuple[Any, ...]:
        """A copy of the state: every field `FIELDS` declares (a family's through its object), each copied by
        its kind, the append-only lists by their length."""
        plan = _PLAN
        values = _copies(list(plan.read(self)))
        for i in plan.lengths:
            values[i] = len(values[i])
        return tuple(values)

    def put_back(self, copy: tuple[Any, ...], keep: bool = True) -> None:
        """Make the state the one in `copy`: copied again if `keep` (to be used again), else moved in."""
        plan = _PLAN
        values = _copies(list(copy)) if keep else copy
        for i, name in plan.cut:
            del getattr(self, name)[values[i]:]
        for i, name in plan.assign:
            setattr(self, name, values[i])
        for family, fields in plan.parts:
            part = getattr(self, family)
            for i, name in fields:
                setattr(part, name, values[i])

    def take_state_of(self, other: Kernel) -> None:
        """Make the state `other`'s (a game of the same ruleset, players and setup), sharing its values, the
        families' state objects among them (`other` is a fresh game, dropped afterwards)."""
        for name in STATE:
            setattr(self, name, getattr(other, name))

    def go_back(self, length: int) -> None:
        """Make the state the one after the first `length` actions in effect (`history`).

        The recorded script (`script`) is left as it is: the caller records the undo.
        """
        game = cast("Game", self)
        history = self.history
        if not 0 <= length <= len(history):
            raise ValueError(f"cannot go back to {length} actions: the game has {len(history)}")
        at, copies = self.trail_at, self.trail
        while at and at[-1] > length:  # copies of a future that going back leaves behind
            at.pop()
            copies.pop()
        if at and at[-1] == length:  # the copy for exactly here: moved in, as going further back never needs it
            at.pop()
            self.put_back(copies.pop(), keep=False)
            return
        todo = history[at[-1] if at else 0:length]
        if at:
            self.put_back(copies[-1])  # kept: the base for going back to anywhere above it
            start = at[-1]
        else:
            self.take_state_of(game.new_like())
            start = 0
            at.append(0)
            copies.append(self.snapshot())
        script = self.script
        self.script = []  # apply() records what it plays; these actions are recorded already
        try:
            for reached, action in enumerate(todo, start=start + 1):
                game.apply(action)  # keeps a copy every SPARSE actions (keeps_trail)
                if reached % SPARSE == 0 or reached > length - DENSE:
                    self.keep_copy()
        finally:
            self.script = script

    def keep_copy(self) -> None:
        """Add a copy of the state as it is now to the trail (unless the trail has one for here already)."""
        reached = len(self.history)
        if not self.trail_at or self.trail_at[-1] < reached:
            self.trail_at.append(reached)
            self.trail.append(self.snapshot())

    def forget_copies(self) -> None:
        """Drop the trail (the state was replaced wholesale)."""
        self.trail_at.clear()
        self.trail.clear()
