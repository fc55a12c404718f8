"""A player's deeds by colour group with Build, Sell 1, Sell all, Mortgage and Lift (biznes: Auction and
To bank); a tab per player (in two rows from five players on, so every name shows whole); the bank's
buildings beside the title. A deed chosen by its tagged card comes first, marked, the list back at its top."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from ui import theme, view
from ui.pages import TABLE_PAGE
from ui.screens.base import BaseScreen, grid, list_column, listing, row
from ui.widgets import BigButton, Panel, Stripe, Text, colour

TABS_ROW_MOST = 4  # players' tabs in one row; more go into two rows


class DeedsScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        who = self.f.deeds.player()
        bar = row(theme.TARGET_MEDIUM)
        bar.add_widget(BigButton(self.tr("ui.back"), lambda: self.f.nav.go(TABLE_PAGE), "secondary", size_hint_x=None,
                                 width=theme.WIDTH_BACK, height=theme.TARGET_MEDIUM))
        bar.add_widget(Text(self.tr("ui.deeds.title", player=who), theme.FONT_TITLE, bold=True,
                            height=theme.TARGET_MEDIUM))
        pool = Text(self.f.deeds.pool_text(), theme.FONT_SMALL, color=theme.MUTED, halign="right",
                    size_hint_x=None, width=theme.WIDTH_POOL, height=theme.TARGET_MEDIUM)
        pool.role = "pool"
        bar.add_widget(pool)
        root.add_widget(bar)
        players = [p for p in view.players(self.s) if not p["bankrupt"]]
        cols = len(players) if len(players) <= TABS_ROW_MOST else (len(players) + 1) // 2
        tabs = grid(max(1, cols), spacing=theme.GAP_TIGHT)
        for p in players:
            chosen = p["name"] == who
            tab = BigButton(f"{p['name']} {p['cash_text']}", lambda n=p["name"]: self.f.deeds.show(n),
                            "primary" if chosen else "secondary", size=theme.FONT_SMALL,
                            height=theme.TARGET_COMPACT,
                            background_color=colour(p["colour"]) if chosen else theme.TAB)
            tab.role = f"deeds of {p['name']}"
            tabs.add_widget(tab)
        root.add_widget(tabs)
        self.pending_banner(root)
        sv = self.box("list", listing)  # kept: a tap far down the list leaves it where it was
        body = self.box("rows", list_column)
        groups = self.f.deeds.view(who)
        if not groups:
            body.add_widget(Text(self.tr("ui.deeds.none", player=who), theme.FONT_BIG, color=theme.MUTED))
        for g in groups:
            body.add_widget(Stripe(g["colour"], height=theme.STRIPE_GROUP))
            for d in g["deeds"]:
                line = Panel(orientation="horizontal", size_hint_y=None, height=theme.TARGET,
                             fill=theme.CURRENT_FILL if d["chosen"] else None)
                label = f"{d['name']}  {d['houses_text']}" + (f"  ({self.tr('ui.deed.mortgaged')})"
                                                              if d["mortgaged"] else "")
                name = Text(label, theme.FONT_READ, bold=True, height=theme.TARGET_MEDIUM,
                            color=theme.ACCENT if d["chosen"] else None)
                if d["chosen"]:
                    name.role = "chosen deed"
                line.add_widget(name)
                for act in d["actions"]:
                    action = BigButton(act["text"],
                                       lambda v=act["verb"], i=d["index"]: self.f.deeds.act(who, v, i),
                                       "primary" if act["enabled"] else "secondary", size=theme.FONT_SMALL,
                                       size_hint_x=None, width=theme.WIDTH_DEED_VERB, height=theme.TARGET_MEDIUM)
                    action.role = f"{act['verb']} {d['index']}"  # every row has the same labels
                    line.add_widget(action)
                body.add_widget(line)
        by_card = next((d["index"] for g in groups for d in g["deeds"] if d["chosen"]), None)
        if by_card is not None and by_card != getattr(self, "_by_card_shown", None):
            sv.widget.scroll_y = 1  # a deed just chosen by its card: the list at its top, where that deed is
        self._by_card_shown = by_card
        sv.add_widget(body)
        root.add_widget(sv)
        self.notices(root, 2)
