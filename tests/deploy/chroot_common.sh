# shellcheck shell=bash
# What the slow installer tests share (tests/deploy/chroot_install.sh on this
# machine's architecture, tests/deploy/arm64_install.sh on emulated arm64):
# their options (--release, --keep), the timings, the mirror, a Debian root
# made from a cached debootstrap tarball and made ready for install.sh with
# this checkout copied into it, commands inside it, and the cleanup that
# never deletes through a mount. Sourced, not run; the caller sets REPO,
# calls parse_options "$@" and `trap cleanup EXIT`.

WORK=""
TARGET=""
NET_ENV=()
SRC=/src/board-banker  # where the checkout is copied inside the root
START=$SECONDS
PHASE_START=$SECONDS
TIMINGS=()
SELF=$(basename "$0")
KEEP=0
RELEASE=bookworm  # the Debian release the root is made of (--release)
RELEASE_NUMBER=12
# Where debootstrap's packages are kept between runs, one tarball per release
# and architecture: <release>-<arch>-minbase.tgz.
CACHE=${BANKER_TEST_CACHE:-/var/cache/board-banker-tests}

usage_exit() {
    printf 'usage: %s [--release bookworm|trixie] [--keep]\n' "$SELF" >&2
    exit 2
}

# The options both tests take: --release bookworm|trixie (Debian 12, the
# default, or Debian 13) and --keep.
parse_options() {
    while [ $# -gt 0 ]; do
        case $1 in
            --keep) KEEP=1; shift ;;
            --release) [ $# -ge 2 ] || usage_exit; RELEASE=$2; shift 2 ;;
            --release=*) RELEASE=${1#*=}; shift ;;
            *) usage_exit ;;
        esac
    done
    case $RELEASE in
        bookworm) RELEASE_NUMBER=12 ;;
        trixie) RELEASE_NUMBER=13 ;;
        *) printf '%s: --release %s: only bookworm (Debian 12) and trixie (Debian 13) are tested\n' \
               "$SELF" "$RELEASE" >&2
           exit 2 ;;
    esac
}

fail() { printf '%s: FAILED: %s\n' "$SELF" "$*" >&2; exit 1; }
phase() { PHASE_START=$SECONDS; printf '\n######## %s\n' "$1"; }
phase_done() { TIMINGS+=("$(printf '%5ds  %s' $((SECONDS - PHASE_START)) "$1")"); }
print_timings() {
    printf '\nTimings:\n'
    printf '%s\n' "${TIMINGS[@]}"
    printf '%5ds  total\n' $((SECONDS - START))
}

# The Debian mirror apt uses here: the first one serving RELEASE itself (not
# RELEASE-security or -updates), from deb822 .sources files or one-line lists;
# failing that, the first Debian archive (a URI ending in /debian) serving any
# release, since a Debian mirror serves them all (this machine's apt may list
# only bookworm while the test builds trixie).
debian_mirror() {
    if [ -n "${BANKER_DEBIAN_MIRROR:-}" ]; then echo "$BANKER_DEBIAN_MIRROR"; return 0; fi
    local suite uri_pattern uri_word f uri
    for suite in "$RELEASE" '[a-z]+'; do
        uri_pattern='.*' uri_word='[^[:space:]]+'
        if [ "$suite" != "$RELEASE" ]; then uri_pattern='.*/debian/?' uri_word='[^[:space:]]*/debian/?'; fi
        for f in /etc/apt/sources.list.d/*.sources; do
            [ -f "$f" ] || continue
            uri=$(awk -v suite="$suite" -v uri_pattern="$uri_pattern" 'BEGIN { RS = ""; FS = "\n" }
                { uris = ""; suites = ""
                  for (i = 1; i <= NF; i++) {
                      if ($i ~ /^URIs:/) { sub(/^URIs:[ \t]*/, "", $i); uris = $i }
                      if ($i ~ /^Suites:/) { sub(/^Suites:[ \t]*/, "", $i); suites = " " $i " " }
                  }
                  split(uris, u, /[ \t]+/)
                  if (uris != "" && suites ~ (" " suite " ") && u[1] ~ ("^" uri_pattern "$")) { print u[1]; exit } }' "$f")
            if [ -n "$uri" ]; then echo "$uri"; return 0; fi
        done
        for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
            [ -f "$f" ] || continue
            uri=$(sed -nE "s#^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?(${uri_word})[[:space:]]+${suite}[[:space:]].*#\2#p" "$f" |
                head -n 1)
            if [ -n "$uri" ]; then echo "$uri"; return 0; fi
        done
    done
    echo "http://deb.debian.org/debian"
}

