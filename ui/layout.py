"""The layout checker: what a family would trip over on the screen showing now (issue 15, items 1 and 4).

`problems(root, window_size)` walks the widget tree of a screen that is laid out in a real window and returns
one readable line per problem, naming the widget (its class, text, `role`, window position and size):

- **text that does not fit**: a Label's (or Button's) text is wider or taller than the label's box, or a
  word of it is wider than the width it wraps to (Kivy then breaks the word mid-letters), or Kivy shortened
  it with an ellipsis, unless the label says `may_shorten = True` (secondary text only: old log lines and
  the like; names, amounts, space names and button labels are never secondary);
- **outside**: a visible widget that reaches past the window, or, inside a ScrollView, past the scroll
  view's content (scrolled out of view is fine);
- **overlap**: two visible texts whose boxes overlap by more than a pixel each way and neither holds the
  other (a Button is its own text);
- **small target / small font**: a touch target (Button, anything with ButtonBehavior) under
  theme.MIN_TARGET high or wide, a text under theme.MIN_FONT;
- **short list**: a ScrollView lower than its content's first row, so not even one whole row shows.

`figures_too_small(root, window_size, roles)` checks the widgets a screen marks with a `role` of
FIGURE_ROLES (or starting with one and a space, "cash Ann") against theme.MIN_FIGURE;
`missing_figures(root, roles)` names each of `roles` no visible widget has, and `required_figures` says which
a screen must show: SCREEN_FIGURES by the screen's name, DEBT_FIGURES on a screen with a debt panel.

Not visible, so not checked (nor their children, for opacity): widgets of zero width or height, or of
opacity 0. The minimums are the theme's at 480 px of window height, scaled with the window height
(600 px: x1.25, 720 px: x1.5): the family sits as far from every 7-inch panel.

Kivy-aware, and only for use once Kivy's window exists: measuring a text may make a texture, and a texture
made before the window segfaults. Nothing here imports kivy.core.window.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from ui import theme
from ui.pages import AUCTION_PAGE, TABLE_PAGE

REFERENCE_HEIGHT = 480
"""The window height the theme's minimums are written for (the official 7-inch panel)."""

SLACK = 1.0
"""Pixels of rounding forgiven in every comparison."""

FIGURE_ROLES: dict[str, str] = {
    "turn": "whose turn it is (the current player's name at the top of the turn screen)",
    "cash": "the current player's cash (and each cash amount the table reads, as 'cash NAME')",
    "owed": "what is owed: the rent, tax or debt to pay now",
    "bid": "the current (high) bid of an auction, and the opening bid",
    "timer": "a clock the table must watch: an auction's or a turn's seconds left",
    "price": "the price asked for the space landed on",
}
"""The roles a screen gives the figures that matter, for `figures_too_small`."""

SCREEN_FIGURES: dict[str, tuple[str, ...]] = {
    TABLE_PAGE: ("turn", "cash"),  # the turn screen: whose turn, and the current player's cash
    AUCTION_PAGE: ("bid",),  # an auction: the high bid (or the opening bid)
}
"""The figures each screen (by its name in the app's ScreenManager) must show, marked with their role."""

DEBT_FIGURES: tuple[str, ...] = ("owed",)
"""The figures a screen with a debt panel must show besides its own: what is owed."""

Box = tuple[float, float, float, float]  # left, bottom, right, top, in window pixels
_MARKUP = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")


def scale(window_size: tuple[float, float]) -> float:
    """How much bigger the minimums are on this window than at 480 px high."""
    return float(window_size[1]) / REFERENCE_HEIGHT


def minimum(name: str, window_size: tuple[float, float]) -> float:
    """The theme's minimum `name` (MIN_TARGET, MIN_FONT, MIN_FIGURE) in pixels for this window: its value at
    480 px high (theme.py holds it in dp or sp) times the window's height over 480."""
    unit = dp(1) if name == "MIN_TARGET" else sp(1)
    return float(getattr(theme, name)) / float(unit) * scale(window_size)


def may_shorten(widget: Any) -> bool:
    """Whether a label is secondary text that Kivy may cut short with an ellipsis (`may_shorten = True`)."""
    return bool(getattr(widget, "may_shorten", False))


# ---------------------------------------------------------------------- walking the tree


def _walk(root: Any) -> Iterator[tuple[Any, list[ScrollView]]]:
    """Every widget under `root` (itself included) that is not hidden by opacity 0 (its own or an
    ancestor's), with the scroll views it is inside, the nearest last. Children in drawing order."""
    stack: list[tuple[Any, list[ScrollView]]] = [(root, [])]
    while stack:
        w, scrolls = stack.pop()
        if getattr(w, "opacity", 1) <= 0:
            continue
        yield w, scrolls
        inner = [*scrolls, w] if isinstance(w, ScrollView) else scrolls
        stack.extend((child, inner) for child in w.children)


