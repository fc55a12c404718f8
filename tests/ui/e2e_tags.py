"""End-to-end, issue 57: a classic game played by touches and taps only, its title deeds and a Chance card
tapped on the (pseudo-terminal) card reader, and the same game played by the on-screen lists, which must end
in the same state.

    E2E_SIZE=800x480 python tests/ui/e2e_tags.py tags|lists LANGUAGE WORKDIR

Run by test_tags_e2e.py in a subprocess (Kivy opens one window per process), once each way. Both ways:

- settings: the family's language and physical decks picked by touch; `tags` also tags the classic set on
  Settings -> "Tag the cards": the deeds and the Chance card the game needs get their stickers, the others
  are skipped with Skip, one sticker tapped again on another card is refused by name on the screen (and
  nothing changes), and Done shows the set's progress ("5 of 28 deeds, 1 of 32 cards");
- a new game: Ann and Ben named on the on-screen keyboard, their cards registered by taps; "Game already
  going?": Ann holds Mediterranean Avenue, Oriental Avenue, Vermont Avenue and St. Charles Place, Ben the
  Reading Railroad;
- `tags`: Oriental Avenue's deed tapped with nothing waiting shows the deed big (its owner and its rent);
- Ann's dice, entered on the dice screen (4 + 5): Connecticut Avenue, bought (`tags`: its deed tapped, then
  Ann's card; `lists`: the Buy button, then Ann's card);
- on the deeds page, a house on Connecticut Avenue and Mediterranean Avenue mortgaged (`tags`: the deed tapped,
  its button touched; `lists`: the row's button), each agreed by Ann's card;
- on the trade page, St. Charles Place for the Reading Railroad (`tags`: both deeds tapped; `lists`: both touched
  in the sides' lists), both cards tapped to agree;
- Ben's dice (3 + 4): Chance, the card drawn "Pay poor tax of 15" (`tags`: its sticker tapped; `lists`: Draw,
  then the card picked from the list); both turns ended.

Afterwards WORKDIR/state.json holds the game's state (every player's cash, place, jail and jail cards; every
space's owner, level and mortgage; whose turn) and the journal's actions (without their clock), for the test
to compare between the two ways. Exits 0 when every step passed; otherwise prints the failing step.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e_kit import Cards, Step, by_role, enter_words, press, run_app, texts, touch, touch_role, widgets
from kivy.clock import Clock

from banker.journal import Journal
from banker.ruleset import load_ruleset
from hardware.emulate import LineReaderEmulator
from ui.i18n import LANGUAGES, msg
from ui.pages import CARDS_PAGE, DEED_PAGE, DEEDS_PAGE, SETTINGS_PAGE, TABLE_PAGE, TAGGING_PAGE, TRADE_PAGE
from ui.tags import Tagged, set_items

MODES = ("tags", "lists")
PLAYERS = ("Ann", "Ben")
CARDS = {"Ann": "04A32B1C", "Ben": "04B7771A2C5E80"}
# "Game already going": who holds what at the start (space -> player).
HOLDINGS = {1: "Ann", 6: "Ann", 8: "Ann", 11: "Ann", 5: "Ben"}
SHOWN, BOUGHT, MORTGAGED, GIVEN, TAKEN = 6, 9, 1, 11, 5  # Oriental, Connecticut, Mediterranean, St. Charles, Reading
CHANCE, CARD = "chance", "ch-tax-15"  # "Pay poor tax of 15."
# The stickers on the family's cards (7-byte NTAG213 numbers): the deeds the game taps, and the Chance card.
DEED_STICKERS = {MORTGAGED: "04D10001A1B201", TAKEN: "04D10005A1B205", SHOWN: "04D10006A1B206",
                 BOUGHT: "04D10009A1B209", GIVEN: "04D10011A1B211"}
CARD_STICKER = "04C4A0015A1B2C"
DUPLICATE = (TAKEN, MORTGAGED)  # while tagging the Reading Railroad, Mediterranean's sticker is tapped again
ANN_DICE, BEN_DICE = (4, 5), (3, 4)  # Ann to Connecticut Avenue, Ben to Chance
EXPECTED = {"Ann": 1500 - 120 - 50 + 30, "Ben": 1500 - 15}  # Connecticut, a house, the mortgage; the poor tax


def state_of(game: Any) -> dict[str, Any]:
    """What the two ways must agree on: money, places, deeds, buildings, mortgages, jail, whose turn."""
    return {"players": [{"name": p.name, "cash": p.cash, "position": p.position, "in_jail": p.in_jail,
                         "jail_cards": sorted(p.jail_cards), "bankrupt": p.bankrupt} for p in game.players],
            "owner": list(game.owner), "level": list(game.level), "mortgaged": [bool(m) for m in game.mortgaged],
            "current": game.current.name}


def game_steps(app: Any, reader: LineReaderEmulator, mode: str, language: str) -> list[Step]:
    c = app.flows
    s = c.session
    cards = Cards(reader)
    pages_seen: set[str] = set()  # every page shown, a frame at a time: the tags' game never shows the card list
    Clock.schedule_interval(lambda dt: pages_seen.add(app.manager.current), 1 / 30)

    def t(key: str, **params: Any) -> str:
        """The app's words in the language of the moment (looked up when a step runs)."""
        return str(s.tr(key, **params))

    def game() -> Any:
        assert s.game is not None
        return s.game

    def cash(name: str) -> int:
        g = game()
        return int(g.players[g.index_of[name]].cash)

    def name_of(space: int) -> str:
        return str(game().space_name(space))

    def on(page: str) -> Callable[[], bool]:
        return lambda: app.manager.current == page

    def tap(name: str) -> Callable[[], bool]:
        return cards.tap(CARDS[name])

    def turn_button(key: str) -> Callable[[], bool]:
        """Touch the turn screen's button `key` (its words as the turn flow gives them now)."""
        return lambda: any(b["id"] == key and touch(app, b["text"]) for b in c.turn.buttons())

    def bar(page: str) -> Callable[[], bool]:
        """Touch the turn screen's bottom-bar button that leads to `page`."""
        return lambda: any(p == page and touch(app, t(key)) for p, key in c.turn.nav_bar()["links"])

    def asks(name: str) -> Callable[[], bool]:
        """A payment waits for `name`'s card."""
        return lambda: c.paying.pending is not None and name in c.paying.pending.needs

    def side_button(text: str, side: str) -> Any:
        """The trade's button reading `text` on the left (the offering side) or the right half of the screen."""
        found = [w for w in widgets(app) if w.__class__.__name__ == "BigButton" and w.text == text]
        found.sort(key=lambda w: w.to_window(*w.center)[0])
        return (found[0] if side == "left" else found[-1]) if found else None

    def by_deed(lists: list[Step], tags: list[Step]) -> list[Step]:
        """The steps of this way of playing: by the on-screen lists, or by the deeds' and cards' stickers."""
        return tags if mode == "tags" else lists

    steps: list[Step] = [
        ("the start screen", on("home")),
        ("settings", lambda: touch(app, t("ui.settings"))),
        (f"pick {LANGUAGES[language]}", lambda: touch(app, LANGUAGES[language])),
        ("picked", lambda: s.settings.language == language and s.tr.language == language),
        ("physical decks", lambda: touch_role(app, "setting physical_decks")),
        ("on", lambda: s.settings.physical_decks),
        *(tagging(app, cards, t) if mode == "tags" else []),
        ("back home", lambda: touch(app, t("ui.back"))),
        ("new game", lambda: touch(app, t("ui.home.new"))),
        ("the new-game screen", on("setup")),
        *type_names(app),
        ("register the cards", lambda: touch(app, t("ui.setup.register"))),
        ("Ann taps", tap("Ann")),
        ("Ann's card registered", lambda: c.setup.draft is not None and c.setup.draft.players[0].card == CARDS["Ann"]),
        ("Ben taps", tap("Ben")),
        ("Ben's card registered", lambda: c.setup.draft is not None and c.setup.draft.players[1].card == CARDS["Ben"]),
        ("classic", lambda: c.setup.draft is not None and c.setup.draft.rules == "classic"),
        ("game already going", lambda: touch(app, t("ui.setup.in_progress"))),
        ("the game-in-progress screen", on("inprogress")),
    ]
    for space, owner in HOLDINGS.items():
        for k in range(PLAYERS.index(owner) + 1):  # the bank, then each player in turn
            steps.append((f"space {space}: owner {k + 1}", lambda i=space: touch_role(app, f"owner {i}")))
        steps.append((f"space {space} is {owner}'s", lambda i=space, o=owner: (b := by_role(app, f"owner {i}"))
                      is not None and b.text == o))
    steps += [
        ("start", lambda: touch(app, t("ui.setup.start"))),
        ("the table", lambda: app.manager.current == "table" and t("ui.turn_of", player="Ann") in texts(app)),
        ("Ann and Ben hold their deeds", lambda: all(game().owner[i] == PLAYERS.index(o) for i, o in HOLDINGS.items())),
        *(deed_shown(app, cards, t) if mode == "tags" else []),

        # ------------------------------------------------------------------ Ann buys Connecticut Avenue
        *enter_words(app, *ANN_DICE),
        ("on Connecticut Avenue", lambda: game().players[0].position == BOUGHT
         and t("ui.move_to", player="Ann", space=name_of(BOUGHT)) in texts(app)),
        *by_deed([("buy", turn_button("buy"))],
                 [("Connecticut Avenue's deed", cards.tap(DEED_STICKERS[BOUGHT]))]),
        ("the purchase waits for Ann's card", lambda: asks("Ann")() and c.paying.pending.action["do"] == "buy"),
        ("Ann taps to pay", tap("Ann")),
        ("bought", lambda: game().owner[BOUGHT] == 0 and cash("Ann") == 1500 - 120),

        # ------------------------------------------------------------------ a house and a mortgage
        ("the deeds page", bar(DEEDS_PAGE)),
        ("Ann's deeds", lambda: app.manager.current == DEEDS_PAGE and t("ui.deeds.title", player="Ann") in texts(app)),
        *by_deed([("build on Connecticut Avenue", lambda: touch_role(app, f"build {BOUGHT}"))],
                 chosen_by_deed(app, cards, t, BOUGHT, "build")),
        ("Ann must tap to build", asks("Ann")),
        ("Ann taps", tap("Ann")),
        ("a house", lambda: game().level[BOUGHT] == 1 and cash("Ann") == 1500 - 120 - 50),
        *by_deed([("mortgage Mediterranean Avenue", lambda: touch_role(app, f"mortgage {MORTGAGED}"))],
                 chosen_by_deed(app, cards, t, MORTGAGED, "mortgage")),
        ("Ann must tap to mortgage", asks("Ann")),
        ("Ann taps", tap("Ann")),
        ("mortgaged", lambda: bool(game().mortgaged[MORTGAGED]) and cash("Ann") == EXPECTED["Ann"]),
        ("back to the table", lambda: touch(app, t("ui.back"))),
        ("the table again", on(TABLE_PAGE)),

        # ------------------------------------------------------------------ a trade of two deeds
        ("the trade page", bar(TRADE_PAGE)),
        ("Ann offers to Ben", lambda: app.manager.current == TRADE_PAGE
         and (c.trade.current()["from"], c.trade.current()["to"]) == ("Ann", "Ben")),
        *by_deed([("Ann gives St. Charles Place", lambda: (b := side_button(name_of(GIVEN), "left")) is not None
                   and press(b)),
                  ("Ben gives the Reading Railroad", lambda: (b := side_button(name_of(TAKEN), "right")) is not None
                   and press(b))],
                 [("St. Charles Place's deed", cards.tap(DEED_STICKERS[GIVEN])),
                  ("Reading Railroad's deed", cards.tap(DEED_STICKERS[TAKEN]))]),
        ("both in the offer", lambda: c.trade.current()["give"]["spaces"] == [GIVEN]
         and c.trade.current()["get"]["spaces"] == [TAKEN]
         and side_button("+ " + name_of(GIVEN), "left") is not None
         and side_button("+ " + name_of(TAKEN), "right") is not None),
        ("agree", lambda: touch(app, t(s.by_mode("ui.trade.agree"), a="Ann", b="Ben"))),
        ("both must tap", lambda: asks("Ann")() and asks("Ben")()),
        ("Ben taps", tap("Ben")),
        ("Ann taps", tap("Ann")),
        ("traded", lambda: game().owner[GIVEN] == 1 and game().owner[TAKEN] == 0 and c.paying.pending is None),
        ("leave the trade", lambda: touch(app, t("ui.back"))),
        ("end Ann's turn", lambda: app.manager.current == TABLE_PAGE and turn_button("end_turn")()),

        # ------------------------------------------------------------------ Ben draws a Chance card
        ("Ben's turn", lambda: t("ui.turn_of", player="Ben") in texts(app)),
        *enter_words(app, *BEN_DICE),
        ("a Chance card is due", lambda: game().decision is not None and game().decision.kind == "draw"
         and game().decision.deck == CHANCE),
        *by_deed([("draw", turn_button("draw")),
                  ("which card", lambda: app.manager.current == CARDS_PAGE and t("ui.cards.which") in texts(app)),
                  ("the card drawn", lambda: any(k["id"] == CARD and touch(app, k["text"])
                                                 for k in c.turn.card_choices()))],
                 [("the Chance card's sticker", cards.tap(CARD_STICKER))]),
        ("the poor tax paid", lambda: cash("Ben") == EXPECTED["Ben"] and game().decision is None),
        ("end Ben's turn", lambda: app.manager.current == TABLE_PAGE and turn_button("end_turn")()),
        ("Ann's turn again", lambda: game().current.name == "Ann" and t("ui.turn_of", player="Ann") in texts(app)),
        ("the card list only by the lists", lambda: (CARDS_PAGE in pages_seen) is (mode == "lists")),
        ("what the game is now", lambda: save(Path(s.journal.path).parent, game())),
    ]
    return steps


