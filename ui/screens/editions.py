"""Settings -> Editions, between games: the family's editions, each with its title (large) and its name, Rename
(on the on-screen keyboard: the title, then the name) and Delete (a confirming second touch); a broken one
greyed with its reason, not renamed; an empty folder says so. Titles and names are text, never markup."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.screens.banker import Confirming
from ui.screens.base import auto_height, list_column, listing, row
from ui.widgets import BigButton, Text

EDITIONS = "ui.flows.editions:EditionsFlow"


class EditionsScreen(Confirming):
    def build(self, root: BoxLayout) -> None:
        self.start_confirming()
        flow = self.f.of(EDITIONS)
        v = flow.view()
        self.header(root, self.tr("ui.editions.title"), lambda: self.f.nav.go("settings"))
        sv = self.box("list", listing)  # kept: scrolled where the finger left it
        body = self.box("rows", lambda: list_column(spacing=theme.GAP_WIDE))
        for e in v["editions"]:
            broken = e["problem"] is not None
            item = auto_height(BoxLayout(orientation="vertical", size_hint_y=None, spacing=theme.GAP_TIGHT))
            line = row(theme.TARGET)
            title = Text(e["title"], theme.FONT_BIG, bold=True, color=theme.MUTED if broken else theme.TEXT,
                         height=theme.TARGET, max_lines=2, shorten=True, shorten_from="right", markup=False)
            title.role = f"edition {e['name']}"
            line.add_widget(title)
            rename = BigButton(self.tr("ui.editions.rename"), lambda n=e["name"]: flow.rename(n), "secondary",
                               size=theme.FONT_SMALL, size_hint_x=None, width=theme.WIDTH_EDITION_ACTION,
                               height=theme.TARGET)
            rename.role = f"rename {e['name']}"
            rename.disabled = broken  # a broken edition is not renamed: only deleted
            line.add_widget(rename)
            line.add_widget(self.confirm_button(f"delete {e['name']}", "ui.editions.delete", "secondary",
                                                lambda n=e["name"]: flow.delete(n), "ui.editions.delete_again",
                                                size=theme.FONT_SMALL, size_hint_x=None,
                                                width=theme.WIDTH_EDITION_ACTION, height=theme.TARGET))
            item.add_widget(line)
            about = self.tr("ui.editions.broken", name=e["name"], reason=e["problem"]) if broken else e["name"]
            words = Text(about, theme.FONT_SMALL, color=theme.DANGER if broken else theme.MUTED, markup=False)
            words.role = f"about {e['name']}"
            item.add_widget(words)
            body.add_widget(item)
        if not v["editions"]:
            body.add_widget(Text(self.tr("ui.editions.none"), theme.FONT_PROMPT, color=theme.MUTED))
        sv.add_widget(body)
        root.add_widget(sv)
        self.notices(root, 2)
