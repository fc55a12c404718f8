"""What the phone page is sent (ui/phone.py): the live game in plain JSON, translated,
with nothing personal beyond the players' names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import flowkit
from flowkit import CARDS
from ui import phone, view
from ui.flows import Flows
from ui.phone import phone_state

PIN = "4321"
KEYS = {"title", "language", "labels", "turn", "ended", "winner", "players", "bank", "house_rules", "log", "chart",
        "ranking", "report", "pot"}
LABELS = {"cash", "turn_line", "net_worth", "bank", "log", "chart", "ranking", "deeds", "none", "connection_lost",
          "winner", "mortgaged", "bankrupt", "gone", "ended", "house_rules", "rulebook", "report"}
# Ann on Go's neighbour with two houses on Mediterranean and one on Baltic; Ben with Reading and a mortgaged Boardwalk.
SETUP = {"players": {"Ann": {"position": 2}},
         "spaces": {"1": {"owner": "Ann", "houses": 2}, "3": {"owner": "Ann", "houses": 1},
                    "5": {"owner": "Ben"}, "39": {"owner": "Ben", "mortgaged": True}}}


def make(tmp_path: Path) -> Flows:
    return flowkit.make(tmp_path, taps=False)


def start(c: Flows, names: tuple[str, ...] = ("Ann", "Ben"), rules: str = "classic", pin: str = PIN,
          setup: dict | None = None) -> None:
    flowkit.start(c, names, rules, pin, setup)


def played(tmp_path: Path) -> Flows:
    """Ann lands on Reading (25 to Ben), Ben on Baltic with a house (20 to Ann): back to Ann."""
    c = make(tmp_path)
    start(c, setup=SETUP)
    c.turn.roll()
    c.paying.request({"do": "end_turn"})
    c.turn.roll()
    c.paying.request({"do": "end_turn"})
    return c


def test_the_live_game_in_plain_words(tmp_path: Path) -> None:
    c = played(tmp_path)
    state = phone_state(c.session)
    assert set(state) == KEYS and set(state["labels"]) == LABELS
    assert state["title"] == "Classic" and state["language"] == "en"
    assert state["pot"] is None  # no Free Parking jackpot without its house rule
    assert state["turn"] == "Ann" and state["labels"]["turn_line"] == "Ann's turn"
    assert state["ended"] is False and state["winner"] is None and state["labels"]["winner"] == ""
    assert state["labels"]["cash"] == "Cash" and state["labels"]["deeds"] == "Deeds & houses"
    ann, ben = state["players"]
    assert {k: ann[k] for k in ("name", "colour", "cash", "where", "flags", "bankrupt", "current")} == {
        "name": "Ann", "colour": "#E53935", "cash": 1495, "where": "Reading Railroad", "flags": "",
        "bankrupt": False, "current": True}
    assert ben["cash"] == 1505 and ben["current"] is False and ben["where"] == "Baltic Avenue"
    game = c.session.game
    assert game is not None
    assert ann["net_worth"] == game.net_worth(0) and ben["net_worth"] == game.net_worth(1)
    # Deeds by colour group, with buildings and mortgages in words.
    assert [(g["group"], g["colour"], [(d["name"], d["buildings"], d["mortgaged"]) for d in g["deeds"]])
            for g in ann["deeds"]] == [
        ("purple", game.ruleset.groups["purple"]["color"],
         [("Mediterranean Avenue", c.session.tr("ui.deed.houses_n", count=2), False),
          ("Baltic Avenue", c.session.tr("ui.deed.houses_n", count=1), False)])]
    assert [(g["group_name"], [(d["name"], d["buildings"], d["mortgaged"]) for d in g["deeds"]])
            for g in ben["deeds"]] == [("Railroads", [("Reading Railroad", "", False)]),
                                       ("Dark blue", [("Boardwalk", "", True)])]
    assert set(ann["deeds"][0]["deeds"][0]) == {"name", "buildings", "mortgaged"}  # no buttons, no rent tables
    assert state["bank"] == "Bank: 29 houses, 12 hotels"
    assert state["house_rules"] == [] and state["labels"]["rulebook"] == "None: the game as the rulebook has it"
    assert state["log"] == ["Ben pays Ann 20 rent for Baltic Avenue", "Ann pays Ben 25 rent for Reading Railroad"]
    # One point at the start and one at every change of turn.
    assert state["chart"] == {"Ann": [1770, 1745, 1765], "Ben": [1900, 1925, 1905]}
    assert state["ranking"] == []
    assert json.loads(json.dumps(state)) == state


def test_nothing_personal_leaves(tmp_path: Path) -> None:
    c = played(tmp_path)
    if hasattr(c, "web_token"):
        c.phones.token()  # the phone link's token lives in the same document
    text = json.dumps(phone_state(c.session), ensure_ascii=False)
    meta = c.session.journal.meta(c.session.live.id)  # type: ignore[union-attr]
    assert set(meta["cards"]) == {CARDS["Ann"], CARDS["Ben"]}
    secrets = [*meta["cards"], PIN, meta["pin"]["hash"], meta["pin"]["salt"]]
    if meta.get("web_token"):
        secrets.append(meta["web_token"])
    for secret in secrets:
        assert secret not in text and secret.lower() not in text.lower()
    assert str(c.session.journal.path) not in text


def test_the_end_ranking_and_winner(tmp_path: Path) -> None:
    c = played(tmp_path)
    c.banker.end_game()
    state = phone_state(c.session)
    assert state["ended"] is True and state["winner"] == "Ben"
    assert state["labels"]["winner"] == "Ben wins!"
    assert state["ranking"] == [{"name": "Ben", "worth": 1905, "place": 1}, {"name": "Ann", "worth": 1765, "place": 2}]
    assert len(state["chart"]["Ann"]) == 4  # the end adds the final point
    c.banker.undo()  # the banker takes the end back
    state = phone_state(c.session)
    assert state["ended"] is False and state["ranking"] == [] and state["winner"] is None
    assert len(state["chart"]["Ann"]) == 3


def test_the_games_report_once_it_is_over(tmp_path: Path) -> None:
    """The phones read the report page's words (ui/flows/report.py) once the game is over, not before."""
    c = played(tmp_path)
    assert phone_state(c.session)["report"] is None
    c.banker.end_game()
    state = phone_state(c.session)
    r = state["report"]
    assert state["labels"]["report"] == "The game's report" and r["title"] == "The game's report"
    assert r["winner"] == "Ben wins!" and r["length"] == "The game lasted 3 turns."
    assert r["turning"] == "The turning point, turn 1: Ann paid Ben 25 (rent)."
    assert [(p["place"], p["name"]) for p in r["players"]] == [(1, "Ben"), (2, "Ann")]
    assert r["players"][1]["lines"][0] == "Ann collected 20 in rent, all of it from Baltic Avenue."
    assert r == c.of("ui.flows.report:ReportFlow").report_view()  # type: ignore[attr-defined]
    json.dumps(state)  # plain JSON
    c.settings.set_language("cs")
    r = phone_state(c.session)["report"]
    assert r["title"] == "Souhrn hry" and r["turning"] == "Zlom hry, tah 1: Ann platí 25 (nájemné) – dostává Ben."
    c.banker.undo()  # the end taken back: no report
    assert phone_state(c.session)["report"] is None


