# shellcheck shell=bash
# Shared by run.sh, test.sh and test-dev.sh: make sure a virtual environment exists with the app installed
# in it as the Pi installs it: a wheel built from a clean copy of the sources (deploy/install.sh's way,
# the engine compiled by mypyc), then installed with pip.
# Usage: source scripts/_venv.sh MODE
#   ""        the app in .venv (run.sh; $BANKER_VENV overrides the folder)
#   "[test]"  the suite's own venv, .venv-test ($BANKER_TEST_VENV): the app's wheel with the test tools, the
#             pure-Python engine's wheel beside it (.venv-test/pure-engine), and the import check
#             (tests/import_check.py), which fails any import of banker, ui or hardware from the checkout
#   "dev"     the app in .venv with the test tools, for the developers' quick loop from the checkout
#             (scripts/test-dev.sh), which imports the sources and checks nothing of the package
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODE="${1:-}"
case $MODE in
    "[test]") VENV="${BANKER_TEST_VENV:-$ROOT/.venv-test}" ;;
    "" | dev) VENV="${BANKER_VENV:-$ROOT/.venv}" ;;
    *) echo "_venv.sh: unknown mode \"$MODE\" (\"\", \"[test]\" or \"dev\")" >&2; exit 2 ;;
esac

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# The apt packages a fresh Debian 12 / Raspberry Pi OS needs: venv support,
# and the GL/EGL and mtdev libraries Kivy loads.
need_apt=()
python3 -c 'import venv, ensurepip' 2>/dev/null || need_apt+=(python3-venv)
# A C compiler and the Python headers let pip compile the engine (setup.py);
# without them it installs as pure Python, slower but the same.
command -v gcc >/dev/null || need_apt+=(gcc)
python3 -c 'import os, sysconfig; raise SystemExit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' 2>/dev/null \
    || need_apt+=(python3-dev)
# ldconfig is in /sbin, which is not on an ordinary user's PATH on Debian.
ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
for lib in libGL.so.1 libEGL.so.1 libmtdev.so.1; do
    "$ldconfig" -p 2>/dev/null | grep -q "$lib" || need_apt+=("$(case $lib in libGL*) echo libgl1;; libEGL*) echo libegl1;; *) echo libmtdev1;; esac)")
done
# want PACKAGE COMMAND...: install PACKAGE unless one of the COMMANDs is on the PATH already.
# The test tools go in without their recommended packages (valgrind's gdb, systemd's dbus...): the suite
# uses the programs alone, and in a fresh root (scripts/test-debian13.sh) each package is minutes of CI.
need_tools=()
want() {
    local package=$1 command
    shift
    for command in "$@"; do
        command -v "$command" >/dev/null && return 0
    done
    if [ "${want_tool:-0}" = 1 ]; then need_tools+=("$package"); else need_apt+=("$package"); fi
}
# espeak-ng: the banker's voice (ui/voice.py; without it the app is silent and says so).
want espeak-ng espeak-ng
# The tests alone ("[test]") also use these programs; a test whose program is missing would skip, so all are
# installed and the suite skips nothing for want of a package (docs/performance.md, "The test suite").
if [ "$MODE" != "" ]; then
    # evdev (the "hid" reader's library, tests/hardware/test_hid.py) has no wheels on PyPI: pip builds it with
    # gcc and the Python headers (above), the C library's headers and the kernel's input headers, which come
    # with libc6-dev (gcc brings it where recommended packages are installed).
    [ -f /usr/include/stdio.h ] && [ -f /usr/include/linux/input-event-codes.h ] || need_apt+=(libc6-dev)
    want_tool=1
    want chromium chromium chromium-browser  # shows the phone page headless (tests/ui/test_phone_page.py)
    want sox sox                             # measures the voice's WAV files (tests/ui/test_voice.py)
    want shellcheck shellcheck               # checks the deploy scripts (tests/deploy/test_deploy.py)
    want systemd systemd-analyze             # `systemd-analyze verify` on the unit (tests/deploy/test_deploy.py)
    want valgrind valgrind                   # counts instructions (tests/test_bench_engine.py, bench_instructions.py)
    want git git                             # bench_engine.py --against checks out REV (tests/test_bench_engine.py)
    want strace strace                       # counts the bytes written (tests/test_bench_writes.py, bench_writes.py)
    # The pcsc reader against the real PC/SC daemon and its virtual reader driver (tests/hardware/test_pcsc.py);
    # pyscard, in the [test] extra, has no Linux wheels: pip builds it with swig, gcc and libpcsclite-dev.
    [ -x /usr/sbin/pcscd ] || want pcscd pcscd  # /usr/sbin: not on an ordinary user's PATH on Debian
    [ -e /usr/lib/pcsc/drivers/serial/libifdvpcd.so ] || need_tools+=(vsmartcard-vpcd)
    want swig swig
    want fuse3 fusermount3                   # the power-cut filesystem, libfuse 3 (tests/powercutfs.py)
    [ -e /usr/include/PCSC/winscard.h ] || need_tools+=(libpcsclite-dev)
    # BANKER_SLOW_TESTS=1: the installer's tests build Debian roots (debootstrap), arm64 ones under emulation.
    if [ "${BANKER_SLOW_TESTS:-}" = 1 ]; then
        want debootstrap debootstrap
        if [ "$(uname -m)" != aarch64 ]; then
            want qemu-user-static qemu-aarch64-static qemu-aarch64
            want binfmt-support update-binfmts
        fi
    fi
