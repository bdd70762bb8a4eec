"""The time a request arrived at the site, taken once before anything can wait (a lock, the
database, a busy worker): the order sheet's deadline is decided by it and it is recorded on the
submission, so a sheet that arrived in time counts whatever it waited for afterwards.

Three clocks may have seen the request; the earliest one that can be trusted wins:

- the proxy's, `X-Request-Start` (nginx `t=${msec}`, Heroku's router, New Relic's convention: `t=`
  then seconds, milliseconds or microseconds since the epoch), only from an address listed in
  `TRUSTED_PROXY_IPS`, and only within `ARRIVAL_PROXY_MAX_AGE_SECONDS` before this process saw it and
  `ARRIVAL_PROXY_MAX_SKEW_SECONDS` after (a header outside that window is a misconfigured clock or a
  forgery, and is ignored: the site's own stamp stands);
- gunicorn's worker, which stamps a request with the kernel's time of its first byte, however long
  it then waited in the listen backlog or for a thread (briternia/gunicorn_worker.py, `ENVIRON_KEY`);
- this middleware's, taken first thing, the one a server without either has.

No proxy is trusted by default: nginx passes a client's own `X-Request-Start` on unless it is told to
set it, so trusting 127.0.0.1 out of the box would let any player behind such a proxy state an
earlier arrival. The operator lists the proxy once it sets the header (README.md, "Behind a proxy").
"""

from __future__ import annotations

import datetime as dt
import functools
import ipaddress
import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

logger = logging.getLogger(__name__)

# The WSGI environ key under which briternia/gunicorn_worker.py leaves its stamp (seconds since the
# epoch): not an HTTP header, so no client can set it.
ENVIRON_KEY = "briternia.received_at"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@functools.lru_cache(maxsize=8)
def trusted_networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    """The proxies' addresses (`10.0.0.5`, `10.0.0.0/24`, `::1`) as networks; a malformed entry is
    a configuration error, raised at start-up rather than silently trusting nothing or everything."""
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries if entry.strip())


def _from_trusted_proxy(remote_addr: str, networks: tuple[Network, ...]) -> bool:
    if not networks or not remote_addr:
        return False
    try:
        address = ipaddress.ip_address(remote_addr)
    except ValueError:
        return False
    return any(address in network for network in networks)


def request_start_parse(value: str) -> float | None:
    """`X-Request-Start` as seconds since the epoch, or None when it is not a time. The unit is told
    by the size (the senders differ: nginx seconds with a fraction, Heroku milliseconds, some
    microseconds): any of them read as seconds would be a date thousands of years away."""
    text = value.strip()
    if text.startswith("t="):
        text = text[2:]
    try:
        number = float(text)
    except ValueError:
        return None
    if number != number or number <= 0 or number == float("inf"):  # NaN, negative, infinite
        return None
    if number >= 1e17:
        return number / 1e9  # nanoseconds
    if number >= 1e14:
        return number / 1e6  # microseconds
    if number >= 1e11:
        return number / 1e3  # milliseconds
    return number


def arrival_decide(
    *,
    now: float,
    worker_stamp: float | None,
    proxy_header: str | None,
    remote_addr: str,
    networks: tuple[Network, ...],
    max_age: float,
    max_skew: float,
) -> tuple[float, str]:
    """The request's arrival (seconds since the epoch) and which clock gave it ("proxy", "worker",
    "server"): the earliest trusted stamp, never later than `now`."""
    arrival, source = now, "server"
    if worker_stamp is not None and now - max_age <= worker_stamp < arrival:
        arrival, source = worker_stamp, "worker"
    if proxy_header and _from_trusted_proxy(remote_addr, networks):
        stamped = request_start_parse(proxy_header)
        if stamped is None:
            logger.warning("X-Request-Start %r from %s is not a time: ignored", proxy_header[:60], remote_addr)
        elif stamped > now + max_skew or stamped < now - max_age:
            logger.warning(
                "X-Request-Start from %s is %.3f s from this server's clock (allowed: %.0f s before, %.1f s after): "
                "ignored; is the proxy's clock set?",
                remote_addr,
                stamped - now,
                max_age,
                max_skew,
            )
        elif stamped < arrival:
            arrival, source = stamped, "proxy"
    return arrival, source


class ArrivalMiddleware:
    """Stamps `request.arrived_at` (UTC) and `request.arrival_source` first thing."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        trusted_networks(tuple(settings.TRUSTED_PROXY_IPS))  # a malformed address stops the start-up

    def __call__(self, request: HttpRequest) -> HttpResponse:
        now = timezone.now()
        worker_stamp = request.META.get(ENVIRON_KEY)
        seconds, source = arrival_decide(
            now=now.timestamp(),
            worker_stamp=worker_stamp if isinstance(worker_stamp, float) else None,
            proxy_header=request.META.get("HTTP_X_REQUEST_START"),
            remote_addr=request.META.get("REMOTE_ADDR") or "",
            networks=trusted_networks(tuple(settings.TRUSTED_PROXY_IPS)),
            max_age=float(settings.ARRIVAL_PROXY_MAX_AGE_SECONDS),
            max_skew=float(settings.ARRIVAL_PROXY_MAX_SKEW_SECONDS),
        )
        arrived = now if source == "server" else dt.datetime.fromtimestamp(seconds, tz=dt.UTC)
        request.arrived_at = arrived  # type: ignore[attr-defined]
        request.arrival_source = source  # type: ignore[attr-defined]
        return self.get_response(request)


def arrived_at(request: HttpRequest) -> dt.datetime:
    """When the request arrived (now, for a request the middleware did not see)."""
    when = getattr(request, "arrived_at", None)
    return when if isinstance(when, dt.datetime) else timezone.now()
