"""Sheets filed by email (battles.services.sheet_mail.sheet_text_file): the order sheet's text from
the turn's email, edited and sent back, files through the same service and check as the site
(Appendix: Order Sheet; 4. Write Orders; Campaign Schedule: "Email Turn Orders to campaign organizer")."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils.html import escape

from battles.services.sheet_mail import sheet_text_file
from kingdoms.models import Army, Kingdom
from orders.entries import sheet_from_json
from orders.models import OrderSheet, OrderSubmission
from orders.services.sheet_text import order_sheet_text
from outbox.models import Email
from rulebook.turn.write_orders.records import OrderKind


@pytest.fixture
def alice(demo_campaign):
    return get_user_model().objects.get(username="alice")


@pytest.fixture
def ostland(k):
    return k["Ostland"]


@pytest.fixture
def two_armies(ostland):
    """Ostland's field army and a second one beside it (two blocks on the sheet)."""
    first = ostland.armies.get(kind="field")
    second = Army.objects.create(kingdom=ostland, name="Second Host", province=first.province, size=1000)
    return first, second


def _neighbour(army, *, skip=()):
    return army.province.neighbours.exclude(terrain="desert").exclude(number__in=skip).order_by("number").first()


def _far(army):
    near = [army.province_id, *army.province.neighbours.values_list("pk", flat=True)]
    return army.province.campaign.provinces.exclude(pk__in=near).order_by("number").first()


def _ordered(text: str, army: str, order: str, *, written: str = "") -> str:
    """The text with the order of `army`'s block replaced, as a player edits it (the army's name
    `written` otherwise, if given)."""
    lines = text.splitlines()
    start = lines.index(f"Army name / number: {army}")
    if written:
        lines[start] = f"army name / number:  {written}"
    at = next(i for i in range(start, len(lines)) if lines[i].startswith("Order:"))
    lines[at] = f"Order: {order}"
    return "\n".join(lines)


def _sheets():
    return list(OrderSheet.objects.order_by("id").values_list("id", "kingdom", "status", "entries"))


def _now(turn):
    return turn.orders_deadline - dt.timedelta(hours=1)


def test_two_armies_orders_changed_are_submitted_through_the_same_check(turn, ostland, alice, two_armies):
    first, second = two_armies
    text = order_sheet_text(kingdom=ostland, turn=turn)
    assert "Army name / number: Second Host" in text and f"Army name / number: {first.name}" in text
    one, two = _neighbour(first), _neighbour(second, skip=[_neighbour(first).number])
    text = _ordered(text, first.name, f"Move into Province # {one.number}")
    text = _ordered(text, "Second Host", f"move into province #{two.number}", written="second  HOST")
    filing = sheet_text_file(user=alice, text=text, arrived_at=_now(turn), subject="Re: your orders")
    assert filing.accepted, filing.text
    submission = OrderSubmission.objects.get(sheet__kingdom=ostland)
    orders = {o.army: o for o in sheet_from_json(submission.entries).orders}
    assert (orders[first.id].kind, orders[first.id].target) == (OrderKind.MOVE, one.number)
    assert (orders[second.id].kind, orders[second.id].target) == (OrderKind.MOVE, two.number)
    # The answer is the site's receipt, queued once, to the kingdom's registered addresses.
    receipt = Email.objects.get(pk=filing.email_id)
    assert receipt.kind == Email.Kind.ORDERS_RECEIPT
    assert Email.objects.filter(kind__in=[Email.Kind.ORDERS_RECEIPT, Email.Kind.SHEET_ANSWER]).count() == 1
    assert "orders received for Ostland" in filing.subject and "This sheet was filed by email." in filing.text
    # The sheet as it stands now is the text that was filed, and the site's page shows it.
    filed = order_sheet_text(kingdom=ostland, turn=turn, entries=sheet_from_json(submission.entries))
    assert order_sheet_text(kingdom=ostland, turn=turn) == filed
    client = Client()
    client.force_login(alice)
    page = client.get(f"/turns/{turn.pk}/orders/")
    assert page.status_code == 200
    assert escape(filed) in page.content.decode()
    assert "File by email" in page.content.decode()


