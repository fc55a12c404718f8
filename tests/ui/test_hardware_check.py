"""The settings' hardware check (issue 35) without a window, on a real controller and navigator: a card tapped or
the dice button pressed while a check shows is shown there and acts on nothing in the game; the start screen's
note for a reader that does not answer, and when it comes and goes; refusal notices that go once their cause is
gone. The same as the family does it, by touches and card taps in the real app: tests/ui/e2e_check.py."""

from __future__ import annotations

from pathlib import Path

from controllerkit import CARDS, Clock, make, start
from ui import view
from ui.controller import READER_QUIET_SECONDS, Controller
from ui.navigator import Navigator

NEED_CARDS = "Every player needs a registered card (or switch to on-screen buttons in Settings)."


def shown(c: Controller, count: int = 3) -> list[str]:
    return [line["text"] for line in c.notice_lines(count)]


def refused(tmp_path: Path, *names: str) -> Controller:
    """A new game of two players so named, no card registered, and Start pressed: refused."""
    c = make(tmp_path)
    c.new_game()
    for k, name in enumerate(names):
        c.draft_set(k, name=name)
    assert not c.draft_start()
    return c


def configured(c: Controller, port: str = "/dev/ttyUSB0", pin: str = "17") -> None:
    """The hardware as ui/app.py's start_hardware hands it over."""
    c.hardware_config("/etc/board-banker/config.toml", reader_kind="line", reader_port=port, dice_pin=pin)


# ---------------------------------------------------------------------- refusals that go with their cause


def test_the_setup_s_card_refusal_goes_once_the_family_switches_to_on_screen_buttons(tmp_path: Path) -> None:
    c = refused(tmp_path, "Ann", "Ben")
    assert c.tr("ui.setup.need_cards") == NEED_CARDS and shown(c, 1) == [NEED_CARDS]
    c.set_setting("taps", False)
    assert NEED_CARDS not in shown(c, 30)
    c.set_setting("taps", True)  # the cause back: the refusal is not (pressing Start again says it anew)
    assert NEED_CARDS not in shown(c, 30)
    assert not c.draft_start() and shown(c, 1) == [NEED_CARDS]


def test_the_setup_s_card_refusal_goes_once_every_card_is_registered(tmp_path: Path) -> None:
    c = refused(tmp_path, "Ann", "Ben")
    c.draft_register(0)
    c.card_tapped(CARDS["Ann"])
    assert NEED_CARDS in shown(c, 30)  # Ben's card is still missing
    c.card_tapped(CARDS["Ben"])
    assert NEED_CARDS not in shown(c, 30)
    assert shown(c, 30)[-1] == c.tr("ui.card.registered", player="Ben")


def test_only_the_refusal_whose_cause_is_gone_goes(tmp_path: Path) -> None:
    c = refused(tmp_path, "Ann", "Ann")
    same = c.tr("ui.setup.same_name")
    assert shown(c, 30) == [same, NEED_CARDS]
    c.set_setting("taps", False)
    assert shown(c, 30) == [same]  # two players called Ann: still true, still said
    c.draft_set(1, name="Ben")
    assert shown(c, 30) == []
    assert c.draft_start()


