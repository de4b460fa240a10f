"""Reading tournaments: lists, one tournament, standings, crosstable, bracket.

Standings are computed from the pairings' results on every read: points, then
Buchholz (the sum of the opponents' points), then Sonneborn-Berger (the points
of the opponents beaten plus half those of the opponents drawn), then the
head-to-head score among the players still tied, then the seed. A pairing
whose game was cancelled when the tournament ended early (Result.VOID) counts
for nobody, as if never paired.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from ratings.selectors import rating_for_player, ratings_by_user

from . import pairing as rules
from .errors import NotFound
from .models import (
    UNCOUNTED_RESULTS,
    Pairing,
    Participant,
    ParticipantStatus,
    Result,
    Round,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)

LISTED_STATUSES = (
    TournamentStatus.REGISTRATION,
    TournamentStatus.RUNNING,
    TournamentStatus.PAUSED,
    TournamentStatus.FINISHED,
)


def player_name(user: Any) -> str:
    """A player's name in the JSON of standings and brackets: the username, or
    "deleted player" for a deleted account (privacy.services.account_delete)."""
    return user.public_name if user.is_deleted else user.get_username()


def player_rating(*, user: Any, kind: str) -> float:
    """The player's current rating in ``kind`` (ratings app), for limits and seeding."""
    return rating_for_player(user=user, kind=kind).rating


def player_ratings(*, users: list[Any], kind: str) -> dict[int, float]:
    """Current ratings of many players in ``kind``, by user id."""
    return {pk: shown.rating for pk, shown in ratings_by_user(users=users, kind=kind).items()}


# The tournament pages show their lists a page at a time, as the lobby its games, so that each
# costs the same queries however many tournaments, players or pairings there are
# (tests/tournaments/test_listing_pages.py).
LIST_PAGE_SIZE = 50
STANDINGS_PAGE_SIZE = 50
PAIRINGS_PAGE_SIZE = 50


def tournament_list(*, statuses: tuple[str, ...] = LISTED_STATUSES) -> QuerySet[Tournament]:
    """Tournaments visible on the site (drafts are staff-only), newest first."""
    return Tournament.objects.filter(status__in=statuses).order_by("-created_at", "-pk")


def tournament_list_page(*, page: Any = 1, per_page: int | None = None) -> Page[Any]:
    """One page of the visible tournaments, newest first (a bad or out-of-range number: the nearest page)."""
    return Paginator(tournament_list(), per_page or LIST_PAGE_SIZE).get_page(page)