def test_only_the_kingdoms_own_players_see_its_sheet_as_text(turn, ostland, alice):
    """Secrecy: the organizer sees Ostland's page, not its text to file by email (he files none); a
    rival sees no page at all."""
    organizer = turn.campaign.organizer
    client = Client()
    client.force_login(organizer)
    page = client.get(f"/turns/{turn.pk}/orders/{ostland.pk}/")
    assert page.status_code == 200 and "File by email" not in page.content.decode()
    bob = get_user_model().objects.get(username="bob")
    client.force_login(bob)
    assert client.get(f"/turns/{turn.pk}/orders/{ostland.pk}/").status_code == 404
    assert "Kingdom: Ostland" not in client.get(f"/turns/{turn.pk}/orders/").content.decode()


def test_an_illegal_move_is_refused_naming_army_province_and_line_and_the_earlier_submission_stands(
    turn, ostland, alice, two_armies
):
    first, _ = two_armies
    good = _ordered(order_sheet_text(kingdom=ostland, turn=turn), first.name, f"Move into {_neighbour(first).number}")
    assert sheet_text_file(user=alice, text=good, arrived_at=_now(turn)).accepted
    standing = OrderSubmission.objects.get()
    far = _far(first)
    bad = _ordered(order_sheet_text(kingdom=ostland, turn=turn), first.name, f"Move into Province # {far.number}")
    line = bad.splitlines().index(f"Army name / number: {first.name}") + 1
    filing = sheet_text_file(user=alice, text=bad, arrived_at=_now(turn) + dt.timedelta(minutes=1))
    assert not filing.accepted
    assert "nothing was saved" in filing.text
    problem = next(t for t in filing.text.splitlines() if t.startswith(f"Line {line}: "))
    assert first.name in problem and str(far.number) in problem
    assert list(OrderSubmission.objects.all()) == [standing]
    answer = Email.objects.get(pk=filing.email_id)
    assert answer.kind == Email.Kind.SHEET_ANSWER and answer.to == [alice.email]
    assert problem in answer.text


def test_draft_keyword_in_the_subject_or_the_sheet_saves_without_submitting(turn, ostland, alice, two_armies):
    first, _ = two_armies
    text = _ordered(order_sheet_text(kingdom=ostland, turn=turn), first.name, f"Move into {_neighbour(first).number}")
    filing = sheet_text_file(user=alice, text=text, arrived_at=_now(turn), subject="DRAFT orders")
    assert filing.accepted and "draft" in filing.subject and "NOT submitted" in filing.text
    assert not OrderSubmission.objects.exists()
    assert OrderSheet.objects.get(kingdom=ostland).status == OrderSheet.Status.DRAFT
    filing = sheet_text_file(user=alice, text=text.replace("Draft: no", "Draft: yes"), arrived_at=_now(turn))
    assert filing.accepted and not OrderSubmission.objects.exists()


def test_a_sheet_for_another_kingdom_is_refused_and_nothing_saved(turn, k, alice, ostland):
    text = order_sheet_text(kingdom=k["Da Red Fang"], turn=turn)
    before = _sheets()
    filing = sheet_text_file(user=alice, text=text, arrived_at=_now(turn))
    assert not filing.accepted
    assert 'You are not a player of "Da Red Fang"' in filing.text and "Ostland" in filing.text
    assert _sheets() == before
    assert Email.objects.get(pk=filing.email_id).to == [alice.email]


def test_a_closed_turn_and_an_unknown_campaign_are_refused(turn, ostland, alice):
    text = order_sheet_text(kingdom=ostland, turn=turn)
    before = _sheets()
    late = sheet_text_file(user=alice, text=text, arrived_at=turn.orders_deadline + dt.timedelta(seconds=1))
    assert not late.accepted and "after the deadline" in late.text
    unknown = sheet_text_file(user=alice, text=text.replace(turn.campaign.name, "Nowhere"), arrived_at=_now(turn))
    assert not unknown.accepted and 'no campaign named "Nowhere"' in unknown.text
    no_turn = sheet_text_file(user=alice, text=text.replace("Turn: 1", "Turn: 9"), arrived_at=_now(turn))
    assert not no_turn.accepted and "has no turn 9" in no_turn.text
    huge = sheet_text_file(
        user=alice, text=text.replace("Turn: 1", "Turn: 99999999999999999999"), arrived_at=_now(turn)
    )
    assert not huge.accepted and "which turn" in huge.text
    assert _sheets() == before


