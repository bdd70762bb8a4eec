"""manage.py loadtest: the weekly rush, measured (issue 17, `make loadtest`).

Generates a running campaign of 200 kingdoms (one player each, with an API token), starts gunicorn
(the Procfile's server with its production workers, cores + 1 unless WEB_CONCURRENCY says, threaded,
DEBUG off) on 127.0.0.1 against the configured database, and has every player file a full order sheet
through the API twice: all at once (50 at a time), then spread over a minute as a real deadline
brings them. Prints p50, p95, max and throughput of each wave and checks the database: every
submission there (none lost), once (none doubled) and exactly as sent (none wrong).

Then the deadline race (issue 34), twice, each on a fresh campaign of `--race-players` kingdoms (80):
every player sends a sheet at a random moment of the last two seconds before the deadline, and the
deadline sweep runs in this process from the deadline on (as beat's would, every half second rather
than every minute) until it has resolved the turn. Prints how many sheets sent in time were refused
and whether the turn resolved once on the sheets taken in. The second race sends `X-Request-Start`
as a proxy on 127.0.0.1 would stamp it (the server trusts 127.0.0.1 here: TRUSTED_PROXY_IPS).

Last, two Resolve clicks 100 ms apart while a `--clicks-kingdoms` (100) kingdom resolution runs: the
first records the request, the resolution starts (in this process, as a Celery worker would take it
up), the second is answered at once that the turn is being resolved. Prints both answers and their
times, and counts the 5xx answers in gunicorn's log.

Sends traffic only to 127.0.0.1, bounded in requests and time (30 s a request, 5 minutes a part);
stops the server it started, by its process group.
"""

from __future__ import annotations

import concurrent.futures
import datetime as dt
import json
import os
import random
import secrets
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
from django.db import connection, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from briternia.locks import phase_running_since
from briternia.processes import group_stop
from kingdoms.models import Campaign
from orders.models import OrderSheet, OrderSubmission
from turns.models import Turn
from turns.services.cycle import orders_phase_run
from turns.services.sweep import deadline_sweep_run

from .bench import campaign_generate, kingdom_sheets_generate

