"""The names the site shows for sides and result reasons.

The engine defines the sides (``engine.get_game(kind).players``, in seat order); the
site takes them from there and only adds a translated label to each. Result reasons
are ``games.models.ResultReason``, whose labels these are. The sentence a game page shows
for the result (:func:`result_text`) lives here too: personal for a seated player ("You
won: your master reached the temple"), neutral for everyone else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from engine import get_game

from .models import Game, GameKind, GameStatus, ResultReason, Seat

SIDES: dict[str, tuple[str, ...]] = {kind: tuple(get_game(kind).players) for kind in GameKind.values}
# Labels in the engine's seat order, per game.
_LABELS: dict[str, tuple[Promise, ...]] = {
    GameKind.ONITAMA: (_("Red"), _("Blue")),
    GameKind.MAATATAHAY: (_("Balan"), _("Wazu")),
}
SIDE_LABELS: dict[str, Promise] = {
    side: label for kind, sides in SIDES.items() for side, label in zip(sides, _LABELS[kind], strict=True)
}


def side_label(side: str) -> str:
    """A side's name in the reader's language (an unknown side is shown as it is)."""
    label = SIDE_LABELS.get(side)
    return str(label) if label is not None else side


def reason_label(reason: str) -> str:
    """A result reason's label in the reader's language (an unknown one is shown as it is)."""
    return str(ResultReason(reason).label) if reason in ResultReason.values else reason


# Why the game was won, as its winner reads it, and as its loser reads it.
_WON_BECAUSE: dict[str, Promise] = {
    ResultReason.MASTER_CAPTURED: _("you captured your opponent's master"),
    ResultReason.TEMPLE_REACHED: _("your master reached the temple"),
    ResultReason.SCORE: _("you scored more"),
    ResultReason.MORE_WARRIORS: _("you have more surviving warriors"),
    ResultReason.LATEST_RELIC: _("you took the most recent relic"),
    ResultReason.RESIGN: _("your opponent resigned"),
    ResultReason.TIMEOUT: _("your opponent ran out of time"),
    ResultReason.FORFEIT: _("your opponent forfeited"),
    ResultReason.ADJUDICATED: _("adjudicated by staff"),
}
_LOST_BECAUSE: dict[str, Promise] = {
    ResultReason.MASTER_CAPTURED: _("your master was captured"),
    ResultReason.TEMPLE_REACHED: _("your opponent's master reached your temple"),
    ResultReason.SCORE: _("your opponent scored more"),
    ResultReason.MORE_WARRIORS: _("your opponent has more surviving warriors"),
    ResultReason.LATEST_RELIC: _("your opponent took the most recent relic"),
    ResultReason.RESIGN: _("you resigned"),
    ResultReason.TIMEOUT: _("you ran out of time"),
    ResultReason.FORFEIT: _("you forfeited"),
    ResultReason.ADJUDICATED: _("adjudicated by staff"),
}


def result_text(game: Game, *, seats: Mapping[str, Seat], viewer_side: str | None = None) -> str:
    """The result of an ended game as one sentence ("" while it runs): personal for the
    player seated on ``viewer_side``, neutral (the winner's name and side) for anyone else."""
    if game.status == GameStatus.ACTIVE:
        return ""
    reason = reason_label(game.result_reason)
    if game.status == GameStatus.ABORTED:
        if game.result_reason == ResultReason.ABORTED_TIMEOUT:
            return gettext("Game aborted: no first move in time")
        return gettext("Game aborted")
    if game.result_reason == ResultReason.VOID:
        return gettext("Voided by staff")
    if not game.winner_side:
        if game.result_reason == ResultReason.AGREEMENT:
            return gettext("Draw by agreement")
        return gettext("Draw: %(reason)s") % {"reason": reason} if reason else gettext("Draw")
    if viewer_side is not None:
        won = viewer_side == game.winner_side
        why = (_WON_BECAUSE if won else _LOST_BECAUSE).get(game.result_reason)
        because = str(why) if why is not None else reason
        return (gettext("You won: %(why)s") if won else gettext("You lost: %(why)s")) % {"why": because}
    seat = seats.get(game.winner_side)
    return gettext("%(player)s (%(side)s) won: %(reason)s") % {
        "player": seat.player_name if seat else game.winner_side,
        "side": side_label(game.winner_side),
        "reason": reason,
    }


# ---------------------------------------------------------------- moves in words

_PIECES: dict[str, Promise] = {"student": _("student"), "master": _("master")}
_TILES: dict[str, Promise] = {
    "bravery": _("Bravery"),
    "rookie": _("Rookie"),
    "elite": _("Elite"),
    "champion": _("Champion"),
    "berserk": _("Berserk"),
    "support": _("Support"),
    "elder": _("Elder"),
    "convert": _("Convert"),
}
# Maatatahay's kinds of decision (``move_parts``' "type"), as a player reads them.
DECISION_KINDS: dict[str, Promise] = {
    "pick": _("pick a pair of tiles from the stream"),
    "first": _("name the player who places first"),
    "draft": _("place a relic"),
    "place": _("place a warrior"),
    "shrine": _("place on a Shrine and pay for it"),
    "finish": _("finish the Shrine placement"),
}


def tile_label(name: str) -> str:
    """A Maatatahay tile's name in the reader's language (an unknown one as it is)."""
    label = _TILES.get(name)
    return str(label) if label is not None else name


def decision_kind_label(kind: str) -> str:
    label = DECISION_KINDS.get(kind)
    return str(label) if label is not None else kind


# The list punctuation of the languages whose script has its own: Arabic's comma and semicolon.
_PUNCTUATION = {"ar": {", ": "، ", "; ": "؛ "}}


def joined(parts: Iterable[str], separator: str = ", ") -> str:
    """``parts`` joined with ``separator`` (", " or "; ") as the active language writes it:
    Arabic with its own comma and semicolon ("، ", "؛ ")."""
    language = (get_language() or "").split("-")[0]
    return _PUNCTUATION.get(language, {}).get(separator, separator).join(parts)


def _crystals(energy: int, spirit: int) -> str:
    return gettext("%(energy)s Energy and %(spirit)s Spirit") % {"energy": energy, "spirit": spirit}


def move_in_words(kind: str, effects: Mapping[str, object]) -> str:
    """What a decision did, in a sentence for its player's opponent, from the engine's
    preview of it (``engine.GameRules.move_previews``: ``effects`` of the move as played,
    from the public table). "" for a kind of decision it does not know."""
    what = effects.get("type")
    if kind == GameKind.ONITAMA:
        card = str(effects.get("card", "")).replace("_", " ")
        if what == "pass":
            return gettext("no piece could move with %(card)s: they passed") % {"card": card}
        piece = _PIECES.get(str(effects.get("piece")), _("student"))
        values = {"card": card, "piece": piece, "from": effects.get("from"), "to": effects.get("to")}
        captures = effects.get("captures")
        if isinstance(captures, Mapping):
            values["captured"] = _PIECES.get(str(captures.get("piece")), _("student"))
            text = gettext("with %(card)s, their %(piece)s moved from %(from)s to %(to)s and took your %(captured)s")
        else:
            text = gettext("with %(card)s, their %(piece)s moved from %(from)s to %(to)s")
        return text % values
    if what == "pick":
        return gettext("took %(wazu)s for Wazu and %(balan)s for Balan from the stream") % {
            "wazu": tile_label(str(effects.get("wazu"))),
            "balan": tile_label(str(effects.get("balan"))),
        }
    if what == "first":
        return gettext("chose %(player)s to place first") % {"player": side_label(str(effects.get("player")))}
    if what == "draft":
        return gettext("placed a relic on %(square)s") % {"square": effects.get("square")}
    if what == "shrine":
        pay = effects.get("pay")
        pay = pay if isinstance(pay, Mapping) else {}
        return gettext("chose the Shrine on %(square)s, paying %(crystals)s") % {
            "square": effects.get("square"),
            "crystals": _crystals(int(str(pay.get("energy", 0))), int(str(pay.get("spirit", 0)))),
        }
    if what in ("place", "finish"):
        strength = effects.get("strength")
        total = strength.get("total") if isinstance(strength, Mapping) else None
        parts = [
            gettext("placed %(tile)s on %(square)s with Strength %(strength)s")
            % {"tile": tile_label(str(effects.get("tile"))), "square": effects.get("square"), "strength": total}
        ]
        deaths = effects.get("deaths")
        if isinstance(deaths, list) and deaths:
            dead = joined(
                "%s %s (%s)" % (side_label(str(d.get("tribe"))), tile_label(str(d.get("tile"))), d.get("square"))
                for d in deaths
                if isinstance(d, Mapping)
            )
            parts.append(gettext("warriors died: %(dead)s") % {"dead": dead})
        change = effects.get("score_change")
        if isinstance(change, Mapping):
            gains = joined(
                "%s %+d" % (side_label(str(side)), int(str(points))) for side, points in change.items() if points
            )
            if gains:
                parts.append(gettext("score %(change)s") % {"change": gains})
        return joined(parts, "; ")
    return ""
