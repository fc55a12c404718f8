"""The Pi appliance installer (deploy/): scripts, unit, launcher, file placement, the boot-file edits.

The fast tests run install.sh, update.sh and uninstall.sh with ``--root`` into
a temporary folder holding only the account files, with
BANKER_INSTALL_SKIP_PACKAGES=1 (no apt, no venv, no pip): what they check is
which files land where, the user and groups, and that a second run changes
nothing. The real installation, apt and pip included, is
tests/deploy/chroot_install.sh in a fresh Debian 12 and a fresh Debian 13 root;
it takes minutes and runs only with BANKER_SLOW_TESTS=1. So does
tests/deploy/chroot_update.sh: the commit before installed in a fresh Debian 12
root, a family's games, edition, settings and config made with it, and this
checkout's update.sh run over them, which must keep every one. And so does
tests/deploy/arm64_install.sh: the same installer in Debian 12 and 13 arm64
roots under emulation (qemu-user), as on a Pi, with the app's frames rendered
there and compared with this machine's.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hardware.kinds import NAMES

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
HERE = Path(__file__).resolve().parent
CHROOT_DRIVER = HERE / "chroot_install.sh"
ARM64_DRIVER = HERE / "arm64_install.sh"
UPDATE_DRIVER = HERE / "chroot_update.sh"
SHELL_SCRIPTS = (sorted(DEPLOY.glob("*.sh")) + [CHROOT_DRIVER, ARM64_DRIVER, UPDATE_DRIVER, HERE / "chroot_common.sh",
                                                 HERE / "chroot_guide.sh"]
                 + sorted((REPO / "scripts").glob("*.sh")) + [REPO / ".ci" / "run"])

UNIT = "/etc/systemd/system/board-banker.service"
WANTS = "/etc/systemd/system/multi-user.target.wants/board-banker.service"
UDEV_RULE = "/etc/udev/rules.d/99-board-banker.rules"
POLKIT_RULE = "/etc/polkit-1/rules.d/50-board-banker.rules"
CONFIG = "/etc/board-banker/config.toml"
LAUNCHER = "/opt/board-banker/bin/board-banker-launch"
LINK = "/usr/local/bin/banker"
HOME = "/var/lib/board-banker"
GROUPS = ("dialout", "gpio", "input", "video", "render", "audio", "spi")
RELEASES = ("bookworm", "trixie")  # Debian 12 (Raspberry Pi OS "Legacy") and 13 (the Imager's default)
CHANGE_LINE = re.compile(r"^  (installed|updated|created|linked|added|set|enabled|removed|stopped|disabled) ", re.M)

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="the installer runs as root (it creates a user in the temp root)")


def run(*command: str | Path, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, env=full_env,
                          timeout=timeout, check=False)


def install(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run("bash", DEPLOY / "install.sh", "--root", root, *args, env={"BANKER_INSTALL_SKIP_PACKAGES": "1"})


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A folder with just enough of a system for useradd and groupadd (as on Debian: no gpio, input, render)."""
    base = tmp_path / "root"
    (base / "etc").mkdir(parents=True)
    (base / "var/lib").mkdir(parents=True)
    (base / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (base / "etc/group").write_text("root:x:0:\ndialout:x:20:\naudio:x:29:\nvideo:x:44:\n")
    (base / "etc/shadow").write_text("root:*:19000:0:99999:7:::\n")
    (base / "etc/gshadow").write_text("root:*::\ndialout:*::\naudio:*::\nvideo:*::\n")
    for name in ("shadow", "gshadow"):
        (base / "etc" / name).chmod(0o640)
    return base


def group_members(root: Path) -> dict[str, list[str]]:
    members = {}
    for line in (root / "etc/group").read_text().splitlines():
        name, _, _, users = line.split(":")
        members[name] = [user for user in users.split(",") if user]
    return members


def passwd_entry(root: Path, user: str) -> list[str] | None:
    for line in (root / "etc/passwd").read_text().splitlines():
        fields = line.split(":")
        if fields[0] == user:
            return fields
    return None


# ----------------------------------------------------------------------------
# Static checks


@pytest.mark.parametrize("script", SHELL_SCRIPTS, ids=lambda path: path.name)
def test_shellcheck(script: Path) -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (Debian: apt-get install shellcheck)")
    result = run("shellcheck", "--severity=style", "--external-sources", script)  # (follows chroot_common.sh)
    assert result.returncode == 0, result.stdout + result.stderr


def test_launcher_is_valid_python() -> None:
    source = (DEPLOY / "board-banker-launch").read_text()
    compile(source, "board-banker-launch", "exec")


def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (Debian: apt-get install systemd)")
    # The unit as install.sh places it, with its paths moved into tmp_path where a stub launcher exists.
    stub = tmp_path / "opt/board-banker/bin/board-banker-launch"
    stub.parent.mkdir(parents=True)
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    text = (DEPLOY / "board-banker.service").read_text()
    assert "ExecStart=/opt/board-banker/bin/board-banker-launch\n" in text
    unit = tmp_path / "board-banker.service"
    unit.write_text(text.replace("/opt/board-banker/", f"{tmp_path}/opt/board-banker/"))
    result = run("systemd-analyze", "verify", "--man=no", unit)
    assert result.returncode == 0, result.stdout + result.stderr
    # Unknown keys are only warnings to systemd: any output at all is a problem here.
    assert result.stdout + result.stderr == ""


def test_unit_settings() -> None:
    lines = set((DEPLOY / "board-banker.service").read_text().splitlines())
    for wanted in ("User=banker", "Restart=on-failure", "RestartSec=5", "StandardOutput=journal",
                   "StandardError=journal", "WantedBy=multi-user.target",
                   "SupplementaryGroups=" + " ".join(GROUPS)):
        assert wanted in lines


def test_the_unit_leaves_files_for_the_app_beside_a_full_phone_server() -> None:
    from ui.phoneserver import gate

    limits = [line.partition("=")[2] for line in (DEPLOY / "board-banker.service").read_text().splitlines()
              if line.startswith("LimitNOFILE=")]
    assert len(limits) == 1 and limits[0].isdigit()
    addresses = 4  # listened on: the Pi's Wi-Fi and Ethernet, IPv4 and IPv6
    batches = 2 * gate.ACCEPT_BATCH * addresses  # accepted, not yet admitted; closed for room, not yet released
    app_files = 1024  # the journal, the readers, Kivy, the GPU: what a process gets by default
    assert int(limits[0]) >= gate.MAX_CONNECTIONS + gate.MAX_LINGERING + batches + app_files


def test_udev_rule_names_every_reader_chip() -> None:
    text = (DEPLOY / "99-board-banker.rules").read_text()
    rules = [line for line in text.splitlines() if line and not line.startswith("#")]
    for vendor, product in (("1a86", "7523"), ("10c4", "ea60"), ("0403", "6001"), ("2341", None)):
        match = [rule for rule in rules if f'ATTRS{{idVendor}}=="{vendor}"' in rule]
        assert match, vendor
        assert 'SYMLINK+="banker-reader"' in match[0]
        if product:
            assert f'ATTRS{{idProduct}}=="{product}"' in match[0]
        else:
            assert "idProduct" not in match[0]


# ----------------------------------------------------------------------------
# The launcher


def launch(config: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("SDL_", "KIVY_", "KCFG_", "BANKER_"))}
    environment.update(env)
    return subprocess.run([sys.executable, str(DEPLOY / "board-banker-launch"), "--print", "--config", str(config)],
                          capture_output=True, text=True, env=environment, timeout=60, check=False)


