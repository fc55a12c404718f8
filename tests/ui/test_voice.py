"""The banker's voice (ui/voice.py): the phrases of a game in each language, the short queue that folds a
burst into a summary and drops what an undo took back, plain digits for the speech engine, silence
without espeak-ng or an audio device, and a real espeak-ng rendering each language to a WAV that sox
finds not silent."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from banker import files
from flowkit import CARDS, make, start
from ui.flows import Flows
from ui.i18n import Translator
from ui.moments import EVENT, MONEY, Moment
from ui.voice import EspeakSpeaker, Voice, Waiting, phrases, say


class FakeSpeaker:
    """Records what would be said. `hold`: a phrase is not over until the test says so (speech takes time)."""

    def __init__(self, hold: bool = False) -> None:
        self.said: list[str] = []
        self.hold = hold
        self.pending: list[Callable[[], None]] = []
        self.levels: list[tuple[str, int, int]] = []

    def speak(self, text: str, language: str, volume: int, speed: int, done: Callable[[], None]) -> None:
        self.said.append(text)
        self.levels.append((language, volume, speed))
        if self.hold:
            self.pending.append(done)
        else:
            done()

    def finish(self) -> None:
        """Let the phrases be said, one after the other, until the queue is empty."""
        while self.pending:
            self.pending.pop(0)()

    def status(self) -> str | None:
        return None


def speaking(tmp_path: Path, language: str = "en", hold: bool = False) -> tuple[Flows, FakeSpeaker]:
    c = make(tmp_path)
    speaker = FakeSpeaker(hold)
    c.session.moment_listeners.append(Voice(c.session, speaker).tell)
    c.settings.set_language(language)
    start(c)
    return c, speaker


def a_turn_each(c: Flows) -> None:
    """Ann rolls 1 + 2 onto Baltic Avenue and buys it with her card; Ben rolls the same and pays her rent."""
    c.turn.roll()
    c.paying.request({"do": "buy"})
    c.taps.card_tapped(CARDS["Ann"])
    c.paying.request({"do": "end_turn"})
    c.turn.roll()


TURNS = {
    "en": ["Ann rolled 3", "Ann, move to Baltic Avenue", "Ann buys Baltic Avenue for 60", "Ben's turn",
           "Ben rolled 3", "Ben, move to Baltic Avenue", "Ben pays Ann 4 for Baltic Avenue"],
    "pl": ["Ann wyrzuca 3", "Ann, idź na pole Baltic Avenue", "Ann kupuje Baltic Avenue za 60", "Kolej: Ben",
           "Ben wyrzuca 3", "Ben, idź na pole Baltic Avenue", "Ben płaci graczowi Ann 4 za Baltic Avenue"],
    "cs": ["Ann hází 3", "Ann, jdi na pole Baltic Avenue", "Ann kupuje Baltic Avenue za 60", "Na tahu: Ben",
           "Ben hází 3", "Ben, jdi na pole Baltic Avenue", "Ben platí hráči Ann 4 za Baltic Avenue"],
    "ru": ["Ann выбрасывает 3", "Ann, иди на поле Baltic Avenue", "Ann покупает Baltic Avenue за 60", "Ходит Ben",
           "Ben выбрасывает 3", "Ben, иди на поле Baltic Avenue", "Ben платит игроку Ann 4 за Baltic Avenue"],
}


@pytest.mark.parametrize("language", sorted(TURNS))
def test_a_scripted_turn_is_spoken_in_the_tables_language(tmp_path: Path, language: str) -> None:
    c, speaker = speaking(tmp_path, language)
    a_turn_each(c)
    assert speaker.said == TURNS[language]
    assert speaker.levels[0] == (language, 2, 2)  # the settings' normal volume and speed


BURSTS = {
    "en": ["Ann rolled 3", "In short: 2 announcements, 1 payment, 1 roll", "Ben, move to Baltic Avenue",
           "Ben pays Ann 4 for Baltic Avenue"],
    "pl": ["Ann wyrzuca 3", "W skrócie: 2 komunikaty, 1 płatność, 1 rzut", "Ben, idź na pole Baltic Avenue",
           "Ben płaci graczowi Ann 4 za Baltic Avenue"],
    "cs": ["Ann hází 3", "Ve zkratce: 2 hlášení, 1 platba, 1 hod", "Ben, jdi na pole Baltic Avenue",
           "Ben platí hráči Ann 4 za Baltic Avenue"],
    "ru": ["Ann выбрасывает 3", "Коротко: 2 сообщения, 1 платёж, 1 бросок", "Ben, иди на поле Baltic Avenue",
           "Ben платит игроку Ann 4 за Baltic Avenue"],
}


@pytest.mark.parametrize("language", sorted(BURSTS))
def test_a_burst_keeps_the_newest_and_sums_up_the_rest(tmp_path: Path, language: str) -> None:
    c, speaker = speaking(tmp_path, language, hold=True)
    a_turn_each(c)  # all of it while the first phrase is still being said
    assert speaker.said == BURSTS[language][:1]
    speaker.finish()
    assert speaker.said == BURSTS[language]


AUCTIONS = {
    "en": ["Auction of Baltic Avenue", "Ben bids 1200", "Going once, going twice, sold to Ben for 1200"],
    "pl": ["Licytacja: Baltic Avenue", "Ben oferuje 1200", "Po raz pierwszy, po raz drugi, sprzedane! Ben kupuje za 1200"],
    "cs": ["Dražba: Baltic Avenue", "Ben nabízí 1200", "Poprvé, podruhé, prodáno! Ben kupuje za 1200"],
    "ru": ["Аукцион: Baltic Avenue", "Ben предлагает 1200", "Раз, два, три, продано! Ben покупает за 1200"],
}


@pytest.mark.parametrize("language", sorted(AUCTIONS))
def test_an_auction_is_called_bid_by_bid_then_the_hammer(tmp_path: Path, language: str) -> None:
    c = make(tmp_path)
    speaker = FakeSpeaker()
    c.session.moment_listeners.append(Voice(c.session, speaker).tell)
    c.settings.set_language(language)
    start(c, ("Ann", "Ben", "Cy"))
    c.turn.roll()
    c.paying.request({"do": "decline"})
    c.auction.bid("Ben", 1200)
    c.paying.request({"do": "pass", "player": "Cy"})
    c.paying.request({"do": "pass", "player": "Ann"})
    assert c.session.game.owner[3] == 1  # type: ignore[union-attr]
    assert speaker.said[2:] == AUCTIONS[language]  # after the roll and the move


def test_a_summary_counts_with_the_languages_plural_forms(tmp_path: Path) -> None:
    c, _ = speaking(tmp_path, "pl")
    rents = [p for p in phrases(c.session, [Moment(MONEY, "rent", {"payer": "Ben", "payee": "Ann", "amount": 4,
                                                           "space": "Baltic Avenue"}, 1)] * 5)]
    assert say(c.session, Waiting(rents[:2])) == "W skrócie: 2 płatności"
    assert say(c.session, Waiting(rents)) == "W skrócie: 5 płatności"
    c.settings.set_language("cs")
    assert say(c.session, Waiting(rents)) == "Ve zkratce: 5 plateb"
    c.settings.set_language("ru")
    assert say(c.session, Waiting(rents)) == "Коротко: 5 платежей"


def test_what_an_undo_took_back_is_not_spoken(tmp_path: Path) -> None:
    c, speaker = speaking(tmp_path, hold=True)
    c.turn.roll()  # "Ann rolled 3" is being said; "move to" waits
    c.paying.request({"do": "buy"})
    c.taps.card_tapped(CARDS["Ann"])  # the purchase waits too
    c.banker.undo()  # ... and is taken back
    assert c.session.game.owner[3] == -1  # type: ignore[union-attr]
    speaker.finish()
    assert speaker.said == ["Ann rolled 3", "Ann, move to Baltic Avenue"]
    c.paying.request({"do": "buy"})
    c.taps.card_tapped(CARDS["Ann"])
    speaker.finish()
    assert speaker.said[-1] == "Ann buys Baltic Avenue for 60"


GROUPED = re.compile(r"\d[\s,.\u00a0\u202f]\d")


@pytest.mark.parametrize("language", ["en", "pl", "cs", "ru"])
def test_numbers_reach_the_speech_engine_as_plain_digits(tmp_path: Path, language: str) -> None:
    c, _ = speaking(tmp_path, language)
    c.session.tr.currency = "PLN"  # a game with a currency: still no symbol and no grouping in speech
    moments = [Moment(MONEY, "rent", {"payer": "Ben", "payee": "Ann", "amount": 15000, "space": "Boardwalk"}, 1),
               Moment(EVENT, "bid", {"player": "Cy", "amount": 1250}, 1),
               Moment(EVENT, "sold", {"player": "Cy", "space": "Boardwalk", "amount": 123456}, 1),
               Moment(EVENT, "debt", {"player": "Ben", "to": "bank", "amount": 2000}, 1),
               Moment(MONEY, "salary", {"payer": "bank", "payee": "Ann", "amount": 2000}, 1)]
    texts = [say(c.session, Waiting([p])) for p in phrases(c.session, moments)]
    assert len(texts) == 5
    for text in texts:
        assert not GROUPED.search(text) and "zł" not in text and "PLN" not in text, text
    assert "15000" in texts[0] and "1250" in texts[1] and "123456" in texts[2]
    if language == "en":
        assert texts == ["Ben pays Ann 15000 for Boardwalk", "Cy bids 1250",
                         "Going once, going twice, sold to Cy for 123456", "Ben owes the bank 2000",
                         "Ann collects 2000"]


EVERY_KIND = [
    (Moment(MONEY, "tax", {"payer": "Ann", "payee": "bank", "amount": 200, "space": "Income Tax"}, 1),
     "Ann pays 200 tax"),
    (Moment(EVENT, "card", {"player": "Ann", "card": "no-such-card", "text": "Bank error in your favour"}, 1),
     "Ann draws a card: Bank error in your favour"),
    (Moment(MONEY, "card", {"payer": "bank", "payee": "Ann", "amount": 200, "card": "x"}, 1),
     "Ann gets 200 from the bank"),
    (Moment(MONEY, "card", {"payer": "Ann", "payee": "Ben", "amount": 50, "card": "x"}, 1), "Ann pays Ben 50"),
    (Moment(MONEY, "card", {"payer": "Ann", "payee": "pot", "amount": 50, "card": "x"}, 1), "Ann puts 50 in the pot"),
    (Moment(MONEY, "pot", {"payer": "pot", "payee": "Ann", "amount": 350}, 1),
     "Ann wins the Free Parking jackpot: 350"),
    (Moment(MONEY, "snake_eyes", {"payer": "bank", "payee": "Ann", "amount": 500}, 1),
     "Two ones! Ann gets 500 from the bank"),
    (Moment(MONEY, "pot_seed", {"payer": "bank", "payee": "pot", "amount": 100}, 1),
     "The bank puts 100 in the jackpot"),
    (Moment(EVENT, "not_lapped", {"player": "Ann", "space": "Boardwalk"}, 1),
     "Ann has not been round the board yet: Boardwalk stays with the bank"),
    (Moment(MONEY, "jail_fine", {"payer": "Ann", "payee": "bank", "amount": 50}, 1), "Ann pays 50 to leave jail"),
    (Moment(EVENT, "jail", {"player": "Ann"}, 1), "Ann goes to jail"),
    (Moment(EVENT, "left_jail", {"player": "Ann", "how": "double"}, 1), "Ann is out of jail"),
    (Moment(EVENT, "extra_roll", {"player": "Ann"}, 1), "A double: Ann rolls again"),
    (Moment(EVENT, "unsold", {"space": "Boardwalk"}, 1), "Nobody bids: Boardwalk stays with the bank"),
    (Moment(EVENT, "built", {"player": "Ann", "kind": "house", "space": "Boardwalk"}, 1), "Ann builds on Boardwalk"),
    (Moment(EVENT, "traded", {"from": "Ann", "to": "Ben"}, 1), "Ann and Ben trade"),
    (Moment(EVENT, "debt", {"player": "Ben", "to": "Ann", "amount": 300}, 1), "Ben owes Ann 300"),
    (Moment(EVENT, "bankrupt", {"player": "Ben", "to": "Ann"}, 1), "Ben is bankrupt"),
    (Moment(EVENT, "game_over", {"winner": "Ann"}, 1), "Game over. Ann wins!"),
    (Moment(EVENT, "sold_to_bank", {"player": "Ann", "space": "Boardwalk", "amount": 200}, 1),
     "Ann sells Boardwalk to the bank for 200"),
    (Moment(EVENT, "sold_to_player", {"player": "Ann", "space": "Boardwalk", "to": "Ben", "amount": 500}, 1),
     "Ann sells Boardwalk to Ben for 500"),
]


@pytest.mark.parametrize("language", ["en", "pl", "cs", "ru"])
def test_every_kind_of_moment_has_its_phrase_in_every_language(tmp_path: Path, language: str) -> None:
    c, _ = speaking(tmp_path, language)
    english = Translator("en")
    for moment, expected in EVERY_KIND:
        found = phrases(c.session, [moment])
        assert len(found) == 1, moment
        text = say(c.session, Waiting(found))
        assert "?" not in text and "ui.voice" not in text and "{" not in text, text
        if language == "en":
            assert text == expected
        else:
            assert text != english(found[0].key, **found[0].params), (language, text)  # translated
    # Told already by another phrase of the same action: the hammer says the price, the event the building.
    assert phrases(c.session, [Moment(MONEY, "auction", {"payer": "Cy", "payee": "bank", "amount": 120}, 1),
                       Moment(MONEY, "build", {"payer": "Ann", "payee": "bank", "amount": 200}, 1)]) == []


HOUSE_RULES_SAID = {
    "en": ("Ann wins the Free Parking jackpot: 1500", "Two ones! Ann gets 5000 from the bank"),
    "pl": ("Ann zgarnia pulę z Bezpłatnego parkingu: 1500", "Dwie jedynki! Ann dostaje 5000 z banku"),
    "cs": ("Ann bere pokladničku z Parkování zdarma: 1500", "Dvě jedničky! Ann dostává 5000 od banky"),
    "ru": ("Ann забирает копилку Бесплатной стоянки: 1500", "Две единицы! Ann получает 5000 от банка"),
}


@pytest.mark.parametrize("language", ["en", "pl", "cs", "ru"])
def test_the_jackpot_and_two_ones_bonus_are_said_in_every_language(tmp_path: Path, language: str) -> None:
    """The house rules' payments (money-log codes `pot` and `snake_eyes`) in the table's language, the sums as
    plain digits for the speech engine (never "1 500")."""
    c, _ = speaking(tmp_path, language)
    said = [say(c.session, Waiting(phrases(c.session, [m]))) for m in (
        Moment(MONEY, "pot", {"payer": "pot", "payee": "Ann", "amount": 1500}, 1),
        Moment(MONEY, "snake_eyes", {"payer": "bank", "payee": "Ann", "amount": 5000}, 1))]
    assert tuple(said) == HOUSE_RULES_SAID[language]


def test_switched_off_the_voice_says_nothing(tmp_path: Path) -> None:
    c, speaker = speaking(tmp_path)
    c.settings.set_setting("voice", False)
    a_turn_each(c)
    assert speaker.said == []
    c.settings.set_setting("voice", True)
    c.settings.set_setting("voice_volume", 3)
    c.settings.set_setting("voice_speed", 1)
    c.paying.request({"do": "end_turn"})
    assert speaker.said == ["Ann's turn"] and speaker.levels == [("en", 3, 1)]


def test_without_espeak_ng_the_app_is_silent_and_the_settings_say_why(tmp_path: Path) -> None:
    c = make(tmp_path)
    played: list[Path] = []
    speaker = EspeakSpeaker(lambda path, done: played.append(path) or True, lambda fn: fn(), which=lambda name: None)
    voice = Voice(c.session, speaker)
    c.session.moment_listeners.append(voice.tell)
    c.settings.voice_status = voice.status
    start(c)
    a_turn_each(c)
    assert played == [] and voice.said == []
    assert c.settings.view()["status"].splitlines()[-1] == "No voice: espeak-ng is not installed (sudo apt install espeak-ng)"
    c.settings.set_language("ru")
    assert c.settings.view()["status"].splitlines()[-1] == "Голоса нет: не установлен espeak-ng (sudo apt install espeak-ng)"
    assert c.session.game.owner[3] == 0  # type: ignore[union-attr]  # and the game went on as ever


def test_without_an_audio_device_the_voice_stops_trying_and_says_so(tmp_path: Path) -> None:
    """`/bin/true` stands in for espeak-ng (it writes nothing); the player finds no audio device."""
    c = make(tmp_path)
    calls: list[Path] = []
    finished = threading.Event()

    def no_device(path: Path, done: Callable[[], None]) -> bool:
        calls.append(path)
        finished.set()
        return False

    speaker = EspeakSpeaker(no_device, lambda fn: fn(), which=lambda name: shutil.which("true"), folder=tmp_path)
    voice = Voice(c.session, speaker)
    c.session.moment_listeners.append(voice.tell)
    c.settings.voice_status = voice.status
    start(c)
    c.turn.roll()
    assert finished.wait(10)
    for _ in range(100):  # the render thread hands back the result, then the voice has nothing more to try
        if voice.speaking is None:
            break
        threading.Event().wait(0.05)
    assert voice.speaking is None and len(calls) == 1
    assert c.settings.view()["status"].splitlines()[-1] == "No voice: no speaker or sound device found"
    c.paying.request({"do": "buy"})
    c.taps.card_tapped(CARDS["Ann"])
    assert len(calls) == 1 and c.session.game.owner[3] == 0  # type: ignore[union-attr]
    assert list(tmp_path.glob("banker-voice-*.wav")) == []  # no file left behind


SAMPLES = {"en": "Ben pays Ann 200 for Boardwalk", "pl": "Ben płaci graczowi Ann 200 za Aleje Ujazdowskie",
           "cs": "Ben platí hráči Ann 200 za Pařížskou", "ru": "Ben платит игроку Ann 200 за Арбат"}


def sox_stat(path: Path) -> dict[str, float]:
    out = subprocess.run(["sox", str(path), "-n", "stat"], capture_output=True, text=True, check=True).stderr
    stats = {}
    for line in out.splitlines():
        name, _, value = line.partition(":")
        try:
            stats[name.strip()] = float(value)
        except ValueError:
            continue
    return stats


@pytest.mark.parametrize("language", sorted(SAMPLES))
def test_espeak_ng_renders_each_language_to_a_wav_that_is_not_silent(tmp_path: Path, language: str) -> None:
    if not (shutil.which("espeak-ng") and shutil.which("sox")):
        if os.environ.get("CI") == "true":
            pytest.fail("CI installs espeak-ng and sox (scripts/_venv.sh), and they are missing")
        pytest.skip("espeak-ng or sox is not installed")
    speaker = EspeakSpeaker(lambda path, done: True, lambda fn: fn(), folder=tmp_path)
    wav = speaker.render(SAMPLES[language], language, 2, 2)
    assert wav is not None and wav.exists()
    stats = sox_stat(wav)
    assert stats["Length (seconds)"] > 1.0, stats
    assert stats["RMS     amplitude"] > 0.02 and stats["Maximum amplitude"] > 0.2, stats
    quiet = sox_stat(speaker.render(SAMPLES[language], language, 1, 3))  # type: ignore[arg-type]
    assert quiet["Length (seconds)"] < stats["Length (seconds)"]  # faster
    assert quiet["RMS     amplitude"] < stats["RMS     amplitude"]  # quieter


@pytest.mark.parametrize("language", ["en", "pl", "cs", "ru"])
def test_a_game_with_house_rules_says_two_ones_and_the_jackpot(tmp_path: Path, language: str) -> None:
    """The engine's own moments: house rules chosen on the new-game screen's page, then two ones rolled (the
    bonus) and, with the jackpot on, the pot taken on Free Parking, each said in the table's language."""
    c = make(tmp_path, taps=False)
    speaker = FakeSpeaker()
    c.session.moment_listeners.append(Voice(c.session, speaker).tell)
    c.settings.set_language(language)
    c.setup.new_game()
    for k, name in enumerate(("Ann", "Ben")):
        c.setup.set_player(k, name=name)
    c.setup.toggle_house_rule("snake_eyes_bonus")  # 500 in classic
    c.setup.toggle_house_rule("free_parking_pot")
    c.setup.step_house_rule("free_parking_seed", 1)
    c.setup.step_house_rule("free_parking_seed", 1)
    c.setup.step_house_rule("free_parking_seed", 1)  # the bank puts 150 in the pot
    c.setup.draft.setup = {"players": {"Ann": {"position": 18}}}  # type: ignore[union-attr]
    assert c.setup.start()
    game = c.session.game
    assert game is not None and game.pot == 150
    speaker.said.clear()
    c.turn.roll((1, 1))  # Ann: two ones, then on to Free Parking (20); the roll and the move fold, not these
    pot_line, eyes_line = HOUSE_RULES_SAID[language]
    assert eyes_line.replace("5000", "500") in speaker.said
    assert pot_line.replace("1500", "150") in speaker.said
    assert game.players[0].cash == 1500 + 500 + 150 and game.pot == 150  # the bank seeds it again
    assert len(speaker.said) == 3 and speaker.said[0].startswith(c.session.tr("ui.voice.summary", parts="")[:4])


def test_a_phrase_left_by_a_kill_or_a_cut_goes_at_the_next_start(tmp_path: Path) -> None:
    """A phrase's WAV file lives while it is played: one left behind by a process that is gone (or of an earlier
    boot) is removed when the next speaker starts; one of a live process, or not of our making, is not."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    boot = files.boot_id()
    gone = tmp_path / f"banker-voice-{boot}-{int(done.stdout)}.abcdefgh.wav"
    playing = tmp_path / f"banker-voice-{boot}-1.abcdefgh.wav"  # pid 1 runs
    someone = tmp_path / "banker-voice.wav"
    for path in (gone, playing, someone):
        path.write_bytes(b"RIFF")
    speaker = EspeakSpeaker(lambda path, done: True, lambda fn: fn(), which=lambda name: shutil.which("true"),
                            folder=tmp_path)
    assert sorted(tmp_path.iterdir()) == sorted([playing, someone])
    rendered = speaker.render("Ann rolled 3", "en", 2, 2)
    assert rendered is not None and rendered.name.startswith(f"banker-voice-{boot}-{os.getpid()}.")
    assert files.stale(tmp_path, "banker-voice-", ".wav") == []  # its own, being played: not stale
