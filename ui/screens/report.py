"""The game's report, from the game-over screen: the winner, the game's length, the turning point (its largest
payment), a chart of each player's money in (rent, salary, the rest) and out (ui/chart.py's MoneyBars) and a few
plain lines per player, in large type to read across the table; and the hall of fame, from
the start screen: the family's finished games, each player's wins, rent and best game, the longest and the
shortest game, then every finished game (newest first), a touch opening its report again. Both scroll when the
family is large."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.chart import MoneyBars
from ui.flows.report import ReportFlow
from ui.pages import HOME_PAGE
from ui.screens.base import BaseScreen, list_column, listing, row
from ui.widgets import BigButton, Chip, Text


class ReportScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        flow = self.f.own(ReportFlow)
        v = flow.report_view()
        self.header(root, v["title"], flow.back_from_report)
        # kept: scrolled where the finger left it; another game's report opens at its top
        sv = self.box(f"list {v['game']}", listing)
        body = self.box(f"rows {v['game']}", lambda: list_column(spacing=theme.GAP_WIDE))
        winner = Text(v["winner"], theme.FONT_PROMPT, bold=True)
        winner.role = "winner"
        body.add_widget(winner)
        body.add_widget(Text(v["length"], theme.FONT_BIG, color=theme.MUTED))
        if v["turning"]:
            turning = Text(v["turning"], theme.FONT_BIG, bold=True)
            turning.role = "turning point"
            body.add_widget(turning)
        money = flow.money_view()  # who received what, from where, and who paid: in the players' colours
        body.add_widget(Text(money["title"], theme.FONT_BIG, bold=True))
        chart = MoneyBars(money)
        chart.role = "money chart"
        body.add_widget(chart)
        for p in v["players"]:
            line = row(theme.LINE_PLAYER_TEXT)
            line.add_widget(Chip(p["colour"], pos_hint={"center_y": 0.5}))
            line.add_widget(Text(f"{p['place']}. {p['name']}", theme.FONT_BIG, bold=True,
                                 height=theme.LINE_PLAYER_TEXT))
            body.add_widget(line)
            for text in p["lines"]:
                said = Text(text, theme.FONT_READ)
                said.role = "report line"
                body.add_widget(said)
        sv.add_widget(body)
        root.add_widget(sv)


class FameScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        flow = self.f.own(ReportFlow)
        v = flow.fame_view()
        self.header(root, v["title"], lambda: self.f.nav.go(HOME_PAGE))
        sv = self.box("list", listing)
        body = self.box("rows", lambda: list_column(spacing=theme.GAP_WIDE))
        body.add_widget(Text(v["games"], theme.FONT_PROMPT if v["empty"] else theme.FONT_LARGE, bold=True))
        for i, p in enumerate(v["players"]):
            body.add_widget(Text(f"{i + 1}. {p['name']}: {p['wins']}", theme.FONT_LARGE, bold=True))
            body.add_widget(Text(p["more"], theme.FONT_BODY))
        for text in v["lengths"]:
            body.add_widget(Text(text, theme.FONT_BODY, color=theme.MUTED))
        if v["past"]:  # every finished game's report, again: a button each, newest first
            body.add_widget(Text(v["past_title"], theme.FONT_LARGE, bold=True))
            for game in v["past"]:
                b = BigButton(game["text"], lambda g=game["game"]: flow.open_past(g), "secondary",
                              size=theme.FONT_BODY, markup=False)  # the players' names are text, never markup
                b.role = f"past report {game['game']}"
                body.add_widget(b)
        sv.add_widget(body)
        root.add_widget(sv)
        self.notices(root, 1)  # a game whose report no longer loads says why
