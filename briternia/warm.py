"""A web worker's start, before it takes its first request (gunicorn.conf.py's `post_worker_init`).

Django imports the URL configuration (and with it every view, serializer and form) and compiles
its paths on the first request it serves, and Celery binds its tasks and imports and builds its
broker transport, its task messages' router and the result backend on the first task a request
sends: about 0.9 s of CPU together (0.16 s is left to the first request), paid by the first requests
of every worker, all at once when a rush meets a worker just started (at boot, or
recycled after gunicorn's `max_requests`; issue 35). Done here instead. The process's part connects
to nothing; each request thread opens its database connection and readies a broker producer, each
tried once and bounded in time: a database or broker that is down is still the first request's to
meet (briternia/queue.py)."""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Executor, wait

from django.db import connection
from django.urls import URLResolver, get_resolver

logger = logging.getLogger(__name__)

# What the apps ask to have built before a worker's first request (`web_warm_register`): once per
# process (the hand-written statements each request would otherwise build, all eight threads of a
# worker at once on the rush's first sheets: functools.cache does not hold the others back), or in
# each request thread (what Django, REST framework or Celery keep per thread).
_process_steps: list[Callable[[], object]] = []
_thread_steps: list[Callable[[], object]] = []


def web_warm_register(step: Callable[[], object], *, per_thread: bool = False) -> None:
    """Have `step` run by every web worker before its first request: once in the process, or in
    each of its request threads (`per_thread`). An app registers its steps in its `ready()`. A
    process step must not need the database (it runs before any connection is open); a thread's
    run once its connection is open (or could not be). A step may raise (logged: the first request
    pays it instead)."""
    steps = _thread_steps if per_thread else _process_steps
    if step not in steps:
        steps.append(step)


def _steps_run(steps: list[Callable[[], object]]) -> None:
    for step in steps:
        try:
            step()
        except Exception:  # a warm-up is an optimisation: the first request does it instead
            logger.exception("Warming up the web process: %s failed; the first request will do it", step)


def web_process_warm() -> None:
    """Import and build what the first request would, in this process; never raises (a worker
    that could not warm up still serves, only its first request is slower)."""
    try:
        from celery import current_app

        _patterns_compile(get_resolver())  # imports the URLconf (every app's views), compiles its paths
        if not current_app.conf.task_always_eager:
            current_app.tasks  # noqa: B018  (finalizes the app: its tasks bound)
            current_app.amqp.router  # noqa: B018
            current_app.backend  # noqa: B018
            with current_app.connection_for_write() as conn:
                conn.transport  # noqa: B018  (the transport's class and its client library, unconnected)
    except Exception:  # a warm-up is an optimisation: the worker serves without it
        logger.exception("The web process could not warm up; its first requests will")
    _steps_run([_token_statement_build, *_process_steps])


def _token_statement_build() -> None:
    """The API token's statement and its rows' converters (briternia.auth), built once."""
    from .auth import token_statement_build

    token_statement_build()


def _thread_warm() -> None:
    """What a request thread builds at its first request: Celery's result backend (a Redis
    backend is not thread-safe, so Celery keeps one per thread and builds it, with its connection
    pool, at the thread's first publish: about 9 ms of CPU, though no result is ever stored), and
    the apps' registered steps."""
    from celery import current_app

    from .auth import token_statement_prepare

    steps: list[Callable[[], object]] = []
    if not current_app.conf.task_always_eager:
        steps.append(lambda: current_app.backend)
    if connection.connection is not None and connection.vendor == "postgresql":
        steps.append(token_statement_prepare)  # prepared on this thread's connection
    _steps_run([*steps, *_thread_steps])


def _patterns_compile(resolver: URLResolver) -> None:
    """Every path's pattern compiled (Django compiles each the first time a request is matched
    against it)."""
    for pattern in resolver.url_patterns:
        pattern.pattern.regex  # noqa: B018
        if isinstance(pattern, URLResolver):
            _patterns_compile(pattern)


