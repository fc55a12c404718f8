"""The game journal: every accepted action, durable before anyone sees its effect.

One SQLite file (the standard library's sqlite3) holds many games. Each game
is a row of `games`; each accepted action a row of `actions`, keyed by
(game, seq), committed in a transaction of its own with WAL and
synchronous=FULL, so that a committed action survives a power cut. Rows are
only ever appended: an undo is a row of its own. The state is never stored;
it is rebuilt by replaying the rows through the engine (fast enough that no
snapshots are needed: see the README).

A torn or corrupt file is refused with one clear sentence (`JournalError`),
never half-loaded and never a shorter game: SQLite's own checks, a checksum on
every action row, the game row's count of its actions and a running hash over
them (each action's hash chained to the one before, so that a dropped,
duplicated or swapped page cannot satisfy it), and a replay of every row
through the rules stand guard (a file shorter than its header says is refused
as cut short first). When the count or the hash disagrees, SQLite's
full `PRAGMA integrity_check` (which sees damage `quick_check` cannot) words
the refusal. Schema versions are upgraded on open by small
`_upgrade_vN_vN+1` steps, and action rows carry a format version upcast the
same way on read.

A game's summary (`banker.report.game_summary`: what the family's history
needs of it) is stored in the transaction of the action that ends it, beside
the game's count and running hash and a CRC of its action rows as they were.
`summaries` trusts a stored summary only while all of them still agree with
the rows, which it checks with one pass of SQLite over the actions (no replay);
any other finished game is loaded and summarised in memory, and a damaged one
is reported with its reason. Journals from before summaries (schema 2) get them
from `fill_summaries` (the app runs it beside the first screen).

A journal opened for reading only (`write=False`: `banker games`, `state`,
`export`) is never written: a missing file is not created, an empty file
stays empty (it holds no games), and a file of an older schema is upgraded in
a private copy. A file or folder this user cannot write, or a folder that is
missing, is told apart from damage in its own sentence. Reading works in a
read-only folder too: when SQLite cannot keep its shared-memory file beside the
journal, the journal (with its write-ahead log, so that no committed row is
hidden) is read from a private copy. Seeds are kept as text, so every whole
number a game script accepts is stored as it was given.
"""

from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import hmac
import json
import os
import re
import shutil
import sqlite3
import tempfile
import time
import urllib.parse
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from banker import files
from banker.chance import SeededChance, complete_action
from banker.errors import ActionError, BankerError, IllegalAction, RulesetError, SetupError
from banker.game import Game
from banker.model import Event
from banker.report import SUMMARY_VERSION, game_summary
from banker.ruleset import Ruleset, builtin_names, ruleset_from_data
from banker.script import Header, ScriptError, new_game, parse_header, script_lines

SCHEMA_VERSION = 3  # the file's layout (PRAGMA user_version)
ACTION_VERSION = 1  # the format of one action row
META_VERSION = 1  # the app's per-game document
APPLICATION_ID = 0x42424E4B  # "BBNK": marks a file as a Board Banker journal
STATUSES = ("active", "finished", "moved")


class JournalError(BankerError):
    """The journal cannot be used: the message is one sentence a family can act on."""


class UndoRefused(ValueError):
    """`undo` asked for a number of steps the game cannot take back; nothing was written."""


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
    actions: int | None  # None for a damaged game: never a count for a game that does not load
    created: float
    updated: float
    damage: str | None = None  # the sentence a load of this game is refused with

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "rules": self.rules, "players": self.players, "status": self.status,
                               "actions": self.actions, "created": self.created, "updated": self.updated}
        if self.damage is not None:
            out["damaged"] = self.damage
        return out


@dataclass(frozen=True)
class GameSummary:
    """A finished game's summary (`banker.report.game_summary`) as `Journal.summaries` gives it."""

    id: int
    summary: dict[str, Any] | None  # None for a damaged game
    times: tuple[float, float] | None  # the first and last action's time stamps (None: all written at once)
    damage: str | None = None  # the sentence a load of this game is refused with


def _detail(exc: BaseException | str) -> str:
    """An error's own words, on one short line (SQLite may quote a whole schema)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= 100 else text[:97] + "..."


def _checksum(game_id: int, seq: int, text: str) -> int:
    """CRC-32 of an action row: SQLite checks its pages' structure, not what they hold."""
    return zlib.crc32(f"{game_id}:{seq}:{text}".encode())


def _row_checksum(game_id: int, fields: tuple[Any, ...]) -> int:
    return zlib.crc32(json.dumps([game_id, *fields], ensure_ascii=False).encode("utf-8"))


