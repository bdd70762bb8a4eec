# Two commands: `make run` serves the site on the embedded default, `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run stack loadtest test lint format migrate demo-data demo venv clean-var bench

# DEBUG is off unless asked for (briternia/settings.py); the developer's targets turn it on. The
# production stack (`make stack`, the Procfile) does not.
migrate demo-data demo run bench loadtest test lint: export DJANGO_DEBUG ?= 1

# Python writes its bytecode cache (__pycache__/, ignored by git), whatever the shell says: with
# PYTHONDONTWRITEBYTECODE set (as on this project's CI machines) every process compiled the project
# again, and pytest rewrote every test module's asserts again: each xdist worker's collection and
# each server, worker and command the tests start (issue 30: about 7 s of each collection).
unexport PYTHONDONTWRITEBYTECODE

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

# The site with a Celery worker and beat beside it (deploy/Procfile.run) on the file-system broker:
# deadlines fire by themselves and long work runs in the background. The links in emails point at the
# address served (unless SITE_URL says otherwise).
run: demo-data
	@echo "Serving http://$(HOST):$(PORT)/ with a Celery worker and beat (Ctrl-C stops them all)"
	SITE_URL="$${SITE_URL:-http://$(HOST):$(PORT)}" CELERY_BROKER_URL="$${CELERY_BROKER_URL:-filesystem://}" \
	HOST=$(HOST) PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/honcho -f deploy/Procfile.run -d . start -p $(PORT)

# The production stack on this machine's PostgreSQL and Redis (deploy/stack.sh says what it sets).
stack: $(VENV)/.requirements-dev.stamp
	HOST=$(HOST) PORT=$(PORT) deploy/stack.sh

# The test-only tools from npm (axe-core for the accessibility test), at the lock file's pinned versions.
node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# The suite runs on every core (pytest-xdist): one worker process per core, each with its own test
# database, the tests handed out in file order and an idle worker taking the queued tests of a busy
# one (worksteal). PYTEST_WORKERS=0 runs it in this one process (one core; CI's two passes each do,
# side by side). It ends by naming its ten slowest tests (setup, call or teardown), so a test that
# grows slow is seen.
PYTEST_WORKERS ?= auto
test: $(VENV)/.requirements-dev.stamp node_modules/.package-lock.json
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	$(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/pytest -n $(PYTEST_WORKERS) --dist worksteal --durations=10 $(PYTEST_ARGS)

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
# and on PostgreSQL too when one answers on 127.0.0.1:5432 (database briternia_bench, or BENCH_DB:
# several checkouts benching at once each name their own).
BENCH_DB ?= briternia_bench
BENCH_PG ?= postgres://postgres@127.0.0.1:5432/$(BENCH_DB)
bench: $(VENV)/.requirements-dev.stamp
	@echo "== SQLite (embedded default)"
	rm -f var/bench.sqlite3
	DATABASE_URL=sqlite:///$(CURDIR)/var/bench.sqlite3 $(PY) manage.py migrate --noinput -v0
	DATABASE_URL=sqlite:///$(CURDIR)/var/bench.sqlite3 $(PY) manage.py bench
	DATABASE_URL=sqlite:///$(CURDIR)/var/bench.sqlite3 EMAIL_OUTBOX_DIR=$(CURDIR)/var/bench-outbox $(PY) manage.py bench_reports
	@if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then \
	  echo "== PostgreSQL"; \
	  psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS $(BENCH_DB)" >/dev/null && \
	  createdb -h 127.0.0.1 -U postgres $(BENCH_DB) && \
	  DATABASE_URL=$(BENCH_PG) $(PY) manage.py migrate --noinput -v0 && \
	  DATABASE_URL=$(BENCH_PG) $(PY) manage.py bench && \
	  DATABASE_URL=$(BENCH_PG) EMAIL_OUTBOX_DIR=$(CURDIR)/var/bench-outbox $(PY) manage.py bench_reports; \
	fi

# The weekly rush on the real stack: gunicorn on PostgreSQL (a scratch database), 200 players filing
# through the API all at once and spread over a minute; the deadline race (80 players in the last two
# seconds, the sweep at the deadline, with and without a proxy's X-Request-Start); two Resolve clicks
# during a 100-kingdom resolution (demo/management/commands/loadtest.py). LOADTEST_ARGS="--only race"
# runs one part. Its scratch database is LOAD_DB and its Redis database LOAD_REDIS_DB (several
# checkouts load-testing at once each name their own).
LOAD_DB ?= briternia_load
LOAD_REDIS_DB ?= 9
LOAD_PG := postgres://postgres@127.0.0.1:5432/$(LOAD_DB)
loadtest: $(VENV)/.requirements-dev.stamp
	psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS $(LOAD_DB)" >/dev/null
	createdb -h 127.0.0.1 -U postgres $(LOAD_DB)
	DATABASE_URL=$(LOAD_PG) $(PY) manage.py migrate --noinput -v0
	DATABASE_URL=$(LOAD_PG) CELERY_BROKER_URL=redis://127.0.0.1:6379/$(LOAD_REDIS_DB) LOG_LEVEL=WARNING $(PY) manage.py loadtest $(LOADTEST_ARGS)
	redis-cli -h 127.0.0.1 -n $(LOAD_REDIS_DB) flushdb >/dev/null
