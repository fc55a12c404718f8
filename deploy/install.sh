#!/usr/bin/env bash
# Board Banker: make a Raspberry Pi (64-bit Raspberry Pi OS Trixie, the Imager's
# default, or Bookworm; Pi 4 or Pi 5) boot straight into the touchscreen banker.
# Also runs on plain Debian 12 and 13, where the Pi-only steps are skipped, for
# testing.
#
# Safe to run again: every step first looks at what is there, prints
# "unchanged" when nothing needs doing, and a second run changes nothing.
# Exit status: 0 done, 1 a step failed (the message names it; fix it and run
# again), 2 wrong usage or unsupported system (nothing was changed).
#
# Run with --help for the options.
set -Eeuo pipefail

usage() {
    cat <<'EOF'
Usage: sudo ./deploy/install.sh [OPTIONS]

Installs Board Banker as an appliance: system packages, the app in
/opt/board-banker/venv, the "banker" user, the hardware config
/etc/board-banker/config.toml (only if missing), a udev rule for the card
reader, and the board-banker service, enabled so the app starts full screen
at boot. On a Raspberry Pi it also turns the serial console off, the UART on
and screen blanking off, and boots to the console instead of the desktop.

Options:
  --wheel FILE      install the app from this wheel instead of the checkout
                    this script is in (the rest of deploy/ is still used)
  --root DIR        install into the root file system at DIR instead of /
                    (implies --no-boot-config and --no-services; apt and pip
                    run inside DIR with chroot, so DIR must be a complete
                    Debian system with /proc and /dev mounted)
  --no-boot-config  leave the boot configuration alone (serial console, UART,
                    screen blanking, desktop)
  --no-services     do not talk to systemd or udev: the unit is enabled by
                    making its link directly, nothing is started or reloaded
  --reinstall       reinstall the app even if the installed one was built
                    from the same source
  -h, --help        show this help

Environment:
  BANKER_PURE=1                    build the pure-Python engine (no mypyc);
                                   with sudo: sudo BANKER_PURE=1 ./deploy/install.sh
  BANKER_INSTALL_SKIP_PACKAGES=1   skip apt, the venv and pip; only users,
                                   groups and files are placed (for tests)
EOF
}

SELF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CHECKOUT=$(cd "$SELF_DIR/.." && pwd)

PREFIX=/opt/board-banker
VENV=$PREFIX/venv
LAUNCHER=$PREFIX/bin/board-banker-launch
STAMP=$PREFIX/installed-from
LINK=/usr/local/bin/banker
CONFIG_DIR=/etc/board-banker
CONFIG=$CONFIG_DIR/config.toml
UNIT_NAME=board-banker.service
UNIT=/etc/systemd/system/$UNIT_NAME
WANTS=/etc/systemd/system/multi-user.target.wants/$UNIT_NAME
UDEV_RULE=/etc/udev/rules.d/99-board-banker.rules
POLKIT_RULE=/etc/polkit-1/rules.d/50-board-banker.rules
USER_NAME=banker
USER_HOME=/var/lib/board-banker
# Serial readers, the dice button, the touchscreen, the display and GPU, sound,
# an RC522 reader on the SPI pins (/dev/spidev*).
USER_GROUPS=(dialout gpio input video render audio spi)
# python3-venv, python3-dev, gcc, libc6-dev: the venv and the compiled engine.
# libgl1, libegl1, libgles2, libgbm1, libdrm2: what Kivy's SDL2 loads to draw
# through KMS/DRM without a desktop. libmtdev1: Kivy's multitouch input.
# libasound2: the sounds. espeak-ng: the banker's voice (ui/voice.py). polkitd: lets the app's
# "shut down" button power off.
APT_PACKAGES=(python3-venv python3-dev gcc libc6-dev libgl1 libegl1 libgles2 libgbm1 libdrm2
              libmtdev1 libasound2 espeak-ng polkitd)
# lgpio, which gpiozero drives the dice button with. 0.2.2 is the first with the
# C extension in it: PyPI also has an old lgpio 0.0.0.2 for any Python whose
# lgpio.py is empty, which pip would take where no newer wheel fits (Python 3.13).
LGPIO_REQUIREMENT="lgpio>=0.2.2"
# What a working lgpio has: the SWIG wrapper over its C extension. The empty
# module imports but has no gpiochip_open.
LGPIO_CHECK='import sys; from lgpio import error, gpiochip_open; sys.exit(not callable(gpiochip_open))'
# Where PyPI has no lgpio wheel for the Python (none for 3.13, Debian 13's), pip
# builds it from its source, which needs SWIG besides gcc and python3-dev.
LGPIO_BUILD_PACKAGES=(swig)
# The card reader kinds that need more than a serial port (hardware/kinds.py; each one's Python library is
# the app's pip extra of the same name). A USB keyboard reader ("hid") is read with python-evdev, which pip
# builds with gcc and the kernel's headers. A PC/SC reader ("pcsc", the ACR122U) is read through pcscd with
# pyscard, which pip builds with SWIG and pcsc-lite's headers; the kernel's own NFC driver for it (pn533) is
# kept off it, and the banker service user, which has no login session, is allowed to use pcscd (Debian's
# pcscd asks polkit).
PCSC_PACKAGES=(pcscd)
HID_BUILD_PACKAGES=(linux-libc-dev)
PCSC_BUILD_PACKAGES=(swig libpcsclite-dev)
NFC_BLACKLIST=/etc/modprobe.d/board-banker-nfc.conf
PCSC_POLKIT_RULE=/etc/polkit-1/rules.d/50-board-banker-pcsc.rules

WHEEL=""
R=""                 # the root file system as a prefix: "" for /, "/some/dir" for --root
ROOT_MODE=0
NO_BOOT_CONFIG=0
NO_SERVICES=0
REINSTALL=0
SKIP_PACKAGES=${BANKER_INSTALL_SKIP_PACKAGES:-0}
CHANGES=0
LAST_CHANGED=0
REBOOT_NEEDED=0
STEP="starting"
WORK=""
STAGE=""

