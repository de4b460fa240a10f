"""Pages of the games app: home, lobby, game page with its actions, history.

Actions are POST forms that call games.services and redirect back (PRG).
A refused action re-renders the page with the translated message and the
error's HTTP status (409 for a stale or repeated move). Clients that want JSON
use the REST API (api/); the only JSON here is the status a page polls and the
move previews of one square the board asks for (for the player to move only).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import selectors as account_selectors
from accounts.http import AuthenticatedHttpRequest
from accounts.middleware import reads_no_user
from engine.records import record_to_json, record_to_text
from maatasite.date_formats import datetime_format
from maatasite.reverse_once import reverse_once

from . import archive, conditional, selectors, services
from . import records as game_records
from .boards import board_svg, extras_svg, hot_tile
from .errors import GameActionError
from .forms import ArchiveFilterForm, ChallengeForm, MoveForm, SoloForm
from .labels import reason_label, result_text, side_label
from .models import Challenge, Game, GameKind
from .rules import LegalMove
from .templatetags.games_tags import game_result_for, opponents_of, timeleft, variant_name

VERIFY_COMMAND = "python -m engine reveal %(kind)s --seed %(seed)s%(options)s"


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html")


def rules(request: HttpRequest) -> HttpResponse:
    """The site's rules (fair play, time, conduct) and a summary of both games' rules."""
    return render(request, "games/rules.html")


@login_required
def lobby(
    request: AuthenticatedHttpRequest,
    *,
    challenge_form: ChallengeForm | None = None,
    solo_form: SoloForm | None = None,
    status: int = 200,
) -> HttpResponse:
    game_ids = selectors.player_game_ids(user=request.user)  # read once for both lists
    games = selectors.games_for_lobby_page(user=request.user, page=request.GET.get("page"), game_ids=game_ids)
    history = selectors.games_history(user=request.user, limit=10, game_ids=game_ids)
    context = {
        "games": games.rows,
        "game_rows_html": _lobby_rows_html(games.rows),
        "games_page": games.page,
        "challenges": selectors.challenges_for_lobby(user=request.user),
        "history": history,
        "history_html": _lobby_history_html(history, request.user),
        "challenge_form_html": _form_html(challenge_form, ChallengeForm, "challenge"),
        "solo_form_html": _form_html(solo_form, SoloForm, "solo"),
    }
    return render(request, "games/lobby.html", context, status=status)


# The addresses of a game that its page links (games:<name> with the game's id), reversed once
# per process with a sentinel id (maatasite.reverse_once), then the id put in.
_GAME_URL_NAMES = ("game", "status", "move", "moves", "draw_accept", "draw_decline", "draw_offer", "abort", "resign")
_URL_SENTINEL = "987654321"


def _game_url_pattern(name: str) -> str:
    return reverse_once("games:" + name, int(_URL_SENTINEL))


def game_urls(game_id: int) -> dict[str, str]:
    """The game's addresses that its page links, by name (``game_urls.status`` in a template
    for ``{% url 'games:status' game.pk %}``)."""
    text = str(game_id)
    return {name: _game_url_pattern(name).replace(_URL_SENTINEL, text) for name in _GAME_URL_NAMES}


def _game_urls() -> Callable[[int], str]:
    """The game page's address for any game id, for a list that draws many."""
    url = _game_url_pattern("game")
    return lambda game_id: url.replace(_URL_SENTINEL, str(game_id))