def visible(widget: Any) -> bool:
    return widget.width > 0.5 and widget.height > 0.5 and getattr(widget, "opacity", 1) > 0


def box(widget: Any) -> Box:
    """The widget's box in window pixels."""
    left, bottom = widget.to_window(widget.x, widget.y)
    right, top = widget.to_window(widget.right, widget.top)
    return (min(left, right), min(bottom, top), max(left, right), max(bottom, top))


def _within(inner: Box, outer: Box, slack: float = SLACK) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def _clip(a: Box, b: Box) -> Box | None:
    left, bottom, right, top = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (left, bottom, right, top) if right > left and top > bottom else None


def describe(widget: Any) -> str:
    """'Button "Buy" role=buy at (8, 400) 200x64': what the line of a problem names."""
    parts = [type(widget).__name__]
    text = getattr(widget, "text", None)
    if isinstance(text, str) and text.strip():
        one_line = " ".join(text.split())
        parts.append(repr(one_line if len(one_line) <= 60 else one_line[:57] + "..."))
    role = getattr(widget, "role", None)
    if role not in (None, ""):
        parts.append(f"role={role}")
    left, bottom, right, top = box(widget)
    parts.append(f"at ({left:.0f}, {bottom:.0f}) {right - left:.0f}x{top - bottom:.0f}")
    return " ".join(parts)


def _has_text(widget: Any) -> bool:
    return isinstance(widget, Label) and bool(widget.text.strip())


# ---------------------------------------------------------------------- the checks, one widget at a time


def _measure(label: Label, text_size: tuple[float | None, float | None]) -> Any:
    """A core label like `label`'s, never shortened and of any number of lines, to measure with."""
    core = label._label
    options = {**core.options, "text_size": text_size, "shorten": False, "max_lines": 0}
    probe = type(core)(**options)
    probe.text = label.text
    return probe


def text_fit(label: Label) -> list[str]:
    """What of `label`'s text does not fit its box (empty when it all fits)."""
    found: list[str] = []
    label.texture_update()
    tw, th = label.texture_size
    if tw > label.width + SLACK or th > label.height + SLACK:
        found.append(f"text {tw:.0f}x{th:.0f} in a box of {label.width:.0f}x{label.height:.0f}")
    wrap, fixed = label.text_size
    if (wrap is not None or fixed is not None) and not label.shorten:  # shortened: is_shortened says it
        # A fixed text_size makes the texture that size whatever the text needs: measure the text itself.
        need_w, need_h = _measure(label, (wrap, None)).render(real=False)
        if not found and need_h > label.height + SLACK:
            found.append(f"text needs {need_h:.0f} px high, the box is {label.height:.0f}")
        if not found and wrap is None and need_w > label.width + SLACK:
            found.append(f"text needs {need_w:.0f} px wide, the box is {label.width:.0f}")
    if wrap is not None and not label.shorten:
        probe = _measure(label, (None, None))
        room = wrap - label.padding[0] - label.padding[2]
        plain = _MARKUP.sub("", label.text) if label.markup else label.text
        for word in plain.split():
            width = probe.get_extents(word)[0]
            if width > room + SLACK:
                found.append(f"the word {word!r} ({width:.0f} px) is broken to fit {room:.0f} px")
                break
    if label.is_shortened and not may_shorten(label):
        found.append("text cut short with an ellipsis (only text marked may_shorten may be)")
    return found


