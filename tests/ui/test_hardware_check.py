"""The settings' hardware check (issue 35) without a window, on real flows: a card tapped or
the dice button pressed while a check shows is shown there and acts on nothing in the game; the start screen's
note for a reader that does not answer, and when it comes and goes; refusal notices that go once their cause is
gone. The same as the family does it, by touches and card taps in the real app: tests/ui/e2e_check.py."""

from __future__ import annotations

from pathlib import Path

from flowkit import CARDS, Clock, make, start
from ui.flows import Flows
from ui.flows.settings import READER_QUIET_SECONDS
from ui.where import Where

PI_FACTS = "Running on a Raspberry Pi · config file: /etc/board-banker/config.toml"
NEED_CARDS = "Every player needs a registered card (or switch to on-screen buttons in Settings)."


def shown(c: Flows, count: int = 3) -> list[str]:
    return [line["text"] for line in c.session.notice_lines(count)]


def refused(tmp_path: Path, *names: str) -> Flows:
    """A new game of two players so named, no card registered, and Start pressed: refused."""
    c = make(tmp_path)
    c.setup.new_game()
    for k, name in enumerate(names):
        c.setup.set_player(k, name=name)
    assert not c.setup.start()
    return c


def configured(c: Flows, port: str = "/dev/ttyUSB0", pin: str = "17") -> None:
    """The hardware as ui/app.py's start_hardware hands it over, on a Pi with the installer's config file."""
    c.settings.place(Where(pi=True, hardware=True, config="/etc/board-banker/config.toml"))
    c.settings.hardware_config("/etc/board-banker/config.toml", reader_kind="line", reader_port=port, dice_pin=pin)


# ---------------------------------------------------------------------- refusals that go with their cause


def test_the_setup_s_card_refusal_goes_once_the_family_switches_to_on_screen_buttons(tmp_path: Path) -> None:
    c = refused(tmp_path, "Ann", "Ben")
    assert c.session.tr("ui.setup.need_cards") == NEED_CARDS and shown(c, 1) == [NEED_CARDS]
    c.settings.set_setting("taps", False)
    assert NEED_CARDS not in shown(c, 30)
    c.settings.set_setting("taps", True)  # the cause back: the refusal is not (pressing Start again says it anew)
    assert NEED_CARDS not in shown(c, 30)
    assert not c.setup.start() and shown(c, 1) == [NEED_CARDS]


def test_the_setup_s_card_refusal_goes_once_every_card_is_registered(tmp_path: Path) -> None:
    c = refused(tmp_path, "Ann", "Ben")
    c.setup.register(0)
    c.taps.card_tapped(CARDS["Ann"])
    assert NEED_CARDS in shown(c, 30)  # Ben's card is still missing
    c.taps.card_tapped(CARDS["Ben"])
    assert NEED_CARDS not in shown(c, 30)
    assert shown(c, 30)[-1] == c.session.tr("ui.card.registered", player="Ben")


def test_only_the_refusal_whose_cause_is_gone_goes(tmp_path: Path) -> None:
    c = refused(tmp_path, "Ann", "Ann")
    same = c.session.tr("ui.setup.same_name")
    assert shown(c, 30) == [same, NEED_CARDS]
    c.settings.set_setting("taps", False)
    assert shown(c, 30) == [same]  # two players called Ann: still true, still said
    c.setup.set_player(1, name="Ben")
    assert shown(c, 30) == []
    assert c.setup.start()


