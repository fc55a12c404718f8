"""One table of reader kinds (hardware/kinds.py) that the config, `banker hw`, the app and the docs read."""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

import pytest

from hardware import kinds
from hardware.config import load_config
from hardware.events import ConfigError
from hardware.reader import CardProtocol

ROOT = Path(__file__).resolve().parents[2]


def test_every_kind_makes_its_protocol_and_its_fake() -> None:
    assert kinds.NAMES[0] == kinds.DEFAULT == "pn532"
    for kind in kinds.KINDS.values():
        protocol = kind.make(9600)
        assert isinstance(protocol, CardProtocol) and protocol.baudrate == 9600
        assert protocol.name == kind.name
        if kind.emulator:
            assert kind.name in kinds.EMULATED


@pytest.mark.parametrize("name", kinds.NAMES)
def test_the_config_takes_every_kind(tmp_path: Path, name: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'[reader]\nprotocol = "{name}"\nurl = "loop://"\n')
    assert load_config(str(path)).reader.protocol == name


def test_the_config_refuses_another_name_listing_the_kinds(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[reader]\nprotocol = "pn533"\n')
    with pytest.raises(ConfigError) as refused:
        load_config(str(path))
    for name in kinds.NAMES:
        assert f'"{name}"' in str(refused.value)


def test_an_unknown_kind_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match='no card reader kind "acr"'):
        kinds.kind("acr")


def test_a_kind_whose_library_is_missing_is_listed_and_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    absent = kinds.ReaderKind("absent", "a reader whose library is not here", "anything",
                              "hardware.line:LineProtocol", needs=("board_banker_no_such_module",),
                              install="apt install python3-no-such-module")
    monkeypatch.setitem(kinds.KINDS, "absent", absent)
    assert absent.missing() == ["board_banker_no_such_module"]
    with pytest.raises(kinds.MissingLibrary, match="board_banker_no_such_module: apt install python3-no-such-module"):
        kinds.make_protocol("absent")
    assert "absent" in kinds.describe() and "needs board_banker_no_such_module" in kinds.describe()


def test_banker_hw_lists_every_kind() -> None:
    from hardware import cli

    parser = argparse.ArgumentParser(prog="banker")
    sub = parser.add_subparsers(dest="command")
    cli.register(sub)
    hw = sub.choices["hw"]
    cards_help = hw._subparsers._group_actions[0].choices["cards"].format_help()  # type: ignore[union-attr]
    for kind in kinds.KINDS.values():
        assert kind.name in cards_help and kind.summary.split()[0] in cards_help
    emulate = hw._subparsers._group_actions[0].choices["emulate"]  # type: ignore[union-attr]
    assert set(emulate._option_string_actions["--protocol"].choices) == set(kinds.EMULATED)


def test_the_docs_list_every_kind_as_the_table_does() -> None:
    text = (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    table = text.split("<!-- kinds:", 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^\| `([a-z0-9]+)` \| (.+?) \| .+ \|$", table, re.MULTILINE)
    assert [name for name, _ in rows] == list(kinds.NAMES)
    for name, summary in rows:
        assert summary == kinds.KINDS[name].summary


def test_nothing_outside_the_command_line_imports_it() -> None:
    """The app and the rest of hardware/ take the kinds from hardware/kinds.py, never from hardware/cli.py."""
    for path in [*sorted((ROOT / "ui").rglob("*.py")), *sorted((ROOT / "hardware").glob("*.py"))]:
        if path.name == "cli.py" and path.parent.name == "hardware":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "hardware.cli", f"{path.relative_to(ROOT)} imports hardware.cli"
            elif isinstance(node, ast.Import):
                assert all(a.name != "hardware.cli" for a in node.names), path
