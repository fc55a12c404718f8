#!/usr/bin/env bash
# The developers' quick loop: the suite on the checkout's sources, no wheel built, nothing of the installed
# package checked (the app's .venv, with the test tools). Quicker while editing; it is not the README's test
# command and not CI's, which test the installed package (scripts/test.sh).
# Usage: ./scripts/test-dev.sh [PYTEST ARGS...]   e.g. ./scripts/test-dev.sh tests/test_engine.py -n 0
set -euo pipefail
# shellcheck source=_venv.sh source-path=SCRIPTDIR
source "$(dirname "$0")/_venv.sh" dev
cd "$ROOT"
PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}" exec "$VENV/bin/python" -m pytest -n auto --dist loadgroup "$@"
