"""manage.py loadtest: the weekly rush, measured (issue 17, `make loadtest`).

Generates a running campaign of 200 kingdoms (one player each, with an API token), starts gunicorn
(the Procfile's server with its production workers, cores + 1 unless WEB_CONCURRENCY says, DEBUG
off) on 127.0.0.1 against the configured database, and has every player file a full order sheet
through the API twice: all at once (50 at a time), then spread over a minute as a real deadline
brings them. Prints p50, p95, max and throughput of each wave and checks the database: every
submission there (none lost), once (none doubled) and exactly as sent (none wrong). Sends traffic
only to 127.0.0.1, bounded in requests (2 x 200) and time (30 s a request, 5 minutes in all);
stops the server it started, by its process group.
"""

from __future__ import annotations

import concurrent.futures
import datetime as dt
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from kingdoms.models import Army, Campaign, Province
from orders.models import OrderSheet, OrderSubmission
from turns.models import Turn

from .bench import campaign_generate, sheet_entries_generate

PLAYERS = 200
CONCURRENCY = 50
SPREAD_SECONDS = 60
REQUEST_TIMEOUT = 30
RUN_LIMIT_SECONDS = 300
ROOT = Path(settings.BASE_DIR)
GUNICORN = str(Path(sys.executable).parent / "gunicorn")


@dataclass(frozen=True)
class Filing:
    kingdom: int
    token: str
    entries: dict[str, Any]


