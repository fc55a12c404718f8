#!/usr/bin/env bash
# The Pi guide's commands, run as written: deploy/README.md's ```sh blocks
# (tests/deploy/guide_blocks.py reads them out, ```sh pi-only ones left out,
# <project-address> filled from its table) in a fresh Debian 12 or 13 root made
# as chroot_install.sh makes its own (tests/deploy/chroot_common.sh: debootstrap
# minbase from the cached tarball, /proc and /dev mounted, the cleanup).
#
# The root is made like a Pi's first boot after the Imager: apt's lists
# fetched, sudo installed, a user `pi` with a home, bash, the groups the Imager's
# user has (those Debian has) and sudo without a password
# (/etc/sudoers.d/010_pi-nopasswd, as Raspberry Pi OS has it). The project's
# address is a bare git repository of this work tree (one commit of it, as it is,
# uncommitted changes included) at guide_blocks.py's PROJECT_REPOSITORY. The
# machine's network settings (the proxy and CA variables in_chroot passes) go to
# the root's /etc/environment (a login reads it) and sudo keeps them.
#
# Each block then runs as pi in its own login shell (su --login pi), with
# errexit and pipefail, in the folder where the block before ended (as in one
# terminal: `cd ~/board-banker` carries over; a variable does not), stdin
# empty. The first failing block fails the test with its text and output.
# After the last block that runs deploy/install.sh, what the guide promises is
# checked: the app in the venv the installer makes (`banker --version` naming
# the cloned commit), the `banker` command for pi, the unit (enabled), the udev
# and polkit rules, the config file, the clone in pi's home. The blocks after
# it (updates, backups...) must run too.
#
# Usage: sudo tests/deploy/chroot_guide.sh [--release bookworm|trixie] [--keep]
# BANKER_GUIDE=FILE runs FILE's blocks instead of deploy/README.md's (another
# branch's guide against this installer).
# Needs root, debootstrap, git, python3, the Debian mirror and PyPI (as
# chroot_install.sh; BANKER_DEBIAN_MIRROR and BANKER_TEST_CACHE as there).
# Exit status: 0 passed, 1 a block or a check failed (or the guide has no
# ```sh block), 2 cannot run here.
set -Eeuo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=chroot_common.sh source-path=SCRIPTDIR
source "$REPO/tests/deploy/chroot_common.sh"
parse_options "$@"
cannot() { printf 'chroot_guide.sh: %s\n' "$*" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || cannot "must run as root"
for tool in debootstrap git python3; do
    command -v "$tool" >/dev/null || cannot "$tool is not installed (apt-get install $tool)"
done

trap cleanup EXIT
trap 'printf "chroot_guide.sh: FAILED: a command failed at line %s (exit status %s)\n" "$LINENO" "$?" >&2' ERR

make_work
GUIDE=${BANKER_GUIDE:-deploy/README.md}
BLOCKS=/var/tmp/guide-blocks  # inside the root: the blocks, readable by pi
USER_NAME=pi

phase "the guide's sh blocks (tests/deploy/guide_blocks.py)"
python3 "$REPO/tests/deploy/guide_blocks.py" write "$WORK/blocks" ${BANKER_GUIDE:+"$BANKER_GUIDE"} || fail "the guide's blocks cannot be run (above)"
COUNT=$(find "$WORK/blocks" -name '*.sh' | wc -l)
SET_UP=$(cat "$WORK/blocks/set-up")
PROJECT_REPOSITORY=$(cat "$WORK/blocks/project-repository")
phase_done "$COUNT blocks read from $GUIDE"

debootstrap_root "$(dpkg --print-architecture)"

phase "prepare the root: the checkout as the project's address, sudo, the user pi"
prepare_root
# The project's address: a bare repository holding this work tree as one commit.
git -C "$TARGET$SRC" init --quiet
git -C "$TARGET$SRC" add --all
git -C "$TARGET$SRC" -c user.name="chroot_guide.sh" -c user.email="test@localhost" -c commit.gpgsign=false \
    commit --quiet --no-verify -m "this work tree, for tests/deploy/chroot_guide.sh"
COMMIT=$(git -C "$TARGET$SRC" rev-parse --short=7 HEAD)
mkdir -p "$(dirname "$TARGET$PROJECT_REPOSITORY")"
git clone --quiet --bare "$TARGET$SRC" "$TARGET$PROJECT_REPOSITORY"
rm -rf "$TARGET$SRC/.git"
# The network settings as the machine's own: in_chroot passes them in its environment; a login takes them
# from /etc/environment, and sudo keeps them (the test's own sudoers line, beside the Imager's).
printf '%s\n' "${NET_ENV[@]}" >>"$TARGET/etc/environment"
# And the host name in /etc/hosts, as Raspberry Pi OS has it (sudo looks it up).
printf '127.0.1.1\t%s\n' "$(hostname)" >>"$TARGET/etc/hosts"
in_chroot apt-get update -qq
in_chroot env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends sudo >/dev/null
groups=()
for g in adm dialout cdrom sudo audio video plugdev games users input render netdev gpio i2c spi; do
    if in_chroot getent group "$g" >/dev/null; then groups+=("$g"); fi
done
in_chroot useradd --create-home --shell /bin/bash --groups "$(IFS=,; echo "${groups[*]}")" "$USER_NAME"
printf '%s ALL=(ALL) NOPASSWD: ALL\n' "$USER_NAME" >"$TARGET/etc/sudoers.d/010_pi-nopasswd"
printf 'Defaults env_keep += "%s"\n' "$(printf '%s\n' "${NET_ENV[@]}" | cut -d= -f1 | xargs)" \
    >"$TARGET/etc/sudoers.d/000-test-network"
chmod 440 "$TARGET/etc/sudoers.d/010_pi-nopasswd" "$TARGET/etc/sudoers.d/000-test-network"
in_chroot visudo --check >/dev/null || fail "the root's sudoers do not parse"
mkdir -p "$TARGET$BLOCKS"
cp "$WORK/blocks/"*.sh "$TARGET$BLOCKS/"
in_chroot getent passwd "$USER_NAME" | cut -d: -f6 >"$TARGET$BLOCKS/cwd"
in_chroot chown -R "$USER_NAME:$USER_NAME" "$BLOCKS"
# pi's own: git refuses to clone another user's repository on this machine (safe.directory), while the
# project's real address is another machine's, where nobody's ownership is checked.
in_chroot chown -R "$USER_NAME:$USER_NAME" "$PROJECT_REPOSITORY"
chmod -R a+rX "$TARGET$BLOCKS"
echo "ok: user $USER_NAME (groups: ${groups[*]}), sudo, the project at file://$PROJECT_REPOSITORY (commit $COMMIT)"
phase_done "git repository, apt-get update, sudo, the user pi"

# Sourced by pi's login shell with a block's number: to where the block before ended, errexit and
# pipefail, the block, then where it ended.
cat >"$TARGET$BLOCKS/run" <<EOF
cd "\$(cat $BLOCKS/cwd)" || exit 1
set -eo pipefail
source "$BLOCKS/\$1.sh"
pwd >"$BLOCKS/cwd"
EOF

# What the guide promises once it has run deploy/install.sh.
check_installed() {
    local version home
    version=$(in_chroot /opt/board-banker/venv/bin/banker --version) ||
        fail "/opt/board-banker/venv/bin/banker --version failed"
    [[ $version =~ ^board-banker\ [0-9][^\ ]*\ \(git\ $COMMIT\)$ ]] ||
        fail "banker --version says '$version', not the cloned commit $COMMIT"
    echo "ok: $version (the commit <project-address> holds)"
    in_chroot su --login "$USER_NAME" --command 'banker rules' </dev/null | grep -q classic ||
        fail "the banker command of $USER_NAME's login shell does not list the classic rules"
    echo "ok: banker rules, as $USER_NAME"
    cmp -s "$REPO/deploy/board-banker.service" "$TARGET/etc/systemd/system/board-banker.service" ||
        fail "the unit file is not deploy/board-banker.service"
    [ -L "$TARGET/etc/systemd/system/multi-user.target.wants/board-banker.service" ] || fail "the unit is not enabled"
    cmp -s "$REPO/deploy/99-board-banker.rules" "$TARGET/etc/udev/rules.d/99-board-banker.rules" ||
        fail "the udev rule is not deploy/99-board-banker.rules"
    [ -f "$TARGET/etc/polkit-1/rules.d/50-board-banker.rules" ] || fail "no polkit rule"
    [ -f "$TARGET/etc/board-banker/config.toml" ] || fail "no /etc/board-banker/config.toml"
    [ -x "$TARGET/opt/board-banker/bin/board-banker-launch" ] || fail "no launcher"
    echo "ok: unit (enabled), udev and polkit rules, /etc/board-banker/config.toml, the launcher"
    home=$(in_chroot getent passwd "$USER_NAME" | cut -d: -f6)
    # (root reads pi's repository: git wants to be told that it is safe)
    [ "$(in_chroot git -c safe.directory="$home/board-banker" -C "$home/board-banker" rev-parse --short=7 HEAD)" = \
        "$COMMIT" ] ||
        fail "$home/board-banker is not a clone of <project-address>"
    [ "$(stat -c %u "$TARGET$home/board-banker")" = "$(in_chroot id -u "$USER_NAME")" ] ||
        fail "$home/board-banker is not $USER_NAME's"
    echo "ok: $home/board-banker, $USER_NAME's clone"
}

for number in $(seq -f %02g 1 "$COUNT"); do
    line=$(cat "$WORK/blocks/$number.line")
    phase "the guide's block $number of $COUNT ($GUIDE line $line), as $USER_NAME"
    sed 's/^/    /' "$WORK/blocks/$number.sh"
    status=0
    in_chroot su --login "$USER_NAME" --command ". $BLOCKS/run $number" </dev/null >"$LOGS/block-$number.log" 2>&1 ||
        status=$?
    if [ "$status" -ne 0 ]; then
        printf 'Its output (the last 80 lines):\n'
        tail -n 80 "$LOGS/block-$number.log" | sed 's/^/  | /'
        fail "the guide's block $number ($GUIDE line $line, above) failed with exit status $status"
    fi
    tail -n 20 "$LOGS/block-$number.log" | sed 's/^/  | /'
    phase_done "block $number (line $line): $(grep -v '^cd ' "$WORK/blocks/$number.sh" | paste -sd ';' | cut -c 1-70)"
    if [ "$number" = "$SET_UP" ]; then
        phase "what the guide promises after its set-up (block $number)"
        check_installed
        phase_done "checks"
    fi
done

print_timings
echo "chroot guide test: passed ($COUNT blocks of $GUIDE on Debian $RELEASE_NUMBER)"
