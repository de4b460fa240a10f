"""How many of a player's recent games a fair-play check reads: by default, and at most.
The other numbers of the check are Django settings (FAIRPLAY_*, maatasite/settings.py)."""

DEFAULT_GAMES = 10
MAX_GAMES = 50
