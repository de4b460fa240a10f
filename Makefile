# Two commands on a fresh machine: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.requirements-installed
HOST ?= 127.0.0.1
PORT ?= 8000
# Extra arguments for pytest, e.g. `make test ARGS="-k signup -x"`.
ARGS ?=

.PHONY: run test venv

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