def printed(result: subprocess.CompletedProcess[str]) -> tuple[dict[str, str], str]:
    assert result.returncode == 0, result.stderr
    *assignments, command = result.stdout.strip().splitlines()
    return dict(line.split("=", 1) for line in assignments), command


@pytest.mark.parametrize(("touch", "rotation", "expected"), [
    ("official-7in", 0, "0"),
    ("official-7in", 180, "180"),
    ("hdmi", 270, "270"),
    ("touch-display-2", 0, "90"),      # a portrait panel turned for the landscape app
    ("touch-display-2", 180, "270"),
    ("touch-display-2", 270, "0"),
])
def test_launcher_environment(tmp_path: Path, touch: str, rotation: int, expected: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[display]\nrotation = {rotation}\ntouch = "{touch}"\n')
    env, command = printed(launch(config))
    assert env == {
        "SDL_VIDEODRIVER": "kmsdrm", "KIVY_WINDOW": "sdl2", "KIVY_NO_ARGS": "1", "KIVY_NO_FILELOG": "1",
        "BANKER_KIVY_LOG": "1", "KCFG_GRAPHICS_ROTATION": expected, "KCFG_GRAPHICS_SHOW_CURSOR": "0",
    }
    banker = Path(sys.executable).with_name("banker")
    assert command == f"exec {banker} app --fullscreen --config {config}"


def test_launcher_keeps_variables_set_by_the_unit(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[display]\nrotation = 90\n")
    env, _ = printed(launch(config, SDL_VIDEODRIVER="x11", KCFG_GRAPHICS_ROTATION="180"))
    assert env["SDL_VIDEODRIVER"] == "x11"
    assert env["KCFG_GRAPHICS_ROTATION"] == "180"


def test_launcher_without_a_config_file_uses_the_defaults(tmp_path: Path) -> None:
    result = launch(tmp_path / "missing.toml")
    env, command = printed(result)
    assert env["KCFG_GRAPHICS_ROTATION"] == "0"
    assert "--config" not in command
    assert "does not exist" in result.stderr


def test_launcher_with_a_bad_config_starts_the_app_which_shows_the_problem(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[display]\nrotation = 45\n")
    result = launch(config)
    env, command = printed(result)
    assert env["KCFG_GRAPHICS_ROTATION"] == "0"
    assert command.endswith(f"--config {config}")
    assert "display.rotation: must be 0, 90, 180 or 270" in result.stderr


# ----------------------------------------------------------------------------
# install.sh, update.sh, uninstall.sh into a temp root


@as_root
def test_install_places_the_files_and_a_second_run_changes_nothing(root: Path) -> None:
    first = ok(install(root))
    assert "skipped    apt packages (BANKER_INSTALL_SKIP_PACKAGES=1)" in first
    assert "skipped    the app and lgpio with pip (BANKER_INSTALL_SKIP_PACKAGES=1)" in first
    for pi_step in ("serial console off", "UART on", "dtparam=uart0=on", "consoleblank=0", "desktop"):
        assert re.search(rf"^  skipped    .*{re.escape(pi_step)}.*: --root$", first, re.M), pi_step

    assert (root / UNIT.lstrip("/")).read_text() == (DEPLOY / "board-banker.service").read_text()
    assert os.readlink(root / WANTS.lstrip("/")) == UNIT
    assert (root / UDEV_RULE.lstrip("/")).read_text() == (DEPLOY / "99-board-banker.rules").read_text()
    assert (root / CONFIG.lstrip("/")).read_text() == (REPO / "hardware/config.example.toml").read_text()
    polkit = (root / POLKIT_RULE.lstrip("/")).read_text()
    assert 'subject.user == "banker"' in polkit and '"org.freedesktop.login1.power-off"' in polkit
    assert os.readlink(root / LINK.lstrip("/")) == "/opt/board-banker/venv/bin/banker"

    launcher = root / LAUNCHER.lstrip("/")
    assert stat.S_IMODE(launcher.stat().st_mode) == 0o755
    first_line, rest = launcher.read_text().split("\n", 1)
    assert first_line == "#!/opt/board-banker/venv/bin/python"
    assert rest == (DEPLOY / "board-banker-launch").read_text().split("\n", 1)[1]
    for path in (UNIT, UDEV_RULE, CONFIG, POLKIT_RULE):
        assert stat.S_IMODE((root / path.lstrip("/")).stat().st_mode) == 0o644, path

    user = passwd_entry(root, "banker")
    assert user is not None
    assert user[5:] == [HOME, "/usr/sbin/nologin"]
    home = root / HOME.lstrip("/")
    assert home.is_dir() and stat.S_IMODE(home.stat().st_mode) == 0o750
    assert home.stat().st_uid == int(user[2])
    members = group_members(root)
    for group in GROUPS:
        assert "banker" in members[group], group

    second = ok(install(root))
    assert "board-banker install: no changes" in second
    assert not CHANGE_LINE.search(second), second


@as_root
def test_install_never_overwrites_the_config_but_restores_its_own_files(root: Path) -> None:
    ok(install(root))
    config = root / CONFIG.lstrip("/")
    config.write_text('[reader]\nurl = "/dev/banker-reader"\nprotocol = "line"\n')
    unit = root / UNIT.lstrip("/")
    unit.write_text("[Service]\nExecStart=/bin/false\n")
    (root / WANTS.lstrip("/")).unlink()

    again = ok(install(root))
    assert "kept       /etc/board-banker/config.toml" in again
    assert config.read_text() == '[reader]\nurl = "/dev/banker-reader"\nprotocol = "line"\n'
    assert f"updated    {UNIT}" in again
    assert unit.read_text() == (DEPLOY / "board-banker.service").read_text()
    assert "enabled    board-banker.service" in again
    assert "board-banker install: 2 changes" in again


NFC_BLACKLIST = "/etc/modprobe.d/board-banker-nfc.conf"
PCSC_POLKIT_RULE = "/etc/polkit-1/rules.d/50-board-banker-pcsc.rules"


@as_root
def test_install_sets_up_what_the_configured_reader_kind_needs_and_undoes_it_for_another(root: Path) -> None:
    """A PC/SC reader (hardware/kinds.py's "pcsc") gets the pn533 blacklist and pcscd's polkit rule for the
    banker user; run again with another kind in the config, the installer takes them away again."""
    first = ok(install(root))
    assert '== The card reader: "pn532"' in first
    for path in (NFC_BLACKLIST, PCSC_POLKIT_RULE):
        assert not (root / path.lstrip("/")).exists(), path
    config = root / CONFIG.lstrip("/")

    config.write_text('[reader]\nprotocol = "pcsc"\nurl = ""\n')
    pcsc = ok(install(root))
    assert '== The card reader: "pcsc"' in pcsc
    assert "skipped    pcscd (BANKER_INSTALL_SKIP_PACKAGES=1)" in pcsc
    blacklist = (root / NFC_BLACKLIST.lstrip("/")).read_text()
    assert [line for line in blacklist.splitlines() if not line.startswith("#")] == [
        "blacklist pn533_usb", "blacklist pn533", "blacklist nfc"]
    rule = (root / PCSC_POLKIT_RULE.lstrip("/")).read_text()
    assert 'subject.user == "banker"' in rule
    assert '"org.debian.pcsc-lite.access_pcsc"' in rule and '"org.debian.pcsc-lite.access_card"' in rule
    for path in (NFC_BLACKLIST, PCSC_POLKIT_RULE):
        assert stat.S_IMODE((root / path.lstrip("/")).stat().st_mode) == 0o644, path
        assert f"installed  {path}" in pcsc
    assert "board-banker install: 2 changes" in pcsc
    again = ok(install(root))
    assert "board-banker install: no changes" in again, again

    config.write_text('[reader]\nprotocol = "line"\nurl = "/dev/banker-reader"\n')
    line = ok(install(root))
    for path in (NFC_BLACKLIST, PCSC_POLKIT_RULE):
        assert not (root / path.lstrip("/")).exists(), path
        assert f"removed    {path} (only a PC/SC reader needs it)" in line
    assert "board-banker install: no changes" in ok(install(root))


@as_root
def test_install_takes_the_default_reader_kind_from_a_config_it_cannot_read(root: Path) -> None:
    ok(install(root))
    config = root / CONFIG.lstrip("/")
    for text in ('[reader\nprotocol = "pcsc"\n', '[reader]\nprotocol = 7\n', 'reader = "pcsc"\n',
                 '[reader]\nprotocol = "pcsc; rm -rf /"\n'):
        config.write_text(text)
        result = ok(install(root))
        assert '== The card reader: "pn532"' in result, text
        assert not (root / NFC_BLACKLIST.lstrip("/")).exists()
        # The closing lines do not name a kind or a device the file does not give.
        closing = closing_lines(result)
        assert f"The card reader: {CONFIG} cannot be read, or its [reader] has a mistake" in closing, closing
        assert 'protocol "' not in closing and "Device:" not in closing, closing


def closing_lines(output: str) -> str:
    """What install.sh says after its steps: from the count of changes to the end."""
    return output[output.index("\nboard-banker install: "):]


# Each reader kind's own words in the closing lines: what it is, and where its device is when the config names
# none (the advice no other kind's lines may hold), and a device to name in the config.
READER_CLOSING = {
    "pn532": ("a PN532 board on the Pi's serial pins", ('"/dev/serial0" on a Pi 4', '"/dev/ttyAMA0" on a Pi 5'),
              "/dev/ttyAMA0"),
    "line": ("an Arduino or ESP32 reader on USB", ('"/dev/banker-reader"',), "/dev/serial/by-id/usb-Arduino_Nano-if00"),
    "hid": ("a USB keyboard reader", ('"usb:VID:PID"', "event-kbd"), "usb:ffff:0035"),
    "pcsc": ("a PC/SC reader through pcscd", ("the first PC/SC reader pcscd finds",), "ACS ACR122U"),
    "rc522": ("a bare RC522 module on the Pi's SPI pins", ('"/dev/spidev0.0"',), "/dev/spidev0.1"),
}


def check_the_reader_label() -> str:
    """The touchscreen's way to the reader's check, in the English the app shows it in."""
    po = (REPO / "ui/locale/en/LC_MESSAGES/banker.po").read_text()

    def english(key: str) -> str:
        found = re.search(rf'^msgid "{re.escape(key)}"\nmsgstr "(.+)"$', po, re.M)
        assert found, key
        return found.group(1)

    return f'{english("ui.settings")}, then "{english("ui.settings.check_reader")}"'


def assert_reader_closing(closing: str, kind: str, url: str) -> None:
    what, advice, _ = READER_CLOSING[kind]
    assert f'The card reader ([reader] in {CONFIG}): protocol "{kind}",\n  {what}' in closing, closing
    if url:
        device = f'Device: url = "{url}"'
    elif kind == "pcsc":
        device = 'Device: url = "", the first PC/SC reader pcscd finds.'
    else:
        device = 'Device: none (url = ""), so players use the on-screen buttons.'
    assert device in closing, closing
    for advice_line in advice:
        if url:  # a device named: no advice where to find one
            assert advice_line not in closing, closing
        else:
            assert advice_line in closing, closing
    for other, (other_what, other_advice, _) in READER_CLOSING.items():
        if other != kind:
            assert other_what not in closing, (other, closing)
            for advice_line in other_advice:
                assert advice_line not in closing, (other, closing)
    assert "Another reader: set its protocol and url there as deploy/README.md (2.5) shows" in closing
    assert f"Check it on the touchscreen: {check_the_reader_label()}" in closing, closing
    assert "): banker hw cards\n" in closing, closing
    assert closing.rstrip("\n").endswith("the service starts when that system boots.")


@as_root
def test_install_closes_with_the_sample_configs_reader_on_a_first_install(root: Path) -> None:
    import tomllib

    sample = tomllib.loads((REPO / "hardware/config.example.toml").read_text())["reader"]
    closing = closing_lines(ok(install(root)))
    assert_reader_closing(closing, sample["protocol"], sample["url"])
    assert "The screen: [display] touch and rotation in /etc/board-banker/config.toml" in closing


@as_root
@pytest.mark.parametrize("kind", NAMES)
def test_install_closes_with_the_configured_readers_kind_device_and_check(root: Path, kind: str) -> None:
    """Whatever kind the config names: that kind, its device as the config gives it (or none, with where its
    device usually is; for pcsc the first reader), what to change for another reader and how to check it; no
    other kind's words."""
    ok(install(root))
    config = root / CONFIG.lstrip("/")
    device = READER_CLOSING[kind][2]
    for url in ("", device):
        config.write_text(f'[reader]\nprotocol = "{kind}"\nurl = "{url}"\n')
        result = ok(install(root))
        assert f'== The card reader: "{kind}"' in result
        assert_reader_closing(closing_lines(result), kind, url)


@as_root
def test_install_closes_naming_a_reader_kind_the_app_does_not_know(root: Path) -> None:
    ok(install(root))
    (root / CONFIG.lstrip("/")).write_text('[reader]\nprotocol = "pn533"\nurl = "/dev/serial0"\n')
    closing = closing_lines(ok(install(root)))
    assert f'The card reader: protocol "pn533" in {CONFIG} is not a kind the app knows' in closing, closing
    assert "Device:" not in closing


@as_root
def test_uninstall_removes_what_a_pcsc_reader_needed(root: Path) -> None:
    ok(install(root))
    (root / CONFIG.lstrip("/")).write_text('[reader]\nprotocol = "pcsc"\n')
    ok(install(root))
    removed = ok(run("bash", DEPLOY / "uninstall.sh", "--root", root))
    for path in (NFC_BLACKLIST, PCSC_POLKIT_RULE):
        assert not (root / path.lstrip("/")).exists(), path
        assert f"removed    {path}" in removed


@as_root
def test_install_refuses_bad_usage(root: Path, tmp_path: Path) -> None:
    for args, message in (
        (["--bogus"], "unknown option: --bogus"),
        (["--wheel", str(tmp_path / "missing.whl")], "no such file"),
        (["--wheel", str(REPO / "README.md")], "not a wheel"),
    ):
        result = install(root, *args)
        assert result.returncode == 2, args
        assert message in result.stderr, result.stderr
    result = run("bash", DEPLOY / "install.sh", "--root", tmp_path / "nowhere")
    assert result.returncode == 2 and "no such directory" in result.stderr
    assert not (root / "etc/systemd").exists()


@as_root
def test_install_from_a_wheel_takes_the_config_template_from_it(root: Path, tmp_path: Path) -> None:
    # Without apt and pip the wheel is only read for the config template, so a
    # zip holding that one file stands in for a real wheel.
    import zipfile

    wheel = tmp_path / "board_banker-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("hardware/config.example.toml", "# from the wheel\n")
    first = ok(install(root, "--wheel", str(wheel)))
    assert f"Board Banker installer: {root} from {wheel}" in first
    assert (root / CONFIG.lstrip("/")).read_text() == "# from the wheel\n"
    assert "board-banker install: no changes" in ok(install(root, "--wheel", str(wheel)))


def test_install_help() -> None:
    result = run("bash", DEPLOY / "install.sh", "--help")
    assert result.returncode == 0
    for option in ("--wheel", "--root", "--no-boot-config", "--no-services", "--reinstall",
                   "BANKER_PURE", "BANKER_INSTALL_SKIP_PACKAGES"):
        assert option in result.stdout


@as_root
def test_update_refuses_before_install_then_runs(root: Path) -> None:
    refused = run("bash", DEPLOY / "update.sh", "--root", root, env={"BANKER_INSTALL_SKIP_PACKAGES": "1"})
    assert refused.returncode == 2
    assert "not installed" in refused.stderr and "run deploy/install.sh first" in refused.stderr
    assert not (root / "opt").exists()

    ok(install(root))
    config = root / CONFIG.lstrip("/")
    config.write_text("[dice]\npin = 27\n")
    updated = ok(run("bash", DEPLOY / "update.sh", "--root", root, env={"BANKER_INSTALL_SKIP_PACKAGES": "1"}))
    assert "already up to date" in updated
    assert config.read_text() == "[dice]\npin = 27\n"


@as_root
def test_uninstall_keeps_the_games_and_the_config_unless_purged(root: Path) -> None:
    ok(install(root))
    games = root / HOME.lstrip("/") / ".local/share/board-banker/games.sqlite3"
    games.parent.mkdir(parents=True)
    games.write_text("the family's games")
    tags = games.with_name("tags.json")  # the family's tagged deeds and cards (ui/tags.py), beside the games
    tags.write_text("the family's tags")
    cut = root / f"{UDEV_RULE.lstrip('/')}.board-banker-new"  # an update cut before its rename
    cut.write_text("half of a rule")

    first = ok(run("bash", DEPLOY / "uninstall.sh", "--root", root))
    assert not cut.exists()
    for path in (UNIT, WANTS, UDEV_RULE, POLKIT_RULE, LINK, "/opt/board-banker"):
        assert not os.path.lexists(root / path.lstrip("/")), path
        assert f"removed    {path}" in first
    assert games.read_text() == "the family's games" and tags.read_text() == "the family's tags"
    assert (root / CONFIG.lstrip("/")).exists()
    assert passwd_entry(root, "banker") is not None

    second = ok(run("bash", DEPLOY / "uninstall.sh", "--root", root))
    assert "board-banker uninstall: nothing to remove" in second

    purged = ok(run("bash", DEPLOY / "uninstall.sh", "--root", root, "--purge"))
    assert "removed    user banker" in purged
    assert passwd_entry(root, "banker") is None
    assert "banker" not in group_members(root)
    assert not (root / HOME.lstrip("/")).exists()
    assert not (root / "etc/board-banker").exists()
    assert "nothing to remove" in ok(run("bash", DEPLOY / "uninstall.sh", "--root", root, "--purge"))


@as_root
def test_uninstall_leaves_a_banker_command_it_did_not_make(root: Path) -> None:
    link = root / LINK.lstrip("/")
    link.parent.mkdir(parents=True)
    link.symlink_to("/home/someone/.venv/bin/banker")
    result = ok(run("bash", DEPLOY / "uninstall.sh", "--root", root))
    assert "kept       /usr/local/bin/banker -> /home/someone/.venv/bin/banker" in result
    assert os.path.islink(link)


# ----------------------------------------------------------------------------
# The Raspberry Pi boot-file edits, on copies (install.sh defines them when sourced)


def boot_edit(function: str, path: Path) -> subprocess.CompletedProcess[str]:
    return run("bash", "-c", f'source "$1"; {function} "$2"', "install.sh", DEPLOY / "install.sh", path)


CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=1a2b3c4d-02 rootfstype=ext4 fsck.repair=yes rootwait\n"


def test_consoleblank_is_added_once(tmp_path: Path) -> None:
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text(CMDLINE)
    assert "set        screen blanking off" in ok(boot_edit("cmdline_consoleblank", cmdline))
    assert cmdline.read_text() == CMDLINE.rstrip("\n") + " consoleblank=0\n"
    assert (tmp_path / "cmdline.txt.board-banker.bak").read_text() == CMDLINE
    assert "unchanged  screen blanking off" in ok(boot_edit("cmdline_consoleblank", cmdline))
    assert cmdline.read_text() == CMDLINE.rstrip("\n") + " consoleblank=0\n"


def test_consoleblank_replaces_another_value(tmp_path: Path) -> None:
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text("console=tty1 consoleblank=600 rootwait quiet\n")
    ok(boot_edit("cmdline_consoleblank", cmdline))
    assert cmdline.read_text() == "console=tty1 consoleblank=0 rootwait quiet\n"


@pytest.mark.parametrize(("before", "after"), [
    # The last section filters by model: an [all] keeps the line for every Pi.
    ("dtparam=audio=on\n[cm5]\ndtoverlay=dwc2,dr_mode=host", "dtparam=audio=on\n[cm5]\ndtoverlay=dwc2,dr_mode=host\n[all]\ndtparam=uart0=on\n"),
    ("dtparam=audio=on\n[all]\nenable_uart=1\n", "dtparam=audio=on\n[all]\nenable_uart=1\ndtparam=uart0=on\n"),
    ("dtparam=audio=on\n", "dtparam=audio=on\ndtparam=uart0=on\n"),
])
def test_uart0_is_added_to_config_txt(tmp_path: Path, before: str, after: str) -> None:
    config = tmp_path / "config.txt"
    config.write_text(before)
    assert "set        UART0 on the header" in ok(boot_edit("config_uart0", config))
    assert config.read_text() == after
    assert "unchanged  UART0 on the header" in ok(boot_edit("config_uart0", config))
    assert config.read_text() == after


@pytest.mark.parametrize(("before", "after"), [
    ("dtparam=audio=on\n[cm5]\ndtoverlay=dwc2,dr_mode=host\n", "dtparam=audio=on\n[cm5]\ndtoverlay=dwc2,dr_mode=host\n[all]\ndtparam=spi=on\n"),
    # Raspberry Pi OS ships the line commented out: that is SPI off.
    ("#dtparam=i2c_arm=on\n#dtparam=spi=on\n[all]\n", "#dtparam=i2c_arm=on\n#dtparam=spi=on\n[all]\ndtparam=spi=on\n"),
    ("dtparam=uart0=on", "dtparam=uart0=on\ndtparam=spi=on\n"),
])
def test_spi_is_added_to_config_txt_for_an_rc522_reader(tmp_path: Path, before: str, after: str) -> None:
    config = tmp_path / "config.txt"
    config.write_text(before)
    added = ok(boot_edit("config_reader_boot rc522", config))
    assert "set        SPI on the header for the rc522 reader (dtparam=spi=on in" in added
    assert config.read_text() == after
    assert (tmp_path / "config.txt.board-banker.bak").read_text() == before
    assert "unchanged  SPI on the header for the rc522 reader" in ok(boot_edit("config_reader_boot rc522", config))
    assert config.read_text() == after


@pytest.mark.parametrize("kind", [name for name in NAMES if name != "rc522"])
def test_spi_is_left_alone_for_other_readers(tmp_path: Path, kind: str) -> None:
    config = tmp_path / "config.txt"
    for before in ("dtparam=audio=on\n", "dtparam=audio=on\ndtparam=spi=on\n"):
        config.write_text(before)
        result = ok(boot_edit(f"config_reader_boot {kind}", config))
        assert f'skipped    dtparam=spi=on: only an rc522 reader needs it (this one is "{kind}"' in result
        assert config.read_text() == before
        assert not (tmp_path / "config.txt.board-banker.bak").exists()


def traced_sync(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An environment whose `sync` notes each path it is given (a folder, a file, or one missing), then syncs."""
    folder = tmp_path / "bin"
    folder.mkdir(parents=True)
    log = tmp_path / "sync.log"
    real = shutil.which("sync")
    assert real is not None
    (folder / "sync").write_text(f"""#!/bin/sh
for a; do
    if [ -d "$a" ]; then echo "folder $a"; elif [ -e "$a" ]; then echo "file $a"; else echo "missing $a"; fi
done >>"{log}"
exec {real} "$@"
""")
    (folder / "sync").chmod(0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}, log


def synced(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


@pytest.mark.parametrize(("function", "name", "before"), [("cmdline_consoleblank", "cmdline.txt", CMDLINE),
                                                          ("config_uart0", "config.txt", "dtparam=audio=on\n"),
                                                          ("config_reader_boot rc522", "config.txt", "")])
def test_a_boot_edit_syncs_the_new_file_before_its_rename_and_the_folder_after(tmp_path: Path, function: str,
                                                                               name: str, before: str) -> None:
    """A power cut keeps only what was synced: the backup and the edited file each written whole beside their
    place, synced, renamed, and the folder synced; a leftover of an earlier cut is overwritten."""
    boot = tmp_path / "boot"
    boot.mkdir()
    path = boot / name
    path.write_text(before)
    (boot / f"{name}.board-banker-new").write_text("half of a")  # an earlier run's, cut before its rename
    env, log = traced_sync(tmp_path)
    ok(run("bash", "-c", f'source "$1"; {function} "$2"', "install.sh", DEPLOY / "install.sh", path, env=env))
    assert synced(log) == [f"file {path}.board-banker.bak.board-banker-new", f"folder {boot}",
                           f"file {path}.board-banker-new", f"folder {boot}"]
    assert sorted(os.listdir(boot)) == [name, f"{name}.board-banker.bak"]
    assert (boot / f"{name}.board-banker.bak").read_text() == before


def test_a_cuts_leftover_goes_even_when_the_file_needs_no_edit(tmp_path: Path) -> None:
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text(CMDLINE)
    ok(boot_edit("cmdline_consoleblank", cmdline))
    # Cut before its rename, then the line was set by someone else: the file needs no edit, the leftover goes.
    (tmp_path / "cmdline.txt.board-banker-new").write_text("half of a")
    env, log = traced_sync(tmp_path / "sync")  # a folder apart: the listing below is the boot folder's
    assert "unchanged  screen blanking off" in ok(run("bash", "-c", 'source "$1"; cmdline_consoleblank "$2"',
                                                      "install.sh", DEPLOY / "install.sh", cmdline, env=env))
    assert synced(log) == []  # nothing written
    assert sorted(os.listdir(tmp_path)) == ["cmdline.txt", "cmdline.txt.board-banker.bak", "sync"]


def test_place_file_syncs_the_new_file_before_its_rename_and_the_folder_after(tmp_path: Path) -> None:
    root = tmp_path / "root"
    folder = root / "etc" / "udev" / "rules.d"
    folder.mkdir(parents=True)
    (folder / "99-board-banker.rules.board-banker-new").write_text("half of a")  # a cut's leftover
    source = tmp_path / "rules"
    source.write_text("new rules\n")
    env, log = traced_sync(tmp_path)
    place = 'source "$1"; R=$2; place_file "$3" /etc/udev/rules.d/99-board-banker.rules 644'
    assert "installed  /etc/udev/rules.d/99-board-banker.rules" in ok(
        run("bash", "-c", place, "install.sh", DEPLOY / "install.sh", root, source, env=env))
    dest = folder / "99-board-banker.rules"
    assert synced(log) == [f"file {dest}.board-banker-new", f"folder {folder}"]
    assert os.listdir(folder) == ["99-board-banker.rules"] and dest.read_text() == "new rules\n"
    assert stat.S_IMODE(dest.stat().st_mode) == 0o644
    (folder / "99-board-banker.rules.board-banker-new").write_text("half of a")
    assert "unchanged  /etc/udev/rules.d/99-board-banker.rules" in ok(
        run("bash", "-c", place, "install.sh", DEPLOY / "install.sh", root, source, env=env))
    assert os.listdir(folder) == ["99-board-banker.rules"]


def reader_boot_in(root: Path, config_txt: Path) -> subprocess.CompletedProcess[str]:
    """What configure_boot does on a Pi for the reader: the kind read from ROOT's config, then config.txt."""
    return run("bash", "-c", 'source "$1"; R=$2; config_reader_boot "$(reader_kind)" "$3"', "install.sh",
               DEPLOY / "install.sh", root, config_txt)


def test_the_configured_reader_kind_decides_whether_spi_is_switched_on(tmp_path: Path) -> None:
    root = tmp_path / "root"
    config = root / CONFIG.lstrip("/")
    config.parent.mkdir(parents=True)
    config_txt = tmp_path / "config.txt"
    config_txt.write_text("dtparam=audio=on\n")
    for text in ('[reader]\nprotocol = "pn532"\n', "", '[reader]\nprotocol = "rc522 "\n'):
        config.write_text(text)
        assert "skipped    dtparam=spi=on" in ok(reader_boot_in(root, config_txt)), text
        assert config_txt.read_text() == "dtparam=audio=on\n", text
    config.write_text('[reader]\nprotocol = "rc522"\nurl = "/dev/spidev0.0"\nreset_pin = 25\n')
    assert "set        SPI on the header" in ok(reader_boot_in(root, config_txt))
    assert "unchanged  SPI on the header" in ok(reader_boot_in(root, config_txt))
    assert config_txt.read_text() == "dtparam=audio=on\ndtparam=spi=on\n"


@as_root
def test_install_into_a_root_says_spi_is_skipped_for_an_rc522_reader(root: Path) -> None:
    first = ok(install(root))
    assert "dtparam=spi=on" not in first
    (root / CONFIG.lstrip("/")).write_text('[reader]\nprotocol = "rc522"\nurl = "/dev/spidev0.0"\n')
    again = ok(install(root))
    assert '== The card reader: "rc522"' in again
    assert re.search(r"^  skipped    SPI on the header for the rc522 reader \(dtparam=spi=on in config.txt\): --root$",
                     again, re.M), again
    assert "banker" in group_members(root)["spi"]


# ----------------------------------------------------------------------------
# lgpio: the real one, not PyPI's empty lgpio.py (0.0.0.2), which pip takes where it has no wheel for the
# Python (3.13) and which imports as well as the real one


EMPTY_LGPIO = ""  # all of PyPI's lgpio 0.0.0.2: an empty lgpio.py
PURE_LGPIO = "class error(Exception):\n    pass\n\ndef gpiochip_open(chip):\n    raise error('can not open gpiochip')\n"


def fake_venv(tmp_path: Path, lgpio_source: str) -> Path:
    """A venv stand-in whose python finds lgpio.py with this source (install.sh's in_root drops PYTHONPATH)."""
    site = tmp_path / "site"
    site.mkdir(parents=True)
    (site / "lgpio.py").write_text(lgpio_source)
    python = tmp_path / "venv/bin/python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nPYTHONPATH="{site}" exec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    return tmp_path / "venv"


def lgpio_works(venv: Path) -> subprocess.CompletedProcess[str]:
    return run("bash", "-c", 'source "$1"; VENV=$2; lgpio_works', "install.sh", DEPLOY / "install.sh", venv)


def test_the_installer_finds_that_an_empty_lgpio_does_not_work(tmp_path: Path) -> None:
    empty = fake_venv(tmp_path / "empty", EMPTY_LGPIO)
    assert run(empty / "bin/python", "-c", "import lgpio").returncode == 0  # what the old check asked
    assert lgpio_works(empty).returncode != 0
    # The same check passes for a module with lgpio's entry points, so it is the module it looks at.
    assert lgpio_works(fake_venv(tmp_path / "pure", PURE_LGPIO)).returncode == 0


def probe(tmp_path: Path, lgpio_source: str | None) -> dict[str, Any]:
    """tests/deploy/probe_install.py's report with this lgpio.py first on the path (None: no lgpio at all)."""
    site = tmp_path / "site"
    site.mkdir()
    if lgpio_source is not None:
        (site / "lgpio.py").write_text(lgpio_source)
    result = run(sys.executable, HERE / "probe_install.py", env={"PYTHONPATH": str(site)})
    report: dict[str, Any] = json.loads(ok(result))
    (tmp_path / "probe.json").write_text(json.dumps(report))
    return report


def lgpio_verdict(report: Path, machine: str) -> subprocess.CompletedProcess[str]:
    return run("bash", "-c", 'source "$1"; lgpio_verdict "$2" "$3"', "test", HERE / "chroot_common.sh",
               report, machine)


@pytest.mark.parametrize(("source", "why"), [
    (EMPTY_LGPIO, "gpiochip_open"),  # PyPI's 0.0.0.2
    (PURE_LGPIO, "extension"),  # entry points but no C library behind them
    (None, "ModuleNotFoundError"),
])
def test_the_probe_and_the_slow_tests_find_that_a_fake_lgpio_does_not_work(
        tmp_path: Path, source: str | None, why: str) -> None:
    report = probe(tmp_path, source)["lgpio"]
    assert report["works"] is False
    assert why in json.dumps(report)
    # The slow tests' verdict on it, for either machine they check.
    for machine in ("x86_64", "aarch64"):
        verdict = lgpio_verdict(tmp_path / "probe.json", machine)
        assert verdict.returncode == 1 and "MISSING: a working lgpio" in verdict.stdout


# ----------------------------------------------------------------------------
# The real installation in fresh Debian 12 and 13 roots


@pytest.mark.skipif(os.environ.get("BANKER_SLOW_TESTS") != "1",
                    reason="slow (minutes each): BANKER_SLOW_TESTS=1 python3 -m pytest tests/deploy builds "
                           "Debian 12 and 13 roots with debootstrap and installs into them (root, debootstrap, "
                           "network to the Debian mirror and PyPI)")
@pytest.mark.parametrize("release", RELEASES)
def test_install_in_a_fresh_debian_root(release: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("debootstrap and chroot need root")
    if shutil.which("debootstrap") is None:
        pytest.skip("debootstrap is not installed (apt-get install debootstrap)")
    result = run("bash", CHROOT_DRIVER, "--release", release, timeout=3600)
    print(result.stdout[-3000:])  # the checks and each step's time
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-5000:]
    assert "chroot install test: passed" in result.stdout


@pytest.mark.skipif(os.environ.get("BANKER_SLOW_TESTS") != "1",
                    reason="slow (minutes: two installs, each compiling the engine): BANKER_SLOW_TESTS=1 python3 -m "
                           "pytest tests/deploy builds a Debian 12 root with debootstrap, installs the commit before "
                           "into it and updates it to this checkout (root, debootstrap, git, network to the Debian "
                           "mirror and PyPI)")
def test_an_update_from_the_commit_before_keeps_the_familys_games_editions_and_settings() -> None:
    if os.geteuid() != 0:
        pytest.skip("debootstrap and chroot need root")
    if shutil.which("debootstrap") is None:
        pytest.skip("debootstrap is not installed (apt-get install debootstrap)")
    result = run("bash", UPDATE_DRIVER, timeout=2 * 3600)
    print(result.stdout[-4000:])  # the checks and each step's time
    if result.returncode == 2:
        pytest.skip(result.stderr.strip().splitlines()[-1])
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-5000:]
    assert "chroot update test: passed" in result.stdout


@pytest.mark.skipif(os.environ.get("BANKER_SLOW_TESTS") != "1",
                    reason="slow (the engine is compiled by an emulated gcc): BANKER_SLOW_TESTS=1 python3 -m "
                           "pytest tests/deploy builds Debian 12 and 13 arm64 roots and installs into them under "
                           "emulation (root, debootstrap, qemu-user-static, binfmt-support, sox, network to the "
                           "Debian mirror and PyPI)")
@pytest.mark.parametrize("release", RELEASES)
def test_install_on_emulated_arm64(release: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("debootstrap, chroot and binfmt_misc need root")
    result = run("bash", ARM64_DRIVER, "--release", release, env={"BANKER_PYTHON": sys.executable},
                 timeout=3 * 3600)
    print(result.stdout[-6000:])  # the checks and each step's time
    if result.returncode == 2:
        pytest.skip(result.stderr.strip().splitlines()[-1])
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-5000:]
    assert "arm64 install test: passed" in result.stdout
