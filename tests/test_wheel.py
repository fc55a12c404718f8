"""The wheel holds exactly what the product needs: every file of banker/, ui/ and hardware/ that git tracks
(or one left out on purpose, with its reason), and nothing else but the engine's compiled modules and the
wheel's own metadata: no tests, no build leftovers, no files the checkout happens to hold.

scripts/test.sh builds both wheels as deploy/install.sh builds the app (scripts/_venv.sh) and names them in
BANKER_WHEEL (the engine compiled) and BANKER_PURE_WHEEL (the pure-Python engine); the rest of the suite
runs against the first one installed.
"""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("banker", "ui", "hardware")

# Tracked files of the packages that the wheel leaves out on purpose, each with its reason.
LEFT_OUT = {
    "ui/README.md": "a map of ui/ for maintainers; nothing in the app reads it",
    "ui/locale/*/LC_MESSAGES/banker.po": "the translators' sources (scripts/i18n_tool.py); the app reads the "
                                          "compiled banker.mo beside each",
}

BUILD_INFO = "banker/_build_info.py"
WHEELS = [pytest.param(os.environ.get(name), id=name) for name in ("BANKER_WHEEL", "BANKER_PURE_WHEEL")]


def tracked() -> list[str]:
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", *PACKAGES], capture_output=True,
                            check=True, timeout=60).stdout.decode("utf-8")
    return sorted(path for path in listed.split("\0") if path)


def left_out(path: str) -> str | None:
    return next((reason for pattern, reason in LEFT_OUT.items() if fnmatch.fnmatchcase(path, pattern)), None)


def compiled_modules() -> list[str]:
    """setup.py's COMPILED: the engine's modules that mypyc compiles."""
    namespace: dict[str, object] = {}
    source = (ROOT / "setup.py").read_text("utf-8")
    block = source[source.index("HERE = "):source.index("def compiled_extensions")]
    exec(compile(block, "setup.py", "exec"), {"os": os, "__file__": str(ROOT / "setup.py")}, namespace)
    return list(namespace["COMPILED"])  # type: ignore[call-overload]


def open_wheel(path: str | None) -> zipfile.ZipFile:
    if not path:
        pytest.skip("no wheel named (scripts/test.sh builds the wheels and sets BANKER_WHEEL, BANKER_PURE_WHEEL)")
    return zipfile.ZipFile(path)


@pytest.mark.parametrize("wheel", WHEELS)
def test_every_tracked_file_is_in_the_wheel_as_it_is_in_the_checkout(wheel: str | None) -> None:
    with open_wheel(wheel) as whl:
        names = set(whl.namelist())
        missing, differ = [], []
        for path in tracked():
            if left_out(path):
                assert path not in names, f"{path} is in the wheel but listed as left out: {left_out(path)}"
                continue
            if path not in names:
                missing.append(path)
            elif whl.read(path) != (ROOT / path).read_bytes():
                differ.append(path)
    assert not missing, f"tracked files missing from the wheel (add them to package-data, or to LEFT_OUT " \
                        f"with a reason): {missing}"
    assert not differ, f"files that differ from the checkout's: {differ}"


@pytest.mark.parametrize("wheel", WHEELS)
def test_the_wheel_holds_nothing_that_is_not_product(wheel: str | None) -> None:
    files = set(tracked())
    sources = {path[:-3] for path in files if path.endswith(".py")}
    with open_wheel(wheel) as whl:
        names = whl.namelist()
    dist_info = {name.split("/")[0] for name in names if name.split("/")[0].endswith(".dist-info")}
    assert len(dist_info) == 1, dist_info
    stray = []
    for name in names:
        top = name.split("/")[0]
        if name in files or top in dist_info:
            continue
        extension = re.fullmatch(r"(.+?)\.cpython-\d+-[^/]+\.so", name)
        if extension and extension.group(1) in sources:
            continue  # a compiled engine module beside its source
        if "/" not in name and re.fullmatch(r"[0-9a-f]{20}__mypyc\.cpython-\d+-[^/]+\.so", name):
            continue  # mypyc's shared runtime for the compiled modules
        if name == BUILD_INFO:
            continue  # the commit stamped at build time (setup.py)
        stray.append(name)
    assert not stray, f"the wheel holds files that are not product: {stray}"
    assert not any(name.startswith("tests/") or "__pycache__" in name or name.endswith(".pyc") for name in names)
    assert "ui/i18n_tool.py" not in names, "the translators' tool is not part of the app"


def test_the_compiled_wheel_has_every_compiled_module_and_the_pure_one_none() -> None:
    compiled = [path[:-3] for path in compiled_modules()]
    with open_wheel(os.environ.get("BANKER_WHEEL")) as whl:
        names = whl.namelist()
    with open_wheel(os.environ.get("BANKER_PURE_WHEEL")) as whl:
        pure_names = whl.namelist()
    for module in compiled:
        assert any(re.fullmatch(re.escape(module) + r"\.cpython-\d+-[^/]+\.so", name) for name in names), module
    assert not [name for name in pure_names if name.endswith(".so")]


@pytest.mark.parametrize("wheel", WHEELS)
def test_the_wheel_is_stamped_with_the_checkouts_commit(wheel: str | None) -> None:
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=7", "HEAD"], capture_output=True,
                          text=True, check=True, timeout=60).stdout.strip()
    with open_wheel(wheel) as whl:
        stamp = whl.read(BUILD_INFO).decode("utf-8")
    assert f"COMMIT = {head!r}" in stamp


def test_the_tour_and_both_phone_pages_ship() -> None:
    """`banker app --tour` runs on the installed app (tests/ui/test_tour.py does, against this wheel), and the
    phone server serves both pages from the package."""
    with open_wheel(os.environ.get("BANKER_WHEEL")) as whl:
        names = set(whl.namelist())
    tour = [path for path in tracked() if re.fullmatch(r"ui/tour(_\w+)?\.py", path)]
    assert "ui/tour.py" in tour
    assert set(tour) <= names
    assert {"ui/phone.html", "ui/editor.html"} <= names


def test_the_left_out_list_names_only_tracked_files() -> None:
    files = tracked()
    for pattern in LEFT_OUT:
        assert fnmatch.filter(files, pattern), f"LEFT_OUT names {pattern}, which matches no tracked file"


def test_the_suite_builds_from_the_same_sources_as_the_installer() -> None:
    """scripts/_venv.sh's STAGE_ITEMS and deploy/install.sh's stage_source copy the same items."""
    venv = (ROOT / "scripts" / "_venv.sh").read_text("utf-8")
    install = (ROOT / "deploy" / "install.sh").read_text("utf-8")
    ours = re.search(r"^STAGE_ITEMS=\(([^)]*)\)", venv, re.M)
    theirs = re.search(r"local items=\(([^)]*)\)", install)
    assert ours and theirs
    assert ours.group(1).split() == theirs.group(1).split()
    assert 'for f in "$ROOT"/LICENSE*' in venv and 'for f in "$CHECKOUT"/LICENSE*' in install
