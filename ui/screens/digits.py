"""The digit pad: the banker's PIN and every amount the banker types (a correction, a trade's cash, an
own-property auction's opening bid), on big keys 0-9 with Erase and Clear, OK and Cancel; the value shown
large the language's way (ui/entry.py holds what is being entered, ui/flows/pad.py what OK does)."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.entry import CLEAR, ERASE, KEYS, MINUS, PLUS
from ui.screens.base import BaseScreen, auto_height, row
from ui.widgets import BigButton, Panel, Scheduled, Text, schedule_once

LINE_COLOURS = {"error": theme.DANGER, "money": theme.ACCENT}


class DigitsScreen(BaseScreen):
    _timer: Scheduled | None = None

    def build(self, root: BoxLayout) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        entry = self.f.pad.entry
        if entry is None:  # the pad's moment has passed: another screen shows at once
            return
        d = self.f.pad.view()
        if d["wait"] is not None:  # the wait after too many wrong PINs counts down on screen
            self._timer = schedule_once(lambda dt: self.f.pad.tick(), 1)
        self.header(root, d["title"])
        body = BoxLayout(orientation="horizontal", spacing=theme.GAP_PANEL)
        left = BoxLayout(orientation="vertical", spacing=theme.GAP, size_hint_x=0.44)
        if d["empty"]:  # nothing typed yet: what to type, or 0
            shown = Text(d["shown"], theme.FONT_PAD_VALUE if not d["secret"] else theme.FONT_BIG, bold=True,
                         halign="center", color=theme.MUTED)
        elif d["secret"]:  # a dot a digit, in the font that has a big round one
            shown = Text(d["shown"], theme.FONT_PAD_VALUE, halign="center", color=theme.ACCENT,
                         font_name=theme.FONT_GLYPHS)
        else:
            shown = Text(d["shown"], theme.FONT_PAD_VALUE, bold=True, halign="center", color=theme.ACCENT)
        shown.role = "digits shown"
        field = auto_height(Panel(orientation="vertical", size_hint_y=None))  # the field: what is typed, boxed
        field.add_widget(shown)
        left.add_widget(field)  # its rule, whose cash, the tries left: under it
        for line in d["lines"]:
            left.add_widget(Text(line["text"], theme.FONT_BODY, color=LINE_COLOURS.get(line["kind"], theme.MUTED),
                                 halign="center"))
        if d["sign"] is not None:  # a correction: add to the balance, or take away from it
            signs = row(theme.TARGET)
            for key, label, kind in ((PLUS, "ui.digits.add", "primary"), (MINUS, "ui.digits.take", "danger")):
                chosen = (d["sign"] > 0) == (key == PLUS)
                b = BigButton(self.tr(label), lambda k=key: self.f.pad.press(k),
                              kind if chosen else "secondary", size=theme.FONT_BIG)
                b.role = f"digit {key}"
                signs.add_widget(b)
            left.add_widget(signs)
        left.add_widget(Widget())
        # Until the value keeps its rule, OK is a grey button with faint text: plainly there, plainly not yet.
        ok = BigButton(d["ok_text"], self.f.pad.ok, "primary" if d["ok"] else "secondary", size=theme.FONT_LARGE,
                       height=theme.TARGET_LARGE, background_disabled_normal="")
        ok.disabled = not d["ok"]
        ok.role = "digit ok"
        left.add_widget(ok)
        cancel = BigButton(self.tr("ui.cancel"), self.f.pad.cancel, "secondary", size=theme.FONT_BIG)
        cancel.role = "digit cancel"
        left.add_widget(cancel)
        body.add_widget(left)
        keys = GridLayout(cols=3, spacing=theme.GAP_WIDE)
        for key in KEYS:
            if key in (ERASE, CLEAR):
                label, size = self.tr(f"ui.digits.{key}"), theme.FONT_BIG
            else:
                label, size = key, theme.FONT_PAD_KEY
            b = BigButton(label, lambda k=key: self.f.pad.press(k), "secondary", size=size, size_hint_y=1)
            b.disabled = not d["keys"]
            b.role = f"digit {key}"
            keys.add_widget(b)
        body.add_widget(keys)
        root.add_widget(body)
