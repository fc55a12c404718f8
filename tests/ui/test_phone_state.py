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
        "ranking", "report", "pot", "for_sale", "deed_cards"}
LABELS = {"cash", "turn_line", "net_worth", "bank", "log", "chart", "ranking", "deeds", "none", "connection_lost",
          "winner", "mortgaged", "bankrupt", "gone", "ended", "house_rules", "rulebook", "report", "for_sale", "close",
          "not_mortgaged"}
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
    assert set(ann["deeds"][0]["deeds"][0]) == {"index", "name", "buildings", "mortgaged"}  # no buttons, no rents
    assert [d["index"] for g in ann["deeds"] for d in g["deeds"]] == [1, 3]  # each opens its card (deed_cards)
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


# The deed cards: Ann with both purple lots (two houses and one), Electric Company and Water Works; Ben with
# Reading and Pennsylvania Railroads, Park Place and a mortgaged Boardwalk; the rest the bank's.
DEEDS = {"spaces": {"1": {"owner": "Ann", "houses": 2}, "3": {"owner": "Ann", "houses": 1},
                    "12": {"owner": "Ann"}, "28": {"owner": "Ann"},
                    "5": {"owner": "Ben"}, "15": {"owner": "Ben"},
                    "37": {"owner": "Ben"}, "39": {"owner": "Ben", "mortgaged": True}}}


def cards(c: Flows) -> dict[str, dict]:
    return {d["name"]: d for d in phone_state(c.session)["deed_cards"]}


def test_every_property_s_deed_card_as_the_ruleset_prints_it(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, setup=DEEDS)
    game = c.session.game
    assert game is not None
    state = phone_state(c.session)
    assert [d["index"] for d in state["deed_cards"]] == list(game.ruleset.property_indices)
    assert len(state["deed_cards"]) == 28
    by_name = cards(c)
    boardwalk = by_name["Boardwalk"]
    assert boardwalk == {
        "index": 39, "name": "Boardwalk", "colour": game.ruleset.groups["dark_blue"]["color"],
        "group_name": "Dark blue", "price": "Price 400",
        "rents": ["Rent: 50", "With 1 house: 200", "With 2 houses: 600", "With 3 houses: 1,400",
                  "With 4 houses: 1,700", "Hotel: 2,000"],
        "building_cost": "Each building costs: 200", "mortgage": "Mortgage value: 200",
        "owner": "Ben", "owner_colour": "#1E88E5", "owner_text": "Owner: Ben",
        "rent_now": "Rent now: 0", "level": None, "mortgaged": True, "built": ""}  # mortgaged: no rent, no level
    assert game.ruleset.spaces[39].rents == (50, 200, 600, 1400, 1700, 2000)  # (the file's, as printed above)
    # Two houses on Mediterranean: the third line is in force, and the engine's rent is that line's.
    med = by_name["Mediterranean Avenue"]
    assert med["rents"][med["level"]] == "With 2 houses: 30" and med["rent_now"] == "Rent now: 30"
    assert med["built"] == "2 houses" and med["owner_text"] == "Owner: Ann" and med["mortgage"] == "Mortgage value: 30"
    assert by_name["Baltic Avenue"]["level"] == 1 and by_name["Baltic Avenue"]["rent_now"] == "Rent now: 20"
    # Park Place with Boardwalk mortgaged: the whole set still doubles the rent (the rulebook's), as the engine says.
    park = by_name["Park Place"]
    assert park["level"] == 0 and park["rents"][0] == "Rent: 35"
    assert park["rent_now"] == f"Rent now: {game.rent_due(37, 1)}" == "Rent now: 70"
    # Railroads by how many the owner has; utilities by the dice multiplier.
    reading = by_name["Reading Railroad"]
    assert reading["rents"] == ["Owning 1: 25", "Owning 2: 50", "Owning 3: 100", "Owning 4: 200"]
    assert reading["level"] == 1 and reading["rent_now"] == "Rent now: 50" and reading["building_cost"] is None
    assert by_name["B. & O. Railroad"]["rent_now"] is None  # the bank's: nobody takes its rent
    electric = by_name["Electric Company"]
    assert electric["rents"] == ["Owning 1: 4 × dice", "Owning 2: 10 × dice"]
    assert electric["level"] == 1 and electric["rent_now"] == "Rent now: 10 × dice"
    # The bank's, with its price.
    oriental = by_name["Oriental Avenue"]
    assert {k: oriental[k] for k in ("owner", "owner_colour", "owner_text", "price", "rent_now", "level", "built")} == {
        "owner": None, "owner_colour": None, "owner_text": "For sale", "price": "Price 100", "rent_now": None,
        "level": None, "built": ""}
    # The bank's deeds are listed, by colour group, each opening its card.
    sale = state["for_sale"]
    assert [g["group"] for g in sale] == ["light_blue", "magenta", "orange", "red", "railroad", "yellow", "green"]
    assert [d["name"] for d in sale[4]["deeds"]] == ["B. & O. Railroad", "Short Line"]
    assert sorted(d["index"] for g in sale for d in g["deeds"]) == [
        i for i in game.ruleset.property_indices if game.owner[i] < 0]
    assert all(d["index"] in {card["index"] for card in state["deed_cards"]} for g in sale for d in g["deeds"])
    assert state["labels"]["for_sale"] == "For sale" and state["labels"]["close"] == "Close"
    json.dumps(state)  # plain JSON


