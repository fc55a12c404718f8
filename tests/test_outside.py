"""banker/outside.py: reading a file from outside and checking outside text, shared by the engine (scripts,
rulesets, names) and the hardware config; each caller words its own messages from what it finds."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from banker.outside import CONTROLS_AND_FORMAT, NotRegularFile, NotText, control_character, file_kind, read_text_file
from banker.script import replay_file


def test_control_characters_of_each_set() -> None:
    assert control_character("Ann") is None
    assert control_character("A\u200bnn") is None  # a format character: a name may hold it
    assert control_character("A\u200bnn", CONTROLS_AND_FORMAT) == (1, "\u200b")  # a config value may not
    assert control_character("An\x00n") == (2, "\x00")
    assert control_character("a\u2028b") is None and control_character("a\u2028b", CONTROLS_AND_FORMAT) == (1, "\u2028")
    assert control_character("\udcff") == (0, "\udcff")


def test_bytes_that_are_not_utf8_are_found_where_they_are(tmp_path: Path) -> None:
    path = tmp_path / "x.txt"
    path.write_bytes(b"ok\nstill ok\nbad \xe9 here")
    with pytest.raises(NotText) as caught:
        read_text_file(path, 100)
    assert (caught.value.byte, caught.value.offset, caught.value.line) == (0xE9, 16, 3)
    try:
        path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        assert str(caught.value) == str(exc)  # the script's message quotes the decoder's words
    error = replay_file(path).error
    assert error is not None and error.message == f"{path}: cannot read the file ({caught.value})"


def test_what_is_no_regular_file_is_named(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, kind in ((tmp_path, "is a folder"), (fifo, "is a FIFO (a named pipe)"),
                       (Path("/dev/null"), "is a character device")):
        with pytest.raises(NotRegularFile) as caught:
            read_text_file(path, 100)
        assert file_kind(caught.value.mode, folder="is a folder", other="?") == kind
    assert file_kind(stat.S_IFDIR, folder="is a directory", other="?") == "is a directory"
    assert file_kind(0, folder="", other="is not a regular file") == "is not a regular file"
