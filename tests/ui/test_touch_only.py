"""The UI tests play as the family does, with touches and card taps only (issue 14): no test in tests/ui/
sets a widget's text or sends a key event, so a flow that needs a keyboard cannot pass unnoticed.

The check reads the source (the syntax tree, so words in strings and comments do not count) and finds:
- an assignment to `.text` (`w.text = "Ann"`, `w.text += "n"`, `setattr(w, "text", ...)`);
- a key event dispatched (`w.dispatch("on_text_validate")`, `Window.dispatch("on_key_down", ...)`, any of
  Kivy's keyboard events) or a key handler called (`w.keyboard_on_key_down(...)`, `Window.on_keyboard(...)`,
  `w.insert_text("x")`, `w.do_backspace()`...).
"""

from __future__ import annotations

import ast
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Kivy's keyboard events, by the name they are dispatched under.
KEY_EVENTS = frozenset({"on_key_down", "on_key_up", "on_keyboard", "on_textinput", "on_text_validate",
                        "on_textedit"})
# Methods that handle (or fake) a key press or typed text.
KEY_HANDLERS = KEY_EVENTS | {"keyboard_on_key_down", "keyboard_on_key_up", "keyboard_on_textinput",
                             "_keyboard_on_key_down", "_on_keyboard_down", "_on_window_key_down", "insert_text",
                             "do_backspace", "do_cursor_movement", "paste", "request_keyboard"}
TEXT_ATTRIBUTES = frozenset({"text"})


def _string(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def problems(source: str, filename: str = "<test>") -> list[str]:
    """Where `source` sets a text or sends a key: "file:line: what", one a finding."""
    found: list[str] = []
    tree = ast.parse(source, filename)

    def report(node: ast.AST, what: str) -> None:
        found.append(f"{filename}:{getattr(node, 'lineno', 0)}: {what}")

    for node in ast.walk(tree):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):  # a, w.text = ... too
                if isinstance(part, ast.Attribute) and part.attr in TEXT_ATTRIBUTES and isinstance(part.ctx, ast.Store):
                    report(node, f"assigns .{part.attr}")
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name == "setattr" and len(node.args) >= 2 and _string(node.args[1]) in TEXT_ATTRIBUTES:
            report(node, f"setattr(..., {_string(node.args[1])!r})")
        elif name == "dispatch" and node.args and _string(node.args[0]) in KEY_EVENTS:
            report(node, f"dispatches {_string(node.args[0])}")
        elif name in KEY_HANDLERS and isinstance(func, ast.Attribute):
            report(node, f"calls {name}()")
    return found


def ui_test_sources() -> list[Path]:
    return sorted(p for p in HERE.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_ui_test_sets_text_or_sends_keys() -> None:
    found = [p for path in ui_test_sources()
             for p in problems(path.read_text("utf-8"), str(path.relative_to(HERE.parents[1])))]
    assert not found, "the UI tests must touch and tap, not type:\n" + "\n".join(found)


def test_the_check_reads_every_ui_test_and_the_end_to_end_scripts() -> None:
    names = {p.name for p in ui_test_sources()}
    assert {"e2e_app.py", "e2e_family.py", "e2e_kit.py", "test_app_e2e.py", "test_touch_only.py"} <= names


def test_the_check_catches_text_set_and_keys_sent() -> None:
    caught = {
        'w.text = "Ann"': "assigns .text",
        'inputs[0].text += "n"': "assigns .text",
        'a, w.text = 1, "Ann"': "assigns .text",
        'w.text: str = "Ann"': "assigns .text",
        'setattr(w, "text", "Ann")': "setattr(..., 'text')",
        'w.dispatch("on_text_validate")': "dispatches on_text_validate",
        'Window.dispatch("on_key_down", 13, 36, "\\r", [])': "dispatches on_key_down",
        'Window.dispatch("on_keyboard", 27, 9, None, [])': "dispatches on_keyboard",
        'Window.dispatch("on_textinput", "a")': "dispatches on_textinput",
        'w.keyboard_on_key_down(None, (13, "enter"), "", [])': "calls keyboard_on_key_down()",
        'app.on_key_down(None, 114, 27, "r", [])': "calls on_key_down()",
        'w.insert_text("Ann")': "calls insert_text()",
        'w.do_backspace()': "calls do_backspace()",
    }
    for source, what in caught.items():
        assert problems(source) == [f"<test>:1: {what}"], source


def test_the_check_lets_touches_and_reading_text_pass() -> None:
    clean = "\n".join([
        'assert w.text == "Ann"',
        'name = button.text',
        'b = BigButton(text="Start")',
        't = UnitTestTouch(*w.center); t.touch_down(); t.touch_up()',
        'reader.tap("04A32B1C")',
        'touch_role(app, "key a")',
        'w.dispatch("on_press")',
        'shown = "Ann" in texts(app)',
        '# w.text = "Ann" in a comment',
        'doc = "w.dispatch(\'on_text_validate\')"',
        'context = {"text": "x"}',
    ])
    assert problems(clean) == []
