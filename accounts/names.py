"""Display names: the one rule of what a player may call themselves (README, "Display names").

A display name is shown beside moves, in lobbies, standings and mail, so it must not disguise
text or pose as someone it is not:

* It holds no invisible control or format character (Unicode categories Cc and Cf): no
  bidirectional overrides, embeddings or isolates (U+202A-U+202E, U+2066-U+2069), no marks
  (U+200E, U+200F, U+061C), no zero-width characters, soft hyphens or byte-order marks.
* It does not pose as a bot (the label a bot seat shows, "Bot (level 5)", as each of the
  site's languages writes it) or as the site's staff (RESERVED_WORDS, in en, id and ar).

Names are compared after NFKC normalisation and casefolding, with accents and other combining
marks, Arabic tatweel, spaces and punctuation ignored and every decimal digit read as 0-9, so
"ＡＤＭＩＮ", "A.d.m.i.n", "Âdmin" and "روبوت (المستوى ٥)" are all caught. A reserved word counts
as a whole word (optionally followed by digits, or after Arabic's article "ال"), so "Badminton"
and "Robotnik" are fine; spelled out letter by letter it counts too. The site's name counts
anywhere in a name.

Names saved before the rule are left as they are; staff see them with the user admin's filter
"display name breaks the rules" (accounts.selectors.users_with_bad_display_names).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

# The name every bot seat shows (games.models.Seat.player_name); it lives here, with the rule
# that keeps players from taking it.
BOT_LABEL = _("Bot (level %(level)s)")

SITE_NAME = "Maatasite"

# Words that would make a player pass for a bot or for the site's staff, in each language.
RESERVED_WORDS = {
    "en": ("admin", "administrator", "staff", "moderator", "mod", "official", "support", "system", "bot"),
    "id": ("staf", "petugas", "pengelola", "resmi", "dukungan", "sistem"),
    "ar": ("مشرف", "مدير", "إدارة", "رسمي", "دعم", "طاقم", "موظف", "روبوت", "بوت"),
}

_TATWEEL = "\u0640"  # Arabic elongation: a letter of category Lm that only stretches the line
_ARABIC_ARTICLE = "ال"
_TRAILING_DIGITS = re.compile(r"\d+$")


def bot_label(level: int) -> str:
    """The name of a bot of ``level`` in the active language."""
    return str(BOT_LABEL) % {"level": level}


def _words(text: str) -> list[str]:
    """``text`` folded for comparison, as its words of letters and digits."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    out = []
    for char in folded:
        category = unicodedata.category(char)
        if category.startswith("M") or char == _TATWEEL:
            continue
        if category == "Nd":
            out.append(str(unicodedata.digit(char)))
        elif category[0] in "LN":
            out.append(char)
        else:
            out.append(" ")
    return "".join(out).split()


def _skeleton(text: str) -> str:
    return "".join(_words(text))


@lru_cache(maxsize=1)
def _reserved() -> frozenset[str]:
    return frozenset(_skeleton(word) for words in RESERVED_WORDS.values() for word in words)


@cache
def _bot_label_pattern(languages: tuple[str, ...]) -> re.Pattern:
    """Any level of the bot label, as any of ``languages`` writes it, in a skeleton."""
    shapes = set()
    for language in languages:
        with translation.override(language):
            before, _level, after = str(BOT_LABEL).partition("%(level)s")
        shapes.add(re.escape(_skeleton(before)) + r"\d+" + re.escape(_skeleton(after)))
    return re.compile("|".join(sorted(shapes)))


def _poses_as_staff_or_bot(name: str) -> bool:
    reserved = _reserved()
    words = _words(name)
    for word in words:
        bare = _TRAILING_DIGITS.sub("", word)
        if word in reserved or bare in reserved:
            return True
        if bare.startswith(_ARABIC_ARTICLE) and bare[len(_ARABIC_ARTICLE) :] in reserved:
            return True
    joined = "".join(words)
    if _TRAILING_DIGITS.sub("", joined) in reserved or _skeleton(SITE_NAME) in joined:
        return True
    languages = tuple(code for code, _name in settings.LANGUAGES)
    return _bot_label_pattern(languages).search(joined) is not None


def validate_display_name(name: str) -> None:
    """Raise ValidationError when ``name`` breaks the rule (see the module's docstring)."""
    if any(unicodedata.category(char) in ("Cc", "Cf") for char in name):
        raise ValidationError(
            _(
                "A display name cannot contain invisible control or formatting characters "
                "(such as right-to-left overrides)."
            ),
            code="display_name_invisible",
        )
    if _poses_as_staff_or_bot(name):
        raise ValidationError(
            _(
                "A display name cannot pose as a bot or as the site's staff: words such as "
                "“admin”, “moderator”, “official” and “Bot” are reserved."
            ),
            code="display_name_reserved",
        )


def display_name_breaks_rules(name: str) -> bool:
    try:
        validate_display_name(name)
    except ValidationError:
        return True
    return False
