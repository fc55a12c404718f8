"""Issue 54's points 4, 8 and 10 as a newcomer met them, in the real app, offscreen, by touches only (the journal
set up beforehand with the Journal API where a scenario needs a game in a given state, as `banker import` would).
Run by test_messages.py in a subprocess (Kivy opens one window per process), a scenario in a language at a size
(E2E_SIZE), with XDG_DATA_HOME a scratch folder:

    python tests/ui/messages_app.py WORKDIR SCENARIO LANGUAGE

- stale: a refusal on the deeds page (Ann cannot build on Baltic Avenue alone) is said there, and not on the
  table, the banker's menu or the deeds page again (point 4);
- setup: New game's Start refused (cards on, none registered): the reason said once, in red, in the hint's own
  place below the players, whole and not in a scrolling list (point 4);
- confirm: every destructive two-touch button (the banker's Undo, Shut down, End the game, Abandon; the game-over
  screen's Undo; an edition's Delete) acts on a second touch on the very pixel of the first, 0.4 to 0.9 s later,
  each touch a real touch down and up (point 8);
- refused: "End the game now" touched twice on the same pixel, and the engine refuses it: the banker's menu stays
  and says why (point 8: a confirming touch never does nothing in silence);
- dice: "Move by these dice" greyed with what to do said above it until each die is chosen (point 10);
- fame: after a game's end and Done, the hall of fame lists the game and opens its report (point 10);
- roll: the longest Chance card in the language drawn after a roll: the roll ("Ann rolled 3 + 4") stays in sight
  beside it on the turn screen (point 10).

Exits 0 when every check passed; otherwise prints the failing step.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from e2e_kit import Step, by_role, passed, play, texts, touch, touch_role, widgets
from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from banker.chance import complete_action
from banker.journal import Journal
from banker.script import Header
from ui import theme
from ui.app import BankerApp
from ui.i18n import Translator, card_msg, winners_msg
from ui.settings import Settings

CHANCE_DICE = (3, 4)  # classic's first Chance, space 7


def on(app: BankerApp, screen: str) -> Callable[[], bool]:
    return lambda: app.manager.current == screen


def wait(seconds: float) -> Step:
    """A pause as long as a hand takes (the steps themselves run a frame apart)."""
    since: list[float] = []

    def run() -> bool:
        if not since:
            since.append(time.monotonic())
        return time.monotonic() - since[0] >= seconds
    return (f"{seconds} s later", run)


def same_spot_twice(app: BankerApp, role: str, gap: float) -> list[Step]:
    """The button of `role` touched, then `gap` seconds later touched again on the very same pixel (wherever the
    button is by then): each touch a finger's, down, held a few frames, up."""
    spot: list[tuple[float, float]] = []
    held: list[Any] = []

    def down_first() -> bool:
        b = by_role(app, role)
        if b is None or b.disabled:
            return False
        spot[:] = [b.to_window(*b.center)]
        held[:] = [UnitTestTouch(*spot[0])]
        held[0].touch_down()
        return True

    def down_again() -> bool:
        held[:] = [UnitTestTouch(*spot[0])]
        held[0].touch_down()
        return True

    def up() -> bool:
        held[0].touch_up()
        return True

    return [(f"{role}: first touch down", down_first), (f"{role}: up", up),
            (f"{role}: armed", lambda: app.flows.nav.confirm.armed() == role.removeprefix("confirm ")),
            wait(gap),
            (f"{role}: second touch on the same pixel, down", down_again), (f"{role}: up again", up)]


def dice(app: BankerApp, a: int, b: int) -> list[Step]:
    tr = app.flows.session.tr
    return [(f"enter {a}+{b}", lambda: touch(app, tr("ui.btn.enter_dice"))),
            (f"die {a}", lambda: touch_role(app, f"die0-{a}")),
            (f"die {b}", lambda: touch_role(app, f"die1-{b}")),
            ("move by them", lambda: touch(app, tr("ui.dice.done"))),
            ("the table", on(app, "table"))]


def turn_button(app: BankerApp, verb: str) -> Callable[[], bool]:
    f = app.flows
    return lambda: app.manager.current == "table" and any(
        b["id"] == verb and touch(app, b["text"]) for b in f.turn.buttons())


