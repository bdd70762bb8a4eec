"""Tasks through a real Celery worker over Redis (runs when CELERY_BROKER_URL or REDIS_URL is set, as in CI)."""

import time

import pytest
from django.core import mail

from kingdoms.services import campaigns as campaign_services
from tests.conftest import needs_broker

pytestmark = [pytest.mark.celery_worker, needs_broker]


def test_invitation_is_sent_by_a_real_worker_after_commit(celery_worker, organizer):
    from rulebook.setup.maps import load_default_map

    campaign = campaign_services.campaign_create(
        name="Worker", organizer=organizer, player_count=2, time_zone="UTC", map_spec=load_default_map()
    )
    campaign_services.player_invite(campaign=campaign, email="w@example.org", kingdom_name="W", army_type="skaven")
    deadline = time.monotonic() + 30
    while not mail.outbox and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [m.to for m in mail.outbox] == [["w@example.org"]]
    assert "/accounts/reset/" in mail.outbox[0].body
