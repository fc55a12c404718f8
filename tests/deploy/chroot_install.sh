#!/usr/bin/env bash
# The slow end-to-end test of deploy/: a fresh Debian 12 or 13 root made with
# `debootstrap --variant=minbase bookworm|trixie` (its packages cached as a
# tarball, so a rerun does not fetch them again), this checkout copied into it, and
# deploy/install.sh run inside with chroot in test mode (no boot config, no
# services); then the app, the user, the files, a second run that must change
# nothing, a third run from outside with --root, update.sh and uninstall.sh.
#
# Usage: sudo tests/deploy/chroot_install.sh [--release bookworm|trixie] [--keep]
#   --release  the Debian release: bookworm (12, the default) or trixie (13)
#   --keep     leave the root folder for a look afterwards (its path is printed)
# Needs root, debootstrap (apt-get install debootstrap), the Debian mirror and
# PyPI. The mirror is the one apt uses on this machine; BANKER_DEBIAN_MIRROR
# overrides it. BANKER_TEST_CACHE (default /var/cache/board-banker-tests)
# keeps the debootstrap tarball (<release>-<arch>-minbase.tgz).
# Exit status: 0 passed, 1 a check failed, 2 cannot run here.
set -Eeuo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=chroot_common.sh source-path=SCRIPTDIR
source "$REPO/tests/deploy/chroot_common.sh"
parse_options "$@"
[ "$(id -u)" -eq 0 ] || { echo "chroot_install.sh: must run as root" >&2; exit 2; }
command -v debootstrap >/dev/null ||
    { echo "chroot_install.sh: debootstrap is not installed (apt-get install debootstrap)" >&2; exit 2; }

trap cleanup EXIT
trap 'printf "chroot_install.sh: FAILED: a command failed at line %s (exit status %s)\n" "$LINENO" "$?" >&2' ERR

make_work

debootstrap_root "$(dpkg --print-architecture)"

phase "prepare the root and copy the checkout"
prepare_root
phase_done "mounts and the checkout copied"

phase "install.sh inside the chroot (first run)"
in_chroot "$SRC/deploy/install.sh" --no-boot-config --no-services 2>&1 | tee "$LOGS/install-1.log"
grep -q '^board-banker install: [0-9]* change' "$LOGS/install-1.log" || fail "the first run reported no changes"
grep -q 'skipped    serial console off .*--no-boot-config' "$LOGS/install-1.log" ||
    fail "the boot configuration step was not skipped with its reason"
phase_done "install.sh, first run (apt, venv, pip, mypyc)"

phase "install.sh inside the chroot (second run: must change nothing)"
in_chroot "$SRC/deploy/install.sh" --no-boot-config --no-services 2>&1 | tee "$LOGS/install-2.log"
expect_no_changes "$LOGS/install-2.log" "the second run"
phase_done "install.sh, second run"

phase "install.sh --root from outside (third run: must change nothing)"
# The copy's own install.sh, run by this machine's bash: the copy is the same
# source as installed, while this checkout may have moved on meanwhile.
"$TARGET$SRC/deploy/install.sh" --root "$TARGET" 2>&1 | tee "$LOGS/install-3.log"
expect_no_changes "$LOGS/install-3.log" "the run with --root"
phase_done "install.sh --root, third run"

phase "checks"
in_chroot /opt/board-banker/venv/bin/banker --help >"$LOGS/help.txt" || fail "banker --help failed"
grep -q 'app' "$LOGS/help.txt" || fail "banker --help does not list the app command"
echo "ok: /opt/board-banker/venv/bin/banker --help"
in_chroot banker rules | grep -q classic || fail "/usr/local/bin/banker rules does not list classic"
echo "ok: /usr/local/bin/banker rules"
as_banker banker simulate --rules classic --games 3 --players 3 --seed 1 >/dev/null ||
    fail "the banker user cannot run the app's engine"
echo "ok: the banker user runs banker simulate"
engine=$(in_chroot /opt/board-banker/venv/bin/python -c \
    'import banker.game as g; print("compiled" if g.__file__.endswith(".so") else "pure")')
