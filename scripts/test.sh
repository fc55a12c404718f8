#!/usr/bin/env bash
# Install Board Banker with its test tools into .venv and run the whole suite:
# the type check, then every test.
set -euo pipefail
# shellcheck source=_venv.sh source-path=SCRIPTDIR
source "$(dirname "$0")/_venv.sh" "[test]"
cd "$ROOT"
echo "== mypy"
"$VENV/bin/python" -m mypy
echo "== pytest"
# One worker per core (pytest-xdist); a later `-n N` (e.g. `-n 0`) overrides it. loadgroup: the tests
# marked xdist_group("tours") share one worker and its tours, and go out first (the largest group).
exec "$VENV/bin/python" -m pytest -n auto --dist loadgroup "$@"