PLAYERS = 200
CONCURRENCY = 50
SPREAD_SECONDS = 60
REQUEST_TIMEOUT = 30
RUN_LIMIT_SECONDS = 300
RACE_PLAYERS = 80
RACE_WINDOW_SECONDS = 2.0  # the sheets are sent in the last two seconds before the deadline
RACE_LEAD_SECONDS = 6.0  # from the campaign's last write to the window's start: the threads ready
CLICKS_KINGDOMS = 100
PARTS = ("rush", "race", "clicks")
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


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _process_cpu(pid: int) -> tuple[float, float]:
    """Seconds of CPU a process has used so far, in user and system mode, from /proc (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0, 0.0
    return int(fields[11]) / CLOCK_TICKS, int(fields[12]) / CLOCK_TICKS


def _group_pids(group: int) -> list[int]:
    """The processes of a process group (gunicorn's master and workers: it runs in its own session)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:
            pids.append(int(entry.name))
    return pids


def _backend_pids() -> list[int]:
    """PostgreSQL's server processes for this database (the gunicorn threads' connections), but
    this process's own; none on SQLite."""
    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return [row[0] for row in cursor.fetchall()]


class CpuMeter:
    """The CPU the wave cost, by whom: gunicorn (master and workers), this process (the client's
    threads, and its own few queries), PostgreSQL's server processes serving gunicorn. Read from
    /proc before and after; a process that ends during the wave (a worker recycled, a connection
    closed) loses what it used since the start, so the figures are a floor."""

    def __init__(self, server_group: int) -> None:
        self.server_group = server_group
        self.available = Path("/proc/self/stat").exists()

    def _sample(self) -> dict[str, dict[int, tuple[float, float]]]:
        if not self.available:
            return {}
        return {
            "gunicorn": {pid: _process_cpu(pid) for pid in _group_pids(self.server_group)},
            "client": {os.getpid(): _process_cpu(os.getpid())},
            "postgres": {pid: _process_cpu(pid) for pid in _backend_pids()},
        }

    def start(self) -> None:
        self.before = self._sample()

    def stop(self) -> dict[str, tuple[float, float]]:
        """Each one's CPU over the wave: (user, system) seconds."""
        after = self._sample()
        used = {}
        for who, pids in after.items():
            before = self.before.get(who, {})
            user = sum(now[0] - before.get(pid, (0.0, 0.0))[0] for pid, now in pids.items())
            system = sum(now[1] - before.get(pid, (0.0, 0.0))[1] for pid, now in pids.items())
            used[who] = (user, system)
        return used


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Command(BaseCommand):
    help = "Measure 200 players filing order sheets through the API on gunicorn (127.0.0.1 only)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--players", type=int, default=PLAYERS)
        parser.add_argument("--spread", type=int, default=SPREAD_SECONDS, help="seconds the second wave spreads over")
        parser.add_argument("--race-players", type=int, default=RACE_PLAYERS, help="players in the deadline race")
        parser.add_argument("--clicks-kingdoms", type=int, default=CLICKS_KINGDOMS, help="kingdoms resolved")
        parser.add_argument(
            "--only", choices=PARTS, action="append", help="run only this part (repeatable); all by default"
        )

    def handle(
        self,
        *args: Any,
        players: int,
        spread: int,
        race_players: int,
        clicks_kingdoms: int,
        only: list[str] | None,
        **options: Any,
    ) -> None:
        if players < 1 or players > 500 or spread < 1 or spread > 120:
            raise CommandError("--players 1-500, --spread 1-120 seconds: the load test stays bounded.")
        if not 1 <= race_players <= 200 or not 2 <= clicks_kingdoms <= 200:
            raise CommandError("--race-players 1-200, --clicks-kingdoms 2-200: the load test stays bounded.")
        parts = set(only or PARTS)
        port = _free_port()
        log = Path(settings.VAR_DIR) / "loadtest-gunicorn.log"
        server = self._gunicorn(port, log)
        try:
            self._wait_until_up(port, server)
            if "rush" in parts:
                self._rush(port, players, spread, CpuMeter(server.pid))
            if "race" in parts:
                for proxy in (False, True):
                    self._race(port, race_players, proxy=proxy)
            if "clicks" in parts:
                self._clicks(port, clicks_kingdoms)
        finally:
            group_stop(server, grace=30)
        errors = sum(1 for line in log.read_text(errors="replace").splitlines() if "Traceback" in line)
        self.stdout.write(f"tracebacks in gunicorn's log (var/loadtest-gunicorn.log): {errors}")
        load = os.getloadavg()
        self.stdout.write(f"load average (1, 5, 15 min) at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")

    def _rush(self, port: int, players: int, spread: int, meter: CpuMeter) -> None:
        started = time.monotonic()
        turn, filings = self._campaign(players)
        try:
            url = f"http://127.0.0.1:{port}/api/turns/{turn.pk}/sheet/"
            for wave, schedule in (
                (f"all at once ({CONCURRENCY} concurrent)", None),
                (f"spread over {spread} s", spread),
            ):
                OrderSheet.objects.filter(turn=turn).delete()
                meter.start()
                answers, elapsed = self._wave(url, filings, schedule, started)
                cpu = meter.stop()
                self._print(wave, answers, elapsed, self._check(turn, filings))
                self._cpu_print(cpu, len(answers), elapsed)
        finally:
            Campaign.objects.filter(pk=turn.campaign_id).delete()

    def _race(self, port: int, players: int, *, proxy: bool) -> None:
        """The deadline race: every player sends in the last RACE_WINDOW_SECONDS, the sweep runs from
        the deadline until the turn is resolved."""
        turn, filings = self._campaign(players)
        try:
            url = f"http://127.0.0.1:{port}/api/turns/{turn.pk}/sheet/"
            # Each worker process has read the campaign's world once, as during the week before.
            self._warm(url, filings)
            deadline = (timezone.now() + dt.timedelta(seconds=RACE_LEAD_SECONDS + RACE_WINDOW_SECONDS)).replace(
                microsecond=0
            ) + dt.timedelta(seconds=1)
            Turn.objects.filter(pk=turn.pk).update(orders_deadline=deadline)
            end = deadline.timestamp()
            rng = random.Random(players + proxy)
            moments = [end - RACE_WINDOW_SECONDS + rng.uniform(0, RACE_WINDOW_SECONDS - 0.001) for _ in filings]
            results: list[tuple[Filing, float, int, str]] = []
            lock = threading.Lock()
            sweeps: list[dict[str, Any]] = []

            def send(filing: Filing, at: float) -> None:
                time.sleep(max(0.0, at - time.time()))
                headers = {"Authorization": f"Token {filing.token}", "Content-Type": "application/json"}
                sent = time.time()
                if proxy:
                    headers["X-Request-Start"] = f"t={sent:.3f}"  # as nginx stamps it: t=${msec}
                body = json.dumps({**filing.entries, "submit": True}).encode()
                status, detail = self._put(url, body, headers)
                with lock:
                    results.append((filing, sent, status, detail))

            def sweep() -> None:
                try:
                    time.sleep(max(0.0, end - time.time()))
                    stop = time.time() + 120
                    while (
                        time.time() < stop
                        and Turn.objects.filter(
                            pk=turn.pk, status=Turn.Status.ORDERS_OPEN, held_at__isnull=True
                        ).exists()
                    ):
                        sweeps.append(
                            dict(
                                deadline_sweep_run(
                                    orders_phase=lambda turn_id: orders_phase_run(turn_id=turn_id),
                                    aftermath_phase=lambda turn_id: None,
                                )
                            )
                        )
                        time.sleep(0.5)
                finally:
                    connection.close()

            threads = [threading.Thread(target=send, args=(f, at)) for f, at in zip(filings, moments, strict=True)]
            threads.append(threading.Thread(target=sweep))
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(RUN_LIMIT_SECONDS)
            self._race_print(turn, deadline, results, sweeps, proxy=proxy)
        finally:
            Campaign.objects.filter(pk=turn.campaign_id).delete()

    def _race_print(
        self,
        turn: Turn,
        deadline: dt.datetime,
        results: list[tuple[Filing, float, int, str]],
        sweeps: list[dict[str, Any]],
        *,
        proxy: bool,
    ) -> None:
        end = deadline.timestamp()
        in_time = [r for r in results if r[1] <= end]
        refused = [r for r in in_time if r[2] != 200]
        accepted = {r[0].kingdom for r in results if r[2] == 200}
        turn.refresh_from_db()
        submissions = list(
            OrderSubmission.objects.filter(sheet__turn=turn, for_record=False).values_list(
                "sheet__kingdom_id", "submitted_at"
            )
        )
        resolutions = sum(s["resolutions"] for s in sweeps)
        on_their_sheets = (
            {k for k, _ in submissions} == accepted
            and len(submissions) == len(accepted)
            and all(at <= deadline for _, at in submissions)
        )
        label = "stamped by the proxy header" if proxy else "stamped by the server"
        self.stdout.write(
            f"deadline race ({label}): {len(results)} players in the last {RACE_WINDOW_SECONDS:.0f} s, "
            f"{len(in_time)} sent in time, refused {len(refused)}; taken in {len(accepted)}; "
            f"turn {turn.get_status_display().lower()}, resolved {resolutions} time(s), "
            f"{'on' if on_their_sheets else 'NOT on'} the sheets taken in (all arrived by the deadline); "
            f"sweep failures {sum(len(s['failed']) for s in sweeps)}"
        )
        for _filing, sent, status, detail in refused[:5]:
            self.stdout.write(f"  refused, sent {sent - end:+.3f} s from the deadline: {status} {detail[:200]}")

    def _warm(self, url: str, filings: list[Filing]) -> None:
        """A draft from a few players before the race: each worker reads the new campaign's world once."""
        for filing in filings[:6]:
            headers = {"Authorization": f"Token {filing.token}", "Content-Type": "application/json"}
            self._put(url, json.dumps({**filing.entries, "submit": False}).encode(), headers)

    def _put(self, url: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
        request = urllib.request.Request(url, data=body, method="PUT", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
                return response.status, ""
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")
        except OSError as error:
            return 0, str(error)

    def _post(self, url: str, token: str) -> tuple[int, str, float]:
        request = urllib.request.Request(url, data=b"", method="POST", headers={"Authorization": f"Token {token}"})
        begin = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
                return response.status, response.read().decode(errors="replace"), time.perf_counter() - begin
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), time.perf_counter() - begin
        except OSError as error:
            return 0, str(error), time.perf_counter() - begin

    def _clicks(self, port: int, kingdoms: int) -> None:
        """Two Resolve clicks 100 ms apart during a `kingdoms`-kingdom resolution."""
        turn, filings = self._campaign(kingdoms)
        try:
            url = f"http://127.0.0.1:{port}/api/turns/{turn.pk}/sheet/"
            for filing in filings:  # every kingdom's sheet in, so the resolution has work to do
                self._put(
                    url,
                    json.dumps({**filing.entries, "submit": True}).encode(),
                    {"Authorization": f"Token {filing.token}", "Content-Type": "application/json"},
                )
            organizer = Campaign.objects.get(pk=turn.campaign_id).organizer
            token, _ = Token.objects.get_or_create(user=organizer)
            resolve = f"http://127.0.0.1:{port}/api/turns/{turn.pk}/resolve/"
            phase: list[float] = []

            def run_phase() -> None:  # the Celery worker taking up the first click's task
                try:
                    begin = time.perf_counter()
                    orders_phase_run(turn_id=turn.pk)
                    phase.append(time.perf_counter() - begin)
                finally:
                    connection.close()

            first_sent = time.perf_counter()
            first = self._post(resolve, token.key)
            worker = threading.Thread(target=run_phase)
            worker.start()
            time.sleep(max(0.0, first_sent + 0.1 - time.perf_counter()))
            # The second click once the worker has claimed the turn (within milliseconds of the first's
            # answer), so it meets the running resolution.
            wait_until = time.perf_counter() + 5
            while phase_running_since("orders phase", turn.pk) is None and time.perf_counter() < wait_until:
                time.sleep(0.01)
            second_sent = time.perf_counter()
            second = self._post(resolve, token.key)
            worker.join(RUN_LIMIT_SECONDS)
            turn.refresh_from_db()
            for name, (status, body, seconds) in (("first", first), ("second", second)):
                self.stdout.write(f"Resolve click, {name}: {status} in {seconds * 1000:.0f} ms: {body[:220]}")
            self.stdout.write(
                f"the second click was sent {(second_sent - first_sent) * 1000:.0f} ms after the first; "
                f"the {kingdoms}-kingdom resolution took {phase[0] if phase else float('nan'):.1f} s; "
                f"turn {turn.get_status_display().lower()}"
            )
        finally:
            Campaign.objects.filter(pk=turn.campaign_id).delete()

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
        sheets = kingdom_sheets_generate(campaign=campaign, kingdoms=kingdoms, rng=rng)
        filings = [
            Filing(kingdom=kingdom.id, token=tokens[user.id], entries=sheet)
            for kingdom, user, sheet in zip(kingdoms, users, sheets, strict=True)
        ]
        turn = campaign.turns.get(number=1)
        # The deadline far enough ahead for both waves.
        Turn.objects.filter(pk=turn.pk).update(orders_deadline=timezone.now() + dt.timedelta(days=30))
        return turn, filings

    def _gunicorn(self, port: int, log: Path) -> subprocess.Popen[bytes]:
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
            # The deadline race's second run sends X-Request-Start as a proxy on this host would.
            "TRUSTED_PROXY_IPS": "127.0.0.1",
        }
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
        for kingdom_id, entries in OrderSubmission.objects.filter(sheet__turn=turn, for_record=False).values_list(
            "sheet__kingdom_id", "entries"
        ):
            counts.setdefault(kingdom_id, []).append(entries)

        def orders(entries: dict[str, Any]) -> list[tuple[Any, ...]]:
            return sorted((o["army"], o["kind"], o.get("target")) for o in entries.get("orders", []))

        lost = sum(1 for f in filings if f.kingdom not in counts)
        doubled = sum(1 for f in filings if len(counts.get(f.kingdom, [])) > 1)
        wrong = sum(1 for f in filings if f.kingdom in counts and orders(counts[f.kingdom][-1]) != orders(f.entries))
        return {"lost": lost, "doubled": doubled, "wrong": wrong}

    def _cpu_print(self, cpu: dict[str, tuple[float, float]], requests: int, elapsed: float) -> None:
        """The wave's CPU per request, by whom (with the share spent in the kernel), and how busy it
        kept the machine's cores."""
        if not cpu or not requests:
            return
        cores = os.cpu_count() or 1
        parts = "  ".join(
            f"{who} {(user + system) / requests * 1000:5.1f} ms (sys {system / max(user + system, 1e-9):.0%})"
            for who, (user, system) in cpu.items()
        )
        total = sum(user + system for user, system in cpu.values())
        self.stdout.write(
            f"{'':32} CPU per request: {parts}  (all three {total / requests * 1000:5.1f} ms; "
            f"{total / elapsed / cores:.0%} of {cores} cores over the wave)"
        )

    def _print(self, wave: str, answers: list[Answer], elapsed: float, check: dict[str, int]) -> None:
        times = [a.seconds for a in answers]
        refused = sum(1 for a in answers if a.status != 200)
        self.stdout.write(
            f"{wave:32} requests {len(answers):4}  p50 {statistics.median(times) * 1000:7.0f} ms  "
            f"p95 {_percentile(times, 0.95) * 1000:7.0f} ms  max {max(times) * 1000:7.0f} ms  "
            f"throughput {len(answers) / elapsed:6.1f}/s  not 200: {refused}  "
            f"lost {check['lost']}  doubled {check['doubled']}  wrong {check['wrong']}"
        )
