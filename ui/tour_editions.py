"""The family's editions the tour shows and the tests play with: copies of classic under names and titles of
their own, a street renamed, and a broken file, written into an editions folder (ui/tour.py: its own scratch
$XDG_DATA_HOME, never the user's). No Kivy here."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from banker.editions import editions_dir, save_edition

HOSTILE = "[b]Ours[/b] & <i>"  # a title that would be markup, were markup on


def classic_copy(name: str, title: str, street: str) -> str:
    """The text of classic as an edition: its `name` and `title`, Baltic Avenue (space 3: a throw of 1 and 2
    from GO) called `street`."""
    text = resources.files("banker.rulesets").joinpath("classic.toml").read_text(encoding="utf-8")
    text = text.replace('name = "classic"', f'name = "{name}"', 1).replace('title = "Classic"', f'title = "{title}"', 1)
    return text.replace('name = "Baltic Avenue"', f'name = "{street}"', 1)


def write_editions(folder: Path | None = None) -> Path:
    """Two editions ("seaside", titled "Seaside Town", its first street "Harbour Lane"; "ours", titled HOSTILE,
    its first street "Our Street") and a broken one ("broken": its starting cash is words, not a number) in
    `folder` (by default the editions folder)."""
    where = folder or editions_dir()
    save_edition(classic_copy("seaside", "Seaside Town", "Harbour Lane"), where)
    save_edition(classic_copy("ours", HOSTILE, "Our Street"), where)
    broken = classic_copy("broken", "Broken Board", "Nowhere")
    (where / "broken.toml").write_text(broken.replace("start_cash = 1500", 'start_cash = "lots"', 1), encoding="utf-8")
    return where


__all__ = ["HOSTILE", "classic_copy", "write_editions"]
