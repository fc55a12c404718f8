"""The game-over chart's axes (ui/chart.py): round amounts up the side, from 0 (or below it) to at least the
highest worth, never more ticks than asked; round numbers along the bottom where each round begins; and
the rounds of the chart's points (view.worth_history_and_rounds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowkit import make, start
from ui import view
from ui.chart import amount_ticks, bar_scale, nice_step, round_starts, shade


@pytest.mark.parametrize("span, most, step", [(0, 3, 1), (9, 3, 5), (10, 5, 2), (4950, 5, 1000), (6195, 5, 2000),
                                              (150000, 4, 50000)])
def test_a_step_is_one_two_or_five_times_a_power_of_ten(span: int, most: int, step: int) -> None:
    assert nice_step(span, most) == step


@pytest.mark.parametrize("values, most", [([0, 4950, -1245], 5), ([0, 4950, -1245], 1), ([1500, 1500], 3), ([0], 2),
                                          ([-50], 1), ([123456], 4), ([0, 1], 6), ([2820, 2020, -10], 5)])
def test_the_amounts_cover_every_worth_and_zero_in_even_steps(values: list[int], most: int) -> None:
    ticks = amount_ticks(values, most)
    steps = {b - a for a, b in zip(ticks, ticks[1:], strict=False)}
    assert len(steps) == 1 and steps.pop() > 0
    assert ticks[0] <= min(min(values), 0) and ticks[-1] >= max(values) and 0 in ticks
    assert len(ticks) - 1 <= max(most, 2 if min(values) < 0 else 1)


def test_each_round_begins_at_its_first_point() -> None:
    assert round_starts([1, 1, 1, 2, 2, 3]) == [(0, 1), (3, 2), (5, 3)]
    assert round_starts([]) == []


def test_every_point_of_the_chart_has_its_round(tmp_path: Path) -> None:
    c = make(tmp_path, taps=False)
    start(c, setup={"players": {"Ann": {"position": 2}}, "spaces": {"1": {"owner": "Ann"}, "3": {"owner": "Ann"},
                                                                     "5": {"owner": "Ben"}}})
    for _ in range(2):  # Ann pays Ben's rent, Ben pays Ann's: then Ann again, in round 2
        c.turn.roll()
        c.paying.request({"do": "end_turn"})
    game = c.session.game
    assert game is not None and game.turns == 2
    series, rounds = view.worth_history_and_rounds(game)
    assert series == view.worth_history(game)
    assert len(rounds) == len(series["Ann"]) and rounds == [1, 1, 2]


def test_money_bars_share_one_scale() -> None:
    """The report's bars (MoneyBars): the most paid and the most received fill the room between them, on one
    scale; nothing paid or received draws nothing."""
    assert bar_scale(600, 1400, 400) == 0.2
    assert bar_scale(0, 50, 400) == 8
    assert bar_scale(0, 0, 400) == 0 and bar_scale(100, 100, -5) == 0


def test_a_shade_is_the_colour_paler_on_the_panel() -> None:
    red, panel = [1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.2, 1.0]
    assert shade(red, 1.0, panel) == red
    assert shade(red, 0.5, panel) == [0.5, 0.0, 0.1, 1.0]
    assert shade(red, 0.0, panel) == panel
