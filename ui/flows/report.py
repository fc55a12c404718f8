"""After the game, in words a family reads across the table: the game's report (from the game-over screen,
and on the phones once the game is over) and the family's hall of fame (from the start screen), which lists the
finished games, newest first, each opening its report again (the "past_report" page) long after Done.

The numbers are the engine's (banker/report.py: `game_report`, `family_stats`); here they become sentences
in the family's language, amounts through `Translator.money`. `report_view` and `fame_view` take the
engine's dicts, so the phone page (ui/phone.py) words the report exactly as the touchscreen does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from banker.journal import JournalError
from banker.report import game_report
from ui.flows.base import Flow
from ui.i18n import winners_msg
from ui.pages import FAME_PAGE, HOME, OVER, OVER_PAGE, PAST_REPORT_PAGE, REPORT_PAGE, home_page

if TYPE_CHECKING:
    from banker.game import Game
    from ui.flows import Flows
    from ui.session import Session

PAST_SHOWN = 30  # the newest finished games the hall of fame lists, each opening its report
KINDS = ("rent", "salary", "buy", "tax", "card", "auction", "trade", "deal", "build", "mortgage", "unmortgage",
         "jail_fine", "start_bonus", "pot", "sell", "sell_to_bank", "sell_to_player")  # kinds with words of their own


class Coloured(TypedDict):
    """A player of a report's page: their name and colour (`ReportFlow._coloured` gives a past game's)."""

    name: str
    colour: str


class ReportPlayer(Coloured):
    """A player on the report page: their place and their game in a few lines."""

    place: int
    lines: list[str]


class ReportView(TypedDict):
    """The report page (`report_view`)."""

    game: int  # the journal's id of the game
    title: str
    winner: str
    length: str
    turning: str | None  # the turning point (the largest single payment), None when nobody paid anything
    players: list[ReportPlayer]


class MoneyPlayer(Coloured):
    """A player's bar on the report's chart: what they received, as [kind, amount] parts (rent, salary, the rest),
    what they paid, and both totals in words."""

    received: list[list[str | int]]
    paid: int
    received_text: str
    paid_text: str


class MoneyView(TypedDict):
    """The report's chart (`money_view`): its headings, the kinds' legend as [kind, words], and the players."""

    title: str
    paid: str
    received: str
    kinds: list[list[str]]
    players: list[MoneyPlayer]


class FamePlayer(TypedDict):
    """A player in the hall of fame: their name, their wins in words, and their rent and best game in words."""

    name: str
    wins: str
    more: str


class FameView(TypedDict):
    """The hall of fame's words (`fame_view`): the games played (or that there are none, or that the history is
    still being counted: `empty`), a line per player, the longest and the shortest game."""

    title: str
    games: str
    players: list[FamePlayer]
    lengths: list[str]
    empty: bool


class PastGame(TypedDict):
    """A finished game in the hall of fame's list, which opens its report: its id, and a line saying it."""

    game: int
    text: str


class FamePage(FameView):
    """The hall of fame page (`ReportFlow.fame_view`): its words, and the finished games' reports to open."""

    past: list[PastGame]
    past_title: str


def kind_word(s: Session, kind: str) -> str:
    """A money kind as a noun: "rent", "buying property"; kinds without words of their own are "other"."""
    return s.tr(f"ui.report.kind.{kind}" if kind in KINDS else "ui.report.kind.other")


def length_text(s: Session, turns: int, minutes: float | None) -> str:
    """A game's length: "42 turns", or "42 turns, 95 minutes" when its minutes are known."""
    tr = s.tr
    if minutes is None or round(minutes) < 1:  # unknown, or under a minute (an imported game)
        return tr.count("ui.n.turn", turns)
    return tr("ui.report.turns_minutes", turns=turns, minutes=int(round(minutes)))


def _payee(s: Session, to: str) -> str:
    return s.tr(f"ui.{to}") if to in ("bank", "pot") else to


