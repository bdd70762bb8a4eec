# Two commands: `make run` serves the site on the embedded default, `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format migrate demo-data demo venv clean-var bench

$(VENV)/bin/activate:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the requirements change.
$(VENV)/.requirements.stamp: requirements.txt | $(VENV)/bin/activate
	$(PIP) install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.requirements-dev.stamp: requirements.txt requirements-dev.txt | $(VENV)/bin/activate
	$(PIP) install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@ $(VENV)/.requirements.stamp

venv: $(VENV)/.requirements.stamp

migrate: venv
	$(PY) manage.py migrate --noinput

# Loads the demo campaign only when the database has none, and prints the logins.
demo-data: migrate
	$(PY) manage.py demo_campaign --if-empty

# One whole turn of a fresh demo campaign, headless, on the embedded default (see README).
demo: migrate
	$(PY) manage.py play_demo_turn

# The links in emails point at the address served (unless SITE_URL says otherwise).
run: demo-data
	@echo "Serving http://$(HOST):$(PORT)/ (Ctrl-C to stop)"
	SITE_URL="$${SITE_URL:-http://$(HOST):$(PORT)}" $(PY) manage.py runserver $(HOST):$(PORT)

test: $(VENV)/.requirements-dev.stamp
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	$(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/pytest $(PYTEST_ARGS)

lint: $(VENV)/.requirements-dev.stamp
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

format: $(VENV)/.requirements-dev.stamp
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean-var:
	rm -rf var/

# Benchmarks print figures (docs/performance.md records them): on a scratch SQLite file under var/,
# and on PostgreSQL too when one answers on 127.0.0.1:5432 (database briternia_bench).
BENCH_PG ?= postgres://postgres@127.0.0.1:5432/briternia_bench
bench: $(VENV)/.requirements-dev.stamp
	@echo "== SQLite (embedded default)"
	rm -f var/bench.sqlite3
	DATABASE_URL=sqlite:///$(CURDIR)/var/bench.sqlite3 $(PY) manage.py migrate --noinput -v0
	DATABASE_URL=sqlite:///$(CURDIR)/var/bench.sqlite3 $(PY) manage.py bench
	DATABASE_URL=sqlite:///$(CURDIR)/var/bench.sqlite3 EMAIL_OUTBOX_DIR=$(CURDIR)/var/bench-outbox $(PY) manage.py bench_reports
	@if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then \
	  echo "== PostgreSQL"; \
	  psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS briternia_bench" >/dev/null && \
	  createdb -h 127.0.0.1 -U postgres briternia_bench && \
	  DATABASE_URL=$(BENCH_PG) $(PY) manage.py migrate --noinput -v0 && \
	  DATABASE_URL=$(BENCH_PG) $(PY) manage.py bench && \
	  DATABASE_URL=$(BENCH_PG) EMAIL_OUTBOX_DIR=$(CURDIR)/var/bench-outbox $(PY) manage.py bench_reports; \
	fi
