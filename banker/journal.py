"""The game journal: every accepted action, durable before anyone sees its effect.

One SQLite file (the standard library's sqlite3) holds many games. Each game
is a row of `games`; each accepted action a row of `actions`, keyed by
(game, seq), committed in a transaction of its own with WAL and
synchronous=FULL, so that a committed action survives a power cut. Rows are
only ever appended: an undo is a row of its own. The state is never stored;
it is rebuilt by replaying the rows through the engine (fast enough that no
snapshots are needed: see the README).

A torn or corrupt file is refused with one clear sentence (`JournalError`),
never half-loaded: SQLite's own checks, a checksum on every action row, and a
replay of every row through the rules stand guard. Schema versions are
upgraded on open by small `_upgrade_vN_vN+1` steps, and action rows carry a
format version upcast the same way on read.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import os
import sqlite3
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, TypeVar

from banker.chance import SeededChance, complete_action
from banker.errors import ActionError, BankerError, RulesetError, SetupError
from banker.game import Game
from banker.model import Event
from banker.ruleset import Ruleset, builtin_names, ruleset_from_data
from banker.script import Header, ScriptError, new_game, parse_header, script_lines

SCHEMA_VERSION = 1  # the file's layout (PRAGMA user_version)
ACTION_VERSION = 1  # the format of one action row
META_VERSION = 1  # the app's per-game document
APPLICATION_ID = 0x42424E4B  # "BBNK": marks a file as a Board Banker journal
STATUSES = ("active", "finished", "moved")


class JournalError(BankerError):
    """The journal cannot be used: the message is one sentence a family can act on."""


def default_path() -> Path:
    """Where games are kept unless told otherwise: the XDG data directory."""
    override = os.environ.get("BANKER_JOURNAL")
    if override:
        return Path(override)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "board-banker" / "games.sqlite3"


@dataclass(frozen=True)
class GameInfo:
    """One line of `banker games`."""

    id: int
    rules: str
    players: list[str]
    status: str
    actions: int
    created: float
    updated: float

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "rules": self.rules, "players": self.players, "status": self.status,
                "actions": self.actions, "created": self.created, "updated": self.updated}


def _detail(exc: BaseException) -> str:
    """An error's own words, on one short line (SQLite may quote a whole schema)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= 100 else text[:97] + "..."


def _checksum(game_id: int, seq: int, text: str) -> int:
    """CRC-32 of an action row: SQLite checks its pages' structure, not what they hold."""
    return zlib.crc32(f"{game_id}:{seq}:{text}".encode("utf-8"))


def _row_checksum(game_id: int, fields: tuple[Any, ...]) -> int:
    return zlib.crc32(json.dumps([game_id, *fields], ensure_ascii=False).encode("utf-8"))