def tournament_get(*, tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise NotFound("tournament_not_found") from None


def tournament_participants(*, tournament: Tournament) -> list[Participant]:
    return list(tournament.participants.select_related("user").order_by("seed", "registered_at", "pk"))


def tournament_pairings(*, tournament: Tournament) -> list[Pairing]:
    return list(
        Pairing.objects.filter(tournament=tournament)
        .annotate(round_number=F("round__number"))
        .select_related("round", "first__user", "second__user", "game")
        .order_by("round__number", "board", "leg")
    )


def registration_is_open(tournament: Tournament, now: datetime | None = None) -> bool:
    """Status open and inside the registration window, when one is set."""
    now = now or timezone.now()
    if tournament.status != TournamentStatus.REGISTRATION:
        return False
    if tournament.registration_opens_at and now < tournament.registration_opens_at:
        return False
    if tournament.registration_closes_at and now >= tournament.registration_closes_at:
        return False
    return True


def planned_rounds(tournament: Tournament, player_count: int) -> int:
    """How many rounds the tournament has with ``player_count`` players."""
    if tournament.format == TournamentFormat.ROUND_ROBIN:
        return len(rules.berger_schedule(list(range(player_count)), cycles=tournament.cycles))
    if tournament.format == TournamentFormat.SWISS:
        return tournament.swiss_rounds or max(1, rules.knockout_rounds(player_count))
    return rules.knockout_rounds(player_count)


# ---------------------------------------------------------------- standings


@dataclass
class StandingRow:
    rank: int
    participant: Participant
    points: float
    buchholz: float
    sonneborn_berger: float
    head_to_head: float
    games: int
    wins: int
    draws: int
    losses: int
    byes: int
    withdrawn: bool


@dataclass
class _Tally:
    half_points: int = 0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    # (opponent id, my half points) per finished pairing against a player
    against: list[tuple[int, int]] = field(default_factory=list)


def _tallies(participants: list[Participant], pairings: list[Pairing]) -> dict[int, _Tally]:
    tallies = {p.pk: _Tally() for p in participants}
    for pairing in pairings:
        if pairing.result in UNCOUNTED_RESULTS:
            continue
        first_pts, second_pts = pairing.points
        if pairing.second_id is None:
            tallies[pairing.first_id].half_points += first_pts
            tallies[pairing.first_id].byes += 1
            continue
        for me, other, mine in (
            (pairing.first_id, pairing.second_id, first_pts),
            (pairing.second_id, pairing.first_id, second_pts),
        ):
            tally = tallies[me]
            tally.half_points += mine
            tally.against.append((other, mine))
            if pairing.game_id is not None:
                tally.games += 1
            if mine == 2:
                tally.wins += 1
            elif mine == 1:
                tally.draws += 1
            elif pairing.result != Result.DOUBLE_FORFEIT:
                tally.losses += 1
    return tallies


def standings_compute(participants: list[Participant], pairings: list[Pairing]) -> list[StandingRow]:
    """The standings table from participants and pairings (no queries)."""
    tallies = _tallies(participants, pairings)
    points = {pk: t.half_points for pk, t in tallies.items()}
    rows: list[tuple[Participant, _Tally, int, int, float]] = []  # (p, tally, half points, buchholz, s-b)
    for p in participants:
        tally = tallies[p.pk]
        buchholz = sum(points[o] for o, _mine in tally.against)
        sb = sum(points[o] * mine for o, mine in tally.against) / 2
        rows.append((p, tally, tally.half_points, buchholz, sb))
    rows.sort(key=lambda r: (-r[2], -r[3], -r[4]))
    # Head to head among players equal on the three scores.
    h2h: dict[int, int] = {}
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j][2:5] == rows[i][2:5]:
            j += 1
        group = {r[0].pk for r in rows[i:j]}
        for r in rows[i:j]:
            h2h[r[0].pk] = sum(mine for o, mine in r[1].against if o in group) if len(group) > 1 else 0
        i = j
    seed = {p.pk: (p.seed or 10**6, p.pk) for p in participants}
    rows.sort(key=lambda r: (-r[2], -r[3], -r[4], -h2h[r[0].pk], seed[r[0].pk]))
    result = []
    for rank, (p, tally, half, bh, sb) in enumerate(rows, start=1):
        result.append(
            StandingRow(
                rank=rank,
                participant=p,
                points=half / 2,
                buchholz=bh / 2,
                sonneborn_berger=sb / 2,
                head_to_head=h2h[p.pk] / 2,
                games=tally.games,
                wins=tally.wins,
                draws=tally.draws,
                losses=tally.losses,
                byes=tally.byes,
                withdrawn=p.status == ParticipantStatus.WITHDRAWN,
            )
        )
    return result


def tournament_standings(*, tournament: Tournament) -> list[StandingRow]:
    """Standings of a tournament, best first. In a knockout the players who went
    further come first (the champion, the finalist, ...), then by the usual scores."""
    rows = standings_compute(tournament_participants(tournament=tournament), tournament_pairings(tournament=tournament))
    if tournament.format != TournamentFormat.KNOCKOUT:
        return rows
    return _reached_order(rows, tournament_bracket(tournament=tournament))


def tournament_crosstable(*, tournament: Tournament) -> dict[str, Any]:
    """Round robin crosstable: rows in standings order, each cell the results against
    that opponent (from the row player's point of view)."""
    return _crosstable_of(tournament_standings(tournament=tournament), tournament_pairings(tournament=tournament))


def _crosstable_of(standings: list[StandingRow], pairings: list[Pairing]) -> dict[str, Any]:
    order = [row.participant.pk for row in standings]
    cells: dict[tuple[int, int], list[str]] = {}
    for pairing in pairings:
        if pairing.second_id is None or pairing.result in UNCOUNTED_RESULTS:
            continue
        a, b = pairing.points
        forfeit = "F" if "F" in pairing.result else ""
        cells.setdefault((pairing.first_id, pairing.second_id), []).append(_half(a) + forfeit)
        cells.setdefault((pairing.second_id, pairing.first_id), []).append(_half(b) + forfeit)
    rows = []
    for row in standings:
        rows.append(
            {
                "row": row,
                "cells": [
                    None if other == row.participant.pk else " ".join(cells.get((row.participant.pk, other), []))
                    for other in order
                ],
            }
        )
    return {"players": [row.participant for row in standings], "rows": rows}


