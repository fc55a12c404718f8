"""The docs agree with one another: a fact stated in two places is stated with one value.

The facts this check knows are listed in FACTS: each a name and the patterns that capture its value where a
doc states it ("4,125 passed", "the 153 shots at 800x480", "five reader kinds", the recommended kit's total),
with a few phrasings each checks it catches (`examples`). It reads README.md, CONTRIBUTING.md,
deploy/README.md and docs/*.md, and fails naming every file and line when one fact has two values. A fact
whose value the code holds (the reader kinds, the shipped rulesets, the languages) is also checked against
the code. Numbers are read with or without thousands separators, and small ones as words ("twelve").

A doc is read in statements: a paragraph, a list item or a table row. A statement that carries a date
(2026-12-05) or stands under a heading of the past (HISTORY, e.g. "Status by issue") records how things
were, and is not compared. Fenced code is not read.

The recommended kit's table (a table with a "Total" row, in README.md or deploy/README.md) must also add
up: its total is the exact sum of the prices above it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
KIT_DOCS = ("README.md", "deploy/README.md")

WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
         "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
         "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20}
# A number as the docs write it: 4,125 / 4 125 / 4125 / twelve.
NUM = r"(?:\d{1,3}(?:[,\u2009\u202f ]\d{3})+(?![\d,])|\d+|" + "|".join(sorted(WORDS, key=len, reverse=True)) + r")"
DATE = re.compile(r"\b(?:19|20)\d\d-\d\d-\d\d\b")
HISTORY = re.compile(r"(?i)status by issue|\bhistory of\b|\bearlier (?:runs|versions|figures)\b")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


def number(text: str) -> int:
    """A captured number as an int: separators dropped, small numbers in words read."""
    word = text.lower()
    return WORDS[word] if word in WORDS else int(re.sub(r"[,\u2009\u202f ]", "", text))


NAME = r"`?[a-z][a-z0-9_-]*`?"
LIST = rf"{NAME}(?:,? (?:and |or )?{NAME}|, {NAME})+"  # a list of names: `pn532`, `line` and `hid`


def pattern(text: str) -> re.Pattern[str]:
    """A fact's pattern: `{N}` marks the captured number, `{LIST}` a list of names whose count is the
    value; case-insensitive."""
    return re.compile(text.replace("{N}", f"(?P<value>{NUM})").replace("{LIST}", f"(?P<names>{LIST})"),
                      re.IGNORECASE)


def read(m: re.Match[str]) -> tuple[int, int]:
    """(offset, value) of a pattern's match: its number, or how many names its list gives."""
    if "names" in m.groupdict():
        return m.start("names"), len(re.findall(NAME, m.group("names")))
    return m.start("value"), number(m.group("value"))


def shipped_rulesets() -> int:
    return sum(1 for f in (resources.files("banker") / "rulesets").iterdir() if f.name.endswith(".toml"))


def reader_kinds() -> int:
    from hardware.kinds import NAMES

    return len(NAMES)


def languages() -> int:
    return sum(1 for f in (resources.files("ui") / "locale").iterdir() if f.is_dir())


@dataclass(frozen=True)
class Fact:
    name: str
    patterns: tuple[re.Pattern[str], ...]
    examples: tuple[tuple[str, int | None], ...]  # a phrase and the value it states (None: states none)
    files: tuple[str, ...] = ()  # only these docs state it ("" : every doc read)
    skip: re.Pattern[str] | None = None  # a statement that matches is about something else
    truth: Callable[[], int] | None = None  # the value the code holds, when it holds one

    def values(self, text: str) -> Iterator[tuple[int, int]]:
        """(offset, value) of every statement of this fact in `text`."""
        if self.skip is not None and self.skip.search(text):
            return
        seen: set[int] = set()
        for p in self.patterns:
            for m in p.finditer(text):
                at, value = read(m)
                if at not in seen:
                    seen.add(at)
                    yield at, value


