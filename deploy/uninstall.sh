#!/usr/bin/env bash
# Board Banker: undo deploy/install.sh. The games (the banker user's home) and
# the hardware config stay unless --purge is given, so a reinstall picks up
# where the family left off. Safe to run again: what is already gone is
# reported as "absent". Exit status: 0 done, 1 a step failed, 2 wrong usage.
set -Eeuo pipefail

usage() {
    cat <<'EOF'
Usage: sudo ./deploy/uninstall.sh [OPTIONS]

Stops and disables the board-banker service and removes it, the udev and
polkit rules, /usr/local/bin/banker and /opt/board-banker (the app and its
venv). Keeps the games (/var/lib/board-banker, the banker user's home), the
banker user and /etc/board-banker/config.toml.

Options:
  --purge        also delete the banker user with its home (ALL THE GAMES and
                 settings), the config /etc/board-banker and local unit
                 overrides (/etc/systemd/system/board-banker.service.d)
  --root DIR     uninstall from the root file system at DIR (implies --no-services)
  --no-services  do not talk to systemd or udev: remove the files only
  -h, --help     show this help

Not undone: the apt packages, the groups, and on a Raspberry Pi the boot
settings (serial console off, UART on, consoleblank=0, console boot), which
the installer backed up as FILE.board-banker.bak in /boot/firmware.
EOF
}

PREFIX=/opt/board-banker
LINK=/usr/local/bin/banker
CONFIG_DIR=/etc/board-banker
UNIT_NAME=board-banker.service
UNIT=/etc/systemd/system/$UNIT_NAME
DROPINS=/etc/systemd/system/$UNIT_NAME.d
WANTS=/etc/systemd/system/multi-user.target.wants/$UNIT_NAME
UDEV_RULE=/etc/udev/rules.d/99-board-banker.rules
POLKIT_RULE=/etc/polkit-1/rules.d/50-board-banker.rules
NFC_BLACKLIST=/etc/modprobe.d/board-banker-nfc.conf
PCSC_POLKIT_RULE=/etc/polkit-1/rules.d/50-board-banker-pcsc.rules
USER_NAME=banker

R=""
ROOT_MODE=0
NO_SERVICES=0
PURGE=0
CHANGES=0
STEP="starting"

say() { printf '%s\n' "$*"; }
step() { STEP=$1; printf '\n== %s\n' "$1"; }
changed() { CHANGES=$((CHANGES + 1)); printf '  %-10s %s\n' "$1" "$2"; }
absent() { printf '  %-10s %s\n' absent "$1"; }
kept() { printf '  %-10s %s\n' kept "$1"; }
note() { printf '  %-10s %s\n' note "$1"; }
die() {
    local code=$1
    shift
    printf 'uninstall.sh: %s\n' "$*" >&2
    exit "$code"
}
on_error() {
    printf '\nuninstall.sh: step "%s" failed (exit status %s, line %s); fix the problem and run it again.\n' \
        "$STEP" "$1" "$2" >&2
    exit 1
}

services_off_reason() {
    if [ "$ROOT_MODE" = 1 ]; then echo "--root"
    elif [ "$NO_SERVICES" = 1 ]; then echo "--no-services"
    elif [ ! -d /run/systemd/system ]; then echo "systemd is not running here"
    else echo ""
    fi
}

# Remove a file or link (a path in the target system) if it is there.
remove_path() {
    local path=$1
    rm -f "$R$path.board-banker-new"  # what install.sh was writing there when a power cut came
    if [ -e "$R$path" ] || [ -L "$R$path" ]; then
        rm -rf "$R$path"
        changed removed "$path"
        return 0
    fi
    absent "$path"
    return 1
}

parse_args() {
    local root_arg=""
    while [ $# -gt 0 ]; do
        case $1 in
            --purge) PURGE=1; shift ;;
            --root) [ $# -ge 2 ] || die 2 "--root needs a directory"; root_arg=$2; shift 2 ;;
            --root=*) root_arg=${1#*=}; shift ;;
            --no-services) NO_SERVICES=1; shift ;;
            -h | --help) usage; exit 0 ;;
            *) usage >&2; die 2 "unknown option: $1" ;;
        esac
    done
    if [ -n "$root_arg" ]; then
        [ -d "$root_arg" ] || die 2 "--root $root_arg: no such directory"
        R=$(cd "$root_arg" && pwd -P)
        if [ "$R" = / ]; then R=""; else ROOT_MODE=1; NO_SERVICES=1; fi
    fi
    [ "$(id -u)" -eq 0 ] || die 2 "must run as root: sudo $0"
}

