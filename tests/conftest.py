"""Shared fixtures: users, campaigns at each stage of setup (the demo campaign and its turn 1
reported among them), API clients."""

from __future__ import annotations

import pytest
from aiosmtpd.controller import Controller
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from rest_framework.test import APIClient

from battles.models import Battle
from demo.campaign import demo_campaign_create
from demo.turn import demo_turn_play
from kingdoms.models import Campaign, Kingdom, Unit
from kingdoms.services import campaigns as campaign_services
from rulebook.setup.maps import load_default_map
from tests.battle_setup import file_battle_orders, sheet_filed
from tests.shared_rows import RECORDED, Layer, Layers
from tests.smtp import FlakySMTP, free_port, use_smtp
from turns.models import Turn
from turns.services.cycle import aftermath_phase_run, orders_phase_run

PASSWORD = "a-long-test-password"


@pytest.hookimpl(trylast=True)  # after pytest-django's ordering (database tests, then transactional)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules holding a test marked `long` run first, in the order pytest-django gave every
    test (database tests, then transactional ones, then the rest). Under pytest-xdist (`make test`)
    a worker idle at the end takes what is still queued on the other, which it can do with short
    tests only: a walk-through of a minute and a half begun last kept one worker running alone for
    that long (issue 30)."""
    long_modules = {item.path for item in items if item.get_closest_marker("long")}
    items.sort(key=lambda item: item.path not in long_modules)  # stable: the rest keep their order


needs_broker = pytest.mark.skipif(
    settings.CELERY_TASK_ALWAYS_EAGER, reason="needs a broker: set CELERY_BROKER_URL (CI runs it against Redis)"
)


@pytest.fixture
def celery_worker(transactional_db):
    """Celery's own worker, in a thread of the test process, consuming from the real broker."""
    from celery.contrib.testing.tasks import ping  # registers the ping task the worker start-up checks
    from celery.contrib.testing.worker import start_worker
    from celery.result import _set_task_join_will_block

    from briternia.celery import app

    # The site stores no task's result (CELERY_TASK_IGNORE_RESULT); the start-up's ping check reads its own.
    ping.ignore_result = False

    with start_worker(app, pool="solo", perform_ping_check=True, shutdown_timeout=30) as worker:
        yield worker
    # The worker's start-up marks the whole process as a worker, where waiting for a result would
    # block (Celery's "Never call result.get() within a task!"); the tests after this one are not.
    _set_task_join_will_block(False)


@pytest.fixture(autouse=True)
def world_kept_fresh():
    """Each test's order sheets are checked against its own database: a rolled-back test leaves a
    campaign id and world_version that the next test's campaign takes again."""
    from kingdoms.services.world import world_kept_forget

    world_kept_forget()


@pytest.fixture(autouse=True)
def celery_eager_unless_worker_test(request):
    """Tasks run in-process in tests, even when CI configures a broker; the tests marked
    celery_worker send them to a real worker over Redis instead."""
    from celery.result import _set_task_join_will_block

    from briternia.celery import app

    eager = request.node.get_closest_marker("celery_worker") is None
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = eager
    if eager:
        # A worker started earlier in this process (a celery_worker test) marks the process as a
        # worker, where an eager task's .get() would be refused as a blocking join.
        _set_task_join_will_block(False)
    yield
    app.conf.task_always_eager = previous


@pytest.fixture
def make_user(db):
    def make(username: str, *, staff: bool = False):
        user = get_user_model().objects.create_user(
            username=username, email=f"{username}@example.org", password=PASSWORD, is_staff=staff
        )
        return user

    return make


@pytest.fixture
def organizer(make_user):
    return make_user("organizer", staff=True)


@pytest.fixture
def new_campaign(organizer):
    """A four-player campaign on the default map, nobody invited yet."""
    return campaign_services.campaign_create(
        name="Test Campaign",
        organizer=organizer,
        player_count=4,
        time_zone="Europe/London",
        map_spec=load_default_map(),
    )


@pytest.fixture
def invited_campaign(new_campaign, django_capture_on_commit_callbacks):
    """Four kingdoms invited (players p1..p4 already have passwords)."""
    User = get_user_model()
    for i, army_type in enumerate(["empire", "orcs-and-goblins", "dwarfs", "high-elves"], start=1):
        User.objects.create_user(username=f"p{i}", email=f"p{i}@example.org", password=PASSWORD)
        with django_capture_on_commit_callbacks(execute=True):
            campaign_services.player_invite(
                campaign=new_campaign, email=f"p{i}@example.org", kingdom_name=f"Kingdom {i}", army_type=army_type
            )
    return new_campaign


