"""Closed loops through the game's own menus: the start menu, the party menu and its field moves."""
