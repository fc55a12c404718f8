#!/usr/bin/env bash
# Install Board Banker into .venv (first run only) and start it.
# Until the touchscreen app lands this plays a batch of computer games.
set -euo pipefail
source "$(dirname "$0")/_venv.sh" ""
exec "$VENV/bin/banker" simulate --games 20 --players 4 "$@"
