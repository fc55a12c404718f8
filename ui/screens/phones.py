"""The table's QR code for phones (a read-only live view), a new link, and moving the game to another device;
without the phone server, why it is off and the one thing to do."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.pages import BANKER_PAGE
from ui.screens.base import BaseScreen
from ui.widgets import BigButton, QRCode, Text


class PhonesScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        self.header(root, self.tr("ui.phones.title"), lambda: self.f.nav.go(BANKER_PAGE))
        phones = self.f.phones.view()
        if phones["link"] is None:  # no server, or no game: why, and what to do
            off = Text(phones["off"], theme.FONT_BIG, halign="center", markup=False)
            off.role = "phones off"
            root.add_widget(off)
            root.add_widget(Widget())
            return
        link = phones["link"]
        main = self.box("qr main", lambda: BoxLayout(orientation="horizontal", spacing=theme.GAP_PANEL))
        move = self.f.phones.move_url
        shown = move or link
        left = self.box("qr side", lambda: BoxLayout(orientation="vertical", size_hint_x=0.5))
        code = self.part("qr", shown, lambda: QRCode(shown, size_hint=(1, 1)))
        code.role = "qr move" if move else "qr table"
        left.add_widget(code)
        main.add_widget(left)
        right = BoxLayout(orientation="vertical", spacing=theme.GAP_WIDE)
        right.add_widget(Text(self.tr("ui.phones.move_how", minutes=phones["move_minutes"]) if move
                              else self.tr(self.s.by_mode("ui.phones.how")), theme.FONT_READ))
        right.add_widget(Text(shown, theme.FONT_SMALL, color=theme.MUTED))
        right.add_widget(Widget())
        if move:
            right.add_widget(BigButton(self.tr("ui.phones.back_to_table"), self.f.phones.hide_move, "secondary",
                                       size=theme.FONT_SMALL, height=theme.TARGET))
        else:
            right.add_widget(BigButton(self.tr("ui.phones.move"), self.f.phones.show_move, "primary",
                                       size=theme.FONT_SMALL, height=theme.TARGET))
            right.add_widget(BigButton(self.tr("ui.phones.revoke"), self.f.phones.revoke, "danger",
                                       size=theme.FONT_SMALL, height=theme.TARGET))
        main.add_widget(right)
        root.add_widget(main)
        self.notices(root, 1)