def test_a_refused_action_s_notice_goes_once_the_game_would_take_it(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.paying.request({"do": "end_turn"})  # a roll is owed first
    refusal = c.session.tr("rule.roll_owed", player="Ann")
    assert refusal in shown(c)
    c.paying.request({"do": "buy"})  # refused for another reason: both stand
    assert refusal in shown(c) and len(shown(c)) == 2
    c.turn.roll((1, 2))
    assert refusal not in shown(c, 30)


def test_leaving_the_setup_takes_its_refusals_along(tmp_path: Path) -> None:
    c = make(tmp_path)
    c.setup.new_game()
    c.setup.start()
    assert shown(c, 30)
    c.setup.cancel()
    assert shown(c, 30) == [] and c.setup.draft is None  # the condition made no new draft


# ---------------------------------------------------------------------- the checks


def test_a_card_tapped_on_the_reader_s_check_registers_nothing_and_shows_whose_it_is(tmp_path: Path) -> None:
    c = make(tmp_path)
    configured(c)
    c.settings.reader_status(True, "ready")
    c.setup.new_game()
    c.setup.set_player(0, name="Ann")
    c.setup.register(0)
    c.taps.card_tapped(CARDS["Ann"])  # Ann's card registered; the next tap is Ben's
    c.nav.go("settings")
    c.nav.go("check_reader")
    assert c.nav.screen_name() == "check_reader"
    v = c.settings.check_view("reader")
    assert v["figure"] is None and v["waiting"] == c.session.tr("ui.check.tap_any")
    assert v["facts"] == ["Reader: connected · kind: line · port: /dev/ttyUSB0", PI_FACTS]
    c.taps.card_tapped(CARDS["Ben"])
    c.taps.card_tapped(CARDS["Ann"])
    assert c.setup.draft is not None and c.setup.draft.players[1].card is None and c.setup.draft.registering == 1
    v = c.settings.check_view("reader")
    assert v["figure"] == CARDS["Ann"] and v["about"] == "Ann's card · 2 taps so far"
    assert v["hints"] == [c.session.tr("ui.check.reader_works")]
    c.nav.back_from_check()
    assert c.nav.screen_name() == "settings" and c.settings.check is None
    c.nav.back_from_settings()
    assert c.nav.screen_name() == "setup"
    c.taps.card_tapped(CARDS["Ben"])  # the check is over: the tap registers again
    assert c.setup.draft.players[1].card == CARDS["Ben"]


def test_a_tap_on_the_check_pays_nothing_and_leaves_the_waiting_action_waiting(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.turn.roll((1, 2))
    c.paying.request({"do": "buy"})
    assert c.paying.pending is not None
    cash = c.session.game.players[0].cash  # type: ignore[union-attr]
    seq = c.session.game.seq  # type: ignore[union-attr]
    c.nav.go("settings")
    c.nav.go("check_reader")
    c.taps.card_tapped(CARDS["Ann"])
    assert c.paying.pending is not None and c.session.game.seq == seq and c.session.game.players[0].cash == cash  # type: ignore[union-attr]
    assert c.settings.check_view("reader")["about"] == "Ann's card · 1 tap so far"
    c.nav.back_from_check()
    c.nav.back_from_settings()
    assert c.nav.screen_name() == "table"
    c.taps.card_tapped(CARDS["Ann"])
    assert c.paying.pending is None and c.session.game.players[0].cash == cash - 60  # type: ignore[union-attr]


def test_the_dice_button_on_its_check_rolls_nothing(tmp_path: Path) -> None:
    c = make(tmp_path)
    configured(c)
    c.settings.button_status(True)
    start(c)
    seq = c.session.game.seq  # type: ignore[union-attr]
    c.nav.go("settings")
    c.nav.go("check_dice")
    v = c.settings.check_view("dice")
    assert v["figure"] is None and v["facts"] == ["Dice button: ready · GPIO pin 17", PI_FACTS]
    assert v["hints"] == [c.session.tr("ui.check.dice_wires", pin="17")]
    c.turn.dice_pressed((3, 5))
    assert c.session.game.seq == seq and c.session.last_dice == ()  # type: ignore[union-attr]
    v = c.settings.check_view("dice")
    assert v["figure"] == "3 + 5" and v["about"] == "1 press so far"
    c.nav.go("check_reader")  # from one check to the other: Back still goes to the settings
    c.nav.back_from_check()
    assert c.nav.screen_name() == "settings"
    c.nav.back_from_settings()
    c.turn.dice_pressed((3, 5))
    assert c.session.game.seq > seq and c.session.last_dice == (3, 5)  # type: ignore[union-attr]


def test_a_check_left_by_the_game_itself_ends(tmp_path: Path) -> None:
    """A check not on the screen any more (the game ended meanwhile) lets taps act again."""
    c = make(tmp_path)
    start(c)
    c.nav.go("settings")
    c.nav.go("check_reader")
    c.banker.end_game()
    assert c.nav.screen_name() == "over" and c.settings.check is None


def test_the_check_says_what_to_do_when_nothing_comes(tmp_path: Path) -> None:
    c = make(tmp_path)
    c.nav.go("check_reader")
    tr = c.session.tr
    assert c.settings.check_view("reader")["hints"] == [tr("ui.where.no_hardware_computer"), tr("ui.check.use_buttons")]
    configured(c)
    c.settings.reader_status(False, "cannot open: [Errno 2] No such file or directory: '/dev/ttyUSB0'", "missing")
    v = c.settings.check_view("reader")
    assert v["facts"] == ["Reader: disconnected! · kind: line · port: /dev/ttyUSB0",
                          "Running on a Raspberry Pi · config file: /etc/board-banker/config.toml"]
    assert v["waiting"] == tr("ui.check.reader_not_answering")
    assert v["hints"] == [tr("ui.check.reader_missing", port="/dev/ttyUSB0"),
                          "Still nothing? Check that /dev/ttyUSB0 is the reader's port in the config file "
                          "/etc/board-banker/config.toml.", tr("ui.check.use_buttons")]
    assert not any("Errno" in line for line in v["facts"] + v["hints"])  # the hardware's words: the log's
    configured(c, port="", pin="")  # none named in the config
    assert c.settings.check_view("reader")["hints"] == [
        tr("ui.check.reader_unset", config="/etc/board-banker/config.toml"), tr("ui.check.use_buttons")]
    assert c.settings.check_view("dice")["hints"] == [tr("ui.check.dice_unset", config="/etc/board-banker/config.toml")]
    c.settings.place(Where(pi=True, hardware=True, config="/home/pi/config.toml", config_problem=True))
    c.settings.hardware_config("/home/pi/config.toml", problem="config.toml: reader.protocol: must be ...")
    assert c.settings.check_view("dice")["hints"] == [tr("ui.check.config_problem", config="/home/pi/config.toml"),
                                                      "config.toml: reader.protocol: must be ..."]
    configured(c)
    c.settings.button_status(False, "pin")
    v = c.settings.check_view("dice")
    assert v["waiting"] == tr("ui.check.dice_broken")
    assert v["hints"] == [tr("ui.check.dice_missing", pin="17")]


def test_the_kind_is_the_config_s_own_word(tmp_path: Path) -> None:
    """The reader's kind is what [reader] protocol says, whatever readers come to be known."""
    c = make(tmp_path)
    c.settings.hardware_config("/etc/board-banker/config.toml", reader_kind="acr122u", reader_port="/dev/hidraw0")
    assert "kind: acr122u · port: /dev/hidraw0" in c.settings.check_view("reader")["facts"][0]


def test_the_check_speaks_each_language(tmp_path: Path) -> None:
    c = make(tmp_path)
    configured(c)
    c.settings.start_check("reader")
    c.taps.card_tapped(CARDS["Ann"])
    c.taps.card_tapped(CARDS["Ann"])
    english = c.settings.check_view("reader")
    for language, word in (("pl", "2 przyłożenia karty"), ("cs", "2 přiložené karty"), ("ru", "2 касания карты")):
        c.settings.set_language(language)
        v = c.settings.check_view("reader")
        assert v["about"] == f"{c.session.tr('ui.check.not_tagged')} · {word}" and v["title"] != english["title"]
        assert all(a != b for a, b in zip(v["hints"], english["hints"], strict=True))


# ---------------------------------------------------------------------- the start screen's note


def test_the_start_screen_says_a_reader_is_not_answering_only_after_a_while(tmp_path: Path) -> None:
    clock = Clock()
    c = make(tmp_path, clock=clock)
    redraws: list[int] = []
    c.session.listeners.append(lambda: redraws.append(1))
    configured(c)
    c.settings.reader_status(False, "cannot open: ...")
    c.tick()
    assert not c.settings.reader_silent()  # not yet: a reader coming up with the app never flashes the note
    clock.now += READER_QUIET_SECONDS - 0.5
    c.tick()
    assert not c.settings.reader_silent()
    clock.now += 0.5
    redraws.clear()
    c.tick()
    assert c.settings.reader_silent() and redraws  # the tick that finds it silent redraws the screen
    c.settings.reader_status(True, "ready")
    assert not c.settings.reader_silent()


def test_no_note_for_a_reader_that_answers_in_time_or_for_no_reader_at_all(tmp_path: Path) -> None:
    clock = Clock()
    c = make(tmp_path, clock=clock)
    assert not c.settings.reader_silent()  # without hardware
    configured(c, port="")
    clock.now += 60
    assert not c.settings.reader_silent()  # none named in the config
    configured(c)
    clock.now += 1
    c.settings.reader_status(True, "ready")
    clock.now += 60
    assert not c.settings.reader_silent()


def test_a_first_pc_sc_reader_that_never_answers_gets_the_note_too(tmp_path: Path) -> None:
    """A pcsc reader with an empty url is "the first PC/SC reader": a reader all the same (ui/app.py passes its
    kind's `used(url)`), so its silence is said, and the check names its kind and no port to look at."""
    clock = Clock()
    c = make(tmp_path, clock=clock)
    c.settings.place(Where(pi=True, hardware=True, config="/etc/board-banker/config.toml"))
    c.settings.hardware_config("/etc/board-banker/config.toml", reader_kind="pcsc", reader_port="", reader_used=True)
    c.settings.reader_status(False, "pcscd is not running", "lost")
    clock.now += READER_QUIET_SECONDS
    c.tick()
    assert c.settings.reader_silent()
    v = c.settings.check_view("reader")
    assert "kind: pcsc · port: —" in v["facts"][0]
    assert v["hints"] == [c.session.tr("ui.check.reader_cable"), c.session.tr("ui.check.use_buttons")]
    c.settings.reader_status(True, "ready")
    assert not c.settings.reader_silent()


def test_the_note_s_button_opens_the_check_and_its_back_returns_home(tmp_path: Path) -> None:
    c = make(tmp_path)
    c.nav.go("check_reader")
    assert c.nav.screen_name() == "check_reader" and c.settings.check is not None
    c.nav.back_from_check()
    assert c.nav.screen_name() == "home" and c.settings.check is None
