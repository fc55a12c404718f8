"""Game over: the ranking with each player's net worth, and a chart of everyone's net worth over the game
(ui/chart.py: rounds along the bottom, amounts up the side);
"Game report" opens the report page (ui/screens/report.py);
Undo asks for the banker's PIN (when the game has one) and a confirming second touch."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.chart import Chart
from ui.flows.report import ReportFlow
from ui.screens.banker import Confirming
from ui.screens.base import column, row
from ui.widgets import BigButton, Chip, Text

RANKS_ROOMY_MOST = 5  # players ranked in full-size lines; more get compact ones


class GameOverScreen(Confirming):
    def build(self, root: BoxLayout) -> None:
        self.start_confirming()
        g = self.f.home.game_over()
        top = row(theme.TARGET_MEDIUM)  # the winner, and the way to the game's report (ui/screens/report.py)
        top.add_widget(Text(g["winner"], theme.FONT_TITLE, bold=True,
                            height=theme.TARGET_MEDIUM))
        report = BigButton(self.tr("ui.over.report"), self.f.own(ReportFlow).open_report,
                           "accent", size=theme.FONT_BODY, size_hint_x=0.3, height=theme.TARGET_MEDIUM)
        report.role = "report"
        top.add_widget(report)
        root.add_widget(top)
        body = BoxLayout(orientation="horizontal", spacing=theme.GAP_WIDE)
        left = BoxLayout(orientation="vertical", size_hint_x=0.4)
        compact = len(g["ranking"]) > RANKS_ROOMY_MOST  # every player on screen, from 480 px high up
        ranks = column(spacing=theme.GAP_TIGHT) if compact else column()
        height = theme.LINE_PLAYER_TEXT if compact else theme.LINE_RANK
        text_height = theme.LINE_PLAYER_TEXT if compact else theme.LINE_RANK_TEXT
        size = theme.FONT_SMALL if compact else theme.FONT_BIG
        for r in g["ranking"]:
            line = row(height)
            line.add_widget(Chip(r["colour"], pos_hint={"center_y": 0.5}))
            line.add_widget(Text(f"{r['place']}. {r['name']}", size, bold=True, height=text_height))
            line.add_widget(Text(r["worth_text"], size, halign="right", height=text_height, size_hint_x=0.5))
            ranks.add_widget(line)
        left.add_widget(ranks)
        left.add_widget(Widget())
        body.add_widget(left)
        chart_box = BoxLayout(orientation="vertical")
        chart_box.add_widget(Text(self.tr("ui.over.chart_rounds"), theme.FONT_SMALL, color=theme.MUTED))
        chart_box.add_widget(Chart(g["history"], g["colours"], rounds=g["rounds"], number=self.s.tr.number))
        body.add_widget(chart_box)
        root.add_widget(body)
        bottom = row(theme.TARGET_BAR)
        bottom.add_widget(self.confirm_button("undo_end", "ui.banker.undo", "secondary", self.f.banker.undo_end,
                                              "ui.confirm.undo", height=theme.TARGET_BAR))
        if self.f.phones.view()["link"]:  # the phones keep the final results until a new link replaces this one
            bottom.add_widget(BigButton(self.tr("ui.phones.revoke"), self.f.phones.revoke, "danger",
                                        size=theme.FONT_SMALL, height=theme.TARGET_BAR))
        bottom.add_widget(BigButton(self.tr("ui.over.close"), self.f.home.close_game, "primary", height=theme.TARGET_BAR))
        root.add_widget(bottom)