def test_a_deed_card_follows_the_game(tmp_path: Path) -> None:
    """What is printed is worked out once a game and language; who has it and what it takes are read afresh."""
    c = make(tmp_path)
    start(c, setup={"spaces": {"1": {"owner": "Ann"}, "5": {"owner": "Ben"}}})
    med = cards(c)["Mediterranean Avenue"]
    assert med["level"] == 0 and med["rent_now"] == "Rent now: 2"
    assert cards(c)["Mediterranean Avenue"]["rents"] is med["rents"]  # printed once for the game and language
    c.turn.roll()  # Ann rolls 3: on Baltic Avenue, offered it
    c.paying.request({"do": "buy"})
    by_name = cards(c)
    # The whole purple set: the engine doubles the rent of the unbuilt lots.
    assert by_name["Baltic Avenue"]["owner_text"] == "Owner: Ann" and by_name["Baltic Avenue"]["rent_now"] == "Rent now: 8"
    assert by_name["Mediterranean Avenue"]["rent_now"] == "Rent now: 4"
    c.banker.undo()  # taken back: the bank's again
    assert cards(c)["Baltic Avenue"]["owner"] is None and cards(c)["Mediterranean Avenue"]["rent_now"] == "Rent now: 2"


def test_deed_cards_in_the_familys_language(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, setup=DEEDS)
    c.settings.set_language("pl")
    state = phone_state(c.session)
    tr = c.session.tr
    boardwalk = {d["name"]: d for d in state["deed_cards"]}["Boardwalk"]
    assert boardwalk["rents"][:2] == ["Czynsz: 50", "Z 1 domem: 200"]
    assert boardwalk["rents"][3] == f"Z 3 domami: {tr.money(1400)}" and tr.money(1400) != "1,400"
    assert boardwalk["rents"][-1] == f"Hotel: {tr.money(2000)}"
    assert boardwalk["price"] == "Cena 400" and boardwalk["mortgage"] == "Wartość zastawu: 200"
    assert boardwalk["owner_text"] == "Właściciel: Ben" and boardwalk["rent_now"] == "Czynsz teraz: 0"
    assert boardwalk["building_cost"] == "Koszt budynku: 200" and boardwalk["group_name"] == tr.group("dark_blue", "")
    by_name = {d["name"]: d for d in state["deed_cards"]}
    assert by_name["Electric Company"]["rent_now"] == "Czynsz teraz: 10 × rzut"
    assert by_name["Oriental Avenue"]["owner_text"] == "Na sprzedaż"
    assert by_name["Mediterranean Avenue"]["built"] == "2 domy"
    assert {k: state["labels"][k] for k in ("close", "for_sale", "mortgaged", "not_mortgaged")} == {
        "close": "Zamknij", "for_sale": "Na sprzedaż", "mortgaged": "w zastawie", "not_mortgaged": "bez zastawu"}
    c.settings.set_language("cs")  # printed again in the new language
    boardwalk = cards(c)["Boardwalk"]
    assert boardwalk["rents"][1] == "S 1 domem: 200" and boardwalk["mortgage"] == "Zástavní hodnota: 200"
    assert boardwalk["rent_now"] == "Nájemné teď: 0" and phone_state(c.session)["labels"]["close"] == "Zavřít"
    assert "Rent" not in json.dumps(phone_state(c.session)["deed_cards"], ensure_ascii=False)


def test_deed_cards_in_the_ruleset_s_own_words(tmp_path: Path) -> None:
    c = make(tmp_path)
    start(c, rules="biznes")
    game = c.session.game
    assert game is not None
    tr = c.session.tr
    state = phone_state(c.session)
    assert len(state["deed_cards"]) == len(game.ruleset.property_indices)
    lot = next(d for d in state["deed_cards"] if game.kinds[d["index"]] == "lot")
    rents = game.ruleset.spaces[lot["index"]].rents
    assert lot["rents"][0] == f"{tr('ui.deed.rent')}: {tr.money(rents[0])}"
    assert lot["rents"][1] == f"{tr('ui.deed.o1')}: {tr.money(rents[1])}"
    assert lot["rents"][-1] == f"{tr('ui.deed.holding')}: {tr.money(rents[-1])}"
    assert lot["owner_text"] == tr("ui.deed.for_sale") and lot["price"] == tr("ui.deed.price", price=game.ruleset.spaces[lot["index"]].price)