def web_threads_connect(pool: Executor, threads: int, *, wait_seconds: float = 5.0) -> None:
    """Start each of the worker's `threads` request threads (`pool`, gunicorn's, which starts them
    one by one as requests come) and open its own database connection (Django's are per thread and
    kept between requests: CONN_MAX_AGE), before the first request: a rush that meets a worker just
    started waits for neither, and PostgreSQL starts its server processes before it. Each thread
    also builds what it would at its first request (`_thread_warm`). Waits at most `wait_seconds`;
    a database that does not answer is the first requests' to meet."""
    started = threading.Barrier(threads)
    holding = _ProducerHolding(threads)

    def connect() -> None:
        try:
            started.wait(wait_seconds)  # each task held until all have a thread of their own
            connection.ensure_connection()
        except Exception:  # noqa: BLE001  (a warm-up: the requests connect as usual)
            logger.warning("A request thread could not connect to the database before serving", exc_info=True)
        _thread_warm()
        try:
            _broker_producer_ready(holding, wait_seconds)
        except Exception:  # noqa: BLE001  (a warm-up: the requests connect as usual)
            holding.abort()  # the other threads stop holding theirs
            logger.warning("A request thread could not connect to the broker before serving", exc_info=True)

    wait([pool.submit(connect) for _ in range(threads)], timeout=wait_seconds)


class _ProducerHolding:
    """Which request threads ready a broker producer: as many as the producer pool holds (Celery's
    `broker_pool_limit`) or the worker has threads, whichever is fewer; each holds its producer
    until all of them have one (`barrier`)."""

    def __init__(self, threads: int) -> None:
        from celery import current_app

        limit = current_app.conf.broker_pool_limit or threads
        self.holders = min(threads, limit)
        self.barrier = threading.Barrier(self.holders)
        self._taken = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        """Whether this thread is one of the holders."""
        with self._lock:
            self._taken += 1
            return self._taken <= self.holders

    def abort(self) -> None:
        self.barrier.abort()


def _broker_producer_ready(holding: _ProducerHolding, wait_seconds: float) -> None:
    """A producer of Celery's pool connected to the broker, with the queues declared on its
    channel, as a request's first publish would (a receipt's send task): each new producer's
    connection, its channel, its Redis client (redis-py reads its own version from the installed
    package's metadata for each) and the declaration were about a fifth of a worker's first requests'
    CPU. Each holder holds its producer until all have one (`holding`), so the pool keeps as many
    connected producers as the worker has threads (at most the pool's limit). One try within the
    broker's connect timeout (1 s): a broker that is down is still the first request's to meet
    (briternia/queue.py)."""
    from celery import current_app

    if current_app.conf.task_always_eager or not holding.take():
        return
    with current_app.producer_or_acquire() as producer:
        producer.connection.ensure_connection(max_retries=0)
        for queue in current_app.amqp.queues.values():
            producer.maybe_declare(queue)
        holding.barrier.wait(wait_seconds)


# A web worker's collector: young collections this many allocations apart (Python's default is
# 700). A submission allocates a few thousand containers that its end frees by reference counting;
# at 700 the collector ran several times a request over objects about to be freed anyway.
WEB_GC_YOUNG_THRESHOLD = 20_000


def web_process_gc_settle(young_threshold: int = WEB_GC_YOUNG_THRESHOLD) -> None:
    """Once the worker is warm (everything imported and built): what exists now is kept out of the
    collector's passes (`gc.freeze`: modules, classes, the URL patterns, the built statements live
    as long as the process), and young collections are spaced `young_threshold` allocations apart.
    Under the weekly rush the collector took about 1 ms of every request's CPU in a worker, most of
    it full collections walking the whole warm process (about 100 ms each, one in the rush's first
    wave of each worker); after this, a few milliseconds a wave (docs/performance.md). Cycles
    made by requests are still collected."""
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(young_threshold, middle, oldest)