# ---------------------------------------------------------------------------
# Output

say() { printf '%s\n' "$*"; }
step() { STEP=$1; printf '\n== %s\n' "$1"; }
# A change: "  installed  /etc/...". Counted, so the summary can say whether anything changed.
changed() { CHANGES=$((CHANGES + 1)); printf '  %-10s %s\n' "$1" "$2"; }
same() { printf '  %-10s %s\n' unchanged "$1"; }
skipped() { printf '  %-10s %s\n' skipped "$1"; }
note() { printf '  %-10s %s\n' note "$1"; }
warn() { printf 'install.sh: warning: %s\n' "$*" >&2; }
die() {  # CODE MESSAGE
    local code=$1
    shift
    printf 'install.sh: %s\n' "$*" >&2
    exit "$code"
}

on_error() {
    local status=$1 line=$2
    printf '\ninstall.sh: step "%s" failed (exit status %s, line %s).\n' "$STEP" "$status" "$line" >&2
    printf 'Fix the problem above and run install.sh again: steps already done are kept and not redone.\n' >&2
    exit 1
}

cleanup() {
    if [ -n "$WORK" ]; then rm -rf "$WORK"; fi
    if [ -n "$STAGE" ]; then rm -rf "$STAGE"; fi
}

# ---------------------------------------------------------------------------
# Helpers

# Run a command in the target system: directly, or with chroot for --root.
# The caller's Python settings must not leak into the system's or the venv's Python.
in_root() {
    if [ -z "$R" ]; then
        env -u PYTHONPATH -u PYTHONHOME -u VIRTUAL_ENV "$@"
    else
        chroot "$R" env -u PYTHONPATH -u PYTHONHOME -u VIRTUAL_ENV "$@"
    fi
}

# Options for the shadow tools (useradd, groupadd, usermod), which work on a root folder themselves.
shadow_opts() {
    if [ -n "$R" ]; then printf '%s\n' --root "$R"; fi
}

# Every file the installer writes is written whole beside its place as FILE.board-banker-new, then
# `replace_with_new FILE` puts it in place: the new file synced (coreutils' `sync FILE` fsyncs that one file;
# a file renamed before its data reached the disk may come back empty after a power cut), renamed over FILE,
# then its folder synced (the rename is in the folder). A cut leaves the old file or the new one, whole. A
# FILE.board-banker-new a cut left is overwritten by the next write, and `drop_new FILE` removes it when the
# file needs no write any more.
replace_with_new() {  # FILE
    sync "$1.board-banker-new"
    mv -f "$1.board-banker-new" "$1"
    sync "$(dirname "$1")"
}

drop_new() {  # FILE
    rm -f "$1.board-banker-new"
}

# mkdir -p DIR, durable: each folder made is synced into its parent (a new folder's name is in its parent: a
# cut would lose the folder, and every file placed in it, with the parent unsynced).
make_dir() {  # DIR
    if [ -d "$1" ]; then return 0; fi
    make_dir "$(dirname "$1")"
    mkdir -p "$1"
    sync "$(dirname "$1")"
}

# Copy SRC to DEST (a path in the target system) with MODE, unless it is already identical.
# Sets LAST_CHANGED to 1 when the file was written.
place_file() {
    local src=$1 path=$2 mode=$3
    local dest=$R$path verb=installed
    LAST_CHANGED=0
    drop_new "$dest"
    if [ -f "$dest" ] && cmp -s "$src" "$dest" && [ "$(stat -c %a "$dest")" = "$mode" ]; then
        same "$path"
        return 0
    fi
    if [ -e "$dest" ]; then verb=updated; fi
    make_dir "$(dirname "$dest")"
    install -m "$mode" "$src" "$dest.board-banker-new"
    replace_with_new "$dest"
    LAST_CHANGED=1
    changed "$verb" "$path"
}

# Make the symbolic link PATH -> TARGET (both in the target system).
place_link() {
    local path=$1 target=$2
    local dest=$R$path
    if [ -L "$dest" ] && [ "$(readlink "$dest")" = "$target" ]; then
        same "$path -> $target"
        return 0
    fi
    if [ -e "$dest" ] && [ ! -L "$dest" ]; then
        die 1 "$path exists and is not a link (another banker installed by hand?): remove it and run install.sh again"
    fi
    mkdir -p "$(dirname "$dest")"
    ln -sfn "$target" "$dest"
    changed linked "$path -> $target"
}

group_exists() { grep -q "^$1:" "$R/etc/group"; }
user_exists() { grep -q "^$USER_NAME:" "$R/etc/passwd"; }
user_in_group() {
    awk -F: -v g="$1" -v u="$USER_NAME" \
        '$1 == g { n = split($4, m, ","); for (i = 1; i <= n; i++) if (m[i] == u) found = 1 } END { exit !found }' \
        "$R/etc/group"
}
passwd_field() { awk -F: -v u="$USER_NAME" -v f="$1" '$1 == u { print $f }' "$R/etc/passwd"; }

# Installed under its own name, or under Debian 13's "t64" name (libasound2 -> libasound2t64).
pkg_installed() {
    local name
    for name in "$1" "${1}t64"; do
        # shellcheck disable=SC2016  # ${Status} is dpkg-query's field, not a shell variable
        if [ "$(in_root dpkg-query -W -f='${Status}' "$name" 2>/dev/null)" = "install ok installed" ]; then
            return 0
        fi
    done
    return 1
}

pi_model() {
    if [ -r /proc/device-tree/model ]; then tr -d '\0' </proc/device-tree/model; fi
}
is_pi() { pi_model | grep -q 'Raspberry Pi'; }
is_pi5() { pi_model | grep -Eq 'Raspberry Pi (5|Compute Module 5)'; }

systemd_running() { [ -d /run/systemd/system ]; }

# Why services are left alone, or "" when install.sh may use systemctl and udevadm.
services_off_reason() {
    if [ "$ROOT_MODE" = 1 ]; then echo "--root"
    elif [ "$NO_SERVICES" = 1 ]; then echo "--no-services"
    elif ! systemd_running; then echo "systemd is not running here"
    else echo ""
    fi
}

