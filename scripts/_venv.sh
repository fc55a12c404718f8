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
python3 -c 'import os, sysconfig; raise SystemExit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
    || need_apt+=(python3-dev)
for lib in libGL.so.1 libEGL.so.1 libmtdev.so.1; do
    ldconfig -p 2>/dev/null | grep -q "$lib" || need_apt+=("$(case $lib in libGL*) echo libgl1;; libEGL*) echo libegl1;; *) echo libmtdev1;; esac)")
done
# espeak-ng: the banker's voice (ui/voice.py; without it the app is silent and says so).
command -v espeak-ng >/dev/null || need_apt+=(espeak-ng)
# The tests alone ("[test]") also drive a browser: headless Chromium shows the phone page
# (tests/ui/test_phone_page.py); sox measures the voice's WAV files (tests/ui/test_voice.py).
if [ "${1:-}" = "[test]" ] && ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
    need_apt+=(chromium)
fi
if [ "${1:-}" = "[test]" ] && ! command -v sox >/dev/null; then
    need_apt+=(sox)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "Installing system packages: ${need_apt[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
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