def test_a_sheet_received_one_second_before_the_deadline_counts(turn, ostland, alice):
    """The arrival is when the mail server received it, not when it is read."""
    text = order_sheet_text(kingdom=ostland, turn=turn)
    filing = sheet_text_file(user=alice, text=text, arrived_at=turn.orders_deadline - dt.timedelta(seconds=1))
    assert filing.accepted
    assert OrderSubmission.objects.get().submitted_at == turn.orders_deadline - dt.timedelta(seconds=1)


def test_garbage_is_answered_by_line_and_nothing_saved(turn, ostland, alice):
    before = _sheets()
    text = order_sheet_text(kingdom=ostland, turn=turn) + "\nThanks, see you Tuesday!\nOrder: dance a jig\n"
    filing = sheet_text_file(user=alice, text=text, arrived_at=_now(turn), notes=["The attachment a.pdf was ignored."])
    assert not filing.accepted and "could not be read" in filing.text
    count = len(text.splitlines())
    assert f'Line {count - 1}: "Thanks, see you Tuesday!" is no line of an order sheet' in filing.text
    assert f"Line {count}: " in filing.text
    assert filing.text.endswith("The attachment a.pdf was ignored.")
    assert _sheets() == before
    marked = sheet_text_file(
        user=alice, text="\ufeff" + order_sheet_text(kingdom=ostland, turn=turn), arrived_at=_now(turn)
    )
    assert marked.accepted, marked.text
    flood = sheet_text_file(
        user=alice, text=order_sheet_text(kingdom=ostland, turn=turn) + "spam\n" * 100_000, arrived_at=_now(turn)
    )
    assert not flood.accepted and flood.text.count("\nLine ") == 50 and "and 99950 more lines" in flood.text
    empty = sheet_text_file(user=alice, text="", arrived_at=_now(turn))
    assert not empty.accepted and "which campaign" in empty.text
    mail.outbox.clear()


def test_notes_go_into_the_receipt(turn, ostland, alice):
    text = order_sheet_text(kingdom=ostland, turn=turn)
    filing = sheet_text_file(user=alice, text=text, arrived_at=_now(turn), notes=["The attachment a.pdf was ignored."])
    assert filing.accepted and "The attachment a.pdf was ignored." in filing.text
    assert Kingdom.objects.get(pk=ostland.pk).name == "Ostland"


# The turn summary sheet (Appendix: Turn Summary Sheet; Campaign Schedule: "Email Turn Summary Sheet
# to campaign organizer").


@pytest.fixture
def hartwood(turn, battles_posted):
    from battles.models import Battle

    return Battle.objects.get(turn=turn, province__number=62)


def _unit_line(text: str, unit: str, replacement: str) -> str:
    return "\n".join(replacement if line.startswith(f"Unit: {unit};") else line for line in text.splitlines())