def test_a_tie_names_every_winner(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c)
    c.banker.end_game()
    state = phone_state(c.session)
    # tied players share the first place, as the report ranks them (issue 54: not "Ann & Ben wins!" above 1 and 2)
    assert state["winner"] == ["Ann", "Ben"] and state["labels"]["winner"] == "Ann and Ben share first place"
    assert [r["place"] for r in state["ranking"]] == [1, 1]
    assert [p["place"] for p in state["report"]["players"]] == [1, 1]


def test_in_the_familys_language(tmp_path: Path) -> None:
    c = played(tmp_path)
    c.settings.set_language("pl")
    state = phone_state(c.session)
    assert state["language"] == "pl"
    assert state["labels"]["cash"] == "Gotówka" and state["labels"]["turn_line"] == "Teraz gra Ann"
    assert state["labels"]["chart"] == "Majątek w trakcie gry"
    assert state["title"] == c.session.tr("ui.rules.classic") and state["bank"] == "W banku: 29 domów, 12 hoteli"
    assert state["log"][0] == c.session.money_text(*_last_entry(c))
    assert "Bank: 29 houses" not in state["bank"] and "Ann's turn" not in json.dumps(state, ensure_ascii=False)


def _last_entry(c: Flows) -> tuple:
    game = c.session.game
    assert game is not None
    e = game.money_log()[-1]
    return e.code, e.payer, e.payee, e.amount, e.params


