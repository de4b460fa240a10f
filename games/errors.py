"""Errors of the games services and their translated messages.

Every error has a stable ``code``, ``params`` and an HTTP-like ``status``
(400 bad input or illegal move, 403 not allowed, 404 unknown, 409 conflict:
a stale or repeated submission, an action on a finished game). Engine errors
are translated from their code and params by :func:`engine_message`, with the
engine's English message as fallback for codes this table does not know.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from maatasite.errors import ServiceError

# Messages of the site's own errors.
SITE_MESSAGES: dict[str, Any] = {
    "game_not_found": _("This game does not exist."),
    "challenge_not_found": _("This challenge does not exist."),
    "not_a_player": _("You are not playing in this game."),
    "not_your_turn": _("It is not your turn."),
    "stale_ply": _(
        "The game has moved on since you loaded the page (you saw ply %(expected)s, "
        "the game is at ply %(current)s). Nothing was changed; please look again."
    ),
    "game_over": _("This game is over."),
    "abort_too_late": _("The game can no longer be aborted: both sides have moved."),
    "draw_not_available": _("Draws by agreement exist only in Onitama games between two players."),
    "draw_already_offered": _("You have already offered a draw."),
    "no_draw_offer": _("There is no draw offer to answer."),
    "unknown_game": _("Unknown game."),
    "bad_days": _("Choose 1, 2, 3, 5, 7, 10 or 14 days per move."),
    "bad_seat": _("Choose a side of this game or random."),
    "bad_level": _("Choose a bot level from 1 to 5."),
    "self_challenge": _("You cannot challenge yourself."),
    "challenge_closed": _("This challenge is no longer open."),
    "challenge_expired": _("This challenge has expired."),
    "not_for_you": _("This challenge is addressed to another player."),
    "not_yours": _("Only the player who made the challenge can cancel it."),
    "inactive_user": _("This player cannot play at the moment."),
    "blocked": _("This player does not accept your challenges."),
    "bad_options": _("These game options are not valid."),
    "rematch_not_finished": _("A rematch can be offered once the game is finished."),
    "record_invalid_line": _("This record cannot be read at line %(line)s: %(problem)s"),
    "record_invalid": _("This record cannot be read: %(problem)s"),
    "record_too_long": _("This record is too long (at most %(limit)s characters)."),
    "record_not_found": _("This imported record does not exist."),
    "record_not_ready": _("The record can be downloaded once the game is over: until then its seed is secret."),
    "rematch_not_available": _("Ladder and tournament games have no rematch: their rules decide who plays next."),
    # conditional moves (games.services.conditional_lines_set)
    "conditional_not_available": _("Conditional moves exist only in Onitama games."),
    "conditional_not_now": _("Conditional moves are queued while your opponent is to move."),
    "conditional_bad_lines": _("Send the lines as a list, each a list of moves."),
    "conditional_too_many": _("At most %(limit)s lines can be queued."),
    "conditional_empty_line": _("Line %(line)s is empty."),
    "conditional_too_long": _("Line %(line)s is too long: at most %(limit)s plies."),
    "conditional_no_answer": _("Line %(line)s must end with your answer to your opponent's move."),
    "conditional_illegal": _("Line %(line)s, ply %(ply)s: %(problem)s"),
    "conditional_game_ends": _("Line %(line)s goes on after the game is over at ply %(ply)s."),
    "conditional_two_answers": _("Line %(line)s answers %(move)s differently from an earlier line: choose one answer."),
    # staff decisions (games.adjudication, games.outages)
    "not_staff": _("Only staff may do this."),
    "reason_required": _("Say why: the audit log keeps the reason."),
    "reason_too_long": _("The reason is too long (at most %(limit)s characters)."),
    "game_running": _("This game is still running: award it, or cancel it first."),
    "game_not_over": _("Only an ended game can be changed this way."),
    "already_void": _("This game is already void."),
    "bad_winner": _("Choose a side of this game, or none for a draw."),
    "not_a_timeout": _("This game did not end on time."),
    "hidden_information": _(
        "This game hides information that its end revealed: it cannot be resumed. Void it instead."
    ),
    "replay_failed": _("The moves of this game cannot be played again."),
    "timeouts_batch_not_found": _("This batch of held timeouts does not exist."),
    "timeouts_batch_decided": _("Staff have already decided these timeouts."),
    "bot_not_failed": _("This game's bot has not failed: there is nothing to release."),
}

# Messages of the engine's error codes. Params are the engine's own params.
ENGINE_MESSAGES: dict[str, Any] = {
    "illegal_move": _("%(move)s is not a legal move now."),
    "not_text": _("A move must be text."),
    "bad_seed": _("The seed must be a whole number between 0 and 2**256 - 1."),
    "unknown_game": _("Unknown game %(game)s."),
    "bad_position": _("This position cannot be read."),
    "shrine_cost": _("The Shrine at %(square)s costs %(cost)s crystals; you hold %(held)s."),
    "game_over": _("The game is over."),
    "bad_syntax": _("This move cannot be read."),
    "bad_square": _("This move names a square that does not exist: use a1 to e5."),
    "empty_move": _("Please enter a move."),
    "unknown_card": _("There is no card called %(card)s."),
    "not_in_hand": _("The card %(card)s is not in your hand."),
    "must_move": _("You cannot pass while you have a legal move (for example %(example)s)."),
    "not_your_piece": _("You have no piece on %(square)s."),
    "unreachable": _("%(card)s cannot move a piece from %(src)s to %(dst)s."),
    "own_piece": _("%(square)s holds one of your own pieces."),
    "bad_move": _("This is not a move."),
    "unknown_word": _("Unknown word %(word)s in the move."),
    # Maatatahay
    "bad_move_text": _("This move cannot be read."),
    "wrong_phase": _("This is not the decision the game expects now."),
    "no_such_square": _("There is no square %(square)s on the map."),
    "no_such_tile": _("There is no warrior called %(tile)s."),
    "no_such_player": _("There is no player %(player)s."),
    "occupied": _("%(square)s already holds a warrior."),
    "shrine_needs_payment": _("%(square)s is a Shrine: enter it with a shrine move and pay crystals."),
    "not_a_move": _("This is not a Maatatahay move."),
    "pair_not_in_stream": _("The Tile Stream has no pair %(wazu)s/%(balan)s (Wazu/Balan)."),
    "not_a_shrine": _("%(square)s holds no relic."),
    "shrine_needs_spirit": _("The offering at %(square)s must include a Spirit Crystal."),
    "shrine_wrong_payment": _("The Shrine at %(square)s costs exactly %(cost)s crystals, not %(paid)s."),
    "not_enough_crystals": _("You cannot pay %(pay)s: you hold %(held)s."),
    "draft_taken": _("%(square)s already holds a relic."),
    "draft_adjacent": _("Relics may not be orthogonally adjacent: %(square)s touches one."),
    "draft_crystal_cap": _("In the draft you may take at most %(cap)s crystals."),
    "bad_rotation": _("Rotations are r0 to r3."),
    "rotation_not_canonical": _("This rotation has the same arrows as a smaller one: write the smaller one."),
    "put_more_than_held": _("You cannot move %(put)s onto the Hot Tile: you hold %(held)s."),
    "storage_over_limit": _("Your storage may keep at most 4 crystals: move more onto the Hot Tile."),
    "order_not_needed": _("Every settlement order gives the same result here: leave the order out."),
    "order_needed": _("The settlement order changes the result here: give the order of %(candidates)s."),
    "order_not_canonical": _("This order gives the same result as a smaller one: write the smaller one."),
    "not_a_candidate": _("%(square)s is not settled in this placement."),
    "order_incomplete": _("The order must list each of %(candidates)s exactly once."),
    "unknown_data_version": _("Unknown component data version."),
    "opening_in_standard": _("Openings belong to the First Game."),
    "bad_variant": _("Choose the First Game or the Standard Game."),
    "bad_opening": _("Choose an opening from 1 to 4."),
    "bad_cards": _("The card pool must be base, Sensei's Path or mixed."),
    "bad_option": _("These game options are not valid."),
    "bad_options": _("These game options are not valid."),
    "unknown_option": _("Unknown game option %(option)s."),
}


def _format(template: Any, params: Mapping[str, Any], fallback: str) -> str:
    text = str(template)  # lazy translation: evaluated in the active language
    try:
        return text % dict(params) if "%(" in text else text
    except (KeyError, TypeError, ValueError):
        return fallback or text


def engine_message(code: str, params: Mapping[str, Any], fallback: str) -> str:
    """The translated message of an engine error, or the engine's English ``fallback``."""
    template = ENGINE_MESSAGES.get(code)
    if template is None:
        return fallback
    return _format(template, params, fallback)


