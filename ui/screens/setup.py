"""A new game: the ruleset, the players with their colours and cards, the banker's PIN and the house rules
(brands: the family's own table; a timed game: its length)."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from ui import theme, view
from ui.navigator import TIME_LIMIT_STEP
from ui.screens.base import BaseScreen, column, grid, row, scroll
from ui.widgets import BigButton, Text, colour


class SetupScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        s = view.setup(self.c)
        self.header(root, self.tr("ui.setup.title"), self.c.leave_draft)
        body = column()
        rules = grid(4)  # eight rulesets: two rows of four
        for r in s["rulesets"]:
            rules.add_widget(BigButton(r["text"], lambda n=r["name"]: self.c.draft_rules(n),
                                       "primary" if r["chosen"] else "secondary", size=theme.FONT_SMALL,
                                       height=theme.TARGET_MEDIUM))
        body.add_widget(rules)
        for p in s["players"]:
            k = p["index"]
            line = row(theme.TARGET_SNUG)
            line.add_widget(BigButton("", lambda k=k: self.nav.next_colour(k), "secondary", size_hint_x=None,
                                      width=theme.WIDTH_SWATCH, height=theme.TARGET_SNUG,
                                      background_color=colour(p["colour"])))
            name = BigButton(p["name"] or self.tr("ui.setup.name", number=k + 1), lambda k=k: self.nav.edit_name(k),
                             "secondary", size=theme.FONT_LARGE, height=theme.TARGET_SNUG)
            name.color = theme.TEXT if p["name"] else theme.MUTED  # no name yet: "Player 2", greyed
            name.role = f"name {k}"  # opens the keyboard for this player
            line.add_widget(name)
            if p["registering"]:
                label, kind = self.tr("ui.setup.tap_now"), "accent"
            elif p["card"]:
                label, kind = self.tr("ui.setup.card_ok"), "primary"
            else:
                label, kind = self.tr("ui.setup.register"), "secondary"
            line.add_widget(BigButton(label, lambda k=k: self.c.draft_register(k), kind, size=theme.FONT_SMALL,
                                      size_hint_x=None, width=theme.WIDTH_REGISTER, height=theme.TARGET_SNUG))
            line.add_widget(BigButton("X", lambda k=k: self.c.draft_remove_player(k), "danger",
                                      size_hint_x=None, width=theme.WIDTH_SWATCH, height=theme.TARGET_SNUG))
            body.add_widget(line)
        more = row(theme.TARGET_SNUG)
        if s["can_add"]:
            more.add_widget(BigButton(self.tr("ui.setup.add_player"), self.nav.add_player, "secondary",
                                      size=theme.FONT_SMALL, height=theme.TARGET_SNUG))
        pin = BigButton(self.tr("ui.setup.pin_shown", dots="\u2022" * len(s["pin"])) if s["pin"]
                        else self.tr("ui.setup.pin_none"), self.nav.edit_pin, "secondary", size=theme.FONT_SMALL,
                        height=theme.TARGET_SNUG)
        pin.role = "setup pin"  # opens the digit pad for the banker's PIN
        more.add_widget(pin)
        body.add_widget(more)
        rules_row = row(theme.TARGET_MEDIUM)
        for o in s["options"]:
            option, on = o["option"], o["on"]
            rules_row.add_widget(BigButton(self.tr(f"ui.option.{option}") + (": " + self.tr("ui.on") if on else ""),
                                           lambda o=option, v=on: self.nav.set_option(o, not v),
                                           "primary" if on else "secondary", size=theme.FONT_SMALL,
                                           height=theme.TARGET_MEDIUM))
        body.add_widget(rules_row)
        custom = s["custom"]
        if custom is not None:  # brands: the family's own table
            body.add_widget(Text(self.tr("ui.custom.title"), theme.FONT_BODY, bold=True))
            for number in custom["numbers"]:
                option, value, step, least = number["option"], number["value"], number["step"], number["least"]
                line = row(theme.TARGET_MEDIUM)
                shown = self.tr("ui.off") if value == 0 and least == 0 else number["shown"]
                line.add_widget(Text(f"{self.tr('ui.custom.' + option)}: {shown}", theme.FONT_READ,
                                     height=theme.TARGET_MEDIUM))
                for delta in (-step, step):
                    b = BigButton(f"{delta:+d}", lambda o=option, v=value, x=delta: self.nav.set_custom(o, v + x),
                                  "secondary", size_hint_x=None, width=theme.WIDTH_STEP, height=theme.TARGET_MEDIUM)
                    b.role = f"{option} {delta:+d}"
                    line.add_widget(b)
                body.add_widget(line)
            even = custom["build_evenly"]
            body.add_widget(BigButton(self.tr("ui.custom.build_evenly") + (": " + self.tr("ui.on") if even else ""),
                                      lambda v=even: self.nav.set_option("build_evenly", not v),
                                      "primary" if even else "secondary", size=theme.FONT_SMALL,
                                      height=theme.TARGET_MEDIUM))
        minutes = s["time_limit"]
        if minutes is not None:
            timed = row(theme.TARGET_MEDIUM)
            timed.add_widget(Text(self.tr("ui.setup.time_limit", minutes=minutes), theme.FONT_BODY,
                                  height=theme.TARGET_MEDIUM))
            for delta in (-TIME_LIMIT_STEP, TIME_LIMIT_STEP):
                timed.add_widget(BigButton(f"{delta:+d}", lambda x=delta, m=minutes: self.nav.set_time_limit(m + x),
                                           "secondary", size_hint_x=None, width=theme.WIDTH_STEP,
                                           height=theme.TARGET_MEDIUM))
            body.add_widget(timed)
        for problem in s["problems"]:
            body.add_widget(Text(problem, theme.FONT_SMALL, color=theme.MUTED))
        root.add_widget(scroll(body))
        self.notices(root, 1)
        bottom = row(theme.TARGET_LARGE)
        bottom.add_widget(BigButton(self.tr("ui.setup.in_progress"), lambda: self.nav.go("inprogress"),
                                    "secondary", size=theme.FONT_SMALL, height=theme.TARGET_LARGE))
        bottom.add_widget(BigButton(self.tr("ui.setup.start"), self.c.draft_start, "primary", size=theme.FONT_LARGE,
                                    height=theme.TARGET_LARGE))
        root.add_widget(bottom)
