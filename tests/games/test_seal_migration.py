"""Migration games 0007 seals the engine state of existing games and seals their seeds
again in the v2 format; it refuses running games it cannot read, and reverses."""

from __future__ import annotations

import importlib
import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

import engine
from engine import fair
from games import services
from games.models import Game
from maatasite.local_keys import PUBLISHED_DEVELOPMENT_KEY

pytestmark = pytest.mark.django_db(transaction=True)

migration = importlib.import_module("games.migrations.0007_seal_state")
BEFORE = [("games", "0006_bot_to_move_index")]
# Forward runs 0007 and every later migration of every app, those of other apps that depend
# on a later games migration included (going back to 0006 unapplied them too): the checks
# read with the current models, and the tests after these find the whole schema.
AFTER = MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes()


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    executor.loader.build_graph()
    return executor.loader.project_state(target).apps


def old_game(apps, *, v1_key: str, finished: bool = False):
    """A Maatatahay game as the previous version stored it: plain JSON state, v1 seed."""
    rules = engine.get_game("maatatahay")
    seed, salt = fair.new_seed(), fair.new_salt()
    options = {"variant": "standard"}
    state = rules.to_json(rules.new_game(seed, options))
    game = apps.get_model("games", "Game").objects.create(
        kind="maatatahay",
        options=options,
        state=state,
        seed_commitment=fair.commitment(salt, seed),
        sealed_seed=migration.v1_seal("%s:%d" % (salt.hex(), seed), v1_key),
        status="finished" if finished else "active",
        revealed_salt=salt.hex() if finished else "",
        revealed_seed=str(seed) if finished else "",
    )
    return game.pk, state, (salt.hex(), seed)


def test_existing_games_are_sealed_readable_and_the_migration_reverses(settings):
    settings.GAMES_SEAL_KEY = settings.SECRET_KEY  # the upgrade note: the key that sealed the games
    apps = migrate(BEFORE)
    upgraded = old_game(apps, v1_key=settings.SECRET_KEY)
    local = old_game(apps, v1_key=PUBLISHED_DEVELOPMENT_KEY)  # a local db.sqlite3 of an earlier version
    ended = old_game(apps, v1_key="a key nobody has any more", finished=True)
    try:
        migrate(AFTER)
        for pk, state, secret in (upgraded, local, ended):
            game = Game.objects.get(pk=pk)
            assert game.sealed_seed.startswith("v2:") and game.sealed_state.startswith("v2:")
            assert json.dumps(state["bag"]) not in game.sealed_state
            assert engine.get_game("maatatahay").to_json(services.game_state(game)) == state
            assert services.game_secret(game) == secret

        apps = migrate(BEFORE)
        for pk, state, (salt_hex, seed) in (upgraded, local, ended):
            game = apps.get_model("games", "Game").objects.get(pk=pk)
            assert game.state == state
            # sealed as the previous version reads it, with SECRET_KEY
            assert migration.v1_unseal(game.sealed_seed, settings.SECRET_KEY) == "%s:%d" % (salt_hex, seed)
    finally:
        migrate(AFTER)
    for pk, state, secret in (upgraded, local, ended):  # and forward again
        game = Game.objects.get(pk=pk)
        assert services.game_secret(game) == secret
        assert engine.get_game("maatatahay").to_json(services.game_state(game)) == state


def test_a_running_game_sealed_with_an_unknown_key_stops_the_migration_and_changes_nothing(settings):
    apps = migrate(BEFORE)
    pk, state, _secret = old_game(apps, v1_key="the SECRET_KEY the deployment forgot to keep")
    try:
        with pytest.raises(RuntimeError, match="set GAMES_SEAL_KEY to the SECRET_KEY"):
            migrate(AFTER)
        apps = migrate(BEFORE)
        kept = apps.get_model("games", "Game").objects.get(pk=pk)
        assert kept.state == state and kept.sealed_seed.startswith("v1:")
        kept.delete()
    finally:
        migrate(AFTER)
