"""A new game: the ruleset, the players with their colours and cards, the banker's PIN and the house rules
chosen (their button opens the house rules page, ui/screens/houserules.py; brands: the family's own table; a
timed game: its length).

At 480 px high everything but the two lists is in view at once: the top row (Back, the title, the banker's
PIN), the eight rulesets in two rows (five to a row with the family's editions after them, scrolling when
more than ten), then the players beside the house rules, each list scrolling on its
own with a scroll bar that stays in sight, and the bottom row: Add a player, the game already going, Start.
The lists are kept from one refresh to the next, so a touch far down a list leaves it where it was."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.flows.setup import TIME_LIMIT_STEP, SetupView
from ui.pages import HOUSERULES_PAGE, INPROGRESS_PAGE
from ui.screens.base import BaseScreen, auto_height, fit_font, grid, list_column, listing, rewind, row
from ui.widgets import BigButton, Text, colour

RULES_COLUMNS = 4  # the shipped rulesets' buttons in a row


class SetupScreen(BaseScreen):
    def on_pre_enter(self, *args: Any) -> None:
        rewind(self)

    def build(self, root: BoxLayout) -> None:
        s = self.f.setup.view()
        self.head(root, s)
        offered = s["rulesets"]
        # Eight shipped rulesets: two rows of four; with the family's editions, two rows of five, and when
        # more than ten, those two rows' height scrolls (a bar in sight) to the rest.
        cols = RULES_COLUMNS if len(offered) <= 2 * RULES_COLUMNS else RULES_COLUMNS + 1
        scrolls = len(offered) > 2 * cols
        rules = grid(cols)
        if scrolls:
            rules.padding = [0, 0, theme.LIST_BAR + theme.GAP, 0]
        for r in offered:
            b = BigButton(r["text"], lambda n=r["name"]: self.f.setup.choose_rules(n),
                          "primary" if r["chosen"] else "secondary", size=theme.FONT_SMALL,
                          height=theme.SETUP_RULESET, markup=False)  # an edition's title is text, never markup
            b.role = f"ruleset {r['name']}"
            rules.add_widget(b)
        if scrolls:
            sv = self.box("rulesets list", listing)
            sv.widget.size_hint_y = None
            sv.widget.height = 2 * theme.SETUP_RULESET + theme.GAP
            sv.add_widget(rules)
            root.add_widget(sv)
        else:
            root.add_widget(rules)
        body = self.box("body", lambda: BoxLayout(orientation="horizontal", spacing=theme.GAP_WIDE))
        body.add_widget(self.players(s))
        body.add_widget(self.house_rules(s))
        root.add_widget(body)
        self.notices(root, 1, said=s["problems"])  # a refused Start's reasons are said in the hint, in red
        bottom = row(theme.TARGET)
        add = BigButton(self.tr("ui.setup.add_player"), self.f.setup.add_player, "secondary", size=theme.FONT_SMALL,
                        size_hint_x=0.8)
        add.disabled = not s["can_add"]  # as many as the ruleset takes: no more (the button stays, greyed)
        bottom.add_widget(add)
        bottom.add_widget(BigButton(self.tr("ui.setup.in_progress"), lambda: self.f.nav.go(INPROGRESS_PAGE),
                                    "secondary", size=theme.FONT_SMALL))
        bottom.add_widget(BigButton(self.tr("ui.setup.start"), self.f.setup.start, "primary", size=theme.FONT_LARGE))
        root.add_widget(bottom)

    def head(self, root: BoxLayout, s: SetupView) -> None:
        """Back, the title, and the banker's PIN (its dots once set)."""
        bar = row(theme.SETUP_HEAD)
        bar.add_widget(BigButton(self.tr("ui.back"), self.f.setup.cancel, "secondary", size_hint_x=None,
                                 width=theme.WIDTH_BACK, height=theme.SETUP_HEAD))
        bar.add_widget(Text(self.tr("ui.setup.title"), theme.FONT_TITLE, bold=True, height=theme.SETUP_HEAD))
        pin = BigButton(self.tr("ui.setup.pin_shown", dots="\u2022" * s["pin_digits"]) if s["pin_digits"]
                        else self.tr("ui.setup.pin_none"), self.f.pad.new_pin, "secondary", size=theme.FONT_SMALL,
                        size_hint_x=None, width=theme.WIDTH_SETUP_PIN, height=theme.SETUP_HEAD)
        pin.role = "setup pin"  # opens the digit pad for the banker's PIN
        bar.add_widget(pin)
        root.add_widget(bar)

    def players(self, s: SetupView) -> Any:
        """Each player's colour, name, card and X, then what still stops the game from starting."""
        side = self.box("players side", lambda: BoxLayout(orientation="vertical", size_hint_x=0.6))
        sv = self.box("players list", listing)
        rows = self.box("players rows", list_column)
        for p in s["players"]:
            k = p["index"]
            line = row(theme.SETUP_ROW)
            swatch = BigButton("", lambda k=k: self.f.setup.next_colour(k), "secondary", size_hint_x=None,
                               width=theme.WIDTH_SETUP_SWATCH, height=theme.SETUP_ROW,
                               background_color=colour(p["colour"]))
            swatch.role = f"colour {k}"  # the player's token colour: the next one nobody has
            line.add_widget(swatch)
            shown = p["name"] or self.tr("ui.setup.name", number=k + 1)
            name = BigButton(shown, lambda k=k: self.f.names.edit(k), "secondary", size=theme.FONT_LARGE,
                             height=theme.SETUP_ROW)
            fit_font(name, [theme.FONT_LARGE, theme.FONT_BIG, theme.FONT_BODY, theme.FONT_SMALL], theme.TEXT_INSET)
            name.color = theme.TEXT if p["name"] else theme.MUTED  # no name yet: "Player 2", greyed
            name.role = f"name {k}"  # opens the keyboard for this player
            line.add_widget(name)
            if p["registering"]:
                label, kind = self.tr("ui.setup.tap_now"), "accent"
            elif p["card"]:
                label, kind = self.tr("ui.setup.card_ok"), "primary"
            else:
                label, kind = self.tr(self.s.by_mode("ui.setup.register")), "secondary"
            card = BigButton(label, lambda k=k: self.f.setup.register(k), kind, size=theme.FONT_SMALL,
                             size_hint_x=None, width=theme.WIDTH_SETUP_CARD, height=theme.SETUP_ROW)
            card.role = f"card {k}"  # the next card tapped is this player's
            line.add_widget(card)
            remove = BigButton("X", lambda k=k: self.f.setup.remove_player(k), "danger", size_hint_x=None,
                               width=theme.WIDTH_SETUP_SWATCH, height=theme.SETUP_ROW)
            remove.disabled = not s["can_remove"]  # two players are the least: their X is greyed
            line.add_widget(remove)
            rows.add_widget(line)
        sv.add_widget(rows)
        side.add_widget(sv)
        # What still stops the start, below the list and never scrolled away or cut: grey as a hint, red once
        # Start was refused for it; it goes as its cause is fixed.
        hint = self.box("players hint", lambda: auto_height(BoxLayout(orientation="vertical", size_hint_y=None)))
        for problem in s["problems"]:
            line = Text(problem, theme.FONT_SMALL, color=theme.DANGER if problem in s["refused"] else theme.MUTED)
            line.role = "setup problem"
            hint.add_widget(line)
        side.add_widget(hint)
        return side

    def house_rules(self, s: SetupView) -> Any:
        """The house rules: the button to their page and the ones chosen, in words; brands' own table; a timed
        game's length."""
        side = self.box("rules side", lambda: BoxLayout(orientation="vertical", spacing=theme.GAP, size_hint_x=0.4))
        rules = BigButton(self.tr("ui.setup.house_rules"), lambda: self.f.nav.go(HOUSERULES_PAGE), "secondary",
                          size=theme.FONT_BODY, height=theme.SETUP_ROW)
        rules.role = "house rules"  # opens the house rules page
        side.add_widget(rules)
        sv = self.box("rules list", listing)
        body = self.box("rules rows", list_column)
        for line in s["house_rules"] or [self.tr("ui.house.rulebook")]:
            body.add_widget(Text(line, theme.FONT_SMALL, color=theme.TEXT if s["house_rules"] else theme.MUTED))
        custom = s["custom"]
        if custom is not None:  # brands: the family's own table
            body.add_widget(Text(self.tr("ui.custom.title"), theme.FONT_SMALL, bold=True))
            for number in custom["numbers"]:
                option, value, step, least = number["option"], number["value"], number["step"], number["least"]
                shown = self.tr("ui.off") if value == 0 and least == 0 else number["shown"]
                body.add_widget(self.stepper(f"{self.tr('ui.custom.' + option)}: {shown}", option, step,
                                             lambda v, o=option, x=value: self.f.setup.set_custom(o, x + v)))
            even = custom["build_evenly"]
            body.add_widget(BigButton(self.tr("ui.custom.build_evenly") + ": " + self.tr("ui.on" if even else "ui.off"),
                                      lambda v=even: self.f.setup.set_option("build_evenly", not v),
                                      "primary" if even else "secondary", size=theme.FONT_SMALL,
                                      height=theme.SETUP_ROW))
        minutes = s["time_limit"]
        if minutes is not None:
            body.add_widget(self.stepper(self.tr("ui.setup.time_limit", minutes=minutes), None, TIME_LIMIT_STEP,
                                         lambda v, m=minutes: self.f.setup.set_time_limit(m + v)))
        sv.add_widget(body)
        side.add_widget(sv)
        return side

    def stepper(self, text: str, option: str | None, step: int, change: Any) -> BoxLayout:
        """A number with its - and + a step (roles "OPTION -STEP" and "OPTION +STEP")."""
        line = row(theme.SETUP_ROW)
        line.add_widget(Text(text, theme.FONT_SMALL, height=theme.SETUP_ROW))
        for delta in (-step, step):
            b = BigButton("-" if delta < 0 else "+", lambda x=delta: change(x), "secondary", size=theme.FONT_LARGE,
                          size_hint_x=None, width=theme.WIDTH_NUDGE, height=theme.SETUP_ROW)
            b.role = f"{option or 'time_limit'} {delta:+d}"
            line.add_widget(b)
        return line