fi
if [ $((${#need_apt[@]} + ${#need_tools[@]})) -gt 0 ]; then
    echo "Installing system packages: ${need_apt[*]} ${need_tools[*]}"
    as_root apt-get -o DPkg::Lock::Timeout=600 update -qq
    if [ ${#need_apt[@]} -gt 0 ]; then
        as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
            "${need_apt[@]}" >/dev/null
    fi
    if [ ${#need_tools[@]} -gt 0 ]; then
        as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
            --no-install-recommends "${need_tools[@]}" >/dev/null
    fi
fi

python3 - <<'PY' || { echo "Board Banker needs Python 3.11 or newer" >&2; exit 1; }
import sys
sys.exit(0 if sys.version_info >= (3, 11) else 1)
PY

if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q --upgrade pip
fi

# The sources deploy/install.sh copies to build from (its stage_source; tests/test_wheel.py checks that the
# two lists agree): only the package's own files, never a build/ left by an earlier build, whose stale
# files would land in the wheel.
STAGE_ITEMS=(pyproject.toml setup.py README.md banker hardware ui)
for f in "$ROOT"/LICENSE*; do
    if [ -e "$f" ]; then STAGE_ITEMS+=("$(basename "$f")"); fi
done

# The staged sources as a tar stream on standard output.
stage_tar() {
    tar -C "$ROOT" --exclude=__pycache__ --exclude='*.pyc' --exclude='*.so' -cf - "${STAGE_ITEMS[@]}"
}

# build_wheel OUT [pure]: the app's wheel from a clean copy of the sources, into the empty folder OUT, with
# the checkout's commit stamped in it (setup.py); "pure" builds the pure-Python engine (BANKER_PURE=1).
build_wheel() {
    local out=$1 pure=${2:-} stage commit=""
    stage=$(mktemp -d)
    stage_tar | tar -C "$stage" -xf -
    commit=$(git -C "$ROOT" rev-parse --short=7 HEAD 2>/dev/null || true)
    rm -rf "$out"
    mkdir -p "$out"
    if ! env BANKER_BUILD_COMMIT="$commit" ${pure:+BANKER_PURE=1} \
        "$VENV/bin/python" -m pip wheel -q --no-deps -w "$out" "$stage"; then
        rm -rf "$stage"
        echo "_venv.sh: the wheel could not be built (pip's messages are above)" >&2
        return 1
    fi
    rm -rf "$stage"
}

# What the wheels are built from: every staged file and the engine's kind. Unchanged, nothing is rebuilt.
fingerprint=$({
    stage_tar | tar -t -v --full-time 2>/dev/null | awk '{ print $3, $4, $5, $6 }'
    git -C "$ROOT" rev-parse HEAD 2>/dev/null || true
    echo "BANKER_PURE=${BANKER_PURE:-} mode=$MODE"
} | sha256sum | cut -c1-64)
stamp="$VENV/.installed"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$fingerprint" ]; then
    :  # installed from these very sources already
else
    echo "Building the app's wheel (mypyc compiles the engine: a few minutes) and installing it into $VENV"
    rm -f "$stamp"
    build_wheel "$VENV/wheel" || exit 1
    WHEEL_FILE=$(ls "$VENV"/wheel/*.whl)
    extras=""
    if [ "$MODE" != "" ]; then extras="[test]"; fi
    "$VENV/bin/python" -m pip install -q "$WHEEL_FILE$extras"
    # The same version number may hold newer code (a rebuilt checkout): replace it, as the installer does.
    "$VENV/bin/python" -m pip install -q --no-deps --force-reinstall "$WHEEL_FILE"
    if [ "$MODE" = "[test]" ]; then
        # The engine as the installer falls back to it without a C compiler: its own wheel, installed beside
        # the app in a folder that the engine's second run puts first on PYTHONPATH (scripts/test.sh).
        build_wheel "$VENV/wheel-pure" pure || exit 1
        rm -rf "$VENV/pure-engine"
        "$VENV/bin/python" -m pip install -q --no-deps --target "$VENV/pure-engine" "$VENV"/wheel-pure/*.whl
    fi
    echo "$fingerprint" >"$stamp"
fi
WHEEL_FILE=$(ls "$VENV"/wheel/*.whl)
if [ "$MODE" = "[test]" ]; then
    # The import check: every Python of this venv (the suite and each process it starts) refuses banker, ui
    # and hardware from the checkout, and writes what it refused to the log that tests/conftest.py reads.
    site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    cp "$ROOT/tests/import_check.py" "$site/_banker_import_check.py"
    printf 'import _banker_import_check; _banker_import_check.install(%s, %s)\n' \
        "$("$VENV/bin/python" -c 'import sys; print(repr(sys.argv[1]))' "$ROOT")" \
        "$("$VENV/bin/python" -c 'import sys; print(repr(sys.argv[1]))' "$VENV/import-check.log")" \
        >"$site/_banker_import_check.pth"
    export BANKER_WHEEL="$WHEEL_FILE"
    BANKER_PURE_WHEEL=$(ls "$VENV"/wheel-pure/*.whl)
    export BANKER_PURE_WHEEL
    export BANKER_PURE_ENGINE="$VENV/pure-engine"
fi
