"""The screens. Each renders the controller's view data (ui/view.py) and calls
controller methods; none asks the rules anything itself.

Every screen has `refresh()`, called (through one Clock trigger that folds
bursts of changes into one redraw) whenever the controller changes.
"""

from __future__ import annotations

import datetime
import time
from typing import TYPE_CHECKING, Any, Callable

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from banker.ruleset import load_ruleset
from ui import view
from ui.controller import PLAYER_COLOURS, Controller
from ui.i18n import LANGUAGES
from ui.widgets import (ACCENT, DANGER, MUTED, BigButton, Chart, Chip, Die, Panel, QRCode, Stripe, Text, colour)

if TYPE_CHECKING:
    from ui.app import BankerApp


# brands' custom table (rulebook 001): option, step of the -/+ buttons, least value (0 = "off").
CUSTOM_OPTIONS = (("start_cash", 2500, 2500), ("turn_seconds", 15, 0), ("salary_stop_minutes", 5, 0),
                  ("rent_tax_start_minutes", 5, 0), ("mortgage_rounds", 1, 1), ("speed_die_round", 1, 0))


def scroll(content: Widget) -> ScrollView:
    sv = ScrollView(do_scroll_x=False, bar_width=8)
    sv.add_widget(content)
    return sv


def column(**kw: Any) -> GridLayout:
    grid = GridLayout(cols=1, spacing=6, size_hint_y=None, **kw)
    grid.bind(minimum_height=grid.setter("height"))
    return grid


def auto_height(box: BoxLayout) -> BoxLayout:
    """A vertical box as tall as what it holds."""
    box.bind(minimum_height=box.setter("height"))
    return box


def row(height: float = 64, **kw: Any) -> BoxLayout:
    return BoxLayout(orientation="horizontal", size_hint_y=None, height=height, spacing=8, **kw)


class BaseScreen(Screen):
    def __init__(self, app: "BankerApp", **kw: Any) -> None:
        super().__init__(**kw)
        self.app = app
        self.c: Controller = app.controller

    def refresh(self) -> None:
        self.clear_widgets()
        self._used: dict[str, tuple[Any, Widget]] = {}
        root = BoxLayout(orientation="vertical", padding=8, spacing=6)
        self.build(root)
        self._parts = self._used
        self.add_widget(root)

    def part(self, key: str, data: Any, make: Callable[[], Widget]) -> Widget:
        """The widget for one part of the screen: the last one if `data` is unchanged, else a new one."""
        cached = getattr(self, "_parts", {}).get(key)
        if cached is not None and cached[0] == data:
            widget = cached[1]
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
        else:
            widget = make()
        self._used[key] = (data, widget)
        return widget

    def build(self, root: BoxLayout) -> None:
        raise TypeError("every screen builds its own content")

    def tr(self, key: str, **params: Any) -> str:
        return self.c.tr(key, **params)

    def header(self, root: BoxLayout, text: str, back: Callable[[], Any] | None = None) -> None:
        bar = row(56)
        if back is not None:
            bar.add_widget(BigButton(self.tr("ui.back"), back, "secondary", size_hint_x=None, width=130, height=56))
        bar.add_widget(Text(text, 28, bold=True, height=56))
        root.add_widget(bar)

    def notices(self, root: BoxLayout, count: int = 3, one_line: bool = False) -> None:
        """The latest notices: who paid whom and why, errors in red (`one_line`: each cut to a line, for a
        crowded screen; the money log keeps every word)."""
        box = column()
        for notice in self.c.notices[-count:]:
            tint = DANGER if notice.kind == "error" else ACCENT if notice.kind in ("money", "card") else MUTED
            extra: dict[str, Any] = {"max_lines": 1, "shorten": True, "shorten_from": "right"} if one_line else {}
            box.add_widget(Text(notice.text, 20, color=tint, **extra))
        root.add_widget(box)

    def pending_banner(self, root: BoxLayout) -> None:
        pending = self.c.pending
        if pending is None:
            return
        panel = auto_height(Panel(orientation="vertical", size_hint_y=None, fill=(0.35, 0.25, 0.0, 1)))
        panel.add_widget(Text(pending.prompt, 22, bold=True))
        buttons = row(64)
        for name in pending.needs:
            if name in pending.tapped:
                continue
            buttons.add_widget(BigButton(self.tr("ui.tap.as", player=name), lambda n=name: self.app.tap_as(n),
                                         "secondary", size=18))
        buttons.add_widget(BigButton(self.tr("ui.cancel"), self.c.cancel_pending, "danger", size=18))
        panel.add_widget(buttons)
        root.add_widget(panel)


# ---------------------------------------------------------------------------


class HomeScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        root.add_widget(Text(self.tr("ui.app_name"), 40, bold=True, halign="center", height=80))
        root.add_widget(Text(self.tr("ui.home.tagline"), 22, color=MUTED, halign="center"))
        box = column(padding=(120, 10))
        if self.c.journal.latest_active() is not None:
            box.add_widget(BigButton(self.tr("ui.home.resume"), self.c.resume, "primary", size=24, height=80))
        box.add_widget(BigButton(self.tr("ui.home.new"), self.c.new_game, "primary", size=24, height=80))
        box.add_widget(BigButton(self.tr("ui.settings"), lambda: self.app.go("settings"), "secondary", size=22))
        root.add_widget(box)
        self.notices(root, 2)
        root.add_widget(Widget())


class SetupScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        d = self.c.draft
        assert d is not None
        self.header(root, self.tr("ui.setup.title"), self.c.leave_draft)
        body = column()
        rules = GridLayout(cols=4, spacing=6, size_hint_y=None)  # eight rulesets: two rows of four
        rules.bind(minimum_height=rules.setter("height"))
        for name in self.c.rulesets():
            kind = "primary" if name == d.rules else "secondary"
            rules.add_widget(BigButton(self.tr(f"ui.rules.{name}") if self.c.tr.has(f"ui.rules.{name}") else name,
                                       lambda n=name: self.c.draft_rules(n), kind, size=18, height=56))
        body.add_widget(rules)
        for k, p in enumerate(d.players):
            line = row(60)
            line.add_widget(BigButton("", lambda k=k: self._next_colour(k), "secondary", size_hint_x=None,
                                      width=60, height=60, background_color=colour(p.colour)))
            name = TextInput(text=p.name, hint_text=self.tr("ui.setup.name", number=k + 1), multiline=False,
                             font_size=24, size_hint_y=None, height=60, write_tab=False)
            name.bind(on_text_validate=lambda w, k=k: self.c.draft_set(k, name=w.text),
                      focus=lambda w, f, k=k: None if f else self.c.draft_set(k, name=w.text))
            line.add_widget(name)
            if d.registering == k:
                label, kind = self.tr("ui.setup.tap_now"), "accent"
            elif p.card:
                label, kind = self.tr("ui.setup.card_ok"), "primary"
            else:
                label, kind = self.tr("ui.setup.register"), "secondary"
            line.add_widget(BigButton(label, lambda k=k: self.c.draft_register(k), kind, size=17,
                                      size_hint_x=None, width=210, height=60))
            line.add_widget(BigButton("X", lambda k=k: self.c.draft_remove_player(k), "danger",
                                      size_hint_x=None, width=60, height=60))
            body.add_widget(line)
        more = row(60)
        if len(d.players) < 8:
            more.add_widget(BigButton(self.tr("ui.setup.add_player"), self.c.draft_add_player, "secondary", size=18,
                                      height=60))
        pin = TextInput(text=d.pin, hint_text=self.tr("ui.setup.pin"), password=True, input_filter="int",
                        multiline=False, font_size=24, size_hint_y=None, height=60)
        pin.bind(text=lambda w, t: setattr(d, "pin", t[:8]))
        more.add_widget(pin)
        body.add_widget(more)
        ruleset = load_ruleset(d.rules)
        rules_row = row(56)
        for option in ("free_parking_pot", "auction_on_decline", "double_rent_with_mortgaged", "build_only_on_visit"):
            if option == "double_rent_with_mortgaged" and ruleset.mechanics.get("mortgage") == "none":
                continue  # no mortgages in this ruleset
            if option == "build_only_on_visit" and ruleset.mechanics.get("building") == "visit":
                continue  # always on the visited firm in this ruleset
            on = bool(d.options.get(option, ruleset.options[option]))
            rules_row.add_widget(BigButton(self.tr(f"ui.option.{option}") + (": " + self.tr("ui.on") if on else ""),
                                           lambda o=option, v=on: self._toggle(o, not v),
                                           "primary" if on else "secondary", size=14, height=56))
        body.add_widget(rules_row)
        if ruleset.mechanics.get("building") == "turn_start":  # brands: the family's own table
            body.add_widget(Text(self.tr("ui.custom.title"), 20, bold=True))
            for option, step, least in CUSTOM_OPTIONS:
                value = int(d.options.get(option, ruleset.options[option]))
                line = row(56)
                shown = self.tr("ui.off") if value == 0 and least == 0 else str(value)
                line.add_widget(Text(f"{self.tr('ui.custom.' + option)}: {shown}", 19, height=56))
                for delta in (-step, step):
                    b = BigButton(f"{delta:+d}", lambda o=option, v=value, x=delta, m=least: self._custom(o, max(m, v + x)),
                                  "secondary", size_hint_x=None, width=90, height=56)
                    b.role = f"{option} {delta:+d}"
                    line.add_widget(b)
                body.add_widget(line)
            even = bool(d.options.get("build_evenly", ruleset.options["build_evenly"]))
            body.add_widget(BigButton(self.tr("ui.custom.build_evenly") + (": " + self.tr("ui.on") if even else ""),
                                      lambda v=even: self._toggle("build_evenly", not v),
                                      "primary" if even else "secondary", size=16, height=56))
        if ruleset.options["time_limit"]:
            minutes = d.time_limit or int(ruleset.options["time_limit"])
            timed = row(56)
            timed.add_widget(Text(self.tr("ui.setup.time_limit", minutes=minutes), 20, height=56))
            for delta in (-15, 15):
                timed.add_widget(BigButton(f"{delta:+d}", lambda x=delta, m=minutes: self._minutes(m + x),
                                           "secondary", size_hint_x=None, width=90, height=56))
            body.add_widget(timed)
        for problem in self.c.draft_problems():
            body.add_widget(Text(problem, 18, color=MUTED))
        root.add_widget(scroll(body))
        self.notices(root, 1)
        bottom = row(70)
        bottom.add_widget(BigButton(self.tr("ui.setup.in_progress"), lambda: self.app.go("inprogress"),
                                    "secondary", size=18, height=70))
        bottom.add_widget(BigButton(self.tr("ui.setup.start"), self.c.draft_start, "primary", size=24, height=70))
        root.add_widget(bottom)

    def _next_colour(self, k: int) -> None:
        d = self.c.draft
        assert d is not None
        used = {p.colour for p in d.players}
        current = PLAYER_COLOURS.index(d.players[k].colour) if d.players[k].colour in PLAYER_COLOURS else 0
        for step in range(1, len(PLAYER_COLOURS) + 1):
            candidate = PLAYER_COLOURS[(current + step) % len(PLAYER_COLOURS)]
            if candidate not in used:
                self.c.draft_set(k, colour=candidate)
                return

    def _toggle(self, option: str, value: bool) -> None:
        d = self.c.draft
        assert d is not None
        d.options[option] = value
        self.c.changed()

    def _custom(self, option: str, value: int) -> None:
        d = self.c.draft
        assert d is not None
        d.options[option] = value
        self.c.changed()

    def _minutes(self, minutes: int) -> None:
        d = self.c.draft
        assert d is not None
        d.time_limit = max(15, min(600, minutes))
        self.c.changed()


class InProgressScreen(BaseScreen):
    """A game already under way: today's cash, positions, deeds, buildings and mortgages."""

    def build(self, root: BoxLayout) -> None:
        d = self.c.draft
        assert d is not None
        self.header(root, self.tr("ui.progress.title"), lambda: self.app.go("setup"))
        setup = d.setup or {"players": {}, "spaces": {}}
        d.setup = setup
        names = [p.name or f"#{k + 1}" for k, p in enumerate(d.players)]
        ruleset = load_ruleset(d.rules)
        body = column()
        for name in names:
            entry = setup["players"].setdefault(name, {"cash": int(ruleset.options["start_cash"]), "position": 0})
            line = row(56)
            line.add_widget(Text(name, 22, bold=True, height=56))
            for key, step in (("cash", 50), ("position", 1)):
                minus = BigButton("-", lambda e=entry, k=key, s=step: self._bump(e, k, -s), "secondary",
                                  size_hint_x=None, width=56, height=56)
                minus.role = f"{name} {key} -"  # many buttons read "-": tests tell them apart
                line.add_widget(minus)
                shown = entry[key] if key == "cash" else ruleset.spaces[entry[key]].name
                line.add_widget(Text(f"{self.tr('ui.progress.' + key)}: {shown}", 18, height=56))
                plus = BigButton("+", lambda e=entry, k=key, s=step: self._bump(e, k, s), "secondary",
                                 size_hint_x=None, width=56, height=56)
                plus.role = f"{name} {key} +"
                line.add_widget(plus)
            body.add_widget(line)
        for s in ruleset.spaces:
            if not s.is_property:
                continue
            entry = setup["spaces"].get(str(s.index), {})
            line = row(52)
            line.add_widget(Stripe(ruleset.groups[s.group]["color"] if s.group else "#BDBDBD", size_hint_x=None,
                                   width=14, size_hint_y=1))
            line.add_widget(Text(s.name, 18, height=52))
            owner = entry.get("owner")
            owner_button = BigButton(owner or self.tr("ui.bank"), lambda i=s.index, o=owner: self._owner(i, o, names),
                                     "secondary", size=16, size_hint_x=None, width=150, height=52)
            owner_button.role = f"owner {s.index}"
            line.add_widget(owner_button)
            if s.kind == "lot":
                level = 5 if entry.get("hotel") else int(entry.get("houses", 0))
                level_button = BigButton(self.tr("ui.deed.hotel") if level == 5 else
                                         self.tr("ui.deed.houses_n", count=level),
                                         lambda i=s.index, lv=level: self._level(i, lv), "secondary", size=16,
                                         size_hint_x=None, width=110, height=52)
                level_button.role = f"level {s.index}"
                line.add_widget(level_button)
            if ruleset.mechanics.get("mortgage") != "none":
                line.add_widget(BigButton(self.tr("ui.deed.mortgaged") if entry.get("mortgaged") else "—",
                                          lambda i=s.index: self._mortgaged(i), "secondary", size=14,
                                          size_hint_x=None, width=130, height=52))
            body.add_widget(line)
        root.add_widget(scroll(body))
        self.notices(root, 1)
        root.add_widget(BigButton(self.tr("ui.setup.start"), self.c.draft_start, "primary", size=24, height=70))

    def _space(self, i: int) -> dict[str, Any]:
        d = self.c.draft
        assert d is not None and d.setup is not None
        return d.setup["spaces"].setdefault(str(i), {})

    def _bump(self, entry: dict[str, Any], key: str, step: int) -> None:
        d = self.c.draft
        assert d is not None
        if key == "cash":
            entry[key] = max(0, entry[key] + step)
        else:
            entry[key] = (entry[key] + step) % len(load_ruleset(d.rules).spaces)
        self.c.changed()

    def _owner(self, i: int, owner: str | None, names: list[str]) -> None:
        order = [None, *names]
        nxt = order[(order.index(owner) + 1) % len(order)] if owner in order else None
        entry = self._space(i)
        entry["owner"] = nxt
        if nxt is None:
            entry.clear()
        self.c.changed()

    def _level(self, i: int, level: int) -> None:
        entry = self._space(i)
        level = (level + 1) % 6
        entry["houses"] = level if level < 5 else 0
        entry["hotel"] = level == 5
        self.c.changed()

    def _mortgaged(self, i: int) -> None:
        entry = self._space(i)
        entry["mortgaged"] = not entry.get("mortgaged", False)
        self.c.changed()


