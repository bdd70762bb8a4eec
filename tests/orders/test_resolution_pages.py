"""After resolution: what each player sees (their own events, rolls and battles), the organizer's
buttons and preview, the API, and the sweep that resolves turns whose deadline has passed."""

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from freezegun import freeze_time

from battles.models import Battle
from kingdoms.models import Army, Kingdom
from orders.services.sheets import order_sheet_save
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from turns.models import Turn, TurnEvent
from turns.services.cycle import orders_phase_run
from turns.tasks import deadline_sweep


@pytest.fixture
def users(demo_campaign):
    return {u.username: u for u in get_user_model().objects.all()}


@pytest.fixture
def resolved(turn, demo_campaign):
    """Tor Anlec raiders assault Ostland's capitol; then the turn is resolved."""
    kingdoms = {k.name: k for k in Kingdom.objects.filter(campaign=demo_campaign)}
    ostland, tor = kingdoms["Ostland"], kingdoms["Tor Anlec"]
    capitol = ostland.capitol
    staging = capitol.neighbours.filter(controller=None).exclude(terrain="desert").order_by("number")[1]
    raider = Army.objects.create(kingdom=tor, name="Raiders", province=staging, size=1500)
    raider.units.create(name="Spearmen", category="core", models_count=150, points_per_model=10)
    order_sheet_save(
        kingdom=tor,
        turn=turn,
        entries=SheetEntries(orders=(ArmyOrder(raider.id, OrderKind.MOVE, target=capitol.number),)),
        submitted_by=tor.players.first(),
        submit=True,
        arrived_at=turn.orders_deadline - dt.timedelta(days=1),
    )
    assert orders_phase_run(turn_id=turn.pk).resolved
    return kingdoms


def test_a_player_sees_their_own_events_rolls_and_battles_only(client, users, turn, resolved):
    client.force_login(users["carol"])  # Karak Dumn: no battle, missed its orders
    page = client.get(f"/turns/{turn.pk}/results/").content.decode()
    assert "Karak Dumn sent no orders: every army holds." in page
    assert "Taxes" in page
    assert "No battles." in page
    # The turn's map is the public map (every kingdom's name and lands, as on the campaign page)
    # with the reader's own moves and battles only (decision 340): none here.
    public_map = re.search(r'<div class="map" id="turn-map">.*?</svg>', page, re.S).group(0)
    assert 'class="move"' not in public_map and 'class="battle"' not in public_map
    page = page.replace(public_map, "")
    assert "Ostland" not in page and "Tor Anlec" not in page and "Raiders" not in page

    client.force_login(users["alice"])  # Ostland: defends its capitol
    page = client.get(f"/turns/{turn.pk}/results/").content.decode()
    # The 1st Army holds the capitol: it defends, and the capitol garrison supports it up to the 500 cap.
    assert "Raiders" in page and "Ostland: 1st Army (500-point garrison, 3 defenses)" in page
    assert "Karak Dumn sent no orders" not in page


def test_the_results_api_shows_only_the_players_kingdom(api_client_for, users, turn, resolved):
    data = api_client_for(users["carol"]).get(f"/api/turns/{turn.pk}/results/").json()
    karak = resolved["Karak Dumn"].pk
    assert data["events"] and all(e["kingdom"] == karak for e in data["events"])
    assert data["battles"] == []
    everything = api_client_for(users["organizer"]).get(f"/api/turns/{turn.pk}/results/").json()
    assert {e["kingdom"] for e in everything["events"]} > {karak}
    assert len(everything["battles"]) == Battle.objects.filter(turn=turn).count() == 1


def test_players_cannot_resolve_or_preview(client, api_client_for, users, turn):
    client.force_login(users["alice"])
    assert client.post(f"/turns/{turn.pk}/resolve/").status_code == 404
    assert client.get(f"/turns/{turn.pk}/preview/").status_code == 404
    alice = api_client_for(users["alice"])
    assert alice.post(f"/api/turns/{turn.pk}/resolve/").status_code == 404
    assert alice.get(f"/api/turns/{turn.pk}/preview/").status_code == 404
    turn.refresh_from_db()
    assert turn.status == Turn.Status.ORDERS_OPEN


def test_the_organizer_previews_then_resolves_with_the_button(client, users, turn, django_capture_on_commit_callbacks):
    client.force_login(users["organizer"])
    preview = client.get(f"/turns/{turn.pk}/preview/").content.decode()
    assert "preview (nothing is written)" in preview and "sent no orders" in preview
    assert not TurnEvent.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/turns/{turn.pk}/resolve/")
    assert response.status_code == 302
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES
    # Pressing it again does nothing but say so.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/turns/{turn.pk}/resolve/")
    assert TurnEvent.objects.filter(code="missed-orders").count() == 4


def test_the_sweep_resolves_a_turn_once_its_deadline_has_passed(turn):
    with freeze_time(turn.orders_deadline - dt.timedelta(minutes=1)):
        assert deadline_sweep.delay().get()["resolutions"] == 0
    with freeze_time(turn.orders_deadline + dt.timedelta(minutes=1)):
        assert deadline_sweep.delay().get()["resolutions"] == 1
        turn.refresh_from_db()
        assert turn.status == Turn.Status.BATTLES
        # Once: the next sweep resolves nothing more, and, the turn having no battles, runs its
        # aftermath (decision 511).
        again = deadline_sweep.delay().get()
        assert (again["resolutions"], again["aftermaths"]) == (0, 1)
    turn.refresh_from_db()
    assert turn.status == Turn.Status.REPORTED


def test_the_sweep_leaves_a_paused_campaign_alone(turn, demo_campaign):
    from orders.services.turns import campaign_pause

    campaign_pause(campaign=demo_campaign, paused=True, changed_by=demo_campaign.organizer)
    with freeze_time(turn.orders_deadline + dt.timedelta(days=3)):
        assert deadline_sweep.delay().get()["resolutions"] == 0
    turn.refresh_from_db()
    assert turn.status == Turn.Status.ORDERS_OPEN


def test_resolve_turn_command_with_dry_run(turn, demo_campaign):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("resolve_turn", demo_campaign.pk, "--dry-run", stdout=out)
    assert "Nothing was written." in out.getvalue() and "sent no orders" in out.getvalue()
    assert not TurnEvent.objects.exists()
    out = StringIO()
    call_command("resolve_turn", demo_campaign.pk, stdout=out)
    assert "Turn 1 resolved" in out.getvalue()
    out = StringIO()
    call_command("resolve_turn", demo_campaign.pk, stdout=out)
    assert "not open for resolution" in out.getvalue()
