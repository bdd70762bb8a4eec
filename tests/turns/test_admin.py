"""The turn cycle's records in the admin (issue 29: they moved from the orders and kingdoms apps):
the organizer sees their campaign's turns, with the deadlines' changes, and its dice rolls, under
the turn cycle's app."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from kingdoms.models import Campaign
from orders.models import DeadlineChange
from turns.models import DiceRoll


def test_the_organizer_sees_the_turns_and_dice_rolls_in_the_admin(demo_campaign: Campaign) -> None:
    organizer = Client()
    organizer.force_login(demo_campaign.organizer)
    turn = demo_campaign.turns.get(number=1)
    DeadlineChange.objects.create(turn=turn, kind=DeadlineChange.Kind.ORDERS, old_value="Sunday", new_value="Monday")
    assert reverse("admin:turns_turn_changelist") == "/admin/turns/turn/"
    listing = organizer.get("/admin/turns/turn/")
    assert listing.status_code == 200 and str(demo_campaign) in listing.content.decode()
    change = organizer.get(f"/admin/turns/turn/{turn.pk}/change/")
    assert change.status_code == 200 and "Monday" in change.content.decode()  # the deadlines' changes inline
    roll = DiceRoll.objects.filter(campaign=demo_campaign).first()
    assert roll is not None
    assert organizer.get("/admin/turns/diceroll/").status_code == 200
    assert organizer.get(f"/admin/turns/diceroll/{roll.pk}/change/").status_code == 200
