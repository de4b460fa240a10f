"""The Indonesian and Arabic catalogs: complete, consistent with the source, and used by the pages.

The catalogs are refreshed with ``.venv/bin/python locale/translations.py`` (see its docstring).
"""
from __future__ import annotations

import ast
import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework.test import APIClient

from api import services as api_services
from ladder.models import Ladder
from tests.factories import make_user
from tests.games.conftest import start_game
from tournaments import services as tournament_services

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LANGUAGES = ("id", "ar")
PLURAL_FORMS = {"id": 1, "ar": 6}
# A python-format conversion: %s, %d, %(name)s, %(rating)d, ...
CONVERSION = re.compile(r"%(?:\((\w+)\))?[#0 +-]*\d*(?:\.\d+)?([a-zA-Z])")
TAG = re.compile(r"</?[a-zA-Z][^>]*>")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def read_po(path: Path) -> list[dict]:
    """The entries of a .po file (header left out): flags, msgid, msgid_plural, msgstr forms."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        entry: dict = {"flags": set(), "msgid": None, "msgid_plural": None, "msgstr": {}}
        key = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"].update(flag.strip() for flag in line[2:].split(","))
                continue
            if line.startswith("#") or not line.strip():
                continue
            if line.startswith('"'):
                text = ast.literal_eval(line)
            else:
                key, _space, rest = line.partition(" ")
                text = ast.literal_eval(rest)
            if key.startswith("msgstr"):
                index = int(key[7:-1]) if "[" in key else 0
                entry["msgstr"][index] = entry["msgstr"].get(index, "") + text
            else:
                entry[key] = (entry[key] or "") + text
        if entry["msgid"]:
            entries.append(entry)
    return entries


def catalog(language: str) -> list[dict]:
    return read_po(LOCALE / language / "LC_MESSAGES" / "django.po")


def named(text: str) -> set[str]:
    return {m.group(1) for m in CONVERSION.finditer(text) if m.group(1)}


def positional(text: str) -> list[str]:
    return [m.group(2) for m in CONVERSION.finditer(text) if not m.group(1) and m.group(2) != "%"]


# --- The catalogs -------------------------------------------------------------

@pytest.mark.parametrize("language", LANGUAGES)
def test_every_msgid_has_a_translation_and_none_is_fuzzy(language):
    entries = catalog(language)
    assert len(entries) > 600  # every app's strings, not only the project's
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert fuzzy == []
    untranslated = [e["msgid"] for e in entries if not all(e["msgstr"].values())]
    assert untranslated == []
    wrong_forms = [e["msgid"] for e in entries
                   if len(e["msgstr"]) != (PLURAL_FORMS[language] if e["msgid_plural"] else 1)]
    assert wrong_forms == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_and_html_match_between_msgid_and_msgstr(language):
    problems = []
    for entry in catalog(language):
        msgid, plural, forms = entry["msgid"], entry["msgid_plural"], entry["msgstr"]
        for index, msgstr in forms.items():
            if TAG.findall(msgstr) != TAG.findall(msgid):
                problems.append((msgid, msgstr, "HTML"))
            if "python-format" not in entry["flags"]:
                continue
            if plural is None:
                ok = named(msgstr) == named(msgid) and positional(msgstr) == positional(msgid)
            else:
                # A form for exactly one number (Arabic one, two) may spell the number out,
                # but only named placeholders can be left out: "%d" always gets its argument.
                general = index == len(forms) - 1
                ok = (positional(msgstr) == positional(plural)
                      and (named(msgstr) == named(plural) if general
                           else named(msgstr) <= named(msgid) | named(plural)))
            if not ok:
                problems.append((msgid, msgstr, "placeholders"))
    assert problems == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_mo_file_is_compiled_from_the_po_file(language):
    with open(LOCALE / language / "LC_MESSAGES" / "django.mo", "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for entry in catalog(language):
        if entry["msgid_plural"] is None:
            assert compiled.gettext(entry["msgid"]) == entry["msgstr"][0], entry["msgid"]
        else:
            assert compiled._catalog[(entry["msgid"], 0)] == entry["msgstr"][0], entry["msgid"]


def test_the_catalogs_hold_every_string_marked_in_the_source(tmp_path):
    """makemessages over a copy of the project finds no msgid the committed catalogs lack."""
    if not (shutil.which("xgettext") and shutil.which("msgmerge")):
        pytest.skip("needs GNU gettext (xgettext, msgmerge): apt-get install gettext")
    copy = tmp_path / "site"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
        ".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", "*.sqlite3",
        "staticfiles", "test-results", "node_modules"))
    sys.path.insert(0, str(copy / "locale"))
    try:
        import translations
    finally:
        sys.path.remove(str(copy / "locale"))
        sys.modules.pop("translations", None)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "--no-obsolete", "--verbosity=0",
         *(f"--locale={language}" for language in LANGUAGES),
         *(f"--ignore={pattern}" for pattern in translations.IGNORE)],
        cwd=copy, check=True, capture_output=True)
    for language in LANGUAGES:
        committed = {e["msgid"] for e in catalog(language)}
        found = {e["msgid"] for e in read_po(copy / "locale" / language / "LC_MESSAGES" / "django.po")}
        assert sorted(found - committed) == [], (
            "run .venv/bin/python locale/translations.py and translate these in locale/tables/")


def test_plural_forms_follow_each_language():
    one, many = "%(days)s day per move", "%(days)s days per move"
    with translation.override("id"):
        assert ngettext(one, many, 1) % {"days": 1} == "1 hari per langkah"
        assert ngettext(one, many, 7) % {"days": 7} == "7 hari per langkah"
    with translation.override("ar"):
        said = {n: ngettext(one, many, n) % {"days": n} for n in (1, 2, 3, 11, 100)}
    assert said == {1: "يوم واحد لكل نقلة", 2: "يومان لكل نقلة", 3: "3 أيام لكل نقلة",
                    11: "11 يومًا لكل نقلة", 100: "100 يوم لكل نقلة"}
    with translation.override("ar"):
        assert ngettext("%d hour", "%d hours", 5) % 5 == "5 ساعات"


def test_game_and_tribe_names_stay_untranslated():
    for language in LANGUAGES:
        with translation.override(language):
            assert [_(name) for name in ("Onitama", "Maatatahay", "Balan", "Wazu")] == [
                "Onitama", "Maatatahay", "Balan", "Wazu"]


# --- Pages in Indonesian and Arabic -------------------------------------------

# url name -> (English text, Indonesian, Arabic) that the page shows.
EXPECTED = {
    "home": [("Two abstract games, one move a day", "Dua permainan abstrak, satu langkah sehari",
              "لعبتان تجريديتان، نقلة واحدة في اليوم"),
             ("Provably fair", "Terbukti adil", "نزاهة قابلة للإثبات")],
    "lobby": [("New challenge", "Tantangan baru", "تحدٍّ جديد"),
              ("Play a bot", "Lawan bot", "العب ضد روبوت")],
    "game": [("Fairness", "Keadilan", "النزاهة"),
             ("No moves yet.", "Belum ada langkah.", "لا توجد نقلات بعد.")],
    "correspondence": [("Mail, night and vacation", "Email, malam, dan cuti", "البريد والليل والإجازة"),
                       ("Start a vacation", "Mulai cuti", "ابدأ إجازة")],
    "tournament": [("Log in to register.", "Masuk untuk mendaftar.", "سجّل الدخول لتتمكن من التسجيل."),
                   ("Standings", "Klasemen", "الترتيب")],
    "ladder": [("Nobody has joined yet.", "Belum ada yang bergabung.", "لم ينضم أحد بعد."),
               ("Log in to join", "Masuk untuk bergabung", "سجّل الدخول للانضمام")],
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