def test_a_refused_action_s_notice_goes_once_the_game_would_take_it(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.request({"do": "end_turn"})  # a roll is owed first
    refusal = c.tr("rule.roll_owed", player="Ann")
    assert refusal in shown(c)
    c.request({"do": "buy"})  # refused for another reason: both stand
    assert refusal in shown(c) and len(shown(c)) == 2
    c.roll((1, 2))
    assert refusal not in shown(c, 30)


def test_leaving_the_setup_takes_its_refusals_along(tmp_path: Path) -> None:
    c = make(tmp_path)
    c.new_game()
    c.draft_start()
    assert shown(c, 30)
    c.leave_draft()
    assert shown(c, 30) == [] and c.draft is None  # the condition made no new draft


# ---------------------------------------------------------------------- the checks


def test_a_card_tapped_on_the_reader_s_check_registers_nothing_and_shows_whose_it_is(tmp_path: Path) -> None:
    c = make(tmp_path)
    nav = Navigator(c)
    configured(c)
    c.reader_status(True, "ready")
    c.new_game()
    c.draft_set(0, name="Ann")
    c.draft_register(0)
    c.card_tapped(CARDS["Ann"])  # Ann's card registered; the next tap is Ben's
    nav.go("settings")
    nav.go("check_reader")
    assert nav.screen_name() == "check_reader"
    v = view.hardware_check(c, "reader")
    assert v["figure"] is None and v["waiting"] == c.tr("ui.check.tap_any")
    assert v["facts"] == ["Reader: connected · kind: line · port: /dev/ttyUSB0"]
    c.card_tapped(CARDS["Ben"])
    c.card_tapped(CARDS["Ann"])
    assert c.draft is not None and c.draft.players[1].card is None and c.draft.registering == 1
    v = view.hardware_check(c, "reader")
    assert v["figure"] == CARDS["Ann"] and v["about"] == "Ann's card · 2 taps so far"
    assert v["hints"] == [c.tr("ui.check.reader_works")]
    nav.back_from_check()
    assert nav.screen_name() == "settings" and c.check is None
    nav.back_from_settings()
    assert nav.screen_name() == "setup"
    c.card_tapped(CARDS["Ben"])  # the check is over: the tap registers again
    assert c.draft.players[1].card == CARDS["Ben"]


def test_a_tap_on_the_check_pays_nothing_and_leaves_the_waiting_action_waiting(tmp_path: Path) -> None:
    c = make(tmp_path)
    nav = Navigator(c)
    start(c)
    c.roll((1, 2))
    c.request({"do": "buy"})
    assert c.pending is not None
    cash = c.game.players[0].cash  # type: ignore[union-attr]
    seq = c.game.seq  # type: ignore[union-attr]
    nav.go("settings")
    nav.go("check_reader")
    c.card_tapped(CARDS["Ann"])
    assert c.pending is not None and c.game.seq == seq and c.game.players[0].cash == cash  # type: ignore[union-attr]
    assert view.hardware_check(c, "reader")["about"] == "Ann's card · 1 tap so far"
    nav.back_from_check()
    nav.back_from_settings()
    assert nav.screen_name() == "table"
    c.card_tapped(CARDS["Ann"])
    assert c.pending is None and c.game.players[0].cash == cash - 60  # type: ignore[union-attr]


def test_the_dice_button_on_its_check_rolls_nothing(tmp_path: Path) -> None:
    c = make(tmp_path)
    nav = Navigator(c)
    configured(c)
    c.button_status(True)
    start(c)
    seq = c.game.seq  # type: ignore[union-attr]
    nav.go("settings")
    nav.go("check_dice")
    v = view.hardware_check(c, "dice")
    assert v["figure"] is None and v["facts"] == ["Dice button: ready · GPIO pin 17"]
    assert v["hints"] == [c.tr("ui.check.dice_wires", pin="17")]
    c.dice_pressed((3, 5))
    assert c.game.seq == seq and c.last_dice == ()  # type: ignore[union-attr]
    v = view.hardware_check(c, "dice")
    assert v["figure"] == "3 + 5" and v["about"] == "1 press so far"
    nav.go("check_reader")  # from one check to the other: Back still goes to the settings
    nav.back_from_check()
    assert nav.screen_name() == "settings"
    nav.back_from_settings()
    c.dice_pressed((3, 5))
    assert c.game.seq > seq and c.last_dice == (3, 5)  # type: ignore[union-attr]


def test_a_check_left_by_the_game_itself_ends(tmp_path: Path) -> None:
    """A check not on the screen any more (the game ended meanwhile) lets taps act again."""
    c = make(tmp_path)
    nav = Navigator(c)
    start(c)
    nav.go("settings")
    nav.go("check_reader")
    c.end_game()
    assert nav.screen_name() == "over" and c.check is None


def test_the_check_says_what_to_do_when_nothing_comes(tmp_path: Path) -> None:
    c = make(tmp_path)
    nav = Navigator(c)
    nav.go("check_reader")
    assert view.hardware_check(c, "reader")["hints"] == [c.tr("ui.check.no_hardware")]
    configured(c)
    c.reader_status(False, "cannot open: [Errno 2] No such file or directory: '/dev/ttyUSB0'")
    v = view.hardware_check(c, "reader")
    assert v["facts"] == ["Reader: disconnected! · kind: line · port: /dev/ttyUSB0",
                          "Last reason given: cannot open: [Errno 2] No such file or directory: '/dev/ttyUSB0'"]
    assert v["hints"] == [c.tr("ui.check.reader_cable"),
                          "Still nothing? Check that /dev/ttyUSB0 is the reader's port in the config file "
                          "/etc/board-banker/config.toml."]
    configured(c, port="", pin="")  # none named in the config
    assert view.hardware_check(c, "reader")["hints"] == [
        c.tr("ui.check.reader_unset", config="/etc/board-banker/config.toml"), c.tr("ui.check.use_buttons")]
    assert view.hardware_check(c, "dice")["hints"] == [
        c.tr("ui.check.dice_unset", config="/etc/board-banker/config.toml")]
    c.hardware_config("/home/pi/config.toml", problem="config.toml: reader.protocol: must be ...")
    assert view.hardware_check(c, "dice")["hints"][1] == "config.toml: reader.protocol: must be ..."
    configured(c)
    c.button_status(False, "no GPIO here")
    v = view.hardware_check(c, "dice")
    assert v["facts"][1] == "Last reason given: no GPIO here"
    assert v["hints"] == [c.tr("ui.check.dice_missing", pin="17")]


def test_the_kind_is_the_config_s_own_word(tmp_path: Path) -> None:
    """The reader's kind is what [reader] protocol says, whatever readers come to be known."""
    c = make(tmp_path)
    c.hardware_config("/etc/board-banker/config.toml", reader_kind="acr122u", reader_port="/dev/hidraw0")
    assert "kind: acr122u · port: /dev/hidraw0" in view.hardware_check(c, "reader")["facts"][0]


def test_the_check_speaks_each_language(tmp_path: Path) -> None:
    c = make(tmp_path)
    configured(c)
    c.start_check("reader")
    c.card_tapped(CARDS["Ann"])
    c.card_tapped(CARDS["Ann"])
    english = view.hardware_check(c, "reader")
    for language, word in (("pl", "2 przyłożenia karty"), ("cs", "2 přiložené karty"), ("ru", "2 касания карты")):
        c.set_language(language)
        v = view.hardware_check(c, "reader")
        assert v["about"] == word and v["title"] != english["title"]
        assert all(a != b for a, b in zip(v["hints"], english["hints"]))


# ---------------------------------------------------------------------- the start screen's note


def test_the_start_screen_says_a_reader_is_not_answering_only_after_a_while(tmp_path: Path) -> None:
    clock = Clock()
    c = make(tmp_path, clock=clock)
    redraws: list[int] = []
    c.listeners.append(lambda: redraws.append(1))
    configured(c)
    c.reader_status(False, "cannot open: ...")
    c.tick()
    assert not view.reader_silent(c)  # not yet: a reader coming up with the app never flashes the note
    clock.now += READER_QUIET_SECONDS - 0.5
    c.tick()
    assert not view.reader_silent(c)
    clock.now += 0.5
    redraws.clear()
    c.tick()
    assert view.reader_silent(c) and redraws  # the tick that finds it silent redraws the screen
    c.reader_status(True, "ready")
    assert not view.reader_silent(c)


def test_no_note_for_a_reader_that_answers_in_time_or_for_no_reader_at_all(tmp_path: Path) -> None:
    clock = Clock()
    c = make(tmp_path, clock=clock)
    assert not view.reader_silent(c)  # without hardware
    configured(c, port="")
    clock.now += 60
    assert not view.reader_silent(c)  # none named in the config
    configured(c)
    clock.now += 1
    c.reader_status(True, "ready")
    clock.now += 60
    assert not view.reader_silent(c)


def test_a_first_pc_sc_reader_that_never_answers_gets_the_note_too(tmp_path: Path) -> None:
    """A pcsc reader with an empty url is "the first PC/SC reader": a reader all the same (ui/app.py passes its
    kind's `used(url)`), so its silence is said, and the check names its kind and no port to look at."""
    clock = Clock()
    c = make(tmp_path, clock=clock)
    c.hardware_config("/etc/board-banker/config.toml", reader_kind="pcsc", reader_port="", reader_used=True)
    c.reader_status(False, "pcscd is not running")
    clock.now += READER_QUIET_SECONDS
    c.tick()
    assert view.reader_silent(c)
    v = view.hardware_check(c, "reader")
    assert "kind: pcsc · port: —" in v["facts"][0]
    assert v["hints"] == [c.tr("ui.check.reader_cable")]
    c.reader_status(True, "ready")
    assert not view.reader_silent(c)


def test_the_note_s_button_opens_the_check_and_its_back_returns_home(tmp_path: Path) -> None:
    c = make(tmp_path)
    nav = Navigator(c)
    nav.go("check_reader")
    assert nav.screen_name() == "check_reader" and c.check is not None
    nav.back_from_check()
    assert nav.screen_name() == "home" and c.check is None
