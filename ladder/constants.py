"""The ladder rules' numbers, in one place. They are the rules players read (README
"Ratings and ladders"), the same on every site, so they are constants and not settings."""

# A new ladder lets a player challenge at most this many places above them.
DEFAULT_MAX_PLACES_UP = 5
# Running ladder challenges a player may have made, and may have received, per ladder.
MAX_OUTGOING = 3
MAX_INCOMING = 3
# Days before a player may challenge the same player again.
REMATCH_DAYS = 7
# A player who runs out of time this many times within TIMEOUT_WINDOW_DAYS leaves the ladder.
TIMEOUT_LIMIT = 3
TIMEOUT_WINDOW_DAYS = 30
# How many recent changes the ladder page shows.
RECENT_CHANGES = 20