@pytest.fixture(scope="session")
def shared_layers(django_db_setup) -> Layers:
    """The shared builds of this run, each recorded once and written into each test that asks
    for it (tests/shared_rows.py)."""
    return RECORDED


def _demo_campaign_build(below: None, capture) -> Campaign:
    with capture(execute=True):
        return demo_campaign_create()


DEMO = Layer("demo campaign", _demo_campaign_build)


@pytest.fixture
def demo_campaign(db, shared_layers: Layers) -> Campaign:
    """The demo campaign: set up through the real services and running on turn 1 (built once per
    run, its rows written into each test that asks for it: tests/shared_rows.py)."""
    return shared_layers.take(DEMO)


@pytest.fixture
def k(demo_campaign) -> dict[str, Kingdom]:
    """The demo campaign's kingdoms by name."""
    return {x.name: x for x in Kingdom.objects.filter(campaign=demo_campaign)}


@pytest.fixture
def turn(demo_campaign) -> Turn:
    """The demo campaign's turn 1."""
    return demo_campaign.turns.get(number=1)


@pytest.fixture
def ostland(demo_campaign) -> Kingdom:
    """Alice's kingdom in the demo campaign."""
    return Kingdom.objects.get(campaign=demo_campaign, name="Ostland")


def _reported_build(campaign: Campaign, capture) -> Turn:
    """Turn 1 of the demo campaign played through: orders, battles, sheets, the aftermath; the
    reports are rendered and sent when the aftermath commits."""
    k = {x.name: x for x in Kingdom.objects.filter(campaign=campaign)}
    turn = campaign.turns.get(number=1)
    file_battle_orders(campaign, turn)
    with capture(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved
    battles = {b.province.number: b for b in Battle.objects.filter(turn=turn)}
    halberdiers = Unit.objects.get(army__name="Wardens", name="Halberdiers")
    sheet_filed(battles[62], k["Tor Anlec"], result="minor-victory")
    losses = [{"unit": halberdiers.id, "models_lost": 10}]
    sheet_filed(battles[62], k["Ostland"], result="minor-loss", casualties=losses)
    sheet_filed(battles[61], k["Da Red Fang"], result="minor-loss")
    sheet_filed(battles[61], k["Ostland"], result="minor-victory")
    mail.outbox.clear()
    with capture(execute=True):
        assert aftermath_phase_run(turn_id=turn.pk).resolved
    return turn


REPORTED = Layer("demo campaign, turn 1 reported", _reported_build, parent=DEMO, clears_outbox=True)


@pytest.fixture
def reported(demo_campaign, k, shared_layers) -> Turn:
    """Turn 1 of the demo campaign played through: orders, battles, sheets, the aftermath; the
    reports are rendered and sent when the aftermath commits (built once per run:
    tests/shared_rows.py). Its outbox holds the aftermath's emails."""
    return shared_layers.take(REPORTED)


def _demo_turn_played_build(campaign: Campaign, capture) -> Turn:
    """Turn 1 of the demo campaign played through as `make demo` plays it (demo/turn.py), its
    scenario sheets and reports queued, not rendered: the on-commit work (the PDFs, the map's
    picture, the emails) is left out; what the phases wrote is all there."""
    with capture(execute=False):
        demo_turn_play(campaign)
    return campaign.turns.get(number=1)


DEMO_TURN_PLAYED = Layer(
    "demo campaign, turn 1 played as make demo plays it, reports queued", _demo_turn_played_build, parent=DEMO
)


@pytest.fixture
def demo_turn_played(demo_campaign, shared_layers) -> Turn:
    """The demo campaign's turn 1 played through by demo_turn_play, its PDFs and emails queued, not
    rendered or sent (built once per run: tests/shared_rows.py). For the tests that read what the
    phases wrote (rows, report contexts, the turn's map), never a PDF."""
    return shared_layers.take(DEMO_TURN_PLAYED)


@pytest.fixture
def api_client_for():
    def make(user) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    return make


@pytest.fixture
def smtp(settings):
    """Start a real local SMTP server (tests.smtp.FlakySMTP) and send every email through it."""

    def start(failures: int) -> FlakySMTP:
        handler = FlakySMTP(failures)
        port = free_port()  # aiosmtpd checks its own start on the port given
        controller = Controller(handler, hostname="127.0.0.1", port=port)
        controller.start()
        servers.append(controller)
        use_smtp(settings, port)
        return handler

    servers: list[Controller] = []
    yield start
    for controller in servers:
        controller.stop()


@pytest.fixture(autouse=True)
def api_throttle_counts_cleared():
    """The API's throttle counts live in the cache: each test starts with none."""
    from django.core.cache import cache

    cache.clear()
    yield
