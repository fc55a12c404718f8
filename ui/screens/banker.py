"""Behind the banker's PIN: undo, corrections, ending, abandoning, a lost card, phones, shutting down."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from ui import theme, view
from ui.screens.base import BaseScreen, column, grid, row, scroll
from ui.widgets import BigButton, Text

ADJUSTMENTS = (-50, -10, 10, 50)  # a correction of a player's cash


class BankerScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        self.header(root, self.tr("ui.banker.title"), lambda: self.nav.go("table"))
        if self.nav.is_locked():
            pin = TextInput(hint_text=self.tr("ui.banker.pin"), password=True, input_filter="int", multiline=False,
                            font_size=theme.FONT_HEADLINE, size_hint_y=None, height=theme.PIN_HEIGHT)
            root.add_widget(pin)
            root.add_widget(BigButton(self.tr("ui.banker.unlock"), lambda: self.nav.unlock(pin.text), "primary",
                                      height=theme.TARGET_LARGE))
            self.notices(root, 1)
            root.add_widget(Widget())
            return
        b = view.banker(self.c)
        menu = grid(2, spacing=theme.GAP_WIDE)
        menu.add_widget(BigButton(self.tr("ui.banker.undo"), lambda: self.c.undo(1), "secondary",
                                  height=theme.TARGET_LARGE))
        menu.add_widget(BigButton(self.tr("ui.banker.end"), self.c.end_game, "accent", height=theme.TARGET_LARGE))
        menu.add_widget(BigButton(self.tr("ui.banker.abandon"), self.nav.abandon, "danger", height=theme.TARGET_LARGE))
        menu.add_widget(BigButton(self.tr("ui.settings"), lambda: self.nav.go("settings"), "secondary",
                                  height=theme.TARGET_LARGE))
        menu.add_widget(BigButton(self.tr("ui.banker.replace_card"), lambda: self.nav.go("replace"), "secondary",
                                  height=theme.TARGET_LARGE))
        menu.add_widget(BigButton(self.tr("ui.banker.power_off"), self.c.power_off, "danger",
                                  height=theme.TARGET_LARGE))
        phones = BigButton(self.tr("ui.phones.button"), lambda: self.nav.go("phones"), "primary",
                           height=theme.TARGET_LARGE)
        phones.disabled = not b["phones"]  # no web server (switched off in the config)
        menu.add_widget(phones)
        root.add_widget(menu)
        root.add_widget(Text(self.tr("ui.banker.adjust"), theme.FONT_BIG, bold=True))
        body = column()
        for p in b["players"]:
            line = row(theme.TARGET_MEDIUM)
            line.add_widget(Text(f"{p['name']}: {p['cash_text']}", theme.FONT_BODY, height=theme.TARGET_MEDIUM))
            for delta in ADJUSTMENTS:
                line.add_widget(BigButton(f"{delta:+d}", lambda n=p["name"], d=delta: self.c.adjust(
                    n, d, None, self.tr("ui.banker.adjust_reason")), "secondary", size=theme.FONT_MINOR,
                    size_hint_x=None, width=theme.WIDTH_ADJUST, height=theme.TARGET_MEDIUM))
            body.add_widget(line)
        root.add_widget(scroll(body))
        self.notices(root, 1)
