"""REST endpoints of tournaments, for the API app to wire under /api/v1/tournaments/
(it owns the URLs): list, detail, standings (read by anyone), register and
withdraw (signed in, before the start). Built on api.base so that authentication,
scopes, rate limits and the error shape are the API's own; refusals are the
services' GameActionErrors (400/403/404/409 with code and message)."""
from __future__ import annotations

from typing import Any

from rest_framework.response import Response

from api.base import PublicReadView

from . import selectors, services
from .errors import NotFound
from .models import TournamentStatus


def _summary(tournament) -> dict[str, Any]:
    return {"id": tournament.pk, "name": tournament.name, "game": tournament.kind,
            "format": tournament.format, "status": tournament.status,
            "days_per_move": tournament.days_per_move, "rated": tournament.rated,
            "vacation_allowed": tournament.vacation_allowed,
            "swiss_rounds": tournament.swiss_rounds, "cycles": tournament.cycles,
            "registration_opens_at": tournament.registration_opens_at,
            "registration_closes_at": tournament.registration_closes_at,
            "min_players": tournament.min_players, "max_players": tournament.max_players,
            "rating_min": tournament.rating_min, "rating_max": tournament.rating_max,
            "started_at": tournament.started_at, "finished_at": tournament.finished_at}


def _visible(tournament_id: int):
    tournament = selectors.tournament_get(tournament_id=tournament_id)
    if tournament.status == TournamentStatus.DRAFT:
        raise NotFound("tournament_not_found")
    return tournament


class TournamentListView(PublicReadView):
    def get(self, request: Any) -> Response:
        return Response({"results": [_summary(t) for t in selectors.tournament_list()[:200]]})


class TournamentDetailView(PublicReadView):
    def get(self, request: Any, tournament_id: int) -> Response:
        _visible(tournament_id)
        detail = selectors.tournament_detail(tournament_id=tournament_id)
        data = _summary(detail["tournament"])
        data["planned_rounds"] = detail["planned_rounds"]
        data["registration_open"] = detail["registration_open"]
        data["players"] = [{"username": selectors.player_name(p.user), "seed": p.seed, "status": p.status}
                           for p in detail["participants"]]
        data["rounds"] = [{"number": number, "pairings": [
            {"board": p.board, "replay": p.leg, "first": selectors.player_name(p.first.user),
             "second": selectors.player_name(p.second.user) if p.second_id else None,
             "game": p.game_id, "result": p.result} for p in pairings]}
            for number, pairings in detail["rounds"]]
        return Response(data)


class TournamentStandingsView(PublicReadView):
    def get(self, request: Any, tournament_id: int) -> Response:
        _visible(tournament_id)
        return Response(selectors.tournament_standings_data(tournament_id=tournament_id))


class TournamentRegisterView(PublicReadView):
    def post(self, request: Any, tournament_id: int) -> Response:
        _visible(tournament_id)
        services.tournament_register(tournament_id=tournament_id, user=request.user)
        return Response({"registered": True}, status=201)


class TournamentWithdrawView(PublicReadView):
    def post(self, request: Any, tournament_id: int) -> Response:
        _visible(tournament_id)
        services.tournament_withdraw(tournament_id=tournament_id, user=request.user)
        return Response({"registered": False})