def _half(half_points: int) -> str:
    return {0: "0", 1: "½", 2: "1"}[half_points]


@dataclass
class _SwissSoFar:
    """One participant's Swiss record while swiss_players reads the pairings."""

    score: int = 0
    opponents: set[int] = field(default_factory=set)
    bye: bool = False
    balance: int = 0
    last: int | None = None


def swiss_players(participants: list[Participant], pairings: list[Pairing]) -> list[rules.SwissPlayer]:
    """What Swiss pairing knows of each participant after ``pairings`` (in round order)."""
    info = {p.pk: _SwissSoFar() for p in participants}
    for pairing in pairings:  # in round order
        if pairing.result == Result.VOID:
            continue  # never played: the two may still meet
        a, b = pairing.points
        first = info.get(pairing.first_id)
        second = info.get(pairing.second_id) if pairing.second_id else None
        if first is not None:
            first.score += a
        if pairing.second_id is None:
            if first is not None:
                first.bye = True
            continue
        if second is not None:
            second.score += b
        for me, other, seat in ((first, pairing.second_id, 0), (second, pairing.first_id, 1)):
            if me is None:
                continue
            me.opponents.add(other)
            if pairing.game_id is not None:
                me.balance += 1 if seat == 0 else -1
                me.last = seat
    seeds = seeds_of(participants)
    return [
        rules.SwissPlayer(
            id=p.pk,
            score=info[p.pk].score,
            seed=seeds[p.pk],
            opponents=frozenset(info[p.pk].opponents),
            had_bye=info[p.pk].bye,
            seat_balance=info[p.pk].balance,
            last_seat=info[p.pk].last,
        )
        for p in participants
    ]


# ---------------------------------------------------------------- knockout


@dataclass
class BracketMatch:
    round: int
    board: int
    first: Participant | None
    second: Participant | None
    games: list[Pairing]
    winner: Participant | None


def match_results(legs: list[Pairing], first_id: int) -> list[str]:
    """The legs' results seen from ``first_id`` (the match's higher seed): win/loss/draw/""."""
    out = []
    for leg in legs:
        if leg.result in UNCOUNTED_RESULTS:
            out.append("")
            continue
        a, b = leg.points
        mine, theirs = (a, b) if leg.first_id == first_id else (b, a)
        out.append("win" if mine > theirs else "loss" if theirs > mine else "draw")
    return out


def match_winner(legs: list[Pairing], seed_of: dict[int, int]) -> int | None:
    """The participant id who advances from a knockout match, or None while it runs."""
    head = legs[0]
    if head.second_id is None:
        return head.first_id if head.result == Result.BYE else None
    return rules.knockout_match_winner(
        match_results(legs, head.first_id),
        head.first_id,
        head.second_id,
        seed_of,
        replayable=not legs[-1].end_adjudicated,
    )


def seeds_of(participants: Iterable[Participant]) -> dict[int, int]:
    """Each participant's seed number, for knockout ties (unseeded ones last)."""
    return {p.pk: p.seed or 10**6 for p in participants}


def tournament_bracket(*, tournament: Tournament) -> list[list[BracketMatch]]:
    """Knockout rounds, each a list of matches in bracket order."""
    return _bracket_of(tournament_participants(tournament=tournament), tournament_pairings(tournament=tournament))


def _standing_inputs(tournament: Tournament) -> tuple[list[Participant], list[Pairing]]:
    """The tournament's participants and pairings with only the columns the standings and the
    bracket read (no users, no games): two queries whatever the tournament's size."""
    participants = list(
        tournament.participants.only("pk", "tournament_id", "user_id", "seed", "status", "registered_at").order_by(
            "seed", "registered_at", "pk"
        )
    )
    rows = (
        Pairing.objects.filter(tournament=tournament)
        .annotate(round_number=F("round__number"))
        .only("pk", "round_id", "board", "leg", "first_id", "second_id", "game_id", "result", "end_adjudicated")
        .order_by("round__number", "board", "leg")
    )
    pairings: list[Pairing] = list(rows)
    return participants, pairings


