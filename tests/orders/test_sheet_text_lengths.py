"""A sheet sent by email is read as it is written (orders/sheet_text.py): the API and the site's form refuse
a name longer than the campaign's records keep, and so must the sheet check, or the orders phase meets a
name it cannot store and the turn stops (PostgreSQL refuses the row; found reading the columns against
their writers for the phase fuzz, tests/turns/test_phase_fuzz.py; decision 595). 3. Create / Upgrade Armies; Spending
Experience."""

from __future__ import annotations

from django.utils import timezone

from kingdoms.models import Army, Delivery
from orders.models import OrderSheet
from orders.services.sheet_mail import order_sheet_text_file
from orders.sheet_text import sheet_text_header
from tests.orders.test_garrison_names import _kingdom_with_a_town
from turns.models import Turn
from turns.services.cycle import orders_phase_run


def _mailed(kingdom, line: str):
    text = f"Campaign: Garrisons\nTurn: 1\nKingdom: Eastmark\n{line}\n"
    return order_sheet_text_file(
        user=kingdom.players.first(), header=sheet_text_header(text), text=text, arrived_at=timezone.now()
    )


def test_a_new_army_named_past_what_an_army_name_keeps_is_refused_by_email_and_the_turn_resolves(db) -> None:
    """A new army named in 120 characters, by email: the sheet is refused, saying how long the name is and
    how long it may be, nothing is saved, and the orders phase resolves the turn (every army holds)."""
    campaign, kingdom, turn, army = _kingdom_with_a_town()

    filing = _mailed(kingdom, f"Create army: name = {'N' * 120}; points = 1000; province = 2")

    assert not filing.accepted
    assert any("has 120 characters; at most 100 are kept" in line for line in filing.lines), filing.lines
    assert not OrderSheet.objects.filter(turn=turn, kingdom=kingdom).exists()
    assert orders_phase_run(turn_id=turn.pk).resolved
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES
    assert list(Army.objects.filter(kingdom=kingdom).values_list("name", flat=True)) == ["1st Army"]


def test_a_purchase_naming_a_new_unit_past_what_a_name_keeps_is_refused_by_email(db) -> None:
    """Spending Experience: recruits for a new unit named in 120 characters, by email: refused, nothing
    saved, and the orders phase resolves with nothing on its way."""
    campaign, kingdom, turn, army = _kingdom_with_a_town()
    Army.objects.filter(pk=army.pk).update(experience=200)

    filing = _mailed(
        kingdom,
        f"Purchase: army = 1st Army; kind = recruits; name = {'U' * 120}; category = core; models = 5; points = 5",
    )

    assert not filing.accepted
    assert any("has 120 characters; at most 100 are kept" in line for line in filing.lines), filing.lines
    assert orders_phase_run(turn_id=turn.pk).resolved
    assert not Delivery.objects.exists()