pip_in_venv() {
    in_root env PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore PIP_NO_INPUT=1 \
        "$VENV/bin/python" -m pip "$@"
}

# ---------------------------------------------------------------------------
# Boot files (Raspberry Pi only). Each edit keeps a one-time backup FILE.board-banker.bak.

backup_once() {
    if [ ! -e "$1.board-banker.bak" ]; then
        cp -p "$1" "$1.board-banker.bak.board-banker-new"
        replace_with_new "$1.board-banker.bak"  # a torn backup would never be made again
    fi
    drop_new "$1.board-banker.bak"
}

# consoleblank=0 on the kernel command line (one line), replacing any other consoleblank value.
cmdline_consoleblank() {
    local file=$1 line new
    drop_new "$file"
    line=$(head -n 1 "$file")
    if printf '%s\n' "$line" | grep -Eq '(^| )consoleblank=0( |$)'; then
        same "screen blanking off (consoleblank=0 in $file)"
        return 0
    fi
    if printf '%s\n' "$line" | grep -Eq '(^| )consoleblank=[0-9]+( |$)'; then
        new=$(printf '%s\n' "$line" | sed -E 's/(^| )consoleblank=[0-9]+( |$)/\1consoleblank=0\2/')
    else
        new="${line%"${line##*[![:space:]]}"} consoleblank=0"
    fi
    backup_once "$file"
    printf '%s\n' "$new" >"$file.board-banker-new"
    replace_with_new "$file"
    REBOOT_NEEDED=1
    changed set "screen blanking off (consoleblank=0 in $file)"
}

# dtparam=PARAM=on in config.txt, under an [all] section so no model filter above it applies.
# A commented-out line ("#dtparam=spi=on", as Raspberry Pi OS ships it) does not count.
config_dtparam() {  # FILE PARAM WHAT
    local file=$1 param=$2 what=$3 last_section
    drop_new "$file"
    if grep -Eq "^[[:space:]]*dtparam=$param=on[[:space:]]*\$" "$file"; then
        same "$what (dtparam=$param=on in $file)"
        return 0
    fi
    backup_once "$file"
    last_section=$(grep -E '^[[:space:]]*\[' "$file" | tail -n 1 | tr -d '[:space:]' || true)
    {
        cat "$file"
        # A file that does not end in a newline would glue our line to its last one.
        if [ -s "$file" ] && [ -n "$(tail -c 1 "$file")" ]; then printf '\n'; fi
        if [ -n "$last_section" ] && [ "$last_section" != "[all]" ]; then printf '[all]\n'; fi
        printf 'dtparam=%s=on\n' "$param"
    } >"$file.board-banker-new"
    replace_with_new "$file"
    REBOOT_NEEDED=1
    changed set "$what (dtparam=$param=on in $file)"
}

config_uart0() { config_dtparam "$1" uart0 "UART0 on the header"; }

# What the reader kind KIND needs in config.txt (FILE): an RC522 on the header's SPI pins ("rc522") needs
# SPI0 switched on, which gives /dev/spidev0.0 and 0.1. Another kind needs nothing there, and SPI that is on
# already is left on: something else may use it.
config_reader_boot() {  # KIND FILE
    if [ "$1" = rc522 ]; then
        config_dtparam "$2" spi "SPI on the header for the rc522 reader"
    else
        skipped "dtparam=spi=on: only an rc522 reader needs it (this one is \"$1\"; SPI is left as it is)"
    fi
}

# ---------------------------------------------------------------------------
# Steps

parse_args() {
    local root_arg=""
    while [ $# -gt 0 ]; do
        case $1 in
            --wheel) [ $# -ge 2 ] || die 2 "--wheel needs a file"; WHEEL=$2; shift 2 ;;
            --wheel=*) WHEEL=${1#*=}; shift ;;
            --root) [ $# -ge 2 ] || die 2 "--root needs a directory"; root_arg=$2; shift 2 ;;
            --root=*) root_arg=${1#*=}; shift ;;
            --no-boot-config) NO_BOOT_CONFIG=1; shift ;;
            --no-services) NO_SERVICES=1; shift ;;
            --reinstall) REINSTALL=1; shift ;;
            -h | --help) usage; exit 0 ;;
            *) usage >&2; die 2 "unknown option: $1" ;;
        esac
    done
    if [ -n "$root_arg" ]; then
        [ -d "$root_arg" ] || die 2 "--root $root_arg: no such directory"
        R=$(cd "$root_arg" && pwd -P)
        if [ "$R" = / ]; then
            R=""
        else
            ROOT_MODE=1
            NO_BOOT_CONFIG=1
            NO_SERVICES=1
        fi
    fi
}

preflight() {
    STEP="checks"
    [ "$(id -u)" -eq 0 ] || die 2 "must run as root: sudo $0 $*"
    local f
    for f in board-banker.service 99-board-banker.rules board-banker-launch; do
        [ -f "$SELF_DIR/$f" ] || die 2 "$SELF_DIR/$f is missing: run install.sh from a complete deploy/ folder"
    done
    if [ -n "$WHEEL" ]; then
        [ -f "$WHEEL" ] || die 2 "--wheel $WHEEL: no such file"
        case $WHEEL in *.whl) ;; *) die 2 "--wheel $WHEEL: not a wheel (.whl) file" ;; esac
        WHEEL=$(cd "$(dirname "$WHEEL")" && pwd -P)/$(basename "$WHEEL")
        command -v python3 >/dev/null || die 2 "python3 is needed to read the config template from the wheel"
    elif [ ! -f "$CHECKOUT/pyproject.toml" ] || [ ! -d "$CHECKOUT/banker" ]; then
        die 2 "$CHECKOUT is not a Board Banker checkout: run install.sh from one, or give --wheel FILE"
    fi
    if [ ! -f "$R/etc/passwd" ] || [ ! -f "$R/etc/group" ]; then
        die 2 "$R/etc/passwd or $R/etc/group is missing: not a root file system"
    fi
    if [ "$SKIP_PACKAGES" != 1 ]; then
        case $(uname -m) in
            aarch64 | x86_64) ;;
            *) die 2 "$(uname -m) is not supported: use the 64-bit Raspberry Pi OS (Kivy has no wheels for 32-bit ARM)" ;;
        esac
        if [ -n "$R" ]; then command -v chroot >/dev/null || die 2 "--root needs chroot (coreutils)"; fi
        in_root sh -c 'command -v apt-get' >/dev/null || die 2 "apt-get not found${R:+ in $R}: install.sh needs Debian or Raspberry Pi OS"
    fi
}