def _top(amounts: dict[str, int], leave_out: str | None = None) -> tuple[str, int] | None:
    """The largest kind (the first by name of equal ones), without `leave_out`."""
    items = [(k, v) for k, v in amounts.items() if k != leave_out and v > 0]
    return max(items, key=lambda kv: kv[1]) if items else None  # the kinds come sorted by name


def player_lines(s: Session, p: dict[str, Any]) -> list[str]:
    """A player's game in a few plain sentences: rent collected and where most of it came from, what else came
    in and went out the most, and how they ended."""
    tr, name, lines = s.tr, p["name"], []
    rent = p["received"].get("rent", 0)
    best = p["best_property"]
    if rent and best is not None and best["rent"] == rent:
        lines.append(tr("ui.report.rent_all", player=name, amount=rent, space=best["space"]))
    elif rent and best is not None:
        lines.append(tr("ui.report.rent_from", player=name, amount=rent, part=best["rent"], space=best["space"]))
    elif rent:
        lines.append(tr("ui.report.rent", player=name, amount=rent))
    income, spending = _top(p["received"], "rent"), _top(p["paid"])
    if income is not None and spending is not None:
        lines.append(tr("ui.report.in_out", income=kind_word(s, income[0]), amount_in=income[1],
                        spending=kind_word(s, spending[0]), amount_out=spending[1]))
    elif income is not None:
        lines.append(tr("ui.report.in", income=kind_word(s, income[0]), amount_in=income[1]))
    elif spending is not None:
        lines.append(tr("ui.report.out", spending=kind_word(s, spending[0]), amount_out=spending[1]))
    if p["net_worth"] == 0 and p["cash_end"] <= 0 and p["rank"] > 1:
        lines.append(tr("ui.report.bankrupt"))
    else:
        lines.append(tr("ui.report.ended", cash=p["cash_end"], worth=p["net_worth"]))
    return lines


def report_view(s: Session, report: dict[str, Any]) -> ReportView:
    """The report page's words from `banker.report.game_report`: the winner, the game's length, the turning
    point (the largest single payment) and a few lines per player, in rank order (seat order among equals); and
    the game's id."""
    tr = s.tr
    winner = report["winner"]
    turning = None
    payments = [(p["biggest_payment"]["amount"], -i, p) for i, p in enumerate(report["players"])
                if p["biggest_payment"] is not None]
    if payments:
        _, _, payer = max(payments, key=lambda t: (t[0], t[1]))
        b = payer["biggest_payment"]
        words = {"payer": payer["name"], "payee": _payee(s, b["to"]), "amount": b["amount"],
                 "kind": kind_word(s, b["kind"]), "turn": b["turn"]}
        turning = tr("ui.report.turning" if b["turn"] is not None else "ui.report.turning_no_turn", **words)
    players = sorted(enumerate(report["players"]), key=lambda ip: (ip[1]["rank"], ip[0]))
    return {
        "game": report["game"],  # the journal's id: the page opens another game's report at its top
        "title": tr("ui.report.title"),
        "winner": tr.render(winners_msg(winner)) if winner else tr("ui.phone.ended"),
        "length": tr("ui.report.length", length=length_text(s, report["turns"], report["minutes"])),
        "turning": turning,
        "players": [{"name": p["name"], "place": p["rank"], "colour": s.colour(p["name"]),
                     "lines": player_lines(s, p)} for _, p in players],
    }


CHART_KINDS = ("rent", "salary")  # money received, split on the report's chart; the rest is one more part


