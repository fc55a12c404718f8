"""What an installed Board Banker has, as one JSON object on standard output.

    PYTHON tests/deploy/probe_install.py [--voice DIR]

Run with the Python of an installation (the Pi's /opt/board-banker/venv/bin/python, inside the emulated
arm64 root of tests/deploy/arm64_install.sh) or of a checkout, it reports:

- `machine`: the processor (`platform.machine()`) and the Python version;
- `wheels`: for Kivy and lgpio, the version and the tags of the wheel pip installed (an aarch64 Pi must have
  `..._aarch64` ones: PyPI's `manylinux` wheels, or `linux_aarch64` for lgpio built from its source where PyPI
  has no wheel for the Python), or null when not installed;
- `lgpio`: whether the lgpio that imports is the real one (`works`): its C extension `_lgpio` loaded from a file
  built for `machine`, and `gpiochip_open` there and answering a call (for a chip that does not exist, with
  lgpio's own error). PyPI's lgpio 0.0.0.2, which pip takes for a Python it has no wheel of, is an empty
  `lgpio.py`: it imports, and does not work;
- `engine`: every engine module built as a C extension (mypyc) and loaded as one, each with the processor its
  file is built for (read from the ELF header), and `pure`: those of them loaded from Python source instead;
- `words`: phrases and amounts in each of the app's languages, through the gettext catalogues and Babel's
  CLDR data, as the app formats them (a checkout on another machine must print the same);
- `voice` (with --voice DIR): one phrase per language rendered by espeak-ng exactly as the app renders it
  (ui/voice.py's `EspeakSpeaker.render`), the WAV files in DIR.

The arm64 test compares `words` with what this machine's checkout prints and measures the WAV files with sox.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.machinery
import importlib.metadata
import json
import platform
import shutil
import sys
from pathlib import Path
from typing import Any

ELF_MACHINES = {3: "i386", 40: "arm", 62: "x86_64", 183: "aarch64"}
PHRASES = [("ui.voice.rent", {"payer": "Ben", "payee": "Ann", "sum": "1200", "space": "Boardwalk"}),
           ("ui.voice.rolled", {"player": "Ann", "total": "8"})]
COUNTS = [("ui.voice.many.payment", n) for n in (1, 2, 5, 22)]
AMOUNTS = [0, 60, 1500, 15000, 2000000]


def wheel(name: str) -> dict[str, Any] | None:
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return None
    text = dist.read_text("WHEEL") or ""
    return {"version": dist.version, "tags": [line.split(":", 1)[1].strip() for line in text.splitlines()
                                              if line.startswith("Tag:")]}


def elf_machine(path: Path) -> str:
    header = path.read_bytes()[:20]
    if header[:4] != b"\x7fELF":
        return "not ELF"
    return ELF_MACHINES.get(int.from_bytes(header[18:20], "little"), f"machine {int.from_bytes(header[18:20], 'little')}")


def lgpio() -> dict[str, Any]:
    """What the lgpio that imports is: the SWIG wrapper over a loaded C extension, or not."""
    try:
        import lgpio as module
    except ImportError as error:
        return {"works": False, "import": f"{type(error).__name__}: {error}"}
    found: dict[str, Any] = {"module": module.__file__}
    extension = sys.modules.get("_lgpio") or getattr(module, "_lgpio", None)
    path = getattr(extension, "__file__", None)
    found["extension"] = path
    found["machine"] = elf_machine(Path(path)) if path else None
    opener = getattr(module, "gpiochip_open", None)
    found["gpiochip_open"] = callable(opener)
    reached = False
    if callable(opener):
        # No machine has 99 GPIO chips: the call goes down to the C library, which answers with lgpio's error.
        try:
            handle = opener(99)
        except getattr(module, "error", ()) as error:
            found["call"] = f"gpiochip_open(99): lgpio.error: {error}"
            reached = True
        except Exception as error:  # anything else means the wrapper is broken
            found["call"] = f"gpiochip_open(99): {type(error).__name__}: {error}"
        else:
            found["call"] = f"gpiochip_open(99): handle {handle}"
            reached = True
            module.gpiochip_close(handle)
    found["works"] = bool(reached and found["machine"] not in (None, "not ELF"))
    return found


def engine() -> dict[str, Any]:
    """The engine's modules that were built as extensions, and which of them Python loaded as such."""
    import banker

    root = Path(banker.__file__).parent
    compiled: dict[str, str] = {}
    pure: list[str] = []
    suffixes = sorted(importlib.machinery.EXTENSION_SUFFIXES, key=len, reverse=True)  # the longest first
    for path in sorted(root.rglob("*.so")):
        suffix = next(s for s in suffixes if path.name.endswith(s))
        name = ".".join(("banker", *path.relative_to(root).parts))[: -len(suffix)].removesuffix(".__init__")
        module = importlib.import_module(name)
        if module.__file__ and Path(module.__file__).resolve() == path.resolve():
            compiled[name] = elf_machine(path)
        else:
            pure.append(name)
    shared = sorted(p.name for p in root.parent.glob("*__mypyc*"))  # mypyc's runtime library for the modules
    return {"compiled": compiled, "pure": pure, "mypyc_runtime": {name: elf_machine(root.parent / name)
                                                                  for name in shared}}


def words() -> dict[str, Any]:
    from ui.i18n import LANGUAGES, Translator, catalogue

    found: dict[str, Any] = {}
    for language in LANGUAGES:
        tr = Translator(language, currency="PLN")
        found[language] = {
            "catalogue": catalogue(language) is not None,
            "phrases": [tr(key, **params) for key, params in PHRASES],
            "counts": [tr(key, count=n) for key, n in COUNTS],
            "numbers": [tr.number(n) for n in AMOUNTS],
            "money": [tr.money(n) for n in AMOUNTS],
        }
    return found


def voice(folder: Path) -> dict[str, Any]:
    from ui.i18n import LANGUAGES, Translator
    from ui.voice import EspeakSpeaker

    speaker = EspeakSpeaker(play=lambda path, done: False, main=lambda fn: fn(), folder=folder)
    if speaker.program is None:
        return {"espeak-ng": None}
    rendered: dict[str, Any] = {"espeak-ng": speaker.program}
    for language in LANGUAGES:
        key, params = PHRASES[0]
        path = speaker.render(Translator(language)(key, **params), language, 2, 2)
        if path is not None:
            target = folder / f"voice-{language}.wav"
            shutil.move(path, target)
            rendered[language] = str(target)
        else:
            rendered[language] = None
    return rendered


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--voice", metavar="DIR", type=Path, help="render one phrase per language into DIR")
    args = parser.parse_args()
    report: dict[str, Any] = {
        "machine": platform.machine(), "python": platform.python_version(),
        "wheels": {name: wheel(name) for name in ("Kivy", "lgpio")}, "lgpio": lgpio(),
        "engine": engine(), "words": words(),
    }
    if args.voice is not None:
        args.voice.mkdir(parents=True, exist_ok=True)
        report["voice"] = voice(args.voice)
    json.dump(report, sys.stdout, ensure_ascii=False, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