def problems(root: Any, window_size: tuple[float, float]) -> list[str]:
    """Every layout problem of the laid-out tree under `root` in a window of `window_size`, a line each."""
    width, height = window_size
    window: Box = (0.0, 0.0, float(width), float(height))
    target = minimum("MIN_TARGET", window_size)
    font = minimum("MIN_FONT", window_size)
    found: list[str] = []
    texts: list[tuple[Any, Box, Box]] = []  # a visible text, its box, the part of it a scroll view shows
    outside: set[int] = set()  # widgets already reported outside: their children are not reported again
    for w, scrolls in _walk(root):
        parent_out = w.parent is not None and id(w.parent) in outside
        if not visible(w):
            if parent_out:
                outside.add(id(w))
            continue
        b = box(w)
        if parent_out:
            outside.add(id(w))
        elif scrolls:  # inside a scroll view: within its content, wherever that is scrolled to
            content = _content(scrolls[-1])
            if w is not content and not _within(b, box(content)):
                found.append(f"outside its scroll view's content: {describe(w)} (content {_fmt(box(content))})")
                outside.add(id(w))
        elif not _within(b, window):
            found.append(f"outside the window {width:.0f}x{height:.0f}: {describe(w)}")
            outside.add(id(w))
        if isinstance(w, ButtonBehavior) and (w.width < target - SLACK / 2 or w.height < target - SLACK / 2):
            found.append(f"touch target under {target:.0f} px: {describe(w)}")
        if _has_text(w):
            if w.font_size < font - SLACK / 2:
                found.append(f"font {w.font_size:.0f} px under {font:.0f} px: {describe(w)}")
            for what in text_fit(w):
                found.append(f"text does not fit: {describe(w)}: {what}")
            shown: Box | None = b
            for sv in scrolls:
                shown = _clip(shown, box(sv)) if shown is not None else None
            if shown is not None:
                texts.append((w, b, shown))
        if isinstance(w, ScrollView) and getattr(w, "do_scroll_y", True):
            content = _content(w)
            rows = [c for c in content.children if visible(c)] if content is not None else []
            if rows:
                first = rows[-1]  # children are kept last-added first: the first row is the last child
                if w.height < first.height - SLACK:
                    found.append(f"list too small for one row: {describe(w)} (its first row is "
                                 f"{first.height:.0f} px high: {describe(first)})")
    found.extend(_overlaps(texts))
    return found


def _content(sv: ScrollView) -> Any:
    return sv.children[0] if sv.children else None


def _fmt(b: Box) -> str:
    return f"at ({b[0]:.0f}, {b[1]:.0f}) {b[2] - b[0]:.0f}x{b[3] - b[1]:.0f}"


def _overlaps(texts: list[tuple[Any, Box, Box]]) -> Iterable[str]:
    for i, (a, box_a, shown_a) in enumerate(texts):
        for b, box_b, shown_b in texts[i + 1:]:
            both = _clip(shown_a, shown_b)
            if both is None or both[2] - both[0] <= SLACK or both[3] - both[1] <= SLACK:
                continue
            if _within(box_a, box_b) or _within(box_b, box_a):
                continue
            yield f"texts overlap by {_fmt(both)}: {describe(a)} and {describe(b)}"


# ---------------------------------------------------------------------- the figures that matter


def _role_matches(role: Any, roles: Iterable[str]) -> str | None:
    if not isinstance(role, str):
        return None
    return next((r for r in roles if role == r or role.startswith(r + " ")), None)


def required_figures(screen: str, debt_panel: bool = False) -> tuple[str, ...]:
    """The roles the screen named `screen` must show (SCREEN_FIGURES), with DEBT_FIGURES when it shows a
    debt panel."""
    return SCREEN_FIGURES.get(screen, ()) + (DEBT_FIGURES if debt_panel else ())


def figures_shown(root: Any, roles: Iterable[str]) -> set[str]:
    """Those of `roles` that a visible widget under `root` has (as its `role`, or "ROLE something")."""
    roles = list(roles)
    seen = {_role_matches(getattr(w, "role", None), roles) for w, _ in _walk(root) if visible(w)}
    return {r for r in roles if r in seen}


def missing_figures(root: Any, roles: Iterable[str]) -> list[str]:
    """A line for each of `roles` that no visible widget under `root` has."""
    roles = list(roles)
    seen = figures_shown(root, roles)
    return [f"figure '{r}' not on the screen ({FIGURE_ROLES.get(r, 'a figure')})" for r in roles if r not in seen]


def figures_too_small(root: Any, window_size: tuple[float, float], roles: Iterable[str] = tuple(FIGURE_ROLES),
                      *, missing: bool = False) -> list[str]:
    """The visible widgets marked with one of `roles` whose text is under theme.MIN_FIGURE (a container so
    marked: its largest text), a line each; with `missing`, also each role no visible widget has."""
    roles = list(roles)
    least = minimum("MIN_FIGURE", window_size)
    found: list[str] = []
    for w, _ in _walk(root):
        role = _role_matches(getattr(w, "role", None), roles)
        if role is None or not visible(w):
            continue
        inside = [t for t, _ in _walk(w) if _has_text(t) and visible(t)]
        if not inside:
            found.append(f"figure '{role}' shows no text: {describe(w)}")
            continue
        biggest = max(inside, key=lambda t: t.font_size)
        if biggest.font_size < least - SLACK / 2:
            found.append(f"figure '{role}' font {biggest.font_size:.0f} px under {least:.0f} px: {describe(biggest)}")
    if missing:
        found.extend(missing_figures(root, roles))
    return found
