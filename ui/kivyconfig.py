"""Kivy's own config file (`$KIVY_HOME/config.ini`, `~/.kivy/config.ini` by default), whole under a power cut.

Kivy writes that file in place (`open(path, "w")`, kivy/config.py) the first time it starts and whenever its
`config_version` is older than Kivy's own: a power cut in between leaves it empty or half-written, and Kivy
then reads around the damage. A banker is switched off by its plug, and every file it writes must come back
as the old version or the new, whole. So `banker app` owns the file (ui/cli.py calls `take_over` before
anything imports Kivy): KIVY_NO_CONFIG tells Kivy neither to read nor to write it (nor to make the `mods/`
and `icon/` folders beside it, which the app does not use; its logs still go to `$KIVY_HOME/logs`). Then:

- a file that parses in full, is of Kivy's `config_version` and has every key of Kivy's defaults is read into
  Kivy's Config, as Kivy would have read it;
- a file that is missing, cannot be read or parsed, is of another version or lacks keys (torn at a line's
  end) is replaced by Kivy's defaults, written with banker/files.py's atomic write (a damaged file's values
  are not taken over: any of them may be the torn one; a warning names the file).

Kivy applies the `KCFG_SECTION_NAME` variables after its file (the Pi's launcher sets the rotation so), so
Kivy is imported with KIVY_NO_ENV_CONFIG (its Config is then its defaults, the text written), and they are
applied here after the file, as Kivy does. The app's own `Config.set` calls (ui/cli.py) come after this and
are never written to the file.
"""

from __future__ import annotations

import configparser
import io
import logging
import os
import sys
from pathlib import Path
from typing import Any

from banker import files

log = logging.getLogger(__name__)

NO_CONFIG = "KIVY_NO_CONFIG"
NO_ENV_CONFIG = "KIVY_NO_ENV_CONFIG"
ENV_PREFIX = "KCFG_"


def problem(path: Path, version: int, defaults: Any) -> str | None:
    """Why the file at `path` cannot be read as Kivy's config of `version` with every key of `defaults` (a
    ConfigParser), in a few words; None when it can."""
    parser = configparser.RawConfigParser()
    try:
        with open(path, encoding="utf-8-sig") as f:
            parser.read_file(f)
    except FileNotFoundError:
        return "missing"
    except (OSError, UnicodeDecodeError, configparser.Error) as exc:
        return f"unreadable ({str(exc).splitlines()[0]})"
    found = parser.get("kivy", "config_version", fallback="")
    if found != str(version):
        return f"config_version {found or 'missing'}, not {version}"
    for section in defaults.sections():
        for key in defaults.options(section):
            if not parser.has_option(section, key):
                return f"[{section}] {key} missing"
    return None


def apply_environment(config: Any, environ: Any = os.environ) -> None:
    """The KCFG_SECTION_NAME=value variables into `config`, as Kivy applies them (kivy/config.py): the
    section must exist; Kivy's own KIVY_NO_ENV_CONFIG=1 turns them off."""
    if environ.get(NO_ENV_CONFIG, "0") == "1":
        return
    for key, value in environ.items():
        if not key.startswith(ENV_PREFIX) or key.count("_") < 2:
            continue
        _, section, name = key.split("_", 2)
        section = section.lower()
        if config.has_section(section):
            config.set(section, name.lower(), value)
        else:
            log.warning("%s: Kivy's config has no section %r", key, section)


def take_over() -> str:
    """Import Kivy's config owning its file (the module's docstring); what was done: "read", "written",
    "not written" (the folder cannot be written: Kivy runs on its defaults, as it would) or "too late" (Kivy
    was imported already, by the process that calls `banker app` in-process: Kivy had its own way)."""
    if "kivy" in sys.modules:
        return "too late"
    os.environ[NO_CONFIG] = "1"
    env_config = os.environ.get(NO_ENV_CONFIG)
    os.environ[NO_ENV_CONFIG] = "1"
    try:
        from kivy import kivy_config_fn
        from kivy.config import KIVY_CONFIG_VERSION, Config
        from kivy.logger import Logger
    finally:
        if env_config is None:
            del os.environ[NO_ENV_CONFIG]
        else:
            os.environ[NO_ENV_CONFIG] = env_config
    path = Path(kivy_config_fn)
    why = problem(path, KIVY_CONFIG_VERSION, Config)
    if why is None:
        Config.read(str(path))
        Logger.logfile_activated = bool(Config.getint("kivy", "log_enable"))
        done = "read"
    else:
        if why != "missing":
            log.warning("%s: %s; Kivy's defaults written in its place", path, why)
        text = io.StringIO()
        configparser.RawConfigParser.write(Config, text)  # Kivy's own `write` takes no file: it opens its own
        try:
            files.write_atomically(path, text.getvalue().encode("utf-8"), mode=0o644)
            done = "written"
        except OSError as exc:
            log.warning("%s: Kivy's config could not be written (%s); its defaults stand", path, exc)
            done = "not written"
    apply_environment(Config)
    return done


__all__ = ["apply_environment", "problem", "take_over"]