# Those of PACKAGES that are not installed in the target system, installed with
# apt-get (after an apt-get update), quietly, with apt's last lines shown if it
# fails. WHAT names them in the output.
ensure_packages() {  # WHAT PACKAGE...
    local what=$1 missing=() p
    shift
    for p in "$@"; do
        pkg_installed "$p" || missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        same "$what: $*"
        return 0
    fi
    say "  installing ${missing[*]} (apt-get; this can take a few minutes)"
    local log=$WORK/apt.log
    if ! in_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >"$log" 2>&1 ||
        ! in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
            "${missing[@]}" >>"$log" 2>&1; then
        tail -n 30 "$log" >&2
        die 1 "apt-get could not install ${missing[*]} (its last lines are above)"
    fi
    changed installed "$what: ${missing[*]}"
}

install_packages() {
    step "System packages"
    if [ "$SKIP_PACKAGES" = 1 ]; then
        skipped "apt packages (BANKER_INSTALL_SKIP_PACKAGES=1)"
        return 0
    fi
    ensure_packages "apt packages" "${APT_PACKAGES[@]}"
    in_root /usr/bin/python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
        die 1 "the system's Python is older than 3.11: Board Banker needs Raspberry Pi OS Bookworm / Debian 12 or newer"
}

setup_user() {
    step "The $USER_NAME user and its groups"
    local opts g uid gid missing=()
    mapfile -t opts < <(shadow_opts)
    for g in "${USER_GROUPS[@]}"; do
        if ! group_exists "$g"; then
            # So that the unit's SupplementaryGroups resolve the same everywhere
            # (plain Debian has no gpio group; a minimal one may lack input/render).
            groupadd "${opts[@]}" --system "$g"
            changed created "group $g (a system group; it did not exist here)"
        fi
    done
    if user_exists; then
        same "user $USER_NAME"
    else
        mkdir -p "$R$(dirname "$USER_HOME")"
        # A system user with no password and no login shell; its home keeps the
        # games and settings (XDG data dir) on persistent storage.
        useradd "${opts[@]}" --system --user-group --create-home --home-dir "$USER_HOME" \
            --shell /usr/sbin/nologin --comment "Board Banker" "$USER_NAME"
        # The games are private to the family's banker: not readable by other users.
        chmod 750 "$R$USER_HOME"
        changed created "user $USER_NAME (home $USER_HOME)"
    fi
    local home
    home=$(passwd_field 6)
    if [ "$home" != "$USER_HOME" ]; then
        note "user $USER_NAME already existed with home $home; the games are kept there"
    fi
    uid=$(passwd_field 3)
    gid=$(passwd_field 4)
    if [ -d "$R$home" ] && [ "$(stat -c '%u:%g %a' "$R$home")" = "$uid:$gid 750" ]; then
        same "home $home (owned by $USER_NAME, mode 750)"
    else
        mkdir -p "$R$home"
        chown "$uid:$gid" "$R$home"
        chmod 750 "$R$home"
        changed set "home $home (owned by $USER_NAME, mode 750)"
    fi
    for g in "${USER_GROUPS[@]}"; do
        user_in_group "$g" || missing+=("$g")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        same "$USER_NAME in groups ${USER_GROUPS[*]}"
    else
        usermod "${opts[@]}" --append --groups "$(IFS=,; echo "${missing[*]}")" "$USER_NAME"
        changed added "$USER_NAME to groups ${missing[*]}"
    fi
}

# Copy what pip needs into a folder inside the target system, and fingerprint it.
stage_source() {
    mkdir -p "$R/var/tmp"
    STAGE=$(mktemp -d "$R/var/tmp/board-banker-install.XXXXXX")
    chmod 755 "$STAGE"
    if [ -n "$WHEEL" ]; then
        cp "$WHEEL" "$STAGE/"
        FINGERPRINT=$(sha256sum <"$WHEEL" | cut -c1-64)
        SOURCE_DESC="wheel $(basename "$WHEEL")"
        return 0
    fi
    # Only the package's own sources: pip builds in the folder it is given, and
    # a checkout's build/ from an earlier build would leak stale files into the
    # wheel (and a root-owned build/ would be left in the user's checkout).
    local items=(pyproject.toml setup.py README.md banker hardware ui) f
    for f in "$CHECKOUT"/LICENSE*; do
        if [ -e "$f" ]; then items+=("$(basename "$f")"); fi
    done
    mkdir "$STAGE/src"
    tar -C "$CHECKOUT" --exclude=__pycache__ --exclude='*.pyc' --exclude='*.so' -cf - "${items[@]}" |
        tar -C "$STAGE/src" -xf -
    # BANKER_PURE changes what is built from the same files, so it is part of the fingerprint.
    FINGERPRINT=$({
        cd "$STAGE/src" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
        echo "BANKER_PURE=${BANKER_PURE:-}"
    } | sha256sum | cut -c1-64)
    SOURCE_DESC="checkout $CHECKOUT${BANKER_PURE:+ (BANKER_PURE=$BANKER_PURE)}"
    # The staged copy has no .git: the checkout's commit goes to the build (setup.py stamps it for
    # `banker --version`); none when the checkout is not a git one (a folder inside another repository is
    # not). The checkout is a user's, and git refuses another user's repository to root unless told it is
    # safe (this script is that checkout's own).
    BUILD_COMMIT=""
    if [ -e "$CHECKOUT/.git" ]; then
        BUILD_COMMIT=$(git -c safe.directory="$CHECKOUT" -C "$CHECKOUT" rev-parse --short=7 HEAD 2>/dev/null || true)
    fi
}

