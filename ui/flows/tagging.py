"""Settings -> "Tag the cards", between games: a sticker put on each title deed and each card of a deck, so that
the reader knows them (ui/tags.py keeps the tags, per physical set).

First the family chooses the set: each shipped family (classic, biznes, brands) and each of the family's editions
that loads, with how much of it is tagged. Then the set's cards show one at a time, large (a deed with its colour
band, name and price; a deck's card with the deck's name and its words), from the first one without a sticker:
the sticker held to the reader goes on the card shown, with a sound, and the next card without one shows, or the
end ("All 60 cards of Classic are tagged"). Back, Skip, "Tag this one again" (the card's sticker comes off, so
that the next one held goes on it: a lost card's replacement) and Done. A sticker that is another card already,
or a player's card (of the unfinished game, of the new game's draft), is refused by name and nothing changes; so
is a tag that cannot be written. A set tagged partly stays so, and is taken up again at its first card without a
sticker.

A set's cards are those of its shipped ruleset with the most of them (brands-showdown's 21st card is one more
card of set "brands"), or the edition's. The page shows only on the start screen's side (mode HOME); card taps
come here while it shows (ui/taps.py). No Kivy here.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from banker.editions import list_editions
from banker.errors import RulesetError
from banker.ruleset import Ruleset, builtin_names, load_edition
from ui.flows.base import Flow
from ui.flows.setup import RULESET_ORDER
from ui.i18n import Msg, Translator, card_msg, msg
from ui.pages import PAGES, SETTINGS_PAGE, TAGGING_PAGE
from ui.tags import EDITION_PREFIX, Tagged, TagsError, set_items, set_key, set_rulesets, uid_problem
from ui.view import DEFAULT_COLOUR, dark_ink

if TYPE_CHECKING:
    from ui.flows import Flows

log = logging.getLogger(__name__)

WORDS_SHOWN = 60  # a card's words in a line about a sticker ("Chance: Advance to ..."), at most this many characters


@dataclass(frozen=True)
class TagSet:
    """A physical set the family may tag: its key (ui/tags.py's `set_key`), its words (a shipped family's in the
    family's language, an edition's title), and the ruleset whose cards it holds."""

    key: str
    words: Msg | str
    ruleset: Ruleset


class SetButton(TypedDict):
    """A set on the tagging page's list: its key, its title, how much of it is tagged, and whether all of it is."""

    key: str
    title: str
    progress: str
    done: bool


class ItemView(TypedDict):
    """The card being tagged, large: a deed (`kind` "deed": its name, its colour band and whether the band takes
    dark letters, its price in `text`) or a deck's card (`kind` "card": the deck's name in `name`, its words in
    `text`); whether it has its sticker, what to do (`status`), and how much of its kind is tagged."""

    kind: str
    name: str
    text: str
    colour: str
    dark: bool
    tagged: bool
    status: str
    progress: str


class TaggingView(TypedDict):
    """The tagging page (`TaggingFlow.view`): `stage` "sets" (choose a set), "item" (a card) or "end" (past the
    last card); the title; the tags file's problem in a line (or None); the sets; the card; the end's words,
    whether cards without a sticker are left (`rest`) and whether Back has a card to go back to."""

    stage: str
    title: str
    problem: str | None
    sets: list[SetButton]
    item: ItemView | None
    end: str
    rest: bool
    can_back: bool


def shortened(text: str, most: int = WORDS_SHOWN) -> str:
    """`text` cut at a word to at most `most` characters, with an ellipsis when cut."""
    if len(text) <= most:
        return text
    cut = text[:most - 1].rsplit(" ", 1)[0].rstrip(" ,.;:")
    return f"{cut}…"


