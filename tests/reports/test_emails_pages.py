"""The organizer's emails (reports/views.py: the campaign's "Emails" page, a turn's "Reports and
emails", the Resend button): every failed email of the campaign, whatever its kind, is shown to
its organizer with a button; to anyone else every one of these endpoints is not found."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from kingdoms.services import campaigns as campaign_services
from outbox.models import Email
from rulebook.setup.maps import load_default_map


def client_for(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


@pytest.fixture
def failed(demo_campaign) -> dict[str, Email]:
    """Alice's invitation (no turn) and a turn-1 email to Bob, both failed."""
    turn = demo_campaign.turns.get(number=1)
    invitation = Email.objects.get(campaign=demo_campaign, kind=Email.Kind.INVITATION, to=["alice@briternia.local"])
    reminder = Email.objects.create(
        kind=Email.Kind.ORDERS_REMINDER,
        campaign=demo_campaign,
        turn=turn,
        to=["bob@briternia.local"],
        subject="Da Red Fang's orders are due in 23 hours",
        text="File your orders.",
        html="<p>File your orders.</p>",
    )
    for email in (invitation, reminder):
        Email.objects.filter(pk=email.pk).update(
            status=Email.Status.FAILED, attempts=5, last_error="SMTPServerDisconnected: gone"
        )
    return {"invitation": invitation, "reminder": reminder}


@pytest.fixture
def rival(db):
    """The organizer of another campaign (not a superuser)."""
    user = get_user_model().objects.create_user(username="rival", email="rival@example.org", is_staff=True)
    campaign_services.campaign_create(
        name="Rival", organizer=user, player_count=2, time_zone="UTC", map_spec=load_default_map()
    )
    return user


def test_the_organizer_sees_every_failed_email_of_the_campaign(demo_campaign, failed):
    organizer = client_for("organizer")
    page = organizer.get(f"/campaigns/{demo_campaign.pk}/emails/").content.decode()
    failed_table = page[page.index('id="failed-emails"') : page.index('id="all-emails"')]
    assert "You are invited to" in failed_table and "orders are due in 23 hours" in failed_table
    for email in failed.values():
        assert f"/emails/{email.pk}/resend/" in failed_table
    assert failed_table.count("email-failed") == 2 and "SMTPServerDisconnected" in failed_table
    campaign_page = organizer.get(f"/campaigns/{demo_campaign.pk}/").content.decode()
    assert f"/campaigns/{demo_campaign.pk}/emails/" in campaign_page and "(2 failed)" in campaign_page
    turn = failed["reminder"].turn
    deliveries = organizer.get(f"/turns/{turn.pk}/deliveries/").content.decode()
    assert "orders are due in 23 hours" in deliveries and f"/emails/{failed['reminder'].pk}/resend/" in deliveries
    results = organizer.get(f"/turns/{turn.pk}/results/").content.decode()
    assert "1 email failed to go out" in results


def test_a_player_never_sees_the_emails(demo_campaign, failed, make_user):
    make_user("stranger")
    for username in ("alice", "stranger"):
        client = client_for(username)
        assert client.get(f"/campaigns/{demo_campaign.pk}/emails/").status_code == 404
        for email in failed.values():
            assert client.post(f"/emails/{email.pk}/resend/").status_code == 404
            assert client.post(f"/report-emails/{email.pk}/resend/").status_code == 404
        assert client.get(f"/turns/{failed['reminder'].turn_id}/deliveries/").status_code == 404
    assert (
        f"/campaigns/{demo_campaign.pk}/emails/"
        not in client_for("alice").get(f"/campaigns/{demo_campaign.pk}/").content.decode()
    )
    assert all(Email.objects.get(pk=e.pk).status == Email.Status.FAILED for e in failed.values())


def test_another_campaign_s_organizer_sees_none_of_them(demo_campaign, failed, rival):
    client = Client()
    client.force_login(rival)
    assert client.get(f"/campaigns/{demo_campaign.pk}/emails/").status_code == 404
    assert client.post(f"/emails/{failed['invitation'].pk}/resend/").status_code == 404
    assert client.get(f"/turns/{failed['reminder'].turn_id}/deliveries/").status_code == 404


def test_anonymous_visitors_are_sent_to_log_in(demo_campaign, failed):
    client = Client()
    response = client.get(f"/campaigns/{demo_campaign.pk}/emails/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = client.post(f"/emails/{failed['invitation'].pk}/resend/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_resend_is_a_post_and_sends_the_email_as_it_was_written(
    demo_campaign, failed, django_capture_on_commit_callbacks
):
    organizer = client_for("organizer")
    invitation = failed["invitation"]
    assert organizer.get(f"/emails/{invitation.pk}/resend/").status_code == 405
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer.post(f"/emails/{invitation.pk}/resend/", {"next": "https://elsewhere.example/"})
    assert response["Location"] == f"/campaigns/{demo_campaign.pk}/emails/"  # never off the site
    (message,) = mail.outbox
    invitation.refresh_from_db()
    assert message.subject == invitation.subject and message.body == invitation.text
    assert (invitation.status, invitation.attempts) == (Email.Status.SENT, 1)
    response = organizer.post(f"/emails/{invitation.pk}/resend/", follow=True)
    assert "there is nothing to resend" in response.content.decode() and len(mail.outbox) == 1


def test_a_resend_whose_back_address_is_no_page_of_the_site_goes_back_to_the_emails(
    demo_campaign, failed, django_capture_on_commit_callbacks
):
    """The Resend button posts the page it is on (`next`); a `next` that is no path of the site (a
    word, a number: a page of another build, a script) must not answer "Something went wrong" after
    the email was queued again (the page would say nothing was done, and a second try is refused as
    nothing to resend): the organizer lands on the campaign's emails with the outcome flashed."""
    organizer = Client(raise_request_exception=False)
    organizer.force_login(get_user_model().objects.get(username="organizer"))
    reminder = failed["reminder"]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer.post(f"/emails/{reminder.pk}/resend/", {"next": "turn-deliveries"})
    assert response.status_code == 302, response.status_code
    assert response["Location"] == f"/campaigns/{demo_campaign.pk}/emails/"
    reminder.refresh_from_db()
    assert reminder.status == Email.Status.SENT and len(mail.outbox) == 1
    page = organizer.get(response["Location"]).content.decode()
    assert "is queued again" in page
    # A path of the site is where the button was: back there.
    back = f"/turns/{reminder.turn_id}/deliveries/"
    response = organizer.post(f"/emails/{failed['invitation'].pk}/resend/", {"next": back})
    assert response["Location"] == back
