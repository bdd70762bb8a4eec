"""gunicorn's settings for the production stack (read from ./gunicorn.conf.py by default).

Everything a host may want to change comes from the environment; the defaults suit a small VPS.
"""

import multiprocessing
import os
from typing import Any

bind = os.environ.get("GUNICORN_BIND", f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}")
# One worker per core plus one, unless told otherwise. A request here is CPU work (the sheet check,
# templates), and PostgreSQL shares the machine: `make loadtest` on 2 cores answered 50 concurrent
# submissions faster with 3 workers (p95 0.8 s) than with 4 (1.0 s) or gunicorn's usual 2 x cores + 1
# (docs/performance.md). The extra one keeps a slow request (a PDF) from holding a core's only worker.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
# Threaded workers (gthread), with our worker class: a request is stamped with the time its first
# bytes reached the machine (the kernel's timestamp), whatever it waits for afterwards, in the listen
# backlog or for a thread (briternia/arrival.py; 68 of 80 sheets sent in the last two seconds were
# refused as late with 4 sync workers, issue 34). So a worker whose threads are all busy leaves new
# connections to a worker with a free thread, and the rush is shared evenly (issue 35).
# Each thread keeps its own database connection (CONN_MAX_AGE): workers x threads connections to
# PostgreSQL at the peak, within its default max_connections of 100 with the defaults here.
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "briternia.gunicorn_worker.StampingThreadWorker")
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


def post_worker_init(worker: Any) -> None:
    """Each worker imports its views, builds its broker's machinery, and starts its request threads
    with their database connections before its first request, not during it (briternia/warm.py): a
    rush that meets workers just started (or recycled by max_requests) waits for none of it. Then
    the collector leaves what it built alone and runs less often (`web_process_gc_settle`)."""
    from briternia.warm import web_process_gc_settle, web_process_warm, web_threads_connect

    web_process_warm()
    pool = getattr(worker, "tpool", None)  # the threaded workers' (gthread)
    if pool is not None:
        web_threads_connect(pool, worker.cfg.threads)
    web_process_gc_settle()  # last: what the warm-up built is kept out of the collector's passes