def _text_checksum(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


F = TypeVar("F", bound=Callable[..., Any])


def _guarded(method: F) -> F:
    """SQLite finding damage mid-way becomes the same one-sentence JournalError."""
    @functools.wraps(method)
    def wrapper(self: "Journal", *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # a flipped byte can break UTF-8 too
            if isinstance(exc, sqlite3.IntegrityError):
                raise
            raise JournalError(f"The journal {self.path} is damaged or unwritable ({_detail(exc)}); "
                               "restore a backup or start a new file.") from None
    return wrapper  # type: ignore[return-value]


class Journal:
    """A journal file, open for reading and appending. Use as a context manager."""

    def __init__(self, path: str | os.PathLike[str], create: bool = True) -> None:
        self.path = Path(path)
        memory = str(path) == ":memory:"  # for tests: the same contract, no file
        if not create and not memory and not self.path.exists():
            raise JournalError(f"There is no journal at {self.path}.")
        if create and not memory:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(str(self.path), isolation_level=None, timeout=10)
        except sqlite3.Error as exc:
            raise JournalError(f"The journal {self.path} cannot be opened ({_detail(exc)}).") from None
        try:
            self._prepare()
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            self.db.close()
            raise JournalError(
                f"The journal {self.path} is damaged ({_detail(exc)}) and was not loaded; "
                "restore a backup or start a new file.") from None
        except JournalError:
            self.db.close()
            raise

    # ------------------------------------------------------------------
    # Opening, checking, upgrading

    def _prepare(self) -> None:
        db = self.db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables and "games" not in tables):
            raise JournalError(f"{self.path} is not a Board Banker journal; nothing was changed.")
        if version > SCHEMA_VERSION:
            raise JournalError(
                f"The journal {self.path} was written by a newer Board Banker (schema {version}); "
                "update this one to open it.")
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise sqlite3.DatabaseError(check)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")  # with WAL: a committed action survives power loss
        db.execute("PRAGMA foreign_keys=ON")
        if version < SCHEMA_VERSION:
            self._upgrade(version)

    def _upgrade(self, version: int) -> None:
        steps: dict[int, Callable[[], None]] = {0: self._upgrade_v0_v1}
        while version < SCHEMA_VERSION:
            with self._transaction():
                steps[version]()
                version += 1
                self.db.execute(f"PRAGMA user_version={version}")

    def _upgrade_v0_v1(self) -> None:
        """A new file: create the tables."""
        self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        self.db.execute("""
            CREATE TABLE games (
                id INTEGER PRIMARY KEY,
                rules TEXT NOT NULL,
                ruleset TEXT,
                players TEXT NOT NULL,
                options TEXT NOT NULL,
                setup TEXT,
                seed INTEGER,
                deck_order TEXT,
                created REAL NOT NULL,
                updated REAL NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('active', 'finished', 'moved')),
                meta TEXT NOT NULL,
                checksum INTEGER NOT NULL,
                meta_checksum INTEGER NOT NULL
            )""")
        self.db.execute("""
            CREATE TABLE actions (
                game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                action TEXT NOT NULL,
                time REAL NOT NULL,
                version INTEGER NOT NULL,
                checksum INTEGER NOT NULL,
                PRIMARY KEY (game, seq)
            ) WITHOUT ROWID""")

    class _Tx:
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

        def __enter__(self) -> None:
            self.db.execute("BEGIN IMMEDIATE")

        def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
            if kind is None:
                self.db.execute("COMMIT")
            else:
                self.db.execute("ROLLBACK")

    def _transaction(self) -> "Journal._Tx":
        return Journal._Tx(self.db)

    def close(self) -> None:
        """Close the file; idempotent."""
        if getattr(self, "db", None) is not None:
            self.db.close()
            self.db = None  # type: ignore[assignment]

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ------------------------------------------------------------------
    # Games

    @_guarded
    def create_game(self, header: Header, ruleset: Ruleset, deck_order: Mapping[str, Sequence[str]] | None = None,
                    meta: Mapping[str, Any] | None = None) -> int:
        """Record a new game (nothing played yet) and return its id."""
        now = time.time()
        ruleset_json = None
        if header.ruleset_data is not None:
            ruleset_json = json.dumps(header.ruleset_data, ensure_ascii=False)
        elif header.rules not in builtin_names():
            ruleset_json = json.dumps(ruleset.source_data(), ensure_ascii=False)
        meta_text = json.dumps({"version": META_VERSION, **dict(meta or {})}, ensure_ascii=False)
        fields = (header.rules, ruleset_json, json.dumps(header.players, ensure_ascii=False),
                  json.dumps(header.options, ensure_ascii=False),
                  json.dumps(header.setup, ensure_ascii=False) if header.setup else None,
                  header.seed, json.dumps(deck_order) if deck_order else None)
        with self._transaction():
            cur = self.db.execute(
                "INSERT INTO games (rules, ruleset, players, options, setup, seed, deck_order, created, updated,"
                " status, meta, checksum, meta_checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, 0, ?)",
                (*fields, now, now, meta_text, _text_checksum(meta_text)))
            assert cur.lastrowid is not None
            game_id = cur.lastrowid
            self.db.execute("UPDATE games SET checksum = ? WHERE id = ?", (_row_checksum(game_id, fields), game_id))
        return game_id

    @_guarded
    def append(self, game_id: int, seq: int, action: Mapping[str, Any], status: str | None = None) -> None:
        """Commit one action row (and the game's new status, if any) in one transaction.

        A row already at (game, seq) fails loudly.
        """
        text = json.dumps(dict(action), ensure_ascii=False, separators=(",", ":"))
        now = time.time()
        try:
            with self._transaction():
                self.db.execute("INSERT INTO actions (game, seq, action, time, version, checksum) "
                                "VALUES (?, ?, ?, ?, ?, ?)",
                                (game_id, seq, text, now, ACTION_VERSION, _checksum(game_id, seq, text)))
                if status is None:
                    self.db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
                else:
                    self.db.execute("UPDATE games SET updated = ?, status = ? WHERE id = ?", (now, status, game_id))
        except sqlite3.IntegrityError as exc:
            raise JournalError(f"Game {game_id} already has an action number {seq} ({_detail(exc)}).") from None

    @_guarded
    def games(self) -> list[GameInfo]:
        rows = self.db.execute(
            "SELECT g.id, g.created, g.updated, "
            "(SELECT COUNT(*) FROM actions a WHERE a.game = g.id) FROM games g ORDER BY g.id").fetchall()
        infos = []
        for game_id, created, updated, count in rows:
            header = self.header(game_id)
            infos.append(GameInfo(game_id, header.rules, header.players, self.status(game_id), count,
                                  created, updated))
        return infos

    @_guarded
    def latest_active(self) -> int | None:
        """The game to resume after a restart: the most recently played unfinished one."""
        row = self.db.execute("SELECT id FROM games WHERE status = 'active' ORDER BY updated DESC, id DESC "
                              "LIMIT 1").fetchone()
        return None if row is None else int(row[0])

    def _game_row(self, game_id: int) -> tuple[Any, ...]:
        """The game's row, checked against its checksums."""
        row = self.db.execute("SELECT rules, ruleset, players, options, setup, seed, deck_order, status, meta, "
                              "checksum, meta_checksum FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"There is no game {game_id} in {self.path}.")
        if (_row_checksum(game_id, tuple(row[:7])) != row[9] or _text_checksum(str(row[8])) != row[10]
                or row[7] not in STATUSES):
            raise JournalError(f"The record of game {game_id} in {self.path} is damaged; it was not loaded.")
        return tuple(row[:9])

    @_guarded
    def header(self, game_id: int) -> Header:
        rules, ruleset, players, options, setup, seed, _deck, _status, _meta = self._game_row(game_id)
        try:
            return Header(rules=rules, players=json.loads(players), seed=seed, options=json.loads(options),
                          setup=json.loads(setup) if setup else None,
                          ruleset_data=json.loads(ruleset) if ruleset else None)
        except (json.JSONDecodeError, TypeError):
            raise JournalError(f"The record of game {game_id} in {self.path} is unreadable; "
                               "it was not loaded.") from None

    @_guarded
    def actions(self, game_id: int) -> list[dict[str, Any]]:
        """Every action row of a game in order, checked and upcast to the current format."""
        out = []
        for seq, (got, text, version, checksum) in enumerate(self.db.execute(
                "SELECT seq, action, version, checksum FROM actions WHERE game = ? ORDER BY seq", (game_id,))):
            if got != seq:
                raise JournalError(f"Game {game_id} in {self.path} is missing action {seq}; it was not loaded.")
            if _checksum(game_id, seq, text) != checksum:
                raise JournalError(f"Action {seq} of game {game_id} in {self.path} is damaged; "
                                   "the game was not loaded.")
            try:
                action = json.loads(text)
            except json.JSONDecodeError:
                raise JournalError(f"Action {seq} of game {game_id} in {self.path} is unreadable; "
                                   "the game was not loaded.") from None
            out.append(_upcast(action, version))
        return out

    @_guarded
    def load(self, game_id: int) -> "JournaledGame":
        """Rebuild a game's state by replaying its rows: the way to resume."""
        header = self.header(game_id)
        row = self._game_row(game_id)
        try:
            deck_order = json.loads(row[6]) if row[6] else None
        except json.JSONDecodeError:
            raise JournalError(f"The record of game {game_id} in {self.path} is unreadable; "
                               "it was not loaded.") from None
        try:
            ruleset = _ruleset_for(header)
            game = Game(ruleset, header.players, header.options, header.setup, deck_order)
        except (RulesetError, SetupError, ScriptError) as exc:  # e.g. a ruleset file that is gone
            raise JournalError(f"Game {game_id} in {self.path} cannot be started again ({_detail(exc)}).") from None
        actions = self.actions(game_id)
        try:
            game.restore(actions)
        except ActionError as exc:
            raise JournalError(f"Game {game_id} in {self.path} does not replay ({_detail(exc)}); "
                               "it was not loaded.") from None
        chance = SeededChance(header.seed) if header.seed is not None else None
        return JournaledGame(self, game_id, header, game, chance)

    @_guarded
    def start(self, header: Header, ruleset: Ruleset | None = None,
              meta: Mapping[str, Any] | None = None) -> "JournaledGame":
        """Record a new game from a header and return it ready to play."""
        if ruleset is None:
            ruleset = _ruleset_for(header)
        game, chance = new_game(header, ruleset)
        order = {deck: list(cards) for deck, cards in game.decks.items()}
        game_id = self.create_game(header, ruleset, order, meta)
        return JournaledGame(self, game_id, header, game, chance)

    @_guarded
    def set_status(self, game_id: int, status: str) -> None:
        if status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}")
        self._game_row(game_id)
        with self._transaction():
            self.db.execute("UPDATE games SET status = ?, updated = ? WHERE id = ?", (status, time.time(), game_id))

    @_guarded
    def status(self, game_id: int) -> str:
        return str(self._game_row(game_id)[7])

    @_guarded
    def delete_game(self, game_id: int) -> None:
        """Delete a whole game and its actions (the app asks for confirmation first)."""
        self._game_row(game_id)
        with self._transaction():
            self.db.execute("DELETE FROM actions WHERE game = ?", (game_id,))
            self.db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    @_guarded
    def meta(self, game_id: int) -> dict[str, Any]:
        """The app's document for this game (card UIDs, the PIN's hash, the clock), upcast to the current version."""
        document = json.loads(self._game_row(game_id)[8])
        return _upcast_meta(document)

    @_guarded
    def set_meta(self, game_id: int, document: Mapping[str, Any]) -> None:
        self._game_row(game_id)
        text = json.dumps({**dict(document), "version": META_VERSION}, ensure_ascii=False)
        with self._transaction():
            self.db.execute("UPDATE games SET meta = ?, meta_checksum = ? WHERE id = ?",
                            (text, _text_checksum(text), game_id))

    @_guarded
    def export(self, game_id: int) -> list[str]:
        """The game as game script lines (header first) that `banker replay` turns into the same state."""
        header = self.header(game_id)
        if header.ruleset_data is None and header.rules not in builtin_names():
            header.ruleset_data = _ruleset_for(header).source_data()
        return script_lines(header, self.actions(game_id))


class JournaledGame:
    """A game bound to its journal: `apply` commits before it reports."""

    def __init__(self, journal: Journal, game_id: int, header: Header, game: Game,
                 chance: SeededChance | None) -> None:
        self.journal = journal
        self.id = game_id
        self.header = header
        self.game = game
        self.chance = chance
        self.status = journal.status(game_id)

    def apply(self, action: Mapping[str, Any]) -> list[Event]:
        """Apply one action and commit it; only then return what happened.

        A refused action raises and writes nothing. Should the commit fail
        (disk full, card pulled), the action is taken back in memory too and
        JournalError is raised: the screen never shows an uncommitted payment.
        """
        game = self.game
        filled = complete_action(game, action, self.chance)
        before = len(game.script)
        events = game.apply(filled)
        status = self._status_after()
        try:
            self.journal.append(self.id, before, game.script[-1], status=status)
        except (sqlite3.Error, JournalError) as exc:
            game.truncate(before)  # the journal does not have it, so neither does the game
            if isinstance(exc, JournalError):
                raise
            raise JournalError(f"The action could not be saved ({_detail(exc)}); it was not carried out.") from None
        if status is not None:
            self.status = status
        return events

    def _status_after(self) -> str | None:
        """A game that ends is finished; an undo that takes the end back makes it active again."""
        if self.game.ended and self.status == "active":
            return "finished"
        if not self.game.ended and self.status == "finished":
            return "active"
        return None

    def undo(self, steps: int = 1) -> None:
        for _ in range(steps):
            self.apply({"do": "undo"})


def _ruleset_for(header: Header) -> Ruleset:
    if header.ruleset_data is not None:
        return ruleset_from_data(header.ruleset_data, f"{header.rules} (saved with the game)")
    _, ruleset = parse_header(header.to_json())
    return ruleset


def _upcast(action: dict[str, Any], version: int) -> dict[str, Any]:
    """Bring an action row written in an older format to the current one."""
    steps: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}
    while version < ACTION_VERSION:
        action = steps[version](action)
        version += 1
    return action


def _upcast_meta(document: dict[str, Any]) -> dict[str, Any]:
    version = int(document.get("version", 1))
    steps: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}
    while version < META_VERSION:
        document = steps[version](document)
        version += 1
    document["version"] = META_VERSION
    return document


def hash_pin(pin: str, salt: bytes | None = None) -> dict[str, Any]:
    """The banker PIN as the game's meta document keeps it: salted scrypt, never the PIN."""
    salt = salt if salt is not None else os.urandom(16)
    digest = hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=2**14, r=8, p=1, dklen=32)
    return {"scheme": "scrypt", "n": 2**14, "r": 8, "p": 1, "salt": salt.hex(), "hash": digest.hex()}


def check_pin(record: Mapping[str, Any], pin: str) -> bool:
    """Whether `pin` matches a record made by hash_pin."""
    if record.get("scheme") != "scrypt":
        return False
    digest = hashlib.scrypt(pin.encode("utf-8"), salt=bytes.fromhex(record["salt"]), n=int(record["n"]),
                            r=int(record["r"]), p=int(record["p"]), dklen=32)
    return hmac.compare_digest(digest.hex(), str(record["hash"]))
