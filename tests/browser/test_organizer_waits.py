"""The organizer's long work, in a real browser (issue 18, point 9): "Resolve" and "Run the
aftermath" ask before they act; while a phase runs in the background the page says so and updates
by itself when it is done (a static polling script against the turn's JSON status, which the
Content-Security-Policy allows); a failed resolution reads as a sentence, never a traceback. The
demo campaign's turn 1 is the setting."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from demo.campaign import DEMO_PASSWORD
from kingdoms.models import Campaign
from tests.battle_setup import file_battle_orders
from tests.turns.refusals import events_refused
from turns.models import Turn
from turns.services.cycle import orders_phase_run

from .conftest import Outbox, login, on_commit_work_left_out


@pytest.fixture
def turn(outbox: Outbox, demo_campaign: Campaign) -> Turn:
    return demo_campaign.turns.get(number=1)


def _console_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def _decline_next_question(page: Page) -> list[str]:
    """Answer the page's next confirm() with Cancel; the list gets its question."""
    asked: list[str] = []

    def decline(dialog) -> None:  # type: ignore[no-untyped-def]
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", decline)
    return asked


def test_resolve_asks_first_and_a_declined_resolve_changes_nothing(page: Page, live_server, turn: Turn) -> None:
    errors = _console_errors(page)
    file_battle_orders(turn.campaign, turn)
    login(page, live_server, "organizer", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/turns/{turn.pk}/sheets/")
    asked = _decline_next_question(page)
    page.get_by_role("button", name="Resolve turn 1 now").click()
    expect(page.get_by_role("button", name="Resolve turn 1 now")).to_be_visible()
    assert asked and "Resolve turn 1 now, with the orders as they stand?" in asked[0]
    turn.refresh_from_db()
    assert turn.status == Turn.Status.ORDERS_OPEN and turn.orders_requested_at is None

    page.once("dialog", lambda dialog: dialog.accept())
    # The request resolves the turn itself (Celery eager), scenario sheets and all: its navigation
    # took 11 s on a loaded machine with a second xdist worker, past the default 10 s.
    page.get_by_role("button", name="Resolve turn 1 now").click(timeout=30_000)
    expect(page.get_by_role("heading", level=1)).to_have_text("Turn 1: Battles")
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.BATTLES
    assert not errors, errors


def test_the_page_shows_the_work_under_way_and_updates_itself_when_it_is_done(
    page: Page, live_server, turn: Turn
) -> None:
    errors = _console_errors(page)
    # A worker has claimed the turn and is resolving it (what Resolve leads to on a real stack).
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.RESOLVING_ORDERS)
    login(page, live_server, "organizer", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/turns/{turn.pk}/results/")
    progress = page.locator("#turn-progress")
    expect(progress).to_contain_text("The orders of turn 1 are being resolved")
    expect(progress).to_contain_text("This page updates by itself.")
    # The worker finishes: the page notices through its status endpoint and reloads by itself.
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.BATTLES)
    expect(page.get_by_role("heading", level=1)).to_have_text("Turn 1: Battles", timeout=10_000)
    expect(page.locator("#turn-progress")).to_have_count(0)
    assert not errors, errors


def test_a_failed_resolution_reads_as_a_sentence_never_a_traceback_and_the_desk_retries_it(
    page: Page, live_server, turn: Turn
) -> None:
    errors = _console_errors(page)

    with events_refused(RuntimeError("disk full")), pytest.raises(RuntimeError):
        orders_phase_run(turn_id=turn.pk)

    login(page, live_server, "organizer", DEMO_PASSWORD)
    for path in [f"/turns/{turn.pk}/results/", f"/turns/{turn.pk}/sheets/", f"/campaigns/{turn.campaign_id}/"]:
        page.goto(f"{live_server.url}{path}")
        failure = page.locator("#turn-progress")
        expect(failure).to_contain_text("FAILED. The orders phase of turn 1 FAILED and changed nothing.")
        expect(failure).to_contain_text("The orders phase failed on an error in the site and changed nothing")
        expect(failure).to_contain_text("RuntimeError: disk full")
        expect(page.locator("body")).not_to_contain_text("Traceback")
        expect(page.locator("body")).not_to_contain_text('File "')

    # Issue 37: the link leads to the desk, which says why, since when, and offers Retry; Retry asks
    # first, and once accepted runs the phase now (the disk has room again).
    page.get_by_role("link", name="retry it or restore a snapshot from the game master's desk").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("The game master's desk")
    failed = page.locator("#failures")
    expect(failed).to_contain_text("FAILED: the orders phase of turn 1 changed nothing.")
    expect(failed).to_contain_text("RuntimeError: disk full")
    expect(failed).to_contain_text("(1 try in a row)")
    retry = page.get_by_role("button", name="Retry the orders phase of turn 1 now")
    asked = _decline_next_question(page)
    retry.click()
    expect(retry).to_be_visible()
    assert asked and "Run the orders phase of turn 1 now?" in asked[0]
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.ORDERS_OPEN

    page.once("dialog", lambda dialog: dialog.accept())
    retry.click()
    expect(page.locator(".messages")).to_contain_text("the failed phase runs again now")
    expect(page.locator("#failures")).to_have_count(0)
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.BATTLES
    assert not errors, errors


def test_the_aftermath_asks_first(page: Page, live_server, turn: Turn) -> None:
    file_battle_orders(turn.campaign, turn)
    with on_commit_work_left_out():  # its scenario sheets stay queued: this test reads the question asked
        assert orders_phase_run(turn_id=turn.pk).resolved
    login(page, live_server, "organizer", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/turns/{turn.pk}/battles/")
    asked = _decline_next_question(page)
    page.get_by_role("button", name="Run the aftermath of turn 1").click()
    expect(page.get_by_role("button", name="Run the aftermath of turn 1")).to_be_visible()
    assert asked and "Run the aftermath of turn 1 now?" in asked[0]
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES and turn.aftermath_requested_at is None
