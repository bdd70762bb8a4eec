"""The clock as a player and the organizer meet it (issue 18, point 5) and the emails it sends
(point 7), in a real browser: a live countdown in the reader's own time zone to the deadline that
matters now (the orders deadline while orders are open, the results deadline in the battles phase,
"the deadline has passed" once it passes), run by a static script the Content-Security-Policy
allows; a private iCalendar feed of the campaign's deadlines; and the organizer's deadline change
reaching each player in an email of their own, both parts readable, the links pointing at the
address the site answered on, the reply going to the organizer and the new deadlines attached as
.ics. The demo campaign (turn 1, times in its zone) is the setting: alice leads Ostland."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from zoneinfo import ZoneInfo

import icalendar
import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from demo.campaign import DEMO_PASSWORD
from kingdoms.models import Campaign
from tests.battle_setup import file_battle_orders
from turns.models import Turn
from turns.services.cycle import orders_phase_run

from .conftest import TIMEOUT_MS, Outbox, html_of, login, on_commit_work_left_out, text_of

READER_ZONE = "America/New_York"  # not the campaign's, nor the server's (UTC)


@pytest.fixture
def campaign(outbox: Outbox, demo_campaign: Campaign) -> Campaign:
    return demo_campaign


@pytest.fixture
def turn(campaign: Campaign) -> Turn:
    return campaign.turns.get(number=1)


@pytest.fixture
def reader(browser: Browser) -> Iterator[tuple[Page, list[str]]]:
    """A page in New York, with every console error and page error it meets (a script the CSP
    blocked would be one)."""
    context = browser.new_context(timezone_id=READER_ZONE)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    yield page, problems
    context.close()


def _local_words(when: dt.datetime) -> str:
    local = when.astimezone(ZoneInfo(READER_ZONE))
    return f"{local:%A} {local.day} {local:%B %Y, %H:%M}"


def test_the_countdown_runs_in_the_readers_time_zone(reader, live_server, campaign: Campaign, turn: Turn) -> None:
    page, problems = reader
    deadline = (timezone.now() + dt.timedelta(minutes=30)).replace(microsecond=0)
    Turn.objects.filter(pk=turn.pk).update(orders_deadline=deadline)
    login(page, live_server, "alice", DEMO_PASSWORD)
    for path in [f"/campaigns/{campaign.pk}/", f"/turns/{turn.pk}/orders/"]:
        page.goto(f"{live_server.url}{path}")
        clock = page.locator("#deadline-clock")
        expect(clock).to_contain_text("Orders due")
        expect(clock.locator(".clock-when")).to_have_text(f"{_local_words(deadline)} (your time, {READER_ZONE})")
        left = clock.locator(".clock-left")
        expect(left).to_have_text(re.compile(r"^(29|30) minutes \d+ seconds? left$"))
        first = left.inner_text()
        expect(left).not_to_have_text(first)  # it counts down by itself
    assert not problems, problems


def test_the_battles_phase_counts_down_to_the_results_deadline_and_says_when_it_passed(
    reader, live_server, campaign: Campaign, turn: Turn
) -> None:
    page, problems = reader
    file_battle_orders(campaign, turn)
    with on_commit_work_left_out():  # its scenario sheets (PDFs) stay queued: this test reads the clocks
        assert orders_phase_run(turn_id=turn.pk).resolved
    turn.refresh_from_db()
    login(page, live_server, "alice", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    clock = page.locator("#deadline-clock")
    expect(clock).to_contain_text("Turn summary sheets due")
    expect(clock.locator(".clock-when")).to_contain_text(_local_words(turn.results_deadline))
    expect(clock.locator(".clock-left")).to_have_text(re.compile(r"^\d+ days? \d+ hours? left$"))
    expect(clock).not_to_contain_text("Orders due")
    # The battle page, where the players book their game, counts down to the same deadline.
    battle = turn.battles.order_by("pk").first()
    assert battle is not None
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    expect(page.locator("#deadline-clock")).to_contain_text("Turn summary sheets due")
    expect(page.locator("#deadline-clock .clock-when")).to_contain_text(_local_words(turn.results_deadline))

    Turn.objects.filter(pk=turn.pk).update(results_deadline=timezone.now() - dt.timedelta(minutes=5))
    page.goto(f"{live_server.url}/turns/{turn.pk}/battles/")
    expect(page.locator("#deadline-clock .clock-left")).to_have_text("the deadline has passed")
    expect(page.locator("body")).not_to_contain_text("passed left")
    assert not problems, problems


def test_a_player_subscribes_to_the_campaigns_deadlines(page: Page, browser: Browser, live_server, campaign, turn):
    login(page, live_server, "alice", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    href = page.locator("#calendar a").get_attribute("href")
    assert href and href.startswith(f"{live_server.url}/calendar/")
    # A calendar application fetches it without the player's session.
    stranger = browser.new_context()
    try:
        feed = stranger.request.get(href)
        assert feed.status == 200 and feed.headers["content-type"].startswith("text/calendar")
        events = {str(e["UID"]): e for e in icalendar.Calendar.from_ical(feed.body()).walk("VEVENT")}
        orders = events[f"turn-{turn.pk}-orders@briternia"]
        assert orders.decoded("DTEND") == turn.orders_deadline
        assert str(orders["SUMMARY"]) == f"{campaign.name}, turn 1: Orders due"
        assert events[f"turn-{turn.pk}-results@briternia"].decoded("DTEND") == turn.results_deadline
        # A key the site did not sign, or one changed by hand, opens nothing (a character that
        # differs from the one it replaces: the signature is random, it may be an "x" already).
        changed = "y" if href[-20] == "x" else "x"
        assert stranger.request.get(href[:-20] + changed + href[-19:]).status == 404
    finally:
        stranger.close()


def test_a_deadline_change_reaches_each_player_in_an_email_of_their_own(
    page: Page, live_server, settings, campaign: Campaign, turn: Turn, outbox: Outbox
) -> None:
    # The site answers on the live server's port, not where SITE_URL says: the links follow the request.
    settings.SITE_URL = "http://elsewhere.invalid:9999"
    zone = ZoneInfo(campaign.time_zone)
    new_deadline = turn.orders_deadline.astimezone(zone) + dt.timedelta(days=1)
    login(page, live_server, "organizer", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/turns/{turn.pk}/sheets/")
    page.get_by_label("Orders deadline").fill(new_deadline.strftime("%Y-%m-%dT%H:%M"))
    reason = 'Tom\'s "cup" final & the <derby>'
    page.locator("#id_reason").fill(reason)
    page.get_by_role("button", name="Save the deadlines").click()
    expect(page.locator(".messages")).to_contain_text("Deadlines saved; the players are told by email.")

    changed = [m for m in outbox.messages() if "orders deadline changed" in m["Subject"]]
    players = sorted(p.email for k in campaign.kingdoms.all() for p in k.players.all() if p.email)
    assert sorted(str(m["To"]) for m in changed) == players  # one email each, nobody sees another's address
    for message in changed:
        assert str(message["Reply-To"]) == campaign.organizer.email
        text = text_of(message)
        assert f"Reason: {reason}" in text
        assert not re.search(r"&(quot|#x27|#39|amp|lt|gt);", text), text
        assert f"{live_server.url}/campaigns/{campaign.pk}/" in text and "elsewhere.invalid" not in text
        html = html_of(message)
        assert "Tom&#x27;s &quot;cup&quot; final &amp; the &lt;derby&gt;" in html
        assert f'href="{live_server.url}/campaigns/{campaign.pk}/"' in html
        (attachment,) = list(message.iter_attachments())
        assert attachment.get_content_type() == "text/calendar"
        (event,) = [
            e
            for e in icalendar.Calendar.from_ical(attachment.get_content()).walk("VEVENT")
            if str(e["UID"]) == f"turn-{turn.pk}-orders@briternia"
        ]
        assert event.decoded("DTEND") == new_deadline
        assert int(event["SEQUENCE"]) == 1  # supersedes the event the feed gave before