def test_a_summary_sheet_is_filed_from_its_text(hartwood, k, alice):
    from battles.models import TurnSummarySheet
    from battles.services.summary_text import summary_sheet_text
    from kingdoms.models import Unit

    text = summary_sheet_text(battle=hartwood, kingdom=k["Ostland"])
    assert text.startswith(f"Turn summary sheet: battle {hartwood.pk}\n")
    assert "Unit: Halberdiers (Wardens); models lost = 0\n" in text
    assert max(len(line) for line in text.splitlines() if line.startswith("#")) <= 72
    text = text.replace("Battle result: none", "Battle result: Minor Loss")
    text = _unit_line(text, "Halberdiers (Wardens)", "Unit: halberdiers (wardens); models lost = 10; standard = yes")
    text += "We held the bridge until dusk.\nThen we ran.\n"
    filing = sheet_text_file(user=alice, text=text, arrived_at=hartwood.turn.results_deadline - dt.timedelta(hours=1))
    assert filing.accepted, filing.text
    sheet = TurnSummarySheet.objects.get(battle=hartwood, kingdom=k["Ostland"])
    halberdiers = Unit.objects.get(army__name="Wardens", name="Halberdiers")
    assert sheet.status == TurnSummarySheet.Status.SUBMITTED and sheet.result == "minor-loss"
    assert sheet.casualties == [
        {
            "unit": halberdiers.id,
            "models_lost": 10,
            "champion": False,
            "standard": True,
            "musician": False,
            "one_use_used": False,
        }
    ]
    assert sheet.story == "We held the bridge until dusk.\nThen we ran."
    # The answer is the site's receipt of a turn summary sheet (one email, to Ostland's players).
    assert "Halberdiers (Wardens): 10 models lost; standard" in filing.text
    assert "This sheet was filed by email." in filing.text
    assert Email.objects.get(pk=filing.email_id).kind == Email.Kind.SUMMARY_RECEIPT
    # The sheet's text, pre-filled again, is what was filed.
    again = summary_sheet_text(battle=hartwood, kingdom=k["Ostland"])
    assert (
        "Battle result: minor loss" in again
        and "Unit: Halberdiers (Wardens); models lost = 10; standard = yes\n" in again
    )
    assert again.endswith("Then we ran.\n")
    # Its page shows the same text, to Ostland's player only.
    client = Client()
    client.force_login(alice)
    assert escape(again) in client.get(f"/battles/{hartwood.pk}/sheet/").content.decode()
    client.force_login(hartwood.turn.campaign.organizer)
    organizer_page = client.get(f"/battles/{hartwood.pk}/sheet/{k['Ostland'].pk}/").content.decode()
    assert "Kingdom: Ostland" not in organizer_page


def test_a_summary_sheet_refused_names_the_unit_line_and_rule_and_saves_nothing(hartwood, k, alice):
    from battles.models import TurnSummarySheet
    from battles.services.summary_text import summary_sheet_text

    text = summary_sheet_text(battle=hartwood, kingdom=k["Ostland"]).replace(
        "Battle result: none", "Battle result: draw"
    )
    text = _unit_line(text, "Halberdiers (Wardens)", "Unit: Halberdiers (Wardens); models lost = 61")
    line = next(i for i, t in enumerate(text.splitlines(), start=1) if t.startswith("Unit: Halberdiers (Wardens)"))
    filing = sheet_text_file(user=alice, text=text, arrived_at=hartwood.turn.results_deadline - dt.timedelta(hours=1))
    assert not filing.accepted
    assert f"Line {line}: Casualties: Halberdiers (Wardens) has 60 models; it cannot lose 61 (Casualty Recovery)." in (
        filing.text
    )
    assert not TurnSummarySheet.objects.filter(battle=hartwood).exists()
    late = sheet_text_file(user=alice, text=text, arrived_at=hartwood.turn.results_deadline + dt.timedelta(seconds=1))
    assert not late.accepted and "results deadline has passed" in late.text


def test_a_summary_sheet_of_a_battle_not_fought_is_refused(hartwood, k):
    from battles.services.summary_text import summary_sheet_text

    text = summary_sheet_text(battle=hartwood, kingdom=k["Ostland"])
    bystander = next(p for x in k.values() if not hartwood.involves(x.id) for p in x.players.all())
    filing = sheet_text_file(user=bystander, text=text, arrived_at=hartwood.turn.results_deadline)
    assert not filing.accepted and "You fought no battle" in filing.text


def test_the_scenario_email_carries_the_turn_summary_sheet(turn, k, battles_posted):
    from battles.models import Battle
    from reports.models import ReportEmail
    from tests.orders.test_sheet_emails import sheet_of

    alice = get_user_model().objects.get(username="alice")
    battle = Battle.objects.get(turn=turn, province__number=62)
    email = ReportEmail.objects.get(report__battle=battle, user=alice)
    assert f"Turn summary sheet: battle {battle.pk}\n" in email.text and "Kingdom: Ostland\n" in email.text
    organizer = ReportEmail.objects.get(report__battle=battle, user=turn.campaign.organizer)
    assert "Turn summary sheet:" not in organizer.text
    sheet = sheet_of(email.text).replace("Battle result: none", "Battle result: minor victory")
    filing = sheet_text_file(user=alice, text=sheet, arrived_at=turn.results_deadline - dt.timedelta(hours=1))
    assert filing.accepted, filing.text