def _with_users(participants: list[Participant]) -> None:
    """Give ``participants`` their users, read in one query."""
    users = get_user_model().objects.in_bulk([p.user_id for p in participants])
    for participant in participants:
        participant.user = users[participant.user_id]


def _reached_order(rows: list[StandingRow], bracket: list[list[BracketMatch]]) -> list[StandingRow]:
    """A knockout's standings: the players who went further first, then the usual scores."""
    reached: dict[int, int] = {}
    for matches in bracket:
        for match in matches:
            for player in (match.first, match.second):
                if player is not None:
                    reached[player.pk] = max(reached.get(player.pk, 0), 2 * match.round)
            if match.winner is not None:
                reached[match.winner.pk] = max(reached[match.winner.pk], 2 * match.round + 1)
    rows.sort(key=lambda row: (-reached.get(row.participant.pk, 0), row.rank))
    for rank, row in enumerate(rows, start=1):
        row.rank = rank
    return rows


def _bracket_of(participants: list[Participant], pairings: list[Pairing]) -> list[list[BracketMatch]]:
    by_pk = {p.pk: p for p in participants}
    seed_of = seeds_of(participants)
    by_match: dict[tuple[int, int], list[Pairing]] = {}
    for pairing in pairings:
        by_match.setdefault((pairing.round_number, pairing.board), []).append(pairing)  # type: ignore[attr-defined]
    rounds: dict[int, list[BracketMatch]] = {}
    for (number, board), legs in sorted(by_match.items()):
        winner = match_winner(legs, seed_of)
        rounds.setdefault(number, []).append(
            BracketMatch(
                round=number,
                board=board,
                first=by_pk.get(legs[0].first_id),
                second=by_pk.get(legs[0].second_id) if legs[0].second_id else None,
                games=legs,
                winner=by_pk.get(winner) if winner else None,
            )
        )
    return [rounds[n] for n in sorted(rounds)]


def tournament_page(*, tournament_id: int, user: Any, page: Any = 1, per_page: int | None = None) -> dict[str, Any]:
    """What the tournament page shows, in the same queries however large the tournament:
    one page of the standings (computed from every result, read without users or games),
    the users of that page only, the rounds as links to their pages (tournament_round_page),
    and, while every player fits on one page, the crosstable or the bracket."""
    per_page = per_page or STANDINGS_PAGE_SIZE
    tournament = tournament_get(tournament_id=tournament_id)
    participants, pairings = _standing_inputs(tournament)
    rows = standings_compute(participants, pairings)
    one_page = len(participants) <= per_page
    bracket = None
    if tournament.format == TournamentFormat.KNOCKOUT:
        bracket = _bracket_of(participants, pairings)
        rows = _reached_order(rows, bracket)
    standings_page = Paginator(rows, per_page).get_page(page)
    shown = list(standings_page.object_list)
    _with_users(participants if one_page else [row.participant for row in shown])
    rounds: dict[int, int] = {}
    for pairing in pairings:
        number = pairing.round_number  # type: ignore[attr-defined]
        rounds[number] = rounds.get(number, 0) + 1
    user_id = user.pk if getattr(user, "is_authenticated", False) else None
    detail: dict[str, Any] = {
        "tournament": tournament,
        "participant_count": len(participants),
        "standings": shown,
        "standings_page": standings_page,
        "rounds": sorted(rounds.items()),
        "planned_rounds": planned_rounds(tournament, len(participants)) if participants else 0,
        "registration_open": registration_is_open(tournament),
        "registered": user_id is not None and any(p.user_id == user_id for p in participants),
    }
    if one_page and tournament.format == TournamentFormat.ROUND_ROBIN:
        detail["crosstable"] = _crosstable_of(rows, pairings)
    if one_page and bracket is not None:
        detail["bracket"] = bracket
    return detail