def save(work: Path, game: Any) -> bool:
    (work / "state.json").write_text(json.dumps({"state": state_of(game)}, indent=1), "utf-8")
    return True


def type_names(app: Any) -> list[Step]:
    """Ann and Ben typed on the on-screen keyboard, a touch a key: the name's button, Clear (the ready name
    goes), the letters (the first is a capital by itself), Done."""
    steps: list[Step] = []
    for k, name in enumerate(PLAYERS):
        steps += [(f"player {k + 1}'s name", lambda k=k: touch_role(app, f"name {k}")),
                  ("the keyboard", lambda: app.manager.current == "keyboard"),
                  (f"clear name {k + 1}", lambda: touch_role(app, "key clear"))]
        steps += [(f"key {ch}", lambda ch=ch: touch_role(app, f"key {ch}")) for ch in name.lower()]
        steps += [(f"{name} typed", lambda n=name: (w := by_role(app, "name typed")) is not None and w.text == n + "|"),
                  ("done", lambda: touch_role(app, "done"))]
    steps.append(("the names typed", lambda: app.flows.setup.draft is not None
                  and [p.name for p in app.flows.setup.draft.players] == list(PLAYERS)))
    return steps


# ---------------------------------------------------------------------- the tags' own steps


def tagging(app: Any, cards: Cards, t: Callable[..., str]) -> list[Step]:
    """From the settings: "Tag the cards", the classic set; each deed and card the game needs tagged by its
    sticker, each one between skipped; one sticker already on a card tapped again on another: refused by name,
    nothing changed. Done, the set's progress on its button, and back to the settings."""
    c = app.flows
    s = c.session
    store = s.tags
    items = set_items(load_ruleset("classic"), "classic")
    wanted: dict[Tagged, str] = {Tagged("classic", "deed", space=i): uid for i, uid in DEED_STICKERS.items()}
    wanted[Tagged("classic", "card", deck=CHANCE, card=CARD)] = CARD_STICKER
    last = max(items.index(item) for item in wanted)
    first = Tagged("classic", "deed", space=DUPLICATE[1])

    def at(item: Tagged) -> Callable[[], bool]:
        """The tagging page shows `item`, waiting for its sticker."""
        return lambda: (app.manager.current == TAGGING_PAGE and c.tagging.item() == item
                        and by_role(app, "waiting for a sticker") is not None)

    def refused() -> bool:
        """The refusal, by the name of the card the sticker is on, on the screen."""
        return s.tr.render(msg("ui.tagging.is_item", item=c.tagging.item_msg(first))) in texts(app)

    def progress() -> str:
        deeds = [it for it in items if it.kind == "deed"]
        cards_ = [it for it in items if it.kind == "card"]
        return t("ui.tagging.tagged_count", count=", ".join([
            t("ui.tagging.n_deeds", done=len(DEED_STICKERS), total=len(deeds)),
            t("ui.tagging.n_cards", done=1, total=len(cards_))]))

    steps: list[Step] = [
        ("tag the cards", lambda: touch_role(app, TAGGING_PAGE)),
        ("the sets", lambda: app.manager.current == TAGGING_PAGE and c.tagging.view()["stage"] == "sets"),
        ("nothing tagged yet", lambda: store.count(items) == 0),
        ("classic", lambda: touch_role(app, "set classic")),
    ]
    for item in items[:last + 1]:  # a card's step waits until the page shows it, then taps or skips
        what = f"deed {item.space}" if item.kind == "deed" else f"card {item.card}"
        uid = wanted.get(item)
        if uid is None:
            steps.append((f"skip {what}", lambda i=item: at(i)() and touch_role(app, "skip")))
            continue
        if item.kind == "deed" and item.space == DUPLICATE[0]:
            taken = DEED_STICKERS[DUPLICATE[1]]
            steps += [(f"{what}: Mediterranean Avenue's sticker again", lambda i=item, u=taken: at(i)()
                       and cards.tap(u)()),
                      ("refused by name", refused),
                      ("nothing changed", lambda i=item, u=taken: c.tagging.item() == i and store.uid_of(i) is None
                       and store.lookup(u) == first)]
        steps += [(f"{what}: its sticker", lambda i=item, u=uid: at(i)() and cards.tap(u)()),
                  (f"{what} tagged", lambda i=item, u=uid: store.lookup(u) == i)]
    steps += [
        ("every sticker kept", lambda: store.count(items) == len(wanted)
         and all(store.uid_of(i) == u for i, u in wanted.items())),
        ("done", lambda: touch_role(app, "done")),
        ("the set's progress", lambda: c.tagging.view()["stage"] == "sets"
         and (b := by_role(app, "set classic")) is not None and progress() in b.text),
        ("back to the settings", lambda: touch(app, t("ui.back"))),
        ("the settings", lambda: app.manager.current == SETTINGS_PAGE),
    ]
    return steps