def bar(app: BankerApp, page: str) -> Callable[[], bool]:
    """The turn screen's bar button to `page`, by its words."""
    f = app.flows
    return lambda: app.manager.current == "table" and any(
        p == page and touch(app, f.session.tr(key)) for p, key in f.turn.view()["nav"]["links"])


def new_game(app: BankerApp) -> list[Step]:
    tr = app.flows.session.tr
    return [("the start screen", on(app, "home")), ("New game", lambda: touch(app, tr("ui.home.new"))),
            ("the new-game screen", on(app, "setup"))]


def started(app: BankerApp) -> list[Step]:
    tr = app.flows.session.tr
    return [*new_game(app), ("Start", lambda: touch(app, tr("ui.setup.start"))), ("the table", on(app, "table"))]


def shown_labels(app: BankerApp, text: str) -> list[Label]:
    return [w for w in widgets(app) if isinstance(w, Label) and w.text == text]


# ---------------------------------------------------------------------- the scenarios


def stale(app: BankerApp) -> list[Step]:
    f = app.flows
    tr = f.session.tr
    said: list[str] = []

    def refused() -> bool:
        errors = [n["text"] for n in f.session.notice_lines(5) if n["kind"] == "error"]
        if not errors or errors[-1] not in texts(app):
            return False
        said[:] = [errors[-1]]
        return True

    def not_shown(screen: str) -> Step:
        return (f"the refusal not on {screen}", lambda: app.manager.current == screen and said[0] not in texts(app))

    return [
        *started(app), *dice(app, 1, 2),
        ("Ann buys Baltic Avenue", turn_button(app, "buy")),
        ("bought", lambda: f.session.game is not None and f.session.game.owner[3] == 0),
        ("Deeds", bar(app, "deeds")), ("the deeds page", on(app, "deeds")),
        ("Build on Baltic Avenue alone", lambda: touch_role(app, "build 3")),
        ("refused, said on the deeds page", refused),
        ("Back", lambda: touch(app, tr("ui.back"))), not_shown("table"),
        ("Banker", bar(app, "banker")), not_shown("banker"),
        ("Back to the table", lambda: touch(app, tr("ui.back"))), not_shown("table"),
        ("Deeds again", bar(app, "deeds")), not_shown("deeds"),
    ]


def setup(app: BankerApp) -> list[Step]:
    f = app.flows
    tr = f.session.tr
    need = tr("ui.setup.need_cards")

    def once_in_red_and_whole() -> bool:
        found = shown_labels(app, need)
        if len(found) != 1:  # said once: never the hint and the refusal again below it
            return False
        hint = found[0]
        parent = hint.parent
        while parent is not None and parent is not Window and not isinstance(parent, ScrollView):
            parent = parent.parent
        x, y = hint.to_window(hint.x, hint.y)
        return (list(hint.color) == list(theme.DANGER) and not isinstance(parent, ScrollView)
                and hint.height >= hint.texture_size[1] > 0 and 0 <= y and y + hint.height <= Window.height
                and 0 <= x and x + hint.width <= Window.width)

    return [
        *new_game(app),
        ("the hint before Start, grey", lambda: [list(w.color) for w in shown_labels(app, need)] == [list(theme.MUTED)]),
        ("Start", lambda: touch(app, tr("ui.setup.start"))),
        ("refused: the reason once, in red, whole, in the hint's place", once_in_red_and_whole),
        ("still the new-game screen", on(app, "setup")),
    ]


def confirm(app: BankerApp) -> list[Step]:
    f = app.flows
    tr = f.session.tr
    powered_off: list[bool] = []
    f.power_off = lambda: powered_off.append(True)  # the Pi's shutdown, counted instead of done
    g: Callable[[], Any] = lambda: f.session.game  # noqa: E731

    return [
        *started(app), *dice(app, 1, 2),
        ("Ann moved", lambda: g() is not None and g().players[0].position == 3),
        ("Banker", bar(app, "banker")), ("the banker's menu", on(app, "banker")),
        *same_spot_twice(app, "confirm undo", 0.4),
        ("the roll undone", lambda: g() is not None and g().players[0].position == 0),
        *same_spot_twice(app, "confirm power_off", 0.6),
        ("shut down", lambda: powered_off == [True]),
        *same_spot_twice(app, "confirm end", 0.9),
        ("the game over", on(app, "over")),
        *same_spot_twice(app, "confirm undo_end", 0.5),
        ("the game back", on(app, "table")),
        ("Banker", bar(app, "banker")), ("the banker's menu again", on(app, "banker")),
        *same_spot_twice(app, "confirm abandon", 0.7),
        ("abandoned", on(app, "home")),
        ("Settings", lambda: touch(app, tr("ui.settings"))), ("Editions", lambda: touch_role(app, "editions")),
        ("the editions page", on(app, "editions")),
        *same_spot_twice(app, "confirm delete ours", 0.8),
        ("deleted", lambda: by_role(app, "edition ours") is None and by_role(app, "edition seaside") is not None),
    ]