def _text_checksum(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def _summary_checksum(game_id: int, count: int, digest: str, crc: int, text: str) -> int:
    return zlib.crc32(f"{game_id}:{count}:{digest}:{crc}:{text}".encode())


def _summary_text(game: Game) -> str:
    return json.dumps(game_summary(game), ensure_ascii=False, separators=(",", ":"))


def _chain_start(game_id: int) -> str:
    """The running hash of a game with no actions yet."""
    return hashlib.sha256(f"board-banker game {game_id}".encode()).hexdigest()


def _chain(previous: str, seq: int, version: int, text: str) -> str:
    """The running hash after one more action row: h_k = SHA-256(h_k-1, row k)."""
    return hashlib.sha256(f"{previous}\n{seq}:{version}:{text}".encode()).hexdigest()


def cut_short(path: Path) -> str | None:
    """The refusal for a journal file shorter than its own header says it is, or None.

    SQLite's header records the file's size in pages (valid when its two change counters agree); a file cut
    short, by a copy that stopped or a full disk, is refused as such before SQLite reads it. A journal
    whose write-ahead log holds pages is left to SQLite's own checks (its main file may lag behind).
    """
    try:
        size = path.stat().st_size
        if size == 0 or (Path(f"{path}-wal").exists() and Path(f"{path}-wal").stat().st_size > 0):
            return None
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError:
        return None  # told apart elsewhere (permissions)
    if not head.startswith(b"SQLite format 3\x00"):
        return None  # SQLite says "file is not a database"
    cut = f"The journal {path} is cut short ({size} bytes"
    if len(head) < 100:
        return f"{cut}, not even its header); restore a backup or start a new file."
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(head[28:32], "big")
    if head[24:28] == head[92:96] and size < pages * page_size:
        return f"{cut} of {pages * page_size}); restore a backup or start a new file."
    return None


# SQLite's primary result codes that mean "not allowed here" rather than "damaged".
_SQLITE_PERM, _SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY, _SQLITE_FULL, _SQLITE_CANTOPEN = 3, 5, 6, 8, 13, 14
_ACCESS_CODES = (_SQLITE_PERM, _SQLITE_READONLY, _SQLITE_CANTOPEN)


def _code(exc: BaseException) -> int:
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else -1


def access_problem(path: Path, write: bool) -> str | None:
    """Why this user cannot use the journal at `path` (a sentence), or None when the permissions allow it.

    Told apart from damage: a missing folder, a folder or file that cannot be read, and, when `write`, a
    file or folder that cannot be written (SQLite writes its log and shared-memory files beside the
    journal).
    """
    folder = path.parent if str(path.parent) else Path(".")
    unreadable = f"The journal {path} cannot be read by this user (permissions); nothing was changed."
    try:
        if not folder.is_dir():
            return f"The folder {folder} of the journal {path} does not exist; nothing was changed."
        if not os.access(folder, os.X_OK):  # before anything asks about the file itself
            return unreadable
        if path.is_dir():
            return f"{path} is a folder, not a journal file; nothing was changed."
        if path.exists() and not path.is_file():
            return f"{path} is not a regular file (a device or a pipe), so not a journal; nothing was changed."
    except PermissionError:  # a folder further up that this user cannot look into
        return unreadable
    if path.exists() and not os.access(path, os.R_OK):
        return unreadable
    if write and path.exists() and not os.access(path, os.W_OK):
        return f"The journal {path} is read-only for this user; nothing was changed."
    if write and not os.access(folder, os.W_OK):
        return (f"The journal {path} is in a folder this user cannot write ({folder}), and SQLite needs to "
                "write its log beside it; nothing was changed.")
    return None


F = TypeVar("F", bound=Callable[..., Any])


def _guarded(method: F) -> F:
    """SQLite finding damage mid-way becomes the same one-sentence JournalError."""
    @functools.wraps(method)
    def wrapper(self: Journal, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # a flipped byte can break UTF-8 too
            if isinstance(exc, sqlite3.IntegrityError):
                raise
            raise self._error(exc) from None
    return wrapper  # type: ignore[return-value]


class Journal:
    """A journal file, open for reading and appending. Use as a context manager."""

    def __init__(self, path: str | os.PathLike[str], create: bool = True, write: bool = True) -> None:
        """Open (with `create`, create) the journal at `path`.

        `write=False` opens it for reading only: nothing is ever written to the file or beside it by this
        program (an older schema is upgraded in a private copy), and an empty file holds no games.
        """
        self.path = Path(path)
        self.write = write
        self.db: sqlite3.Connection = None  # type: ignore[assignment]
        # `append_later`'s thread and its connection, made on the first row committed that way.
        self._writer: concurrent.futures.ThreadPoolExecutor | None = None
        self._writer_db: sqlite3.Connection | None = None
        self._copy: tempfile.TemporaryDirectory[str] | None = None
        self._scratch = False
        self._batch_time: float | None = None  # the time of the `batch` under way: its rows' one time stamp
        memory = str(path) == ":memory:"  # for tests: the same contract, no file
        if memory:
            self._connect(":memory:")
            self._open_checked()
            return
        if not write or not create:
            folder = self.path.parent if str(self.path.parent) else Path(".")
            problem = access_problem(self.path, write=False)
            if problem is not None and problem.startswith(f"The folder {folder} "):
                raise JournalError(f"There is no journal at {self.path}: its folder {folder} does not exist.")
            if problem is not None:
                raise JournalError(problem)
            if not self.path.exists():
                raise JournalError(f"There is no journal at {self.path}.")
        short = cut_short(self.path)
        if short is not None:
            raise JournalError(short)
        if not write:
            if self.path.stat().st_size == 0:  # an empty file: no games, and it stays untouched
                self._connect(":memory:")
                self._open_checked()
                return
            self._open_for_reading()
            return
        if create:
            try:
                files.make_folder(self.path.parent)  # its entry synced: a power cut does not lose the folder
            except OSError as exc:  # a read-only folder above it, or one this user cannot look into
                raise JournalError(f"The folder {self.path.parent} for the journal {self.path} cannot be made "
                                   f"({exc.strerror or _detail(exc)}); nothing was changed.") from None
        problem = access_problem(self.path, write=True)
        if problem is not None:
            raise JournalError(problem)
        self._connect(str(self.path))
        self._open_checked()

    # ------------------------------------------------------------------
    # Opening, checking, upgrading

    def _connect(self, target: str, uri: bool = False) -> None:
        # In memory or in a private copy, this program may write (create tables, upgrade) even when reading.
        self._scratch = target == ":memory:" or self._copy is not None
        try:
            self.db = sqlite3.connect(target, isolation_level=None, timeout=10, uri=uri)
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def _open_checked(self) -> None:
        try:
            self._prepare()
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            self.close()
            raise self._error(exc, opening=True) from None
        except JournalError:
            self.close()
            raise

    def _open_for_reading(self) -> None:
        """Open the file for reading only; from a private copy when SQLite cannot read it in place.

        In place, the connection is read-write only where this user could write anyway (so that SQLite
        tidies its own log files away on close), and this program writes nothing through it.
        """
        folder = self.path.parent if str(self.path.parent) else Path(".")
        writable = os.access(self.path, os.W_OK) and os.access(folder, os.W_OK)
        if writable:
            self._connect(str(self.path))
        else:
            self._connect("file:" + urllib.parse.quote(str(self.path.resolve())) + "?mode=ro", uri=True)
        try:
            self._prepare()
            return
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            self.close()
            # A journal in write-ahead-log mode needs its -shm file: in a folder this user cannot write,
            # SQLite cannot make one. Read a private copy of the journal and its log instead.
            if writable or _code(exc) not in _ACCESS_CODES:
                raise self._error(exc, opening=True) from None
        except JournalError:
            self.close()
            raise
        self._open_copy()

    def _open_copy(self) -> None:
        """Copy the journal and its write-ahead log (every committed row) to a private folder and open that."""
        self._copy = tempfile.TemporaryDirectory(prefix="banker-journal-")
        copy = Path(self._copy.name) / "journal.sqlite3"
        try:
            shutil.copyfile(self.path, copy)
            log = Path(str(self.path) + "-wal")
            if log.exists():
                shutil.copyfile(log, Path(str(copy) + "-wal"))
        except OSError as exc:
            self.close()
            raise JournalError(f"The journal {self.path} cannot be read ({exc.strerror or _detail(exc)}); "
                               "nothing was changed.") from None
        self._connect(str(copy))
        self._open_checked()

    def _error(self, exc: BaseException, opening: bool = False) -> JournalError:
        """The one sentence for an SQLite error: permissions, a busy file and a full disk are not damage."""
        code = _code(exc)
        if code in _ACCESS_CODES:
            problem = access_problem(self.path, self.write)
            if problem is not None:
                return JournalError(problem)
            return JournalError(f"The journal {self.path} cannot be opened or written ({_detail(exc)}); "
                                "nothing was changed.")
        if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
            return JournalError(f"The journal {self.path} is in use by another program ({_detail(exc)}); "
                                "nothing was changed, try again.")
        if code == _SQLITE_FULL:
            return JournalError(f"The disk holding the journal {self.path} is full; nothing was changed.")
        if opening:
            return JournalError(f"The journal {self.path} is damaged ({_detail(exc)}) and was not loaded; "
                                "restore a backup or start a new file.")
        return JournalError(f"The journal {self.path} is damaged ({_detail(exc)}); "
                            "restore a backup or start a new file.")

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
        if not self.write and not self._scratch and version < SCHEMA_VERSION:
            self.db.close()
            self.db = None  # type: ignore[assignment]
            if not tables:  # an empty database: no games, and nothing is written into it
                self._connect(":memory:")
                self._prepare()
            else:  # an older schema, opened for reading: upgrade a private copy, never the file
                self._open_copy()
            return
        if self.write or self._scratch:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")  # with WAL: a committed action survives power loss
        db.execute("PRAGMA foreign_keys=ON")
        if version < SCHEMA_VERSION:
            self._upgrade(version)

    def _upgrade(self, version: int) -> None:
        steps: dict[int, Callable[[], None]] = {0: self._upgrade_v0_v1, 1: self._upgrade_v1_v2,
                                                2: self._upgrade_v2_v3}
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

    def _upgrade_v1_v2(self) -> None:
        """Each game row gets its action count and running hash (computed here for the games already
        there), and its seed as text (SQLite's integers end at 2^63).

        SQLite's full integrity check runs first: a count made from a damaged file would bless the damage.
        """
        problems = [r[0] for r in self.db.execute("PRAGMA integrity_check(5)")]
        if problems != ["ok"]:
            raise JournalError(f"The journal {self.path} is damaged ({_detail('; '.join(problems))}) "
                               "and was not upgraded; restore a backup or start a new file.")
        self.db.execute("ALTER TABLE games ADD COLUMN action_count INTEGER NOT NULL DEFAULT 0")
        self.db.execute("ALTER TABLE games ADD COLUMN action_hash TEXT NOT NULL DEFAULT ''")
        self.db.execute("ALTER TABLE games ADD COLUMN seed_text TEXT")
        for (game_id,) in self.db.execute("SELECT id FROM games").fetchall():
            digest = _chain_start(game_id)
            count = 0
            for seq, text, version, checksum in self.db.execute(
                    "SELECT seq, action, version, checksum FROM actions WHERE game = ? ORDER BY seq", (game_id,)):
                if seq != count or _checksum(game_id, seq, text) != checksum:
                    raise JournalError(f"Action {count} of game {game_id} in {self.path} is damaged or missing; "
                                       "the journal was not upgraded, restore a backup or start a new file.")
                digest = _chain(digest, seq, version, text)
                count += 1
            self.db.execute("UPDATE games SET action_count = ?, action_hash = ?, "
                            "seed_text = CASE WHEN seed IS NULL THEN NULL ELSE CAST(seed AS TEXT) END, seed = NULL "
                            "WHERE id = ?", (count, digest, game_id))

    def _upgrade_v2_v3(self) -> None:
        """Games get their stored summaries: the table only (at once, however big the journal). The finished
        games already there get theirs from `fill_summaries`, which the app runs beside its first screen."""
        self.db.execute("""
            CREATE TABLE summaries (
                game INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
                action_count INTEGER NOT NULL,
                action_hash TEXT NOT NULL,
                actions_crc INTEGER NOT NULL,
                summary TEXT NOT NULL,
                checksum INTEGER NOT NULL
            )""")

    class _Tx:
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

            self.nested = False

        def __enter__(self) -> None:
            # Inside a transaction already (`Journal.batch`): a savepoint, so that the outer one decides.
            self.nested = self.db.in_transaction
            self.db.execute("SAVEPOINT inner" if self.nested else "BEGIN IMMEDIATE")

        def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
            if kind is None:
                self.db.execute("RELEASE inner" if self.nested else "COMMIT")
            elif self.db.in_transaction:  # (after a full disk or an I/O error SQLite may have rolled back itself)
                if self.nested:
                    self.db.execute("ROLLBACK TO inner")
                    self.db.execute("RELEASE inner")
                else:
                    self.db.execute("ROLLBACK")

    def _transaction(self) -> Journal._Tx:
        return Journal._Tx(self.db)

    class _Batch(_Tx):
        """`Journal.batch`: one transaction, whose rows all carry the time it began (they were written at once)."""

        def __init__(self, journal: Journal) -> None:
            super().__init__(journal.db)
            self.journal = journal

        def __enter__(self) -> None:
            super().__enter__()
            self.journal._batch_time = time.time()

        def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
            self.journal._batch_time = None
            super().__exit__(kind, value, tb)

    def batch(self) -> Journal._Tx:
        """One transaction around many writes (`banker import`): all of them are kept, or none, and every row
        written in it carries the one time it began (a game imported at once has no span of play)."""
        return Journal._Batch(self)

    def close(self) -> None:
        """Close the file (after the last row committed by `append_later`); idempotent."""
        writer = getattr(self, "_writer", None)
        if writer is not None:
            self._writer = None
            writer.submit(self._close_writer)
            writer.shutdown(wait=True)
        if getattr(self, "db", None) is not None:
            self.db.close()
            self.db = None  # type: ignore[assignment]
        if getattr(self, "_copy", None) is not None:
            assert self._copy is not None
            self._copy.cleanup()
            self._copy = None

    def __enter__(self) -> Journal:
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
                "INSERT INTO games (rules, ruleset, players, options, setup, seed_text, deck_order, created, updated,"
                " status, meta, checksum, meta_checksum, action_count, action_hash)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, 0, ?, 0, '')",
                (*fields[:5], None if header.seed is None else str(header.seed), fields[6], now, now, meta_text,
                 _text_checksum(meta_text)))
            assert cur.lastrowid is not None
            game_id = cur.lastrowid
            self.db.execute("UPDATE games SET checksum = ?, action_hash = ? WHERE id = ?",
                            (_row_checksum(game_id, fields), _chain_start(game_id), game_id))
        return game_id

    @_guarded
    def append(self, game_id: int, seq: int, action: Mapping[str, Any], status: str | None = None,
               summary: str | None = None) -> None:
        """Commit one action row (and the game's new status, if any) in one transaction.

        A row already at (game, seq) fails loudly. `summary`: the game's summary after it (the action ended the
        game), stored in the same transaction.
        """
        self.append_many(game_id, seq, [action], status, summary)

    @_guarded
    def append_many(self, game_id: int, seq: int, actions: Sequence[Mapping[str, Any]],
                    status: str | None = None, summary: str | None = None) -> None:
        """Commit action rows numbered from `seq` (and the game's new status) in one transaction.

        The game row's action count and running hash move on in the same transaction, and so does the game's
        summary: stored when given (the game ended), dropped when the game goes back to `active`.
        """
        self._append_rows(self.db, game_id, seq, actions, status, summary)

    def append_later(self, game_id: int, seq: int, action: Mapping[str, Any],
                     status: str | None = None, summary: str | None = None) -> concurrent.futures.Future[None]:
        """Commit one action row as `append` does, but on a thread of the journal's own, through a connection
        of its own to the same file, and return at once: the future's `result()` is None once the row is on
        disk, or raises the JournalError `append` would have raised (nothing saved).

        The app overlaps the disk's flush with drawing the screen, and shows the frame only once the result is
        in (ui/session.py). One at a time: wait for one before asking for the next (the rows are numbered and
        the game's count checked, as in `append`). A journal in memory, opened for reading or read from a
        private copy commits (or refuses) at once, on the caller's thread.
        """
        done: concurrent.futures.Future[None] = concurrent.futures.Future()
        if self._scratch or not self.write or str(self.path) == ":memory:":
            try:
                self.append(game_id, seq, action, status, summary)
            except JournalError as exc:
                done.set_exception(exc)
            else:
                done.set_result(None)
            return done
        if self._writer is None:
            self._writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="journal")
        return self._writer.submit(self._append_on_writer, game_id, seq, dict(action), status, summary)

    @_guarded
    def _append_on_writer(self, game_id: int, seq: int, action: dict[str, Any], status: str | None,
                          summary: str | None) -> None:
        """`append` on the writer thread's own connection (made there, on its first row)."""
        if self._writer_db is None:
            db = sqlite3.connect(str(self.path), isolation_level=None, timeout=10)
            db.execute("PRAGMA synchronous=FULL")  # as the journal's own: a committed row survives power loss
            db.execute("PRAGMA foreign_keys=ON")
            self._writer_db = db
        self._append_rows(self._writer_db, game_id, seq, [action], status, summary)

    def _close_writer(self) -> None:
        if self._writer_db is not None:
            self._writer_db.close()
            self._writer_db = None

    def _append_rows(self, db: sqlite3.Connection, game_id: int, seq: int, actions: Sequence[Mapping[str, Any]],
                     status: str | None, summary: str | None = None) -> None:
        texts = [json.dumps(dict(action), ensure_ascii=False, separators=(",", ":")) for action in actions]
        batch = self._batch_time if db is self.db else None
        now = batch if batch is not None else time.time()
        try:
            with Journal._Tx(db):
                for k, text in enumerate(texts):
                    db.execute("INSERT INTO actions (game, seq, action, time, version, checksum) "
                               "VALUES (?, ?, ?, ?, ?, ?)",
                               (game_id, seq + k, text, now, ACTION_VERSION, _checksum(game_id, seq + k, text)))
                row = db.execute("SELECT action_count, action_hash FROM games WHERE id = ?", (game_id,)).fetchone()
                if row is None:
                    raise JournalError(f"There is no game {game_id} in {self.path}.")
                if row[0] != seq:
                    raise JournalError(f"The record of game {game_id} in {self.path} counts {row[0]} actions, "
                                       f"not {seq}; nothing was saved.")
                digest = str(row[1])
                for k, text in enumerate(texts):
                    digest = _chain(digest, seq + k, ACTION_VERSION, text)
                db.execute("UPDATE games SET updated = ?, status = COALESCE(?, status), action_count = ?, "
                           "action_hash = ? WHERE id = ?", (now, status, seq + len(texts), digest, game_id))
                if summary is not None:
                    self._put_summary(db, game_id, summary)
                elif status == "active":  # the end undone: the game leaves the history until it ends again
                    db.execute("DELETE FROM summaries WHERE game = ?", (game_id,))
        except sqlite3.IntegrityError as exc:
            raise JournalError(f"Game {game_id} already has an action number {seq} ({_detail(exc)}).") from None

    @_guarded
    def game_ids(self) -> list[int]:
        """Every game's id, oldest first, without checking the games."""
        return [int(r[0]) for r in self.db.execute("SELECT id FROM games ORDER BY id")]

    @_guarded
    def games(self, replay: bool = False) -> list[GameInfo]:
        """One line per game. A game whose record or actions do not check out (with `replay`, a game that
        does not load) is listed with `damage`, the sentence its load is refused with, and no count."""
        infos = []
        for game_id, created, updated in self.db.execute(
                "SELECT id, created, updated FROM games ORDER BY id").fetchall():
            try:
                header = self.header(game_id)
                status = self.status(game_id)
                count = len(self.load(game_id).game.script) if replay else len(self.actions(game_id))
            except JournalError as exc:
                infos.append(GameInfo(game_id, "", [], "damaged", None, created, updated, str(exc)))
                continue
            infos.append(GameInfo(game_id, header.rules, header.players, status, count, created, updated))
        return infos

    @_guarded
    def latest_active(self) -> int | None:
        """The game to resume after a restart: the most recently played unfinished one."""
        row = self.db.execute("SELECT id FROM games WHERE status = 'active' ORDER BY updated DESC, id DESC "
                              "LIMIT 1").fetchone()
        return None if row is None else int(row[0])

    def _game_row(self, game_id: int) -> tuple[Any, ...]:
        """The game's row, checked against its checksums."""
        found = self.db.execute("SELECT rules, ruleset, players, options, setup, seed_text, deck_order, status, "
                                "meta, checksum, meta_checksum FROM games WHERE id = ?", (game_id,)).fetchone()
        if found is None:
            raise JournalError(f"There is no game {game_id} in {self.path}.")
        row = list(found)
        damaged = JournalError(f"The record of game {game_id} in {self.path} is damaged; it was not loaded.")
        if row[5] is not None:  # the seed, kept as text: every whole number a game script accepts
            seed = str(row[5])
            if re.fullmatch(r"-?[0-9]{1,4000}", seed) is None:
                raise damaged
            row[5] = int(seed)
        if (_row_checksum(game_id, tuple(row[:7])) != row[9] or _text_checksum(str(row[8])) != row[10]
                or row[7] not in STATUSES):
            raise damaged
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
        record = self.db.execute("SELECT action_count, action_hash FROM games WHERE id = ?", (game_id,)).fetchone()
        if record is None:
            return []  # no such game (deleted): no actions
        digest = _chain_start(game_id)
        for seq, (got, text, version, checksum) in enumerate(self.db.execute(
                "SELECT seq, action, version, checksum FROM actions WHERE game = ? ORDER BY seq", (game_id,))):
            if got != seq:
                raise self._disagreement(game_id, f"is missing action {seq}")
            if (not isinstance(text, str) or _checksum(game_id, seq, text) != checksum
                    or not isinstance(version, int) or not 1 <= version <= ACTION_VERSION):
                raise JournalError(f"Action {seq} of game {game_id} in {self.path} is damaged; "
                                   "the game was not loaded.")
            digest = _chain(digest, seq, version, text)
            try:
                action = json.loads(text)
            except json.JSONDecodeError:
                raise JournalError(f"Action {seq} of game {game_id} in {self.path} is unreadable; "
                                   "the game was not loaded.") from None
            out.append(_upcast(action, version))
        if record[0] != len(out):
            raise self._disagreement(game_id, f"holds {len(out)} actions where its record counts {record[0]}")
        if not hmac.compare_digest(str(record[1]), digest):
            raise self._disagreement(game_id, f"holds {len(out)} actions that do not match its record's hash")
        return out

    def _disagreement(self, game_id: int, what: str) -> JournalError:
        """The refusal when a game's actions and its record disagree, worded with SQLite's full check."""
        problems = [r[0] for r in self.db.execute("PRAGMA integrity_check(3)")]
        found = "" if problems == ["ok"] else f" (integrity check: {_detail('; '.join(problems))})"
        return JournalError(f"Game {game_id} in {self.path} {what}: the journal is damaged{found} and the game "
                            "was not loaded; restore a backup.")

    @_guarded
    def load(self, game_id: int) -> JournaledGame:
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
              meta: Mapping[str, Any] | None = None) -> JournaledGame:
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
    def action_times(self, game_id: int) -> tuple[float, float] | None:
        """When the game's first and last actions were written (seconds since the epoch), or None when all of
        them carry one time stamp (imported at once, or fewer than two actions)."""
        first, last = self.db.execute("SELECT MIN(time), MAX(time) FROM actions WHERE game = ?",
                                      (game_id,)).fetchone()
        if first is None or first == last:
            return None
        return float(first), float(last)

    # ------------------------------------------------------------------
    # Summaries: the family's history without replaying every game

    @staticmethod
    def _put_summary(db: sqlite3.Connection, game_id: int, text: str) -> None:
        """Store a game's summary beside what it was made from: the game's count and running hash, and the CRC
        of its action rows (inside the caller's transaction, after the rows)."""
        count, digest = db.execute("SELECT action_count, action_hash FROM games WHERE id = ?", (game_id,)).fetchone()
        found = db.execute(_ROWS_AT_ONCE.format(where="WHERE game = ?"), (game_id,)).fetchone()
        crc = _rows_crc(found[2] if found is not None else None)
        db.execute("INSERT OR REPLACE INTO summaries (game, action_count, action_hash, actions_crc, summary, checksum)"
                   " VALUES (?, ?, ?, ?, ?, ?)",
                   (game_id, count, digest, crc, text, _summary_checksum(game_id, count, digest, crc, text)))

    def _stored_summaries(self) -> list[tuple[int, dict[str, Any] | None, tuple[float, float] | None, str | None]]:
        """Every finished game (and every game whose record is damaged), with its stored summary where it still
        agrees with the game's record and action rows (else None), the first and last action's time stamps
        (None: all written at once) and the damage found (else None)."""
        db = self.db
        games = db.execute("SELECT g.id, g.status, g.action_count, g.action_hash, s.action_count, s.action_hash, "
                           "s.actions_crc, s.summary, s.checksum FROM games g LEFT JOIN summaries s ON s.game = g.id "
                           "ORDER BY g.id").fetchall()
        rows: dict[int, tuple[int, int, float, float]] = {}  # game -> (rows, CRC of their text, first, last time)
        for game_id, count, joined, first, last in db.execute(_ROWS_AT_ONCE.format(where="")):
            rows[game_id] = (count, _rows_crc(joined), first, last)
        out: list[tuple[int, dict[str, Any] | None, tuple[float, float] | None, str | None]] = []
        for game_id, status, *record in games:
            try:
                self._game_row(game_id)
            except JournalError as exc:
                out.append((game_id, None, None, str(exc)))
                continue
            if status != "finished":
                continue
            stored, times = _trusted(game_id, record, *rows.get(game_id, (0, _rows_crc(None), 0.0, 0.0)))
            out.append((game_id, stored, times, None))
        return out

    @_guarded
    def summaries(self) -> list[GameSummary]:
        """Every finished game's summary (`banker.report.game_summary`), by id, for the family's history.

        A stored summary is taken while it agrees with the game: the game's checksummed record still counts and
        hashes the actions it was made from, and the action rows (counted and their CRC taken, in one pass of
        SQLite over the table) are still the rows it was made from. Any other finished game is loaded, with every
        check a load makes, and summarised in memory (nothing is written). A game that does not load, or whose
        record is damaged, comes with `damage` and no summary."""
        out = []
        for game_id, stored, times, damage in self._stored_summaries():
            if damage is None and stored is None:
                try:
                    stored = game_summary(self.load(game_id).game)
                except JournalError as exc:
                    damage = str(exc)
            out.append(GameSummary(game_id, stored, times, damage))
        return out

    @_guarded
    def game_keys(self) -> dict[int, tuple[Any, Any, Any]]:
        """Every game's id with its status, action count and running hash as stored, unchecked (one query): to
        compare with an earlier look, telling which games changed since (the app's hall of fame keeps its
        summaries up to date with it)."""
        return {int(r[0]): (r[1], r[2], r[3])
                for r in self.db.execute("SELECT id, status, action_count, action_hash FROM games ORDER BY id")}

    @_guarded
    def summary(self, game_id: int) -> GameSummary | None:
        """One game's summary as `summaries` would give it (None when the game is not finished): its stored one
        where it agrees with the game's record and rows, else worked out from a load."""
        try:
            self._game_row(game_id)
        except JournalError as exc:
            return GameSummary(game_id, None, None, str(exc))
        row = self.db.execute("SELECT g.status, g.action_count, g.action_hash, s.action_count, s.action_hash, "
                              "s.actions_crc, s.summary, s.checksum FROM games g LEFT JOIN summaries s "
                              "ON s.game = g.id WHERE g.id = ?", (game_id,)).fetchone()
        if row is None or row[0] != "finished":
            return None
        found = self.db.execute(_ROWS_AT_ONCE.format(where="WHERE game = ?"), (game_id,)).fetchone()
        if found is None:
            stored, times = _trusted(game_id, row[1:], 0, _rows_crc(None), 0.0, 0.0)
        else:
            stored, times = _trusted(game_id, row[1:], found[1], _rows_crc(found[2]), found[3], found[4])
        if stored is None:
            try:
                stored = game_summary(self.load(game_id).game)
            except JournalError as exc:
                return GameSummary(game_id, None, None, str(exc))
        return GameSummary(game_id, stored, times)

    @_guarded
    def missing_summaries(self) -> list[int]:
        """The finished games without a stored summary that agrees with them (a journal from before summaries,
        a game abandoned by the banker): `fill_summaries` stores them."""
        return [game_id for game_id, stored, _, damage in self._stored_summaries() if stored is None and damage is None]

    @_guarded
    def fill_summaries(self, stop: Callable[[], bool] = lambda: False, pause: float = 0.0) -> int:
        """Store the summary of every finished game that lacks one, a game at a time (a transaction each), until
        `stop()` says so; damaged games are left as they are. Returns how many were stored. `pause`: seconds
        to sleep after each game, leaving the interpreter to the app's own thread.

        Loading a game replays it: the app runs this on a thread of its own, with a journal of its own, beside
        the first screen (ui/app.py), so that an old journal never stalls the start."""
        stored = 0
        for game_id in self.missing_summaries():
            if stop():
                break
            try:
                game = self.load(game_id).game
            except JournalError:
                continue  # damaged: `summaries` reports it, nothing is stored
            text = _summary_text(game)
            with self._transaction():
                row = self.db.execute("SELECT status, action_count FROM games WHERE id = ?", (game_id,)).fetchone()
                if row is None or row[0] != "finished" or row[1] != len(game.script):
                    continue  # played on (or deleted) since it was loaded: left for the next fill
                self._put_summary(self.db, game_id, text)
            stored += 1
            time.sleep(pause)  # (0: at least let another thread have the interpreter between games)
        return stored

    @_guarded
    def status(self, game_id: int) -> str:
        return str(self._game_row(game_id)[7])

    @_guarded
    def delete_game(self, game_id: int) -> None:
        """Delete a whole game and its actions (the app asks for confirmation first)."""
        self._game_row(game_id)
        with self._transaction():
            self.db.execute("DELETE FROM summaries WHERE game = ?", (game_id,))
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