def money_view(s: Session, report: dict[str, Any]) -> MoneyView:
    """The report page's chart (ui/chart.py's MoneyBars) from `banker.report.game_report`: per player, in rank
    order, what they received split into rent, salary and the rest, and what they paid, with both totals
    in words; the headings and the kinds' legend. Every part is the report's: the parts add up to the total."""
    tr = s.tr
    players: list[MoneyPlayer] = []
    for _, p in sorted(enumerate(report["players"]), key=lambda ip: (ip[1]["rank"], ip[0])):
        received = sum(p["received"].values())
        amounts: dict[str, int] = {kind: p["received"].get(kind, 0) for kind in CHART_KINDS}
        parts: list[list[str | int]] = [[kind, amount] for kind, amount in amounts.items()]
        parts.append(["other", received - sum(amounts.values())])
        paid = sum(p["paid"].values())
        players.append({"name": p["name"], "colour": s.colour(p["name"]), "received": parts, "paid": paid,
                        "received_text": tr.money(received), "paid_text": tr.money(paid)})
    return {"title": tr("ui.report.chart.title"), "paid": tr("ui.report.chart.paid"),
            "received": tr("ui.report.chart.received"),
            "kinds": [[kind, kind_word(s, kind)] for kind in CHART_KINDS] + [["other", tr("ui.report.chart.other")]],
            "players": players}


def fame_view(s: Session, stats: dict[str, Any] | None) -> FameView:
    """The hall of fame's words from `banker.report.family_stats`: games played, a line per player (wins of
    games, the win rate, rent collected, the best game), the longest and the shortest game; an empty history
    says so, and so does a history still being read beside the app (`stats` None: ui/history.py)."""
    tr = s.tr
    if stats is None:
        return {"title": tr("ui.fame.title"), "games": tr("ui.fame.counting"), "players": [], "lengths": [],
                "empty": True}
    if not stats["games"]:
        return {"title": tr("ui.fame.title"), "games": tr("ui.fame.empty"), "players": [], "lengths": [],
                "empty": True}
    players: list[FamePlayer] = []
    for p in stats["players"]:
        best = p["best_game"]
        players.append({
            "name": p["name"],
            "wins": tr("ui.fame.wins", wins=p["wins"], games=p["games"], rate=int(round(p["win_rate"] * 100))),
            "more": tr("ui.fame.more", rent=p["rent_collected"], game=best["game"], worth=best["net_worth"])
            if best is not None else tr("ui.fame.rent", rent=p["rent_collected"]),
        })
    lengths: list[str] = []
    for key, which in (("longest_game", "ui.fame.longest"), ("shortest_game", "ui.fame.shortest")):
        g = stats[key]
        if g is not None:
            lengths.append(tr(which, game=g["game"], length=length_text(s, g["turns"], g["minutes"])))
    if len(lengths) == 2 and stats["longest_game"] == stats["shortest_game"]:
        lengths = lengths[:1]  # one game: it is both
    return {"title": tr("ui.fame.title"), "games": tr("ui.fame.games", count=stats["games"]), "players": players,
            "lengths": lengths, "empty": False}