class GameActionError(ServiceError):
    """A service refused an action. ``status`` is the HTTP status to answer with.

    Apps built on games subclass these errors and set ``app_messages``, their own
    table of translated messages, looked up before the games table.

    Each text lives once, in those tables: raise ``Conflict("abort_too_late")``, not with
    a second English copy. ``fallback`` is only for a code no table knows (and the
    engine's own message); ``str(error)`` is the table's English text."""

    status = 400
    app_messages: Mapping[str, Any] = {}

    def __init__(self, code: str, fallback: str = "", **params: Any) -> None:
        self.code = code
        self.params = params
        self.fallback = fallback or self._english() or code
        super().__init__(self.fallback)

    def _template(self) -> Any:
        return self.app_messages.get(self.code, SITE_MESSAGES.get(self.code))

    def _english(self) -> str:
        """The table's message in English (logs, ``str(error)``), or "" for an unknown code."""
        template = self._template()
        if template is None:
            return ""
        with translation.override("en"):
            return _format(template, self.params, "")

    @property
    def message(self) -> str:
        """The translated message, in the active language."""
        template = self._template()
        if template is None:
            return self.fallback
        return _format(template, self.params, self.fallback)


class InvalidInput(GameActionError):
    status = 400


class NotAllowed(GameActionError):
    status = 403


class NotFound(GameActionError):
    status = 404


class Conflict(GameActionError):
    """Stale or repeated submissions, actions on games or challenges that moved on (409)."""

    status = 409


class MoveRejected(GameActionError):
    """The engine refused the move text; carries the engine's code and params."""

    status = 400

    def __init__(self, code: str, fallback: str = "", *, move_text: str = "", **params: Any) -> None:
        super().__init__(code, fallback, **params)
        self.move_text = move_text

    @property
    def message(self) -> str:
        return engine_message(self.code, self.params, self.fallback)
