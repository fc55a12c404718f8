"""The turn screen's one large prompt (ui/flows/turn.py's `prompt`): what happens now, in a sentence, from the
engine's state; none while a banner or a debt panel says it. Without a window."""

from __future__ import annotations

from pathlib import Path

from flowkit import CARDS, make, start
from ui.board import middle


def test_the_prompt_follows_the_turn(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    assert c.turn.prompt() == "Ann: roll the dice"
    c.turn.roll()
    assert c.session.move_hint == "Ann: move your token to Baltic Avenue"  # said on the board, beside the deed card
    assert c.turn.prompt() == "Baltic Avenue is for sale for 60: buy it, or it goes to auction"
    c.paying.request({"do": "buy"})
    assert c.paying.pending is not None and c.turn.prompt() is None  # the banner asks for the card
    c.taps.card_tapped(CARDS["Ann"])
    assert c.turn.prompt() == "Ann: end your turn when ready"
    c.paying.request({"do": "end_turn"})
    assert c.turn.prompt() == "Ben: roll the dice"


def test_after_a_restart_the_prompt_asks_for_the_decision(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.turn.roll()
    again = make(tmp_path)  # the app restarted after the move
    assert again.home.resume() and again.session.move_hint is None
    assert again.turn.prompt() == "Baltic Avenue is for sale for 60: buy it, or it goes to auction"
    again.settings.set_language("pl")
    assert again.turn.prompt() == "Baltic Avenue na sprzedaż za 60: kup albo pójdzie na licytację"


def test_no_prompt_while_a_debt_is_open(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, ("Ann", "Ben", "Cy"), rules="biznes",
          setup={"players": {"Ann": {"cash": 40}}, "spaces": {"15": {"owner": "Ann"}}})
    c.turn.roll((1, 3))  # Akcyza: 100 owed with 40 in cash
    assert c.session.game is not None and c.session.game.players[0].debts
    assert c.turn.prompt() is None  # the debt panel says what is missing
    [debt] = c.deeds.debts()
    assert debt["missing"] == 60 and debt["missing_text"] == "60"


def test_the_board_middle_is_inside_the_ring() -> None:
    x, y, w, h = middle(100, 50, 400, 300)  # a wide widget: the board is its height square, centred
    assert w == h and 0 < w < 300 * (1 - 2 * 0.13)
    assert abs((x + w / 2) - 300) < 1e-9 and abs((y + h / 2) - 200) < 1e-9
    assert middle(0, 0, 0, 0)[2] == 0