class ReportFlow(Flow):
    """The report page (the game-over screen's "Game report") and the hall of fame (the start screen's)."""

    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        self._report: tuple[Game, int, dict[str, Any]] | None = None  # (game, actions, game_report) kept
        self._stats: dict[str, Any] | None = None  # the history (ui/history.py), read when the hall of fame opens
        self.past: int | None = None  # the finished game whose report the hall of fame opened ("past_report")
        self._past: tuple[int, dict[str, Any], dict[str, str]] | None = None  # (id, game_report, colours) kept

    def report(self) -> dict[str, Any]:
        """The engine's report of the game just over (kept until the game changes: it replays the game), or on
        the start screen's side the past game the hall of fame opened."""
        if self.f.mode == HOME and self._past is not None:
            return self._past[1]
        s, game = self.s, self.game
        assert game is not None and s.live is not None
        kept = self._report
        if kept is None or kept[0] is not game or kept[1] != len(game.history):
            gid = s.live.id
            made = game_report(game, gid, s.journal.status(gid), s.journal.action_times(gid))
            self._report = kept = (game, len(game.history), made)
        return kept[2]

    def report_view(self) -> ReportView:
        v = report_view(self.s, self.report())
        self._coloured(v["players"])
        return v

    def money_view(self) -> MoneyView:
        v = money_view(self.s, self.report())
        self._coloured(v["players"])
        return v

    def _coloured(self, players: Sequence[Coloured]) -> None:
        """A past game's players in the colours they played in (its meta document), not the live game's."""
        if self.f.mode == HOME and self._past is not None:
            colours = self._past[2]
            for p in players:
                p["colour"] = str(colours.get(p["name"], p["colour"]))

    def past_games(self) -> list[PastGame]:
        """The finished games the hall of fame lists (the newest PAST_SHOWN), each a line that opens its report:
        {"game", "text"}."""
        tr = self.s.tr
        out: list[PastGame] = []
        for found in self.s.history.finished()[:PAST_SHOWN]:
            summary = found.summary or {}
            out.append({"game": found.id, "text": tr(
                "ui.fame.game", game=found.id, players=", ".join(p["name"] for p in summary.get("players", [])),
                result=winners_msg(summary.get("winners", [])))})
        return out

    def open_past(self, game_id: int) -> None:
        """A finished game's report, from the hall of fame's list; a game that no longer loads says why there."""
        s = self.s
        try:
            journal = s.journal
            game = journal.load(game_id).game
            made = game_report(game, game_id, journal.status(game_id), journal.action_times(game_id))
            colours = dict(journal.meta(game_id).get("colours", {}))
        except JournalError as exc:
            s.notify(str(exc), "error")
            self.changed()
            return
        self.past, self._past = game_id, (game_id, made, colours)
        self.f.nav.go(PAST_REPORT_PAGE)

    def back_from_report(self) -> None:
        """The report's Back: to the hall of fame for a past game, else to the game-over screen."""
        self.f.nav.go(FAME_PAGE if self.f.mode == HOME else OVER_PAGE)

    def open_report(self) -> None:
        self.f.nav.go(REPORT_PAGE)

    def open_fame(self) -> None:
        """The hall of fame: the history as the app keeps it (ui/history.py: the summaries read beside the app,
        then only the games changed since looked at), so that it opens as fast as any page."""
        self._stats = None
        self.f.nav.go(FAME_PAGE)

    def stats(self) -> dict[str, Any] | None:
        """The family's history now, or None while the app is still reading it (the page says so, and is drawn
        again once it is in); a journal that cannot be read says why in a notice."""
        if self._stats is None:
            s = self.s
            try:
                self._stats = s.history.stats(s.journal)
            except JournalError as exc:
                s.notify(str(exc), "error")
                self._stats = {"games": 0}
        return self._stats

    def fame_view(self) -> FamePage:
        return {**fame_view(self.s, self.stats()), "past": self.past_games() if self._stats is not None else [],
                "past_title": self.s.tr("ui.fame.reports")}

    def history_in(self) -> None:
        """The app's first reading of the history is in (ui/history.py): a hall of fame that said it was
        counting is drawn again; no other screen is touched."""
        if self.f.nav.page == FAME_PAGE and self._stats is None:
            self.changed()

    def leave(self, page: str) -> str | None:
        """Once the table has moved on (a new game from the hall of fame, the game-over screen closed), the page
        of that moment: the family does not come back to this one unasked."""
        mode = self.f.mode
        if (page, mode) in ((FAME_PAGE, HOME), (REPORT_PAGE, OVER)) or (page, mode) == (PAST_REPORT_PAGE, HOME) \
                and self._past is not None:
            return None
        return home_page(mode)

    def closed(self) -> None:
        self._report = None
        self._stats = None  # a game just finished joins the history next time
        self.past = self._past = None


__all__ = ["CHART_KINDS", "Coloured", "FamePage", "FamePlayer", "FameView", "KINDS", "MoneyPlayer", "MoneyView",
           "PAST_SHOWN", "PastGame", "ReportFlow", "ReportPlayer", "ReportView", "fame_view", "kind_word",
           "length_text", "money_view", "player_lines", "report_view"]
