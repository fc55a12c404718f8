# shellcheck shell=bash
# Shared by run.sh and test.sh: make sure .venv exists with the project installed.
# Usage: source scripts/_venv.sh EXTRAS   (EXTRAS: "" or "[test]")
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${BANKER_VENV:-$ROOT/.venv}"

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
if [ "${1:-}" = "[test]" ]; then
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
    # The pcsc reader against the real PC/SC daemon and its virtual reader driver (tests/hardware/test_pcsc.py);
    # pyscard, in the [test] extra, has no Linux wheels: pip builds it with swig, gcc and libpcsclite-dev.
    [ -x /usr/sbin/pcscd ] || want pcscd pcscd  # /usr/sbin: not on an ordinary user's PATH on Debian
    [ -e /usr/lib/pcsc/drivers/serial/libifdvpcd.so ] || need_tools+=(vsmartcard-vpcd)
    want swig swig
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

stamp="$VENV/.installed$1"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
# A regular (not editable) install, so that the compiled engine lands in the
# venv and never shadows the sources; reinstall whenever a source changed.
changed=$(find "$ROOT/pyproject.toml" "$ROOT/setup.py" "$ROOT/banker" "$ROOT/hardware" "$ROOT/ui" \
               -newer "$stamp" -type f 2>/dev/null | head -1 || true)
if [ ! -f "$stamp" ] || [ -n "$changed" ]; then
    "$VENV/bin/python" -m pip install -q --upgrade pip
    "$VENV/bin/python" -m pip install -q "$ROOT$1"
    touch "$stamp"
fi
