"""The layout checker (ui/layout.py) on small deliberate widget trees in the real offscreen window: each bad
tree must give exactly the one problem it was built to have, each good tree none, so every check is seen
both to fire and to hold its peace.

Run by test_layout_check.py in a subprocess (Kivy opens one window per process):

    python tests/ui/layout_cases.py [-v]

With -v it prints what each case found. Prints "N cases passed" and exits 0, else prints each failed case and exits 1.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import e2e_kit  # noqa: F401  (sets Kivy up first: offscreen 800x480)
from kivy.base import EventLoop

EventLoop.ensure_window()  # the window before any texture: measuring a text makes one

from kivy.core.window import Window  # noqa: E402
from kivy.uix.boxlayout import BoxLayout  # noqa: E402
from kivy.uix.button import Button  # noqa: E402
from kivy.uix.floatlayout import FloatLayout  # noqa: E402
from kivy.uix.gridlayout import GridLayout  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402

from ui import layout, theme  # noqa: E402
from ui.widgets import BigButton, Panel, Text  # noqa: E402

SIZE = (800, 480)


def frames(n: int = 6) -> None:
    for _ in range(n):
        EventLoop.idle()


def placed(*widgets: Widget) -> FloatLayout:
    """A window-sized tree holding `widgets` where their own pos and size put them."""
    root = FloatLayout()
    for w in widgets:
        w.size_hint = (None, None)
        root.add_widget(w)
    return root


def label(text: str, pos: tuple[float, float], size: tuple[float, float], font: float = 20, **kw: Any) -> Label:
    return Label(text=text, pos=pos, size=size, size_hint=(None, None), font_size=font, **kw)


def rows_list(count: int, row: float, height: float | None = None, scroll: float = 1.0) -> ScrollView:
    """A scrolling list of `count` buttons `row` px high; the scroll view `height` px high (None: fill)."""
    grid = GridLayout(cols=1, size_hint_y=None, spacing=theme.GAP)
    grid.bind(minimum_height=grid.setter("height"))
    for k in range(count):
        grid.add_widget(BigButton(f"Row {k + 1}", height=row))
    sv = ScrollView(do_scroll_x=False, scroll_y=scroll)
    if height is not None:
        sv.size_hint_y = None
        sv.height = height
    sv.add_widget(grid)
    return sv


# ---------------------------------------------------------------------- good trees: no problem at all


def good_screen() -> Widget:
    """A screen as the app builds them: a title, a wrapping text, a scrolling list, a row of big buttons."""
    col = BoxLayout(orientation="vertical", padding=theme.PAD, spacing=theme.GAP)
    col.add_widget(Text("Ann's turn", size=theme.FONT_TITLE, bold=True))
    col.add_widget(Text("Roll the dice, or tap a card to pay the bank what you owe before the turn ends.",
                        size=theme.FONT_BODY))
    col.add_widget(rows_list(12, theme.TARGET))
    bar = BoxLayout(size_hint_y=None, height=theme.TARGET_BAR, spacing=theme.GAP_WIDE)
    for word in ("Roll", "Deeds", "Banker"):
        bar.add_widget(BigButton(word, height=theme.TARGET_BAR))
    col.add_widget(bar)
    return col


def good_scrolled_half() -> Widget:
    """A long list scrolled to its middle: rows out of view, but inside the content."""
    return rows_list(30, theme.TARGET, scroll=0.5)


def good_at_the_minimums() -> Widget:
    """A target exactly 48 px each way with 18 px text: at the line, not under it."""
    return placed(Button(text="OK", pos=(20, 20), size=(48, 48), font_size=18))


def good_secondary_shortened() -> Widget:
    """An old log line cut short with an ellipsis: allowed, since it is marked may_shorten."""
    old = label("Round 3: Ann paid Ben 1,200 rent for Park Place with a hotel", (20, 300), (200, 40),
                shorten=True, text_size=(200, None))
    old.may_shorten = True
    return placed(old)


def good_contained_and_hidden() -> Widget:
    """A text inside another's box (a caption inside a panel's label), a button's own text, and two widgets
    outside the window that are not visible: one of zero size, one of opacity 0."""
    big = label("A heading drawn over the whole box", (20, 200), (400, 200), valign="top", text_size=(400, 200))
    inner = label("Inside", (100, 220), (120, 40))
    button = Button(text="Pay", pos=(500, 200), size=(120, 64), font_size=20)
    gone = label("Gone", (900, 600), (0, 0))
    faded = label("Faded", (780, 460), (200, 60), opacity=0)
    return placed(big, inner, button, gone, faded)


def good_panel_of_lines() -> Widget:
    """A panel with wrapped lines of text and a button, as the debt panel is."""
    panel = Panel(orientation="vertical", size_hint=(None, None), size=(400, 300), pos=(20, 20))
    panel.add_widget(Text("Cy owes the bank 340 and has 60 in cash.", size=theme.FONT_READ))
    panel.add_widget(Widget())
    panel.add_widget(BigButton("Sell a house", height=theme.TARGET))
    return placed(panel)


# ---------------------------------------------------------------------- bad trees: exactly one problem each


def bad_too_wide() -> Widget:
    return placed(label("Mediterranean Avenue", (20, 20), (80, 40)))


def bad_too_tall() -> Widget:
    """Three lines of text held to one line's height (a fixed text_size: the texture is clipped)."""
    return placed(label("Ann pays Ben 200 rent for the railway station she landed on", (20, 20), (200, 40),
                        text_size=(200, 40)))