[ "$engine" = compiled ] || fail "the engine was not compiled (gcc and python3-dev are installed)"
echo "ok: the engine is compiled with mypyc"
in_chroot /opt/board-banker/venv/bin/python -c 'import kivy, gpiozero, serial' 2>/dev/null ||
    fail "kivy, gpiozero or pyserial is missing from the venv"
echo "ok: kivy, gpiozero and pyserial import"
# lgpio: the real one (its C extension built for this machine, loaded, reached by a call), not PyPI's
# empty lgpio.py, which imports too.
in_chroot /opt/board-banker/venv/bin/python "$SRC/tests/deploy/probe_install.py" >"$LOGS/probe.json" ||
    fail "the probe failed inside the root"
lgpio_verdict "$LOGS/probe.json" "$(uname -m)" || fail "lgpio does not work in the venv"

home=$(in_chroot getent passwd banker | cut -d: -f6)
[ "$home" = /var/lib/board-banker ] || fail "the banker user's home is '$home'"
# Numeric: the names in the root's passwd mean nothing to stat on this machine.
[ "$(stat -c '%u %a' "$TARGET$home")" = "$(in_chroot id -u banker) 750" ] || fail "the home is not the banker's with mode 750"
groups=" $(in_chroot id -nG banker) "
for g in dialout gpio input video render audio spi; do
    [[ $groups == *" $g "* ]] || fail "banker is not in group $g (groups:$groups)"
done
echo "ok: user banker, home $home, groups:$groups"

cmp -s "$REPO/deploy/board-banker.service" "$TARGET/etc/systemd/system/board-banker.service" ||
    fail "the unit file is not deploy/board-banker.service"
[ -L "$TARGET/etc/systemd/system/multi-user.target.wants/board-banker.service" ] || fail "the unit is not enabled"
cmp -s "$REPO/deploy/99-board-banker.rules" "$TARGET/etc/udev/rules.d/99-board-banker.rules" ||
    fail "the udev rule is not deploy/99-board-banker.rules"
cmp -s "$REPO/hardware/config.example.toml" "$TARGET/etc/board-banker/config.toml" ||
    fail "/etc/board-banker/config.toml is not the example config"
grep -q 'subject.user == "banker"' "$TARGET/etc/polkit-1/rules.d/50-board-banker.rules" || fail "no polkit rule"
echo "ok: unit (enabled), udev rule, polkit rule, config"
if in_chroot sh -c 'command -v systemd-analyze' >/dev/null; then
    in_chroot systemd-analyze verify --man=no /etc/systemd/system/board-banker.service ||
        fail "systemd-analyze verify found problems in the installed unit"
    echo "ok: systemd-analyze verify (inside the chroot)"
fi
as_banker /opt/board-banker/bin/board-banker-launch --print >"$LOGS/launch.txt" || fail "the launcher failed"
grep -qx 'SDL_VIDEODRIVER=kmsdrm' "$LOGS/launch.txt" || fail "the launcher does not select KMS/DRM"
grep -qx 'exec /opt/board-banker/venv/bin/banker app --fullscreen --config /etc/board-banker/config.toml' \
    "$LOGS/launch.txt" || fail "the launcher does not run the app as expected: $(cat "$LOGS/launch.txt")"
echo "ok: the launcher, as the banker user"
phase_done "checks"

phase "the installed app's tour: its first shots drawn inside the root"
# The tour ships with the app (tests/test_wheel.py): the installed banker draws its first screens offscreen
# with the root's Mesa, as tests/deploy/arm64_install.sh does on emulated arm64 with more shots.
in_chroot /usr/bin/timeout 900 /usr/local/bin/banker app --tour /tmp/shots --tour-shots 4 >"$LOGS/tour.log" 2>&1 ||
    { tail -n 30 "$LOGS/tour.log" >&2; fail "banker app --tour failed on the installed app"; }
shots=$(find "$TARGET/tmp/shots" -name '*.png' | wc -l)
[ "$shots" -ge 4 ] || fail "the installed app's tour drew $shots pictures, not 4"
echo "ok: the installed app's tour drew $shots pictures"
phase_done "banker app --tour --tour-shots 4 on the installed app"

