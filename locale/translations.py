"""Fill and compile the Indonesian (id) and Arabic (ar) catalogs from the tables in locale/tables/.

The one way to refresh the translations, from the project root:
    .venv/bin/python locale/translations.py
It runs makemessages for id and ar over the whole project (without .venv, engine, tests, bench,
static and locale), writes every translation from the tables into the .po files (no fuzzy guesses
survive), and compiles the .mo files with `msgfmt --check`. It lists every msgid that has no
translation yet and exits with status 1 if there is one: add it to the table of its app.

Each module in locale/tables/ holds one app's strings as a dict T: msgid -> (Indonesian, Arabic);
a plural entry is msgid -> ((the one Indonesian form,), (the six Arabic forms, in the order of the
ar catalog's Plural-Forms: n==0, n==1, n==2, 3-10, 11-99, other)). Game and tribe names (Onitama,
Maatatahay, Balan, Wazu) and the notation of moves stay in English.

The compiled .mo files are committed, so running the site needs no gettext tools.
"""
import ast
import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LANGUAGES = ("id", "ar")
IGNORE = (".venv/*", "engine/*", "tests/*", "bench/*", "static/*", "staticfiles/*", "locale/*")

STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def load_tables() -> dict:
    """Merge every locale/tables/<app>.py table; one msgid may appear in one table only."""
    sys.path.insert(0, str(HERE))
    import tables

    merged: dict = {}
    for info in sorted(pkgutil.iter_modules(tables.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"tables.{info.name}")
        for msgid, entry in module.T.items():
            if msgid in merged and merged[msgid] != entry:
                raise SystemExit(f"{msgid!r} is translated differently in two tables ({info.name}).")
            merged[msgid] = entry
    return merged


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def fill(language: str, index: int, table: dict) -> list[str]:
    """Write the table's translations into one .po file; return the msgids it lacks."""
    path = HERE / language / "LC_MESSAGES" / "django.po"
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    missing = []
    out = [_header(blocks[0], language)]
    for block in blocks[1:]:
        if not block.strip():
            continue
        msgid = _field(block, "msgid")
        head = _before_msgstr(_unfuzzy(block))
        plural = "\nmsgid_plural " in "\n" + head  # not a fuzzy guess's "#| msgid_plural"
        entry = table.get(msgid)
        if entry is None:
            missing.append(msgid)
            value = ("",) * (6 if language == "ar" else 1) if plural else ""
        else:
            value = entry[index]
        if plural:
            head += "\n" + "\n".join(f"msgstr[{n}] {quote(form)}" for n, form in enumerate(value))
        else:
            head += "\nmsgstr " + quote(value)
        out.append(head)
    text = "\n\n".join(out)
    if not text.endswith("\n"):
        text += "\n"
    path.write_text(text, encoding="utf-8")
    return missing


def _unfuzzy(block: str) -> str:
    """Drop makemessages' fuzzy flag and the previous msgid it guessed from."""
    lines = [line for line in block.split("\n") if not line.startswith("#|")]
    lines = [line for line in lines if line != "#, fuzzy"]
    return "\n".join(line.replace("#, fuzzy, ", "#, ") for line in lines)


def _header(block: str, language: str) -> str:
    block = block.replace("#, fuzzy\n", "")
    block = re.sub(r"^# SOME DESCRIPTIVE TITLE.*?\n#\n", "# Maatasite translations.\n#\n", block, flags=re.S)
    block = block.replace("PACKAGE VERSION", "Maatasite")
    block = block.replace('"Language: \\n"', f'"Language: {language}\\n"')
    block = re.sub(r'"PO-Revision-Date: .*?\\n"', lambda m: '"PO-Revision-Date: 2026-11-29 13:00+0000\\n"', block)
    block = block.replace("FULL NAME <EMAIL@ADDRESS>", "Maatasite team")
    block = block.replace("LANGUAGE <LL@li.org>", "Maatasite team")
    return block


def _before_msgstr(block: str) -> str:
    return block.split("\nmsgstr", 1)[0]


def _field(block: str, name: str) -> str:
    match = re.search(rf"^{name} ((?:\".*\"\n?)+)", block, re.M)
    return "".join(ast.literal_eval(s) for s in STRING.findall(match.group(1))) if match else ""


def main() -> int:
    table = load_tables()
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "--no-obsolete", "--verbosity=0",
         *(f"--locale={language}" for language in LANGUAGES),
         *(f"--ignore={pattern}" for pattern in IGNORE)],
        cwd=ROOT, check=True)
    status = 0
    for index, language in enumerate(LANGUAGES):
        for msgid in fill(language, index, table):
            print(f"{language}: no translation for {msgid!r}")
            status = 1
        po = HERE / language / "LC_MESSAGES" / "django.po"
        subprocess.run(["msgfmt", "--check", "-o", str(po.with_suffix(".mo")), str(po)], check=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
