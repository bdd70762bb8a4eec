"""Real-browser tests: one headless Chromium for the session, a fresh context per user.

Playwright's sync API runs an event loop in the test thread, so Django's ORM would refuse to
run there ("you cannot call this from an async context"): the tests read and write the
database directly while driving the browser, hence DJANGO_ALLOW_ASYNC_UNSAFE.
"""

from __future__ import annotations

import email
import email.policy
import gc
import os
import re
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from playwright.sync_api import Browser, Page, expect, sync_playwright

from demo.campaign import demo_campaign_create
from demo.turn import demo_turn_play
from kernel.dice import ScriptedDice
from kingdoms.models import Campaign, Kingdom
from kingdoms.services import campaigns as campaign_services
from rulebook.setup.maps import load_default_map
from tests.battle_setup import file_battle_orders
from tests.shared_rows import Capture, Layer
from turns.models import Turn
from turns.services.cycle import orders_phase_run

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Short enough that a missing element fails the test quickly, long enough for a slow CI machine.
TIMEOUT_MS = 10_000
PASSWORD = "a-long-test-password"
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/browser is a browser test (run or skip them with -m browser)."""
    for item in items:
        if HERE in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def live_server_sockets_collected() -> Iterator[None]:
    """The test server's sockets are collected with the browser test that used them.

    A request Chromium aborts (a navigation, a closed context) can leave the live server's side of
    the connection in a reference cycle; collected later by the garbage collector, its "unclosed
    socket" ResourceWarning fails an unrelated test (CI, stop 38: tests/kingdoms/test_api.py, a
    socket on 127.0.0.1 with no peer). It is the test server's socket, not the product's: collect
    it here, with that one warning silenced."""
    yield
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"unclosed <socket\.socket", category=ResourceWarning)
        gc.collect()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        reason = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)."
        if os.environ.get("BRITERNIA_REQUIRE_BROWSER") == "1":
            pytest.fail(f"BRITERNIA_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        playwright.stop()


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Callable[[], Page]]:
    """Opens a page in a fresh browser context: one per user, so their sessions stay apart."""
    contexts = []

    def open_() -> Page:
        context = browser.new_context()
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_
    for context in contexts:
        context.close()


@pytest.fixture
def page(open_page: Callable[[], Page]) -> Page:
    return open_page()


def login(page: Page, live_server, username: str, password: str) -> None:
    """Log in through the login form and check the header names the user (by their display name,
    never their address)."""
    from django.contrib.auth import get_user_model

    from kingdoms.people import display_name

    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("header .who")).to_have_text(display_name(get_user_model().objects.get(username=username)))


def password_set(page: Page, link: str, password: str, display_name: str | None = None) -> None:
    """Follow a set-password link (invitation or reset) and choose `password` (and the name the
    other players see, which starts derived from the kingdom, never the address)."""
    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text("Set your password")
    expect(page.get_by_label("Display name")).not_to_have_value(re.compile("@"))
    if display_name:
        page.get_by_label("Display name").fill(display_name)
    page.get_by_label("New password:", exact=True).fill(password)
    page.get_by_label("New password confirmation").fill(password)
    page.get_by_role("button", name="Set my password").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your password is set")


@dataclass(frozen=True)
class _Read:
    """One .eml file as parsed: its size then, the message, and the headers the tests filter on
    (a header is parsed again at each access of the message's own)."""

    size: int
    message: EmailMessage
    to: str
    subject: str


class Outbox:
    """The .eml files the site wrote, read back as email messages.

    Each file is parsed once: a walk asks for its mail after every step, and parsing every email
    again each time (their PDFs attached) grew with the walk's mail (the four-turn walk-through spent
    most of its own CPU there). A file is written once and never changed; one still being written
    when read is parsed again once its size has changed."""

    def __init__(self, directory: Path):
        self.directory = directory
        self._read: dict[Path, _Read] = {}

    def messages(self) -> list[EmailMessage]:
        return [read.message for read in self._all()]

    def to(self, address: str, subject: str = "") -> list[EmailMessage]:
        """The messages to `address` whose subject contains `subject`, oldest first."""
        return [read.message for read in self._all() if address in read.to and subject in read.subject]

    def _all(self) -> list[_Read]:
        if not self.directory.exists():
            return []
        return [self._file(path) for path in sorted(self.directory.glob("*.eml"))]

    def _file(self, path: Path) -> _Read:
        read = self._read.get(path)
        if read is None or read.size != path.stat().st_size:
            content = path.read_bytes()
            message = email.message_from_bytes(content, policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            read = self._read[path] = _Read(len(content), message, str(message["To"]), str(message["Subject"]))
        return read


def text_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None, f"'{message['Subject']}' has no text part"
    return part.get_content()


def html_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("html",))
    assert part is not None, f"'{message['Subject']}' has no HTML part"
    return part.get_content()


def link_in(message: EmailMessage, live_server) -> str:
    """The one link to the live server in the message's text part."""
    links = set(re.findall(re.escape(live_server.url) + r"/accounts/reset/\S+", text_of(message)))
    assert len(links) == 1, f"expected one set-password link in '{message['Subject']}', found {sorted(links)}"
    return links.pop()


@pytest.fixture
def outbox(settings, tmp_path, live_server) -> Outbox:
    """Emails become .eml files under tmp_path, with links pointing at the live server."""
    settings.EMAIL_BACKEND = "briternia.mail.EmlFileBackend"
    settings.EMAIL_OUTBOX_DIR = tmp_path / "outbox"
    settings.SITE_URL = live_server.url
    return Outbox(tmp_path / "outbox")


@pytest.fixture
def make_user(transactional_db):
    def make(username: str, *, staff: bool = False, email: str | None = None):
        return get_user_model().objects.create_user(
            username=username, email=email or f"{username}@example.org", password=PASSWORD, is_staff=staff
        )

    return make


@pytest.fixture
def organizer(make_user):
    return make_user("organizer", staff=True)


@pytest.fixture
def invited_campaign(organizer, make_user) -> Campaign:
    """A two-player campaign on the default map; anna (Reikland, Empire) and bert (Karak Azgal,
    Dwarfs) are invited and already have passwords."""
    campaign = campaign_services.campaign_create(
        name="Browser Campaign",
        organizer=organizer,
        player_count=2,
        time_zone="Europe/London",
        map_spec=load_default_map(),
    )
    for username, kingdom_name, army_type in [("anna", "Reikland", "empire"), ("bert", "Karak Azgal", "dwarfs")]:
        make_user(username)
        campaign_services.player_invite(
            campaign=campaign, email=f"{username}@example.org", kingdom_name=kingdom_name, army_type=army_type
        )
    return campaign


@pytest.fixture
def army_lists_campaign(invited_campaign) -> Campaign:
    """The two-player campaign with homes and provinces picked: it waits for army lists.
    Reikland holds Highcastle (11) with 1 and 2; Karak Azgal holds Tidewater (71) with 61 and 62."""
    campaign = invited_campaign
    reikland = Kingdom.objects.get(campaign=campaign, name="Reikland")
    karak = Kingdom.objects.get(campaign=campaign, name="Karak Azgal")
    # Reikland rolls 11 and picks its home first; Karak Azgal rolls 3 and picks its provinces first.
    campaign_services.home_selection_start(campaign=campaign, dice=ScriptedDice(faces=[6, 5, 2, 1]))
    campaign_services.home_pick(campaign=campaign, kingdom=reikland, number=11)
    campaign_services.home_pick(campaign=campaign, kingdom=karak, number=71)
    karak.refresh_from_db()
    campaign_services.adjacent_pick(campaign=campaign, kingdom=karak, numbers=[61, 62])
    reikland.refresh_from_db()
    campaign_services.adjacent_pick(campaign=campaign, kingdom=reikland, numbers=[1, 2])
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.ARMY_LISTS
    return campaign


def _reported_build(below: None, capture: Capture) -> Turn:
    campaign = demo_campaign_create()
    demo_turn_play(campaign)
    return campaign.turns.get(number=1)


# The demo's turn 1 played as `make demo` plays it, every report rendered and sent, committed as it
# is built (a live server reads it): built once per run for the closed turns' tests and the
# accessibility module's played campaign.
REPORTED = Layer("demo campaign, turn 1 played and committed (browser tests)", _reported_build, commits=True)


@contextmanager
def on_commit_work_left_out() -> Iterator[None]:
    """What runs inside commits in one transaction, its on-commit work dropped first: a phase's
    scenario sheets and reports stay queued rows, not rendered or emailed, as when the broker
    cannot take the task (the deadline sweep takes them up). For a test that reads no PDF or email
    of that work: each PDF costs seconds of CPU. A live-server test runs in autocommit, where each
    service runs its on-commit work at its own commit, so django_capture_on_commit_callbacks
    (a TestCase's rolled-back transaction) cannot hold it back; this outer transaction does."""
    with transaction.atomic():
        queued = len(connection.run_on_commit)
        yield
        del connection.run_on_commit[queued:]


@pytest.fixture
def posted(outbox: Outbox, demo_campaign: Campaign) -> Turn:
    """The demo campaign's turn 1 resolved into its two battles (the scenario emails go to the outbox)."""
    turn = demo_campaign.turns.get(number=1)
    file_battle_orders(demo_campaign, turn)
    assert orders_phase_run(turn_id=turn.pk).resolved
    turn.refresh_from_db()
    return turn
