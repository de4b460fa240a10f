"""The registry of personal data: each app that holds rows about a user says here, once,
from its ``AppConfig.ready()``, which of its models hold them, which sections of the
account export it writes and which steps of the account's erasure it runs. The privacy
app runs them (in its transaction, with the user's row locked): an app that holds
personal data registers a handler and never edits privacy.

It sits in the bottom package, beside the settings, so that every app can register,
the shared API infrastructure (below accounts) too; it imports no app. The user is
``settings.AUTH_USER_MODEL``: the stubs' ``_User``, which their mypy plugin resolves to it.

The order is explicit, never the order of registration (that of ``INSTALLED_APPS``):
export sections come in the order of their ``position`` (unique), erase steps by their
``phase`` (:class:`ErasePhase`, which says why) and, within a phase, where the order does
not matter, by their ``name`` (unique), so that it is the same on every run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum
from typing import TYPE_CHECKING

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User


class ErasePhase(IntEnum):
    """When an erase step runs. The phases follow the site's lock order and what a step
    may still create for the steps after it."""

    #: The user's row, anonymised first: anything logged later names the account by its new name.
    IDENTITY = 10
    #: Rows locked before any game (a reply by mail is played with its row locked, then its game).
    BEFORE_GAMES = 20
    #: Open challenges closed, running games resigned (games locked in pk order); their
    #: results move ratings, ladders and tournaments on as for any resignation.
    GAMES = 30
    #: Ladders left and tournaments withdrawn from: after the games, which are locked
    #: before ladder and tournament rows.
    COMPETITIONS = 40
    #: Rows deleted outright, after every step that may still create some (the
    #: resignations' alarms and mail).
    REMAINDER = 50


@dataclass(frozen=True, kw_only=True)
class ExportSection:
    """One top-level key of the account export and the function that builds its value
    (JSON data: dicts, lists, strings, numbers, booleans, None)."""

    key: str
    position: int
    build: Callable[[User], object]


@dataclass(frozen=True, kw_only=True)
class EraseStep:
    """One step of an account's erasure. ``run(user, now)`` gets the locked row and the
    time of the deletion; it may return counts worth logging (``{"games_resigned": 2}``)."""

    name: str
    phase: ErasePhase
    run: Callable[[User, datetime], Mapping[str, int] | None]


@dataclass(frozen=True, kw_only=True)
class PersonalData:
    """What one app holds about a user.

    ``models`` names every model of the app that refers to the user (``"games.Move"``),
    each with what becomes of it: exported and erased by the steps below, or kept, and
    why; a test checks that every such model of the site is named by its app. Step names
    start with the app's label (``"games.play"``)."""

    app: str
    models: Mapping[str, str]
    export: tuple[ExportSection, ...] = ()
    erase: tuple[EraseStep, ...] = ()


class PersonalDataRegistry:
    """The handlers of every app, checked as they come in: one entry per app, unique
    section keys and positions, unique step names, and only the app's own models."""

    def __init__(self) -> None:
        self._apps: dict[str, PersonalData] = {}

    def register(self, data: PersonalData) -> None:
        known = self._apps.get(data.app)
        if known is not None:
            if known == data:  # ready() again (the app registry reloaded): the same handlers
                return
            raise ImproperlyConfigured("personal data of app %r registered twice" % data.app)
        for label in data.models:
            if label.split(".")[0] != data.app:
                raise ImproperlyConfigured("app %r names %r, another app's model" % (data.app, label))
        for step in data.erase:
            if step.name.split(".")[0] != data.app:
                raise ImproperlyConfigured("erase step %r of app %r is not named after it" % (step.name, data.app))
        sections = [s for entry in self._apps.values() for s in entry.export] + list(data.export)
        for attribute in ("key", "position"):
            values = [getattr(s, attribute) for s in sections]
            if len(set(values)) != len(values):
                raise ImproperlyConfigured("two export sections share a %s: %r" % (attribute, sorted(values)))
        names = [s.name for entry in self._apps.values() for s in entry.erase] + [s.name for s in data.erase]
        if len(set(names)) != len(names):
            raise ImproperlyConfigured("two erase steps share a name: %r" % sorted(names))
        self._apps[data.app] = data

    def registered(self) -> list[PersonalData]:
        """Every app's entry, by app label."""
        return [self._apps[app] for app in sorted(self._apps)]

    def models(self) -> dict[str, str]:
        """Every model named by some app (label: what becomes of it)."""
        return {label: fate for entry in self.registered() for label, fate in entry.models.items()}

    def export_sections(self) -> list[ExportSection]:
        """The sections of the export, in the document's order (by position)."""
        return sorted((s for entry in self._apps.values() for s in entry.export), key=lambda s: s.position)

    def erase_steps(self) -> list[EraseStep]:
        """The erase steps in the order they run: by phase, then by name."""
        return sorted((s for entry in self._apps.values() for s in entry.erase), key=lambda s: (s.phase, s.name))


#: The site's registry: apps register into it from their ready(), privacy reads it.
registry = PersonalDataRegistry()


def timestamp(value: datetime | None) -> str | None:
    """A time as the export writes it (ISO 8601), None staying None."""
    return value.isoformat() if value is not None else None