class TaggingFlow(Flow):
    def __init__(self, flows: Flows) -> None:
        super().__init__(flows)
        # The sets as listed when the page opened (an edition's file is read once per visit, not at every tap),
        # the set being tagged (None: the list), its cards in order and the one shown (len(items): the end).
        self._sets: list[TagSet] | None = None
        self._families: list[TagSet] | None = None  # the shipped ones alone
        self.key: str | None = None
        self.items: list[Tagged] = []
        self.index = 0

    def opened(self, fresh: bool) -> None:
        self.begin(go=False)  # a game is on: the next visit starts at the list

    # ------------------------------------------------------------------ the sets

    def sets(self) -> list[TagSet]:
        """Every set that can be tagged: the shipped families, then the family's editions that load, by title."""
        if self._sets is None:
            found = list(self._shipped())
            editions = sorted((e for e in list_editions() if e.problem is None),
                              key=lambda e: (e.title.casefold(), e.name))
            for e in editions:
                try:
                    found.append(TagSet(EDITION_PREFIX + e.name, e.title, load_edition(e.name)))
                except RulesetError as exc:  # broken since it was listed: not offered
                    log.warning("edition %s cannot be tagged: %s", e.name, exc)
            self._sets = found
        return self._sets

    def _shipped(self) -> list[TagSet]:
        """The shipped families in the new-game screen's order, each with its ruleset of the most cards (ui/tags.py's
        `set_rulesets`: the rulesets never change while the app runs, so this is worked out once)."""
        if self._families is None:
            names = builtin_names()
            ordered = [n for n in RULESET_ORDER if n in names] + [n for n in names if n not in RULESET_ORDER]
            self._families = []
            for key in dict.fromkeys(set_key(name) for name in ordered):
                counted = [(len(set_items(r, key)), -k, r) for k, r in enumerate(set_rulesets(key))]
                self._families.append(TagSet(key, self._words(key, key), max(counted)[2]))  # the first of the most
        return self._families

    def here(self) -> str | None:
        """The set the table plays with now: the one being tagged, the game's, or the new game's."""
        if self.key is not None and self.showing():
            return self.key
        if self.s.live is not None:
            return set_key(self.s.live.header.rules)
        draft = self.f.setup.draft
        return set_key(draft.rules) if draft is not None else None

    def _set(self, key: str) -> TagSet | None:
        """The set `key` (its ruleset the game's when the game plays with it), or None when it has gone."""
        live = self.s.live
        if live is not None and set_key(live.header.rules) == key:
            return TagSet(key, self._words(key, live.game.ruleset.title), live.game.ruleset)
        listed = next((t for t in self._sets or () if t.key == key), None)
        if listed is not None:
            return listed
        if key.startswith(EDITION_PREFIX):
            try:
                ruleset = load_edition(key[len(EDITION_PREFIX):])
            except RulesetError:
                return None
            return TagSet(key, ruleset.title, ruleset)
        return next((t for t in self._shipped() if t.key == key), None)

    def _words(self, key: str, title: str) -> Msg | str:
        """A set's words: a shipped family's name in the family's language, else the edition's `title`."""
        return msg(f"ui.rules.{key}") if self.s.tr.has(f"ui.rules.{key}") else title

    # ------------------------------------------------------------------ a card in words

    def item_msg(self, item: Tagged) -> Msg:
        """What `item` is, in words: a deed's name, or "Chance: <the card's words>" (shortened); "(Classic)"
        after it when it is a card of a set the table does not play with now."""
        tagset = self._set(item.set)
        if tagset is None:
            return msg("ui.tagging.gone", set=item.set.removeprefix(EDITION_PREFIX))
        ruleset = tagset.ruleset
        if item.kind == "deed" and 0 <= item.space < len(ruleset.spaces):
            words = msg("ui.tagging.deed", name=ruleset.spaces[item.space].name)
        elif item.kind == "card" and item.card in ruleset.card_by_id and item.deck in ruleset.decks:
            text = self.s.tr.render(card_msg(ruleset, ruleset.card_by_id[item.card]))
            words = msg("ui.tagging.card", deck=self._deck(ruleset, item.deck), card=shortened(text))
        else:  # a card the set no longer has (an edition changed since)
            return msg("ui.tagging.gone", set=tagset.words)
        return words if item.set == self.here() else msg("ui.tagging.other_set", item=words, set=tagset.words)

    @staticmethod
    def _deck(ruleset: Ruleset, deck: str) -> Msg:
        return Msg(f"deck.{deck}", default=ruleset.decks[deck].get("name", deck))

    # ------------------------------------------------------------------ the page's commands

    def showing(self) -> bool:
        """Whether the tagging page is the one on the screen (card taps come here then)."""
        return self.f.nav.page == TAGGING_PAGE and self.f.mode in PAGES[TAGGING_PAGE].modes

    def begin(self, go: bool = True) -> None:
        """The tagging page, at its list of sets (looked at afresh: an edition may be new)."""
        self._sets, self.key, self.items, self.index = None, None, [], 0
        if go:
            self.f.nav.go(TAGGING_PAGE)

    def choose(self, key: str) -> None:
        """Tag the set `key`, from its first card without a sticker (the end when every card has one)."""
        tagset = self._set(key)
        if tagset is None:
            self.changed()
            return
        self.key, self.items = key, set_items(tagset.ruleset, key)
        self.index = self._untagged(0)
        self.changed()

    def skip(self) -> None:
        """The next card, tagged or not (past the last: the end)."""
        self.index = min(self.index + 1, len(self.items))
        self.changed()

    def back(self) -> None:
        """The card before (from the end: the last)."""
        self.index = max(self.index - 1, 0)
        self.changed()

    def rest(self) -> None:
        """From the end: the first card without a sticker."""
        self.index = self._untagged(0)
        self.changed()

    def again(self) -> None:
        """The card's sticker comes off: the next sticker held to the reader goes on it (a lost card's)."""
        item = self.item()
        if item is None or self.s.tags.uid_of(item) is None:  # no sticker to take off
            return
        try:
            self.s.tags.forget(item)
        except OSError:
            log.exception("the tags could not be written")
            self._refuse(msg("ui.tagging.not_saved"), item)
        else:
            self.s.notify(msg("ui.tagging.again_said", item=self.item_msg(item)))
        self.changed()

    def done(self) -> None:
        """Back to the list of sets (each with how much of it is tagged now)."""
        self.key, self.items, self.index = None, [], 0
        self.changed()

    def leave_list(self) -> None:
        """The list's Back: to the settings."""
        self.begin(go=False)
        self.f.nav.go(SETTINGS_PAGE)

    def item(self) -> Tagged | None:
        """The card shown, or None (the list, or the end)."""
        return self.items[self.index] if self.key is not None and self.index < len(self.items) else None

    def _untagged(self, start: int) -> int:
        """The first card from `start` on without a sticker, else the end."""
        tags = self.s.tags
        return next((k for k in range(start, len(self.items)) if tags.uid_of(self.items[k]) is None), len(self.items))

    # ------------------------------------------------------------------ a sticker held to the reader

    def tap(self, uid: str) -> None:
        """A sticker on the reader while the page shows (ui/taps.py). On a card: it goes on it, unless it is a
        player's card or another card's sticker, or the card has another sticker (refused by name, nothing
        changed); then the next card without one. On the list or the end: what the sticker is."""
        s, item = self.s, self.item()
        owner = self.f.taps.player_of(uid)
        held = s.tags.lookup(uid)
        if owner is not None:
            if item is not None:
                self._refuse(msg("ui.tagging.is_player", player=owner), item)
            else:
                s.notify(msg("ui.tagging.is_player", player=owner))
            return
        if item is None:
            s.notify(msg("ui.tagging.is", item=self.item_msg(held)) if held is not None else msg("ui.tagging.untagged"))
            return
        if held is not None and held != item:
            self._refuse(msg("ui.tagging.is_item", item=self.item_msg(held)), item)
            return
        on = s.tags.uid_of(item)
        if on is not None and on != uid:
            self._refuse(msg("ui.tagging.has_sticker", item=self.item_msg(item)), item)
            return
        try:
            s.tags.assign(uid, item)
        except TagsError as exc:  # a number no sticker has, or tags the file could not hold
            if uid_problem(uid) is None:
                log.warning("the tags could not be written: %s", exc)
            self._refuse(msg("ui.tagging.bad_sticker" if uid_problem(uid) is not None else "ui.tagging.not_saved"),
                         item)
            return
        except OSError:
            log.exception("the tags could not be written")
            self._refuse(msg("ui.tagging.not_saved"), item)
            return
        self.index = self._untagged(self.index + 1)
        shown = self.item()  # said while the card it moved on to shows (or the end, or the list after it)
        s.notify(msg("ui.tagging.tagged", item=self.item_msg(item)), "info", "payment",
                 holds=lambda: self.item() == shown)

    def _refuse(self, refusal: Msg, item: Tagged) -> None:
        """A sticker refused for `item`, said while `item` shows (gone once the family moves on)."""
        self.s.notify(refusal, "error", "error", holds=lambda: self.item() == item)

    # ------------------------------------------------------------------ what the page shows

    def _progress(self, tr: Translator, items: list[Tagged]) -> str:
        """"Tagged: 12 of 28 deeds, 0 of 32 cards"."""
        count = self.s.tags.count
        deeds = [it for it in items if it.kind == "deed"]
        cards = [it for it in items if it.kind == "card"]
        parts = [tr("ui.tagging.n_deeds", done=count(deeds), total=len(deeds))] if deeds else []
        if cards:
            parts.append(tr("ui.tagging.n_cards", done=count(cards), total=len(cards)))
        return tr("ui.tagging.tagged_count", count=", ".join(parts))

    def _item_view(self, tagset: TagSet, item: Tagged) -> ItemView:
        s = self.s
        tr = Translator(s.tr.language, currency=tagset.ruleset.currency)
        ruleset = tagset.ruleset
        tagged = s.tags.uid_of(item) is not None
        status = tr("ui.tagging.has" if tagged else "ui.tagging.hold")
        if item.kind == "deed":
            space = ruleset.spaces[item.space]
            colour = ruleset.groups.get(space.group, {}).get("color", DEFAULT_COLOUR) if space.group else DEFAULT_COLOUR
            deeds = [it for it in self.items if it.kind == "deed"]
            return {"kind": "deed", "name": space.name, "text": tr("ui.deed.price", price=space.price),
                    "colour": colour, "dark": dark_ink(colour), "tagged": tagged, "status": status,
                    "progress": self._progress(tr, deeds)}
        deck = [it for it in self.items if it.kind == "card" and it.deck == item.deck]
        name = tr.render(self._deck(ruleset, item.deck))
        return {"kind": "card", "name": name, "text": tr.render(card_msg(ruleset, ruleset.card_by_id[item.card])),
                "colour": DEFAULT_COLOUR, "dark": True, "tagged": tagged, "status": status,
                "progress": tr("ui.tagging.tagged_count", count=tr("ui.tagging.n_deck", deck=name,
                                                                   done=s.tags.count(deck), total=len(deck)))}

    def view(self) -> TaggingView:
        """The tagging page: the sets with their progress ("12 of 28 deeds, 0 of 32 cards"), or the card being
        tagged with its kind's progress, or the end of the set."""
        tr = self.s.tr
        tagset = self._set(self.key) if self.key is not None else None
        if tagset is None:
            problem = tr("ui.tagging.file_problem") if self.s.tags.problem is not None else None
            sets: list[SetButton] = []
            for t in self.sets():
                items = set_items(t.ruleset, t.key)
                sets.append({"key": t.key, "title": tr.render(t.words), "progress": self._progress(tr, items),
                             "done": self.s.tags.count(items) == len(items)})
            return {"stage": "sets", "title": tr("ui.tagging.title"), "problem": problem, "sets": sets, "item": None,
                    "end": "", "rest": False, "can_back": False}
        item = self.item()
        done = self.s.tags.count(self.items)
        total = len(self.items)
        end = "" if item is not None else tr("ui.tagging.all_done" if done == total else "ui.tagging.some_done",
                                             done=done, total=total, set=tagset.words)
        return {"stage": "item" if item is not None else "end", "title": tr.render(tagset.words), "problem": None,
                "sets": [], "item": self._item_view(tagset, item) if item is not None else None, "end": end,
                "rest": done < total, "can_back": self.index > 0}


__all__ = ["ItemView", "SetButton", "TagSet", "TaggingFlow", "TaggingView", "shortened"]
