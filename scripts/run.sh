#!/usr/bin/env bash
# Install Board Banker into .venv (first run only) and start the touchscreen app.
# Extra arguments go to `banker app` (e.g. --no-hardware, --size 1280x720).
set -euo pipefail
# shellcheck source=_venv.sh source-path=SCRIPTDIR
source "$(dirname "$0")/_venv.sh" ""
exec "$VENV/bin/banker" app "$@"