def refused(app: BankerApp) -> list[Step]:
    """A confirming second touch the engine refuses (the game's clock out of range: a game started before a Pi's
    clock jumped decades at its first time sync) must say why on the banker's menu, not leave it in silence."""
    f = app.flows
    tr = f.session.tr

    def reason_said() -> bool:
        errors = [n for n in f.session.notices if n.kind == "error"]
        return bool(errors) and tr.render(errors[-1].message) in texts(app)

    return [
        ("the table", on(app, "table")),
        ("Banker", bar(app, "banker")), ("the banker's menu", on(app, "banker")),
        *same_spot_twice(app, "confirm end", 0.6),
        ("still the banker's menu, the game going on", lambda: app.manager.current == "banker" and f.mode == "table"),
        ("the engine's reason said there", reason_said),
    ]


def dice_entry(app: BankerApp) -> list[Step]:
    f = app.flows
    tr = f.session.tr

    def done_button() -> Any:
        return next((w for w in widgets(app) if getattr(w, "text", None) == tr("ui.dice.done")), None)

    def greyed_with_reason() -> bool:
        b = done_button()
        return b is not None and b.disabled and tr("ui.dice.choose") in texts(app)

    return [
        *started(app),
        ("Enter real dice", lambda: touch(app, tr("ui.btn.enter_dice"))), ("the dice page", on(app, "dice")),
        ("Move by these dice greyed, what to do said", greyed_with_reason),
        ("one die", lambda: touch_role(app, "die0-3")),
        ("still greyed with one die", greyed_with_reason),
        ("the other", lambda: touch_role(app, "die1-4")),
        ("offered now, nothing more to say", lambda: (b := done_button()) is not None and not b.disabled
         and tr("ui.dice.choose") not in texts(app)),
        ("Move by these dice", lambda: touch(app, tr("ui.dice.done"))),
        ("moved", lambda: on(app, "table")() and f.session.game is not None
         and f.session.game.players[0].position == 7),
    ]


def fame(app: BankerApp) -> list[Step]:
    f = app.flows
    tr = f.session.tr
    game: list[int] = []

    def remember() -> bool:
        if f.session.live is None:
            return False
        game[:] = [f.session.live.id]
        return True

    def winner_line() -> bool:
        g = Journal(app.journal_path).load(game[0]).game
        return tr.render(winners_msg(g.outcome.winners)) in texts(app)

    return [
        *started(app), *dice(app, 1, 2), ("the game's id", remember),
        ("Banker", bar(app, "banker")),
        ("End the game", lambda: touch_role(app, "confirm end")), ("touched again", lambda: touch_role(app, "confirm end")),
        ("the game-over screen", on(app, "over")),
        ("Done", lambda: touch(app, tr("ui.over.close"))), ("the start screen", on(app, "home")),
        ("Hall of fame", lambda: touch(app, tr("ui.fame.open"))), ("the hall of fame", on(app, "fame")),
        ("the game listed", lambda: by_role(app, f"past report {game[0]}") is not None),
        ("its report", lambda: touch_role(app, f"past report {game[0]}")),
        ("the report page", lambda: app.manager.current == "past_report"),
        ("the winner", winner_line),
        ("its chart", lambda: by_role(app, "money chart") is not None),
        ("Back", lambda: touch(app, tr("ui.back"))), ("the hall of fame again", on(app, "fame")),
    ]


