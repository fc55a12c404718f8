"""The Pi guide's commands run as written: deploy/README.md's ```sh blocks in fresh Debian 12 and 13 roots.

tests/deploy/chroot_guide.sh makes the root as the slow install test does (chroot_common.sh), with sudo and a
user `pi` as the Imager makes one, fills <project-address> with a bare git repository of this work tree
(tests/deploy/guide_blocks.py's table) and runs each ```sh block in order as pi in a login shell; ```sh pi-only
blocks are left out. A failing block fails the test with its text and output; after the block that runs
deploy/install.sh, the installed app, its unit, rules and config are checked. Minutes each: only with
BANKER_SLOW_TESTS=1. tests/deploy/test_guide_blocks.py tests the reading of the blocks, fast.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from test_deploy import RELEASES, run

GUIDE_DRIVER = Path(__file__).resolve().parent / "chroot_guide.sh"


@pytest.mark.skipif(os.environ.get("BANKER_SLOW_TESTS") != "1",
                    reason="slow (minutes each: an install with the engine compiled): BANKER_SLOW_TESTS=1 python3 -m "
                           "pytest tests/deploy runs the guide's ```sh blocks in Debian 12 and 13 roots made with "
                           "debootstrap (root, debootstrap, git, network to the Debian mirror and PyPI)")
@pytest.mark.parametrize("release", RELEASES)
def test_the_guides_commands_in_a_fresh_debian_root(release: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("debootstrap and chroot need root")
    if shutil.which("debootstrap") is None:
        pytest.skip("debootstrap is not installed (apt-get install debootstrap)")
    result = run("bash", GUIDE_DRIVER, "--release", release, timeout=3600)
    print(result.stdout[-4000:])  # the checks and each block's time
    if result.returncode == 2:
        pytest.skip(result.stderr.strip().splitlines()[-1])
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-5000:]
    assert "chroot guide test: passed" in result.stdout
