"""tests/deploy/guide_blocks.py: the guide's ```sh blocks read out of a sample text, and out of the guide."""

from __future__ import annotations

from pathlib import Path

import pytest
from guide_blocks import GUIDE, PLACEHOLDERS, Block, GuideError, commands, set_up_block, sh_blocks, write

SAMPLE = """\
# A guide

`<project-address>` stands for the project's address.

```text
$ this is not a command block
```

```sh
sudo apt-get install -y git
git clone <project-address> ~/board-banker
```

```sh pi-only
sudo reboot
```

```
<no-placeholder-here> in a block with no fence word
```

1. In a list:

   ```sh
   cd ~/board-banker
     sudo ./deploy/install.sh
   ```

~~~~toml
[reader]
~~~~
"""

TABLE = {"<project-address>": "file:///srv/git/board-banker.git"}


def test_the_sh_blocks_in_order_pi_only_marked_other_fences_left_out() -> None:
    assert sh_blocks(SAMPLE) == [
        Block(9, "sudo apt-get install -y git\ngit clone <project-address> ~/board-banker\n", False),
        Block(14, "sudo reboot\n", True),
        Block(24, "cd ~/board-banker\n  sudo ./deploy/install.sh\n", False),  # the list's indentation removed
    ]


def test_the_run_blocks_skip_pi_only_and_have_their_placeholders_filled() -> None:
    run = commands(SAMPLE, TABLE)
    assert [block.line for block in run] == [9, 24]
    assert run[0].text == "sudo apt-get install -y git\ngit clone file:///srv/git/board-banker.git ~/board-banker\n"
    assert "reboot" not in "".join(block.text for block in run)
    assert set_up_block(run) == 1


def test_the_tests_table_fills_the_project_address() -> None:
    assert PLACEHOLDERS["<project-address>"].startswith("file:///")
    assert commands(SAMPLE)[0].text.endswith(f"git clone {PLACEHOLDERS['<project-address>']} ~/board-banker\n")


@pytest.mark.parametrize("fence", ["sh", "sh pi-only"])
def test_an_unknown_placeholder_is_refused_by_name(fence: str) -> None:
    text = SAMPLE + f"\n```{fence}\nsudo ./deploy/update.sh --wheel <wheel-file>\n```\n"
    with pytest.raises(GuideError, match=r"line 34: the placeholder <wheel-file> is not in the test's table"):
        commands(text, TABLE)
    # Accepted when the table has it, and filled in a block that runs.
    last = commands(text, {**TABLE, "<wheel-file>": "/tmp/w.whl"})[-1].text
    assert last.endswith("--wheel /tmp/w.whl\n" if fence == "sh" else "sudo ./deploy/install.sh\n")


def test_shell_redirections_are_not_placeholders() -> None:
    text = "```sh\ncat <<EOF >out\nx\nEOF\nsort <in.txt >sorted.txt 2>&1\n```\n"
    assert commands(text, {})[0].text == "cat <<EOF >out\nx\nEOF\nsort <in.txt >sorted.txt 2>&1\n"


@pytest.mark.parametrize("line", ["$ sudo ./deploy/install.sh", "  $ ls", "pi@banker:~ $ ls", "$"])
def test_a_prompt_in_a_block_is_refused(line: str) -> None:
    with pytest.raises(GuideError, match=r"line 3: a prompt in a ```sh block"):
        sh_blocks(f"\n```sh\n{line}\n```\n")


def test_a_dollar_that_is_not_a_prompt_is_kept() -> None:
    text = '```sh\necho "$HOME" $PATH\nGAMES=$(ls)\n```\n'
    assert sh_blocks(text)[0].text == 'echo "$HOME" $PATH\nGAMES=$(ls)\n'


@pytest.mark.parametrize("info", ["bash", "console", "sh pi_only", "sh run", "shell"])
def test_commands_under_another_fence_are_refused(info: str) -> None:
    with pytest.raises(GuideError, match=rf"line 2: a ```{info} block: commands are fenced ```sh"):
        sh_blocks(f"text\n```{info}\nsudo reboot\n```\n")


def test_inline_code_at_a_lines_start_is_not_a_fence() -> None:
    text = "```` ```sh ```` blocks are run, ```` ```sh pi-only ```` ones not.\n\n```sh\nls\n```\n"
    assert sh_blocks(text) == [Block(3, "ls\n", False)]


def test_an_unclosed_block_is_refused() -> None:
    with pytest.raises(GuideError, match="line 3: the block opened here is never closed"):
        sh_blocks("a\n\n```sh\nls\n~~~\n")


def test_a_guide_with_no_sh_blocks_to_run_is_refused() -> None:
    for text in ("# A guide\n\n```\nsudo ./deploy/install.sh\n```\n", "```sh pi-only\nsudo reboot\n```\n"):
        with pytest.raises(GuideError, match=r"no ```sh blocks in deploy/README.md"):
            commands(text, TABLE)


def test_the_set_up_needs_a_block_running_the_installer() -> None:
    with pytest.raises(GuideError, match=r"no ```sh block in deploy/README.md runs deploy/install.sh"):
        set_up_block(commands("```sh\nsudo ./deploy/uninstall.sh\n```\n", TABLE))


def test_write_puts_the_blocks_their_lines_and_the_set_up_into_a_folder(tmp_path: Path) -> None:
    guide = tmp_path / "README.md"
    guide.write_text(SAMPLE)
    write(tmp_path / "blocks", guide)
    names = sorted(path.name for path in (tmp_path / "blocks").iterdir())
    assert names == ["01.line", "01.sh", "02.line", "02.sh", "project-repository", "set-up"]
    assert (tmp_path / "blocks/02.sh").read_text() == "cd ~/board-banker\n  sudo ./deploy/install.sh\n"
    assert (tmp_path / "blocks/02.line").read_text() == "24\n"
    assert (tmp_path / "blocks/set-up").read_text() == "02\n"
    assert (tmp_path / "blocks/project-repository").read_text() == "/srv/git/board-banker.git\n"


def test_the_guide_follows_the_convention() -> None:
    """deploy/README.md itself: its sh blocks parse, and none has a prompt, another fence or an unknown
    placeholder (whether there are blocks to run is the slow test's to say)."""
    try:
        commands(GUIDE.read_text(encoding="utf-8"))
    except GuideError as error:
        if not str(error).startswith("no ```sh blocks in"):
            raise
