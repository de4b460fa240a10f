"""Fair play: staff measure how often a player chose the strongest bot's first choice."""