def _lobby_rows_html(rows: list[selectors.LobbyGame]) -> SafeString:
    """The lobby's rows of running games (games/lobby.html): the game's link, variant, opponent
    and side, whose turn it is and the time left. Drawn here rather than by a template loop,
    whose nodes per row cost more than the rest of the lobby (bench/profile_game.py --lobby
    1000 --templates): the game's address is reversed once, not once per row, and each label
    (a kind, variant, side, turn or time left, translated) is looked up once for the rows
    that share it, not once per row (about 8 translations a row before)."""
    game_url = _game_urls()
    against, you_play = _("against %(opponent)s"), _("you play %(side)s")
    turn_badges = {
        True: format_html('<strong class="badge">{}</strong>', _("Your turn")),
        False: format_html('<span class="muted">{}</span>', _("Waiting for the opponent")),
    }
    labels: dict[tuple[Any, ...], str] = {}

    def label(key: tuple[Any, ...], make: Callable[..., Any], *args: Any) -> str:
        """The label of ``key``, ``make(*args)`` at its first row."""
        found = labels.get(key)
        if found is None:
            found = labels[key] = str(make(*args))
        return found

    items = []
    for row in rows:
        game = row.game
        kind = label(("kind", game.kind), game.get_kind_display)
        variant = label(("variant", game.kind, json.dumps(game.options or {}, sort_keys=True)), variant_name, game)
        side = label(("side", row.my_side), side_label, row.my_side)
        time_left = ""
        if row.time_left is not None:
            time_left = format_html(
                '<span class="time-left" title="{}">{}</span>',
                datetime_format(timezone.localtime(game.deadline)) if game.deadline else "",
                label(("left", *_timeleft_key(row.time_left)), timeleft, row.time_left),
            )
        items.append(
            format_html(
                '<li class="game-row{}" data-game="{}">\n      <a href="{}">{} #{}</a>\n'
                '<span class="variant">({})</span>\n{}\n({})\n      {}\n      {}\n    </li>\n',
                " my-turn" if row.my_turn else "",
                game.pk,
                game_url(game.pk),
                kind,
                game.pk,
                variant,
                against % {"opponent": row.opponent},
                you_play % {"side": side},
                turn_badges[bool(row.my_turn)],
                time_left,
            )
        )
    return mark_safe("".join(items))  # noqa: S308  # made of format_html's escaped parts


