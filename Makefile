# Two commands on a fresh machine: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# One stamp per lock: a venv reinstalls whenever the lock it was installed from changes.
RUN_INSTALLED := $(VENV)/.requirements-installed
DEV_INSTALLED := $(VENV)/.requirements-dev-installed
HOST ?= 127.0.0.1
PORT ?= 8000
# Extra arguments for pytest, e.g. `make test ARGS="-k signup -x"`.
ARGS ?=
# Extra arguments for pip-compile, e.g. `make lock LOCK_ARGS="--upgrade-package Django"`.
LOCK_ARGS ?=

.PHONY: run test venv dev lint lock messages compilemessages schema compiled pure

$(PY):
	$(PYTHON) -m venv $(VENV)

# The runtime lock (requirements.txt, with hashes): what production installs.
$(RUN_INSTALLED): requirements.txt | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r requirements.txt
	touch $(RUN_INSTALLED)

# The dev lock (requirements-dev.txt: runtime + tests, lint, types, pip-compile).
$(DEV_INSTALLED): requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r requirements-dev.txt
	touch $(DEV_INSTALLED)

# `make venv` (so `make run`, and the engine's command line after it) also compiles the Onitama
# search when a C compiler is there (README "Compiled search"); without one, or if the build
# fails, it says so in one line and the pure-Python search runs. PURE=1 (`make run PURE=1`)
# skips the build and removes an extension built before.
PURE ?=
COMPILED_SEARCH := $(PY) tools/compiled_search.py

venv: $(RUN_INSTALLED)
	@$(COMPILED_SEARCH) $(if $(PURE),remove,build --if-possible)

dev: $(DEV_INSTALLED)

# Migrates, seeds the demo accounts, then serves the site with a real Celery worker and beat
# on a broker kept in files (ops/management/commands/run_local.py); Ctrl-C stops them all.
run: venv
	$(PY) manage.py run_local --host $(HOST) --port $(PORT)

test: dev
	$(PY) -m pytest $(ARGS)

# The compiled Onitama search by hand (README "Compiled search"): `make compiled` builds it (and
# fails loudly when it cannot), `make pure` removes it and keeps `make venv` from building it
# again until the next `make compiled`. `make test` never builds it: it tests whichever search
# is there (CI: the pure one, then the engine tests on a compiled copy).
compiled: $(RUN_INSTALLED)
	$(COMPILED_SEARCH) build

pure:
	$(if $(wildcard $(PY)),$(PY),$(PYTHON)) tools/compiled_search.py remove --stay-pure

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

# What CI checks besides the tests (settings in pyproject.toml).
lint: dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/mypy --strict engine
	$(VENV)/bin/lint-imports

# Rewrites both locks from pyproject.toml's dependencies, keeping every pin that still fits
# (LOCK_ARGS="--upgrade-package NAME" moves one; "--upgrade" moves all).
lock: dev
	$(VENV)/bin/pip-compile $(LOCK_ARGS) --output-file requirements.txt pyproject.toml
	$(VENV)/bin/pip-compile $(LOCK_ARGS) --extra dev --output-file requirements-dev.txt pyproject.toml

# The OpenAPI snapshot that CI compares with the served schema (tests/test_api_schema_snapshot.py):
# rewrite it after a reviewed change to the API's endpoints.
schema: dev
	$(PY) manage.py spectacular --lang en --file maatasite/openapi.yaml
