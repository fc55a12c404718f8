#!/usr/bin/env bash
# The Pi install on arm64, under emulation: a fresh Debian 12 or 13 arm64 root
# made with `debootstrap --arch=arm64 --variant=minbase bookworm|trixie` (its
# packages cached as a tarball, so a rerun does not fetch them again), this checkout
# copied into it, and deploy/install.sh run inside with chroot exactly as on a
# Pi, with no options (the Pi-only steps skip themselves and say why: the root
# has no /proc/device-tree/model and no running systemd). Every ARM program
# runs through qemu-user (binfmt_misc). Then it checks what a family's Pi
# would have: the aarch64 Kivy wheel, a working lgpio (its C extension built
# for aarch64, loaded, gpiochip_open there: from PyPI's wheel on Debian 12's
# Python 3.11, built from its source on Debian 13's 3.13), the engine compiled by ARM's
# gcc and loaded as ARM code, espeak-ng speaking each language (measured with
# sox), the catalogues and Babel's data formatting as they do here, banker
# --help, banker simulate --games 5 playing the same games as here; and it
# renders the first shots of `banker app --tour` inside the root with the
# arm64 Mesa (llvmpipe) and compares them with the same shots rendered here.
# Each step's time is printed at the end.
#
# Usage: sudo tests/deploy/arm64_install.sh [--release bookworm|trixie] [--keep]
#   --release  the Debian release: bookworm (12, the default; Raspberry Pi OS
#              "Legacy") or trixie (13; today's Raspberry Pi OS)
#   --keep     leave the root folder for a look afterwards (its path is printed)
# Needs root, debootstrap, qemu-user-static and binfmt-support (apt-get
# install debootstrap qemu-user-static binfmt-support), sox, the Debian
# mirror and PyPI, and a Python with this checkout's test tools for the
# shots rendered here (BANKER_PYTHON; default .venv/bin/python, which
# scripts/test.sh makes). BANKER_TEST_CACHE (default
# /var/cache/board-banker-tests) keeps the debootstrap tarball
# (<release>-arm64-minbase.tgz);
# BANKER_ARM64_SHOTS (default 16) is how many tour shots are compared.
# Exit status: 0 passed, 1 a check failed, 2 cannot run here.
set -Eeuo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=chroot_common.sh source-path=SCRIPTDIR
source "$REPO/tests/deploy/chroot_common.sh"
parse_options "$@"
cannot() { echo "arm64_install.sh: cannot run here: $*" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || cannot "must run as root (debootstrap, chroot, mount)"
for tool in debootstrap chroot sox; do
    command -v "$tool" >/dev/null || cannot "$tool is not installed (apt-get install $tool)"
done
HOST_PYTHON=${BANKER_PYTHON:-$REPO/.venv/bin/python}
"$HOST_PYTHON" -c 'import kivy, numpy, PIL' 2>/dev/null ||
    cannot "$HOST_PYTHON lacks kivy, numpy or pillow (run scripts/test.sh once, or set BANKER_PYTHON)"
SHOTS=${BANKER_ARM64_SHOTS:-16}
VENV=/opt/board-banker/venv

# ARM programs run through qemu-user, registered with the kernel's binfmt_misc.
if ! mountpoint -q /proc/sys/fs/binfmt_misc; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
        cannot "binfmt_misc could not be mounted (mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc)"
fi
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] && command -v update-binfmts >/dev/null; then
    update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
fi
grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null ||
    cannot "arm64 programs are not registered with binfmt_misc (apt-get install qemu-user-static binfmt-support)"

trap cleanup EXIT
trap 'printf "arm64_install.sh: FAILED: a command failed at line %s (exit status %s)\n" "$LINENO" "$?" >&2' ERR

make_work
debootstrap_root arm64
[ "$(chroot "$TARGET" /usr/bin/uname -m)" = aarch64 ] || fail "the root's programs do not run as aarch64"
echo "ok: the root runs aarch64 programs ($(chroot "$TARGET" /usr/bin/dpkg --print-architecture))"

phase "prepare the root and copy the checkout"
prepare_root
phase_done "mounts and the checkout copied"

phase "install.sh inside the Debian $RELEASE_NUMBER arm64 root, as on a Pi"
# Each line of the installer's output with the seconds since it started: the installer's own steps
# ("== ...") are timed from it below.
if ! in_chroot "$SRC/deploy/install.sh" 2>&1 |
    { begun=$SECONDS; while IFS= read -r line; do printf '%5d %s\n' $((SECONDS - begun)) "$line"; done; } |
    tee "$LOGS/install.log"; then
    fail "install.sh failed inside the arm64 root after $((SECONDS - PHASE_START)) s (its output is above)"
fi
grep -q ' board-banker install: [0-9]* change' "$LOGS/install.log" || fail "install.sh reported no changes"
grep -q 'skipped    serial console off .*not a Raspberry Pi' "$LOGS/install.log" ||
    fail "the Pi-only boot steps were not skipped with their reason"
grep -q 'installed  board-banker .*(compiled engine)' "$LOGS/install.log" ||
    fail "install.sh installed the pure-Python engine after $((SECONDS - PHASE_START)) s: mypyc's compile failed under emulation (see above)"
phase_done "install.sh, no options (apt, venv, pip, mypyc with ARM's gcc)"
# The installer's steps, from the seconds on its lines.
awk '$2 == "==" { if (name != "") printf "%5ds    install.sh: %s\n", $1 - at, name; at = $1; name = substr($0, index($0, "==") + 3) }
     END { if (name != "") printf "%5ds    install.sh: %s\n", $1 - at, name }' "$LOGS/install.log" >"$LOGS/install-steps.txt"
while IFS= read -r line; do TIMINGS+=("$line"); done <"$LOGS/install-steps.txt"

