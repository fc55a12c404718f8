"""Board Banker's touchscreen app (Kivy): the session and the flows (no Kivy), view data, screens."""
