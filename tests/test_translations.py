"""The Indonesian and Arabic catalogs: complete, consistent with the source, and used by the pages.

The .po files are the source of the translations (README "Layout", locale/): ``make messages`` adds
new strings to them, a translator fills them in, ``make compilemessages`` writes the committed .mo.
"""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework.test import APIClient

from api import services as api_services
from ladder.models import Ladder
from tests.conftest import IN_CI
from tests.factories import make_user
from tests.games.conftest import start_game
from tournaments import services as tournament_services

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LANGUAGES = ("id", "ar")
PLURAL_FORMS = {"id": 1, "ar": 6}
# A python-format conversion: %s, %d, %(name)s, %(rating)d, ...
CONVERSION = re.compile(r"%(?:\((\w+)\))?[#0 +-]*\d*(?:\.\d+)?([a-zA-Z])")
# A str.format field: {name}, {0}, {count:d}, ...
FIELD = re.compile(r"(?<!\{)\{(\w*)(?:[:!][^{}]*)?\}(?!\})")
TAG = re.compile(r"</?[a-zA-Z][^>]*>")


def po_path(language: str, root: Path = ROOT) -> Path:
    return root / "locale" / language / "LC_MESSAGES" / "django.po"


def catalog(language: str, root: Path = ROOT) -> list[polib.POEntry]:
    """The live entries of a .po file (polib leaves the header out; obsolete ones are dropped)."""
    return [entry for entry in polib.pofile(str(po_path(language, root))) if not entry.obsolete]


def key(entry: polib.POEntry) -> tuple:
    return (entry.msgctxt, entry.msgid, entry.msgid_plural or None)


def forms(entry: polib.POEntry) -> dict[int, str]:
    """The msgstr of each plural form (one form, 0, for a singular entry)."""
    return dict(entry.msgstr_plural) if entry.msgid_plural else {0: entry.msgstr}


def completeness_problems(entries: list[polib.POEntry], language: str) -> list[tuple[str, str]]:
    """(msgid, why) for each entry gettext would not translate fully in ``language``.

    A fuzzy entry counts as untranslated even when its msgstr is filled: makemessages' fuzzy
    guesses are left out of the compiled catalog, so the page would show the English.
    """
    problems = []
    for entry in entries:
        expected = PLURAL_FORMS[language] if entry.msgid_plural else 1
        if entry.fuzzy:
            problems.append((entry.msgid, "fuzzy"))
        elif not all(forms(entry).values()):
            problems.append((entry.msgid, "untranslated"))
        if len(forms(entry)) != expected:
            problems.append((entry.msgid, f"{len(forms(entry))} plural forms, not {expected}"))
    return problems


def named(text: str) -> set[str]:
    return {m.group(1) for m in CONVERSION.finditer(text) if m.group(1)}


def positional(text: str) -> list[str]:
    return [m.group(2) for m in CONVERSION.finditer(text) if not m.group(1) and m.group(2) != "%"]


def fields(text: str) -> set[str]:
    return set(FIELD.findall(text))


def placeholder_problems(entries: list[polib.POEntry]) -> list[tuple[str, str, str]]:
    """(msgid, msgstr, what) for each translation whose placeholders or HTML differ from the msgid's."""
    problems = []
    for entry in entries:
        msgid, plural, translated = entry.msgid, entry.msgid_plural or None, forms(entry)
        for index, msgstr in translated.items():
            if not msgstr:
                continue  # completeness_problems reports it
            if TAG.findall(msgstr) != TAG.findall(msgid):
                problems.append((msgid, msgstr, "HTML"))
            # As for %(name)s below: a form for exactly one number may leave a field out.
            general = plural is None or index == len(translated) - 1
            if general:
                same_fields = fields(msgstr) == fields(plural or msgid)
            else:
                assert plural is not None  # only a plural has forms before its last
                same_fields = fields(msgstr) <= fields(msgid) | fields(plural)
            if not same_fields:
                problems.append((msgid, msgstr, "{fields}"))
            if "python-format" not in entry.flags:
                continue
            if plural is None:
                ok = named(msgstr) == named(msgid) and positional(msgstr) == positional(msgid)
            else:
                # A form for exactly one number (Arabic one, two) may spell the number out,
                # but only named placeholders can be left out: "%d" always gets its argument.
                ok = positional(msgstr) == positional(plural) and (
                    named(msgstr) == named(plural) if general else named(msgstr) <= named(msgid) | named(plural)
                )
            if not ok:
                problems.append((msgid, msgstr, "placeholders"))
    return problems


