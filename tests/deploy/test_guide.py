"""The Pi guide (deploy/README.md) against the app: every hardware status and check text is in it, it stays short,
its commands name the project's address only by its placeholder, and the sections the installer cites exist.

How the list of texts is found (no hand-picked list): the code that chooses what the screen says about the
hardware is read with `ast`, and every catalogue key it names is taken:
- ui/where.py, all of it: the check screens' headings and hints (`reader_words`, `dice_words`), the facts line
  (`Where.facts`) and why the phone page is off (`phones_off`);
- ui/flows/settings.py, `SettingsFlow.status_text` (the status line) and `SettingsFlow.check_view` (the check
  screens: titles, facts, counts);
- ui/screens/home.py, the branch shown while the reader is silent (`if ... reader_silent()`);
- ui/voice.py, every `status` method (why the voice is silent, shown under the status line).
A plain string naming a key of the English catalogue is that key; an f-string (f"ui.reader.{self.reader}") is
every key starting with its constant head ("ui.reader."). Each key's English text (every plural form) must appear
in the guide, each placeholder ({port}, {count}, %(x)s) matching any text within the paragraph or list item. The
status line's own placeholders ({reader}, {button}) are the families ui.reader.* and ui.button.*, so each of their
values must appear after its label ("Reader: disconnected!").

The config file's own problems (hardware/config.py: `file: key: problem`, one per key and value) are not
catalogue texts; the guide shows their form.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "deploy" / "README.md"
CATALOGUE = REPO / "ui" / "locale" / "en" / "LC_MESSAGES" / "banker.po"
MAX_WORDS = 4000
ADDRESS = "<project-address>"

# Where the hardware's texts are chosen: file -> the functions read (None: the whole module).
SOURCES: dict[str, tuple[str, ...] | None] = {
    "ui/where.py": None,
    "ui/flows/settings.py": ("status_text", "check_view"),
    "ui/screens/home.py": ("reader_silent",),  # the `if` branch whose test calls it
    "ui/voice.py": ("status",),
}
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([^)]*\)[sdif]|%[sdif]")
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```", re.S | re.M)
BLOCK_START = re.compile(r"^(\s*[*-] |\s*\d+\. |\||#|```|>)")


def catalogue() -> dict[str, list[str]]:
    """The English catalogue: key -> its text (each plural form)."""
    with CATALOGUE.open("rb") as file:
        cat = read_po(file)
    found: dict[str, list[str]] = {}
    for m in cat:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, (list, tuple)) else m.id
        found[key] = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string or ""]
    return found


def chosen_nodes(tree: ast.Module, names: tuple[str, ...] | None) -> list[ast.AST]:
    """The parts of a module that choose hardware texts: the whole module, the functions named, or the body of an
    `if` whose test calls one of `names`."""
    if names is None:
        return [tree]
    nodes: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in names:
            nodes.append(node)
        elif isinstance(node, ast.If) and any(isinstance(n, ast.Attribute) and n.attr in names
                                              for n in ast.walk(node.test)):
            nodes.extend(node.body)
    return nodes


def hardware_keys(keys: set[str]) -> set[str]:
    """Every catalogue key the sources name (see the module's docstring)."""
    found: set[str] = set()
    for name, functions in SOURCES.items():
        tree = ast.parse((REPO / name).read_text(encoding="utf-8"))
        nodes = chosen_nodes(tree, functions)
        assert nodes, f"{name}: none of {functions} found: the list of sources needs updating"
        for top in nodes:
            for node in ast.walk(top):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in keys:
                    found.add(node.value)
                elif (isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant)
                      and isinstance(node.values[0].value, str) and node.values[0].value.startswith("ui.")):
                    head = node.values[0].value
                    family = {k for k in keys if k.startswith(head)}
                    assert family, f"{name}: no catalogue key starts with {head!r}"
                    found |= family
    return found


def expected_texts() -> dict[str, list[str]]:
    """key -> the English texts the guide must hold for it (lines of a multi-line text apart, the status line's
    {reader} and {button} filled with each of their values)."""
    cat = catalogue()
    keys = hardware_keys(set(cat))
    texts: dict[str, list[str]] = {}
    for key in sorted(keys):
        lines = [line for form in cat[key] for line in form.split("\n") if line.strip()]
        filled: list[str] = []
        for line in lines:
            families = [n for n in re.findall(r"\{(\w+)\}", line) if any(k.startswith(f"ui.{n}.") for k in keys)]
            variants = [line]
            for fam in families:
                values = [cat[k][0] for k in sorted(keys) if k.startswith(f"ui.{fam}.")]
                variants = [v.replace("{" + fam + "}", value) for v in variants for value in values]
            filled.extend(variants)
        texts[key] = filled
    return texts


def paragraphs(markdown: str) -> str:
    """The guide with each paragraph, list item or table row on one line (wrapped lines joined)."""
    blocks: list[str] = []
    for line in markdown.splitlines():
        if not line.strip():
            blocks.append("")
        elif BLOCK_START.match(line) or not blocks or not blocks[-1]:
            blocks.append(line.strip())
        else:
            blocks[-1] += " " + line.strip()
    return "\n".join(re.sub(r"\s+", " ", b) for b in blocks)