def bad_word_broken() -> Widget:
    """A wrapping text that grows to its lines, too narrow for one of its words: Kivy breaks the word."""
    text = Text("Nieruchomościowego", size=theme.FONT_BODY, size_hint_x=None, width=80, pos=(20, 20))
    return placed(text)


def bad_shortened() -> Widget:
    """A name cut short with an ellipsis, not marked may_shorten."""
    return placed(label("Ann pays Ben for Pennsylvania Railroad", (20, 300), (200, 40), shorten=True,
                        text_size=(200, None)))


def bad_outside_window() -> Widget:
    return placed(Button(text="Roll", pos=(SIZE[0] - 30, 100), size=(120, 64), font_size=20))


def bad_outside_content() -> Widget:
    """A row sticking out above a scroll view's content (it would never scroll into view)."""
    content = FloatLayout(size_hint_y=None, height=300)
    content.add_widget(Button(text="Lost", size_hint=(None, None), size=(200, 64), pos_hint={"x": 0, "top": 1.3},
                              font_size=20))
    sv = ScrollView(do_scroll_x=False, size_hint=(None, None), size=(400, 200), pos=(20, 20))
    sv.add_widget(content)
    return placed(sv)


def bad_overlap() -> Widget:
    return placed(label("Ann 1,200", (100, 100), (200, 40)), label("Ben 1,500", (150, 120), (200, 40)))


def bad_small_target() -> Widget:
    return placed(Button(text="X", pos=(20, 20), size=(40, 40), font_size=18))


def bad_small_font() -> Widget:
    return placed(label("a hint", (20, 20), (200, 40), font=14))


def bad_short_list() -> Widget:
    """A list lower than its first row: not one whole row shows."""
    col = BoxLayout(orientation="vertical", size_hint=(None, None), size=(400, 400), pos=(20, 20))
    col.add_widget(rows_list(5, theme.TARGET, height=40))
    col.add_widget(Widget())
    return col


def bad_target_at_720() -> Widget:
    """A 60 px button: enough at 480 px high, under the 72 px a 1280x720 window asks for."""
    return placed(Button(text="Buy", pos=(20, 20), size=(200, 60), font_size=28))


# ---------------------------------------------------------------------- the figures that matter


def figure(role: str, font: float) -> Callable[[], Widget]:
    def build() -> Widget:
        w = label("1,200", (20, 20), (300, 80), font=font)
        w.role = role
        return w
    return build


def figure_in_panel() -> Widget:
    """A panel marked "turn": its biggest text counts."""
    panel = BoxLayout(orientation="vertical", size_hint=(None, None), size=(400, 160), pos=(20, 20))
    panel.role = "turn"
    panel.add_widget(label("Whose turn", (0, 0), (400, 40), font=20))
    panel.add_widget(label("Ann", (0, 0), (400, 100), font=44))
    return placed(panel)


def turn_screen(marked: bool) -> Callable[[], Widget]:
    """The top of a turn screen: whose turn (role "turn"), and the cash (role "cash", or no role)."""
    def build() -> Widget:
        turn = label("Ann's turn", (20, 380), (400, 80), font=44)
        turn.role = "turn"
        cash = label("1,200", (500, 380), (200, 80), font=44)
        if marked:
            cash.role = "cash"
        return placed(turn, cash)
    return build


