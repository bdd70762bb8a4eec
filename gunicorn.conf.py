"""gunicorn's settings for the production stack (read from ./gunicorn.conf.py by default).

Everything a host may want to change comes from the environment; the defaults suit a small VPS.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}")
# One worker per core plus one, unless told otherwise. A request here is CPU work (the sheet check,
# templates), and PostgreSQL shares the machine: `make loadtest` on 2 cores answered 50 concurrent
# submissions faster with 3 workers (p95 0.8 s) than with 4 (1.0 s) or gunicorn's usual 2 x cores + 1
# (docs/performance.md). The extra one keeps a slow request (a PDF) from holding a core's only worker.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
# A PDF or a preview may take a few seconds; a worker stuck far longer is restarted.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
# Workers recycled now and then, so a slow leak never takes the site down.
max_requests = 1000
max_requests_jitter = 100
accesslog = "-"
errorlog = "-"
# Behind a proxy on the same host, trust its X-Forwarded-* headers (Django decides on HTTPS through
# SECURE_PROXY_SSL_HEADER).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