remove_service() {
    step "The board-banker service"
    local why
    why=$(services_off_reason)
    if [ -z "$why" ] && [ -f "$R$UNIT" ]; then
        if systemctl is-active --quiet "$UNIT_NAME"; then
            systemctl stop "$UNIT_NAME"
            changed stopped "$UNIT_NAME"
        fi
        if systemctl is-enabled --quiet "$UNIT_NAME" 2>/dev/null; then
            systemctl disable --quiet "$UNIT_NAME"
            changed disabled "$UNIT_NAME"
        fi
    elif [ -n "$why" ] && [ -f "$R$UNIT" ]; then
        note "not stopped ($why)"
    fi
    remove_path "$WANTS" || true
    local unit_removed=0
    if remove_path "$UNIT"; then unit_removed=1; fi
    if [ "$PURGE" = 1 ]; then
        remove_path "$DROPINS" || true
    elif [ -d "$R$DROPINS" ]; then
        kept "$DROPINS (local overrides; --purge removes them)"
    fi
    if [ "$unit_removed" = 1 ] && [ -z "$why" ]; then
        systemctl daemon-reload
        say "  reloaded   systemd's units"
    fi
}

remove_rules() {
    step "Device and power rules"
    if remove_path "$UDEV_RULE"; then
        local why
        why=$(services_off_reason)
        if [ -z "$why" ] && command -v udevadm >/dev/null && [ -S /run/udev/control ]; then
            udevadm control --reload-rules
            say "  reloaded   udev rules"
        fi
    fi
    remove_path "$POLKIT_RULE" || true
    remove_path "$PCSC_POLKIT_RULE" || true  # a PC/SC reader's (install.sh, with [reader] protocol = "pcsc")
    remove_path "$NFC_BLACKLIST" || true
}

remove_app() {
    step "The app"
    local target
    if [ -L "$R$LINK" ]; then
        target=$(readlink "$R$LINK")
        case $target in
            "$PREFIX"/*) remove_path "$LINK" ;;
            *) kept "$LINK -> $target (not the installer's link)" ;;
        esac
    elif [ -e "$R$LINK" ]; then
        kept "$LINK (not the installer's link)"
    else
        absent "$LINK"
    fi
    remove_path "$PREFIX" || true
}

remove_data() {
    step "The games and the config"
    local home
    home=$(awk -F: -v u="$USER_NAME" '$1 == u { print $6 }' "$R/etc/passwd")
    if [ "$PURGE" = 0 ]; then
        if [ -n "$home" ]; then kept "user $USER_NAME and the games in $home (--purge deletes them)"; fi
        if [ -e "$R$CONFIG_DIR" ]; then kept "$CONFIG_DIR (--purge deletes it)"; fi
        return 0
    fi
    if [ -n "$home" ]; then
        local opts=()
        if [ -n "$R" ]; then opts=(--root "$R"); fi
        local status=0 errors
        # --remove deletes the home with the games; the service is stopped by now.
        errors=$(userdel "${opts[@]}" --remove "$USER_NAME" 2>&1) || status=$?
        # A system user never had a mail spool: that complaint is noise.
        printf '%s\n' "$errors" | grep -v -e '^$' -e 'mail spool' >&2 || true
        # 12: the user is gone but its home was not removed completely; rm finishes it.
        if [ "$status" != 0 ] && [ "$status" != 12 ]; then die 1 "userdel $USER_NAME failed (exit status $status)"; fi
        if [ -d "$R$home" ]; then rm -rf "$R$home"; fi
        # userdel removes the user's own group only where login.defs says USERGROUPS_ENAB.
        if grep -q "^$USER_NAME:[^:]*:[^:]*:$" "$R/etc/group"; then groupdel "${opts[@]}" "$USER_NAME"; fi
        changed removed "user $USER_NAME and its home $home (the games)"
    else
        absent "user $USER_NAME"
    fi
    remove_path "$CONFIG_DIR" || true
}

main() {
    parse_args "$@"
    trap 'on_error $? $LINENO' ERR
    if [ "$PURGE" = 1 ]; then
        say "Board Banker uninstaller: ${R:-/} (--purge: the games and the config go too)"
    else
        say "Board Banker uninstaller: ${R:-/}"
    fi
    remove_service
    remove_rules
    remove_app
    remove_data
    say ""
    if [ "$CHANGES" = 0 ]; then
        say "board-banker uninstall: nothing to remove"
    else
        say "board-banker uninstall: $CHANGES change$([ "$CHANGES" = 1 ] || echo s)"
    fi
    say "Not undone: apt packages, groups, and on a Raspberry Pi the boot settings"
    say "  (the originals are kept as /boot/firmware/*.board-banker.bak)."
}

main "$@"