def faded_bid() -> Widget:
    bid = label("High bid 120", (20, 380), (400, 80), font=44, opacity=0)
    bid.role = "bid"
    return placed(bid)


def required(screen: str, debt_panel: bool = False) -> Callable[[Widget], list[str]]:
    """The figures `screen` must show (layout.required_figures), missing on the tree, and those too small."""
    roles = layout.required_figures(screen, debt_panel)
    return lambda tree: layout.missing_figures(tree, roles) + layout.figures_too_small(tree, SIZE, roles)


Case = tuple[str, Callable[[], Widget], str | None, Callable[[Widget], list[str]]]


def check(size: tuple[int, int] = SIZE) -> Callable[[Widget], list[str]]:
    return lambda tree: layout.problems(tree, size)


def figures(roles: tuple[str, ...] = tuple(layout.FIGURE_ROLES), missing: bool = False
            ) -> Callable[[Widget], list[str]]:
    return lambda tree: layout.figures_too_small(tree, SIZE, roles, missing=missing)


CASES: list[Case] = [
    ("a screen as the app builds them", good_screen, None, check()),
    ("a list scrolled to its middle", good_scrolled_half, None, check()),
    ("a target and a font at the minimums", good_at_the_minimums, None, check()),
    ("secondary text cut short", good_secondary_shortened, None, check()),
    ("contained texts, hidden widgets", good_contained_and_hidden, None, check()),
    ("a panel of lines", good_panel_of_lines, None, check()),
    ("text wider than its box", bad_too_wide, "text does not fit", check()),
    ("text taller than its box", bad_too_tall, "text does not fit", check()),
    ("a word broken to fit", bad_word_broken, "text does not fit", check()),
    ("a name cut short", bad_shortened, "text does not fit", check()),
    ("a button outside the window", bad_outside_window, "outside the window", check()),
    ("a row outside its scroll content", bad_outside_content, "outside its scroll view's content", check()),
    ("two texts overlapping", bad_overlap, "texts overlap", check()),
    ("a small touch target", bad_small_target, "touch target under 48", check()),
    ("a small font", bad_small_font, "font 14 px under 18", check()),
    ("a list lower than its row", bad_short_list, "list too small for one row", check()),
    ("a 60 px target at 480", bad_target_at_720, None, check()),
    ("a 60 px target at 720", bad_target_at_720, "touch target under 72", check((1280, 720))),
    ("a big cash figure", figure("cash Ann", 40), None, figures()),
    ("a small cash figure", figure("cash", 24), "figure 'cash' font 24 px under 40", figures()),
    ("a turn panel with a big name", figure_in_panel, None, figures()),
    ("a turn panel with a small name", lambda: figure("turn", 30)(), "figure 'turn' font 30", figures()),
    ("a role not on the screen", figure("cash", 40), "figure 'bid' not on the screen",
     figures(("cash", "bid"), missing=True)),
    ("the turn screen's figures marked", turn_screen(marked=True), None, required("table")),
    ("the turn screen without its cash marked", turn_screen(marked=False), "figure 'cash' not on the screen",
     required("table")),
    ("a debt panel without what is owed", turn_screen(marked=True), "figure 'owed' not on the screen",
     required("table", debt_panel=True)),
    ("a figure of opacity 0 is not shown", faded_bid, "figure 'bid' not on the screen", required("auction")),
    ("a screen that must show no figure", figure("cash", 40), None, required("log")),
]


def main() -> int:
    failed: list[str] = []
    for name, build, expected, run in CASES:
        tree = build()
        holder = FloatLayout()
        holder.add_widget(tree)
        Window.add_widget(holder)
        frames()
        try:
            found = run(tree)
        finally:
            Window.remove_widget(holder)
        if "-v" in sys.argv:
            print(f"{name}:", *found, sep="\n    ")
        if expected is None:
            ok = found == []
        else:
            ok = len(found) == 1 and found[0].startswith(expected)
        if not ok:
            failed.append(f"{name}: expected {expected or 'no problem'}, found {len(found)}:\n    "
                          + "\n    ".join(found))
    if failed:
        print(f"{len(failed)} of {len(CASES)} cases failed:\n" + "\n".join(failed))
        return 1
    print(f"{len(CASES)} cases passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
