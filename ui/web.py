"""The phone server, as the app and the tests import it: `from ui.web import PhoneServer`.

The server itself is the package ui/phoneserver/: `PhoneServer` in server.py, the connection gate and its
limits in gate.py, the live game's routes and page in live.py, the phone editor's routes and page in
editing.py, what they share in base.py. See its __init__.py and docs/web.md.
"""

from ui.phoneserver import PhoneServer

__all__ = ["PhoneServer"]
