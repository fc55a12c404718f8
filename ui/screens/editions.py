"""Settings -> Editions, between games: the family's editions, each with its title (large) and its name, Rename
(on the on-screen keyboard: the title, then the name) and Delete (a confirming second touch); a broken one
greyed with its reason, not renamed; an empty folder says so; "Edit on a phone" at the header's right. Titles and names
are text, never markup.

The phone page (EditionPhoneScreen): the editor's one-time link as a QR code, as large as the page allows (a
phone at the table scans it), and as text; what the editor is doing (waiting for a phone, a phone editing, the
code ended); the titles saved from the phone; New code and Done. Without the phone server: why, and how to
turn it on."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.flows.editions import EditionsFlow
from ui.pages import SETTINGS_PAGE
from ui.screens.banker import Confirming
from ui.screens.base import BaseScreen, auto_height, list_column, listing, row
from ui.widgets import BigButton, QRCode, Text


class EditionsScreen(Confirming):
    def build(self, root: BoxLayout) -> None:
        self.start_confirming()
        flow = self.f.own(EditionsFlow)
        v = flow.view()
        self.header(root, self.tr("ui.editions.title"), lambda: self.f.nav.go(SETTINGS_PAGE))
        phone = BigButton(self.tr("ui.editions.phone"), flow.edit_on_phone, "primary", size=theme.FONT_SMALL,
                          size_hint_x=None, width=theme.WIDTH_EDITION_ACTION, height=theme.TARGET_MEDIUM)
        phone.role = "edit on a phone"
        root.children[-1].add_widget(phone)  # the header just made: at its right, the list keeps the height
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


STATE_COLOURS = {"waiting": theme.TEXT, "editing": theme.ACCENT, "ended": theme.WARNING}


class EditionPhoneScreen(BaseScreen):
    def build(self, root: BoxLayout) -> None:
        flow = self.f.own(EditionsFlow)
        v = flow.phone_view()
        self.header(root, self.tr("ui.editions.phone_title"), flow.phone_done)
        if not v["server"]:
            off = Text(v["off"], theme.FONT_BIG, markup=False)
            off.role = "phone server off"
            root.add_widget(off)
            root.add_widget(Widget())
            done = BigButton(self.tr("ui.editions.phone_done"), flow.phone_done, "primary", size=theme.FONT_BODY,
                             height=theme.TARGET)
            done.role = "phone done"
            root.add_widget(done)
            self.notices(root, 1)
            return
        main = self.box("phone main", lambda: BoxLayout(orientation="horizontal", spacing=theme.GAP_PANEL))
        left = self.box("phone qr side", lambda: BoxLayout(orientation="vertical"))  # half the page: scanned from a chair
        code = self.part("phone qr", v["link"], lambda: QRCode(v["link"], size_hint=(1, 1)))
        code.role = "qr editor"
        left.add_widget(code)
        main.add_widget(left)
        right = BoxLayout(orientation="vertical", spacing=theme.GAP_WIDE)
        right.add_widget(Text(self.tr("ui.editions.phone_how"), theme.FONT_READ))
        head, _, key = v["link"].rpartition("/")  # the code on a line of its own: one long word does not fit
        link = Text(f"{head}/\n{key}", theme.FONT_SMALL, color=theme.MUTED, markup=False)
        link.role = "editor link"
        right.add_widget(link)
        state = Text(self.tr(f"ui.editions.phone_{v['state']}"), theme.FONT_BIG, bold=True,
                     color=STATE_COLOURS.get(v["state"], theme.TEXT))
        state.role = "editor state"
        right.add_widget(state)
        if v["saved"]:
            saved = Text(self.tr("ui.editions.phone_saved", titles=", ".join(v["saved"])), theme.FONT_BODY,
                         max_lines=3, shorten=True, shorten_from="right", markup=False)
            saved.role = "editor saved"
            right.add_widget(saved)
        right.add_widget(Widget())
        buttons = row(theme.TARGET)
        fresh = BigButton(self.tr("ui.editions.phone_new"), flow.new_code, "secondary", size=theme.FONT_BODY,
                          height=theme.TARGET)
        fresh.role = "phone new code"
        buttons.add_widget(fresh)
        done = BigButton(self.tr("ui.editions.phone_done"), flow.phone_done, "primary", size=theme.FONT_BODY,
                         height=theme.TARGET)
        done.role = "phone done"
        buttons.add_widget(done)
        right.add_widget(buttons)
        main.add_widget(right)
        root.add_widget(main)
        self.notices(root, 1)
