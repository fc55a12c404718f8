"""Setting a game up: the options a table chose, the players' names, and a script's starting position.

Everything here runs before the first action and refuses with `SetupError` (the header's line in a game
script): an unknown option or a value out of its range, a player count the ruleset does not allow, a bad or
repeated name, a ruleset whose lots lack rents, and a `setup` position the rules could not have reached.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from banker import limits, outside
from banker.errors import InvalidAction, SetupError
from banker.options import OptionError, Options, options_from
from banker.ruleset import Ruleset, check_option_combinations

if TYPE_CHECKING:
    from banker.game import Game


def game_options(ruleset: Ruleset, options: Mapping[str, Any], players: int | None = None) -> Options:
    """The ruleset's options with the table's choices (option name -> value) over them, each checked (with
    `players`, for that many). Every option's range lies within a game script's numbers (`limits.MAX_INT`)."""
    try:
        opts = options_from(options, ruleset.options)
    except OptionError as exc:
        if exc.unknown:
            raise SetupError("setup.unknown_option", option=exc.option) from None
        raise SetupError("setup.bad_option", option=exc.option, problem=exc.problem) from None
    check_option_combinations(ruleset, opts, lambda key, problem: SetupError("setup.bad_option", option=key,
                                                                            problem=problem), players)
    return opts


def player_names(ruleset: Ruleset, players: Sequence[str]) -> list[str]:
    """The players' names, as many as the ruleset allows, each a non-empty text, none "bank", none twice."""
    names = list(players)
    if not ruleset.players_min <= len(names) <= ruleset.players_max:
        raise SetupError("setup.player_count", count=len(names), least=ruleset.players_min,
                         most=ruleset.players_max, rules=ruleset.name)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise SetupError("setup.bad_name", name=name)
        if outside.control_character(name) is not None:
            raise SetupError("setup.name_characters", name=limits.shown(name))
        if len(name) > limits.MAX_NAME_CHARS:
            raise SetupError("setup.name_too_long", most=limits.MAX_NAME_CHARS, count=len(name))
        if name == "bank":
            raise SetupError("setup.bank_name")
    if len(set(names)) != len(names):
        raise SetupError("setup.duplicate_name")
    return names


def hotel_houses(ruleset: Ruleset, opts: Options) -> int:
    """The houses a hotel takes, once every lot is known to print a rent for each level up to it."""
    houses = opts.hotel_houses
    for s in ruleset.spaces:
        if s.kind == "lot" and len(s.rents) < houses + 2:
            raise SetupError("setup.short_rents", space=s.name, need=houses + 2)
    return houses


