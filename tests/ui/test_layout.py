"""Every screen of the tour fits every panel in every language (issue 15): the layout checker (ui/layout.py) at
every shot of `banker app --tour`, for each panel size (800x480, 1024x600, 1280x720, each at its density as
`banker app --size` sets it) and each language of the app, with no exceptions and no shot skipped.

A shot fails on what `ui.tour.layout_findings` finds there: text that does not fit its box, a visible widget
outside the window or its scroll content, overlapping texts, a touch target or a font under the theme's
minimums, a list too small for one whole row; a marked figure (a widget with a `role` of
layout.FIGURE_ROLES) under theme.MIN_FIGURE; a figure its screen must show (layout.required_figures: the turn
screen whose turn and the cash, an auction the bid, a debt panel what is owed) that no widget is marked with.

The twelve tours are played once per session by tests/ui/layout_report.py's `tours`, each in a subprocess,
two at a time, on the one pytest-xdist worker that runs this file and tests/ui/test_tour.py (their
xdist_group, under scripts/test.sh's --dist loadgroup; the group goes out first, being the largest);
test_tour.py reads the Polish one at 1280x720 (the only one with its PNGs drawn). A tour alone at 800x480
took 16 s on the idle two-core machine (2026-12-05; 20.5 s before the tour collected garbage every ten shots
instead of after each); the twelve, two at a time beside the rest of the suite, take about five minutes of
the suite's first worker.
"""

from __future__ import annotations

from pathlib import Path

import layout_report
import pytest

from ui.i18n import LANGUAGES

PAIRS = [(size, language) for size in layout_report.SIZES for language in LANGUAGES]
# One worker plays the tours of this file and the other (tests/ui/test_layout.py, tests/ui/test_tour.py) once:
# scripts/test.sh runs pytest-xdist with --dist loadgroup, which also sends this largest group out first.
pytestmark = pytest.mark.xdist_group("tours")
PICTURES = [("1280x720", "pl")]  # test_tour.py's tour: the same run, with its PNGs


@pytest.fixture(scope="session")
def layout_tours(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
                 ) -> dict[tuple[str, str], layout_report.Tour]:
    """The tours the selected tests of this file read (all twelve unless -k picks some sizes and languages),
    played together, two at a time."""
    wanted: list[tuple[str, str]] = []
    for item in request.session.items:
        if Path(str(item.path)) != Path(__file__):
            continue
        params = getattr(getattr(item, "callspec", None), "params", {})
        wanted += [(params["size"], params["language"])] if "size" in params else PAIRS
    return layout_report.tours(wanted or PAIRS, tmp_path_factory.mktemp("layout-tours"), pictures=PICTURES)


def findings(tour: layout_report.Tour) -> list[str]:
    """Every problem of the tour, a line each: the shot, the size and language, the checker's line."""
    lines = []
    for k, shot in enumerate(tour.shots["shots"]):
        for line in shot["layout"]:
            lines.append(f"{layout_report.shot_name(shot, k, len(tour.shots['shots']))} ({shot['screen']}) at {tour.size} in {tour.language}: "
                         f"{line}")
    return lines


@pytest.mark.parametrize(("size", "language"), PAIRS, ids=[f"{s}-{lang}" for s, lang in PAIRS])
def test_every_shot_of_the_tour_fits(size: str, language: str,
                                     layout_tours: dict[tuple[str, str], layout_report.Tour]) -> None:
    tour = layout_tours[(size, language)]
    assert tour.returncode == 0, f"the tour at {size} in {language} stopped:\n{tour.output}"
    shots = tour.shots
    assert shots["size"] == [int(n) for n in size.split("x")] and shots["language"] == language
    assert shots["shots"] and all("layout" in shot for shot in shots["shots"])  # every shot was checked
    found = findings(tour)
    assert not found, f"{len(found)} layout problems at {size} in {language}:\n" + "\n".join(found)


def test_the_tours_are_played_whole(layout_tours: dict[tuple[str, str], layout_report.Tour]) -> None:
    """The same shots in every size and language: none left out anywhere (the tour plays them all, in order)."""
    names = {pair: [shot["name"] for shot in tour.shots["shots"]] for pair, tour in layout_tours.items()
             if tour.returncode == 0}
    assert names, "no tour ran to its end"
    first = next(iter(names.values()))
    assert all(shots == first for shots in names.values())
    assert any(name.endswith("-scrolled") for name in first)


def test_the_pictures_are_only_where_asked(layout_tours: dict[tuple[str, str], layout_report.Tour]) -> None:
    for pair, tour in layout_tours.items():
        drawn = sorted(p.name for p in Path(tour.out).glob("*.png"))
        if pair in PICTURES:
            assert "contact-sheet.png" in drawn
        else:
            assert drawn == [] and tour.shots["contact_sheet"] is None, pair