FACTS: tuple[Fact, ...] = (
    Fact("tests passed in the whole suite",
         (pattern(r"\b{N} (?:tests )?passed\b"),),
         (("the suite: 694 s (4,125 passed, 10 skipped)", 4125), ("4125 tests passed", 4125),
          ("4 125 passed", 4125)),
         skip=re.compile(r"(?i)\bpure\b")),  # the engine's tests once more on the pure engine: another count
    Fact("tests skipped in the whole suite",
         (pattern(r"\bpassed, {N} skipped\b"),),
         (("4,125 passed, 10 skipped", 10), ("ten skipped", None)),
         skip=re.compile(r"(?i)\bpure\b")),
    Fact("shots of the tour",
         (pattern(r"\btour(?:'s)? (?:has |of )?{N} shots\b"), pattern(r"(?<!first )\b{N} tour shots\b"),
          pattern(r"\b{N} shots (?:in|of) (?:the|a|each|every) (?:whole |full )?tour\b"),
          pattern(r"\b{N} shots at \d+ ?x ?\d+")),
         (("the tour's 89 shots", 89), ("the 153 shots at 800x480", 153), ("153 tour shots", 153),
          ("a tour of 93 shots", 93), ("the first 16 tour shots", None), ("the same 16 shots here", None),
          ("the tour has over 99 shots", None))),
    Fact("tours (panel sizes by languages)",
         (pattern(r"\b{N} tours\b"),),
         (("the twelve tours, three sizes by four languages", 12), ("all 12 tours", 12))),
    Fact("reader kinds",
         (pattern(r"\b{N} (?:card[- ]?)?reader kinds\b"), pattern(r"\b{N} kinds of (?:card )?readers?\b"),
          pattern(r"\bthe {N} kinds\b(?! of (?!(?:card )?readers?\b))"),
          pattern(r"\bthe kinds are:? {LIST}"), pattern(r"\b(?:table|list) of (?:reader )?kinds \({LIST}\)")),
         (("five reader kinds", 5), ("one reader contract over the five kinds", 5), ("5 kinds of reader", 5),
          ("Three kinds of entry point", None), ("the three kinds of entry point", None),
          ('no card reader kind "x": the kinds are pn532, line, hid, pcsc, rc522', 5),
          ("`hardware/kinds.py`'s table of kinds (pn532, line, hid, pcsc) read by", 4)),
         truth=reader_kinds),
    Fact("shipped rulesets",
         (pattern(r"\b{N} (?:shipped )?rulesets\b"),),
         (("Eight rulesets come with it", 8), ("the eight rulesets in two rows", 8), ("8 shipped rulesets", 8)),
         truth=shipped_rulesets),
    Fact("languages",
         (pattern(r"\b(?:the|all|its) {N} languages\b"), pattern(r"\b{N} languages(?::| \()\s*English\b")),
         (("in the four languages", 4), ("in four languages: English, Polish", 4),
          ("at three sizes in three languages", None)),
         truth=languages),
    Fact("the recommended kit's total price",
         (pattern(r"^\|\s*\**total\**\s*\|(?:[^|\n\d]*\|)*?\s*\**\s*(?:€|EUR)?\s*{N}\s*(?:€|EUR|euro)?\s*\**\s*\|"),
          pattern(r"\b(?:total|kit)\b[^.\n\d|]{0,60}?(?:€\s*)?{N}\s*(?:€|EUR\b|euro\b)"),
          pattern(r"\b{N}\s*(?:€|EUR\b|euro\b) in (?:all|total)\b")),
         (("| **Total** | **199** |", 199), ("| Total | | 199 EUR | |", 199), ("a total of 199 euro", 199),
          ("199 euro in all", 199), ("the recommended kit costs about 199 euro", 199),
          ("All together, roughly 150 to 250 euro.", None), ("a total of 150 to 250 euro", None)),
         files=KIT_DOCS),
)


@dataclass(frozen=True)
class Statement:
    fact: str
    value: int
    file: str
    line: int
    text: str  # the words around it, for the message

    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Unit:
    """A statement's unit of text: a paragraph, a list item or a table row, with its first line's number."""

    line: int
    lines: list[str] = field(default_factory=list)
    history: bool = False


def units(text: str) -> Iterator[Unit]:
    """The paragraphs, list items and table rows of a Markdown text, fenced code left out; each marked as
    history when it carries a date or stands under a heading of the past."""
    headings: list[tuple[int, str]] = []
    unit: Unit | None = None
    fenced = False

    def close() -> Iterator[Unit]:
        if unit is not None and unit.lines:
            joined = "\n".join(unit.lines)
            unit.history = bool(DATE.search(joined)) or any(HISTORY.search(h) for _, h in headings)
            yield unit

    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            yield from close()
            unit, fenced = None, not fenced
            continue
        if fenced:
            continue
        heading = HEADING.match(line)
        if heading:
            yield from close()
            unit = None
            level = len(heading.group(1))
            headings = [(lv, h) for lv, h in headings if lv < level] + [(level, heading.group(2))]
            continue
        if not line.strip():
            yield from close()
            unit = None
        elif line.lstrip().startswith("|") or ITEM.match(line) or unit is None:
            yield from close()
            unit = Unit(n, [line])
            if line.lstrip().startswith("|"):  # a table row is a statement of its own
                yield from close()
                unit = None
        else:
            unit.lines.append(line)
    yield from close()


