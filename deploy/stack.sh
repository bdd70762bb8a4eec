#!/usr/bin/env bash
# `make stack`: the production stack on this machine: gunicorn, Celery workers and beat (the
# Procfile's processes, run by honcho) on the local PostgreSQL and Redis, DEBUG off, and a local SMTP
# server keeping every email in var/stack/mailbox/ but the mail to the orders address
# (orders@localhost and the players' plus-addresses), which it delivers into var/stack/maildrop/ for
# the beat to read (orders by email, README). Served over plain HTTP on 127.0.0.1, so HTTPS
# redirects and secure-only cookies are off here; a real site sets deploy/production.env.example.
# Every variable below may be given instead.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.venv/bin:$PATH"

export BRITERNIA_VAR_DIR="${BRITERNIA_VAR_DIR:-$PWD/var/stack}"
mkdir -p "$BRITERNIA_VAR_DIR"/mailbox/{cur,new,tmp}  # a Maildir
export DJANGO_DEBUG=0
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/briternia}"
export CELERY_BROKER_URL="${CELERY_BROKER_URL:-redis://127.0.0.1:6379/0}"
export SMTP_PORT="${SMTP_PORT:-1025}"
export ORDERS_EMAIL_ADDRESS="${ORDERS_EMAIL_ADDRESS:-orders@localhost}"
export EMAIL_HOST="${EMAIL_HOST:-127.0.0.1}" EMAIL_PORT="${EMAIL_PORT:-$SMTP_PORT}" EMAIL_USE_TLS="${EMAIL_USE_TLS:-0}"
export HOST="${HOST:-127.0.0.1}" PORT="${PORT:-8000}"
export SITE_URL="${SITE_URL:-http://$HOST:$PORT}" ALLOWED_HOSTS="${ALLOWED_HOSTS:-$HOST,localhost}"
export SECURE_SSL_REDIRECT="${SECURE_SSL_REDIRECT:-0}" SESSION_COOKIE_SECURE="${SESSION_COOKIE_SECURE:-0}" \
  CSRF_COOKIE_SECURE="${CSRF_COOKIE_SECURE:-0}"
if [ -z "${SECRET_KEY:-}" ]; then
  # One key per machine, kept beside the data, so sessions survive a restart.
  [ -s "$BRITERNIA_VAR_DIR/secret_key" ] || python -c 'import secrets; print(secrets.token_urlsafe(50))' >"$BRITERNIA_VAR_DIR/secret_key"
  SECRET_KEY="$(cat "$BRITERNIA_VAR_DIR/secret_key")"
  export SECRET_KEY
fi

# The database itself, on a first start.
python - <<'PY'
import os
from urllib.parse import urlsplit

import psycopg

url = urlsplit(os.environ["DATABASE_URL"])
if url.scheme.startswith("postgres"):
    name = url.path.lstrip("/")
    with psycopg.connect(os.environ["DATABASE_URL"].replace(url.path, "/postgres", 1), autocommit=True) as db:
        if not db.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            db.execute(f'CREATE DATABASE "{name}"')
            print(f"created database {name}")
PY
python manage.py migrate --noinput
python manage.py demo_campaign --if-empty
echo "Serving $SITE_URL (gunicorn, Celery worker, mailer and beat, SMTP on 127.0.0.1:$SMTP_PORT, which takes mail for $ORDERS_EMAIL_ADDRESS; Ctrl-C stops them all)"
exec honcho -f deploy/Procfile.stack -d . start -p "$PORT"
