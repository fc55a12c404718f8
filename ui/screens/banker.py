"""Behind the banker's PIN (asked on the digit pad first): undo, ending, abandoning and shutting down, each
with a confirming second touch; corrections of a player's cash on the pad; a lost card; the stand-ins for a
forgotten card; phones; the settings."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.pages import PHONES_PAGE, REPLACE_PAGE, SETTINGS_PAGE, TABLE_PAGE
from ui.screens.base import BaseScreen, grid
from ui.widgets import Action, BigButton, Scheduled, Text, schedule_once, window_point

# The menu's buttons that ask for a second touch: (key, label, colour).
DESTRUCTIVE = (("undo", "ui.banker.undo", "secondary"), ("end", "ui.banker.end", "accent"),
               ("abandon", "ui.banker.abandon", "danger"))
MENU_COLUMNS = 4  # the menu's eight buttons in two rows, and the players to correct four to a row below them


class Confirming(BaseScreen):
    """A screen with buttons that arm on the first touch: a touch anywhere else disarms them, and an armed
    button is redrawn disarmed when its time is up (the navigator's `confirm`)."""

    _armable: dict[str, Widget]
    _lapse: Scheduled | None = None

    def confirm_button(self, key: str, label: str, kind: str, press: Action, armed_label: str | None = None,
                       **kw: Any) -> BigButton:
        """The button `key`: its own words and colour, or "Touch again to ..." (`armed_label`, by default
        ui.confirm.<key>) in red while armed."""
        armed = self.f.banker.armed() == key
        b = BigButton(self.tr(armed_label or f"ui.confirm.{key}") if armed else self.tr(label), press,
                      "danger" if armed else kind, **kw)
        b.role = f"confirm {key}"
        self._armable[key] = b
        return b

    def start_confirming(self) -> None:
        """At the start of `build`."""
        self._armable = {}
        if self._lapse is not None:
            self._lapse.cancel()
            self._lapse = None
        left = self.f.nav.confirm.left()
        if left is not None:
            self._lapse = schedule_once(lambda dt: self.f.banker.confirm_lapse(), left + 0.05)

    def on_touch_down(self, touch: Any) -> bool:
        armed = self.f.banker.armed()
        if armed is not None:
            button = getattr(self, "_armable", {}).get(armed)
            if button is None or not _inside(button, touch.pos):
                self.f.banker.other_touch()
        return bool(super().on_touch_down(touch))


def _inside(widget: Widget, pos: tuple[float, float]) -> bool:
    """Whether a touch at `pos` (window coordinates) lands on `widget`."""
    x, y = window_point(widget, widget.x, widget.y)
    return bool(x <= pos[0] <= x + widget.width and y <= pos[1] <= y + widget.height)  # (a widget's size: Any)


class BankerScreen(Confirming):
    def build(self, root: BoxLayout) -> None:
        self.start_confirming()
        self.header(root, self.tr("ui.banker.title"), lambda: self.f.nav.go(TABLE_PAGE))
        if self.f.banker.is_locked():  # the PIN pad shows instead; this is only for a moment
            root.add_widget(Widget())
            return
        b = self.f.banker.view()
        menu = grid(MENU_COLUMNS, spacing=theme.GAP_WIDE)
        tall: dict[str, Any] = {"size": theme.FONT_SMALL, "height": theme.TARGET_LARGE}
        for key, label, kind in DESTRUCTIVE:
            menu.add_widget(self.confirm_button(key, label, kind, lambda k=key: self.f.banker.destructive(k), **tall))
        menu.add_widget(BigButton(self.tr("ui.banker.replace_card"), lambda: self.f.nav.go(REPLACE_PAGE), "secondary",
                                  **tall))
        if b["cards"]:  # with on-screen buttons nothing waits for a card: no stand-in to offer
            on = b["stand_ins"]
            stand_ins = BigButton(self.tr("ui.banker.stand_ins.on" if on else "ui.banker.stand_ins.off"),
                                  lambda: self.f.settings.set_setting("stand_ins", not on),
                                  "primary" if on else "secondary", **tall)
            stand_ins.role = "stand-ins"
            menu.add_widget(stand_ins)
        menu.add_widget(BigButton(self.tr("ui.settings"), lambda: self.f.nav.go(SETTINGS_PAGE), "secondary", **tall))
        # Without the phone server the button says so, greyed, and still opens the phones page: why, and what to do.
        phones = BigButton(self.tr("ui.phones.button" if b["phones"] else "ui.phones.button_off"),
                           lambda: self.f.nav.go(PHONES_PAGE), "primary" if b["phones"] else "secondary", **tall)
        phones.role = "phones"
        menu.add_widget(phones)
        menu.add_widget(self.confirm_button("power_off", "ui.banker.power_off", "danger",
                                            lambda: self.f.banker.destructive("power_off"), **tall))
        root.add_widget(menu)
        root.add_widget(Text(self.tr("ui.banker.adjust"), theme.FONT_BIG, bold=True))
        people = grid(MENU_COLUMNS, spacing=theme.GAP_WIDE)  # every player at once, eight in two rows
        for p in b["players"]:
            person = BigButton(f"{p['name']}: {p['cash_text']}", lambda n=p["name"]: self.f.banker.correct(n), "secondary",
                               size=theme.FONT_BODY, height=theme.TARGET_MEDIUM)
            person.role = f"correct {p['name']}"
            people.add_widget(person)
        root.add_widget(people)
        self.notices(root, 1)
        root.add_widget(Widget())