def _timeleft_key(left: Any) -> tuple[int, int]:
    """What :func:`timeleft`'s text depends on: time up, else whole days and hours, or whole
    minutes under a day (two times with one key read the same)."""
    seconds = int(left.total_seconds())
    if seconds <= 0:
        return (-1, 0)
    if seconds >= 3600:
        return (0, seconds // 3600)
    return (1, max(seconds // 60, 1))


def _lobby_history_html(games: list[Game], user: Any) -> SafeString:
    """The lobby's recent games (games/lobby.html): the game's link, the opponents, the result
    as ``user`` saw it and why the game ended; drawn here as the running games' rows are."""
    game_url = _game_urls()
    against = _("against %(opponent)s")
    items = [
        format_html(
            '<li><a href="{}">{} #{}</a>\n      {}:\n      {} <span class="muted">({})</span></li>\n',
            game_url(game.pk),
            game.get_kind_display(),
            game.pk,
            against % {"opponent": opponents_of(game, user)},
            game_result_for(game, user),
            reason_label(game.result_reason),
        )
        for game in games
    ]
    return mark_safe("".join(items))  # noqa: S308  # made of format_html's escaped parts


# The lobby's empty forms are the same for every player in one language (static choices and
# initial values), and drawing them through Django's form templates took about a sixth of
# the lobby (bench/profile_game.py --lobby 1000 --templates): each is drawn once per process
# and language. A form sent back with its errors is drawn as it is.
_EMPTY_FORMS_HTML: dict[tuple[str, str], str] = {}


def _form_html(form: forms.Form | None, empty: type[forms.Form], prefix: str) -> str:
    if form is not None:
        return form.as_p()
    key = (prefix, translation.get_language())
    html = _EMPTY_FORMS_HTML.get(key)
    if html is None:
        html = _EMPTY_FORMS_HTML[key] = empty(prefix=prefix).as_p()
    return html


def player_history(request: HttpRequest, username: str) -> HttpResponse:
    """A player's archive: their finished games, filtered by the GET form (games.archive).
    Public only for a player whose page is public (no deleted, suspended or unconfirmed
    account), as accounts.selectors.user_get_public decides. A filter with a bad value is
    left out, and the page says which."""
    player = account_selectors.user_get_public(username=username)
    if player is None:
        raise Http404(_("No such player."))
    form = ArchiveFilterForm(request.GET, tournaments=archive.archive_tournaments(player=player))
    form.is_valid()
    filters = form.archive_filters()
    games = archive.games_archive_page(player=player, filters=filters, page=request.GET.get("page"))
    kept = request.GET.copy()
    kept.pop("page", None)
    context = {
        "player": player,
        "games": games,
        "games_page": games,
        "form": form,
        "filtered": filters.any,
        "query": kept.urlencode(),
    }
    return render(request, "games/history.html", context)


def _verify_command(game: Game) -> str:
    options = "".join(" --%s %s" % (k, v) for k, v in sorted((game.options or {}).items()) if v is not None)
    return VERIFY_COMMAND % {"kind": game.kind, "seed": game.revealed_seed, "options": options}


def game_detail(
    request: HttpRequest,
    game_id: int,
    *,
    error: GameActionError | None = None,
    status: int = 200,
    typed: str = "",
    conditional_error: GameActionError | None = None,
) -> HttpResponse:
    ply_param = request.GET.get("ply")
    try:
        ply = int(ply_param) if ply_param not in (None, "") else None
    except ValueError:
        ply = None
    try:
        page = selectors.game_for_viewer(
            game_id=game_id, user=request.user, ply=ply, kept_keys=_page_kept_keys(request.user)
        )
    except Game.DoesNotExist:
        raise Http404(_("This game does not exist.")) from None
    request.game_shown = page.game  # type: ignore[attr-defined]  # for the banners (correspondence.context_processors)
    if WAITING_KEPT in page.kept_asked:  # the header's count, read with the position
        request.games_waiting_read = (WAITING_KEPT in page.kept, page.kept.get(WAITING_KEPT))  # type: ignore[attr-defined]
    context = game_page_context(page, error=error, typed=typed, requested_move=request.GET.get("move", ""))
    context.update(_conditional_context(page, conditional_error=conditional_error))
    response = render(request, "games/game.html", context, status=status)
    if page.kept_drawn:  # what this page drew of the board and the move list, kept at once
        cache.set_many(page.kept_drawn, selectors.POSITION_CACHE_SECONDS)
    return response


BOARD_KEPT, MOVE_LIST_KEPT, WAITING_KEPT = "board", "move_list", "games_waiting"


def _page_kept_keys(user: Any) -> Callable[[Game, int, Any], dict[str, str]]:
    """The cache keys of what a game page draws from the cache (its board, its move list, the
    header's count of games waiting for the player), read with the position in one round trip
    (selectors.game_for_viewer) instead of one each."""

    def keys(game: Game, shown: int, viewer_seat: Any) -> dict[str, str]:
        found = {
            BOARD_KEPT: _board_key(game, shown, viewer_seat),
            MOVE_LIST_KEPT: _move_list_key(game, shown),
        }
        if user.is_authenticated:
            found[WAITING_KEPT] = selectors.games_waiting_key(user.pk)
        return found

    return keys


def _conditional_context(page: selectors.GamePage, *, conditional_error: GameActionError | None) -> dict[str, Any]:
    """The viewer's own conditional lines (Onitama, the viewer's opponent to move): only on
    the page the viewer loads, never in the parts pushed to open pages (games/consumers.py)."""
    game, seat = page.game, page.viewer_seat
    if seat is None or not game.is_active or game.kind != GameKind.ONITAMA or not page.is_current:
        return {}
    if game.to_move_side == seat.side:
        return {}
    lines = [" ".join(line) for line in services.seat_conditional_lines(seat=seat)]
    return {
        "conditional": {
            "lines": lines,
            "error": conditional_error,
            "max_lines": conditional.MAX_LINES,
            "max_plies": conditional.MAX_PLIES,
            "entry": {
                "kind": game.kind,
                "position_url": reverse("games:conditional_position", args=[game.pk]),
                "saved": lines,
                "max_lines": conditional.MAX_LINES,
                "max_plies": conditional.MAX_PLIES,
                "labels": _conditional_entry_labels(),
            },
        }
    }


def _conditional_entry_labels() -> dict[str, Any]:
    """The texts of entering a line on the board (static/games/conditional.js): the board's
    controls (static/games/onitama.js) with the words for the opponent's ply and for the
    player's answer, and what the panel says between them."""
    common = {
        "move_with": _("Move with %(card)s"),
        "target": _("%(square)s, you can move here"),
        "selected": _("%(square)s, selected"),
        "pick_card": _("Both cards reach this square: choose the card to move with."),
    }
    return {
        "theirs": {
            **common,
            "pick_piece": _("Choose the piece your opponent may move, then a marked square."),
            "pick_square": _("Choose a marked square, or another of your opponent's pieces."),
            "must_pass": _("Your opponent cannot move: choose the card they would pass with."),
        },
        "mine": {
            **common,
            "pick_piece": _("Choose your answer: one of your pieces, then a marked square."),
            "pick_square": _("Choose a marked square, or another piece."),
            "must_pass": _("No move is possible: pass with one of your cards."),
        },
        "next_or_add": _("Add this line, or choose your opponent's next move on the board."),
        "full": _("The line is as long as it can be: add it."),
        "over_mine": _("The game would be over after your answer: add the line."),
        "over_theirs": _("The game would be over after your opponent's move: take it back."),
        "added": _("The line is added to the list: save the list to queue it."),
        "already": _("This line is already in the list."),
        "too_many": _("At most %(limit)s lines can be queued.") % {"limit": conditional.MAX_LINES},
        "remove": _("Remove"),
        "remove_line": _("Remove the line %(line)s"),
        "failed": _("The position could not be loaded. Try again."),
    }


def game_conditional_position(request: HttpRequest, game_id: int) -> JsonResponse:
    """Where a conditional line being entered on the board leads (``?line=`` its plies in
    notation, separated by spaces): the board and the cards as the page draws them for the
    viewer, and the legal moves of the side to move there, for the player who may queue
    lines now only (games.services.conditional_line_position; its refusals as JSON). The
    line is private: the answer is never stored or cached."""
    plies = conditional.line_split(request.GET.get("line", "")[:1000])
    try:
        found = services.conditional_line_position(game_id=game_id, user=request.user, plies=plies)
    except GameActionError as error:
        return JsonResponse(
            {"error": error.code, "message": error.message},
            status=error.status,
            headers={"Cache-Control": "private, no-store"},
        )
    game = found.game
    last = found.last.squares if found.last else ()
    body = {
        "line": found.line,
        "side": found.side,
        "to_move": found.to_move,
        "over": found.over,
        "full": len(found.line) >= conditional.MAX_PLIES,
        "board": str(board_svg(game.kind, found.view, flip=found.flip, last=last)),
        "extras": str(extras_svg(game.kind, found.view, flip=found.flip)),
        "moves": [{"text": move.text, "parts": move.parts} for move in found.moves],
    }
    return JsonResponse(body, headers={"Cache-Control": "private, no-store"})


def game_page_context(
    page: selectors.GamePage, *, error: GameActionError | None = None, typed: str = "", requested_move: str = ""
) -> dict[str, Any]:
    """What games/game.html and its parts need to show ``page`` to its viewer: the page's
    view, and the parts that games/consumers.py pushes to open pages after a change."""
    game = page.game
    flip = _board_flipped(page.viewer_seat)
    seats = page.seats_by_side
    if not typed and page.legal_moves:
        typed = requested_move.strip()[:200]  # a move chosen on the list page
    board, extras = _board_drawn(page)
    return {
        "page": page,
        "game": game,
        "flip": flip,
        "board": board,
        "extras": extras,
        "result_text": result_text(game, seats=seats, viewer_side=page.viewer_seat.side if page.viewer_seat else None),
        "rematch": selectors.rematch_for_viewer(game=game, viewer_seat=page.viewer_seat),
        "to_move_label": side_label(game.to_move_side),
        "seat_rows": [(side_label(s.side), s) for s in page.seats],
        "verify_command": _verify_command(game) if game.revealed_seed else "",
        "end_adjudication": selectors.end_adjudication_of(game),
        "error": error,
        "typed": typed,
        # the pushed move list draws its items; the page reads the list kept (games/game.html)
        "move_list_items": lambda: _move_list_items(page),
        "move_list_html": lambda: _move_list_drawn(page),
        "game_urls": game_urls(game.pk),
        **_move_form_context(page, typed),
    }


def _board_flipped(viewer_seat: Any) -> bool:
    """The board turned to the viewer: the second seat sees it from the other side."""
    return bool(viewer_seat and viewer_seat.position == 1)


def _board_key(game: Game, shown: int, viewer_seat: Any) -> str:
    side = viewer_seat.side if viewer_seat else "-"
    flip = _board_flipped(viewer_seat)
    return "%s:board:%s:%d:%s" % (selectors.position_key(game, shown), side, flip, translation.get_language())


def _kept_or_read(page: selectors.GamePage, name: str, key: str) -> Any:
    """The cache's value of ``key``: as read with the position when the page asked for it
    (None when missing), else read now."""
    if name in page.kept_asked:
        return page.kept.get(name)
    return cache.get(key)


def _keep(page: selectors.GamePage, name: str, key: str, value: Any) -> None:
    """Keep what was drawn for ``key``: with the page's other drawings after it is drawn when
    the page read it with the position (game_detail), else now (the parts pushed to open pages)."""
    if name in page.kept_asked:
        page.kept_drawn[key] = value
    else:
        cache.set(key, value, selectors.POSITION_CACHE_SECONDS)


def _board_drawn(page: selectors.GamePage) -> tuple[SafeString, SafeString]:
    """The board and what sits beside it, drawn once per position, viewer side, orientation
    and language (the spaces' names are translated), then kept in the cache with the position."""
    game = page.game
    flip = _board_flipped(page.viewer_seat)
    key = _board_key(game, page.shown_ply, page.viewer_seat)
    drawn = _kept_or_read(page, BOARD_KEPT, key)
    if drawn is None:
        last = page.last_move.squares if page.last_move else ()
        drawn = (
            str(board_svg(game.kind, page.view, flip=flip, last=last)),
            str(extras_svg(game.kind, page.view, flip=flip)),
        )
        _keep(page, BOARD_KEPT, key, drawn)
    return mark_safe(drawn[0]), mark_safe(drawn[1])  # noqa: S308  # the boards' own safe markup, kept as text


def _move_list_key(game: Game, shown: int) -> str:
    return "games:move-list:%d:%s:%d:%d:%s" % (
        game.pk,
        game.seed_commitment,
        game.ply,
        shown,
        translation.get_language(),
    )


def _move_list_drawn(page: selectors.GamePage) -> SafeString:
    """games/_move_list.html for the position shown, the same for every viewer: drawn once per
    game, ply, position shown and language, then kept in the cache."""
    key = _move_list_key(page.game, page.shown_ply)
    html = _kept_or_read(page, MOVE_LIST_KEPT, key)
    if html is None:
        html = render_to_string("games/_move_list.html", {"move_list_items": _move_list_items(page)})
        _keep(page, MOVE_LIST_KEPT, key, html)
    return mark_safe(html)  # noqa: S308  # the template's own output, kept as text


# At most this many moves that name no square are offered as buttons beside the board
# (Onitama's passes, Maatatahay's "first balan"); more are typed or chosen on the list.
CHOICE_BUTTONS_MAX = 12


def _move_choice_label(move: LegalMove) -> str:
    if move.parts.get("type") == "pass":
        return _("Pass with %(card)s") % {"card": str(move.parts.get("card", "")).replace("_", " ")}
    return move.text


def _move_form_context(page: selectors.GamePage, typed: str) -> dict[str, Any]:
    """What the move form and the board's scripts need (templates/games/_board_move_form.html):
    the legal moves with their parts as JSON data for the viewer to move only, the moves
    that name no square as buttons, and the texts the scripts show."""
    if not page.legal_moves:
        return {"move_data": None, "choice_moves": [], "move_example": ""}
    squareless = [move for move in page.legal_moves if not move.squares]
    choices = squareless if len(squareless) <= CHOICE_BUTTONS_MAX else []
    seat = page.viewer_seat
    labels = {
        "type_move": _("Type your move in notation, or choose it from the list of legal moves."),
        "pick_piece": _("Choose one of your pieces, then a marked square."),
        "pick_square": _("Choose a marked square, or another piece."),
        "pick_card": _("Both cards reach this square: choose the card to move with."),
        "must_pass": _("No move is possible: pass with one of your cards."),
        "move_with": _("Move with %(card)s"),
        "confirm": _("Confirm the move, or undo it."),
        "target": _("%(square)s, you can move here"),
        "selected": _("%(square)s, selected"),
    }
    move_data: dict[str, Any] = {
        "kind": page.game.kind,
        "ply": page.game.ply,
        "side": seat.side if seat else None,
        "moves": [{"text": move.text, "parts": move.parts} for move in page.legal_moves],
        "labels": labels,
    }
    if page.game.kind == "maatatahay":
        move_data["hot_tile"] = hot_tile(page.view, seat.side if seat else None)
        move_data["pending_square"] = page.view.get("pending")
        move_data["previews_url"] = reverse("games:previews", args=[page.game.pk])
        labels.update(_maatatahay_labels())
    return {
        "move_data": move_data,
        "choice_moves": [(move.text, _move_choice_label(move)) for move in choices],
        "move_example": page.legal_moves[0].text,
    }


def _maatatahay_labels() -> dict[str, str]:
    """The texts of the Maatatahay controls (static/games/maatatahay.js)."""
    return {
        "pick_pair": _("Choose a pair of the Tile Stream."),
        "pick_first": _("Choose who places first."),
        "pick_space": _("Choose a marked space."),
        "adjust": _("Rotate the tile, add crystals from storage, then confirm."),
        "pick_order": _("The settlement order changes the result: choose one."),
        "space_free": _("%(square)s, you can place here"),
        "space_selected": _("%(square)s, selected: choose again to rotate"),
        "pair": _("Pick this pair"),
        "rotate": _("Rotate"),
        "rotation": _("Rotation %(n)s"),
        "energy": _("Energy"),
        "spirit": _("Spirit"),
        "more": _("one more %(crystal)s"),
        "less": _("one less %(crystal)s"),
        "put": _("Put from storage"),
        "pay": _("Pay"),
        "order": _("Order %(order)s"),
        "loading": _("Computing the preview…"),
        "strength": _("Strength %(total)s (claws %(claws)s, support %(support)s, put %(put)s, ability %(ability)s)"),
        "collected": _("Collects %(energy)s energy and %(spirit)s spirit"),
        "deaths": _("Dies: %(list)s"),
        "no_deaths": _("No warrior dies"),
        "friend": _("friend"),
        "enemy": _("enemy"),
        "hot_dies": _("The placed tile dies"),
        "score_change": _("Score change: you %(mine)s, opponent %(theirs)s"),
        "favour": _("Then %(n)s crystals are drawn from the bag as the favour"),
        "relic_points": _("The relic scores %(n)s"),
    }


def game_previews(request: HttpRequest, game_id: int) -> JsonResponse:
    """The engine's previews of the legal moves on one square (``?square=c3``; with no
    square, the moves that name none), for the player to move only: the board asks for
    them when a square is chosen rather than the page carrying every preview. They come
    from the public table only (engine/maatatahay/preview.py)."""
    square = request.GET.get("square", "").strip()[:8]
    try:
        found = selectors.previews_for_viewer(game_id=game_id, user=request.user, square=square or None)
    except Game.DoesNotExist:
        raise Http404(_("This game does not exist.")) from None
    if found is None:
        return JsonResponse({"error": "not_your_move"}, status=403)
    return JsonResponse(
        {"ply": found.ply, "moves": [{"text": move.text, "preview": move.preview} for move in found.moves]},
        headers={"Cache-Control": "private, no-store"},
    )


RECORD_FORMATS = {"txt": "text/plain; charset=utf-8", "json": "application/json"}


def game_record_download(request: HttpRequest, game_id: int, form: str) -> HttpResponse:
    """The record of a game that is over, as a file (games/records.py; engine/records.py for
    the formats): ``record.txt`` the text record, ``record.json`` the JSON replay record. A
    running game answers 409: its seed is still secret."""
    if form not in RECORD_FORMATS:
        raise Http404(_("This page does not exist."))
    try:
        record, salt = game_records.game_record_get(game_id=game_id)
    except GameActionError as error:
        if error.status == 404:
            raise Http404(error.message) from None
        return HttpResponse(error.message, status=error.status, content_type="text/plain; charset=utf-8")
    if form == "txt":
        body = record_to_text(record)
    else:
        body = json.dumps(record_to_json(record, salt=salt), ensure_ascii=False, indent=1) + "\n"
    response = HttpResponse(body, content_type=RECORD_FORMATS[form])
    response["Content-Disposition"] = 'attachment; filename="maatasite-%s-%d.%s"' % (record.game, game_id, form)
    return response


@login_required
def record_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Import a game record (either format) to step through on an analysis board; a malformed
    record or an illegal move is refused (400) with its line, and the text is kept in the form."""
    error: GameActionError | None = None
    text = ""
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is not None:
            raw = upload.read(game_records.IMPORT_MAX_CHARS * 4 + 1)
            text = raw.decode("utf-8", errors="replace")
        else:
            text = request.POST.get("record", "")
        try:
            imported = game_records.record_import(owner=request.user, text=text)
        except GameActionError as refused:
            error = refused
        else:
            return redirect("games:imported", record_id=imported.pk)
    context = {
        "error": error,
        "text": text[: game_records.IMPORT_MAX_CHARS],
        "imports": game_records.imported_records_of(owner=request.user),
    }
    return render(request, "games/record_import.html", context, status=error.status if error else 200)


@login_required
def record_board(request: AuthenticatedHttpRequest, record_id: int) -> HttpResponse:
    """The analysis board of an imported record, at ``?ply=`` (the end by default)."""
    ply_param = request.GET.get("ply", "")
    ply = int(ply_param) if ply_param.isdigit() else None
    try:
        position = game_records.imported_record_position(record_id=record_id, owner=request.user, ply=ply)
    except GameActionError as error:
        raise Http404(error.message) from None
    kind = position.record.game
    last = position.last.squares if position.last else ()
    context = {
        "position": position,
        "kind_name": Game(kind=kind).get_kind_display(),
        "total": len(position.record.moves),
        "board": board_svg(kind, position.view, last=last),
        "extras": extras_svg(kind, position.view),
        "tags": sorted(position.record.tags.items(), key=lambda item: _TAG_ORDER.get(item[0], 99)),
        "moves": list(enumerate(position.record.moves, start=1)),
    }
    return render(request, "games/record_board.html", context)


_TAG_ORDER = {name: i for i, name in enumerate(["Event", "Site", "Date", "Round", "Game", "Result", "Reason"])}


MOVES_PER_PAGE = 50


def game_moves(request: HttpRequest, game_id: int) -> HttpResponse:
    """The legal moves of the player to move, as a paged list (the game page offers them on
    the board and by their notation); each links back to the game page with it chosen.
    Only the player to move sees them: they are that player's own view."""
    try:
        page = selectors.game_for_viewer(game_id=game_id, user=request.user)
    except Game.DoesNotExist:
        raise Http404(_("This game does not exist.")) from None
    square = request.GET.get("square", "").strip()
    moves = [move for move in page.legal_moves if not square or square in move.squares]
    paginator = Paginator(moves, MOVES_PER_PAGE)
    moves_page = paginator.get_page(request.GET.get("page"))
    rows = [
        {
            "text": move.text,
            "parts": sorted((k, v) for k, v in move.parts.items() if k != "type"),
            "kind": move.parts.get("type", ""),
            "href": "%s?%s#move-form" % (reverse("games:game", args=[game_id]), urlencode({"move": move.text})),
        }
        for move in moves_page
    ]
    return render(
        request,
        "games/moves.html",
        {
            "page": page,
            "game": page.game,
            "rows": rows,
            "moves_page": moves_page,
            "square": square,
            "total": len(page.legal_moves),
        },
    )


def _move_list_items(page: selectors.GamePage) -> SafeString:
    """The move list's turns (games/_move_list.html), one item per turn with a link per move to
    the position after it; empty before the first move. Drawn here rather than by a template
    loop: a game page that follows a move draws it anew, and the template's nodes per move cost
    more than the rest of the list."""
    rows: list[tuple[int, str, list[Any]]] = []
    for move in page.moves:
        if not rows or rows[-1][0] != move.turn:
            rows.append((move.turn, side_label(move.seat.side), []))
        rows[-1][2].append(move)
    if not rows:
        return SafeString("")
    title = _("ply %(ply)s")
    items = []
    for turn, side, moves in rows:
        links = ", ".join(
            format_html(
                '<a href="?ply={}" class="ply{}" title="{}">{}</a>',
                move.ply,
                " current" if move.ply == page.shown_ply else "",
                title % {"ply": move.ply},
                move.text,
            )
            for move in moves
        )
        items.append(
            format_html(
                '      <li value="{}"><span class="muted">{}</span>\n        {}\n      </li>\n',
                turn,
                side,
                mark_safe(links),  # noqa: S308  # made of format_html's escaped parts
            )
        )
    return mark_safe('<ol class="turns">\n%s    </ol>' % "".join(items))  # noqa: S308  # escaped parts


def _game_action(request: HttpRequest, game_id: int, action: Callable[[], Any], success: str) -> HttpResponse:
    try:
        action()
    except GameActionError as error:
        messages.error(request, error.message)
        return redirect("games:game", game_id=game_id)
    if success:
        messages.success(request, success)
    return redirect("games:game", game_id=game_id)


@reads_no_user
def game_status(request: HttpRequest, game_id: int) -> HttpResponse:
    """Public, cheap: what a page needs to know whether to reload (no state, no seed). Its
    ETag is its body's, so a poll that sends it back (If-None-Match) gets a bodiless 304
    while nothing changed. The same for every viewer and language: no session or user is read."""
    body = selectors.game_status_of(game_id=game_id)
    if body is None:
        raise Http404(_("This game does not exist."))
    etag = '"%s"' % hashlib.blake2b(json.dumps(body, sort_keys=True).encode(), digest_size=12).hexdigest()
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if etag in [tag.strip().removeprefix("W/") for tag in request.headers.get("If-None-Match", "").split(",")]:
        return HttpResponseNotModified(headers=headers)
    return JsonResponse(body, headers=headers)


@login_required
@require_POST
def game_move(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    form = MoveForm(request.POST)
    if not form.is_valid() or not form.move_text():
        error = GameActionError("empty_move", _("Please choose or type a move."))
        return game_detail(request, game_id, error=error, status=400)
    text = form.move_text()
    try:
        services.move_submit(
            game_id=game_id, user=request.user, move_text=text, expected_ply=form.cleaned_data["expected_ply"]
        )
    except GameActionError as error:
        return game_detail(request, game_id, error=error, status=error.status, typed=text)
    return redirect(reverse("games:game", args=[game_id]) + "#board")


@login_required
@require_POST
def game_conditional(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Replace the player's conditional lines: one line a row, plies separated by spaces."""
    rows = [row.strip() for row in request.POST.get("lines", "")[:10000].splitlines() if row.strip()]
    try:
        services.conditional_lines_set(game_id=game_id, user=request.user, lines=rows)
    except GameActionError as error:
        return game_detail(request, game_id, conditional_error=error, status=error.status)
    messages.success(
        request, _("Your conditional moves are saved.") if rows else _("Your conditional moves are cleared.")
    )
    return redirect(reverse("games:game", args=[game_id]) + "#conditional")


@login_required
@require_POST
def game_resign(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    return _game_action(
        request, game_id, lambda: services.game_resign(game_id=game_id, user=request.user), _("You resigned.")
    )


@login_required
@require_POST
def game_abort(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    return _game_action(
        request, game_id, lambda: services.game_abort(game_id=game_id, user=request.user), _("The game was aborted.")
    )


@login_required
@require_POST
def draw_offer(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    return _game_action(
        request, game_id, lambda: services.draw_offer(game_id=game_id, user=request.user), _("You offered a draw.")
    )


@login_required
@require_POST
def draw_accept(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    return _game_action(
        request,
        game_id,
        lambda: services.draw_accept(game_id=game_id, user=request.user),
        _("The game is drawn by agreement."),
    )


@login_required
@require_POST
def draw_decline(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    return _game_action(
        request, game_id, lambda: services.draw_decline(game_id=game_id, user=request.user), _("You declined the draw.")
    )


@login_required
@require_POST
def rematch_offer(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Offer a rematch (or accept the opponent's, or start it against the bot): the new game's
    page once it starts, else back to this game's page."""
    try:
        rematch = services.rematch_offer(game_id=game_id, user=request.user)
    except GameActionError as error:
        messages.error(request, error.message)
        return redirect("games:game", game_id=game_id)
    if rematch.game is not None:
        if rematch.created:
            messages.success(request, _("The rematch has started."))
        return redirect("games:game", game_id=rematch.game.pk)
    if rematch.created:
        messages.success(request, _("Your rematch offer is waiting for an answer."))
    return redirect("games:game", game_id=game_id)


@login_required
@require_POST
def challenge_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = ChallengeForm(request.POST, prefix="challenge")
    if not form.is_valid():
        return lobby(request, challenge_form=form, status=400)
    data = form.cleaned_data
    try:
        services.challenge_create(
            challenger=request.user,
            opponent=data["opponent"],
            kind=data["kind"],
            options=form.game_options(),
            days_per_move=data["days_per_move"],
            rated=data["rated"],
            seat_choice=data["seat_choice"],
        )
    except GameActionError as error:
        form.add_error(None, error.message)
        return lobby(request, challenge_form=form, status=error.status)
    messages.success(request, _("Your challenge is waiting for an answer."))
    return redirect("games:lobby")


def _challenge_action(request: HttpRequest, action: Callable[[], Any], success: str) -> HttpResponse:
    try:
        result = action()
    except GameActionError as error:
        messages.error(request, error.message)
        return redirect("games:lobby")
    messages.success(request, success)
    if isinstance(result, Game):
        return redirect("games:game", game_id=result.pk)
    if isinstance(result, Challenge) and result.rematch_of_id is not None:
        return redirect("games:game", game_id=result.rematch_of_id)  # answered on the game's page
    return redirect("games:lobby")


@login_required
@require_POST
def challenge_accept(request: AuthenticatedHttpRequest, challenge_id: int) -> HttpResponse:
    return _challenge_action(
        request,
        lambda: services.challenge_accept(challenge_id=challenge_id, user=request.user),
        _("The game has started."),
    )


@login_required
@require_POST
def challenge_decline(request: AuthenticatedHttpRequest, challenge_id: int) -> HttpResponse:
    return _challenge_action(
        request,
        lambda: services.challenge_decline(challenge_id=challenge_id, user=request.user),
        _("You declined the challenge."),
    )


@login_required
@require_POST
def challenge_cancel(request: AuthenticatedHttpRequest, challenge_id: int) -> HttpResponse:
    return _challenge_action(
        request,
        lambda: services.challenge_cancel(challenge_id=challenge_id, user=request.user),
        _("Your challenge was withdrawn."),
    )


@login_required
@require_POST
def solo_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = SoloForm(request.POST, prefix="solo")
    if not form.is_valid():
        return lobby(request, solo_form=form, status=400)
    data = form.cleaned_data
    try:
        game = services.game_create_solo(
            user=request.user,
            kind=data["kind"],
            bot_level=data["level"],
            side=data["seat_choice"],
            options=form.game_options(),
        )
    except GameActionError as error:
        form.add_error(None, error.message)
        return lobby(request, solo_form=form, status=error.status)
    return redirect("games:game", game_id=game.pk)