def statements(docs: Mapping[str, str], facts: tuple[Fact, ...] = FACTS) -> list[Statement]:
    """Every statement of a fact in `docs` (a file's name to its text), history left out."""
    found = []
    for name, text in docs.items():
        for unit in units(text):
            if unit.history:
                continue
            joined = "\n".join(unit.lines)
            flat = joined.replace("\n", " ")
            for fact in facts:
                if fact.files and name not in fact.files:
                    continue
                for at, value in fact.values(flat):
                    line = unit.line + joined.count("\n", 0, at)
                    context = flat[max(0, at - 50):at + 40].strip()
                    found.append(Statement(fact.name, value, name, line, context))
    return found


def disagreements(docs: Mapping[str, str], facts: tuple[Fact, ...] = FACTS) -> list[str]:
    """One message per fact stated with two values (each value with every place that states it), and per
    fact whose docs say other than the code."""
    found = statements(docs, facts)
    problems = []
    for fact in facts:
        said = [s for s in found if s.fact == fact.name]
        by_value: dict[int, list[Statement]] = {}
        for s in said:
            by_value.setdefault(s.value, []).append(s)
        places = "; ".join(f"{value} at " + ", ".join(f'{s.where()} ("{s.text}")' for s in where)
                           for value, where in sorted(by_value.items()))
        if len(by_value) > 1:
            problems.append(f"{fact.name}: stated with {len(by_value)} values: {places}")
        elif fact.truth is not None and by_value and (truth := fact.truth()) not in by_value:
            problems.append(f"{fact.name}: the code has {truth}, the docs say {places}")
    return problems


def kit_tables(name: str, text: str) -> Iterator[tuple[int, list[tuple[int, int]], int]]:
    """(line of the total, [(line, price)] of the rows above it, total) for every table with a Total row
    whose prices (the column of the Total row's first number) are all single numbers."""
    rows: list[tuple[int, list[str]]] = []
    for n, line in enumerate([*text.splitlines(), ""], 1):
        if line.strip().startswith("|"):
            rows.append((n, [c.strip().strip("*").strip() for c in line.strip().strip("|").split("|")]))
            continue
        body = [(n_, cells) for n_, cells in rows[2:]]  # after the header and its --- line
        rows = []
        if not body or body[-1][1][0].lower() != "total":
            continue
        bare = [[re.sub(r"\s*(?:€|EUR|euro)\s*", "", c) for c in cells] for _, cells in body]
        column = next((k for k, c in enumerate(bare[-1]) if re.fullmatch(r"[\d,\u2009\u202f ]+", c)), None)
        if column is None or any(len(cells) <= column for cells in bare):
            continue
        prices = [(n_, cells[column]) for (n_, _), cells in zip(body, bare, strict=True)]
        if all(re.fullmatch(NUM, p) and not p.isalpha() for _, p in prices):
            *parts, (total_line, total) = [(n_, number(p)) for n_, p in prices]
            yield total_line, parts, total


def kit_problems(docs: Mapping[str, str]) -> list[str]:
    """One message per kit table (in KIT_DOCS) whose total is not the sum of its prices."""
    problems = []
    for name in KIT_DOCS:
        for line, parts, total in kit_tables(name, docs.get(name, "")):
            if sum(p for _, p in parts) != total:
                problems.append(f"{name}:{line}: the total {total} is not the sum of the prices above it, "
                                f"{' + '.join(str(p) for _, p in parts)} = {sum(p for _, p in parts)}")
    return problems


def repository_docs() -> dict[str, str]:
    paths = [REPO / "README.md", REPO / "CONTRIBUTING.md", REPO / "deploy" / "README.md",
             *sorted((REPO / "docs").glob("*.md"))]
    return {str(p.relative_to(REPO)): p.read_text("utf-8") for p in paths if p.exists()}


# ---------------------------------------------------------------- the repository


def test_the_docs_agree() -> None:
    problems = disagreements(repository_docs())
    assert not problems, "the docs disagree:\n" + "\n".join(problems)