def roll(app: BankerApp) -> list[Step]:
    f = app.flows
    tr = f.session.tr
    rolled = tr("event.rolled", player="Ann", dice=" + ".join(map(str, CHANCE_DICE)))

    def card_text() -> str:
        game = f.session.game
        assert game is not None
        card = game.ruleset.card_by_id[[e for e in game.history if e.get("do") == "draw"][-1]["card"]]
        return tr.render(card_msg(game.ruleset, card, game.options))

    def both_in_sight() -> bool:
        """The roll whole and the card's first words inside the part of the notices the window shows."""
        game = f.session.game
        if game is None or not any(e.get("do") == "draw" for e in game.history):
            return False
        notices = by_role(app, "notices")
        roll_line = shown_labels(app, rolled)
        card = shown_labels(app, card_text())
        if len(roll_line) != 1 or len(card) != 1:
            return False
        roll_w, card_w = roll_line[0], card[0]
        if notices is not None and not (within(roll_w, notices) and within(card_w, notices)):
            return False
        bottom, top = 0.0, float(Window.height)
        view = roll_w.parent.parent if roll_w.parent is not None else None
        if isinstance(view, ScrollView):  # only the part of the list in its view counts
            _, bottom = view.to_window(view.x, view.y)
            top = min(bottom + view.height, top)
        _, roll_y = roll_w.to_window(roll_w.x, roll_w.y)
        _, card_y = card_w.to_window(card_w.x, card_w.y)
        line = card_w.font_size
        return (bottom <= roll_y and roll_y + roll_w.height <= top  # the roll whole
                and bottom <= card_y + card_w.height - line and card_y + card_w.height <= top)  # the card's first line

    def within(w: Any, outer: Any) -> bool:
        while w is not None and w is not Window:
            if w is outer:
                return True
            w = w.parent
        return False

    return [
        ("the game resumed on the table", on(app, "table")),
        *dice(app, *CHANCE_DICE),
        ("the roll said", lambda: rolled in texts(app)),
        ("Draw", turn_button(app, "draw")),
        ("the card and the roll both in sight", both_in_sight),
    ]


SCENARIOS: dict[str, Callable[[BankerApp], list[Step]]] = {
    "stale": stale, "setup": setup, "confirm": confirm, "refused": refused, "dice": dice_entry, "fame": fame,
    "roll": roll}


def longest_card_seed(work: Path, language: str) -> int:
    """A seed whose first Chance card, drawn after a first roll of CHANCE_DICE, is the longest in `language`."""
    tr = Translator(language)
    best: tuple[int, int] = (-1, 0)
    with Journal(work / "scratch.sqlite3") as journal:
        for seed in range(40):
            live = journal.start(Header(rules="classic", players=["Ann", "Ben"], seed=seed, options={}))
            live.apply({"do": "roll", "dice": list(CHANCE_DICE)})
            card_id = complete_action(live.game, {"do": "draw"}, live.chance)["card"]
            card = live.game.ruleset.card_by_id[card_id]
            length = len(tr.render(card_msg(live.game.ruleset, card, live.game.options)))
            best = max(best, (length, seed))
    (work / "scratch.sqlite3").unlink()
    return best[1]


def main() -> int:
    work, scenario, language = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    work.mkdir(parents=True, exist_ok=True)
    if scenario == "roll":
        seed = longest_card_seed(work, language)
        with Journal(work / "games.sqlite3") as journal:
            journal.start(Header(rules="classic", players=["Ann", "Ben"], seed=seed, options={}),
                          meta={"colours": {"Ann": "#E53935", "Ben": "#1E88E5"}})
    if scenario == "refused":  # a game whose clock started 1.5e9 s ago: every action past banker/limits.py's MAX_TIME
        with Journal(work / "games.sqlite3") as journal:
            journal.start(Header(rules="classic", players=["Ann", "Ben"], seed=1, options={}),
                          meta={"colours": {"Ann": "#E53935", "Ben": "#1E88E5"}, "started": time.time() - 1.5e9})
    if scenario == "confirm":
        from ui.tour_editions import write_editions
        write_editions()
    Settings(taps=scenario == "setup", language=language).save(work / "settings.json")
    app = BankerApp(work / "games.sqlite3", hardware=False, settings_file=work / "settings.json", voice=False,
                    motion=False)
    return passed(*play(app, lambda: SCENARIOS[scenario](app), timeout=10))


if __name__ == "__main__":
    sys.exit(main())
