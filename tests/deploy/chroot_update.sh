#!/usr/bin/env bash
# The slow test of an update as a family meets it: a fresh Debian root made with
# `debootstrap --variant=minbase` (its packages cached as a tarball, as
# chroot_install.sh does), the commit before this checkout's (HEAD~1, or the
# nearest earlier commit whose packaged sources differ from this work tree's)
# checked out in a `git worktree add --detach`, copied into the root and
# installed there by its own deploy/install.sh, the engine compiled; then, as
# the banker user with that old app, an edition saved into the editions folder,
# a finished game and a game left in the middle journaled into the games file,
# the app's settings saved and the hardware config changed; then this
# checkout's deploy/update.sh (test mode: --no-services). Afterwards the new app
# must show the same games in the same state (`banker games` and `banker state`,
# as text and as JSON, equal to before), list the edition and load it, and the
# settings file, the edition's file and the config must be byte-identical; the
# installed app must be this checkout's (the installed-from stamp changed, and
# every installed file of banker/, hardware/ and ui/ equal to this checkout's).
#
# Usage: sudo tests/deploy/chroot_update.sh [--release bookworm|trixie] [--keep]
#   --release  the Debian release: bookworm (12, the default) or trixie (13)
#   --keep     leave the root folder for a look afterwards (its path is printed)
# BANKER_UPDATE_FROM=COMMIT starts from that commit instead of HEAD~1.
# Needs root, debootstrap, git, the Debian mirror and PyPI (as chroot_install.sh;
# BANKER_DEBIAN_MIRROR and BANKER_TEST_CACHE as there).
# Exit status: 0 passed, 1 a check failed, 2 cannot run here.
set -Eeuo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=chroot_common.sh source-path=SCRIPTDIR
source "$REPO/tests/deploy/chroot_common.sh"
parse_options "$@"
cannot() { printf 'chroot_update.sh: %s\n' "$*" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || cannot "must run as root"
command -v debootstrap >/dev/null || cannot "debootstrap is not installed (apt-get install debootstrap)"
if ! command -v git >/dev/null || ! git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
    cannot "$REPO is not a git checkout with git installed: the commit before is taken from its history"
fi

OLD_SRC=/src/board-banker-old  # the commit before, inside the root
OLD_TREE=""                    # its git worktree on this machine, while it exists
DATA=/var/lib/board-banker/.local/share/board-banker  # the banker user's data folder (XDG_DATA_HOME's default)
VENV=/opt/board-banker/venv
# What install.sh packs into the app (its stage_source): a commit whose copies of these equal the work
# tree's would install the same app, and update.sh would rightly find nothing to do.
PACKAGED=(pyproject.toml setup.py README.md banker hardware ui)

# The commit to update from: BANKER_UPDATE_FROM, or HEAD~1 stepped back past commits that packed the same.
old_commit() {
    local commit steps=0
    commit=$(git -C "$REPO" rev-parse --verify -q "${BANKER_UPDATE_FROM:-HEAD~1}^{commit}") ||
        cannot "no commit ${BANKER_UPDATE_FROM:-HEAD~1} in $REPO to update from"
    if [ -n "${BANKER_UPDATE_FROM:-}" ]; then echo "$commit"; return 0; fi
    while git -C "$REPO" diff --quiet "$commit" -- "${PACKAGED[@]}"; do
        steps=$((steps + 1))
        [ "$steps" -le 100 ] || cannot "the last 100 commits pack the same app as this work tree"
        commit=$(git -C "$REPO" rev-parse --verify -q "$commit~1^{commit}") ||
            cannot "no earlier commit packs another app than this work tree"
    done
    echo "$commit"
}

on_exit() {
    local status=$?
    if [ -n "$OLD_TREE" ]; then git -C "$REPO" worktree remove --force "$OLD_TREE" >/dev/null 2>&1 || true; fi
    (exit "$status")
    cleanup
}
trap on_exit EXIT
trap 'printf "chroot_update.sh: FAILED: a command failed at line %s (exit status %s)\n" "$LINENO" "$?" >&2' ERR

OLD=$(old_commit) || exit 2
printf 'updating from %s to this work tree (%s, %s)\n' "$(git -C "$REPO" log -1 --format='%h %s' "$OLD")" \
    "$(git -C "$REPO" log -1 --format='HEAD %h' HEAD)" \
    "$(if git -C "$REPO" diff --quiet HEAD; then echo clean; else echo "with uncommitted changes"; fi)"

make_work

debootstrap_root "$(dpkg --print-architecture)"

phase "prepare the root, copy this checkout and the commit before"
prepare_root
OLD_TREE=$WORK/old-checkout
git -C "$REPO" worktree add --detach "$OLD_TREE" "$OLD" >"$LOGS/worktree.log" 2>&1 ||
    { cat "$LOGS/worktree.log" >&2; fail "git worktree add --detach $OLD_TREE $OLD"; }
mkdir -p "$TARGET$OLD_SRC"
tar -C "$OLD_TREE" --exclude=.git -cf - . | tar -C "$TARGET$OLD_SRC" -xf -
git -C "$REPO" worktree remove --force "$OLD_TREE"
OLD_TREE=""
phase_done "mounts, this checkout and the commit before (a git worktree) copied"

# The installed app's engine: "compiled" (mypyc) or "pure".
engine() {
    in_chroot "$VENV/bin/python" -c 'import banker.game as g; print("compiled" if g.__file__.endswith(".so") else "pure")'
}

phase "install.sh of the commit before, inside the chroot"
in_chroot "$OLD_SRC/deploy/install.sh" --no-boot-config --no-services 2>&1 | tee "$LOGS/install-old.log"
grep -q '^  installed  board-banker ' "$LOGS/install-old.log" || fail "the commit before's app was not installed"
[ "$(engine)" = compiled ] || fail "the commit before's engine was not compiled"
phase_done "install.sh of the commit before (apt, venv, pip, mypyc)"

# What a family can see of its things, with the installed app: into DIR.
look() {  # DIR
    local dir=$1
    mkdir -p "$dir"
    as_banker banker games >"$dir/games.txt" || fail "banker games failed"
    as_banker banker games --json >"$dir/games.json" || fail "banker games --json failed"
    as_banker banker state >"$dir/state.txt" || fail "banker state failed"
    as_banker banker state --json >"$dir/state.json" || fail "banker state --json failed"
    as_banker banker rules >"$dir/rules.txt" || fail "banker rules failed"
    as_banker banker rules family-rules >"$dir/edition.txt" 2>&1 || true  # checked by the caller
    in_chroot "$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("board-banker"))' \
        >"$dir/version.txt"
    cp "$TARGET/opt/board-banker/installed-from" "$dir/installed-from"
}

phase "the family plays with the old app"
# An edition saved as the phone editor saves one (banker.editions.save_edition): the classic rules, 250 at GO.
as_banker "$VENV/bin/python" -c '
import pathlib, tomllib, banker
from banker.editions import save_edition
data = tomllib.loads((pathlib.Path(banker.__file__).parent / "rulesets" / "classic.toml").read_text("utf-8"))
data.update(name="family-rules", title="Our family rules", description="Classic, with 250 at GO")
data["options"]["salary"] = 250
print("saved", save_edition(data).path)'
# A finished classic game, then a game of the edition left in the middle (its script without the end).
# shellcheck disable=SC2016  # expanded by the banker user's shell
as_banker sh -c 'set -e
    cd /tmp
    banker simulate --games 1 --players 2 --seed 3 --max-turns 10 --save-scripts finished >/dev/null
    banker simulate --rules family-rules --games 1 --players 3 --seed 7 --max-turns 20 --save-scripts playing >/dev/null
    head -n -1 playing/game-000007.jsonl >playing.jsonl
    tail -n 1 playing/game-000007.jsonl | grep -q end_game
    games=$HOME/.local/share/board-banker/games.sqlite3
    banker replay finished/game-000003.jsonl --journal "$games" >/dev/null
    banker replay playing.jsonl --journal "$games" >/dev/null'
# The app's settings as its Settings page saves them (ui/settings.py).
as_banker "$VENV/bin/python" -c '
from ui.settings import Settings
Settings(language="pl", sounds=False, voice_volume=3, bid_step=50, motion=False).save()'
# The hardware config as the family set it.
printf '[reader]\nurl = "/dev/banker-reader"\nprotocol = "line"\n\n[display]\nrotation = 180\n' \
    >"$TARGET/etc/board-banker/config.toml"
look "$LOGS/before"
cat "$LOGS/before/games.txt"
grep -Eq '^ +[0-9]+ +finished +classic ' "$LOGS/before/games.txt" || fail "no finished classic game journaled"
grep -Eq '^ +[0-9]+ +active +family-rules ' "$LOGS/before/games.txt" || fail "no game of the edition in play"
grep -q '^rules: family-rules$' "$LOGS/before/state.txt" || fail "the game the app resumes is not the edition's"
mkdir -p "$LOGS/kept"
cp "$TARGET$DATA/settings.json" "$TARGET$DATA/editions/family-rules.toml" "$TARGET/etc/board-banker/config.toml" \
    "$LOGS/kept/"
echo "ok: an edition, a finished game, a game in play, the settings and the config, with the old app"
phase_done "the family plays (an edition, two games, settings, config)"

phase "update.sh of this checkout, inside the chroot"
in_chroot "$SRC/deploy/update.sh" --no-services 2>&1 | tee "$LOGS/update.log"
grep -q '^  installed  board-banker ' "$LOGS/update.log" || fail "update.sh did not install this checkout's app"
grep -q '^  kept       /etc/board-banker/config.toml' "$LOGS/update.log" || fail "update.sh did not keep the config"
[ "$(engine)" = compiled ] || fail "this checkout's engine was not compiled"
phase_done "update.sh (pip, mypyc)"

phase "checks: the family's things after the update"
look "$LOGS/after"
for f in games.txt games.json state.txt state.json; do
    diff -u "$LOGS/before/$f" "$LOGS/after/$f" || fail "what banker ${f%.*} shows changed in the update ($f)"
done
echo "ok: banker games and banker state (text and JSON) as before the update"
grep -Eq '^family-rules +\(edition\) Our family rules' "$LOGS/after/rules.txt" ||
    fail "banker rules does not list the edition after the update: $(cat "$LOGS/after/rules.txt")"
if ! head -n 1 "$LOGS/after/edition.txt" | grep -qx 'family-rules: Our family rules' ||
    ! grep -q 'salary=250' "$LOGS/after/edition.txt"; then
    fail "the edition does not load after the update: $(cat "$LOGS/after/edition.txt")"
fi
echo "ok: the edition is listed and loads (salary=250)"
cmp "$LOGS/kept/settings.json" "$TARGET$DATA/settings.json" || fail "the settings file changed in the update"
cmp "$LOGS/kept/family-rules.toml" "$TARGET$DATA/editions/family-rules.toml" ||
    fail "the edition's file changed in the update"
cmp "$LOGS/kept/config.toml" "$TARGET/etc/board-banker/config.toml" || fail "the config changed in the update"
as_banker "$VENV/bin/python" -c '
from ui.settings import Settings
settings, problems = Settings.load()
assert not problems, problems
assert (settings.language, settings.sounds, settings.voice_volume, settings.bid_step, settings.motion) == \
    ("pl", False, 3, 50, False), settings' || fail "the new app does not read the settings as saved"
echo "ok: the settings file, the edition's file and the config byte-identical; the new app reads the settings"
if cmp -s "$LOGS/before/installed-from" "$LOGS/after/installed-from"; then
    fail "the installed-from stamp did not change"
fi
echo "installed before: $(cat "$LOGS/before/version.txt"), $(tr '\n' ' ' <"$LOGS/before/installed-from")"
echo "installed after:  $(cat "$LOGS/after/version.txt"), $(tr '\n' ' ' <"$LOGS/after/installed-from")"
# Every file of the packages that the venv has at the same place is this checkout's copy.
in_chroot "$VENV/bin/python" - "$SRC" "$OLD_SRC" <<'EOF' || fail "the installed app is not this checkout's"
import importlib, sys
from pathlib import Path

new, old = Path(sys.argv[1]), Path(sys.argv[2])
compared = changed = 0
wrong = []
for package in ("banker", "hardware", "ui"):
    installed = Path(importlib.import_module(package).__file__).parent
    for source in sorted((new / package).rglob("*")):
        rel = source.relative_to(new / package)
        if not source.is_file() or "__pycache__" in rel.parts or not (installed / rel).is_file():
            continue
        compared += 1
        if (installed / rel).read_bytes() != source.read_bytes():
            wrong.append(f"{package}/{rel}")
        before = old / package / rel
        changed += not before.is_file() or before.read_bytes() != source.read_bytes()
if wrong or compared < 50:
    sys.exit(f"installed files unlike this checkout's ({compared} compared): {wrong[:20]}")
print(f"ok: the {compared} installed files of banker/, hardware/ and ui/ are this checkout's; "
      f"{changed} of them differ from the commit before's")
EOF
phase_done "checks"

print_timings
echo "chroot update test: passed"
