"""The Pi guide's commands (deploy/README.md), read out of it for the slow test that runs them.

The guide's convention: a block the test runs is fenced ```` ```sh ````; a block that only makes sense on a
real Pi (reboot, poweroff, raspi-config, an editor, the real hardware) is fenced ```` ```sh pi-only ```` and
not run; other fences (```` ```text ````, ```` ```toml ````, none) are not commands. A fence of another shell
word (```` ```bash ````, ```` ```console ````) or ```` ```sh ```` with another word than pi-only is refused, so
that no command escapes the test by its fence. Commands are written without a prompt: a line starting with
``$ `` is refused. Every ``<...>`` token in a sh block must be in PLACEHOLDERS; the run blocks get them
filled.

tests/deploy/chroot_guide.sh runs ``python3 tests/deploy/guide_blocks.py write DIR`` and then the blocks in
DIR in a fresh Debian root (tests/deploy/test_guide_commands.py); tests/deploy/test_guide_blocks.py tests
this module on sample texts. Only the standard library: the host's python3 runs it.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[2] / "deploy" / "README.md"

# Where tests/deploy/chroot_guide.sh puts a bare git repository of this checkout (its work tree as one
# commit) inside the root: what `git clone <project-address>` clones there.
PROJECT_REPOSITORY = "/srv/git/board-banker.git"
PLACEHOLDERS = {
    "<project-address>": f"file://{PROJECT_REPOSITORY}",  # the project's address, defined at the guide's top
}

RUN, PI_ONLY = "sh", "sh pi-only"
OTHER_SHELLS = {"bash", "shell", "console", "shell-session", "zsh", "sh-session"}
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
PLACEHOLDER = re.compile(r"<[A-Za-z][A-Za-z0-9_-]*>")
PROMPT = re.compile(r"^\s*(?:[\w.-]+@[\w.-]+:\S*\s*)?\$(?:\s|$)")
INSTALLER = "deploy/install.sh"


class GuideError(ValueError):
    """The guide's blocks break the convention above; the message names the line and what is wrong."""


@dataclass(frozen=True)
class Block:
    line: int  # the line of its opening fence in the guide (1-based)
    text: str  # its lines as in the guide, the fence's indentation removed, ending in a newline
    pi_only: bool


def sh_blocks(text: str, name: str = "deploy/README.md") -> list[Block]:
    """Every ```sh and ```sh pi-only block of TEXT, in order (none: an empty list)."""
    found: list[Block] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        index += 1
        if opening is None or (opening["fence"][0] == "`" and "`" in opening["info"]):
            continue  # (a backtick in the info string: inline code at the line's start, not a fence)
        fence, indent = opening["fence"], len(opening["indent"].expandtabs())
        words = opening["info"].split()
        start = index  # the line number of the fence: index is now 1-based for it
        body: list[str] = []
        while index < len(lines):
            closing = FENCE.match(lines[index])
            index += 1
            if (closing is not None and closing["fence"][0] == fence[0] and len(closing["fence"]) >= len(fence)
                    and not closing["info"].strip()):
                break
            body.append(lines[index - 1])
        else:
            raise GuideError(f"{name} line {start}: the block opened here is never closed")
        if not words or (words[0] != "sh" and words[0] not in OTHER_SHELLS):
            continue
        info = " ".join(words)
        if info not in (RUN, PI_ONLY):
            raise GuideError(f"{name} line {start}: a ```{info} block: commands are fenced ```sh (run by the slow "
                             "install test) or ```sh pi-only (not run)")
        text_lines = [_dedent(line, indent) for line in body]
        for offset, line in enumerate(text_lines, start=1):
            if PROMPT.match(line):
                raise GuideError(f"{name} line {start + offset}: a prompt in a ```sh block ({line.strip()!r}): "
                                 "the guide writes commands without the prompt")
        found.append(Block(start, "".join(line + "\n" for line in text_lines), info == PI_ONLY))
    return found


def _dedent(line: str, indent: int) -> str:
    """LINE without up to INDENT columns of leading blanks (a block in a list item is indented)."""
    line = line.expandtabs()
    stripped = len(line) - len(line.lstrip(" "))
    return line[min(indent, stripped):]


def commands(text: str, table: dict[str, str] | None = None, name: str = "deploy/README.md") -> list[Block]:
    """The blocks the test runs, in order, their placeholders filled from TABLE (PLACEHOLDERS by default).

    Refused: a guide without a ```sh block to run, and a <...> token of any sh block (pi-only ones too)
    that TABLE does not fill.
    """
    table = PLACEHOLDERS if table is None else table
    every = sh_blocks(text, name)
    for block in every:
        for offset, line in enumerate(block.text.splitlines(), start=1):
            unknown = [token for token in PLACEHOLDER.findall(line) if token not in table]
            if unknown:
                raise GuideError(f"{name} line {block.line + offset}: the placeholder {unknown[0]} is not in the "
                                 f"test's table (tests/deploy/guide_blocks.py PLACEHOLDERS: {', '.join(table)})")
    run = [block for block in every if not block.pi_only]
    if not run:
        only = f" (only {len(every)} ```sh pi-only)" if every else ""
        raise GuideError(f"no ```sh blocks in {name}{only}: the slow install test has no commands to run")
    return [Block(block.line, PLACEHOLDER.sub(lambda token: table[token[0]], block.text), False) for block in run]


def set_up_block(blocks: list[Block], name: str = "deploy/README.md") -> int:
    """The index in BLOCKS of the last one that runs deploy/install.sh: after it, the app is installed."""
    runs = [index for index, block in enumerate(blocks) if INSTALLER in block.text]
    if not runs:
        raise GuideError(f"no ```sh block in {name} runs {INSTALLER}")
    return runs[-1]


def write(folder: Path, guide: Path = GUIDE) -> list[Block]:
    """The run blocks as FOLDER/NN.sh (01, 02...), with FOLDER/NN.line (the fence's line in the guide),
    FOLDER/set-up (the NN after which the app is installed) and FOLDER/project-repository (where the
    repository <project-address> names must be)."""
    blocks = commands(guide.read_text(encoding="utf-8"), name=_shown(guide))
    folder.mkdir(parents=True, exist_ok=True)
    for number, block in enumerate(blocks, start=1):
        (folder / f"{number:02d}.sh").write_text(block.text, encoding="utf-8")
        (folder / f"{number:02d}.line").write_text(f"{block.line}\n")
    (folder / "set-up").write_text(f"{set_up_block(blocks, _shown(guide)) + 1:02d}\n")
    (folder / "project-repository").write_text(PROJECT_REPOSITORY + "\n")
    return blocks


def _shown(guide: Path) -> str:
    try:
        return str(guide.resolve().relative_to(GUIDE.parents[1]))
    except ValueError:
        return str(guide)


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3) or argv[0] != "write":
        print("usage: guide_blocks.py write FOLDER [GUIDE]", file=sys.stderr)
        return 2
    guide = Path(argv[2]) if len(argv) == 3 else GUIDE
    try:
        blocks = write(Path(argv[1]), guide)
    except GuideError as error:
        print(f"guide_blocks.py: {error}", file=sys.stderr)
        return 1
    print(f"{len(blocks)} ```sh blocks from {_shown(guide)} written to {argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
