"""Board Banker's hardware: NFC card readers on serial ports and the GPIO dice button.

Bytes and edges in, clean events out (`CardTapped`, `ReaderStatus`,
`DiceRolled`), with fakes that behave like the real devices. Nothing here
knows the rules; the app (`ui/`) joins these events to the engine. Of the
engine, only banker/outside.py is imported (files, text and command-line
numbers from outside; tests/test_import_rules.py).
"""

from hardware.events import CardTapped, DiceRolled, HardwareError, ReaderStatus

__all__ = ["CardTapped", "DiceRolled", "HardwareError", "ReaderStatus"]