# What `banker --version` says of the app installed in the venv ("board-banker 0.2.0 (git abc1234)"); for an
# app from before --version, its distribution's version ("board-banker 0.1.0"); "none" when there is no app.
# Python runs isolated (-I): the current folder, a checkout, must not stand in for the venv's package.
app_version_line() {
    local line
    line=$(in_root "$VENV/bin/banker" --version 2>/dev/null | head -n 1) || true
    if [[ $line != board-banker\ * ]]; then
        line=$(in_root "$VENV/bin/python" -I -c \
            'import importlib.metadata as m; print("board-banker " + m.version("board-banker"))' 2>/dev/null) || true
    fi
    if [[ $line != board-banker\ * ]]; then line=none; fi
    printf '%s\n' "$line"
}

app_is_current() {
    [ "$REINSTALL" = 0 ] &&
        [ -f "$R$STAMP" ] && grep -qx "sha256=$FINGERPRINT" "$R$STAMP" &&
        [ -x "$R$VENV/bin/banker" ] &&
        in_root "$VENV/bin/python" -I -c 'import banker.cli' 2>/dev/null
}

# "replacing board-banker 0.1.0", or "the first install here" for app_version_line's "none".
replacing() {
    if [ "$1" = none ]; then echo "the first install here"; else echo "replacing $1"; fi
}

