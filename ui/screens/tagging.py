"""Settings -> "Tag the cards", between games (ui/flows/tagging.py): first the sets, a large button each with how
much of it is tagged; then one card at a time, large enough to read from across the table (a deed on its colour
band with its name and price, a deck's card with the deck's name and its words), whether it has its sticker
and what to do, with how much of its kind is tagged beside the title; Back, Skip, "Tag this one again" and
Done under it. Past the last card, how much of the set is tagged, with "Tag the rest" while cards are left."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.flows.tagging import ItemView, TaggingView
from ui.screens.base import BaseScreen, fit_font, list_column, listing, row
from ui.widgets import BigButton, Panel, Text, colour


class TaggingScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        v = self.f.tagging.view()
        if v["stage"] == "sets":
            self._sets(root, v)
        elif v["item"] is not None:
            self._item(root, v, v["item"])
        else:
            self._end(root, v)

    def _sets(self, root: BoxLayout, v: TaggingView) -> None:
        flow = self.f.tagging
        self.header(root, v["title"], flow.leave_list)
        root.add_widget(Text(self.tr("ui.tagging.choose"), theme.FONT_BODY, color=theme.MUTED))
        if v["problem"] is not None:
            problem = Text(v["problem"], theme.FONT_BODY, color=theme.DANGER)
            problem.role = "tags file problem"
            root.add_widget(problem)
        sv = self.box("list", listing)  # kept: scrolled where the finger left it
        body = self.box("sets", list_column)
        for t in v["sets"]:
            button = BigButton(f"{t['title']}\n{t['progress']}", lambda k=t["key"]: flow.choose(k),
                               "primary" if t["done"] else "secondary", height=theme.TARGET_LARGE)
            button.role = f"set {t['key']}"
            body.add_widget(button)
        sv.add_widget(body)
        root.add_widget(sv)
        self.notices(root, 1)

    def _item(self, root: BoxLayout, v: TaggingView, item: ItemView) -> None:
        flow = self.f.tagging
        progress = Text(item["progress"], theme.FONT_BODY, color=theme.MUTED, halign="right",
                        height=theme.TARGET_MEDIUM, size_hint_x=1.2)
        progress.role = "progress"
        self.header(root, v["title"], aside=progress)
        deed = item["kind"] == "deed"
        ink = (theme.INK if item["dark"] else theme.TEXT) if deed else theme.TEXT
        # The card fills the page's middle, its words in the middle of it: read from across the table.
        card = Panel(orientation="vertical", fill=colour(item["colour"]) if deed else None)
        card.add_widget(Widget())
        name = Text(item["name"], theme.FONT_HUGE if deed else theme.FONT_TITLE, bold=True,
                    color=ink if deed else theme.ACCENT, halign="center", markup=False)
        name.role = "item name"
        card.add_widget(name)
        words = Text(item["text"], theme.FONT_HEADLINE if deed else theme.FONT_PROMPT, color=ink, halign="center",
                     markup=False)
        words.role = "item text"
        card.add_widget(words)
        card.add_widget(Widget())
        root.add_widget(card)
        status = Text(item["status"], theme.FONT_BIG, bold=not item["tagged"],
                      color=theme.TEXT if item["tagged"] else theme.ACCENT, halign="center")
        status.role = "tagged" if item["tagged"] else "waiting for a sticker"
        root.add_widget(status)
        self.notices(root, 1)
        buttons = row(theme.TARGET_BAR)
        again = BigButton(self.tr("ui.tagging.again"), flow.again, "secondary", height=theme.TARGET_BAR)
        again.disabled = not item["tagged"]  # nothing to take off
        for button, role in ((self._back(v), "back"), (BigButton(self.tr("ui.tagging.skip"), flow.skip, "secondary",
                                                                   height=theme.TARGET_BAR), "skip"),
                             (again, "again"), (self._done(), "done")):
            button.role = role
            fit_font(button, [theme.FONT_BODY, theme.FONT_SMALL], theme.TEXT_INSET)
            buttons.add_widget(button)
        root.add_widget(buttons)

    def _end(self, root: BoxLayout, v: TaggingView) -> None:
        flow = self.f.tagging
        self.header(root, v["title"])
        end = Text(v["end"], theme.FONT_PROMPT, bold=True, halign="center")
        end.role = "end"
        root.add_widget(end)
        self.notices(root, 1)
        root.add_widget(Widget())
        buttons = row(theme.TARGET_BAR)
        shown = [(self._back(v), "back")]
        if v["rest"]:
            shown.append((BigButton(self.tr("ui.tagging.rest"), flow.rest, "secondary", height=theme.TARGET_BAR),
                          "rest"))
        shown.append((self._done(), "done"))
        for button, role in shown:
            button.role = role
            fit_font(button, [theme.FONT_BODY, theme.FONT_SMALL], theme.TEXT_INSET)
            buttons.add_widget(button)
        root.add_widget(buttons)

    def _back(self, v: TaggingView) -> BigButton:
        back = BigButton(self.tr("ui.back"), self.f.tagging.back, "secondary", height=theme.TARGET_BAR)
        back.disabled = not v["can_back"]  # the first card: nothing before it
        return back

    def _done(self) -> BigButton:
        return BigButton(self.tr("ui.tagging.done"), self.f.tagging.done, "primary", height=theme.TARGET_BAR)