def test_the_ruleset_s_own_building_words(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, rules="biznes")
    state = phone_state(c.session)
    assert state["title"] == "Biznes"
    assert state["bank"].startswith("Bank: ") and "offices" in state["bank"] and "holdings" in state["bank"]
    assert state["labels"]["deeds"] == c.session.tr("ui.nav.deeds_offices")


def test_the_chart_is_kept_up_to_date_not_replayed(tmp_path: Path) -> None:
    c = played(tmp_path)
    game = c.session.game
    assert game is not None
    assert phone.worth_history(game) == view.worth_history(game)
    replay = phone._chart.replay
    c.turn.roll()  # one more action: the kept replay goes on from where it was
    assert phone._chart.replay is replay and phone.worth_history(game) == view.worth_history(game)
    c.banker.undo()  # an undo rebuilds the history: a fresh replay
    assert phone.worth_history(game) == view.worth_history(game) and phone._chart.replay is not replay
    c.turn.roll()
    c.paying.request({"do": "end_turn"})
    assert phone.worth_history(c.session.game) == view.worth_history(c.session.game)  # type: ignore[arg-type]
    # Another game (here the same one loaded afresh) never gets the old game's series.
    other = c.session.journal.load(c.session.live.id)  # type: ignore[union-attr]
    assert phone.worth_history(other.game) == view.worth_history(other.game)
    assert phone._chart.game is other.game


def test_no_live_game(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        phone_state(make(tmp_path).session)


@pytest.mark.parametrize("language, lines", [
    ("en", ["Free Parking jackpot: 100 now", "The jackpot starts with 100", "Landing on GO pays 200 more", "No auctions"]),
    ("pl", ["Pula na Bezpłatnym parkingu: teraz 100", "Pula zaczyna się od 100", "Stanięcie na Starcie daje 200 więcej",
            "Bez licytacji"]),
    ("cs", ["Pokladnička na Parkování zdarma: teď 100", "Pokladnička začíná s 100", "Zastavení na Startu dá o 200 víc",
            "Bez dražeb"]),
    ("ru", ["Копилка на Бесплатной стоянке: сейчас 100", "Копилка начинается с 100", "Остановка на Старте даёт на 200 больше",
            "Без аукционов"]),
])
def test_the_house_rules_in_force_in_the_familys_language(tmp_path: Path, language: str, lines: list[str]) -> None:
    """The house rules chosen on the new-game screen, as the table's House rules page lists them."""
    c = make(tmp_path)
    c.setup.new_game()
    c.setup.toggle_house_rule("free_parking_pot")
    c.setup.step_house_rule("free_parking_seed", 1)
    c.setup.step_house_rule("free_parking_seed", 1)
    c.setup.toggle_house_rule("start_landing_bonus")
    c.setup.toggle_house_rule("auction_on_decline")
    for k, name in enumerate(("Ann", "Ben")):
        c.setup.set_player(k, name=name)
    assert c.setup.start()
    c.settings.set_language(language)
    state = phone_state(c.session)
    assert state["house_rules"] == lines == c.home.house_rules()["lines"]
    assert state["pot"] == {"amount": 100, "text": c.session.tr.money(100), "label": c.session.tr("ui.pot.label")}
    assert state["pot"]["label"] != "ui.pot.label"
    assert state["labels"]["house_rules"] == c.session.tr("ui.phone.house_rules") != "ui.phone.house_rules"