def needs_gettext() -> None:
    """The checks against the source need GNU gettext; locally they skip without it, CI fails."""
    if shutil.which("xgettext") and shutil.which("msgmerge") and shutil.which("msgfmt"):
        return
    reason = "needs GNU gettext (xgettext, msgmerge, msgfmt): apt-get install gettext"
    if IN_CI:
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def make_messages_in_a_copy(tmp_path: Path, extra_source: str | None = None) -> Path:
    """Run ``make messages`` (the developers' command, its ignore list included) on a copy of the
    project, with ``extra_source`` as one more module of it; return the copy."""
    copy = tmp_path / "site"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "__pycache__",
            ".pytest_cache",
            ".hypothesis",
            ".mypy_cache",
            "*.sqlite3",
            "staticfiles",
            "test-results",
            "node_modules",
        ),
    )
    if extra_source is not None:
        (copy / "games" / "planted_strings.py").write_text(extra_source, encoding="utf-8")
    subprocess.run(
        ["make", "--no-print-directory", "messages", f"PY={sys.executable}"], cwd=copy, check=True, capture_output=True
    )
    return copy


# --- The catalogs -------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_msgid_has_a_translation_and_none_is_fuzzy(language):
    entries = catalog(language)
    assert len(entries) > 600  # every app's strings, not only the project's
    header = polib.pofile(str(po_path(language))).metadata["Plural-Forms"]
    assert header.startswith(f"nplurals={PLURAL_FORMS[language]};")
    assert completeness_problems(entries, language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_and_html_match_between_msgid_and_msgstr(language):
    assert placeholder_problems(catalog(language)) == []


def test_the_checks_catch_fuzzy_missing_forms_and_lost_placeholders():
    """Each way a catalog can go wrong is reported (so the two tests above are not vacuous)."""
    entries = [
        polib.POEntry(msgid="Password again", msgstr="Ulangi kata sandi", flags=["fuzzy"]),
        polib.POEntry(msgid="Standings", msgstr=""),
        polib.POEntry(
            msgid="%d day",
            msgid_plural="%d days",
            flags=["python-format"],
            msgstr_plural={0: "%d يوم", 1: "يوم واحد", 2: "يومان", 3: "%d أيام", 4: "%d يومًا"},
        ),
        polib.POEntry(msgid="Hello %(name)s", msgstr="Halo", flags=["python-format"]),
        polib.POEntry(msgid="Round {number}", msgstr="Babak"),
        polib.POEntry(msgid="<b>Bold</b>", msgstr="Tebal"),
    ]
    assert completeness_problems(entries, "ar") == [
        ("Password again", "fuzzy"),
        ("Standings", "untranslated"),
        ("%d day", "5 plural forms, not 6"),
    ]
    assert [(msgid, what) for msgid, _msgstr, what in placeholder_problems(entries)] == [
        ("%d day", "placeholders"),
        ("%d day", "placeholders"),
        ("Hello %(name)s", "placeholders"),
        ("Round {number}", "{fields}"),
        ("<b>Bold</b>", "HTML"),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogs_compile_with_msgfmt_check(language, tmp_path):
    needs_gettext()
    compiled = subprocess.run(
        ["msgfmt", "--check", "-o", str(tmp_path / "django.mo"), str(po_path(language))],
        capture_output=True,
        text=True,
        check=False,
    )
    assert compiled.returncode == 0, compiled.stderr


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_mo_file_is_compiled_from_the_po_file(language):
    """The .mo holds exactly the .po's translated entries, every plural form included: run
    ``make compilemessages`` after editing a .po file."""
    with open(LOCALE / language / "LC_MESSAGES" / "django.mo", "rb") as handle:
        # typeshed leaves out _catalog, the parsed .mo that gettext keeps (msgid -> msgstr)
        compiled = dict(gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]
    compiled.pop("", None)  # the header
    expected: dict[str | tuple[str, int], str] = {}
    for entry in catalog(language):
        if entry.fuzzy or not all(forms(entry).values()):
            continue  # msgfmt leaves these out
        msgid = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural:
            expected.update({(msgid, n): form for n, form in forms(entry).items()})
        else:
            expected[msgid] = entry.msgstr
    assert compiled == expected


def test_the_catalogs_hold_every_string_marked_in_the_source(tmp_path):
    """``make messages`` over a copy of the project finds no msgid the committed catalogs lack."""
    needs_gettext()
    copy = make_messages_in_a_copy(tmp_path)
    for language in LANGUAGES:
        committed = {key(e) for e in catalog(language)}
        found = {key(e) for e in catalog(language, copy)}
        assert sorted(found - committed, key=str) == [], (
            "run `make messages`, translate the new entries in locale/id and locale/ar, then `make compilemessages`"
        )


def test_a_new_string_in_the_source_is_caught_even_when_makemessages_guesses_it(tmp_path):
    """A string marked in the source but missing from the catalogs is found by ``make messages``;
    its fuzzy guess (from a similar msgid) counts as untranslated."""
    needs_gettext()
    planted = "The two passwords differ!!"  # close to "The two passwords differ.", so msgmerge guesses
    copy = make_messages_in_a_copy(
        tmp_path, extra_source=(f"from django.utils.translation import gettext_lazy as _\n\nPLANTED = _({planted!r})\n")
    )
    for language in LANGUAGES:
        committed = {key(e) for e in catalog(language)}
        entries = catalog(language, copy)
        assert sorted(key(e) for e in entries if key(e) not in committed) == [(None, planted, None)]
        new = [e for e in entries if e.msgid == planted]
        assert new[0].fuzzy and new[0].msgstr  # a guess, filled in ...
        assert (planted, "fuzzy") in completeness_problems(entries, language)  # ... yet not a translation


def test_plural_forms_follow_each_language():
    one, many = "%(days)s day per move", "%(days)s days per move"
    with translation.override("id"):
        assert ngettext(one, many, 1) % {"days": 1} == "1 hari per langkah"
        assert ngettext(one, many, 7) % {"days": 7} == "7 hari per langkah"
    with translation.override("ar"):
        said = {n: ngettext(one, many, n) % {"days": n} for n in (1, 2, 3, 11, 100)}
    assert said == {
        1: "يوم واحد لكل نقلة",
        2: "يومان لكل نقلة",
        3: "3 أيام لكل نقلة",
        11: "11 يومًا لكل نقلة",
        100: "100 يوم لكل نقلة",
    }
    with translation.override("ar"):
        assert ngettext("%d hour", "%d hours", 5) % 5 == "5 ساعات"


def test_game_and_tribe_names_stay_untranslated():
    for language in LANGUAGES:
        with translation.override(language):
            assert [_(name) for name in ("Onitama", "Maatatahay", "Balan", "Wazu")] == [
                "Onitama",
                "Maatatahay",
                "Balan",
                "Wazu",
            ]


# --- Pages in Indonesian and Arabic -------------------------------------------

# url name -> (English text, Indonesian, Arabic) that the page shows.
EXPECTED = {
    "home": [
        (
            "Two abstract games, one move a day",
            "Dua permainan abstrak, satu langkah sehari",
            "لعبتان تجريديتان، نقلة واحدة في اليوم",
        ),
        ("Provably fair", "Terbukti adil", "نزاهة قابلة للإثبات"),
    ],
    "lobby": [("New challenge", "Tantangan baru", "تحدٍّ جديد"), ("Play a bot", "Lawan bot", "العب ضد روبوت")],
    "game": [("Fairness", "Keadilan", "النزاهة"), ("No moves yet.", "Belum ada langkah.", "لا توجد نقلات بعد.")],
    "correspondence": [
        ("Mail, night and vacation", "Email, malam, dan cuti", "البريد والليل والإجازة"),
        ("Start a vacation", "Mulai cuti", "ابدأ إجازة"),
    ],
    "tournament": [
        ("Log in to register.", "Masuk untuk mendaftar.", "سجّل الدخول لتتمكن من التسجيل."),
        ("Standings", "Klasemen", "الترتيب"),
    ],
    "ladder": [
        ("Nobody has joined yet.", "Belum ada yang bergabung.", "لم ينضم أحد بعد."),
        ("Log in to join", "Masuk untuk bergabung", "سجّل الدخول للانضمام"),
    ],
}


@pytest.fixture
def pages(db, client):
    """url name -> (client to fetch it with, path)."""
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    cup = tournament_services.tournament_create(actor=None, name="Piala", kind="onitama", format="swiss")
    tournament_services.tournament_open_registration(tournament_id=cup.pk, actor=None)
    ladder = Ladder.objects.create(name="Tangga", kind="onitama", days_per_move=3, max_places_up=3)
    signed_in = client.__class__()
    signed_in.force_login(alice)
    return {
        "home": (client, "/"),
        "lobby": (signed_in, "/lobby/"),
        "game": (signed_in, "/games/%d/" % game.pk),
        "correspondence": (signed_in, "/correspondence/settings/"),
        "tournament": (client, "/tournaments/%d/" % cup.pk),
        "ladder": (client, "/ladders/%d/" % ladder.pk),
    }


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("language", LANGUAGES)
def test_key_pages_are_translated(pages, name, language):
    client, path = pages[name]
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = response.content.decode()
    direction = "rtl" if language == "ar" else "ltr"
    assert '<html lang="%s" dir="%s">' % (language, direction) in page
    for english, indonesian, arabic in EXPECTED[name]:
        assert (indonesian if language == "id" else arabic) in page
        assert english not in page


def test_api_errors_come_back_in_arabic(db):
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    game.refresh_from_db()
    _token, secret = api_services.token_create(user=game.to_move_user, name="test", scopes=["read", "play"])
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Bearer " + secret, HTTP_ACCEPT_LANGUAGE="ar")

    unreadable = api.post("/api/v1/games/%d/moves/" % game.pk, {"move": "hello", "ply": 0}, format="json")
    assert unreadable.status_code == 400
    assert unreadable.json()["code"] == "bad_syntax"
    assert unreadable.json()["message"] == "لا يمكن قراءة هذه النقلة."

    missing = api.get("/api/v1/games/%d/" % (game.pk + 1000))
    assert missing.status_code == 404
    assert missing.json()["message"] == "هذه المباراة غير موجودة."

    stale = api.post("/api/v1/games/%d/moves/" % game.pk, {"move": "hello", "ply": 5}, format="json")
    assert stale.status_code == 409
    assert stale.json()["message"].startswith("تقدّمت المباراة منذ أن فتحت الصفحة (رأيت الخطوة 5")
