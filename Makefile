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

run: venv
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	@echo "Serving Maatasite on http://$(HOST):$(PORT)/ (admin: http://$(HOST):$(PORT)/admin/); Ctrl-C stops it."
	$(PY) manage.py runserver $(HOST):$(PORT)

test: venv
	$(PY) -m pytest $(ARGS)
