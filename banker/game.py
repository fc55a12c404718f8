"""The game: state, the rules that change it, and the questions the app asks.

``Game.apply(action)`` is the one checked entry point. An action is a dict in
the game script format (docs/game-script.md): ``{"do": "roll", "dice": [3, 4]}``.
It either happens whole, or raises ``InvalidAction`` / ``IllegalAction`` and
changes nothing. Chance never comes from inside: dice, card draws and the
opening deal arrive in the action (``banker.chance`` fills them in for a
caller that wants a seeded source).

Every verb is a pair of functions of the module that owns it, listed in the
verb table (banker/verbtable.py): its check raises when the action is not
allowed now, its do changes the state through the kernel and cannot fail by
the rules (what cannot be paid becomes a debt). ``can(action)`` runs only the
check; ``legal_actions()`` lists what passes it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from banker import limits, state
from banker.errors import IllegalAction, InvalidAction
from banker.kernel import SPARSE, Kernel
from banker.mechanics import building, debt
from banker.model import Entry, Event
from banker.verbtable import TABLE

COMMON_FIELDS = frozenset({"do", "player", "t"})
# Every verb's fields (beside do, player and t), from the verb table (banker/verbtable.py).
VERB_FIELDS: dict[str, frozenset[str]] = {verb: v.fields for verb, v in TABLE.items()}
VERBS = tuple(VERB_FIELDS)
# Verbs whose actor is the owner of the named space when no player is given.
SPACE_VERBS = frozenset(verb for verb, v in TABLE.items() if v.space_actor)


class Game(Kernel):
    """One game under one ruleset. See the module docstring; the state and its changes are the kernel's."""


    # ------------------------------------------------------------------
    # Lookups


    def new_like(self) -> Game:
        """A fresh game with the same ruleset, players, options, setup and deck order, before any action."""
        players, options, setup, deck_order = self._init_args
        return Game(self.ruleset, players, options, setup, deck_order)






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
        if self.clock_state.paused_at >= 0 and verb not in ("resume", "end_game"):
            raise IllegalAction("rule.paused_now", verb=verb)
        start = len(self.events)
        if self.time_limit and t is not None and t >= self.time_limit:
            self.push(verb, self.turn, dict(action))  # time is up: this action ends the game
        else:
            actor = self._actor(verb, action)
            _CHECKS[verb](self, actor, action)  # check: raises, changes nothing
            try:
                self.push(verb, actor, dict(action))
            except Exception:
                # A rule's effect must never fail halfway; if one does anyway,
                # put the state back as it was before this action and re-raise.
                self.go_back(len(self.history))
                raise
        if self.keeps_trail and len(self.history) % SPARSE == 0:
            self.keep_copy()
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
                self.end("time", self.richest())  # the agreed end time has come: the action is not carried out
            else:
                _DOERS[verb](self, actor, action)
            self.clock = float(t)
        else:
            _DOERS[verb](self, actor, action)
        if self.debtors or self.turn_over_after_auctions or self.speed_die_state.mr_monopoly:
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
        if self.clock_state.paused_at >= 0 and verb not in ("resume", "end_game"):
            raise IllegalAction("rule.paused_now", verb=verb)
        actor = self._actor(verb, action)
        _CHECKS[verb](self, actor, action)

    def undo(self, record: dict[str, Any] | None = None) -> None:
        """Take back the latest action not yet taken back."""
        if not self.history:
            raise IllegalAction("rule.nothing_to_undo")
        self.go_back(len(self.history) - 1)  # in time for what it takes back (banker/kernel.py, "Going back")
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
            self.go_back(0)
            self.script = []
            raise
        self.script = [dict(a) for a in script]

    def truncate(self, length: int) -> None:
        """Go back to the state after the first `length` recorded actions (undos count as actions)."""
        fresh = self.new_like()
        fresh.restore(self.script[:length])
        self.take_state_of(fresh)
        self.script = fresh.script
        self.forget_copies()

    # ------------------------------------------------------------------
    # Who acts

    def _actor(self, verb: str, action: Mapping[str, Any]) -> int:
        given = action.get("player")
        if given is not None:
            p = self.player_index(given)
            if self.players[p].bankrupt:
                raise IllegalAction("rule.bankrupt_player", player=self.players[p].name)
            return p
        if verb in SPACE_VERBS and "space" in action:
            i = self.space_index(action["space"])
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
                    self.settle(p)
        if self.speed_die_state.mr_monopoly:
            self.rules.speed_die.after_action(self)  # the speed die's Mr. Monopoly move, when it may go now
        if self.turn_over_after_auctions and self.auction is None and not self.auction_queue and self.outcome is None:
            self.turn_over_after_auctions = False
            self.next_turn()



    # ------------------------------------------------------------------
    # Money




    # ------------------------------------------------------------------
    # Values


    def buildings_sale_value(self, i: int) -> int:
        """What the bank pays for every building on lot i: half their cost (a hotel with its houses)."""
        return self.level[i] * self.building_refund(i)

    def building_refund(self, i: int) -> int:
        """What the bank pays back for one building on lot i (half its cost in classic)."""
        return self.ruleset.spaces[i].building_cost * self.refund_percent // 100



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
        pct = self.options.mortgage_interest_percent
        return -(-self.mortgage_value(i) * pct // 100)

    def unmortgage_cost(self, i: int) -> int:
        return self.rules.mortgage.unmortgage_cost(self, i)


    # ------------------------------------------------------------------
    # Turn flow helpers










    def economy_minutes(self) -> float:
        """Minutes of play by the game clock (pauses left out), for the brands economy."""
        now = self.action_t if self.action_t >= 0 else self.clock
        return max(0.0, now - self.clock_state.paused_total) / 60


    def rent_tax_percent(self) -> int:
        """brands: the tax on collected rent now (0 before it starts)."""
        return self.rules.clock.rent_tax_percent(self)





    def allies(self, p: int, q: int) -> bool:
        """Whether players p and q play on the same team (brands-teams: seats 1 and 3 against 2 and 4)."""
        return self.rules.teams.allies(p, q)



    # ------------------------------------------------------------------
    # roll (the verb is banker/verbs.py's; the speed die's hooks count the dice)

    def speed_die_active(self) -> bool:
        """The speed die is rolled from round `speed_die_round` on (counting rounds from 1)."""
        return self.rules.speed_die.active(self)

    def dice_count(self) -> int:
        """How many dice the next roll takes."""
        return self.rules.speed_die.dice_count(self)

    # ------------------------------------------------------------------
    # auctions (the verbs are banker/mechanics/auction.py's)

    def least_bid(self, p: int) -> int:
        """The least amount player p may bid in the running auction, by the auction family's own rules (their
        cash and their turn aside). Where the rules leave a raise free (`variant.free_raise`) the app may offer
        more, by its table's bid step; elsewhere this is the bid to offer."""
        auction = self.auction
        assert auction is not None, "least_bid asked without an auction"
        return self.rules.auction.least_bid(self, auction, p)

    # ------------------------------------------------------------------
    # questions about the decks and the trades

    def random_targets(self) -> list[int]:
        """The spaces a random-move card may send the current player to now."""
        here = self.current.position
        return [i for i in range(self.n_spaces) if i != here and i != self.random_move_state.last_random_target]

    def next_card(self, deck: str) -> str:
        """The top card of a deck (what a draw without a card takes)."""
        return self.decks[deck][0]

    def trades_left_in_move(self) -> int | None:
        """How many more trades the mover may make in this move, where trades are counted by the move (biznes);
        None where they are not."""
        limit = self.variant.trades_per_move
        return None if limit is None else max(0, limit - self.trade_state.trades_used)


    # ------------------------------------------------------------------
    # tax

    def income_tax(self, p: int, choice: str) -> int:
        if choice == "flat":
            return self.options.income_tax_flat
        return self.total_worth(p) * self.options.income_tax_percent // 100

    # ------------------------------------------------------------------
    # buildings



    def build_problem(self, p: int, i: int, kind: str | None, ignore_cash: bool = False) -> IllegalAction | None:
        """Why player p cannot add a building to lot i now (None when they can): the building family's answer,
        which the building auction and the computer players ask too."""
        return building.build_problem(self, p, i, kind, ignore_cash)

    # ------------------------------------------------------------------
    # debts: how a debtor raises money (banker/mechanics/debt.py carries out the verbs)

    def bank_price(self, i: int) -> int:
        """What the bank pays for property i: half its price plus half the cost of its buildings."""
        return debt.bank_price(self, i)

    def own_auction_reserves(self, p: int, i: int) -> tuple[int, int]:
        """The lowest and highest opening bid player p may set for an auction of space i."""
        return debt.own_auction_reserves(self, p, i)

    def raisable(self, p: int) -> int:
        """What player p could still raise from their properties: every building sold back and every property
        not yet mortgaged mortgaged, or, where the rules have no mortgages, every property sold to the bank."""
        total = 0
        for i in self.iter_properties(p):
            if self.variant.raises_by_selling:
                total += self.bank_price(i)
                continue
            total += self.buildings_sale_value(i)
            if not self.mortgaged[i]:
                total += self.mortgage_value(i)
        return total

    # ------------------------------------------------------------------
    # brands: the turn timer and pauses

    # ------------------------------------------------------------------
    # the end



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
                owed = self.rules.debt.debtor_verbs(self, debtor.index)
                if owed:
                    out.append({"player": debtor.name, "verbs": owed})
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
                    if cur.cash >= self.options.jail_fine:
                        verbs.append("pay_fine")
                    if cur.jail_cards:
                        verbs.append("use_card")
                out.append({"player": cur.name, "verbs": verbs})
            else:
                out.append({"player": cur.name, "verbs": ["end_turn"]})
        return out

    def has_any(self, p: int, verb: str) -> bool:
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
            for verb in self.space_verbs:
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
        if self.variant.building_auctions:
            for kind in ("house", "hotel"):
                candidates.append({"do": "building_auction", "kind": kind})
        legal = [c for c in candidates if self._allowed(c)]
        d = self.decision
        if (self.roll_owed or (d is not None and d.kind == "card_roll")) and self.can(
                {"do": "roll", "dice": [1] * self.dice_count()}) is None:
            legal.append({"do": "roll", "player": cur})
        if d is not None and d.kind == "draw":
            draw: dict[str, Any] = {"do": "draw", "card": self.decks[d.deck][0]}
            if (self.ruleset.card_by_id[draw["card"]].effect == "random_move"
                    and not self.random_move_state.random_moved):
                draw["target"] = self.random_targets()[0]
            if self.can(draw) is None:
                legal.append({"do": "draw", "player": cur})
        if d is not None and d.kind == "tax":
            legal += [{"do": "tax", "player": cur, "choice": c} for c in ("flat", "percent")]
        if d is not None:  # the speed die's bus and jump, the casino's bet: their families' choices
            legal += self.rules.speed_die.choices(self, d, cur)
            legal += self.rules.casino.choices(self, d, cur)
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


# verb -> its check, verb -> its do, from the verb table (banker/verbtable.py); module-level so that the compiled
# build (mypyc) holds them: `apply` and `push` dispatch by one dict lookup.
_CHECKS: dict[str, Callable[..., None]] = {verb: v.check for verb, v in TABLE.items() if v.check is not None}
_DOERS: dict[str, Callable[..., None]] = {verb: v.do for verb, v in TABLE.items() if v.do is not None}