phase "update.sh"
in_chroot "$SRC/deploy/update.sh" --no-services 2>&1 | tee "$LOGS/update-1.log"
grep -q 'already up to date' "$LOGS/update-1.log" || fail "update.sh with nothing new did something"
# A newer checkout: any change to the packaged sources makes a new fingerprint.
# BANKER_PURE=1 keeps this rebuild quick and exercises the pure-Python install.
printf '\n<!-- update test -->\n' >>"$TARGET$SRC/README.md"
in_chroot env BANKER_PURE=1 "$SRC/deploy/update.sh" --no-services 2>&1 | tee "$LOGS/update-2.log"
grep -q 'installed  board-banker .*(pure-Python engine)' "$LOGS/update-2.log" || fail "update.sh did not reinstall the app"
grep -q 'kept       /etc/board-banker/config.toml' "$LOGS/update-2.log" || fail "update.sh did not keep the config"
in_chroot /opt/board-banker/venv/bin/banker --help >/dev/null || fail "banker --help failed after the update"
# A wheel instead of the checkout (--wheel), then the same wheel again.
in_chroot env BANKER_PURE=1 /opt/board-banker/venv/bin/python -m pip wheel -q --no-deps -w /tmp/wheel "$SRC"
wheel=$(cd "$TARGET/tmp/wheel" && ls board_banker-*.whl)
in_chroot "$SRC/deploy/update.sh" --no-services --wheel "/tmp/wheel/$wheel" 2>&1 | tee "$LOGS/update-3.log"
grep -q "installed  board-banker .* from wheel $wheel" "$LOGS/update-3.log" || fail "update.sh --wheel did not install the wheel"
in_chroot "$SRC/deploy/update.sh" --no-services --wheel "/tmp/wheel/$wheel" 2>&1 | tee "$LOGS/update-4.log"
grep -q 'already up to date' "$LOGS/update-4.log" || fail "update.sh with the same wheel did something"
in_chroot /opt/board-banker/venv/bin/banker --help >/dev/null || fail "banker --help failed after the wheel update"
echo "ok: update.sh (nothing new, a newer checkout, a wheel, the same wheel)"
phase_done "update.sh four times (two pure-Python rebuilds)"

phase "uninstall.sh"
as_banker sh -c 'mkdir -p ~/.local/share/board-banker && echo game >~/.local/share/board-banker/games.sqlite3'
in_chroot "$SRC/deploy/uninstall.sh" --no-services 2>&1 | tee "$LOGS/uninstall-1.log"
for gone in /opt/board-banker /usr/local/bin/banker /etc/systemd/system/board-banker.service \
    /etc/udev/rules.d/99-board-banker.rules /etc/polkit-1/rules.d/50-board-banker.rules; do
    if [ -e "$TARGET$gone" ] || [ -L "$TARGET$gone" ]; then fail "uninstall.sh left $gone"; fi
done
[ -f "$TARGET/var/lib/board-banker/.local/share/board-banker/games.sqlite3" ] || fail "uninstall.sh lost the games"
[ -f "$TARGET/etc/board-banker/config.toml" ] || fail "uninstall.sh removed the config"
in_chroot "$SRC/deploy/uninstall.sh" --no-services 2>&1 | tee "$LOGS/uninstall-2.log"
grep -q 'nothing to remove' "$LOGS/uninstall-2.log" || fail "a second uninstall.sh did something"
in_chroot "$SRC/deploy/uninstall.sh" --no-services --purge 2>&1 | tee "$LOGS/uninstall-3.log"
if in_chroot getent passwd banker >/dev/null; then fail "uninstall.sh --purge left the banker user"; fi
if [ -e "$TARGET/var/lib/board-banker" ] || [ -e "$TARGET/etc/board-banker" ]; then
    fail "uninstall.sh --purge left the games or the config"
fi
echo "ok: uninstall.sh keeps the games and the config, --purge removes them"
phase_done "uninstall.sh three times"

print_timings
echo "chroot install test: passed"
