"""Every durable file but the journal, written by the product's own code through the power-cut filesystem
(tests/powercut.py), and what a cut leaves of it.

Each file's writer runs once as a process of its own (tests/powercut_drivers.py; the installer's functions in
bash) on the mount with the record on, marking where each change starts and when the product has returned
from it. Then at about 40 points of the record (`seeds(40)`; BANKER_POWER_CUTS=N for more: every sync, then
writes and the record's end, seeded) the image a cut there leaves is made twice, "synced" (only what was
fsync'ed) and "random" (a seeded subset of the rest, writes torn along 4 KiB pages), and checked:
- each file is the version before the change under way or the one after it, whole (its sha256 is one of the
  two the driver saw), never empty, garbled or missing once written; a change the product returned from is
  there;
- the product's loader reads it without a problem, and nothing else is in the folder but at most one stray
  temporary file per file (banker/files.py's `leftovers`);
- the next start carries on: the next write works and leaves no stray temporary file behind (Kivy's config:
  a new process's `take_over`; the installer: its steps run again finish the job, no `.board-banker-new`
  left).

The installer's boot files: on a Pi, config.txt and cmdline.txt are on the boot partition, which is vfat.
This model is the POSIX promise as ext4 keeps it (a rename durable once its folder is fsync'ed, atomic on a
cut); vfat has no atomic rename on a cut at all (a cut mid-rename may leave both names, or neither, or a
torn directory entry), so what is proven here is that the installer asks for everything a filesystem needs
to keep the old file or the new one, not that vfat gives it.

The regression cases: run against the code before the durable writes (commit f401e0c, with this file,
tests/powercut*.py and banker/files.py, for `leftovers`, copied in), the default run fails 154 times: settings'
"random" cuts leave settings.json empty (before entry 18, seed 3: renamed before its data was synced), its
"synced" cuts lose saves the app had returned from (nothing was fsync'ed; the record's end is always a point)
and a settings.tmp is left; the installer's "random" cuts leave config.txt empty (before entry 39, seed 8),
cmdline.txt empty (before entry 46, seed 26) and the backups empty, and its "synced" cuts lose boot edits
the installer had finished. Found here and fixed (banker/files.py `make_folder`, install.sh `make_dir`): a
folder made for a file was not synced into its parent, and a "synced" cut lost the first settings.json,
Kivy's first config.ini and the hardware config with their new folder.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from powercut import CutFS, Trace, fuse_problem, seeds
from powercut_drivers import digest, draft_docs, edition_data, settings_version

HERE = Path(__file__).resolve().parent
DRIVERS = HERE / "powercut_drivers.py"
INSTALL = HERE.parent / "deploy" / "install.sh"
CUTS = 40  # seeded points per file by default
EMPTY = hashlib.sha256(b"").hexdigest()

pytestmark = pytest.mark.skipif(fuse_problem() is not None, reason=f"no power-cut filesystem: {fuse_problem()}")


@dataclass(frozen=True)
class Watched:
    """A file the driver changes: where it is (relative to the mount) and its name in the marks."""

    rel: str
    name: str


class Record:
    """One run's record, and what each watched file may be at each point of it (the drivers' marks)."""

    def __init__(self, trace: Trace, watched: list[Watched], initial: dict[str, str]) -> None:
        self.trace, self.watched = trace, watched
        self.versions: dict[str, dict[int, str]] = {w.name: {0: initial[w.name]} for w in watched}
        for text in trace.marks():
            word, name, k, *sha = text.split(" ")
            if word == "done" and name in self.versions:
                self.versions[name][int(k)] = sha[0]

    def allowed(self, upto: int, name: str) -> dict[str, int]:
        """sha256 (or "missing") -> version, for what the file `name` may be after a cut before `upto`: the last
        version the product returned from, and the one under way."""
        done = started = 0
        for text in self.trace.marks(upto):
            word, mark_name, k, *_ = text.split(" ")
            if mark_name == name:
                if word == "start":
                    started = int(k)
                else:
                    done = int(k)
        return {self.versions[name][k]: k for k in {done, started}}


def record(tmp_path: Path, command: Callable[[Path], list[str]], prepare: Callable[[Path], None],
           watched: list[Watched], env: Callable[[Path], dict[str, str]] = lambda mount: {}) -> Record:
    """Run `command(mount)` once through the power-cut filesystem over a backing folder `prepare`d first."""
    backing, mount = tmp_path / "backing", tmp_path / "mount"
    backing.mkdir()
    prepare(backing)
    initial = {w.name: digest(backing / w.rel) for w in watched}
    with CutFS(backing, mount) as fs:
        done = subprocess.run(command(mount), env={**fs.env(), **env(mount)}, capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
        trace = fs.trace()
        assert fs.errors() == ""
    return Record(trace, watched, initial)


def cut_points(trace: Trace) -> list[tuple[int, str, int]]:
    """(point, mode, seed) of every cut to check: each sync, then writes and the record's end (always) seeded
    up to the count, each "synced" and "random"; a count beyond the points adds random images at seeded
    points."""
    first, count = seeds(CUTS)
    rng = random.Random(first)
    syncs = trace.sync_points()
    others = sorted(set(trace.write_points()) - set(syncs))
    chosen = {len(trace.ops), *syncs, *rng.sample(others, max(0, min(len(others), count - len(syncs) - 1)))}
    points = sorted(chosen)
    cuts = [(p, mode, first + i) for i, p in enumerate(points) for mode in ("synced", "random")]
    cuts += [(rng.choice(points), "random", first + len(points) + i) for i in range(count - len(points))]
    return cuts


@dataclass
class Cut:
    """The image one cut left, written out at `root`, and what its files may be."""

    root: Path
    point: int
    mode: str
    seed: int
    allowed: dict[str, dict[str, int]]  # name -> sha -> version
    key: str  # the image's content: the same key, the same files

    def __str__(self) -> str:
        return f"cut before entry {self.point} ({self.mode}, seed {self.seed})"

    def version(self, watched: Watched) -> int:
        """Which version of the file the image has; the check fails when it is none of the allowed ones."""
        found = digest(self.root / watched.rel)
        allowed = self.allowed[watched.name]
        shown = "empty" if found == EMPTY else found[:12]
        assert found in allowed, (f"{self}: {watched.rel} is {shown}, not one of the versions it may be "
                                  f"({', '.join(f'{k}: {sha[:12]}' for sha, k in allowed.items())})")
        return allowed[found]


def check_cuts(record: Record, tmp_path: Path, check: Callable[[Cut], None]) -> None:
    """Make each cut's image in a folder of its own (removed once checked) and check it: every watched file
    one of its allowed versions, no file in the image but them and at most one stray temporary file each,
    then `check(cut)` (the product's own loader and next start). Fails at the end, naming every cut that
    failed (the point, the mode and the seed say how to make it again)."""
    failed: list[str] = []
    for n, (point, mode, seed) in enumerate(cut_points(record.trace)):
        image = record.trace.image(point, mode, seed)
        root = image.write(tmp_path / f"cut-{n}")
        key = hashlib.sha256(repr(sorted(image.files.items())).encode()).hexdigest()
        cut = Cut(root, point, mode, seed, {w.name: record.allowed(point, w.name) for w in record.watched}, key)
        wrong = []
        for w in record.watched:
            try:
                cut.version(w)
            except AssertionError as exc:
                wrong.append(str(exc))
        if not wrong:
            try:
                expected = {w.rel for w in record.watched}
                for w in record.watched:
                    strays = stray_files(root / w.rel)
                    assert len(strays) <= 1, f"more than one stray temporary file of {w.rel}: {strays}"
                    expected |= {str(p.relative_to(root)) for p in strays}
                found = {str(p.relative_to(root)) for p in root.rglob("*") if not p.is_dir()}
                assert found <= expected, f"files that are none of the product's: {sorted(found - expected)}"
                check(cut)
            except AssertionError as exc:
                first = str(exc).splitlines()[0] if str(exc) else "failed"
                wrong.append(first if first.startswith(str(cut)) else f"{cut}: {first}")
        failed += wrong
        shutil.rmtree(root)
    assert not failed, f"{len(failed)} failures:\n" + "\n".join(failed)


def stray_files(path: Path) -> list[Path]:
    """The temporary files a cut left of the file `path`: banker/files.py's, or the installer's."""
    from banker.files import leftovers
    return leftovers(path) + [p for p in [path.with_name(path.name + ".board-banker-new")] if p.exists()]


def python(*args: str | Path) -> list[str]:
    return [sys.executable, str(DRIVERS), *map(str, args)]


# ---------------------------------------------------------------------------------------------------------------
# The app's files: settings, editions, tags, the draft


def test_settings_are_the_old_or_the_new_after_every_cut(tmp_path: Path) -> None:
    from banker.files import leftovers
    from ui.settings import Settings
    settings = Watched("board-banker/settings.json", "settings")
    run = record(tmp_path, lambda mount: python("settings", mount / settings.rel), lambda backing: None, [settings])
    assert len(run.versions["settings"]) == 7

    def check(cut: Cut) -> None:
        path = cut.root / settings.rel
        k = cut.version(settings)
        loaded, problems = Settings.load(path)
        assert problems == [], f"{cut}: {problems}"
        assert loaded == (settings_version(k) if path.exists() else Settings()), cut
        settings_version(9).save(path)  # the family's next change, after the cut
        assert Settings.load(path) == (settings_version(9), []), cut
        assert leftovers(path) == [], cut
    check_cuts(run, tmp_path, check)


def test_editions_saved_from_the_phone_editor_are_the_old_or_the_new_after_every_cut(tmp_path: Path) -> None:
    from banker.editions import list_editions, save_edition
    from banker.files import leftovers
    from banker.ruleset import load_edition
    names = ("ours", "theirs")
    watched = [Watched(f"editions/{name}.toml", name) for name in names]

    def prepare(backing: Path) -> None:
        (backing / "editions").mkdir()  # the editions folder is there before its first edition
    run = record(tmp_path, lambda mount: python("editions", mount / "editions"), prepare, watched)

    def check(cut: Cut) -> None:
        folder = cut.root / "editions"
        listed = {e.name: e for e in list_editions(folder)}
        for w in watched:
            k = cut.version(w)
            if k == 0:
                assert w.name not in listed, cut
                continue
            assert listed[w.name].problem is None, f"{cut}: {listed[w.name].problem}"
            assert load_edition(w.name, folder).title == edition_data(w.name, k)["title"], cut
        save_edition(edition_data("ours", 9), folder)  # the editor's next save, after the cut
        assert leftovers(folder / "ours.toml") == [], cut
        assert load_edition("ours", folder).title == "Ours 9", cut
    check_cuts(run, tmp_path, check)


def test_card_tags_are_the_old_or_the_new_after_every_cut(tmp_path: Path) -> None:
    from banker.files import leftovers
    from powercut_drivers import tag_changes
    from ui.tags import Tagged, TagStore
    tags = Watched("board-banker/tags.json", "tags")

    def prepare(backing: Path) -> None:
        (backing / "board-banker").mkdir()
    run = record(tmp_path, lambda mount: python("tags", mount / tags.rel), prepare, [tags])
    memory = TagStore(None)  # the same changes in memory: the tags after each
    expected = [copy.deepcopy(memory.sets)]
    for _, change in tag_changes():
        change(memory)
        expected.append(copy.deepcopy(memory.sets))

    def check(cut: Cut) -> None:
        path = cut.root / tags.rel
        k = cut.version(tags)
        store = TagStore(path)
        assert store.problem is None, f"{cut}: {store.problem}"
        assert store.sets == expected[k], cut
        store.assign("04000000", Tagged("classic", "deed", space=5))  # the next sticker, after the cut
        assert leftovers(path) == [] and TagStore(path).lookup("04000000") is not None, cut
    check_cuts(run, tmp_path, check)


def test_the_new_games_draft_is_the_old_or_the_new_after_every_cut(tmp_path: Path) -> None:
    from banker.files import leftovers
    from ui.drafts import VERSION, DraftFile
    from ui.flows.draft import Draft
    draft = Watched("board-banker/draft.json", "draft")

    def prepare(backing: Path) -> None:
        (backing / "board-banker").mkdir()
    run = record(tmp_path, lambda mount: python("draft", mount / draft.rel), prepare, [draft])
    docs: list[dict[str, Any] | None] = [None, *draft_docs()]

    def check(cut: Cut) -> None:
        path = cut.root / draft.rel
        k = cut.version(draft)
        doc, wanted = DraftFile(path).read(), docs[k]
        assert doc == (None if wanted is None else {**wanted, "version": VERSION}), cut
        if doc is not None:
            Draft.from_doc(doc)
        assert DraftFile(path).write({"rules": "classic", "players": []}), cut  # the next draft, after the cut
        assert leftovers(path) == [], cut
    check_cuts(run, tmp_path, check)


# ---------------------------------------------------------------------------------------------------------------
# Kivy's config file, owned by `banker app` (ui/kivyconfig.py)


def kivy_env(home: Path) -> dict[str, str]:
    return {"KIVY_HOME": str(home), "KIVY_NO_ARGS": "1", "KIVY_NO_FILELOG": "1", "KIVY_NO_CONSOLELOG": "1"}


@pytest.mark.parametrize("start", ["first start", "damaged file"])
def test_kivys_config_is_missing_or_whole_after_every_cut(tmp_path: Path, start: str) -> None:
    config = Watched("kivy/config.ini", "kivy")

    def prepare(backing: Path) -> None:
        if start == "damaged file":  # an old Kivy's file, torn in the middle of a line by an earlier cut
            (backing / "kivy").mkdir()
            (backing / "kivy" / "config.ini").write_text("[kivy]\nkeyboard_repeat_delay = 300\nconfig_version = 2"
                                                         "\n[graphics]\nfull")
    run = record(tmp_path, lambda mount: python("kivy", mount / config.rel), prepare, [config],
                 env=lambda mount: kivy_env(mount / "kivy"))
    assert len(run.versions["kivy"]) == 2
    checked: set[str] = set()

    def check(cut: Cut) -> None:
        path = cut.root / config.rel
        k = cut.version(config)
        assert k == 1 or start == "damaged file" or not path.exists(), cut
        if cut.key in checked:
            return
        checked.add(cut.key)
        home = cut.root / "kivy"
        done = subprocess.run(python("kivy-check", path), env={**os.environ, **kivy_env(home)}, capture_output=True,
                              text=True, timeout=120, check=False)
        assert done.returncode == 0, f"{cut}: {done.stderr}"
        after = json.loads(done.stdout.splitlines()[-1])
        if k == 1:
            assert after["before"] is None, (cut, after)
        else:  # no file yet, or the damaged one
            assert (after["before"] == "missing") == (start == "first start") and after["before"], (cut, after)
        assert after["done"] == ("read" if k == 1 else "written"), (cut, after)
        assert after["after"] is None, (cut, after)
        assert stray_files(path) == [], cut
    check_cuts(run, tmp_path, check)
    assert len(checked) >= 2


# ---------------------------------------------------------------------------------------------------------------
# The installer's hardware config and boot config (deploy/install.sh's own functions)

CONFIG_TXT = "# Raspberry Pi OS's config.txt\ndtparam=audio=on\n#dtparam=spi=on\n\n[cm4]\notg_mode=1\n\n[pi5]\n" \
             "dtoverlay=vc4-kms-v3d\n"
CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=1a2b3c4d-02 rootfstype=ext4 fsck.repair=yes rootwait\n"
HARDWARE = "root/etc/board-banker/config.toml"
INSTALLER_FILES = [Watched(HARDWARE, "config"),
                   Watched("boot/config.txt", "config.txt"),
                   Watched("boot/config.txt.board-banker.bak", "config.txt.bak"),
                   Watched("boot/cmdline.txt", "cmdline.txt"),
                   Watched("boot/cmdline.txt.board-banker.bak", "cmdline.txt.bak")]
# The installer's steps as configure_boot and main run them, each between the drivers' marks (M NAME K PATH).
INSTALLER_STEPS = """
M() { [ -z "$MARK" ] || "$MARK" "$DRIVERS" mark "$1" "$2" "$3" "$4"; }
M config 1 "$R$CONFIG" start; install_config; M config 1 "$R$CONFIG" done
M config 2 "$R$CONFIG" start; place_file "$UPDATED" "$CONFIG" 644; M config 2 "$R$CONFIG" done
for f in config.txt:config_uart0 config.txt:"config_reader_boot rc522" cmdline.txt:cmdline_consoleblank; do
    file=${f%%:*}; k=$(( ${K[$file]:-0} + 1 )); K[$file]=$k
    M "$file" "$k" "$BOOT/$file" start; M "$file.bak" 1 "$BOOT/$file.board-banker.bak" start
    ${f#*:} "$BOOT/$file"
    M "$file" "$k" "$BOOT/$file" done; M "$file.bak" 1 "$BOOT/$file.board-banker.bak" done
done
"""


def installer(root: Path, marks: bool, updated: Path) -> list[str]:
    """bash running the installer's steps on the root folder `root` (root/root the system, root/boot its boot
    partition); with `marks`, each step marked for the record."""
    script = (f'source "$1"; R=$2/root; BOOT=$2/boot; WORK=$(mktemp -d); trap \'rm -rf "$WORK"\' EXIT; '
              f'UPDATED=$3; DRIVERS=$4; MARK={sys.executable if marks else ""}; declare -A K; set -e\n'
              + INSTALLER_STEPS)
    return ["bash", "-c", script, "install.sh", str(INSTALL), str(root), str(updated), str(DRIVERS)]


def test_the_installers_config_and_boot_files_are_the_old_or_the_new_after_every_cut(tmp_path: Path) -> None:
    template = (HERE.parent / "hardware" / "config.example.toml").read_text()
    updated = tmp_path / "updated.toml"  # a newer installer's file, placed over the first
    updated.write_text(template + "\n# updated\n")

    def prepare(backing: Path) -> None:
        (backing / "root" / "etc").mkdir(parents=True)
        (backing / "boot").mkdir()
        (backing / "boot" / "config.txt").write_text(CONFIG_TXT)
        (backing / "boot" / "cmdline.txt").write_text(CMDLINE)
    run = record(tmp_path, lambda mount: installer(mount, True, updated), prepare, INSTALLER_FILES)
    final = {name: versions[max(versions)] for name, versions in run.versions.items()}
    assert run.versions["config.txt"][2] != run.versions["config.txt"][1] != run.versions["config.txt"][0]
    assert run.versions["config"][2] == hashlib.sha256(updated.read_bytes()).hexdigest()
    for name in ("config.txt", "cmdline.txt"):
        assert run.versions[f"{name}.bak"] == {0: "missing", 1: run.versions[name][0]}
    checked: set[str] = set()

    def check(cut: Cut) -> None:
        if cut.key in checked:
            return
        checked.add(cut.key)
        again = subprocess.run(installer(cut.root, False, updated), capture_output=True, text=True, timeout=120,
                               check=False)
        assert again.returncode == 0, f"{cut}: the installer's steps again: {again.stdout}\n{again.stderr}"
        for w in INSTALLER_FILES:
            assert digest(cut.root / w.rel) == final[w.name], f"{cut}: {w.rel} after the steps again"
        left = sorted(str(p.relative_to(cut.root)) for p in cut.root.rglob("*.board-banker-new"))
        assert left == [], f"{cut}: left after the steps again: {left}"
    check_cuts(run, tmp_path, check)
    assert len(checked) >= 5