def tournament_round_page(
    *, tournament_id: int, number: int, page: Any = 1, per_page: int | None = None
) -> dict[str, Any]:
    """One round of a tournament, its pairings (players, games, results) a page at a time."""
    tournament = tournament_get(tournament_id=tournament_id)
    try:
        round_ = Round.objects.get(tournament=tournament, number=number)
    except Round.DoesNotExist:
        raise NotFound("round_not_found") from None
    pairings = (
        Pairing.objects.filter(round=round_).select_related("first__user", "second__user").order_by("board", "leg")
    )
    pairings_page = Paginator(pairings, per_page or PAIRINGS_PAGE_SIZE).get_page(page)
    return {
        "tournament": tournament,
        "round": round_,
        "pairings": list(pairings_page.object_list),
        "pairings_page": pairings_page,
    }


def _whole(tournament: Tournament) -> tuple[list[Participant], list[Pairing]]:
    """Every participant (with its user) and every pairing (only the columns shown, its
    players linked to those participants): three queries whatever the tournament's size,
    and no game rows (their state is never needed here)."""
    participants, pairings = _standing_inputs(tournament)
    _with_users(participants)
    by_pk = {p.pk: p for p in participants}
    for pairing in pairings:
        pairing.first = by_pk[pairing.first_id]
        if pairing.second_id is not None:
            pairing.second = by_pk[pairing.second_id]
    return participants, pairings


# The API's tournament and its standings come a page at a time (page numbers, as the pages':
# ``page`` from 1, ``page_size`` up to API_PAGE_SIZE_MAX), so that no answer grows with the
# players or pairings there are (tests/tournaments/test_listing_pages.py counts the queries).
API_PAGE_SIZE = 50
API_PAGE_SIZE_MAX = 100


@dataclass(frozen=True)
class ApiPage:
    """Page ``number`` of ``size`` items; ``pages``: how many pages the longest list fills."""

    number: int
    size: int
    pages: int = 1

    @property
    def start(self) -> int:
        return (self.number - 1) * self.size

    @property
    def stop(self) -> int:
        return self.number * self.size