phase "install.sh again: must change nothing"
in_chroot "$SRC/deploy/install.sh" 2>&1 | tee "$LOGS/install-2.log"
expect_no_changes "$LOGS/install-2.log" "the second run"
phase_done "install.sh, second run"

phase "what the Pi would have"
in_chroot "$VENV/bin/python" "$SRC/tests/deploy/probe_install.py" --voice /tmp/voice >"$LOGS/probe.json" ||
    fail "the probe failed inside the root"
(cd /tmp && "$HOST_PYTHON" "$REPO/tests/deploy/probe_install.py") >"$LOGS/probe-here.json" ||
    fail "the probe failed on this machine"
"$HOST_PYTHON" - "$LOGS/probe.json" "$LOGS/probe-here.json" "$TARGET" <<'EOF' || fail "the arm64 install lacks something (above)"
import json, sys
arm, here, root = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
problems = []
def check(ok, good, bad):
    print(("ok: " + good) if ok else ("MISSING: " + bad))
    problems.extend([] if ok else [bad])
check(arm["machine"] == "aarch64", f"the root's Python {arm['python']} runs on aarch64", f"the machine is {arm['machine']}")
wheel = arm["wheels"]["Kivy"]
check(wheel is not None and any(t.endswith("_aarch64") for t in wheel["tags"]),
      f"Kivy {wheel and wheel['version']} from the wheel {wheel and ', '.join(wheel['tags'])}",
      f"no aarch64 wheel of Kivy: {wheel}")
engine = arm["engine"]
arm_modules = [m for m, machine in engine["compiled"].items() if machine == "aarch64"]
check(len(arm_modules) >= 10 and "banker.game" in arm_modules and not engine["pure"]
      and set(engine["compiled"]) == set(here["engine"]["compiled"])
      and all(m == "aarch64" for m in engine["mypyc_runtime"].values()) and engine["mypyc_runtime"],
      f"the engine compiled for aarch64 and loaded as such: {len(arm_modules)} modules and mypyc's runtime",
      f"the compiled engine: {engine} (here: {sorted(here['engine']['compiled'])})")
check(arm["words"] == here["words"], "the catalogues and Babel's data: every phrase, count and amount as here",
      f"the words differ: {json.dumps(arm['words'], ensure_ascii=False)}")
voice = arm.get("voice", {})
check(voice.get("espeak-ng") is not None and all(voice.get(l) for l in arm["words"]),
      f"espeak-ng rendered a phrase in each language", f"espeak-ng: {voice}")
sys.exit(1 if problems else 0)
EOF
lgpio_verdict "$LOGS/probe.json" aarch64 || fail "the arm64 install has no working lgpio"
for language in en pl cs ru; do
    wav=$TARGET/tmp/voice/voice-$language.wav
    stats=$(sox "$wav" -n stat 2>&1)
    length=$(awk '/^Length \(seconds\)/ { print $3 }' <<<"$stats")
    rms=$(awk '/^RMS +amplitude/ { print $3 }' <<<"$stats")
    awk -v l="$length" -v r="$rms" 'BEGIN { exit !(l > 1 && r > 0.02) }' ||
        fail "espeak-ng's $language phrase is silent or short: $length s, RMS $rms"
    echo "ok: espeak-ng speaks $language: $length s, RMS amplitude $rms"
done
in_chroot /usr/local/bin/banker --help >"$LOGS/help.txt" || fail "banker --help failed"
grep -q 'simulate' "$LOGS/help.txt" || fail "banker --help does not list the commands"
echo "ok: banker --help"
# The games as game scripts, action by action: the compiled arm64 engine must play what this machine's plays.
as_banker banker simulate --games 5 --seed 7 --save-scripts /tmp/games >"$LOGS/simulate.txt" ||
    fail "banker simulate failed inside the root"
(cd "$WORK" && "$HOST_PYTHON" -m banker simulate --games 5 --seed 7 --save-scripts "$WORK/games-here") \
    >"$LOGS/simulate-here.txt"
diff -r "$WORK/games-here" "$TARGET/tmp/games" || fail "banker simulate played other games on arm64 than here"
echo "ok: banker simulate --games 5 as the banker user, the same $(find "$WORK/games-here" -type f | wc -l) game scripts as here"
grep -v -e 'per second' -e '^seconds:' "$LOGS/simulate.txt"
phase_done "checks (the probe, espeak-ng, banker --help, banker simulate --games 5)"

phase "the app's first $SHOTS tour shots, inside the root (arm64 Mesa, llvmpipe)"
in_chroot /usr/bin/timeout 3600 /usr/local/bin/banker app --tour /tmp/shots --tour-shots "$SHOTS" \
    >"$LOGS/tour.log" 2>&1 || { tail -n 30 "$LOGS/tour.log" >&2; fail "banker app --tour failed inside the root"; }
phase_done "banker app --tour --tour-shots $SHOTS, emulated arm64"

phase "the same shots here ($(uname -m))"
(cd "$WORK" && env -u KIVY_METRICS_DENSITY "$HOST_PYTHON" -m banker app --tour "$WORK/shots-here" \
    --tour-shots "$SHOTS") >"$LOGS/tour-here.log" 2>&1 ||
    { tail -n 30 "$LOGS/tour-here.log" >&2; fail "banker app --tour failed here"; }
phase_done "banker app --tour --tour-shots $SHOTS, $(uname -m)"

phase "compare the shots"
"$HOST_PYTHON" "$REPO/tests/deploy/compare_shots.py" "$WORK/shots-here" "$TARGET/tmp/shots" --diff "$WORK/diff" ||
    fail "the arm64 shots differ from this machine's (the root's shots are in $TARGET/tmp/shots; keep them with --keep)"
phase_done "compare"

print_timings
echo "arm64 install test: passed"
