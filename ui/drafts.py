"""The new game's draft kept on disk: `draft.json` in the app's data folder, beside the settings
(ui/settings.py) and, by default, the games journal ($XDG_DATA_HOME/board-banker/).

The setup flow (ui/flows/setup.py) owns the draft; ui/flows/draft.py says what goes in the file (`Draft.to_doc`)
and what comes back from it (`Draft.from_doc`, which checks every field); this module only keeps the text
safe. A write is banker/files.py's `write_atomically`: a temporary file in the same folder, flushed and
fsync'ed, then takes the file's place with `os.replace`, and the folder is fsync'ed: a power cut leaves the
old draft or the new one, never half of one, and the next write removes a temporary file a cut left. A
file that cannot be read, is not JSON or is of another version is ignored with a line in the log, never a
crash; a write that fails (a full or read-only card) is logged and the draft stays in memory. No Kivy here.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from banker import files

log = logging.getLogger(__name__)

VERSION = 1  # the file's format (`Draft.to_doc`)
DRAFT_NAME = "draft.json"


def draft_path(settings_file: Path) -> Path:
    """The draft's file: beside the app's settings file, in the app's data folder."""
    return settings_file.with_name(DRAFT_NAME)


def write_atomically(path: Path, text: str) -> None:
    """`text` into `path` whole or not at all, readable by its owner only (the draft holds the PIN's hash):
    banker/files.py's `write_atomically`. Raises OSError."""
    files.write_atomically(path, text.encode("utf-8"))


class DraftFile:
    """The draft's file: `read` it back (None when there is none or it is bad), `write` a draft's document
    (only when it changed since the last write), `remove` it once the game has started."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._written: str | None = None  # the text on disk, as far as this app knows

    def read(self) -> dict[str, Any] | None:
        """The document in the file, or None: no file, or one that cannot be read, is not a JSON object or is
        of another version (said in the log)."""
        try:
            text = self.path.read_text("utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            log.warning("%s: unreadable (%s); the new game's draft is not taken up", self.path, exc)
            return None
        try:
            doc = json.loads(text)
        except ValueError as exc:
            log.warning("%s: not JSON (%s); the new game's draft is not taken up", self.path, exc)
            return None
        if not isinstance(doc, dict) or doc.get("version") != VERSION:
            log.warning("%s: not a draft of version %d; the new game's draft is not taken up", self.path, VERSION)
            return None
        self._written = text
        return doc

    def write(self, doc: dict[str, Any]) -> bool:
        """Keep `doc` (a JSON document) in the file, unless the file has it already; False when the write
        failed (logged: the draft stays in memory only)."""
        try:
            text = json.dumps({**doc, "version": VERSION}, ensure_ascii=False, indent=1, sort_keys=True)
        except (TypeError, ValueError) as exc:  # a value JSON cannot hold: a bug, never a crash at the table
            log.warning("%s: the new game's draft could not be kept (%s)", self.path, exc)
            return False
        if text == self._written:
            return True
        try:
            write_atomically(self.path, text)
        except OSError as exc:
            log.warning("%s: the new game's draft could not be kept (%s)", self.path, exc)
            self._written = None
            return False
        self._written = text
        return True

    def remove(self) -> None:
        """No draft any more (the game started, or the draft was dropped)."""
        self._written = None
        try:
            self.path.unlink()
            files.sync_folder(self.path.parent)
        except FileNotFoundError:
            return
        except OSError as exc:
            log.warning("%s: the old draft could not be removed (%s)", self.path, exc)


__all__ = ["DRAFT_NAME", "DraftFile", "VERSION", "draft_path", "write_atomically"]