def _pages(size: int, *counts: int) -> int:
    return max(1, *((count + size - 1) // size for count in counts))


def tournament_detail(*, tournament_id: int, page: int = 1, per_page: int | None = None) -> dict[str, Any]:
    """What the API's tournament shows, one page at a time: the tournament, page ``page`` of
    its players (seed order) and page ``page`` of its pairings (round, board and replay order,
    grouped by round), with the counts of both; in a constant number of queries however large
    the tournament (tests/tournaments/test_listing_pages.py)."""
    size = per_page or API_PAGE_SIZE
    tournament = tournament_get(tournament_id=tournament_id)
    players = tournament.participants.order_by("seed", "registered_at", "pk")
    pairings = Pairing.objects.filter(tournament=tournament)
    player_count, pairing_count = players.count(), pairings.count()
    shown = ApiPage(number=page, size=size, pages=_pages(size, player_count, pairing_count))
    page_ids = list(players.values_list("pk", flat=True)[shown.start : shown.stop])
    paired = list(
        pairings.annotate(round_number=F("round__number")).order_by("round__number", "board", "leg", "pk")[
            shown.start : shown.stop
        ]
    )
    # The page's players and the pairings' in one query, then their users, by key (a join to
    # the users lets the planner hash the whole accounts table): the same queries on every page.
    wanted = set(page_ids) | {pk for pairing in paired for pk in (pairing.first_id, pairing.second_id) if pk}
    by_pk = {p.pk: p for p in Participant.objects.filter(pk__in=wanted).order_by()}
    _with_users(list(by_pk.values()))
    participants = [by_pk[pk] for pk in page_ids]
    rounds: dict[int, list[Pairing]] = {}
    for pairing in paired:
        pairing.first = by_pk[pairing.first_id]
        if pairing.second_id is not None:
            pairing.second = by_pk[pairing.second_id]
        rounds.setdefault(pairing.round_number, []).append(pairing)
    return {
        "tournament": tournament,
        "participants": participants,
        "player_count": player_count,
        "pairing_count": pairing_count,
        "rounds": sorted(rounds.items()),
        "planned_rounds": planned_rounds(tournament, player_count) if player_count else 0,
        "registration_open": registration_is_open(tournament),
        "page": shown,
    }


def tournament_standings_page(*, tournament_id: int, page: int = 1, per_page: int | None = None) -> dict[str, Any]:
    """What the standings endpoint and the standings.json page show: the tournament, the
    rounds started so far, page ``page`` of the standings rows (ranked from every result),
    and a knockout's bracket matches of the same page (round and board order; tournaments/
    serializers.py shapes it), in a constant number of queries. ``per_page`` 0: every row."""
    tournament = tournament_get(tournament_id=tournament_id)
    participants, pairings = _whole(tournament)
    rows = standings_compute(participants, pairings)
    size = (len(rows) or 1) if per_page == 0 else (per_page or API_PAGE_SIZE)
    result: dict[str, Any] = {
        "tournament": tournament,
        "current_round": Round.objects.filter(tournament=tournament).count(),
        "player_count": len(rows),
    }
    matches: list[BracketMatch] = []
    if tournament.format == TournamentFormat.KNOCKOUT:
        bracket = _bracket_of(participants, pairings)
        rows = _reached_order(rows, bracket)
        matches = [match for matches_of_round in bracket for match in matches_of_round]
        result["match_count"] = len(matches)
    shown = ApiPage(number=page, size=size, pages=_pages(size, len(rows), len(matches)))
    result["page"] = shown
    result["standings"] = rows[shown.start : shown.stop]
    if tournament.format == TournamentFormat.KNOCKOUT:
        by_round: dict[int, list[BracketMatch]] = {}
        for match in matches[shown.start : shown.stop]:
            by_round.setdefault(match.round, []).append(match)
        result["bracket"] = [by_round[n] for n in sorted(by_round)]
    return result


def user_is_registered(*, tournament: Tournament, user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and tournament.participants.filter(user=user).exists()


def knockout_replays_due(*, round_: Round) -> list[Pairing]:
    """The last legs of the round's knockout matches that ended without a winner (a draw):
    each is replayed with the seats swapped (tournaments.services.tournament_advance)."""
    seed_of = {
        pk: seed
        for pk, seed in Participant.objects.filter(tournament_id=round_.tournament_id, seed__isnull=False).values_list(
            "pk", "seed"
        )
        if seed is not None
    }
    by_board: dict[int, list[Pairing]] = {}
    for pairing in round_.pairings.select_related("first__user", "second__user").order_by("board", "leg"):
        by_board.setdefault(pairing.board, []).append(pairing)
    due = []
    for legs in by_board.values():
        last = legs[-1]
        if last.second_id is None or last.result == Result.PENDING:
            continue
        if match_winner(legs, seed_of) is None:
            due.append(last)
    return due


def tournaments_advance_due(*, before: datetime) -> list[int]:
    """Ids of the running tournaments that ``tournament_advance`` would move on (pair round 1
    or the next round, replay a drawn knockout match, or finish) and that saw nothing happen
    since ``before`` (no start, round or game end): the task doing it was lost with a killed
    worker. Running tournaments are few; each costs a few indexed reads."""
    rounds = Round.objects.filter(tournament=OuterRef("pk")).order_by("-number")
    last_game_end = (
        Pairing.objects.filter(tournament=OuterRef("pk"), game__finished_at__isnull=False)
        .order_by("-game__finished_at")
        .values("game__finished_at")[:1]
    )
    candidates = (
        Tournament.objects.filter(status=TournamentStatus.RUNNING, started_at__lt=before)
        .annotate(
            last_number=Subquery(rounds.values("number")[:1]),
            last_round_at=Subquery(rounds.values("created_at")[:1]),
            last_game_end=Subquery(last_game_end),
        )
        .filter(
            Q(last_round_at__isnull=True) | Q(last_round_at__lt=before),
            Q(last_game_end__isnull=True) | Q(last_game_end__lt=before),
        )
        .annotate(
            waiting=Exists(
                Pairing.objects.filter(
                    tournament=OuterRef("pk"), round__number=OuterRef("last_number"), result=Result.PENDING
                )
            )
        )
        .order_by("pk")
    )
    due = []
    for tournament in candidates.only("pk", "format"):
        if not tournament.waiting:
            due.append(tournament.pk)
        elif tournament.format == TournamentFormat.KNOCKOUT:
            last = Round.objects.get(tournament=tournament, number=tournament.last_number)
            if knockout_replays_due(round_=last):
                due.append(tournament.pk)
    return due
