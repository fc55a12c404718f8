"""The on-screen keyboard for a player's name, in the layout of the family's language (ui/keys.py): whose
name it is and the name typed so far, large, with Cancel and Done; the ready names nobody has yet, one
touch each; then the keys, their rows sharing the rest of the page so they are as big as it allows."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.flows.editions import EditionsFlow
from ui.keys import SPECIAL, KeyboardView, KeyView, Typist
from ui.screens.base import BaseScreen, row
from ui.widgets import BigButton, Chip, Text

NAME_LARGE = 12  # letters of a name shown in the largest font; a longer one takes the title's


class KeyboardScreen(BaseScreen):
    def typist(self) -> Typist:
        """The flow whose text is typed here: its `editor`, `press`, `done` and `cancel`."""
        return self.f.names

    def typed(self) -> KeyboardView:
        """The page's view data (ui/keys.py's `KeyboardView` says what it holds; `colour` None: no chip)."""
        return self.f.names.view()

    def build(self, root: BoxLayout) -> None:
        typist = self.typist()
        if typist.editor is None:  # only shown while something is typed (the flow's `leave`)
            return
        k = self.typed()
        top = row(theme.KEY_TOP)
        top.add_widget(BigButton(self.tr("ui.cancel"), typist.cancel, "secondary", size=theme.FONT_BIG,
                                 size_hint_x=None, width=theme.WIDTH_KEY_ACTION, height=theme.KEY_TOP))
        if k["colour"] is not None:
            chip = BoxLayout(orientation="vertical", size_hint_x=None, width=theme.CHIP_TURN[0])
            for part in (Widget(), Chip(k["colour"], size=theme.CHIP_TURN), Widget()):
                chip.add_widget(part)
            top.add_widget(chip)
        name = BoxLayout(orientation="vertical")
        if k["problem"]:
            name.add_widget(Text(k["problem"], theme.FONT_SMALL, color=theme.DANGER))
        else:
            name.add_widget(Text(k["title"], theme.FONT_SMALL, color=theme.MUTED))
        if k["text"]:  # a ready name about to give way to the first letter is greyed, with no cursor
            ink = theme.MUTED if k["fresh"] else theme.ACCENT if k["full"] else theme.TEXT
            size = theme.FONT_LEAD if len(k["text"]) <= NAME_LARGE else theme.FONT_TITLE  # 16 wide letters fit
            shown = Text(k["text"] + ("" if k["fresh"] else "|"), size, bold=True, color=ink,
                         max_lines=1, shorten=True, shorten_from="left", markup=False)  # text, never markup
        else:
            shown = Text(self.tr("ui.keyboard.empty"), theme.FONT_SMALL, color=theme.MUTED, max_lines=2)
        shown.role = "name typed"
        name.add_widget(shown)
        name.add_widget(Widget())
        top.add_widget(name)
        done = BigButton(self.tr("ui.keyboard.done"), lambda: typist.done(),
                         "primary" if k["can_finish"] else "secondary", size=theme.FONT_BIG, size_hint_x=None,
                         width=theme.WIDTH_KEY_ACTION, height=theme.KEY_TOP)
        done.role = "done"
        top.add_widget(done)
        root.add_widget(top)
        if k["presets"]:
            presets = row(theme.KEY_PRESET)
            for preset in k["presets"]:  # as wide as their names: eight fit across, none wraps
                b = BigButton(preset, lambda p=preset: self.f.names.done(p), size=theme.FONT_SMALL,
                              height=theme.KEY_PRESET, background_color=theme.PRESET_FILL,
                              size_hint_x=max(len(preset), 5) + 2)
                b.role = f"preset {preset}"
                presets.add_widget(b)
            root.add_widget(presets)
        root.add_widget(self.keys(k["rows"]))

    def keys(self, rows: list[list[KeyView]]) -> BoxLayout:
        """The key rows, every letter key as wide as the widest row allows, shorter rows centred."""
        box = BoxLayout(orientation="vertical", spacing=theme.GAP_TIGHT)
        units = max(sum(key["width"] for key in line) for line in rows)
        for line in rows:
            keys = BoxLayout(orientation="horizontal", spacing=theme.GAP_TIGHT)
            spare = units - sum(key["width"] for key in line)
            if spare > 0:
                keys.add_widget(Widget(size_hint_x=spare / 2 / units))
            for key in line:
                fill = theme.KEY_ON if key["on"] else theme.SECONDARY if key["id"] in SPECIAL else theme.KEY_FILL
                extra: dict[str, Any] = {"font_name": theme.FONT_GLYPHS} if key["glyph"] else {}
                b = BigButton(key["label"], lambda i=key["id"]: self.typist().press(i),
                              size=theme.FONT_LARGE if len(key["label"]) <= 3 else theme.FONT_SMALL,
                              size_hint_x=key["width"] / units, size_hint_y=1, background_color=fill, **extra)
                b.role = f"key {key['id']}"
                keys.add_widget(b)
            if spare > 0:
                keys.add_widget(Widget(size_hint_x=spare / 2 / units))
            box.add_widget(keys)
        return box


class EditionKeyboardScreen(KeyboardScreen):
    """The same keyboard for an edition's new title, then its name (ui/flows/editions.py)."""

    def typist(self) -> Typist:
        return self.f.own(EditionsFlow)

    def typed(self) -> KeyboardView:
        return self.f.own(EditionsFlow).keyboard()
