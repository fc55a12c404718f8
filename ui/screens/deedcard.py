"""The big deed (a tagged title deed put on the reader, Monopoly Ultimate Banking's rent check): the deed's name
large on its colour band; on the left whose it is, the rent it takes now in large figures, the mortgage and
the buildings; on the right every rent line, the one in force marked; Back returns where the deed was tapped."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.screens.base import BaseScreen, auto_height, column, fit_font, row
from ui.widgets import BigButton, Panel, Text, colour


class DeedCardScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        d = self.f.deedcard.view()
        bar = row(theme.TARGET_LARGE)
        bar.add_widget(BigButton(self.tr("ui.back"), self.f.deedcard.close, "secondary", size_hint_x=None,
                                 width=theme.WIDTH_BACK, height=theme.TARGET_LARGE))
        band = Panel(orientation="vertical", size_hint_y=None, height=theme.TARGET_LARGE, padding=theme.PAD_SLIM,
                     fill=colour(d["colour"]))  # the deed's colour band, its name on it as printed
        name = Text(d["name"], theme.FONT_HEADLINE, bold=True, halign="center", height=theme.TARGET_MEDIUM,
                    color=theme.INK if d["light"] else theme.TEXT)
        name.role = "deed name"
        fit_font(name, [theme.FONT_HEADLINE, theme.FONT_TITLE, theme.FONT_BIG])  # a long name on one line
        band.add_widget(name)
        bar.add_widget(band)
        root.add_widget(bar)
        body = BoxLayout(orientation="horizontal", size_hint_y=None, spacing=theme.GAP_PANEL)
        left = column(pos_hint={"top": 1})
        owner = Text(d["owner"], theme.FONT_TITLE, bold=True,
                     color=colour(d["owner_colour"]) if d["owner_colour"] else theme.MUTED)
        owner.role = "deed owner"
        left.add_widget(owner)
        rent = Text(d["rent_now"], theme.FONT_FIGURE, bold=True, color=theme.ACCENT)
        rent.role = "deed rent"  # what the table reads from across it
        left.add_widget(rent)
        mortgage = Text(d["mortgage"], theme.FONT_BIG, bold=d["mortgaged"],
                        color=theme.DANGER if d["mortgaged"] else theme.TEXT)
        mortgage.role = "deed mortgage"
        left.add_widget(mortgage)
        if d["built"]:
            left.add_widget(Text(d["built"], theme.FONT_BIG, bold=True))
        body.add_widget(left)
        rents = column(spacing=theme.GAP_TIGHT, pos_hint={"top": 1})
        for k, line in enumerate(d["rents"]):
            panel = auto_height(Panel(orientation="vertical", size_hint_y=None, padding=theme.PAD_SLIM,
                                      fill=theme.CURRENT_FILL if line["now"] else theme.BG))
            text = Text(line["text"], theme.FONT_LARGE, bold=line["now"],
                        color=theme.ACCENT if line["now"] else theme.TEXT)
            text.role = f"rent line {k}" + (" now" if line["now"] else "")
            panel.add_widget(text)
            rents.add_widget(panel)
        body.add_widget(rents)
        root.add_widget(auto_height(body))
        self.notices(root, 2)
        root.add_widget(Widget())
