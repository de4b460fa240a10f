"""Every constant of the rating system, in one place.

Rating periods: Glicko-2 is defined over rating periods. For correspondence
play each rated result is its own rating period for its two players (a game
can last weeks, so there is no natural "evening" to batch results in). A
player who has not played a rated game of a kind for a while gets one empty
rating period per ``INACTIVITY_PERIOD_DAYS`` since their last rated game of
that kind, and each empty period grows the deviation as Glicko-2 prescribes
(phi' = sqrt(phi^2 + sigma^2)), never beyond ``MAX_DEVIATION``.
"""

# A new player's rating, deviation and volatility (Glickman's recommended start).
INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 350.0
INITIAL_VOLATILITY = 0.06

# The system constant tau: how much the volatility may change (Glickman suggests 0.3 to 1.2).
TAU = 0.5

# One empty rating period per this many days without a rated game of the kind.
INACTIVITY_PERIOD_DAYS = 30

# The deviation never grows beyond a new player's.
MAX_DEVIATION = INITIAL_DEVIATION

# A rating whose deviation is above this is provisional: shown with "?" and
# left out of the leaderboards.
PROVISIONAL_DEVIATION = 110.0

# How many players a leaderboard shows by default.
LEADERBOARD_SIZE = 20
