#!/usr/bin/env bash
# Board Banker: install a newer version on an appliance set up by install.sh,
# then restart the app. The games and /etc/board-banker/config.toml are not
# touched (install.sh never overwrites either). Exit status: 0 done (or
# already up to date), 1 a step failed, 2 wrong usage or never installed.
set -Eeuo pipefail

usage() {
    cat <<'EOF'
Usage: sudo ./deploy/update.sh [OPTIONS]

Installs the app from the checkout this script is in (after `git pull`), or
from a wheel, into /opt/board-banker/venv, refreshes the unit, launcher and
rules from this deploy/ folder, and restarts the board-banker service if it
was running and anything changed. The boot configuration is left alone.

Options:
  --wheel FILE   install this wheel instead of the checkout
  --reinstall    reinstall the app even if it is the same version
  --root DIR     update the root file system at DIR (implies --no-services)
  --no-services  do not restart the service or reload systemd and udev
  -h, --help     show this help
EOF
}

SELF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
UNIT_NAME=board-banker.service

die() {
    local code=$1
    shift
    printf 'update.sh: %s\n' "$*" >&2
    exit "$code"
}

args=()
root_arg=""
no_services=0
while [ $# -gt 0 ]; do
    case $1 in
        --wheel) [ $# -ge 2 ] || die 2 "--wheel needs a file"; args+=(--wheel "$2"); shift 2 ;;
        --wheel=*) args+=("$1"); shift ;;
        --reinstall) args+=(--reinstall); shift ;;
        --root) [ $# -ge 2 ] || die 2 "--root needs a directory"; root_arg=$2; shift 2 ;;
        --root=*) root_arg=${1#*=}; shift ;;
        --no-services) no_services=1; args+=(--no-services); shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die 2 "unknown option: $1" ;;
    esac
done
[ "$(id -u)" -eq 0 ] || die 2 "must run as root: sudo $0"

R=""
if [ -n "$root_arg" ]; then
    [ -d "$root_arg" ] || die 2 "--root $root_arg: no such directory"
    R=$(cd "$root_arg" && pwd -P)
    if [ "$R" = / ]; then R=""; else no_services=1; fi
    args+=(--root "$root_arg")
fi

# An update needs what install.sh set up: the service and /opt/board-banker.
if [ ! -f "$R/etc/systemd/system/$UNIT_NAME" ] || [ ! -d "$R/opt/board-banker" ]; then
    die 2 "Board Banker is not installed${R:+ in $R} (no /etc/systemd/system/$UNIT_NAME or /opt/board-banker): run deploy/install.sh first"
fi
[ -f "$SELF_DIR/install.sh" ] || die 2 "$SELF_DIR/install.sh is missing: update.sh runs it"

# The update is install.sh on an installed system: it redoes only what differs
# (the app when its source changed, a changed unit or rule) and never writes
# over the config or the games. The boot configuration is install's business.
changes_file=$(mktemp)
versions_file=$(mktemp)
trap 'rm -f "$changes_file" "$versions_file"' EXIT
BANKER_INSTALL_CHANGES_FILE=$changes_file BANKER_INSTALL_VERSIONS_FILE=$versions_file \
    bash "$SELF_DIR/install.sh" --no-boot-config "${args[@]}"
changes=$(cat "$changes_file")
# The app's version before and after, as `banker --version` says it (none written when install.sh left pip out).
{ read -r before || true; read -r now || true; } <"$versions_file"

echo ""
if [ -n "${now:-}" ] && [ "$before" != "$now" ]; then
    echo "board-banker update: ${before#board-banker } -> ${now#board-banker }"
elif [ -n "${now:-}" ] && [ "$changes" != 0 ]; then
    echo "board-banker update: the app is still $now"
fi
if [ "$changes" = 0 ]; then
    echo "board-banker update: already up to date${now:+ ($now)}; the service was not restarted"
elif [ "$no_services" = 1 ] || [ ! -d /run/systemd/system ]; then
    echo "board-banker update: done; the service was not restarted (no service manager in use here)"
elif systemctl is-active --quiet "$UNIT_NAME"; then
    # The journal commits every action before it is shown, so a restart mid-game loses nothing.
    systemctl restart "$UNIT_NAME"
    echo "board-banker update: done; $UNIT_NAME restarted (the game reopens where it was)"
else
    echo "board-banker update: done; $UNIT_NAME is not running, it starts at the next boot"
    echo "  (or now: sudo systemctl start $UNIT_NAME)"
fi
