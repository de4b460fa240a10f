"""The static files' storage of a site run with DEBUG off: whitenoise's compressed manifest
storage, with each file's address kept once found.

``{% static %}`` asks the storage for a file's address on every page, eight times on a game
page, and the manifest storage works it out again each time (the hashed name from the
manifest, then the address joined and quoted): about a fifth of a millisecond a page. The
manifest is read when the storage is made and not again in the life of the process, so
an address found once stays right until the process restarts, as a new ``collectstatic``
needs anyway.
"""

from __future__ import annotations

from typing import Any

from whitenoise.storage import CompressedManifestStaticFilesStorage

KEPT_URLS_MAX = 2000  # names come from templates; a bound all the same


class ManifestStorageKeepingUrls(CompressedManifestStaticFilesStorage):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept_urls: dict[str, str] = {}

    def url(self, name: Any, force: bool = False) -> str:
        if force or not isinstance(name, str):
            return super().url(name, force)
        found = self._kept_urls.get(name)
        if found is None:
            found = super().url(name)  # a file missing from the manifest raises, and is not kept
            if len(self._kept_urls) < KEPT_URLS_MAX:
                self._kept_urls[name] = found
        return found
