"""The product's writers, each run as a process of its own through the power-cut filesystem (tests/powercut.py)
by tests/test_power_cuts.py: ``python powercut_drivers.py WHAT PATH``.

Each driver makes a sequence of changes with the product's own code and says, through `powercut.mark`, where
each one starts and when the product has returned from it (acknowledged): ``start FILE K`` before change K of
FILE, ``done FILE K SHA`` after it, SHA the sha256 of the file's bytes then ("missing" when there is none). A
cut between ``start`` and ``done`` may leave version K-1 or K; after ``done`` only K (or a later one). Being a
process of its own, the writer is gone when its temporary files are looked at: a cut's leftovers are stale, as
after a reboot (banker/files.py).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from powercut import mark

SETTINGS_VERSIONS = 6
EDITION_SAVES = (("ours", 1), ("ours", 2), ("theirs", 1), ("ours", 3), ("theirs", 2), ("ours", 4))


def digest(path: Path) -> str:
    """The sha256 of the file at `path`, "missing" when there is none."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return "missing"


@contextmanager
def changing(name: str, k: int, path: Path) -> Iterator[None]:
    """Change K of the file `name` at `path` (the `with`'s body), marked before and after (the module's
    docstring)."""
    mark(f"start {name} {k}")
    yield
    mark(f"done {name} {k} {digest(path)}")


def settings_version(k: int) -> Any:
    """The settings the family has after its Kth change (0: the defaults)."""
    from ui.settings import Settings
    return Settings(language=("en", "pl")[k % 2], sounds=k % 3 != 1, bid_step=10 + k, voice_volume=1 + k % 3,
                    motion=k % 2 == 0)


def settings(path: Path) -> None:
    for k in range(1, SETTINGS_VERSIONS + 1):
        with changing("settings", k, path):
            settings_version(k).save(path)


def edition_data(name: str, k: int) -> dict[str, Any]:
    """The edition `name` as the phone's editor sends it at its Kth save: the classic rules renamed, retitled
    and with a starting cash of its own."""
    from banker.ruleset import load_ruleset
    data = load_ruleset("classic", editions=False).source_data()
    data.update(name=name, title=f"{name.title()} {k}")
    data["options"] = {**data["options"], "start_cash": 1000 + 100 * k}
    return data


def editions(folder: Path) -> None:
    """Save each edition as the phone's POST does: the editor's handler (ui/editor.py `save_body`), one JSON body."""
    from ui.editor import EditorService
    service = EditorService(folder)
    for name, k in EDITION_SAVES:
        body = json.dumps({"data": edition_data(name, k), "original": name if k > 1 else None}).encode()
        with changing(name, k, folder / f"{name}.toml"):
            answer = service.save_body(body)
        if not answer.get("ok"):
            raise SystemExit(f"the editor refused {name} {k}: {answer}")


def tag_changes() -> list[tuple[str, Callable[[Any], None]]]:
    """The tags' changes, in order: each a name and what it does to a TagStore."""
    from ui.tags import Tagged
    deed, other = Tagged("classic", "deed", space=1), Tagged("classic", "deed", space=3)
    card = Tagged("edition:ours", "card", deck="chance", card="go")
    return [("assign", lambda s: s.assign("04A1B2C3", deed)),
            ("assign", lambda s: s.assign("04D4E5F6", other)),
            ("assign", lambda s: s.assign("0499AA11", card)),
            ("forget", lambda s: s.forget(other)),
            ("rename", lambda s: s.rename_set("edition:ours", "edition:yours")),
            ("assign", lambda s: s.assign("04777777", other))]


def tags(path: Path) -> None:
    from ui.tags import TagStore
    store = TagStore(path)
    for k, (_, change) in enumerate(tag_changes(), 1):
        with changing("tags", k, path):
            change(store)


def draft_docs() -> list[dict[str, Any] | None]:
    """The new game's draft at each change (None: removed, the game started)."""
    from ui.flows.draft import Draft, DraftPlayer
    draft = Draft(players=[DraftPlayer("Ala", "#cc3333"), DraftPlayer("Olek", "#3333cc")])
    docs: list[dict[str, Any] | None] = [draft.to_doc(None)]
    draft.players[1].card = "04A1B2C3"
    docs.append(draft.to_doc(None))
    draft.players.append(DraftPlayer("Babcia", "#33cc33"))
    draft.choose("free_parking_jackpot", True)
    docs.append(draft.to_doc(None))
    draft.rules = "classic-short"
    docs.append(draft.to_doc(None))
    return [*docs, None]


def draft(path: Path) -> None:
    from ui.drafts import DraftFile
    file = DraftFile(path)
    for k, doc in enumerate(draft_docs(), 1):
        with changing("draft", k, path):
            if doc is None:
                file.remove()
            else:
                file.write(doc)


def kivy(path: Path) -> None:
    """`banker app`'s first step (ui/kivyconfig.py): Kivy's config taken over, KIVY_HOME being `path`'s folder."""
    from ui.kivyconfig import take_over
    with changing("kivy", 1, path):
        print(take_over())


def kivy_check(path: Path) -> None:
    """After a cut: what the file is (kivyconfig's `problem`, None when whole and current), what the next
    `take_over` does, and what the file is then; as JSON."""
    import tempfile

    from ui.kivyconfig import problem, take_over
    try:
        found: bytes | None = path.read_bytes()
    except FileNotFoundError:
        found = None
    done = take_over()  # the first to import Kivy, as in `banker app`
    from kivy.config import KIVY_CONFIG_VERSION, Config
    before: str | None = "missing"
    if found is not None:
        with tempfile.TemporaryDirectory() as scratch:
            (Path(scratch) / "config.ini").write_bytes(found)
            before = problem(Path(scratch) / "config.ini", KIVY_CONFIG_VERSION, Config)
    print(json.dumps({"before": before, "done": done, "after": problem(path, KIVY_CONFIG_VERSION, Config)}))


def mark_file(name: str, k: str, path: Path, when: str) -> None:
    """For a shell driver (the installer's functions): ``start`` or ``done`` mark of change K of `name`."""
    mark(f"start {name} {k}" if when == "start" else f"done {name} {k} {digest(path)}")


DRIVERS: dict[str, Callable[[Path], None]] = {
    "settings": settings, "editions": editions, "tags": tags, "draft": draft, "kivy": kivy, "kivy-check": kivy_check}

if __name__ == "__main__":
    if sys.argv[1] == "mark":
        mark_file(sys.argv[2], sys.argv[3], Path(sys.argv[4]), sys.argv[5])
    else:
        DRIVERS[sys.argv[1]](Path(sys.argv[2]))
