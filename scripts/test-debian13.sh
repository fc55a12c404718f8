#!/usr/bin/env bash
# The whole suite on Debian 13 "trixie" and its Python 3.13, on a Debian 12
# machine (which has no Python 3.13): a fresh `debootstrap --variant=minbase
# trixie` root, this checkout copied into it, and the README's own test command
# `./scripts/test.sh` run inside it with chroot and a clean environment, so the
# repo's scripts install what the suite needs there (python3-venv, gcc,
# chromium, espeak-ng, sox, the GL libraries...) as on a fresh Debian 13 machine.
#
# Usage: sudo scripts/test-debian13.sh [PYTEST ARGS...]
#   e.g. sudo scripts/test-debian13.sh tests/ui -n 0
# The arguments go to scripts/test.sh inside the root. Exit status: the suite's
# (scripts/test.sh's); 2 when it cannot run here (not root, no debootstrap).
#
# Needs root (debootstrap, chroot, mount), debootstrap (installed with apt when
# missing), the Debian mirror apt
# uses here (BANKER_DEBIAN_MIRROR overrides it) and PyPI. The packages
# debootstrap fetches are kept in $BANKER_TEST_CACHE/trixie-amd64-minbase.tgz
# (default folder /var/cache/board-banker-tests, shared with the installer's
# tests); the root itself is made afresh from it on every run, so every run
# installs the suite's packages as a fresh machine would. BANKER_KEEP_ROOT=1
# keeps the root afterwards for a look (its path is printed). BANKER_SUITE_AFTER=PID
# makes the suite itself wait for that process to end (.ci/run, below).
set -Eeuo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cannot() { echo "test-debian13.sh: cannot run here: $*" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || cannot "must run as root (debootstrap, chroot, mount)"
# debootstrap, like the suite's own tools (scripts/_venv.sh), is installed when missing.
if ! command -v debootstrap >/dev/null; then
    echo "Installing system packages: debootstrap"
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq debootstrap >/dev/null
fi
for tool in debootstrap chroot git; do
    command -v "$tool" >/dev/null || cannot "$tool is not installed (apt-get install $tool)"
done

# The root's making, mounts, checkout copy, clean-environment commands and the
# cleanup that never deletes through a mount are the installer tests' own.
# shellcheck source=tests/deploy/chroot_common.sh source-path=SCRIPTDIR/..
source "$REPO/tests/deploy/chroot_common.sh"
KEEP=${BANKER_KEEP_ROOT:-0}  # (after chroot_common.sh, which may set its default)
# Beside prepare_root's mounts: /dev/shm (Chromium's shared memory; the bind of
# /dev does not carry the host's /dev/shm mount). It goes first, then the rest.
# shellcheck disable=SC2317  # (run by the EXIT trap)
cleanup_debian13() {
    local status=$?
    # Nothing here may end the script before cleanup has run: no errexit, no ERR trap.
    set +e
    trap - ERR
    if [ -n "$TARGET" ] && mountpoint -q "$TARGET/dev/shm"; then
        umount "$TARGET/dev/shm" || umount -l "$TARGET/dev/shm"
    fi
    (exit "$status")  # cleanup takes the script's exit status from $?
    cleanup
}
trap cleanup_debian13 EXIT
trap 'printf "test-debian13.sh: FAILED: a command failed at line %s (exit status %s)\n" "$LINENO" "$?" >&2' ERR

make_work
# The root is made as the installer's tests make theirs (tests/deploy/chroot_common.sh: the mirror, the
# cached <release>-<arch>-minbase.tgz of debootstrap's packages, the release checked).
RELEASE=trixie
RELEASE_NUMBER=13
debootstrap_root amd64

phase "prepare the root and copy the checkout"
prepare_root
mount --bind /dev/shm "$TARGET/dev/shm"
# A fresh machine has its checkout from `git clone`, and the suite uses git
# (tests/test_bench_engine.py compares against HEAD in a git worktree): the
# copy gets this checkout's history, its index set to HEAD, so the copied work
# tree shows as what it is, HEAD plus this checkout's uncommitted changes.
git clone --quiet --no-checkout --no-hardlinks "$REPO" "$WORK/clone"
mv "$WORK/clone/.git" "$TARGET$SRC/.git"
git -C "$TARGET$SRC" reset --quiet
# CI=true turns a missing tool into a failure instead of a skip (tests/ui/test_voice.py):
# it passes into the root with the network settings.
if [ -n "${CI:-}" ]; then NET_ENV+=("CI=$CI"); fi
# BANKER_TEST_PURE (scripts/test.sh: whether the engine's tests run once more on the pure engine) passes too.
if [ -n "${BANKER_TEST_PURE:-}" ]; then NET_ENV+=("BANKER_TEST_PURE=$BANKER_TEST_PURE"); fi
phase_done "mounts and the checkout copied"

phase "what a fresh Debian 13 machine has before scripts/test.sh"
# minbase has apt but no package lists, no git and no Python. A machine that
# cloned the checkout has git, which the suite uses (above); every Debian 13
# install but minbase (the standard system, Raspberry Pi OS) has python3, which
# scripts/_venv.sh runs to see what is missing.
in_chroot apt-get update -qq
in_chroot env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends git python3 >/dev/null
in_chroot python3 --version
phase_done "apt-get update; git and python3"

# scripts/test.sh is scripts/_venv.sh (the apt packages, .venv, the project
# built with mypyc) then mypy and pytest. The first part runs alone here, so
# that each is timed, and so that it may overlap another suite (below); the
# test command then finds everything installed and runs the type check and the
# tests.
status=0
phase "scripts/_venv.sh inside the Debian 13 root: what scripts/test.sh installs"
# shellcheck disable=SC2016  # ($0 and $@ are the inner shell's)
in_chroot bash -c 'cd "$0" && source scripts/_venv.sh "[test]"' "$SRC" || status=$?
phase_done "scripts/_venv.sh (apt, venv, pip, mypyc)"

if [ "$status" -eq 0 ]; then
    # BANKER_SUITE_AFTER=PID: the suite waits for that process to end (.ci/run
    # gives its suite on this machine's Python: the two suites do not share
    # the cores, while the root's making and installs overlap that suite).
    if [ -n "${BANKER_SUITE_AFTER:-}" ]; then
        phase "waiting for process $BANKER_SUITE_AFTER to end"
        while kill -0 "$BANKER_SUITE_AFTER" 2>/dev/null; do sleep 2; done
        phase_done "waiting for process $BANKER_SUITE_AFTER"
    fi
    phase "./scripts/test.sh $* inside the Debian 13 root"
    # shellcheck disable=SC2016  # ($0 and $@ are the inner shell's)
    in_chroot bash -c 'cd "$0" && exec ./scripts/test.sh "$@"' "$SRC" "$@" || status=$?
    phase_done "scripts/test.sh (mypy, pytest) on $(in_chroot python3 --version 2>&1)"
fi

print_timings
if [ "$status" -eq 0 ]; then
    echo "test-debian13.sh: the suite passed on Debian 13"
else
    echo "test-debian13.sh: the suite FAILED on Debian 13 (exit status $status)" >&2
fi
exit "$status"
