"""What every screen shares: the refresh that rebuilds it from the view data, parts kept while their data
is unchanged, the title bar, the notices and the banner that waits for card taps; and small layout helpers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from ui import theme, view
from ui.flows import Flows
from ui.widgets import Action, BigButton, Panel, Text, text_width


def column(**kw: Any) -> GridLayout:
    """A column as tall as what it holds (to go in a scroll view)."""
    kw.setdefault("spacing", theme.GAP)
    grid = GridLayout(cols=1, size_hint_y=None, height=0, **kw)  # empty: no height at all
    grid.bind(minimum_height=grid.setter("height"))
    return grid


def grid(cols: int, spacing: Any = None) -> GridLayout:
    """A grid as tall as what it holds."""
    g = GridLayout(cols=cols, spacing=theme.GAP if spacing is None else spacing, size_hint_y=None, height=0)  # empty: none
    g.bind(minimum_height=g.setter("height"))
    return g


def auto_height(box: BoxLayout) -> BoxLayout:
    """A vertical box as tall as what it holds (nothing yet: no height at all, not Kivy's default 100)."""
    box.bind(minimum_height=box.setter("height"))
    box.height = box.minimum_height
    return box


def row(height: float | None = None, **kw: Any) -> BoxLayout:
    """A row of buttons or text, theme.TARGET tall unless told."""
    return BoxLayout(orientation="horizontal", size_hint_y=None, height=theme.TARGET if height is None else height,
                     spacing=theme.GAP_WIDE, **kw)


def fit_font(label: Any, sizes: list[float], inset: float = 0) -> None:
    """`label` (a Text or a BigButton) in the largest of `sizes` its text fits on one line in, whatever width
    the layout gives it (a long name in a narrow column takes a smaller font rather than break), else the
    smallest (`inset`: the room a button keeps each side of its text, both sides together)."""
    def fit(*_: Any) -> None:
        room = label.width - inset
        for size in sizes:
            if text_width(label.text, size, label.bold) <= room:
                label.font_size = size
                return
        label.font_size = sizes[-1]
    label.bind(width=fit)
    fit()


def listing() -> ScrollView:
    """A list that scrolls: its bar wide and always drawn (a family must see that there is more), the
    list's rows kept clear of it (`list_column`)."""
    inactive = [*theme.MUTED[:3], 0.7]
    return ScrollView(do_scroll_x=False, bar_width=theme.LIST_BAR, bar_color=theme.MUTED,
                      bar_inactive_color=inactive, scroll_type=["bars", "content"],
                      always_overscroll=False)  # a list shorter than its view stays at the top, wherever scrolled


def rewind(screen: BaseScreen) -> None:
    """Every list the screen keeps back at its top: a new visit (a new game's setup) starts there."""
    for _data, widget in getattr(screen, "_parts", {}).values():
        if isinstance(widget, ScrollView):
            widget.scroll_y = 1


def list_column(**kw: Any) -> Any:
    """The column of rows in a `listing`, its right edge clear of the scroll bar."""
    return column(padding=[0, 0, theme.LIST_BAR + theme.GAP, 0], **kw)


BOX = object()  # what `box` keeps in place of a part's data
WORDS = object()  # what `words` keeps in place of a part's data
BUTTON = object()  # what `button` keeps in place of a part's data


class Plan:
    """What a kept container is to hold after this refresh (`BaseScreen.box`)."""

    def __init__(self, widget: Widget) -> None:
        self.widget = widget
        self.children: list[Widget] = []

    def add_widget(self, child: Widget | Plan) -> None:
        self.children.append(child.widget if isinstance(child, Plan) else child)

    def settle(self) -> None:
        """Give the container its planned children, in order, touching only those that changed."""
        box, want = self.widget, self.children
        if len(box.children) == len(want) and all(a is b for a, b in zip(reversed(box.children), want, strict=True)):
            return
        keep = {id(w) for w in want}
        for child in list(box.children):
            if id(child) not in keep:
                box.remove_widget(child)
        for i, child in enumerate(want):  # Kivy keeps children last first: place i is children[-1 - i]
            if i < len(box.children) and box.children[-1 - i] is child:
                continue
            if child.parent is not None:
                child.parent.remove_widget(child)
            box.add_widget(child, index=len(box.children) - i)


def notice_colour(kind: str) -> list[float]:
    return theme.DANGER if kind == "error" else theme.ACCENT if kind in ("money", "card") else theme.MUTED


class BaseScreen(Screen):
    """A screen: `build(root)` lays it out from the view data at every `refresh()`."""

    def __init__(self, flows: Flows, **kw: Any) -> None:
        super().__init__(**kw)
        self.f = flows  # every flow (ui/flows/): what the screen shows and what its buttons do
        self.s = flows.session  # the translator, the notices

    def refresh(self) -> None:
        self._used: dict[str, tuple[Any, Widget]] = {}
        self._plans: list[Plan] = []
        root = self.box("root", lambda: BoxLayout(orientation="vertical", padding=theme.PAD, spacing=theme.GAP))
        self.build(root)  # the root box's plan: it takes add_widget as the box would
        for plan in self._plans:
            plan.settle()
        # Boxes, and texts and buttons changed in place (`box`, `words`, `button`), that this refresh did not show
        # are kept aside for when their part comes back: a prompt or a turn's buttons give way to the banner
        # waiting for a card and are back after the tap, with other words, and are not made again then.
        spare: dict[str, tuple[Any, Widget]] = getattr(self, "_spare", {})
        for key, kept in getattr(self, "_parts", {}).items():
            if key not in self._used and (kept[0] is WORDS or kept[0] is BUTTON or kept[0] is BOX):
                spare[key] = kept
        self._spare = {key: kept for key, kept in spare.items() if key not in self._used}
        self._parts = self._used
        if root.widget.parent is None:
            self.add_widget(root.widget)

    def box(self, key: str, make: Callable[[], Widget]) -> Plan:
        """A container of the screen's layout, kept from the last refresh (else a new one), as a plan of
        what it is to hold: its children are set once the screen is built, and only where they changed.

        Kept parts so stay where they are, in boxes that keep their size. Rebuilt boxes passed them through
        other widths first, and Kivy drew every label in them again (about 2 ms each with software
        rendering: most of a tap's frame). Parts (`part`) go into boxes, not into new widgets."""
        cached = self._kept(key)
        widget = cached[1] if cached is not None and cached[0] is BOX else make()
        self._used[key] = (BOX, widget)
        plan = Plan(widget)
        self._plans.append(plan)
        return plan

    def part(self, key: str, data: Any, make: Callable[[], Widget]) -> Widget:
        """The widget for one part of the screen: the last one if `data` is unchanged, else a new one."""
        cached = getattr(self, "_parts", {}).get(key)
        if cached is not None and cached[0] == data:
            widget = cached[1]
        else:
            widget = make()
            if cached is not None:  # laid out where the last one was: its texts are drawn at their width once
                old = cached[1]
                if widget.size_hint_x is not None:
                    widget.width = old.width
                if widget.size_hint_y is not None:
                    widget.height = old.height
        self._used[key] = (data, widget)
        return widget

    def words(self, key: str, text: str, make: Callable[[], Widget]) -> Widget:
        """A Text (`make`, for everything but its words) kept from the last refresh with its words changed in
        place: a new amount draws one texture again, and no widget is made, added or laid out again (about
        half a tap's redraw went on widgets remade around a changed figure). `key` names what else the text
        depends on (its font or colour), so a change there makes a new one."""
        cached = self._kept(key)
        widget = cached[1] if cached is not None and cached[0] is WORDS else make()
        if widget.text != text:
            widget.text = text
        self._used[key] = (WORDS, widget)
        return widget

    def button(self, key: str, text: str, action: Action, kind: str, size: float, height: float
               ) -> BigButton:
        """A BigButton kept from the last refresh with its words, colour, font, height and what it does changed in
        place, like `words`: a turn's buttons change with every tap (Buy and Decline, then End turn), and making
        a button anew took about 1 ms a button of a tap's redraw, changing its words a texture drawn again."""
        cached = self._kept(key)
        if cached is None or cached[0] is not BUTTON:
            widget = BigButton(text, action, kind, size=size, height=height)
        else:
            widget = cached[1]
            widget.action = action
            fill = list(theme.KINDS.get(kind, theme.PRIMARY))
            for name, value in (("text", text), ("font_size", size), ("height", height), ("background_color", fill)):
                if getattr(widget, name) != value:
                    setattr(widget, name, value)
        self._used[key] = (BUTTON, widget)
        return widget

    def _kept(self, key: str) -> tuple[Any, Widget] | None:
        """The part of this key from the last refresh, or one kept aside since (`refresh`)."""
        cached = getattr(self, "_parts", {}).get(key)
        return cached if cached is not None else getattr(self, "_spare", {}).get(key)

    def build(self, root: BoxLayout) -> None:
        raise TypeError("every screen builds its own content")

    def tr(self, key: str, **params: Any) -> str:
        return self.s.tr(key, **params)

    def header(self, root: BoxLayout, text: str, back: Action | None = None,
               aside: Widget | None = None) -> None:
        """The title bar: Back (when there is somewhere to go back to), the title, and `aside` after it (the
        settings' About line)."""
        bar = row(theme.TARGET_MEDIUM)
        if back is not None:
            bar.add_widget(BigButton(self.tr("ui.back"), back, "secondary", size_hint_x=None, width=theme.WIDTH_BACK,
                                     height=theme.TARGET_MEDIUM))
        bar.add_widget(Text(text, theme.FONT_TITLE, bold=True, height=theme.TARGET_MEDIUM))
        if aside is not None:
            bar.add_widget(aside)
        root.add_widget(bar)

    def notices(self, root: BoxLayout, count: int = 3, one_line: bool = False, said: Any = ()) -> None:
        """The latest notices of this page: who paid whom and why, errors in red (`one_line`: each cut to a line,
        for a crowded screen; the money log keeps every word; `said`: texts the page already shows in their own
        place, not repeated here)."""
        box = column()
        for notice in [n for n in view.notices(self.s, count + len(said)) if n["text"] not in said][-count:]:
            extra: dict[str, Any] = {"max_lines": 1, "shorten": True, "shorten_from": "right"} if one_line else {}
            box.add_widget(Text(notice["text"], theme.FONT_BODY, color=notice_colour(notice["kind"]), **extra))
        root.add_widget(box)

    def pending_banner(self, root: BoxLayout) -> None:
        """"Ann: tap your card to buy ..." with a stand-in button for each card still missing, and Cancel."""
        pending = self.f.paying.view()
        if pending is None:
            return
        panel = auto_height(Panel(orientation="vertical", size_hint_y=None, fill=theme.PENDING_FILL))
        panel.add_widget(Text(pending["prompt"], theme.FONT_BIG, bold=True))
        buttons = row()
        for name in pending["waiting"] if pending["stand_ins"] else ():  # only when the banker allows stand-ins
            buttons.add_widget(BigButton(self.tr("ui.tap.as", player=name), lambda n=name: self.f.paying.stand_in(n),
                                         "secondary", size=theme.FONT_SMALL))
        buttons.add_widget(BigButton(self.tr("ui.cancel"), self.f.paying.cancel, "danger", size=theme.FONT_SMALL))
        panel.add_widget(buttons)
        root.add_widget(panel)