def deed_shown(app: Any, cards: Cards, t: Callable[..., str]) -> list[Step]:
    """Oriental Avenue's deed tapped with nothing waiting: the deed big, whose it is and the rent it takes now;
    Back to the table."""
    s = app.flows.session
    seq: list[int] = []

    def shows(role: str, text: Callable[[], str]) -> Callable[[], bool]:
        return lambda: (w := by_role(app, role)) is not None and w.text == text()

    return [("before", lambda: s.game is not None and seq.append(s.game.seq) is None),
            ("Oriental Avenue's deed", cards.tap(DEED_STICKERS[SHOWN])),
            ("shown big", lambda: app.manager.current == DEED_PAGE),
            ("its name", shows("deed name", lambda: "Oriental Avenue")),
            ("Ann's", shows("deed owner", lambda: t("ui.deed.owner", owner="Ann"))),
            ("its rent now", shows("deed rent", lambda: t("ui.bigdeed.rent_now",
                                                           amount=s.game.ruleset.spaces[SHOWN].rents[0]))),
            ("nothing changed", lambda: s.game is not None and s.game.seq == seq[0]),
            ("back to the table", lambda: touch(app, t("ui.back"))),
            ("the table", lambda: app.manager.current == TABLE_PAGE)]


def chosen_by_deed(app: Any, cards: Cards, t: Callable[..., str], space: int, verb: str) -> list[Step]:
    """On the deeds page: the deed's sticker tapped (its row chosen, first), then its `verb` button touched."""
    return [(f"{verb}: the deed of space {space}", cards.tap(DEED_STICKERS[space])),
            ("chosen", lambda: app.flows.deeds.chosen == space and app.manager.current == DEEDS_PAGE),
            (f"{verb} it", lambda: touch_role(app, f"{verb} {space}"))]


def main() -> int:
    mode, language, work = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    if mode not in MODES or language not in LANGUAGES:
        print(f"usage: e2e_tags.py {'|'.join(MODES)} {'|'.join(LANGUAGES)} WORKDIR")
        return 2
    work.mkdir(parents=True, exist_ok=True)
    status, script = run_app(work, lambda app, reader: game_steps(app, reader, mode, language), timeout=20)
    if status or script is None:
        return 1
    with Journal(work / "games.sqlite3", create=False) as j:
        info = j.games()[-1]
        actions = [{k: v for k, v in a.items() if k != "t"} for a in j.actions(info.id)]  # not the clock
    saved = json.loads((work / "state.json").read_text("utf-8"))
    saved["actions"] = actions
    (work / "state.json").write_text(json.dumps(saved, indent=1), "utf-8")
    print(f"{mode}: {len(script.steps)} steps passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