class Commit:
    """An action applied in memory whose row is being committed (`JournaledGame.apply_later`)."""

    def __init__(self, live: JournaledGame, before: int, status: str | None,
                 pending: concurrent.futures.Future[None]) -> None:
        self.live, self.before, self.status, self.pending = live, before, status, pending

    def wait(self) -> None:
        """Until the row is on disk. Should the commit have failed (disk full, card pulled), the action is taken
        back in memory too and JournalError is raised: nothing uncommitted is ever shown."""
        try:
            self.pending.result()
        except (sqlite3.Error, JournalError) as exc:
            self.live.game.truncate(self.before)  # the journal does not have it, so neither does the game
            if isinstance(exc, JournalError):
                raise
            raise JournalError(f"The action could not be saved ({_detail(exc)}); it was not carried out.") from None
        if self.status is not None:
            self.live.status = self.status


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
            self.journal.append(self.id, before, game.script[-1], status=status, summary=self._summary(status))
        except (sqlite3.Error, JournalError) as exc:
            game.truncate(before)  # the journal does not have it, so neither does the game
            if isinstance(exc, JournalError):
                raise
            raise JournalError(f"The action could not be saved ({_detail(exc)}); it was not carried out.") from None
        if status is not None:
            self.status = status
        return events

    def apply_later(self, action: Mapping[str, Any]) -> tuple[list[Event], Commit]:
        """Apply one action and start its commit beside the caller (`Journal.append_later`): what happened, and
        the commit to wait for (`Commit.wait`) before anything of it is shown or the next action is applied.

        A refused action raises and writes nothing, as with `apply`.
        """
        game = self.game
        filled = complete_action(game, action, self.chance)
        before = len(game.script)
        events = game.apply(filled)
        status = self._status_after()
        return events, Commit(self, before, status, self.journal.append_later(
            self.id, before, game.script[-1], status=status, summary=self._summary(status)))

    def _status_after(self) -> str | None:
        """A game that ends is finished; an undo that takes the end back makes it active again."""
        if self.game.ended and self.status == "active":
            return "finished"
        if not self.game.ended and self.status == "finished":
            return "active"
        return None

    def _summary(self, status: str | None) -> str | None:
        """The game's summary to store with the action that ends it."""
        return _summary_text(self.game) if status == "finished" else None

    def undoable(self) -> int:
        """How many actions an undo can still take back."""
        return len(self.game.history)

    def undo(self, steps: int = 1) -> None:
        """Take back the latest `steps` actions, committed together in one transaction, or refuse whole.

        Refused before anything is written: `steps` below 1, or more than there are actions to take back.
        """
        if steps < 1:
            raise UndoRefused(f"The number of actions to undo must be at least 1, not {steps}; nothing was undone.")
        can = self.undoable()
        if can == 0:
            raise IllegalAction("rule.nothing_to_undo")  # the engine's own refusal, as for one undo
        if steps > can:
            raise UndoRefused(f"Game {self.id} has {can} action{'' if can == 1 else 's'} that can be undone, "
                              f"not {steps}; nothing was undone.")
        game = self.game
        before = len(game.script)
        for _ in range(steps):
            game.apply({"do": "undo"})  # Game.undo through the checked entry point
        status = self._status_after()
        try:
            self.journal.append_many(self.id, before, game.script[before:], status=status,
                                     summary=self._summary(status))
        except (sqlite3.Error, JournalError) as exc:
            game.truncate(before)
            if isinstance(exc, JournalError):
                raise
            raise JournalError(f"The undo could not be saved ({_detail(exc)}); nothing was undone.") from None
        if status is not None:
            self.status = status


