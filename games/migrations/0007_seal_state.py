"""Seal the engine state of every game, and seal every seed again in the v2 format.

``Game.state`` (plain JSON, with Maatatahay's face-down piles and bag order) becomes
``Game.sealed_state`` (games/sealing.py, AES-GCM with ``GAMES_SEAL_KEY``). Seeds sealed in
the earlier ``v1`` format (an HMAC keystream keyed by ``GAMES_SEAL_KEY`` or, before it was
its own setting, by ``SECRET_KEY``) are read and sealed again as ``v2``:

* with the seal key now set (an upgrading deployment sets ``GAMES_SEAL_KEY`` to the
  ``SECRET_KEY`` it ran with);
* else, with the development key that was published in git (local databases made by
  earlier versions with ``DEBUG`` on), so that their running games go on, sealed from
  now on with the machine's own random key;
* a finished game's seed is sealed again from its revealed salt and seed.

A running game whose seed opens with neither key stops the migration, naming the games,
and changes nothing. Rows already sealed are left alone (re-running is harmless).
Reversing unseals the state back into ``state`` and seals the seeds in the v1 format with
``SECRET_KEY``, the key the previous version read.
"""

import hashlib
import hmac
import json
import secrets

from django.conf import settings
from django.db import migrations, models

from games.sealing import SealError, seal, unseal
from maatasite.local_keys import PUBLISHED_DEVELOPMENT_KEY

BATCH = 500


def _v1_keys(base: str) -> tuple[bytes, bytes]:
    root = hashlib.sha256(("maatasite-games-seal:" + str(base)).encode("utf-8")).digest()
    return (
        hmac.new(root, b"encrypt", hashlib.sha256).digest(),
        hmac.new(root, b"authenticate", hashlib.sha256).digest(),
    )


def _v1_keystream(key: bytes, nonce: bytes, length: int) -> bytes:
    out = bytearray()
    counter = 0
    while len(out) < length:
        out += hmac.new(key, nonce + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1
    return bytes(out[:length])


def v1_unseal(sealed: str, base: str) -> str | None:
    """The plaintext of a v1 sealed text keyed by ``base``, or None if it does not open."""
    enc, mac = _v1_keys(base)
    try:
        version, nonce_hex, cipher_hex, tag_hex = sealed.split(":")
        nonce, cipher, tag = bytes.fromhex(nonce_hex), bytes.fromhex(cipher_hex), bytes.fromhex(tag_hex)
    except ValueError:
        return None
    if version != "v1" or not hmac.compare_digest(tag, hmac.new(mac, nonce + cipher, hashlib.sha256).digest()):
        return None
    return bytes(a ^ b for a, b in zip(cipher, _v1_keystream(enc, nonce, len(cipher)), strict=True)).decode("utf-8")


def v1_seal(plaintext: str, base: str) -> str:
    enc, mac = _v1_keys(base)
    nonce = secrets.token_bytes(16)
    data = plaintext.encode("utf-8")
    cipher = bytes(a ^ b for a, b in zip(data, _v1_keystream(enc, nonce, len(data)), strict=True))
    tag = hmac.new(mac, nonce + cipher, hashlib.sha256).digest()
    return "v1:%s:%s:%s" % (nonce.hex(), cipher.hex(), tag.hex())


def _seed_text(game) -> str | None:
    """The "salt:seed" of a game whose seed is still sealed in v1, or None."""
    if game.revealed_salt and game.revealed_seed:
        return "%s:%s" % (game.revealed_salt, game.revealed_seed)
    for base in (settings.GAMES_SEAL_KEY, PUBLISHED_DEVELOPMENT_KEY):
        text = v1_unseal(game.sealed_seed, base)
        if text is not None:
            return text
    return None


def _is_v2(sealed: str, purpose: str) -> bool:
    try:
        unseal(sealed, purpose=purpose)
    except SealError:
        return False
    return True


def seal_games(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    games = Game.objects.using(schema_editor.connection.alias)
    unreadable, batch = [], []
    for game in (
        games.only("pk", "state", "sealed_state", "sealed_seed", "revealed_salt", "revealed_seed")
        .order_by("pk")
        .iterator(chunk_size=BATCH)
    ):
        if not _is_v2(game.sealed_seed, "seed"):
            text = _seed_text(game)
            if text is None:
                unreadable.append(game.pk)
                continue
            game.sealed_seed = seal(text, purpose="seed")
        if not game.sealed_state:
            game.sealed_state = seal(json.dumps(game.state, separators=(",", ":")), purpose="state")
        batch.append(game)
        if len(batch) >= BATCH:
            games.bulk_update(batch, ["sealed_seed", "sealed_state"])
            batch = []
    if unreadable:
        raise RuntimeError(
            "The sealed seeds of the running games %s open neither with GAMES_SEAL_KEY nor with the "
            "old development key: set GAMES_SEAL_KEY to the SECRET_KEY these games were made with "
            "(see README, Configuration) and migrate again." % ", ".join(map(str, unreadable[:20]))
        )
    games.bulk_update(batch, ["sealed_seed", "sealed_state"])


def unseal_games(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    games = Game.objects.using(schema_editor.connection.alias)
    batch = []
    for game in games.only("pk", "state", "sealed_state", "sealed_seed").order_by("pk").iterator(chunk_size=BATCH):
        if game.sealed_state:
            game.state = json.loads(unseal(game.sealed_state, purpose="state"))
        if _is_v2(game.sealed_seed, "seed"):
            game.sealed_seed = v1_seal(unseal(game.sealed_seed, purpose="seed"), settings.SECRET_KEY)
        batch.append(game)
        if len(batch) >= BATCH:
            games.bulk_update(batch, ["state", "sealed_seed"])
            batch = []
    games.bulk_update(batch, ["state", "sealed_seed"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_bot_to_move_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="sealed_state",
            field=models.TextField(default="", editable=False),
            preserve_default=False,
        ),
        migrations.RunPython(seal_games, unseal_games),
        migrations.RemoveField(
            model_name="game",
            name="state",
        ),
    ]
