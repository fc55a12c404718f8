"""The release's papers: CHANGELOG.md starts with the version pyproject.toml gives, and LICENSE is the MIT
licence pyproject.toml names."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
# A version's heading: "## 0.2.0 – 2026-12-06" (the date after an en dash, or none yet).
HEADING = re.compile(r"^## (?P<version>\S+)(?: – (?P<date>\d{4}-\d{2}-\d{2}))?$")

MIT = """\
Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
documentation files (the "Software"), to deal in the Software without restriction, including without limitation
the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to
permit persons to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial portions of
the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO
THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF
CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS
IN THE SOFTWARE.
"""


def words(text: str) -> list[str]:
    """The text's words, however its lines are broken."""
    return text.split()


def test_the_changelog_starts_with_this_version() -> None:
    lines = (REPO / "CHANGELOG.md").read_text("utf-8").splitlines()
    assert lines[0] == "# Changelog"
    headings = [HEADING.match(line) for line in lines if line.startswith("## ")]
    assert headings and all(headings), [line for line in lines if line.startswith("## ")]
    assert headings[0]["version"] == PROJECT["version"], (
        f"CHANGELOG.md's newest entry is {headings[0]['version']}, pyproject.toml says {PROJECT['version']}: "
        "say what the new version changes for a family")
    versions = [h["version"] for h in headings]
    assert len(versions) == len(set(versions)), "a version has two entries"
    entry = "\n".join(lines[lines.index(headings[0].string) + 1:]).split("\n## ")[0]
    assert len(entry.split()) > 20, "the newest entry says nothing"


def test_the_licence_is_mit_as_pyproject_says() -> None:
    assert PROJECT["license"] == "MIT"
    text = (REPO / "LICENSE").read_text("utf-8")
    head, _, body = text.partition("\n\n")
    assert head.splitlines()[0] == "MIT License"
    assert re.fullmatch(r"Copyright \(c\) \d{4}(-\d{4})? \S.*", body.split("\n\n")[0].strip())
    assert words(body.split("\n\n", 1)[1]) == words(MIT)