def apply_setup(game: Game, setup: Mapping[str, Any]) -> None:
    """Put a game just made into the position a script's header `setup` describes (docs/game-script.md),
    refusing with SetupError what the rules could not have led to."""
    if not isinstance(setup, Mapping):
        raise SetupError("setup.bad", problem="setup must be an object")
    for key in setup:
        if key not in ("players", "spaces"):
            raise SetupError("setup.bad", problem=f"unknown key {key!r}")
    players = setup.get("players", {})
    spaces = setup.get("spaces", {})
    if not isinstance(players, Mapping) or not isinstance(spaces, Mapping):
        raise SetupError("setup.bad", problem="players and spaces must be objects")
    jail_free_cards = [c.id for c in game.ruleset.cards if c.effect == "jail_free"]
    for name, entry in players.items():
        if name not in game.index_of:
            raise SetupError("setup.bad", problem=f"no player {limits.shown(name)}")
        index = game.index_of[name]
        p = game.players[index]
        if not isinstance(entry, Mapping):
            raise SetupError("setup.bad", problem=f"players.{name} must be an object")
        cash, position, in_jail, jail_turns, lapped = p.cash, p.position, p.in_jail, p.jail_turns, p.lapped
        cards = p.jail_cards
        for key, value in entry.items():
            where = f"players.{name}.{key}"
            if key == "cash":
                cash = _int(value, where, 0, limits.MAX_INT)
            elif key == "position":
                position = _int(value, where, 0, game.n_spaces - 1)
            elif key == "in_jail":
                in_jail = _bool(value, where)
            elif key == "jail_turns":
                jail_turns = _int(value, where, 0, game.jail_tries - 1)
            elif key == "lapped":
                given = _bool(value, where)
                if game.options.buy_after_first_lap:  # accepted and ignored while the house rule is off
                    lapped = given
            elif key == "jail_cards":
                count = _int(value, where, 0, len(jail_free_cards))
                cards = ()
                for _ in range(count):
                    free = [c for c in jail_free_cards if c not in cards
                            and not any(c in q.jail_cards for q in game.players if q.index != index)]
                    if not free:
                        raise SetupError("setup.bad", problem=f"{where}: no Get Out of Jail Free card is left")
                    cards += (free[0],)
                    game.remove_from_deck(free[0])
            else:
                raise SetupError("setup.bad", problem=f"unknown key {where}")
        if in_jail:
            position = game.jail_index
        elif jail_turns:
            raise SetupError("setup.bad", problem=f"players.{name}.jail_turns needs in_jail")
        game.set_up_player(index, cash, position, in_jail, jail_turns, lapped, cards)
    for key, entry in spaces.items():
        i = _space(game, key)
        if not isinstance(entry, Mapping):
            raise SetupError("setup.bad", problem=f"spaces.{key} must be an object")
        houses = 0
        hotel = False
        for field_name, value in entry.items():
            where = f"spaces.{key}.{field_name}"
            if field_name == "owner":
                if value is None:
                    game.give_deed(i, -1)
                elif not isinstance(value, str):
                    raise SetupError("setup.bad", problem=f"{where} must be a player's name or null, not {limits.shown(value)}")
                elif value not in game.index_of:
                    raise SetupError("setup.bad", problem=f"{where}: no player {value!r}")
                else:
                    game.give_deed(i, game.index_of[value])
            elif field_name == "houses":
                houses = _int(value, where, 0, game.hotel_houses)
            elif field_name == "hotel":
                hotel = _bool(value, where)
            elif field_name == "mortgaged":
                game.set_mortgaged(i, _bool(value, where))
                if game.mortgaged[i] and not game.rules.mortgage.allowed():
                    raise SetupError("setup.rule", problem=f"{where}: there are no mortgages in {game.ruleset.name}")
            else:
                raise SetupError("setup.bad", problem=f"unknown key {where}")
        if hotel and houses:
            raise SetupError("setup.bad", problem=f"spaces.{key}: a lot with a hotel has no houses")
        level = game.hotel_level if hotel else houses
        if level and game.kinds[i] != "lot":
            raise SetupError("setup.bad", problem=f"spaces.{key}: only lots take buildings")
        game.set_level(i, level)  # the bank's pool gives what is built (checked below)
    # Check the whole position like any other state.
    for i in game.ruleset.property_indices:
        name = game.ruleset.spaces[i].name
        if game.owner[i] < 0 and (game.level[i] or game.mortgaged[i]):
            raise SetupError("setup.rule", problem=f"{name} has no owner but has buildings or a mortgage")
        if game.mortgaged[i] and game.level[i]:
            raise SetupError("setup.rule", problem=f"{name} is mortgaged and has buildings")
    for members in game.group_members.values():
        levels = [game.level[i] for i in members]
        if max(levels) == 0:
            continue
        owners = {game.owner[i] for i in members}
        first = game.ruleset.spaces[members[0]].name
        if len(owners) != 1:
            raise SetupError("setup.rule", problem=f"buildings on {first}'s group need one owner of the whole group")
        if any(game.mortgaged[i] for i in members):
            raise SetupError("setup.rule", problem=f"buildings in {first}'s group with a lot mortgaged")
        if max(levels) - min(levels) > 1 and game.options.build_evenly:
            raise SetupError("setup.rule", problem=f"buildings in {first}'s group are not even")
    if game.bank_houses < 0 or game.bank_hotels < 0:
        raise SetupError("setup.rule", problem=(
            f"more buildings on the board than the bank holds ({game.options.houses} houses, "
            f"{game.options.hotels} hotels)"))

def _space(game: Game, key: Any) -> int:
    try:
        return game.space_index(key)
    except InvalidAction:
        raise SetupError("setup.bad", problem=f"no space {key!r}") from None


def _int(value: Any, where: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SetupError("setup.bad", problem=f"{where} must be a whole number, not {limits.shown(value)}")
    if value < low or (high is not None and value > high):
        bound = f"{low} to {high}" if high is not None else f"at least {low}"
        raise SetupError("setup.bad", problem=f"{where} must be {bound}, not {value}")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise SetupError("setup.bad", problem=f"{where} must be true or false, not {limits.shown(value)}")
    return value
