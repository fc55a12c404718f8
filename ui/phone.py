"""What the phone page shows: the live game as plain JSON, in the family's language.

`phone_state(session)` is built from the same view data the touchscreen
draws (ui/view.py) and the session's translator, so a phone reads exactly
what the table reads. No Kivy here, and nothing personal beyond the names the
family typed: no card UIDs, no PIN hash, no journal path.

The net-worth chart replays the game; so that publishing after every tap stays
cheap, the series are kept here and extended by the new actions only (a full
replay happens only after an undo or for another game).
"""

from __future__ import annotations

import threading
from typing import Any

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
        "bankrupt": tr("ui.player.bankrupt"),
        "gone": tr("ui.phone.gone"),
        "ended": tr("ui.phone.ended"),
        "house_rules": tr("ui.phone.house_rules"),
        "rulebook": tr("ui.house.rulebook"),
        "report": tr("ui.report.title"),
    }
    players = []
    for p in view.players(c):
        players.append({
            "name": p["name"], "colour": p["colour"], "cash": p["cash"], "net_worth": p["worth"],
            "where": p["where"], "flags": p["flags"], "bankrupt": p["bankrupt"], "current": p["current"],
            "deeds": _deeds(c, game, p["name"]),
        })
    return {
        "title": title,
        "language": tr.language,
        "labels": labels,
        "turn": game.current.name,
        "ended": bool(game.ended),
        "winner": game.outcome.winner if game.outcome is not None else None,
        "players": players,
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


def _deeds(c: Session, game: Game, player: str) -> list[dict[str, Any]]:
    """A player's deeds by colour group, as the deeds screen groups them, without the touchscreen's buttons.

    (the deeds screen also asks the rules which of seven actions each deed allows and
    prints its rents; the phone shows neither, and this is called on every tap.)
    """
    groups: dict[str, list[dict[str, Any]]] = {}
    for i in game.iter_properties(game.index_of[player]):
        groups.setdefault(game.groups[i] or "", []).append({
            "name": game.space_name(i),
            "buildings": view.buildings_text(c, game, i) if game.kinds[i] == "lot" else "",
            "mortgaged": bool(game.mortgaged[i]),
        })
    info = game.ruleset.groups
    return [{"group": g, "group_name": c.tr.group(g, info.get(g, {}).get("name", g)),
             "colour": info.get(g, {}).get("color", "#BDBDBD"), "deeds": items}
            for g, items in groups.items()]


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


__all__ = ["phone_state", "worth_history"]