class TableScreen(BaseScreen):
    """The turn: whose turn, big dice, where to move, the space's card and what can be done now.

    Redrawn after every tap, so each part is rebuilt only when its own data
    changed (`part`): a purchase rebuilds the balance, the banner and the
    buttons, not the dice, the deed card or the navigation bar.
    """

    def build(self, root: BoxLayout) -> None:
        game = self.c.game
        assert game is not None
        lang = self.c.tr.language
        players = view.players(self.c)
        cur = next(p for p in players if p["current"])
        debts = view.debts(self.c)
        pending = self.c.pending
        crowded = bool(debts or pending or game.clocked())
        main = BoxLayout(orientation="horizontal", spacing=8)
        left = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.62)
        left.add_widget(self.part("top", (lang, cur["name"], cur["colour"], cur["cash"]), lambda: self._top(cur)))
        end = self.c.end_time()
        if end is not None:
            left.add_widget(Text(self.tr("ui.ends_at", time=datetime.datetime.fromtimestamp(end).strftime("%H:%M")),
                                 18, color=MUTED))
        left.add_widget(self.part("dice", (self.c.last_dice, self.c.move_hint, crowded), lambda: self._dice(crowded)))
        clock = view.clock(self.c)
        if clock is not None:
            left.add_widget(self.part("clock", (lang, tuple(sorted((k, str(v)) for k, v in clock.items()))),
                                      lambda: self._clock(clock)))
        if pending is not None:
            left.add_widget(self.part("pending", (lang, pending.prompt, tuple(pending.needs), tuple(pending.tapped)),
                                      lambda: self._banner()))
        for debt in debts:
            left.add_widget(self.part(f"debt {debt['name']}", (lang, tuple(sorted(debt.items()))),
                                      lambda debt=debt: self._debt(debt)))
        count = 1 if crowded else 3
        left.add_widget(self.part("notices", (count, tuple(n.text for n in self.c.notices[-count:])),
                                  lambda: self._notices(count)))
        left.add_widget(Widget())
        buttons = view.buttons(self.c)
        left.add_widget(self.part("buttons", tuple((b["id"], b["text"], b["kind"]) for b in buttons),
                                  lambda: self._buttons(buttons)))
        main.add_widget(left)
        right = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.38)
        plist = column()
        for p in players:  # one part per player: a payment redraws two rows, not the list
            plist.add_widget(self.part(f"player {p['name']}", tuple(sorted(p.items())), lambda p=p: self._player(p)))
        right.add_widget(plist)
        qr_player, until = self.c.player_qr
        link = self.c.player_link(qr_player) if qr_player and time.monotonic() < until else None
        card = Panel(orientation="vertical")
        if link is not None:  # after a card tap: that player's own phone view, for a while
            card.add_widget(Text(self.tr("ui.phones.player", player=qr_player), 18, bold=True, halign="center"))
            code = self.part("player qr", link, lambda: QRCode(link, size_hint=(1, 1)))
            code.role = "qr player"
            card.add_widget(code)
        else:
            deed = view.space(self.c, game.current.position)
            compact = len(players) > 4
            card.add_widget(self.part("deed", (lang, deed["index"], compact),
                                      lambda: DeedCard(self.c, deed, compact)))
            owner = (lang, deed["owner"], deed["owner_colour"], deed["built"], deed["mortgaged"], deed["price"])
            card.add_widget(self.part("deed owner", owner, lambda: self._owner_line(deed)))
            card.add_widget(Widget())
        right.add_widget(card)
        main.add_widget(right)
        root.add_widget(main)
        pool = (game.bank_houses, game.bank_hotels, self.c.reader, self.c.button, lang, game.paused_at,
                self.c.vote_kind)
        root.add_widget(self.part("nav", pool, lambda: NavBar(self.app)))

    def _top(self, cur: dict[str, Any]) -> Widget:
        top = Panel(orientation="horizontal", size_hint_y=None, height=64)
        top.add_widget(Chip(cur["colour"], size=(40, 40), pos_hint={"center_y": 0.5}))
        top.add_widget(Text(self.tr("ui.turn_of", player=cur["name"]), 30, bold=True, height=56))
        top.add_widget(Text(str(cur["cash"]), 34, bold=True, halign="right", color=ACCENT, height=56,
                            size_hint_x=0.4))
        return top

    def _clock(self, clock: dict[str, Any]) -> Widget:
        """brands: the minute of play, the economy, the turn timer, a pause or a vote to pause."""
        box = auto_height(BoxLayout(orientation="vertical", size_hint_y=None))
        if clock["paused"]:
            box.add_widget(Text(self.tr("ui.pause.paused"), 30, bold=True, color=ACCENT, halign="center"))
            if clock["vote"] is None:
                box.add_widget(BigButton(self.tr("ui.pause.resume"), self.c.ask_resume, "primary", size=20, height=60))
        if clock["vote"] is not None:
            vote = Text(clock["vote"]["text"], 20, bold=True, color=ACCENT)
            vote.role = "vote"
            box.add_widget(vote)
        line = clock["line"]
        if clock["turn"] is not None:
            line = self.tr("ui.timer.turn", seconds=clock["turn"]) + " · " + line
        if clock["debt"] is not None:
            line = self.tr("ui.timer.debt", seconds=clock["debt"]) + " · " + line
        timer = Text(line, 18, bold=True, color=(1, 0.45, 0.35, 1) if (clock["turn"] or 99) <= 10 else MUTED)
        timer.role = "clock"
        box.add_widget(timer)
        return box

    def _dice(self, crowded: bool) -> Widget:
        dice = row(64 if crowded else 100)
        game = self.c.game
        speed = game is not None and len(self.c.last_dice) == game.ruleset.dice + 1
        for k, value in enumerate(self.c.last_dice):
            if speed and k == game.ruleset.dice:  # type: ignore[union-attr]
                label = view.speed_face(value)
                face = Text(label, (20 if len(label) > 1 else 30) if crowded else (28 if len(label) > 1 else 40),
                            bold=True, halign="center",
                            color=(0.1, 0.1, 0.1, 1), size_hint_x=None, width=60 if crowded else 96)
                face.role = "speed die"
                holder = Panel(size_hint=(None, None), size=(60, 60) if crowded else (96, 96), fill=(1, 0.8, 0.2, 1))
                holder.add_widget(face)
                dice.add_widget(holder)
                continue
            dice.add_widget(Die(value, size=(60, 60) if crowded else (96, 96)))
        dice.add_widget(Text(self.c.move_hint or "", 22 if crowded else 24, bold=True, height=60, color=ACCENT))
        return dice

    def _banner(self) -> Widget:
        box = auto_height(BoxLayout(orientation="vertical", size_hint_y=None))
        self.pending_banner(box)
        return box

    def _debt(self, debt: dict[str, Any]) -> Widget:
        sell_off = debt["sell_off"]  # biznes: no mortgages; auctions and sales instead
        panel = auto_height(Panel(orientation="vertical", size_hint_y=None, fill=(0.35, 0.08, 0.08, 1)))
        key = "ui.debt.line_sell" if sell_off else "ui.debt.line"
        if not debt["enough"]:  # owing more than everything can raise: bankruptcy is the way out
            key = "ui.debt.hopeless"
        panel.add_widget(Text(self.tr(key, **debt), 19, bold=True))
        buttons = row(60)
        buttons.add_widget(BigButton(self.tr("ui.debt.raise_sell" if sell_off else "ui.debt.raise"),
                                     lambda n=debt["name"]: self.app.show_deeds(n), "secondary", size=17, height=60))
        buttons.add_widget(BigButton(self.tr("ui.debt.sell_to_rival" if sell_off else "ui.btn.trade"),
                                     lambda n=debt["name"]: self.app.start_trade(n), "secondary",
                                     size=17, height=60))
        buttons.add_widget(BigButton(self.tr("ui.debt.concede"),
                                     lambda n=debt["name"]: self.c.request({"do": "concede", "player": n}),
                                     "danger", size=17, height=60))
        panel.add_widget(buttons)
        return panel

    def _notices(self, count: int) -> Widget:
        box = auto_height(BoxLayout(orientation="vertical", size_hint_y=None))
        self.notices(box, count, one_line=count == 1)
        return box

    def _buttons(self, buttons: list[dict[str, Any]]) -> Widget:
        grid = GridLayout(cols=2, spacing=6, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for b in buttons:
            grid.add_widget(BigButton(b["text"], lambda b=b: self.app.press(b), b["kind"], size=20, height=70))
        return grid

    def _player(self, p: dict[str, Any]) -> Widget:
        line = Panel(orientation="horizontal", size_hint_y=None, height=40, padding=(8, 2),
                     fill=(0.2, 0.27, 0.33, 1) if p["current"] else None)
        line.add_widget(Chip(p["colour"], pos_hint={"center_y": 0.5}))
        line.add_widget(Text(p["name"] + (f"  ({p['flags']})" if p["flags"] else ""), 17, height=36))
        line.add_widget(Text(str(p["cash"]), 22, bold=True, halign="right", height=36, size_hint_x=0.45))
        return line

    def _owner_line(self, deed: dict[str, Any]) -> Widget:
        if deed["owner"]:
            extra = ", ".join(x for x in (deed["built"], self.tr("ui.deed.mortgaged") if deed["mortgaged"] else "")
                              if x)
            return Text(self.tr("ui.deed.owner", owner=deed["owner"]) + (f" — {extra}" if extra else ""), 18,
                        bold=True, halign="center", color=colour(deed["owner_colour"]))
        if deed["price"] is not None:
            return Text(self.tr("ui.deed.for_sale"), 18, bold=True, halign="center", color=ACCENT)
        return Widget(size_hint_y=None, height=0)


class DeedCard(BoxLayout):
    """The printed part of a title deed: colour, name, price and rents (the owner is drawn beside it)."""

    def __init__(self, c: Controller, deed: dict[str, Any], compact: bool = False, **kw: Any) -> None:
        super().__init__(orientation="vertical", size_hint_y=None, spacing=4, **kw)
        self.bind(minimum_height=self.setter("height"))
        self.add_widget(Stripe(deed["colour"], height=18))
        self.add_widget(Text(deed["name"], 22, bold=True, halign="center"))
        if deed["price"] is not None:
            self.add_widget(Text(c.tr("ui.deed.price", price=deed["price"]), 18, halign="center", color=MUTED))
        if not compact and deed["lines"]:
            grid = GridLayout(cols=2, size_hint_y=None, spacing=(6, 0))
            grid.bind(minimum_height=grid.setter("height"))
            for line in deed["lines"]:
                grid.add_widget(Text(line, 15, halign="center"))
            self.add_widget(grid)


class NavBar(BoxLayout):
    def __init__(self, app: "BankerApp", **kw: Any) -> None:
        super().__init__(orientation="horizontal", size_hint_y=None, height=60, spacing=6, **kw)
        c = app.controller
        game = c.game
        pool = view.pool_text(c, game) if game is not None else ""
        for key, page in ((view.deeds_key(game), "deeds"), ("ui.nav.trade", "trade"), ("ui.nav.log", "log"),
                          ("ui.nav.banker", "banker")):
            self.add_widget(BigButton(c.tr(key), lambda p=page: app.go(p), "secondary", size=18, height=60))
        if game is not None and game.clocked() and game.paused_at < 0 and not c.vote_kind:
            self.add_widget(BigButton(c.tr("ui.btn.pause"), c.ask_pause, "secondary", size=16, height=60))
        status = c.tr("ui.status", reader=c.tr(f"ui.reader.{c.reader}"), button=c.tr(f"ui.button.{c.button}"))
        self.add_widget(Text(pool + "\n" + status, 14, color=MUTED, height=60))


class AuctionScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        a = view.auction(self.c)
        if a is None:
            return
        title = self.tr("ui.auction.title", what=a["what"])
        if a["price"]:
            title += "  " + self.tr("ui.deed.price", price=a["price"])
        self.header(root, title)
        lead = self.tr("ui.auction.high", amount=a["high_bid"], player=a["leader"]) if a["leader"] \
            else self.tr("ui.auction.no_bid", amount=a["min_bid"])
        root.add_widget(Text(lead, 34, bold=True, color=ACCENT, halign="center"))
        if a["seller"]:
            root.add_widget(Text(self.tr("ui.auction.seller", player=a["seller"]), 20, bold=True, halign="center"))
        if a["bid_countdown"] is not None:
            bid_timer = Text(self.tr("ui.auction.bid_countdown", seconds=a["bid_countdown"]), 22, bold=True,
                             color=ACCENT, halign="center")
            bid_timer.role = "bid countdown"
            root.add_widget(bid_timer)
        if a["countdown"] is not None:
            timer = Text(self.tr("ui.auction.countdown", seconds=a["countdown"]), 24, bold=True,
                         color=(1, 0.45, 0.35, 1) if a["countdown"] <= 10 else ACCENT, halign="center")
            timer.role = "countdown"
            root.add_widget(timer)
        how = self.tr("ui.auction.how_stepped", step=a["fixed_step"]) if a["stepped"] \
            else self.tr("ui.auction.how", step=a["step"])
        root.add_widget(Text(how, 20, color=MUTED, halign="center"))
        self.pending_banner(root)
        body = column()
        for b in a["bidders"]:
            line = Panel(orientation="horizontal", size_hint_y=None, height=66,
                         fill=(0.15, 0.35, 0.15, 1) if b["leading"] else None)
            line.add_widget(Chip(b["colour"], pos_hint={"center_y": 0.5}))
            state = self.tr("ui.auction.leading") if b["leading"] else self.tr("ui.auction.your_bid") \
                if b["turn"] else "" if b["in"] else self.tr("ui.auction.out")
            line.add_widget(Text(f"{b['name']}  {b['cash']}  {state}", 22, bold=True, height=56))
            if b["may_bid"]:
                line.add_widget(BigButton(self.tr("ui.auction.bid", amount=b["next"]),
                                          lambda n=b["name"]: self.c.bid(n) if not self.c.settings.taps
                                          else self.c.request({"do": "bid", "player": n,
                                                               "amount": self.c.bid_amount(n)}),
                                          "primary", size=18, size_hint_x=None, width=170, height=56))
            if b["in"] and (not b["leading"] or a["stepped"]):  # stepped: the high bidder may pass and keep the bid
                passing = BigButton(self.tr("ui.auction.pass"),
                                    lambda n=b["name"]: self.c.request({"do": "pass", "player": n}),
                                    "secondary", size=18, size_hint_x=None, width=110, height=56)
                passing.role = f"pass {b['name']}"
                line.add_widget(passing)
            body.add_widget(line)
        root.add_widget(scroll(body))
        self.notices(root, 2)
        bottom = row(66)
        if not a["stepped"]:  # fixed steps (biznes) need no step control
            for delta in (-5, 5):
                bottom.add_widget(BigButton(self.tr("ui.auction.step", delta=f"{delta:+d}"),
                                            lambda d=delta: self.c.set_setting("bid_step",
                                                                               max(1, self.c.settings.bid_step + d)),
                                            "secondary", size=18, height=66))
        if a["can_close"]:
            key = "ui.auction.cancel" if a["stepped"] else "ui.auction.sold"
            bottom.add_widget(BigButton(self.tr(key), lambda: self.c.request({"do": "close_auction"}),
                                        "accent", size=22, height=66))
        root.add_widget(bottom)


class DeedsScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        game = self.c.game
        assert game is not None
        who = self.app.deeds_of or game.current.name
        pool = view.pool_text(self.c, game)
        self.header(root, self.tr("ui.deeds.title", player=who) + "   " + pool, lambda: self.app.go("table"))
        tabs = row(52)
        for p in view.players(self.c):
            if p["bankrupt"]:
                continue
            tabs.add_widget(BigButton(f"{p['name']} {p['cash']}", lambda n=p["name"]: self.app.show_deeds(n),
                                      "primary" if p["name"] == who else "secondary", size=16, height=52,
                                      background_color=colour(p["colour"]) if p["name"] == who else None
                                      or [0.22, 0.28, 0.31, 1]))
        root.add_widget(tabs)
        self.pending_banner(root)
        body = column()
        groups = view.deeds(self.c, who)
        if not groups:
            body.add_widget(Text(self.tr("ui.deeds.none", player=who), 22, color=MUTED))
        for g in groups:
            body.add_widget(Stripe(g["colour"], height=10))
            for d in g["deeds"]:
                line = Panel(orientation="horizontal", size_hint_y=None, height=64)
                label = f"{d['name']}  {d['houses_text']}" + (f"  ({self.tr('ui.deed.mortgaged')})"
                                                              if d["mortgaged"] else "")
                line.add_widget(Text(label, 19, bold=True, height=56))
                for act in d["actions"]:
                    action = BigButton(act["text"], lambda v=act["verb"], i=d["index"]: self._act(who, v, i),
                                       "primary" if act["enabled"] else "secondary", size=15,
                                       size_hint_x=None, width=88, height=56)
                    action.role = f"{act['verb']} {d['index']}"  # every row has the same labels
                    line.add_widget(action)
                body.add_widget(line)
        root.add_widget(scroll(body))
        self.notices(root, 2)


    def _act(self, who: str, verb: str, i: int) -> None:
        game = self.c.game
        if verb == "auction_own" and game is not None and game.can({"do": verb, "space": i}) is None:
            self.app.start_own_auction(who, i)  # the seller picks the opening bid first
            return
        self.c.request({"do": verb, "space": i})


class OwnAuctionScreen(BaseScreen):
    """Before an own-property auction (biznes): the seller sets the opening bid, in steps, then taps to start."""

    def build(self, root: BoxLayout) -> None:
        game = self.c.game
        plan = self.app.own_auction
        assert game is not None and plan is not None
        info = view.own_auction(self.c, plan["player"], plan["space"])
        plan["reserve"] = min(max(plan.get("reserve", info["low"]), info["low"]), info["high"])
        self.header(root, self.tr("ui.own.title", space=info["space"], player=plan["player"]),
                    lambda: self.app.go("deeds"))
        self.pending_banner(root)
        root.add_widget(Text(self.tr("ui.own.reserve", amount=plan["reserve"]), 40, bold=True, color=ACCENT,
                             halign="center"))
        root.add_widget(Text(self.tr("ui.own.bounds", low=info["low"], high=info["high"], step=info["step"]), 20,
                             color=MUTED, halign="center"))
        steps = row(70)
        for delta in (-10 * info["step"], -info["step"], info["step"], 10 * info["step"]):
            steps.add_widget(BigButton(f"{delta:+d}", lambda d=delta: self._bump(d, info), "secondary", size=22,
                                       height=70))
        root.add_widget(steps)
        root.add_widget(Text(self.tr("ui.own.how"), 20, color=MUTED, halign="center"))
        self.notices(root, 2)
        root.add_widget(Widget())
        root.add_widget(BigButton(self.tr("ui.own.start", amount=plan["reserve"]), self._start, "primary", size=24,
                                  height=70))

    def _bump(self, delta: int, info: dict[str, Any]) -> None:
        plan = self.app.own_auction
        assert plan is not None
        plan["reserve"] = min(max(plan["reserve"] + delta, info["low"]), info["high"])
        self.c.changed()

    def _start(self) -> None:
        plan = self.app.own_auction
        assert plan is not None
        self.c.request({"do": "auction_own", "player": plan["player"], "space": plan["space"],
                        "reserve": plan["reserve"]})


class CasinoScreen(BaseScreen):
    """brands: pick one to three numbers and bet, or walk away; the dice button (or the screen) rolls the die."""

    def build(self, root: BoxLayout) -> None:
        game = self.c.game
        assert game is not None
        bet = int(game.options["casino_bet"])
        self.header(root, self.tr("ui.casino.title", player=game.current.name, jackpot=game.jackpot),
                    lambda: self.app.go("table"))
        self.pending_banner(root)
        pick = self.c.casino_pick
        root.add_widget(Text(self.tr("ui.casino.how", bet=bet, jackpot=game.jackpot,
                                     odds=game.options["casino_jackpot_odds"]), 19, color=MUTED, halign="center"))
        numbers = row(96)
        for n in range(1, 7):
            chosen = n in pick
            b = BigButton(str(n), lambda n=n: self.c.casino_toggle(n), "primary" if chosen else "secondary", size=34,
                          height=96)
            b.role = f"casino {n}"
            numbers.add_widget(b)
        root.add_widget(numbers)
        if pick:
            win = bet * 6 // len(pick)
            root.add_widget(Text(self.tr("ui.casino.pays", numbers=", ".join(map(str, pick)), win=win), 24, bold=True,
                                 color=ACCENT, halign="center"))
        self.notices(root, 2)
        root.add_widget(Widget())
        bottom = row(70)
        bottom.add_widget(BigButton(self.tr("ui.btn.casino_no"), lambda: self.c.request({"do": "casino"}), "secondary",
                                    size=20, height=70))
        if pick:
            bottom.add_widget(BigButton(self.tr("ui.casino.bet", bet=bet, numbers=", ".join(map(str, pick))),
                                        lambda: self.c.request({"do": "casino", "numbers": list(pick)}), "primary",
                                        size=20, height=70))
        root.add_widget(bottom)


class JumpScreen(BaseScreen):
    """brands: a triple on the speed die: jump to any space."""

    def build(self, root: BoxLayout) -> None:
        game = self.c.game
        assert game is not None
        self.header(root, self.tr("ui.jump.title", player=game.current.name), lambda: self.app.go("table"))
        grid = GridLayout(cols=4, spacing=4, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for s in game.ruleset.spaces:
            b = BigButton(f"{s.index}. {s.name}", lambda i=s.index: self.c.request({"do": "jump", "space": i}),
                          "secondary", size=14, height=52)
            b.role = f"jump {s.index}"
            grid.add_widget(b)
        root.add_widget(scroll(grid))


class TradeScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        game = self.c.game
        assert game is not None
        offer = self.app.trade
        names = [p.name for p in game.players if not p.bankrupt]
        if offer.get("from") not in names:
            offer.update({"from": names[0], "to": names[1], "give": {"cash": 0, "spaces": [], "jail_cards": 0},
                          "get": {"cash": 0, "spaces": [], "jail_cards": 0}})
        self.header(root, self.tr("ui.trade.title"), lambda: self.app.go("table"))
        self.pending_banner(root)
        sides = BoxLayout(orientation="horizontal", spacing=8)
        for side, who_key in (("give", "from"), ("get", "to")):
            panel = Panel(orientation="vertical")
            pick = row(52)
            for n in names:
                pick.add_widget(BigButton(n, lambda n=n, k=who_key: self._who(k, n),
                                          "primary" if offer[who_key] == n else "secondary", size=15, height=52))
            panel.add_widget(pick)
            items = offer[side]
            panel.add_widget(Text(self.tr("ui.trade.gives", player=offer[who_key], cash=items["cash"]), 20,
                                  bold=True))
            cash = row(52)
            for delta in (-100, -10, 10, 100):
                cash.add_widget(BigButton(f"{delta:+d}", lambda s=side, d=delta: self._cash(s, d), "secondary",
                                          size=16, height=52))
            panel.add_widget(cash)
            owner = game.index_of[offer[who_key]]
            deeds = column()
            for i in game.iter_properties(owner):
                chosen = i in items["spaces"]
                deeds.add_widget(BigButton(("+ " if chosen else "") + game.space_name(i),
                                           lambda s=side, i=i: self._space(s, i),
                                           "primary" if chosen else "secondary", size=15, height=44))
            if game.players[owner].jail_cards:
                deeds.add_widget(BigButton(self.tr("ui.trade.jail_cards", count=items["jail_cards"]),
                                           lambda s=side, o=owner: self._cards(s, len(game.players[o].jail_cards)),
                                           "secondary", size=15, height=44))
            panel.add_widget(scroll(deeds))
            sides.add_widget(panel)
        root.add_widget(sides)
        sale = self._sale()
        if sale is not None:
            root.add_widget(Text(self.tr("ui.trade.sale_hint", player=offer["from"],
                                         least=game.bank_price(sale["space"])), 18, color=MUTED))
        self.notices(root, 1)
        root.add_widget(BigButton(self.tr("ui.trade.agree", a=offer["from"], b=offer["to"]), self._agree, "primary",
                                  size=22, height=66))

    def _who(self, key: str, name: str) -> None:
        offer = self.app.trade
        other = "to" if key == "from" else "from"
        if offer[other] == name:
            offer[other] = offer[key]
        offer[key] = name
        offer["give"] = {"cash": 0, "spaces": [], "jail_cards": 0}
        offer["get"] = {"cash": 0, "spaces": [], "jail_cards": 0}
        self.c.changed()

    def _cash(self, side: str, delta: int) -> None:
        items = self.app.trade[side]
        items["cash"] = max(0, items["cash"] + delta)
        self.c.changed()

    def _space(self, side: str, i: int) -> None:
        spaces = self.app.trade[side]["spaces"]
        spaces.remove(i) if i in spaces else spaces.append(i)
        self.c.changed()

    def _cards(self, side: str, most: int) -> None:
        items = self.app.trade[side]
        items["jail_cards"] = (items["jail_cards"] + 1) % (most + 1)
        self.c.changed()

    def _sale(self) -> dict[str, Any] | None:
        """biznes: a debtor's one firm for a rival's cash is a sale to that rival (sell_to_player)."""
        game = self.c.game
        offer = self.app.trade
        if game is None or not game.sell_off or not game.players[game.index_of[offer["from"]]].debts:
            return None
        give, get = offer["give"], offer["get"]
        if len(give["spaces"]) != 1 or give["cash"] or get["spaces"] or get["jail_cards"] or give["jail_cards"]:
            return None
        return {"do": "sell_to_player", "player": offer["from"], "space": give["spaces"][0], "to": offer["to"],
                "price": get["cash"]}

    def _agree(self) -> None:
        sale = self._sale()
        if sale is not None:
            self.c.request(sale)
            return
        offer = self.app.trade
        action = {"do": "trade", "from": offer["from"], "to": offer["to"],
                  "give": {k: v for k, v in offer["give"].items() if v},
                  "get": {k: v for k, v in offer["get"].items() if v}}
        self.c.request(action)


class LogScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        self.header(root, self.tr("ui.log.title"), lambda: self.app.go("table"))
        body = column()
        for line in view.log(self.c):
            body.add_widget(Text(line, 19))
        root.add_widget(scroll(body))


class BankerScreen(BaseScreen):
    """Behind the banker's PIN: undo, corrections, ending, abandoning, shutting down."""

    def build(self, root: BoxLayout) -> None:
        self.header(root, self.tr("ui.banker.title"), lambda: self.app.go("table"))
        if not self.app.unlocked:
            if not self.c.has_pin():
                self.app.unlocked = True
            else:
                pin = TextInput(hint_text=self.tr("ui.banker.pin"), password=True, input_filter="int",
                                multiline=False, font_size=30, size_hint_y=None, height=70)
                root.add_widget(pin)
                root.add_widget(BigButton(self.tr("ui.banker.unlock"), lambda: self.app.unlock(pin.text), "primary",
                                          height=70))
                self.notices(root, 1)
                root.add_widget(Widget())
                return
        game = self.c.game
        assert game is not None
        grid = GridLayout(cols=2, spacing=8, size_hint_y=None, height=4 * 70 + 3 * 8)
        grid.add_widget(BigButton(self.tr("ui.banker.undo"), lambda: self.c.undo(1), "secondary", height=70))
        grid.add_widget(BigButton(self.tr("ui.banker.end"), self.c.end_game, "accent", height=70))
        grid.add_widget(BigButton(self.tr("ui.banker.abandon"), self.app.abandon, "danger", height=70))
        grid.add_widget(BigButton(self.tr("ui.settings"), lambda: self.app.go("settings"), "secondary", height=70))
        grid.add_widget(BigButton(self.tr("ui.banker.replace_card"), lambda: self.app.go("replace"), "secondary",
                                  height=70))
        grid.add_widget(BigButton(self.tr("ui.banker.power_off"), self.c.power_off, "danger", height=70))
        phones = BigButton(self.tr("ui.phones.button"), lambda: self.app.go("phones"), "primary", height=70)
        phones.disabled = self.c.table_link() is None  # no web server (switched off in the config)
        grid.add_widget(phones)
        root.add_widget(grid)
        root.add_widget(Text(self.tr("ui.banker.adjust"), 22, bold=True))
        body = column()
        for p in game.players:
            if p.bankrupt:
                continue
            line = row(56)
            line.add_widget(Text(f"{p.name}: {p.cash}", 20, height=56))
            for delta in (-50, -10, 10, 50):
                line.add_widget(BigButton(f"{delta:+d}", lambda n=p.name, d=delta: self.c.adjust(
                    n, d, None, self.tr("ui.banker.adjust_reason")), "secondary", size=16, size_hint_x=None,
                    width=76, height=56))
            body.add_widget(line)
        root.add_widget(scroll(body))
        self.notices(root, 1)


class PhonesScreen(BaseScreen):
    """The table's QR code for phones (read-only live view), a new link, and moving the game to another device."""

    def build(self, root: BoxLayout) -> None:
        self.header(root, self.tr("ui.phones.title"), lambda: self.app.go("banker"))
        link = self.c.table_link()
        if link is None:
            root.add_widget(Text(self.tr("ui.phones.off"), 22, halign="center"))
            return
        main = BoxLayout(orientation="horizontal", spacing=12)
        move = self.app.move_url
        shown = move or link
        left = BoxLayout(orientation="vertical", size_hint_x=0.5)
        code = self.part("qr", shown, lambda: QRCode(shown, size_hint=(1, 1)))
        code.role = "qr move" if move else "qr table"
        left.add_widget(code)
        main.add_widget(left)
        right = BoxLayout(orientation="vertical", spacing=8)
        right.add_widget(Text(self.tr("ui.phones.move_how" if move else "ui.phones.how"), 19))
        right.add_widget(Text(shown, 15, color=MUTED))
        right.add_widget(Widget())
        if move:
            right.add_widget(BigButton(self.tr("ui.phones.back_to_table"), self.app.hide_move, "secondary", size=18,
                                       height=64))
        else:
            right.add_widget(BigButton(self.tr("ui.phones.move"), self.app.show_move, "primary", size=18, height=64))
            right.add_widget(BigButton(self.tr("ui.phones.revoke"), self.c.revoke_link, "danger", size=18, height=64))
        main.add_widget(right)
        root.add_widget(main)
        self.notices(root, 1)


class ReplaceCardScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        game = self.c.game
        assert game is not None
        self.header(root, self.tr("ui.banker.replace_card"), lambda: self.app.go("banker"))
        if self.c.replacing:
            root.add_widget(Text(self.tr("ui.replace.tap", player=self.c.replacing), 28, bold=True, color=ACCENT))
        for p in game.players:
            if not p.bankrupt:
                root.add_widget(BigButton(p.name, lambda n=p.name: self.c.replace_card(n), "secondary"))
        self.notices(root, 2)
        root.add_widget(Widget())


class GameOverScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        game = self.c.game
        assert game is not None
        winner = game.winner
        text = self.tr("ui.over.winner", player=" & ".join(winner) if isinstance(winner, list) else winner)
        self.header(root, text)
        body = BoxLayout(orientation="horizontal", spacing=8)
        left = BoxLayout(orientation="vertical", size_hint_x=0.4)
        ranks = column()
        for r in view.ranking(self.c):
            line = row(48)
            line.add_widget(Chip(r["colour"], pos_hint={"center_y": 0.5}))
            line.add_widget(Text(f"{r['place']}. {r['name']}", 22, bold=True, height=44))
            line.add_widget(Text(str(r["worth"]), 22, halign="right", height=44))
            ranks.add_widget(line)
        left.add_widget(ranks)
        left.add_widget(Widget())
        body.add_widget(left)
        chart_box = BoxLayout(orientation="vertical")
        chart_box.add_widget(Text(self.tr("ui.over.chart"), 18, color=MUTED))
        chart_box.add_widget(Chart(view.worth_history(game), {p.name: self.c.colour(p.name) for p in game.players}))
        body.add_widget(chart_box)
        root.add_widget(body)
        bottom = row(66)
        bottom.add_widget(BigButton(self.tr("ui.banker.undo"), lambda: self.app.undo_end(), "secondary", height=66))
        if self.c.table_link():  # the phones keep the final results until a new link replaces this one
            bottom.add_widget(BigButton(self.tr("ui.phones.revoke"), self.c.revoke_link, "danger", size=16,
                                        height=66))
        bottom.add_widget(BigButton(self.tr("ui.over.close"), self.c.close_game, "primary", height=66))
        root.add_widget(bottom)


class SettingsScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        self.header(root, self.tr("ui.settings"), self.app.back_from_settings)
        s = self.c.settings
        languages = row(64)
        for code, name in LANGUAGES.items():
            languages.add_widget(BigButton(name, lambda code=code: self.c.set_language(code),
                                           "primary" if s.language == code else "secondary", height=64))
        root.add_widget(languages)
        for key in ("sounds", "taps", "physical_decks"):
            on = bool(getattr(s, key))
            root.add_widget(BigButton(self.tr(f"ui.settings.{key}.{'on' if on else 'off'}"),
                                      lambda k=key, v=on: self.c.set_setting(k, not v),
                                      "primary" if on else "secondary", height=64))
        root.add_widget(Text(self.tr("ui.status", reader=self.tr(f"ui.reader.{self.c.reader}"),
                                     button=self.tr(f"ui.button.{self.c.button}")), 20, color=MUTED))
        root.add_widget(Widget())


class CardPickScreen(BaseScreen):
    """Physical decks: the player picks the card they drew."""

    def build(self, root: BoxLayout) -> None:
        game = self.c.game
        assert game is not None and game.decision is not None and game.decision[0] == "draw"
        deck = game.decision[1]
        self.header(root, self.tr("ui.cards.which"), lambda: self.app.go("table"))
        body = column()
        for card_id in sorted(set(game.decks[deck])):
            card = game.ruleset.card_by_id[card_id]
            body.add_widget(BigButton(self.c.tr.card(card.id, card.text), lambda cid=card_id: self.app.pick_card(cid),
                                      "secondary", size=16, height=60))
        root.add_widget(scroll(body))


class DiceEntryScreen(BaseScreen):
    """Physical dice: the player enters what came up."""

    def build(self, root: BoxLayout) -> None:
        game = self.c.game
        assert game is not None
        self.header(root, self.tr("ui.dice.enter"), lambda: self.app.go("table"))
        chosen = self.app.entered_dice
        for k in range(game.dice_count()):
            line = row(96)
            for value in range(1, 7):
                die = BigButton(str(value), lambda k=k, v=value: self.app.enter_die(k, v),
                                "primary" if len(chosen) > k and chosen[k] == value else "secondary", size=30,
                                height=90)
                die.role = f"die{k}-{value}"  # two rows share the labels 1-6: tests tell them apart
                line.add_widget(die)
            root.add_widget(line)
        root.add_widget(BigButton(self.tr("ui.dice.done"), self.app.dice_entered, "primary", height=70))
        root.add_widget(Widget())


SCREENS: dict[str, type[BaseScreen]] = {
    "home": HomeScreen, "setup": SetupScreen, "inprogress": InProgressScreen, "table": TableScreen,
    "auction": AuctionScreen, "deeds": DeedsScreen, "trade": TradeScreen, "log": LogScreen,
    "banker": BankerScreen, "replace": ReplaceCardScreen, "over": GameOverScreen, "settings": SettingsScreen,
    "cards": CardPickScreen, "dice": DiceEntryScreen, "ownauction": OwnAuctionScreen, "casino": CasinoScreen,
    "jump": JumpScreen, "phones": PhonesScreen,
}
