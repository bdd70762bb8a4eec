"""A WSGI app for the gunicorn worker's tests (tests/briternia/test_gunicorn_worker.py): sleeps the
seconds its query string names, then answers which process served it and the arrival stamp the
worker left in the environ."""

from __future__ import annotations

import json
import os
import time
from typing import Any

from briternia.arrival import ENVIRON_KEY


def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    started = time.time()
    time.sleep(float(environ.get("QUERY_STRING") or 0))
    body = json.dumps({"pid": os.getpid(), "stamp": environ.get(ENVIRON_KEY), "started": started}).encode()
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]
