"""Whole games of both kinds played through the API alone, as two phone apps would:
poll the events feed, load the game, pick one of the legal moves it lists, submit it
with the ply seen and an Idempotency-Key (and retry some submissions).

Every response of the Maatatahay game is checked for any trace of the hidden order
(the face-down tile piles, the bag), and for the seed and salt before the end.
"""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest

from games import services
from games.models import Game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]

MAX_ROUNDS = 2000


class HiddenOrderWatch:
    """Remembers every hidden order the server held and every response body sent."""

    def __init__(self) -> None:
        self.needles: set[str] = set()  # hidden order: never in any response
        self.secrets: set[str] = set()  # seed, salt, sealed seed: not before the end
        self.bodies: list[tuple[str, bool]] = []  # (text, game over when sent)
        self.game_id: int | None = None

    def observe(self, game_id: int) -> None:
        self.game_id = game_id
        game = Game.objects.get(pk=game_id)
        state: dict[str, Any] = services.rules_for(game.kind).to_json(services.game_state(game))
        sequences = [list(pile) for pile in (state.get("piles") or {}).values()]
        sequences.append(list(state.get("bag") or []))
        for seq in sequences:
            for size in (len(seq), 3):
                part = seq[:size]
                if len(part) >= 3:
                    self.needles.add(json.dumps(part))
                    self.needles.add(json.dumps(part, separators=(",", ":")))
                    self.needles.add(",".join(part))
        if game.is_active:
            salt_hex, seed = services.game_secret(game)
            self.secrets.update({str(seed), salt_hex, game.sealed_seed})

    def record(self, response) -> None:
        over = self.game_id is not None and not Game.objects.get(pk=self.game_id).is_active
        self.bodies.append((response.content.decode(), over))

    def check(self) -> int:
        """Check every recorded body; returns how many."""
        for text, over in self.bodies:
            for needle in self.needles | (set() if over else self.secrets):
                assert needle not in text, "hidden information %r left the server" % needle[:60]
            if text:
                _no_hidden_keys(json.loads(text))
        return len(self.bodies)


def _no_hidden_keys(data) -> None:
    if isinstance(data, dict):
        assert "piles" not in data and "sealed_seed" not in data and "state" not in data
        if "bag" in data:
            assert not isinstance(data["bag"], list), "the bag's order left the server"
        for value in data.values():
            _no_hidden_keys(value)
    elif isinstance(data, list):
        for value in data:
            _no_hidden_keys(value)


class App:
    """One player's phone app: it knows only what the API tells it."""

    def __init__(self, client, rng: random.Random, watch: HiddenOrderWatch | None) -> None:
        self.client, self.rng, self.watch = client, rng, watch
        self.cursor: str | None = None
        self.etags: dict[str, str] = {}
        self.finished: set[int] = set()
        self.decisions = 0

    def get(self, url: str, **params):
        headers = {"HTTP_IF_NONE_MATCH": self.etags[url]} if url in self.etags and not params else {}
        response = self.client.get(url, params or None, **headers)
        assert response.status_code in (200, 304), response.content
        if response.status_code == 200:
            self.etags[url] = response["ETag"]
        self._seen(response)
        return response

    def _seen(self, response) -> None:
        if self.watch is not None:
            self.watch.record(response)

    def poll(self) -> list[dict]:
        page = self.get("/api/v1/events/", **({"after": self.cursor} if self.cursor else {})).json()
        self.cursor = page["cursor"]
        return page["events"]

    def play_turn(self, game_id: int) -> None:
        url = "/api/v1/games/%d/" % game_id
        loaded = self.client.get(url)
        self._seen(loaded)
        game = loaded.json()
        while game["your_turn"]:
            assert game["legal_moves"], "the player to move must be offered legal moves"
            choice = self.rng.choice(game["legal_moves"])
            data = {"move": choice["text"], "ply": game["ply"]}
            key = str(uuid.uuid4())
            answer = self.client.post(url + "moves/", data, format="json", HTTP_IDEMPOTENCY_KEY=key)
            self._seen(answer)
            assert answer.status_code == 201, answer.content
            if self.rng.random() < 0.1:  # a lost answer: the app sends the same request again
                retry = self.client.post(url + "moves/", data, format="json", HTTP_IDEMPOTENCY_KEY=key)
                self._seen(retry)
                assert retry.status_code == 201 and retry.json() == answer.json()
            self.decisions += 1
            game = answer.json()["game"]
            if self.watch is not None:
                self.watch.observe(game_id)

    def react(self) -> None:
        for event in self.poll():
            if event["kind"] == "game_over":
                self.finished.add(event["game_id"])
            elif event["kind"] == "your_turn" or (event["kind"] == "game_started" and event["data"]["your_turn"]):
                self.play_turn(event["game_id"])


def play_whole_game(challenger: App, opponent: App, kind: str, options: dict) -> dict:
    made = challenger.client.post(
        "/api/v1/challenges/", {"kind": kind, "opponent": "bob", "options": options, "days_per_move": 14}, format="json"
    )
    assert made.status_code == 201
    received = [e for e in opponent.poll() if e["kind"] == "challenge_received"]
    assert [e["challenge_id"] for e in received] == [made.json()["id"]]
    accepted = opponent.client.post("/api/v1/challenges/%d/accept/" % received[0]["challenge_id"])
    game_id = accepted.json()["id"]
    if challenger.watch is not None:
        challenger.watch.observe(game_id)
        opponent._seen(accepted)
    for _ in range(MAX_ROUNDS):
        challenger.react()
        opponent.react()
        if game_id in challenger.finished and game_id in opponent.finished:
            break
    else:
        pytest.fail("the game did not finish through the API")
    final = challenger.get("/api/v1/games/%d/" % game_id).json()
    assert final["status"] == "finished" and final["result"]["reason"]
    assert final["ply"] == len(final["moves"]) == challenger.decisions + opponent.decisions
    return final


def test_a_whole_onitama_game_through_the_api(alice_api, bob_api):
    rng = random.Random(11)
    final = play_whole_game(App(alice_api, rng, None), App(bob_api, rng, None), "onitama", {"cards": "base"})
    assert final["result"]["winner_side"] in ("red", "blue", None)
    assert final["fairness"]["revealed_seed"]


def test_a_whole_maatatahay_game_through_the_api_never_shows_the_hidden_order(alice_api, bob_api):
    rng, watch = random.Random(5), HiddenOrderWatch()
    final = play_whole_game(App(alice_api, rng, watch), App(bob_api, rng, watch), "maatatahay", {"variant": "standard"})
    assert final["result"]["scores"] is not None
    checked = watch.check()
    assert checked > final["ply"] and len(watch.needles) > 3 and watch.secrets
    assert any(over for _text, over in watch.bodies) and not all(over for _text, over in watch.bodies)