# A minbase root of RELEASE for ARCH in TARGET, from the tarball of its
# packages in CACHE (fetched the first time). Times both steps.
debootstrap_root() {  # ARCH
    local arch=$1 tarball mirror
    tarball=$CACHE/$RELEASE-$arch-minbase.tgz
    mirror=$(debian_mirror)
    phase "debootstrap: the $RELEASE $arch packages (cached in $tarball)"
    if [ -s "$tarball" ]; then
        echo "cached: $tarball"
        phase_done "debootstrap tarball (cached)"
    else
        mkdir -p "$CACHE"
        echo "mirror: $mirror"
        if ! debootstrap --arch="$arch" --variant=minbase --make-tarball="$WORK/packages.tgz" "$RELEASE" \
            "$WORK/tarball-root" "$mirror" >"$LOGS/tarball.log" 2>&1; then
            tail -n 30 "$LOGS/tarball.log" >&2
            fail "debootstrap could not fetch the $RELEASE $arch packages from $mirror"
        fi
        # Renamed into place, so a run cut short never leaves half a tarball for the next one.
        mv "$WORK/packages.tgz" "$tarball.new-$$"
        mv -f "$tarball.new-$$" "$tarball"
        rm -rf --one-file-system "$WORK/tarball-root"
        phase_done "debootstrap tarball (fetched)"
    fi
    phase "debootstrap: Debian $RELEASE_NUMBER ($RELEASE) $arch minbase"
    if ! debootstrap --arch="$arch" --variant=minbase --unpack-tarball="$tarball" "$RELEASE" "$TARGET" "$mirror" \
        >"$LOGS/debootstrap.log" 2>&1; then
        tail -n 30 "$LOGS/debootstrap.log" >&2
        fail "debootstrap failed (a stale cache? remove $tarball and run again)"
    fi
    local codename
    codename=$(sed -n 's/^VERSION_CODENAME=//p' "$TARGET/etc/os-release")
    [ "$codename" = "$RELEASE" ] || fail "the root is '$codename', not $RELEASE"
    phase_done "debootstrap --arch=$arch --variant=minbase $RELEASE"
}

# A run of install.sh (its output in LOG) that must have changed nothing.
expect_no_changes() {  # LOG WHAT
    grep -q '^board-banker install: no changes' "$1" || fail "$2 changed something (see above)"
    if grep -Eq '^  (installed|updated|created|linked|added|set|enabled) ' "$1"; then
        fail "$2 reported a change"
    fi
}

# Whether the probe's report (tests/deploy/probe_install.py's JSON in FILE) shows
# a working lgpio for MACHINE: PyPI's wheel for it or one pip built from the
# source, whose C extension is built for MACHINE, loads, and answers a call.
# An empty lgpio.py (PyPI's 0.0.0.2) imports too, and fails here.
lgpio_verdict() {  # FILE MACHINE
    python3 - "$1" "$2" <<'EOF'
import json, sys
report, machine = json.load(open(sys.argv[1])), sys.argv[2]
lgpio, wheel = report["lgpio"], report["wheels"]["lgpio"]
if not (lgpio["works"] and lgpio["machine"] == machine and wheel is not None
        and any(tag.endswith("_" + machine) for tag in wheel["tags"])):
    print(f"MISSING: a working lgpio for {machine}: {json.dumps(lgpio)}, wheel {wheel}")
    sys.exit(1)
print(f"ok: lgpio {wheel['version']} from the wheel {', '.join(wheel['tags'])}: {lgpio['extension']} "
      f"built for {lgpio['machine']}, loaded; {lgpio['call']}")
EOF
}

mounted_below() { awk -v t="$1" '$2 == t || index($2, t "/") == 1 { found = 1 } END { exit !found }' /proc/mounts; }

