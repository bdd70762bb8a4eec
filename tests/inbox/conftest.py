from __future__ import annotations

import shutil

import pytest

from .mailservers import Dovecot, dovecot_available, dovecot_start


@pytest.fixture
def dovecot(settings) -> Dovecot:
    """A real IMAP server (tests/inbox/mailservers.py), and the inbox reading it."""
    if not dovecot_available():
        pytest.skip("Dovecot is not installed (apt-get install dovecot-imapd; .ci/run does)")
    server = dovecot_start()
    settings.INBOX_IMAP_HOST, settings.INBOX_IMAP_PORT, settings.INBOX_IMAP_SSL = "127.0.0.1", server.port, False
    settings.INBOX_IMAP_USER, settings.INBOX_IMAP_PASSWORD = "orders", "imap-test-password"
    settings.INBOX_IMAP_FOLDER = "INBOX"
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def maildrop(settings, tmp_path):
    """Each test's own mail drop (never the developer's var/maildrop)."""
    folder = tmp_path / "maildrop"
    for sub in ("new", "cur", "tmp"):
        (folder / sub).mkdir(parents=True)
    settings.INBOX_MAILDROP_DIR = str(folder)
    # ORDERS_EMAIL_ADDRESS stays the suite's (orders@localhost): the shared builds (the demo campaign)
    # may be made during these tests, and their emails' Reply-To must not depend on which test ran first.
    return folder