_ROWS_AT_ONCE = ("SELECT game, COUNT(*), group_concat(action, char(10)), MIN(time), MAX(time) FROM actions {where} "
                 "GROUP BY game")
"""Each game's action rows at once, in one pass of SQLite over the table's (game, seq) order: their count, their
texts joined (a summary keeps the CRC of it), and the first and last time stamp."""


def _rows_crc(joined: str | None) -> int:
    """The CRC a summary keeps of its game's action rows (their texts joined by `_ROWS_AT_ONCE`)."""
    return zlib.crc32((joined or "").encode("utf-8"))


def _trusted(game_id: int, record: Sequence[Any], n: int, crc: int, first: float, last: float
             ) -> tuple[dict[str, Any] | None, tuple[float, float] | None]:
    """A game's stored summary, if it still agrees with the game, and the game's first and last time stamps.

    `record`: the game row's action count and hash, then the summary row's count, hash, CRC, text and checksum
    (None when there is none). `n`, `crc`, `first`, `last`: the game's rows as `_ROWS_AT_ONCE` finds them (their
    count, the CRC of their joined texts, the first and last time stamp). The summary is trusted when its
    checksum fits, it was made at the game's count and hash, the rows are still as many with the same CRC, and
    it is of the current format."""
    count, digest, s_count, s_digest, s_crc, text, checksum = record
    times = None if n < 2 or first == last else (float(first), float(last))
    if not (isinstance(text, str) and checksum == _summary_checksum(game_id, s_count, s_digest, s_crc, text)
            and (s_count, s_digest) == (count, digest) and (n, crc) == (s_count, s_crc)):
        return None, times
    try:
        stored = json.loads(text)
    except json.JSONDecodeError:
        return None, times
    if not isinstance(stored, dict) or stored.get("version") != SUMMARY_VERSION:
        return None, times  # a summary of another format: made again
    return stored, times


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

