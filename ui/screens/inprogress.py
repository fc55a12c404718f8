"""A game already under way: today's cash, positions, deeds, buildings and mortgages (the engine's setup)."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.pages import SETUP_PAGE
from ui.screens.base import BaseScreen, fit_font, list_column, listing, rewind, row
from ui.widgets import BigButton, Stripe, Text, text_width

HOTEL = 5  # the level after four houses
SHARES = {"cash": 1.2, "position": 1.3}  # of a player's row beside the names and the -/+ buttons: a space's
# name takes two lines sooner than an amount


def name_width(names: list[str]) -> float:
    """The names' column: as wide as the widest name in the names' font, between theme.WIDTH_PROGRESS_NAME and
    theme.WIDTH_PROGRESS_NAME_MOST (past that, a smaller font: fit_font)."""
    widest = max((text_width(n, theme.FONT_BIG) for n in names), default=0.0)
    return float(max(theme.WIDTH_PROGRESS_NAME, min(widest + theme.GAP, theme.WIDTH_PROGRESS_NAME_MOST)))


def fit_height(line: BoxLayout, texts: list[Text], least: float) -> None:
    """The row as tall as its tallest text (a space's name on three lines), and never under `least`."""
    def fit(*_: Any) -> None:
        line.height = max([least, *(t.height for t in texts)])
    for t in texts:
        t.bind(height=fit)
    fit()


class InProgressScreen(BaseScreen):
    def on_pre_enter(self, *args: Any) -> None:
        rewind(self)

    def build(self, root: BoxLayout) -> None:
        self.header(root, self.tr("ui.progress.title"), lambda: self.f.nav.go(SETUP_PAGE))
        self.f.progress.entered()  # every player named on the setup screen gets today's cash and position
        g = self.f.progress.view()
        sv = self.box("list", listing)  # kept: a touch far down the list leaves it where it was
        body = self.box("rows", list_column)
        names = name_width([p["name"] for p in g["players"]])
        for p in g["players"]:
            name = p["name"]
            line = row(theme.TARGET_MEDIUM)
            texts = [Text(name, theme.FONT_BIG, bold=True, height=theme.TARGET_MEDIUM, size_hint_x=None,
                          width=names, pos_hint={"center_y": 0.5})]
            fit_font(texts[0], [theme.FONT_BIG, theme.FONT_BODY, theme.FONT_SMALL])
            line.add_widget(texts[0])
            for key, step, shown in (("cash", g["step"], p["cash_text"]), ("position", 1, p["where"])):
                minus = BigButton("-", lambda n=name, k=key, s=step: self.f.progress.bump_player(n, k, -s), "secondary",
                                  size=theme.FONT_LARGE, size_hint_x=None, width=theme.WIDTH_NUDGE, size_hint_y=1)
                minus.role = f"{name} {key} -"  # many buttons read "-": tests tell them apart
                line.add_widget(minus)
                texts.append(Text(f"{self.tr('ui.progress.' + key)}: {shown}",
                                  theme.FONT_BODY if key == "cash" else theme.FONT_SMALL,
                                  height=theme.TARGET_MEDIUM, size_hint_x=SHARES[key], pos_hint={"center_y": 0.5}))
                line.add_widget(texts[-1])
                plus = BigButton("+", lambda n=name, k=key, s=step: self.f.progress.bump_player(n, k, s), "secondary",
                                 size=theme.FONT_LARGE, size_hint_x=None, width=theme.WIDTH_NUDGE, size_hint_y=1)
                plus.role = f"{name} {key} +"
                line.add_widget(plus)
            fit_height(line, texts, theme.TARGET_MEDIUM)
            body.add_widget(line)
            if g["laps"]:  # house rule buy_after_first_lap: has the player been round the board yet?
                lap = row(theme.TARGET_COMPACT)
                lap.add_widget(Text("", theme.FONT_SMALL, height=theme.TARGET_COMPACT, size_hint_x=None, width=names))
                lapped = BigButton(self.tr("ui.progress.lapped" if p["lapped"] else "ui.progress.not_lapped"),
                                   lambda n=name: self.f.progress.toggle_lapped(n),
                                   "primary" if p["lapped"] else "secondary", size=theme.FONT_SMALL,
                                   height=theme.TARGET_COMPACT)
                lapped.role = f"{name} lapped"
                lap.add_widget(lapped)
                body.add_widget(lap)
        for s in g["spaces"]:
            i = s["index"]
            line = row(theme.TARGET_COMPACT)
            line.add_widget(Stripe(s["colour"], size_hint_x=None, width=theme.STRIPE, size_hint_y=1))
            line.add_widget(Text(s["name"], theme.FONT_SMALL, height=theme.TARGET_COMPACT))
            owner_button = BigButton(s["owner"] or self.tr("ui.bank"), lambda i=i: self.f.progress.cycle_owner(i),
                                     "secondary", size=theme.FONT_SMALL, size_hint_x=None, width=theme.WIDTH_OWNER,
                                     height=theme.TARGET_COMPACT)
            owner_button.role = f"owner {i}"
            line.add_widget(owner_button)
            if s["lot"]:
                level = s["level"]
                level_button = BigButton(self.tr("ui.deed.hotel") if level == HOTEL else
                                         self.tr("ui.deed.houses_n", count=level),
                                         lambda i=i: self.f.progress.cycle_level(i), "secondary", size=theme.FONT_SMALL,
                                         size_hint_x=None, width=theme.WIDTH_LEVEL, height=theme.TARGET_COMPACT)
                level_button.role = f"level {i}"
                line.add_widget(level_button)
            if g["mortgages"]:
                said = "ui.deed.mortgaged" if s["mortgaged"] else "ui.progress.not_mortgaged"
                line.add_widget(BigButton(self.tr(said), lambda i=i: self.f.progress.toggle_mortgaged(i),
                                          "danger" if s["mortgaged"] else "secondary", size=theme.FONT_SMALL,
                                          size_hint_x=None, width=theme.WIDTH_MORTGAGE, height=theme.TARGET_COMPACT))
            body.add_widget(line)
        sv.add_widget(body)
        root.add_widget(sv)
        self.notices(root, 1)
        root.add_widget(BigButton(self.tr("ui.setup.start"), self.f.setup.start, "primary", size=theme.FONT_LARGE,
                                  height=theme.TARGET_LARGE))
