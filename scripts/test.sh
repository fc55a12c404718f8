#!/usr/bin/env bash
# The whole suite against the installed package, as the Pi installs it: scripts/_venv.sh builds the app's
# wheel from a clean copy of the sources (the engine compiled by mypyc, as deploy/install.sh builds it) and
# installs it into .venv-test with the test tools; then the type check (mypy) and the linter (ruff), then
# every test against that install (tests/conftest.py and the venv's import check fail the run if banker, ui
# or hardware come from the checkout, in the suite or in any process it starts), then the engine's tests
# once more on the pure-Python engine the installer falls back to without a C compiler.
#
# Usage: ./scripts/test.sh [PYTEST ARGS...]
#   With arguments (e.g. `-k scenarios`, `tests/ui -n 0`) they go to pytest, and the pure engine's run is left
#   out unless BANKER_TEST_PURE=1. BANKER_TEST_PURE=0 leaves it out of a whole run too (scripts/test-debian13.sh
#   in CI: the engine's source is the same on both Pythons; .ci/run says why).
# The developers' quicker loop, on the checkout's sources without building a wheel: scripts/test-dev.sh.
set -euo pipefail
# shellcheck source=_venv.sh source-path=SCRIPTDIR
source "$(dirname "$0")/_venv.sh" "[test]"
cd "$ROOT"
echo "== mypy"
"$VENV/bin/python" -m mypy
echo "== ruff"
"$VENV/bin/python" -m ruff check banker ui hardware tests benchmarks
export BANKER_TEST_INSTALLED=1
pure=${BANKER_TEST_PURE:-$([ $# -eq 0 ] && echo 1 || echo 0)}
echo "== pytest: the installed app ($(basename "$BANKER_WHEEL"))"
: >"$VENV/import-check.log"
# One worker per core (pytest-xdist); a later `-n N` (e.g. `-n 0`) overrides it. loadgroup: the tests
# marked xdist_group("tours") share one worker and its tours, and go out first (the largest group).
status=0
BANKER_EXPECT_ENGINE=compiled "$VENV/bin/python" -P -m pytest -n auto --dist loadgroup "$@" || status=$?
if [ "$pure" = 1 ]; then
    echo "== pytest: the engine's tests on the pure-Python engine ($(basename "$BANKER_PURE_WHEEL"))"
    : >"$VENV/import-check.log"
    # The engine's tests are tests/test_*.py (tests/ui, tests/hardware and tests/deploy are the app's, the
    # readers' and the installer's). The pure engine's folder goes first on the path of the suite and of
    # every process it starts.
    mapfile -t engine_tests < <(cd "$ROOT" && ls tests/test_*.py)
    PYTHONPATH="$BANKER_PURE_ENGINE${PYTHONPATH:+:$PYTHONPATH}" BANKER_EXPECT_ENGINE=pure \
        "$VENV/bin/python" -P -m pytest -n auto -p no:cacheprovider "${engine_tests[@]}" || status=$?
fi
exit "$status"