@dataclass(frozen=True)
class Answer:
    kingdom: int
    status: int
    seconds: float


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Command(BaseCommand):
    help = "Measure 200 players filing order sheets through the API on gunicorn (127.0.0.1 only)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--players", type=int, default=PLAYERS)
        parser.add_argument("--spread", type=int, default=SPREAD_SECONDS, help="seconds the second wave spreads over")

    def handle(self, *args: Any, players: int, spread: int, **options: Any) -> None:
        if players < 1 or players > 500 or spread < 1 or spread > 120:
            raise CommandError("--players 1-500, --spread 1-120 seconds: the load test stays bounded.")
        started = time.monotonic()
        turn, filings = self._campaign(players)
        port = _free_port()
        server = self._gunicorn(port)
        try:
            self._wait_until_up(port, server)
            url = f"http://127.0.0.1:{port}/api/turns/{turn.pk}/sheet/"
            for wave, schedule in (
                (f"all at once ({CONCURRENCY} concurrent)", None),
                (f"spread over {spread} s", spread),
            ):
                OrderSheet.objects.filter(turn=turn).delete()
                answers, elapsed = self._wave(url, filings, schedule, started)
                self._print(wave, answers, elapsed, self._check(turn, filings))
        finally:
            self._stop(server)
            campaign = Campaign.objects.get(pk=turn.campaign_id)
            campaign.delete()
        load = os.getloadavg()
        self.stdout.write(f"load average (1, 5, 15 min) at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")

    def _campaign(self, players: int) -> tuple[Turn, list[Filing]]:
        """The generated campaign (bench's), each kingdom with a player and a token, and the sheet
        each player will file."""
        rng = random.Random(17)
        with transaction.atomic():
            campaign = campaign_generate(
                kingdoms=players, columns=40, rows=40, armies_per_kingdom=2, seed=17, sheets=False
            )
            User = get_user_model()
            users = User.objects.bulk_create(
                User(username=f"load-{campaign.pk}-{i}", email=f"load-{i}@briternia.local") for i in range(players)
            )
            for user in users:
                user.set_unusable_password()  # tokens only: no password hashing in the measured requests
            User.objects.bulk_update(users, ["password"])
            kingdoms = list(campaign.kingdoms.order_by("id"))
            for kingdom, user in zip(kingdoms, users, strict=True):
                kingdom.players.add(user)
            made = Token.objects.bulk_create(Token(user=u, key=Token.generate_key()) for u in users)
            tokens = {t.user_id: t.key for t in made}
        armies = list(Army.objects.filter(kingdom__campaign=campaign))
        number_of = dict(Province.objects.filter(campaign=campaign).values_list("id", "number"))
        neighbours: dict[int, list[int]] = {}
        for a, b in Province.neighbours.through.objects.filter(from_province__campaign=campaign).values_list(
            "from_province__number", "to_province__number"
        ):
            neighbours.setdefault(a, []).append(b)
        filings = [
            Filing(
                kingdom=kingdom.id,
                token=tokens[user.id],
                entries=sheet_entries_generate(
                    kingdom=kingdom, armies=armies, neighbours=neighbours, number_of=number_of, rng=rng
                ),
            )
            for kingdom, user in zip(kingdoms, users, strict=True)
        ]
        turn = campaign.turns.get(number=1)
        # The deadline far enough ahead for both waves.
        Turn.objects.filter(pk=turn.pk).update(orders_deadline=timezone.now() + dt.timedelta(days=30))
        return turn, filings

    def _gunicorn(self, port: int) -> subprocess.Popen[bytes]:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "briternia.settings",
            "DJANGO_DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "LOG_LEVEL": "WARNING",
        }
        log = Path(settings.VAR_DIR) / "loadtest-gunicorn.log"
        with log.open("wb") as out:
            return subprocess.Popen(
                [GUNICORN, "briternia.wsgi", "-c", "gunicorn.conf.py", "--access-logfile", "/dev/null"],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def _wait_until_up(self, port: int, server: subprocess.Popen[bytes]) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise CommandError("gunicorn stopped: see var/loadtest-gunicorn.log")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health/", timeout=2).read()
                return
            except (OSError, urllib.error.URLError):
                time.sleep(0.3)
        raise CommandError("gunicorn did not answer within 60 s")

    def _stop(self, server: subprocess.Popen[bytes]) -> None:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)

    def _wave(self, url: str, filings: list[Filing], spread: int | None, started: float) -> tuple[list[Answer], float]:
        rng = random.Random(len(filings))
        begin = time.monotonic()
        offsets = [rng.uniform(0, spread) for _ in filings] if spread else [0.0] * len(filings)
        lock = threading.Lock()
        answers: list[Answer] = []

        def file(filing: Filing, offset: float) -> None:
            wait = begin + offset - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            if time.monotonic() - started > RUN_LIMIT_SECONDS:
                return
            body = json.dumps({**filing.entries, "submit": True}).encode()
            request = urllib.request.Request(
                url,
                data=body,
                method="PUT",
                headers={"Authorization": f"Token {filing.token}", "Content-Type": "application/json"},
            )
            sent = time.perf_counter()
            try:
                with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
                    status = response.status
            except urllib.error.HTTPError as error:
                status = error.code
            except OSError:
                status = 0
            with lock:
                answers.append(Answer(filing.kingdom, status, time.perf_counter() - sent))

        workers = CONCURRENCY if spread is None else len(filings)
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(file, filings, offsets))
        return answers, time.monotonic() - begin

    def _check(self, turn: Turn, filings: list[Filing]) -> dict[str, int]:
        """Lost: a kingdom with no submission; doubled: with more than one; wrong: whose submission
        is not the sheet it sent (the orders compared army by army)."""
        counts: dict[int, list[dict[str, Any]]] = {}
        for kingdom_id, entries in OrderSubmission.objects.filter(sheet__turn=turn).values_list(
            "sheet__kingdom_id", "entries"
        ):
            counts.setdefault(kingdom_id, []).append(entries)

        def orders(entries: dict[str, Any]) -> list[tuple[Any, ...]]:
            return sorted((o["army"], o["kind"], o.get("target")) for o in entries.get("orders", []))

        lost = sum(1 for f in filings if f.kingdom not in counts)
        doubled = sum(1 for f in filings if len(counts.get(f.kingdom, [])) > 1)
        wrong = sum(1 for f in filings if f.kingdom in counts and orders(counts[f.kingdom][-1]) != orders(f.entries))
        return {"lost": lost, "doubled": doubled, "wrong": wrong}

    def _print(self, wave: str, answers: list[Answer], elapsed: float, check: dict[str, int]) -> None:
        times = [a.seconds for a in answers]
        refused = sum(1 for a in answers if a.status != 200)
        self.stdout.write(
            f"{wave:32} requests {len(answers):4}  p50 {statistics.median(times) * 1000:7.0f} ms  "
            f"p95 {_percentile(times, 0.95) * 1000:7.0f} ms  max {max(times) * 1000:7.0f} ms  "
            f"throughput {len(answers) / elapsed:6.1f}/s  not 200: {refused}  "
            f"lost {check['lost']}  doubled {check['doubled']}  wrong {check['wrong']}"
        )