cleanup() {
    local status=$?
    if [ -n "$TARGET" ]; then
        local m
        for m in dev/pts dev proc; do
            if mountpoint -q "$TARGET/$m"; then umount "$TARGET/$m" || umount -l "$TARGET/$m" || true; fi
        done
    fi
    if [ -n "$WORK" ]; then
        if [ -n "$TARGET" ] && mounted_below "$TARGET"; then
            # Never delete through a mount that is still there: /dev is the host's.
            echo "$SELF: something is still mounted below $TARGET; not deleting $WORK" >&2
        elif [ "$KEEP" = 1 ]; then
            echo "$SELF: kept $TARGET"
        else
            rm -rf --one-file-system "$WORK"
        fi
    fi
    exit "$status"
}

# A command inside the root, with a clean environment: nothing from this
# shell (a pyenv PATH, PYTHONPATH) may leak into the system under test.
# Only the network settings pass (NET_ENV, below): the root must reach apt's
# mirror and PyPI the way this machine does.
in_chroot() {
    chroot "$TARGET" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 "${NET_ENV[@]}" "$@"
}
# The same as the banker user, as the service would run it.
as_banker() {
    chroot --userspec=banker:banker "$TARGET" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin \
        HOME=/var/lib/board-banker LANG=C.UTF-8 "$@"
}

# A fresh scratch folder: WORK, the root in it (TARGET) and the logs (LOGS).
make_work() {
    WORK=$(mktemp -d /var/tmp/banker-chroot.XXXXXX)
    TARGET=$WORK/root
    LOGS=$WORK/logs
    mkdir -p "$LOGS"
}

# The root made ready for install.sh: /proc, /dev and /dev/pts mounted, the
# resolver and the certificates this machine trusts, no services started by
# packages, and the checkout copied to $SRC.
prepare_root() {
    mount -t proc proc "$TARGET/proc"
    mount --bind /dev "$TARGET/dev"
    mount --bind /dev/pts "$TARGET/dev/pts"
    cp /etc/resolv.conf "$TARGET/etc/resolv.conf"
    # pip in the root must trust what this machine trusts: where HTTPS goes through
    # an intercepting proxy, its CA is in the system bundle and the local CAs, and
    # pip is pointed at that bundle. Without such a proxy this changes nothing.
    # pip tries a reset connection again ten times rather than five: one slow
    # emulated arm64 run lost 75 minutes to PyPI resetting five tries in a row.
    NET_ENV=(PIP_RETRIES=10)
    if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
        mkdir -p "$TARGET/etc/ssl/certs"
        cp /etc/ssl/certs/ca-certificates.crt "$TARGET/etc/ssl/certs/ca-certificates.crt"
        NET_ENV+=(PIP_CERT=/etc/ssl/certs/ca-certificates.crt)
    fi
    if [ -d /usr/local/share/ca-certificates ]; then
        mkdir -p "$TARGET/usr/local/share/ca-certificates"
        cp -r /usr/local/share/ca-certificates/. "$TARGET/usr/local/share/ca-certificates/"
    fi
    local var
    for var in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY PIP_INDEX_URL; do
        if [ -n "${!var:-}" ]; then NET_ENV+=("$var=${!var}"); fi
    done
    # Packages must not start services inside the chroot (the policy-rc.d convention).
    printf '#!/bin/sh\nexit 101\n' >"$TARGET/usr/sbin/policy-rc.d"
    chmod 755 "$TARGET/usr/sbin/policy-rc.d"
    mkdir -p "$TARGET$SRC"
    if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
        # What the work tree holds, committed or not, minus what .gitignore keeps out (.venv, build/).
        git -C "$REPO" ls-files -z --cached --others --exclude-standard |
            while IFS= read -r -d '' f; do if [ -e "$REPO/$f" ]; then printf '%s\0' "$f"; fi; done |
            tar -C "$REPO" --null -T - -cf - | tar -C "$TARGET$SRC" -xf -
    else
        tar -C "$REPO" --exclude=.git --exclude=.venv --exclude=build --exclude='*.egg-info' -cf - . |
            tar -C "$TARGET$SRC" -xf -
    fi
}
