"""gunicorn's threaded worker (briternia/gunicorn_worker.py, issues 34 and 35): a request is stamped
with the time its first bytes reached the machine, however long it then waited (in the listen
backlog or for a thread), and a worker whose threads are all busy leaves a new connection to a
worker with a free thread.

The kernel's timestamps are read on real sockets; the worker runs as gunicorn runs it, in a
subprocess (its own process group, stopped by it) serving a small app that sleeps on request."""

from __future__ import annotations

import concurrent.futures
import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from briternia.gunicorn_worker import first_byte_arrival, listener_timestamps_enable
from briternia.processes import group_stop

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = str(Path(sys.executable).parent / "gunicorn")


def _kernel_stamping(listener: socket.socket) -> None:
    """Wait (at most 5 s) until the kernel stamps what arrives: the first socket of a machine to ask
    for stamps switches them on by deferred work (Linux's net_enable_timestamp), so a byte that
    arrives at once may carry none (seen under load: CI's neighbours). A worker's stamp falls back
    to its loop's clock then; this test is about the stamp itself."""
    stop = time.monotonic() + 5
    while True:
        with socket.create_connection(listener.getsockname()) as probe:
            probe.sendall(b"?")
            served, _ = listener.accept()
            with served:
                time.sleep(0.01)
                if first_byte_arrival(served) is not None:
                    return
        assert time.monotonic() < stop, "the kernel stamped nothing in 5 s"
        time.sleep(0.05)


def test_a_request_is_stamped_when_its_first_byte_arrived_not_when_it_was_accepted() -> None:
    with socket.socket() as listener:
        assert listener_timestamps_enable(listener)
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        _kernel_stamping(listener)
        with socket.create_connection(listener.getsockname()) as client:
            sent = time.time()
            client.sendall(b"GET / HTTP/1.1\r\n\r\n")
            time.sleep(0.4)  # the connection waits in the backlog, as behind a busy worker
            accepted_at = time.time()
            served, _ = listener.accept()
            with served:
                arrival = first_byte_arrival(served)
                assert arrival is not None
                assert sent - 0.05 <= arrival <= sent + 0.1 < accepted_at
                assert served.recv(100) == b"GET / HTTP/1.1\r\n\r\n"  # the peek took nothing away


def test_no_stamp_before_the_client_writes_and_none_without_the_kernel_option() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        with socket.create_connection(listener.getsockname()) as client:
            served, _ = listener.accept()
            with served:
                assert first_byte_arrival(served) is None  # nothing sent yet
                client.sendall(b"GET")
                time.sleep(0.05)
                assert first_byte_arrival(served) is None  # sent, but the listener asked for no stamps
    unix = socket.socket(socket.AF_UNIX)
    with unix:
        assert not listener_timestamps_enable(unix)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _gunicorn(tmp_path: Path, port: int, workers: int) -> subprocess.Popen[bytes]:
    config = tmp_path / "gunicorn.conf.py"
    config.write_text("")  # not the project's (its warm-up needs the site)
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [GUNICORN, "-c", str(config), "-b", f"127.0.0.1:{port}", "-w", str(workers), "--threads", "1"]
            + ["-k", "briternia.gunicorn_worker.StampingThreadWorker", "tests.briternia.wsgi_sleeper:app"],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    stop = time.monotonic() + 30
    while time.monotonic() < stop:
        try:
            _fetch(port, 0)
            return server
        except OSError:
            time.sleep(0.2)
    group_stop(server)
    raise AssertionError(log.read_text(errors="replace"))


def _fetch(port: int, sleep: float) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/?{sleep}", timeout=20) as response:
        return json.loads(response.read())


def test_a_request_waiting_for_the_busy_worker_keeps_the_time_it_arrived(tmp_path: Path) -> None:
    port = _free_port()
    server = _gunicorn(tmp_path, port, workers=1)
    try:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            first = pool.submit(_fetch, port, 0.8)
            time.sleep(0.3)  # the only thread is serving the first
            sent = time.time()
            second = _fetch(port, 0)
            answer = first.result()
        assert second["started"] >= answer["started"] + 0.75  # it waited for the thread
        assert sent - 0.05 <= second["stamp"] <= sent + 0.15  # and is stamped when it was sent
    finally:
        group_stop(server)


def test_a_worker_whose_threads_are_all_busy_leaves_the_next_connection_to_another(tmp_path: Path) -> None:
    port = _free_port()
    server = _gunicorn(tmp_path, port, workers=2)
    try:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            for _ in range(4):  # each time, whichever worker took the first
                first = pool.submit(_fetch, port, 0.6)
                time.sleep(0.2)
                second = _fetch(port, 0)
                assert second["pid"] != first.result()["pid"]
    finally:
        group_stop(server)
