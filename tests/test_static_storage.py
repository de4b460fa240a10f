"""maatasite.static_storage: the manifest storage keeps each file's address once found, gives
the same address as whitenoise's storage, and never keeps a name missing from the manifest."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from whitenoise.storage import CompressedManifestStaticFilesStorage

from maatasite.static_storage import ManifestStorageKeepingUrls


@pytest.fixture
def static_root(tmp_path):
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "site.css").write_text("body{}")
    (tmp_path / "css" / "site.0123456789ab.css").write_text("body{}")
    manifest = {"paths": {"css/site.css": "css/site.0123456789ab.css"}, "version": "1.1", "hash": "feedface"}
    (tmp_path / "staticfiles.json").write_text(json.dumps(manifest))
    return tmp_path


def test_addresses_are_whitenoises_and_found_once(static_root):
    kept = ManifestStorageKeepingUrls(location=str(static_root), base_url="/static/")
    plain = CompressedManifestStaticFilesStorage(location=str(static_root), base_url="/static/")
    assert kept.url("css/site.css") == plain.url("css/site.css") == "/static/css/site.0123456789ab.css"
    with mock.patch.object(CompressedManifestStaticFilesStorage, "url", side_effect=AssertionError("asked again")):
        assert kept.url("css/site.css") == "/static/css/site.0123456789ab.css"  # kept: not worked out again
    assert kept.url("css/site.css", force=True) == plain.url("css/site.css", force=True)


def test_a_name_missing_from_the_manifest_raises_every_time(static_root):
    kept = ManifestStorageKeepingUrls(location=str(static_root), base_url="/static/")
    for _ in range(2):
        with pytest.raises(ValueError, match="Missing staticfiles manifest entry"):
            kept.url("js/nowhere.js")
    assert "js/nowhere.js" not in kept._kept_urls


def test_the_site_uses_it_when_debug_is_off():
    """As production starts it (DEBUG off, its keys set): the static files' storage is this one."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
    env.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": "x" * 50,
            "GAMES_SEAL_KEY": "a" * 64,
            "DJANGO_SETTINGS_MODULE": "maatasite.settings",
        }
    )
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            (
                "import django; django.setup(); from django.core.files.storage import storages; "
                "s = storages['staticfiles']; print(type(s).__module__ + '.' + type(s).__name__)"
            ),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert shown.stdout.strip() == "maatasite.static_storage.ManifestStorageKeepingUrls", shown.stderr
