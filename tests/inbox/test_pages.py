"""The pages of orders by email (issue 36, "Trust"): a player's own orders address, whose secret
only they see and replace (POST, CSRF), and the organizer's "Mail received" list for a campaign,
where nobody's secret shows and which players cannot open."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from inbox.models import InboundMessage
from inbox.services.receive import message_receive
from kingdoms.models import PlayerMailSecret
from kingdoms.services.mail_addresses import SECRET_ALPHABET, SECRET_LENGTH, mail_secret_for, orders_address_for
from tests.clients import user_named

from .messages import mail


def logged_in(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def test_the_orders_address_is_a_plus_address_with_a_high_entropy_secret(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    address = orders_address_for(alice, None)
    secret = mail_secret_for(alice)
    assert address == f"orders+{secret}@localhost"
    assert len(secret) == SECRET_LENGTH and set(secret) <= set(SECRET_ALPHABET)  # lowercase letters and digits
    assert mail_secret_for(bob) != secret
    assert orders_address_for(alice, None) == address  # made once, kept


def test_the_player_sees_their_own_address_and_replaces_its_secret_with_a_post_carrying_csrf(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    bobs_secret = mail_secret_for(bob)
    client = logged_in(alice)
    page = client.get("/account/orders-address/")
    assert page.status_code == 200
    old = mail_secret_for(alice)
    html = page.content.decode()
    assert f"orders+{old}@localhost" in html and bobs_secret not in html
    assert "Replace my orders address secret" in html
    assert client.post("/account/orders-address/").status_code == 403  # no CSRF token: refused
    assert mail_secret_for(alice) == old
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    response = client.post("/account/orders-address/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    new = mail_secret_for(alice)
    assert new != old and len(new) == SECRET_LENGTH
    assert mail_secret_for(bob) == bobs_secret
    # Mail to the old address is refused now.
    row = message_receive(
        mail(to=f"orders+{old}@localhost", sender="alice@example.org"),
        received_at=dt.datetime.now(tz=dt.UTC),
        source=InboundMessage.Source.MAILDROP,
    )
    assert row.status == InboundMessage.Status.REFUSED and row.user is None


@pytest.fixture
def received(demo_campaign):
    """A refused mail of Alice's (she plays Ostland in the demo) to her own address, and a forged one
    in her name."""
    alice = user_named("alice")
    for to, message_id in ((orders_address_for(alice, None), "<own@x>"), ("orders@localhost", "<forged@x>")):
        message_receive(
            mail(to=to, sender=alice.email, message_id=message_id, text="no sheet here\n"),
            received_at=dt.datetime.now(tz=dt.UTC),
            source=InboundMessage.Source.MAILDROP,
        )
    return demo_campaign


def test_the_organizer_sees_the_mail_received_for_the_campaign_and_never_a_secret(received):
    organizer = received.organizer
    page = logged_in(organizer).get(f"/campaigns/{received.pk}/mail/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('class="mail-') == 2
    assert "No valid secret" in html
    assert "orders+…@localhost" in html
    assert PlayerMailSecret.objects.get(user=user_named("alice")).secret not in html
    campaign_page = logged_in(organizer).get(f"/campaigns/{received.pk}/").content.decode()
    assert f'href="/campaigns/{received.pk}/mail/"' in campaign_page


@pytest.mark.parametrize("who", ["alice", "bob"])
def test_players_cannot_open_the_mail_received(received, who):
    assert logged_in(user_named(who)).get(f"/campaigns/{received.pk}/mail/").status_code == 404
    assert (
        f"/campaigns/{received.pk}/mail/"
        not in logged_in(user_named(who)).get(f"/campaigns/{received.pk}/").content.decode()
    )