def test_the_check_reads_the_facts_the_readme_states() -> None:
    """The repository check is not empty: the README's kit total, rulesets and languages are among what it
    reads (a pattern that stopped matching them would leave the check comparing nothing)."""
    said = {(s.fact, s.file) for s in statements(repository_docs())}
    for fact in ("the recommended kit's total price", "shipped rulesets", "languages"):
        assert (fact, "README.md") in said, f"the check no longer finds {fact!r} in README.md"


def test_the_recommended_kit_adds_up() -> None:
    docs = repository_docs()
    assert list(kit_tables("README.md", docs["README.md"])), "README.md has no kit table with a Total row"
    problems = kit_problems(docs)
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- the check itself, on made-up docs


@pytest.mark.parametrize("fact", FACTS, ids=lambda f: f.name)
def test_each_fact_catches_its_phrasings(fact: Fact) -> None:
    for phrase, value in fact.examples:
        got = [v for _, v in fact.values(phrase)]
        assert got == ([] if value is None else [value]), f"{fact.name}: {phrase!r} read as {got}"


def test_two_docs_disagreeing_fail_naming_both_places() -> None:
    docs = {"README.md": "# Board Banker\n\nIt reads five reader kinds.\n",
            "docs/hardware.md": "# Hardware\n\nSome text.\n\nThere are four reader\nkinds in the table.\n"}
    problems = disagreements(docs)
    assert len(problems) == 1
    assert "reader kinds" in problems[0] and "README.md:3" in problems[0] and "docs/hardware.md:5" in problems[0]
    assert "4 at" in problems[0] and "5 at" in problems[0]


def test_a_number_disagreeing_with_itself_in_one_doc_fails() -> None:
    docs = {"docs/app.md": "The contact sheet of the 153 shots at 800x480.\n\n| a | the tour's 93 shots |\n"}
    assert [p for p in disagreements(docs) if p.startswith("shots of the tour")], disagreements(docs)


def test_agreeing_docs_pass_however_the_number_is_written() -> None:
    docs = {"README.md": "The suite: 4,125 passed, 10 skipped. It plays the twelve tours.\n",
            "docs/performance.md": "| Python 3.13 | 665 s (4125 passed, ten skipped) |\n\nAll 12 tours.\n",
            "CONTRIBUTING.md": "Then 4 125 tests passed.\n"}
    assert statements(docs)  # something was read
    assert disagreements(docs) == []


def test_history_is_not_compared() -> None:
    docs = {"docs/performance.md": "# Measurements\n\nThe whole suite: 4,125 passed.\n\n"
                                   "On 2026-12-03 it was\n2,969 passed.\n\n"
                                   "## Status by issue\n\n| 40 | the tour's 93 shots |\n",
            "docs/app.md": "The 153 shots at 800x480.\n\n```text\n2,970 passed\n```\n"}
    assert disagreements(docs) == []
    docs["docs/app.md"] += "\nNow 2,970 passed.\n"
    assert [p for p in disagreements(docs) if p.startswith("tests passed")]


def test_a_fact_the_code_holds_is_checked_against_it() -> None:
    three = {"docs/i18n.md": "The app speaks the three languages.\n"}
    assert [p for p in disagreements(three) if "the code has 4" in p], disagreements(three)
    assert disagreements({"docs/i18n.md": "The app speaks the four languages.\n"}) == []


def test_the_kit_total_is_read_only_in_the_kit_docs() -> None:
    docs = {"README.md": "| part | EUR |\n| --- | --- |\n| Pi | 50 |\n| **Total** | **199** |\n",
            "docs/performance.md": "a total of 12 euro\n"}
    assert disagreements(docs) == []
    docs["deploy/README.md"] = "The kit comes to a total of 195 euro.\n"
    problems = disagreements(docs)
    assert len(problems) == 1 and "README.md:4" in problems[0] and "deploy/README.md:1" in problems[0]


def test_a_kit_that_does_not_add_up_is_found() -> None:
    text = ("| part | price (EUR) | note |\n| --- | ---: | --- |\n| Pi | 50 | 2 GB |\n| screen | 70 | 7 inch |\n"
            "| **Total** | **125** | |\n\n"
            "| part | rough price |\n| --- | --- |\n| Pi | 45–55 |\n| Total | 150 |\n")
    assert list(kit_tables("README.md", text)) == [(5, [(3, 50), (4, 70)], 125)]  # the ranges' table: no sum
    assert kit_problems({"README.md": text}) == [
        "README.md:5: the total 125 is not the sum of the prices above it, 50 + 70 = 120"]
    assert kit_problems({"README.md": text.replace("**125**", "**120**")}) == []
