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

venv: $(RUN_INSTALLED)

dev: $(DEV_INSTALLED)

# Migrates, seeds the demo accounts, then serves the site with a real Celery worker and beat
# on a broker kept in files (ops/management/commands/run_local.py); Ctrl-C stops them all.
run: venv
	$(PY) manage.py run_local --host $(HOST) --port $(PORT)

test: dev
	$(PY) -m pytest $(ARGS)

# Optional compiled Onitama search (README "Compiled search"): mypyc (it ships with mypy, in
# the dev lock) compiles the search module into an extension beside its source, which then
# shadows the .py; needs a C compiler. `make pure` removes it again. Neither `run` nor `test`
# builds it.
COMPILED_MODULES := engine/bots/onitama.py
COMPILED_BUILD := $(or $(TMPDIR),/tmp)/maatasite-mypyc-build
compiled: dev
	rm -rf $(COMPILED_BUILD) && mkdir -p $(COMPILED_BUILD)
	cp -r engine $(COMPILED_BUILD)/ && find $(COMPILED_BUILD) -name __pycache__ -prune -exec rm -rf {} +
	cd $(COMPILED_BUILD) && $(CURDIR)/.venv/bin/mypyc $(COMPILED_MODULES)
	for module in $(COMPILED_MODULES); do cp $(COMPILED_BUILD)/$${module%.py}*.so $$(dirname $$module)/; done
	rm -rf $(COMPILED_BUILD)
	$(PY) -c "import engine.bots.onitama as m; print('compiled search in use:', m.__file__)"

pure:
	for module in $(COMPILED_MODULES); do rm -f $${module%.py}.*.so $${module%.py}__mypyc.*.so; done
	$(PY) -c "import engine.bots.onitama as m; print('search in use:', m.__file__)"

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
