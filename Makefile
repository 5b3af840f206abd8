# Two commands matter: `make run` (the site with demo data) and `make test` (the whole suite).
# Everything else here is a step they share.

SHELL := /bin/bash
VENV := .venv
VENV_PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# Links in mails sent outside a request (by the worker, by beat) point here. A server listening on every
# address (HOST=0.0.0.0) is still reached at localhost. A SITE_URL given on the command line or in the
# environment wins.
SITE_HOST := $(if $(filter 0.0.0.0 :: [::],$(HOST)),localhost,$(HOST))
SITE_URL ?= http://$(SITE_HOST):$(PORT)
PYTEST_ARGS ?= -n auto --durations=10

.DEFAULT_GOAL := help
.PHONY: help run test lint install migrate demo check clean

help:
	@echo "make run    install, migrate, load demo data, serve http://$(HOST):$(PORT)/ with a Celery worker and beat"
	@echo "make test   install and run the whole test suite (PostgreSQL/Redis tests need DATABASE_URL/REDIS_URL)"
	@echo "make lint   ruff (lint and format) and mypy, as make test runs them"
	@echo "make check  Django's system checks and a check for missing migrations"
	@echo "make clean  remove .venv, var/ (local database, broker, mail) and collected static files"

# Django 6 needs Python 3.12 or newer. pyenv shims exist for every installed version but fail when that
# version is not selected, so each candidate must actually run and report a new enough version.
$(VENV_PY):
	@set -e; found=""; \
	candidates="python3.13 python3.12"; \
	if command -v pyenv >/dev/null 2>&1; then \
		candidates="$$candidates $$(ls -d $$(pyenv root)/versions/3.1[23]*/bin/python3.1[23] 2>/dev/null | sort -rV)"; \
	fi; \
	for candidate in $$candidates; do \
		if "$$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then \
			found="$$candidate"; break; \
		fi; \
	done; \
	if [ -z "$$found" ]; then \
		echo "error: Parlour needs Python 3.12 or newer (python3.13, python3.12 or a pyenv 3.12/3.13); none was found." >&2; \
		exit 1; \
	fi; \
	echo "Creating $(VENV) with $$found"; \
	"$$found" -m venv $(VENV)

# Reinstall only when the dependencies changed, so a repeated `make test` starts at once.
$(STAMP): pyproject.toml | $(VENV_PY)
	$(VENV_PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

migrate: install
	@mkdir -p var  # local state: the SQLite database and broker, mail files, the beat schedule
	$(VENV_PY) manage.py migrate --no-input

# The demo writes mails of its own (a season's start): their links point where `make run` serves, too.
demo: migrate
	SITE_URL='$(SITE_URL)' $(VENV_PY) manage.py demo

run: demo
	@echo
	@echo "  Parlour is starting at http://$(HOST):$(PORT)/  (Ctrl-C stops the web server, worker and beat)"
	@echo "  Mail is written to var/mail/ unless EMAIL_HOST is set; its links point to $(SITE_URL)"
	@echo
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" HOST=$(HOST) WEB_PORT=$(PORT) SITE_URL='$(SITE_URL)' $(VENV)/bin/honcho -f Procfile.dev start

# The guards first: a lint or type finding fails the run before the suite starts.
# The fault tests (tests/faults) start real workers, kill them and empty Redis: they run after the rest,
# one at a time, so that nothing else shares their broker or their two cores.
test: lint
	$(VENV)/bin/pytest $(PYTEST_ARGS) --ignore=tests/faults
	$(VENV)/bin/pytest -n 0 -q tests/faults

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

check: install
	$(VENV_PY) manage.py check
	$(VENV_PY) manage.py makemigrations --check --dry-run

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache
