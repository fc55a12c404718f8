"""Board Banker's touchscreen app (Kivy): the controller (no Kivy), view data, screens."""