install_app() {
    step "The app in $VENV"
    if [ "$SKIP_PACKAGES" = 1 ]; then
        skipped "virtual environment $VENV (BANKER_INSTALL_SKIP_PACKAGES=1)"
        skipped "the app and lgpio with pip (BANKER_INSTALL_SKIP_PACKAGES=1)"
    else
        if [ -x "$R$VENV/bin/python" ]; then
            same "virtual environment $VENV"
        else
            mkdir -p "$R$PREFIX"
            in_root /usr/bin/python3 -m venv "$VENV"
            changed created "virtual environment $VENV"
        fi
        stage_source
        local stage_in_root=${STAGE#"$R"} wheel before now engine
        before=$(app_version_line)
        if app_is_current; then
            now=$before
            same "$now (same $SOURCE_DESC as installed)"
        else
            if [ -n "$WHEEL" ]; then
                wheel="$stage_in_root/$(basename "$WHEEL")"
            else
                say "  building the app from $SOURCE_DESC (mypyc compiles the engine: a few minutes on a Pi)"
                BANKER_BUILD_COMMIT=${BUILD_COMMIT:-} pip_in_venv wheel -q --no-deps -w "$stage_in_root/wheel" \
                    "$stage_in_root/src"
                wheel=$(cd "$STAGE/wheel" && ls ./*.whl)
                wheel="$stage_in_root/wheel/${wheel#./}"
            fi
            say "  installing the app and its dependencies with pip"
            pip_in_venv install -q "$wheel"
            # The same version number may hold newer code (a rebuilt checkout): replace it.
            pip_in_venv install -q --no-deps --force-reinstall "$wheel"
            # pip syncs nothing: its files on the disk (syncfs) before the stamp that says they are there.
            sync -f "$R$VENV"
            printf 'sha256=%s\nsource=%s\n' "$FINGERPRINT" "$SOURCE_DESC" >"$R$STAMP.board-banker-new"
            chmod 644 "$R$STAMP.board-banker-new"
            replace_with_new "$R$STAMP"
            now=$(app_version_line)
            engine=$(in_root "$VENV/bin/python" -I -c \
                'import banker.game as g; print("compiled" if g.__file__.endswith(".so") else "pure-Python")')
            changed installed "$now ($engine engine) from $SOURCE_DESC, $(replacing "$before")"
        fi
        # For update.sh's closing lines: the version that was there and the one that is.
        if [ -n "${BANKER_INSTALL_VERSIONS_FILE:-}" ]; then
            printf '%s\n%s\n' "$before" "$now" >"$BANKER_INSTALL_VERSIONS_FILE"
        fi
        install_lgpio
    fi
    place_link "$LINK" "$VENV/bin/banker"
    # The launcher runs with the app's own Python, so it reads the config with the app's code.
    { printf '#!%s/bin/python\n' "$VENV"; tail -n +2 "$SELF_DIR/board-banker-launch"; } >"$WORK/launch"
    place_file "$WORK/launch" "$LAUNCHER" 755
}

# Whether the venv's lgpio works: the real module, not the empty one (see LGPIO_CHECK).
lgpio_works() {
    in_root "$VENV/bin/python" -c "$LGPIO_CHECK" 2>/dev/null
}

# gpiozero drives the dice button through lgpio. PyPI has lgpio wheels for
# Python 3.11 on aarch64 and x86_64 (Raspberry Pi OS Bookworm, Debian 12):
# they bundle the C library, so no apt package is needed. For Python 3.13
# (Raspberry Pi OS Trixie, Debian 13) it has none, and pip builds lgpio from
# its source with SWIG, the C library linked in the same way (PYPI=1 is how
# lgpio's setup.py is told to). Harmless on a machine without GPIO.
install_lgpio() {
    local python
    if lgpio_works; then
        same "lgpio (GPIO access for the dice button)"
        return 0
    fi
    python=$(in_root "$VENV/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    # --force-reinstall: an lgpio that is there but does not work (the empty one) is replaced.
    if pip_in_venv install -q --force-reinstall --no-deps --only-binary=:all: "$LGPIO_REQUIREMENT" \
        >"$WORK/lgpio-wheel.log" 2>&1 && lgpio_works; then
        changed installed "lgpio (GPIO access for the dice button; PyPI's wheel for Python $python)"
        return 0
    fi
    say "  no lgpio wheel for Python $python on $(uname -m): building lgpio from its source (SWIG and gcc)"
    ensure_packages "apt packages to build lgpio" "${LGPIO_BUILD_PACKAGES[@]}"
    if ! PYPI=1 pip_in_venv install -q --force-reinstall --no-deps --no-binary=lgpio "$LGPIO_REQUIREMENT" \
        >"$WORK/lgpio-build.log" 2>&1 || ! lgpio_works; then
        tail -n 30 "$WORK/lgpio-build.log" >&2
        if is_pi; then
            die 1 "lgpio, which the dice button needs, could not be built (pip's last lines are above)"
        fi
        warn "lgpio could not be built for $(uname -m): the dice button will not work, everything else will"
        return 0
    fi
    changed installed "lgpio (GPIO access for the dice button; built from its source for Python $python)"
}

install_config() {
    step "The hardware config"
    if [ -e "$R$CONFIG" ]; then
        printf '  %-10s %s\n' kept "$CONFIG (never overwritten: the family's settings stay)"
        return 0
    fi
    local template=$WORK/config.example.toml
    if [ -n "$WHEEL" ]; then
        python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read("hardware/config.example.toml"))' \
            "$WHEEL" >"$template"
    else
        cp "$CHECKOUT/hardware/config.example.toml" "$template"
    fi
    make_dir "$R$CONFIG_DIR"
    chmod 755 "$R$CONFIG_DIR"
    place_file "$template" "$CONFIG" 644
}

# The kind of card reader the config names ([reader] protocol): the default kind when the file has none or
# cannot be read (the app then shows the file's problem itself).
reader_kind() {
    python3 - "$R$CONFIG" <<'PY' 2>/dev/null || echo pn532
import sys
import tomllib

try:
    with open(sys.argv[1], "rb") as file:
        kind = tomllib.load(file).get("reader", {}).get("protocol", "pn532")
except (OSError, tomllib.TOMLDecodeError, AttributeError):
    kind = "pn532"
print(kind if isinstance(kind, str) and kind.isalnum() else "pn532")
PY
}

# The card reader's device as the config names it ([reader] url; "" when it names none). Fails when the
# file cannot be read, or its url or protocol is not a name (the app then shows the file's problem itself;
# reader_kind takes the default kind for it).
reader_url() {
    python3 - "$R$CONFIG" <<'PY' 2>/dev/null
import sys
import tomllib

try:
    with open(sys.argv[1], "rb") as file:
        reader = tomllib.load(file).get("reader", {})
    url, kind = reader.get("url", ""), reader.get("protocol", "pn532")
except (OSError, tomllib.TOMLDecodeError, AttributeError):
    sys.exit(1)
if not (isinstance(url, str) and url.isprintable() and isinstance(kind, str) and kind.isalnum()):
    sys.exit(1)
print(url)
PY
}

# The closing lines about the card reader: the kind the config names (KIND, reader_kind's), its device as
# the config gives it, what to change when that is not the family's reader, and how to check it.
reader_summary() {  # KIND
    local kind=$1 url what section
    if ! url=$(reader_url); then
        say "The card reader: $CONFIG cannot be read, or its [reader] has a mistake:"
        say "  the app shows what is wrong on its screen. Fix it as deploy/README.md (2.5) shows,"
        say "  then run this installer again."
        return 0
    fi
    case $kind in
        pn532) what="a PN532 board on the Pi's serial pins in HSU mode"; section=3.2 ;;
        line) what="an Arduino or ESP32 reader on USB, one card number a line"; section=3.3 ;;
        hid) what="a USB keyboard reader, typing each card's number"; section=3.3a ;;
        pcsc) what="a PC/SC reader through pcscd, such as the ACR122U"; section=3.3b ;;
        rc522) what="a bare RC522 module on the Pi's SPI pins"; section=3.3c ;;
        *)
            say "The card reader: protocol \"$kind\" in $CONFIG is not a kind the app knows"
            say "  (the app says so on its screen). Set [reader] protocol and url as deploy/README.md (2.5)"
            say "  shows, then run this installer again."
            return 0 ;;
    esac
    say "The card reader ([reader] in $CONFIG): protocol \"$kind\","
    say "  $what (deploy/README.md, $section)."
    if [ -n "$url" ] && [ "$kind" = pcsc ]; then
        say "  Device: url = \"$url\", the PC/SC reader whose name starts with that."
    elif [ -n "$url" ]; then
        say "  Device: url = \"$url\"."
    elif [ "$kind" = pcsc ]; then
        say "  Device: url = \"\", the first PC/SC reader pcscd finds."
    else
        say "  Device: none (url = \"\"), so players use the on-screen buttons."
        case $kind in
            pn532) say "  On the serial pins it is url = \"/dev/serial0\" on a Pi 4, \"/dev/ttyAMA0\" on a Pi 5." ;;
            line) say "  Plugged in over USB it is url = \"/dev/banker-reader\" (the udev rule's name for it)." ;;
            hid) say "  Set url = \"usb:VID:PID\" with the ids lsusb shows, or its /dev/input/by-id/...-event-kbd." ;;
            rc522) say "  On the SPI pins it is url = \"/dev/spidev0.0\"." ;;
        esac
    fi
    say "  Another reader: set its protocol and url there as deploy/README.md (2.5) shows,"
    say "  then run this installer again (it sets up what that kind needs)."
    say "  Check it on the touchscreen: Settings, then \"Check the reader\";"
    say "  or in a shell, the app stopped first (sudo systemctl stop $UNIT_NAME): banker hw cards"
}

# Whether the venv's app can import what the reader kind KIND needs (hardware/kinds.py's `missing`).
reader_library_works() {
    in_root "$VENV/bin/python" -c \
        'import sys; from hardware import kinds; sys.exit(bool(kinds.kind(sys.argv[1]).missing()))' "$1" 2>/dev/null
}

# What the configured reader kind needs besides the app: set up for that kind, and what only another kind
# needed taken away again, so that running install.sh (or update.sh) after the family changed the kind sets
# up the new one.
install_reader() {  # KIND (reader_kind's)
    local kind=$1 why path
    step "The card reader: \"$kind\" ([reader] protocol in $CONFIG)"
    if [ "$kind" = pcsc ]; then
        if [ "$SKIP_PACKAGES" = 1 ]; then
            skipped "pcscd (BANKER_INSTALL_SKIP_PACKAGES=1)"
        else
            ensure_packages "the PC/SC daemon" "${PCSC_PACKAGES[@]}"
        fi
        printf '%s\n' "# Board Banker (written by deploy/install.sh): the kernel's NFC driver would take" \
            "# a PN533-based PC/SC reader (the ACR122U) away from pcscd, so it is not loaded." \
            "blacklist pn533_usb" "blacklist pn533" "blacklist nfc" >"$WORK/nfc.conf"
        place_file "$WORK/nfc.conf" "$NFC_BLACKLIST" 644
        if [ "$LAST_CHANGED" = 1 ]; then
            if [ -z "$(services_off_reason)" ] && grep -q '^pn533_usb ' /proc/modules 2>/dev/null; then
                modprobe -r pn533_usb pn533 nfc 2>/dev/null || true
                say "  unloaded   the kernel's pn533 driver (pcscd can have the reader now)"
            else
                note "the kernel's pn533 driver stays off from the next boot"
            fi
        fi
        cat >"$WORK/pcsc.rules" <<EOF
// Board Banker (written by deploy/install.sh): the $USER_NAME service user, which has
// no login session, may use pcscd and the card on its reader, and nothing else.
polkit.addRule(function (action, subject) {
    if (subject.user == "$USER_NAME" &&
        (action.id == "org.debian.pcsc-lite.access_pcsc" ||
         action.id == "org.debian.pcsc-lite.access_card")) {
        return polkit.Result.YES;
    }
});
EOF
        place_file "$WORK/pcsc.rules" "$PCSC_POLKIT_RULE" 644
        why=$(services_off_reason)
        if [ -n "$why" ]; then
            note "pcscd.socket not enabled ($why)"
        elif systemctl is-enabled --quiet pcscd.socket 2>/dev/null; then
            same "pcscd.socket (pcscd starts when a program asks for it)"
        else
            systemctl enable --now pcscd.socket >/dev/null 2>&1
            changed enabled "pcscd.socket"
        fi
    else
        for path in "$NFC_BLACKLIST" "$PCSC_POLKIT_RULE"; do
            if [ -e "$R$path" ]; then
                rm -f "$R$path"
                changed removed "$path (only a PC/SC reader needs it)"
            fi
        done
    fi
    install_reader_library "$kind"
}

# The reader kind's Python library: the app's pip extra named after the kind, unless it imports already.
install_reader_library() {
    local kind=$1 requirements build_packages=()
    if [ "$SKIP_PACKAGES" = 1 ]; then
        skipped "the reader's Python library, if it needs one (BANKER_INSTALL_SKIP_PACKAGES=1)"
        return 0
    fi
    requirements=$(in_root "$VENV/bin/python" - "$kind" <<'PY'
import importlib.metadata
import re
import sys

extra = re.compile(r"""extra\s*==\s*["']%s["']""" % re.escape(sys.argv[1]))
for requirement in importlib.metadata.requires("board-banker") or []:
    spec, _, marker = requirement.partition(";")
    if extra.search(marker):
        print(spec.strip())
PY
)
    if [ -z "$requirements" ]; then
        return 0  # a serial reader: pyserial is one of the app's own requirements
    fi
    if reader_library_works "$kind"; then
        same "the \"$kind\" reader's Python library: $(echo "$requirements" | tr '\n' ' ')"
        return 0
    fi
    case $kind in
        hid) build_packages=("${HID_BUILD_PACKAGES[@]}") ;;
        pcsc) build_packages=("${PCSC_BUILD_PACKAGES[@]}") ;;
        # rc522: spidev builds with gcc and python3-dev, which the app's own packages bring.
    esac
    if [ ${#build_packages[@]} -gt 0 ]; then
        ensure_packages "apt packages to build the \"$kind\" reader's library" "${build_packages[@]}"
    fi
    # shellcheck disable=SC2086  # one requirement a word
    if ! pip_in_venv install -q $requirements >"$WORK/reader-library.log" 2>&1 || ! reader_library_works "$kind"; then
        tail -n 30 "$WORK/reader-library.log" >&2
        die 1 "the \"$kind\" reader's Python library could not be installed (pip's last lines are above)"
    fi
    changed installed "the \"$kind\" reader's Python library: $(echo "$requirements" | tr '\n' ' ')"
}

install_rules() {
    step "Device and power rules"
    place_file "$SELF_DIR/99-board-banker.rules" "$UDEV_RULE" 644
    if [ "$LAST_CHANGED" = 1 ]; then
        local why
        why=$(services_off_reason)
        if [ -z "$why" ] && ! { command -v udevadm >/dev/null && [ -S /run/udev/control ]; }; then
            why="udev is not running here"
        fi
        if [ -z "$why" ]; then
            udevadm control --reload-rules
            udevadm trigger --action=add --subsystem-match=tty --subsystem-match=gpio
            say "  reloaded   udev rules (a reader already plugged in gets /dev/banker-reader now)"
        else
            note "udev rules not reloaded ($why): they apply from the next boot or re-plug"
        fi
    fi
    # The app's "shut down" button runs `systemctl poweroff` as the banker user.
    # A service has no login session, so logind asks polkit, whose default is to
    # refuse; this rule allows exactly powering off, for that user only.
    cat >"$WORK/polkit.rules" <<EOF
// Board Banker (written by deploy/install.sh): the banker's "Shut down" button
// runs "systemctl poweroff" as the $USER_NAME service user, which has no login
// session; allow it to power the machine off, and nothing else.
polkit.addRule(function (action, subject) {
    if (subject.user == "$USER_NAME" &&
        (action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions" ||
         action.id == "org.freedesktop.login1.power-off-ignore-inhibit")) {
        return polkit.Result.YES;
    }
});
EOF
    place_file "$WORK/polkit.rules" "$POLKIT_RULE" 644
}

install_service() {
    step "The board-banker service"
    place_file "$SELF_DIR/board-banker.service" "$UNIT" 644
    local unit_changed=$LAST_CHANGED why
    why=$(services_off_reason)
    if [ -z "$why" ]; then
        if [ "$unit_changed" = 1 ]; then
            systemctl daemon-reload
            say "  reloaded   systemd's units"
        fi
        if systemctl is-enabled --quiet "$UNIT_NAME"; then
            same "$UNIT_NAME enabled at boot"
        else
            systemctl enable --quiet "$UNIT_NAME"
            changed enabled "$UNIT_NAME (starts at the next boot; not started now)"
        fi
    elif [ -L "$R$WANTS" ]; then
        same "$UNIT_NAME enabled at boot"
    else
        # Exactly the link `systemctl enable` makes for WantedBy=multi-user.target.
        mkdir -p "$(dirname "$R$WANTS")"
        ln -s "$UNIT" "$R$WANTS"
        changed enabled "$UNIT_NAME (link made directly: $why)"
    fi
}

configure_boot() {  # KIND (reader_kind's)
    step "Boot configuration (Raspberry Pi only)"
    local why="" model kind=$1
    model=$(pi_model)
    if [ "$ROOT_MODE" = 1 ]; then
        why="--root"
    elif [ "$NO_BOOT_CONFIG" = 1 ]; then
        why="--no-boot-config"
    elif ! is_pi; then
        why="not a Raspberry Pi (${model:-no /proc/device-tree/model})"
    fi
    if [ -n "$why" ]; then
        skipped "serial console off (raspi-config nonint do_serial_cons 1): $why"
        skipped "UART on (raspi-config nonint do_serial_hw 0): $why"
        skipped "Pi 5: dtparam=uart0=on in config.txt: $why"
        if [ "$kind" = rc522 ]; then
            skipped "SPI on the header for the rc522 reader (dtparam=spi=on in config.txt): $why"
        fi
        skipped "screen blanking off (consoleblank=0 in cmdline.txt): $why"
        skipped "boot to the console instead of the desktop: $why"
        return 0
    fi
    say "  $model"
    local boot=/boot/firmware
    if [ ! -f "$boot/cmdline.txt" ]; then boot=/boot; fi
    if [ ! -f "$boot/cmdline.txt" ] || [ ! -f "$boot/config.txt" ]; then
        die 1 "no cmdline.txt and config.txt in /boot/firmware or /boot"
    fi
    if command -v raspi-config >/dev/null; then
        # raspi-config's get_* answer 0 for "on" and 1 for "off".
        if [ "$(raspi-config nonint get_serial_cons)" = 1 ]; then
            same "serial console off"
        else
            raspi-config nonint do_serial_cons 1
            REBOOT_NEEDED=1
            changed set "serial console off (the UART is the card reader's)"
        fi
        if [ "$(raspi-config nonint get_serial_hw)" = 0 ]; then
            same "UART on"
        else
            raspi-config nonint do_serial_hw 0
            REBOOT_NEEDED=1
            changed set "UART on"
        fi
    else
        skipped "serial console off, UART on: raspi-config is not installed (not Raspberry Pi OS?)"
    fi
    if is_pi5; then
        config_uart0 "$boot/config.txt"
    else
        skipped "dtparam=uart0=on: only needed on a Pi 5"
    fi
    config_reader_boot "$kind" "$boot/config.txt"
    cmdline_consoleblank "$boot/cmdline.txt"
    # A desktop's display manager holds the screen, and the app could not draw.
    if [ "$(systemctl get-default 2>/dev/null || true)" = graphical.target ] &&
        systemctl is-enabled --quiet display-manager.service 2>/dev/null; then
        if command -v raspi-config >/dev/null; then
            raspi-config nonint do_boot_behaviour B1
        else
            systemctl set-default multi-user.target
        fi
        REBOOT_NEEDED=1
        changed set "boot to the console instead of the desktop (undo: raspi-config nonint do_boot_behaviour B4)"
    else
        same "boots to the console (no desktop)"
    fi
}

summary() {  # KIND (reader_kind's)
    STEP="summary"
    say ""
    if [ "$CHANGES" = 0 ]; then
        say "board-banker install: no changes (everything was already in place)"
    else
        say "board-banker install: $CHANGES change$([ "$CHANGES" = 1 ] || echo s)"
    fi
    if [ -n "${BANKER_INSTALL_CHANGES_FILE:-}" ]; then echo "$CHANGES" >"$BANKER_INSTALL_CHANGES_FILE"; fi
    reader_summary "$1"
    say "The screen: [display] touch and rotation in $CONFIG (deploy/README.md, 2.5)."
    if [ "$ROOT_MODE" = 1 ]; then
        say "Installed into $R; the service starts when that system boots."
        return 0
    fi
    if [ "$REBOOT_NEEDED" = 1 ]; then
        say "Next: reboot: the boot configuration changed (sudo reboot)."
    elif [ -n "$(services_off_reason)" ]; then
        say "Next: reboot: the service starts at boot (not started now: $(services_off_reason))."
    else
        say "Next: start it now with: sudo systemctl start $UNIT_NAME   (or reboot)"
    fi
    say "Logs: journalctl -u $UNIT_NAME -f"
}

main() {
    parse_args "$@"
    preflight "$@"
    trap 'on_error $? $LINENO' ERR
    trap cleanup EXIT
    WORK=$(mktemp -d)
    say "Board Banker installer: ${R:-/}${WHEEL:+ from $WHEEL}"
    install_packages
    setup_user
    install_app
    install_config
    local kind
    kind=$(reader_kind)  # the config's [reader] protocol, read once: the reader's step and the boot's use it
    install_reader "$kind"
    install_rules
    install_service
    configure_boot "$kind"
    summary "$kind"
}

# Sourcing this file (tests do) defines the functions without running anything.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    main "$@"
fi