def pattern(text: str) -> re.Pattern[str]:
    """The text as a pattern for `paragraphs`' output: its placeholders match any text within one paragraph, its
    spaces one space (the paragraphs' spacing is made single)."""
    literal = [" ".join(re.escape(word) for word in re.split(r"\s+", part)) for part in PLACEHOLDER.split(text)]
    return re.compile(r"[^\n]+?".join(literal))


def missing_from(guide: str) -> list[str]:
    text = paragraphs(guide)
    return [f"{key}: {line!r}" for key, lines in expected_texts().items() for line in lines
            if not pattern(line).search(text)]


def sh_blocks(guide: str) -> list[tuple[str, str]]:
    """The guide's ```sh blocks (info string "sh" or "sh pi-only"): (info, body)."""
    return [(info.strip(), body) for info, body in FENCE.findall(guide) if info.strip().split()[:1] == ["sh"]]


def test_the_hardware_texts_are_found_from_the_code() -> None:
    texts = expected_texts()
    # The scan finds the status line, both check screens' families and the home screen's note; if a refactor
    # moves them, SOURCES above must follow, and this says so.
    for key in ("ui.status", "ui.check.reader_busy", "ui.where.dice_no_gpio_pi", "ui.where.phones_port",
                "ui.home.reader_silent", "ui.voice.no_audio", "ui.reader.disconnected", "ui.button.missing"):
        assert key in texts, key
    assert len(texts) > 50
    assert "Reader: disconnected!" in texts["ui.status"] and "Button: not found" in texts["ui.status"]


def test_every_hardware_status_and_check_text_is_in_the_guide() -> None:
    missing = missing_from(GUIDE.read_text(encoding="utf-8"))
    assert not missing, "deploy/README.md lacks these screen texts (section 8):\n" + "\n".join(missing)


def test_a_text_missing_from_the_guide_is_found() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    sentence = "Another program is using"
    assert sentence in guide
    assert any(m.startswith("ui.check.reader_busy:") for m in missing_from(guide.replace(sentence, "A program has")))
    assert any(m.startswith("ui.status:") for m in missing_from(guide.replace("Reader: none", "Reader: nothing")))


@pytest.mark.parametrize("text, guide, found", [
    ("The reader's port {port} is not there.", "The reader's port `/dev/ttyAMA0` is not there.", True),
    ("The reader's port {port} is not there.", "The reader's port is not there.", False),
    ("The reader's port {port} is not there.", "The reader's port\n\nx is not there.", False),
    ("{count} taps so far", "`2 taps so far`", True),
    ("Running on {machine} · config file: {config}", "Running on a computer · config file: none", True),
])
def test_placeholders_match_text_within_a_paragraph_only(text: str, guide: str, found: bool) -> None:
    assert bool(pattern(text).search(paragraphs(guide))) is found


def test_the_guide_is_under_its_word_budget() -> None:
    words = len(GUIDE.read_text(encoding="utf-8").split())  # as `wc -w` counts
    assert words < MAX_WORDS, f"deploy/README.md has {words} words; at most {MAX_WORDS - 1}"


def test_the_commands_name_the_project_only_by_its_placeholder() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    assert f"**`{ADDRESS}`** stands for" in guide[:1500], "the placeholder is defined at the guide's top"
    blocks = sh_blocks(guide)
    assert blocks
    for info, body in blocks:
        assert info in ("sh", "sh pi-only"), info
        assert not re.search(r"[A-Za-z][\w+.-]*://|\bgit@|\bwww\.", body), f"an address in a ```{info} block:\n{body}"
        assert set(re.findall(r"<[A-Za-z][\w-]*>", body)) <= {ADDRESS}, body
        for line in body.splitlines():
            if re.search(r"\bgit\s+clone\b", line):
                assert ADDRESS in line, line
    assert any(ADDRESS in body for _, body in blocks)


def test_the_sections_the_installer_and_the_config_cite_exist() -> None:
    headings = set(re.findall(r"^#{2,3} (\d+(?:\.\d+)?[a-z]?)[. ]", GUIDE.read_text(encoding="utf-8"), re.M))
    cited: set[str] = set()
    for name in ("deploy/install.sh", "deploy/update.sh", "deploy/uninstall.sh", "hardware/config.example.toml"):
        text = (REPO / name).read_text(encoding="utf-8")
        cited |= set(re.findall(r"deploy/README\.md,? \(?(\d+\.\d+[a-z]?)\)?", text))
        cited |= set(re.findall(r"\bsection=(\d+\.\d+[a-z]?)", text))
    assert {"2.5", "3.2", "3.3c"} <= cited  # the patterns still read the installer's lines
    assert cited <= headings, f"cited but not in deploy/README.md: {sorted(cited - headings)}"
