"""Invariants a finished (or running) tournament must satisfy, checked from the
database; used by the simulate_tournament command and the tests."""

from __future__ import annotations

import itertools
from collections import Counter

from games.models import GameStatus

from . import pairing as rules
from .models import Pairing, Participant, Result, Tournament, TournamentFormat, TournamentStatus
from .selectors import match_winner, seeds_of, swiss_players


def tournament_invariant_errors(*, tournament: Tournament) -> list[str]:
    """Every broken pairing invariant, as text (empty when all hold)."""
    errors: list[str] = []
    seeded = list(tournament.participants.filter(seed__isnull=False).order_by("seed"))
    ids = [p.pk for p in seeded]
    pairings = list(
        Pairing.objects.filter(tournament=tournament)
        .select_related("round", "game")
        .order_by("round__number", "board", "leg")
    )
    games = [p.game_id for p in pairings if p.game_id is not None]
    if len(games) != len(set(games)):
        errors.append("a game belongs to two pairings")
    if tournament.status == TournamentStatus.FINISHED:
        if any(p.result == Result.PENDING for p in pairings):
            errors.append("finished with a pairing still pending")
        if any(p.game is not None and p.game.status == GameStatus.ACTIVE for p in pairings):
            errors.append("finished with a game still running")
    seats_ok = all(
        p.game is None
        or list(p.game.seats.order_by("position").values_list("user_id", flat=True))
        == [p.first.user_id, p.second.user_id if p.second else None]
        for p in pairings
    )
    if not seats_ok:
        errors.append("a game's seats differ from its pairing")
    rounds: dict[int, list[Pairing]] = {}
    for p in pairings:
        rounds.setdefault(p.round.number, []).append(p)
    for number, round_pairings in rounds.items():
        seen: Counter[int] = Counter()
        for p in round_pairings:
            if p.leg == 0:
                seen[p.first_id] += 1
                if p.second_id:
                    seen[p.second_id] += 1
        if any(count > 1 for count in seen.values()):
            errors.append("round %d: a player is paired twice" % number)
    if tournament.format == TournamentFormat.ROUND_ROBIN:
        met = Counter(frozenset((p.first_id, p.second_id)) for p in pairings)
        expected = {frozenset(pair) for round_ in rules.berger_schedule(ids) for pair in round_}
        if tournament.ended_early:
            # Stopped part way: only scheduled pairs met, none too often.
            if not set(met) <= expected or any(c > tournament.cycles for c in met.values()):
                errors.append("round robin: pairs meet more than %d time(s)" % tournament.cycles)
        elif set(met) != expected or any(c != tournament.cycles for c in met.values()):
            errors.append("round robin: pairs do not meet exactly %d time(s)" % tournament.cycles)
        balance: Counter[int | None] = Counter()
        for p in pairings:
            balance[p.first_id] += 1
            balance[p.second_id] -= 1
        if not tournament.ended_early and any(abs(v) > tournament.cycles % 2 for v in balance.values()):
            errors.append("round robin: seats unbalanced")
    elif tournament.format == TournamentFormat.SWISS:
        errors += _swiss_errors(rounds)
    else:
        errors += _knockout_errors(tournament, rounds, seeded)
    return errors


def _swiss_errors(rounds: dict[int, list[Pairing]]) -> list[str]:
    errors = []
    history: list[Pairing] = []
    for number in sorted(rounds):
        current = rounds[number]
        players_in_round = {p.first_id for p in current} | {p.second_id for p in current if p.second_id}
        participants = list(_participants_of(current))
        state = {s.id: s for s in swiss_players(participants, history)}
        byes = [p.first_id for p in current if p.second_id is None]
        if len(byes) > 1 or (len(byes) == 1) != (len(players_in_round) % 2 == 1):
            errors.append("round %d: wrong number of byes" % number)
        for bye in byes:
            if state[bye].had_bye and any(not s.had_bye for s in state.values()):
                errors.append("round %d: a second bye while others had none" % number)
        rematches = [p for p in current if p.second_id and p.second_id in state[p.first_id].opponents]
        if rematches and rules.rematch_avoidable(
            [s for pid, s in state.items() if pid in players_in_round], byes[0] if byes else None
        ):
            errors.append("round %d: an avoidable rematch" % number)
        history += current
    return errors


def _participants_of(pairings: list[Pairing]) -> list[Participant]:
    seen: dict[int, Participant] = {}
    for p in pairings:
        seen[p.first_id] = p.first
        if p.second is not None:
            seen[p.second.pk] = p.second
    seeds = seeds_of(seen.values())
    return sorted(seen.values(), key=lambda p: seeds[p.pk])


def _knockout_errors(tournament: Tournament, rounds: dict[int, list[Pairing]], seeded) -> list[str]:
    errors = []
    seed_of = seeds_of(seeded)
    size = rules.knockout_size(len(seeded))
    first_round = [p for p in rounds.get(1, []) if p.leg == 0]
    byes = [p for p in first_round if p.second_id is None]
    if len(byes) != size - len(seeded):
        errors.append("knockout: %d byes for %d players" % (len(byes), len(seeded)))
    if byes and max(seed_of[p.first_id] for p in byes) != len(byes):
        errors.append("knockout: the byes are not the top seeds")
    for number, pairings in rounds.items():
        matches: dict[int, list[Pairing]] = {}
        for p in pairings:
            matches.setdefault(p.board, []).append(p)
        for board, legs in matches.items():
            if len(legs) > 1 + rules.KNOCKOUT_MAX_REPLAYS:
                errors.append("knockout: more than two replays")
            for earlier, later in itertools.pairwise(legs):
                if (later.first_id, later.second_id) != (earlier.second_id, earlier.first_id):
                    errors.append("knockout: a replay without swapped seats")
            if (
                tournament.status == TournamentStatus.FINISHED
                and not tournament.ended_early
                and match_winner(legs, seed_of) is None
                and legs[0].second_id is not None
                and not all(leg.result == Result.DOUBLE_FORFEIT for leg in legs)
            ):
                errors.append("knockout: round %d board %d has no winner" % (number, board))
    if tournament.status == TournamentStatus.FINISHED and not tournament.ended_early and rounds:
        last = rounds[max(rounds)]
        if len({p.board for p in last}) != 1:
            errors.append("knockout: the last round is not a single final")
    return errors
