"""Correspondence games: Onitama and Maatatahay, played one move a day."""
