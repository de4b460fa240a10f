# Two commands on a fresh machine: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.requirements-installed
HOST ?= 127.0.0.1
PORT ?= 8000
# Extra arguments for pytest, e.g. `make test ARGS="-k signup -x"`.
ARGS ?=

.PHONY: run test venv messages compilemessages

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstalls whenever requirements.txt changes.
$(INSTALLED): requirements.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(INSTALLED)

venv: $(INSTALLED)

# Migrates, seeds the demo accounts, then serves the site with a real Celery worker and beat
# on a broker kept in files (ops/management/commands/run_local.py); Ctrl-C stops them all.
run: venv
	$(PY) manage.py run_local --host $(HOST) --port $(PORT)

test: venv
	$(PY) -m pytest $(ARGS)

# Translations (README "Layout", locale/). `make messages` adds the strings marked in the source to
# the Indonesian and Arabic catalogs (locale/<language>/LC_MESSAGES/django.po) and drops those no
# longer used; translate the new and fuzzy entries there, then `make compilemessages` writes the
# committed .mo files. Not scanned: the virtualenv, the engine (no Django), tests, benchmarks,
# static files and the catalogs themselves. Source references name the file only, not the line,
# so code that moves within a file leaves the catalogs alone.
LANGUAGES := id ar
MESSAGES_IGNORE := .venv/* engine/* tests/* bench/* static/* staticfiles/* locale/*
MESSAGES_OPTIONS := $(addprefix --locale=,$(LANGUAGES)) $(foreach pattern,$(MESSAGES_IGNORE),--ignore='$(pattern)')

messages:
	$(PY) manage.py makemessages --no-obsolete --add-location=file --verbosity=0 $(MESSAGES_OPTIONS)

compilemessages:
	$(PY) manage.py compilemessages --verbosity=0 $(MESSAGES_OPTIONS)
