"""Safeguards around each turn (issue 17): a snapshot of the campaign before each phase (the
orders phase and the aftermath, rulebook "Campaign Turn Sequence"), and the organizer's restore of
a turn to its state before a phase, after which the turn resolves again (transfer/snapshots.py)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import replace

import pytest
from django.core import mail
from django.test import Client

from battles.models import Battle
from battles.services.aftermath import aftermaths_due
from briternia.errors import DomainError
from kernel.event_codes import EventCode
from kingdoms.models import Army, Campaign, TreasuryEntry
from kingdoms.services.co_players import co_player_add, co_player_remove
from kingdoms.services.world import world_for_kingdom, world_load
from orders.services.rogue import kingdom_rogue_declare
from orders.services.turns import turns_due
from outbox.models import Email
from reports.models import ReportEmail, TurnReport
from tests.battle_setup import file_battle_orders
from tests.clients import pages_as, user_named
from tests.transfer.rows import CampaignRows
from transfer.models import RestoreRecord, Snapshot
from transfer.snapshots import SNAPSHOTS_KEPT, snapshot_restore
from turns.models import DiceRoll, Turn, TurnEvent
from turns.services.cycle import AFTERMATH_PHASE, ORDERS_PHASE, aftermath_phase_run, orders_phase_run
from turns.services.phases import phase_run

# What a restore adds to the state it brings back: the hold, its event and its email.
CHANGED_BY_THE_RESTORE = {"turns.Turn", "turns.TurnEvent", "outbox.Email", "reports.ReportEmail"}


@pytest.fixture
def battle_turn(demo_campaign: Campaign, django_capture_on_commit_callbacks) -> Turn:
    """The demo's turn 1 with the orders that bring battles (demo/turn.py), not resolved yet."""
    turn = demo_campaign.turns.get(number=1)
    file_battle_orders(demo_campaign, turn)
    return turn


def resolve(turn: Turn, callbacks) -> None:  # type: ignore[no-untyped-def]
    with callbacks(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved


def aftermath(turn: Turn, callbacks) -> Turn:  # type: ignore[no-untyped-def]
    """The aftermath once the results deadline has passed (no sheet filed: 8. End of Turn counts
    them as major losses); returns the next turn."""
    turn.refresh_from_db()
    with callbacks(execute=True):
        outcome = aftermath_phase_run(turn_id=turn.pk, now=turn.results_deadline + dt.timedelta(minutes=1))
    assert outcome.resolved and outcome.next_turn is not None
    return outcome.next_turn


def restore(snapshot: Snapshot, callbacks, user: str = "organizer") -> Turn:  # type: ignore[no-untyped-def]
    with callbacks(execute=True):
        return snapshot_restore(snapshot_id=snapshot.pk, user=user_named(user))


def outcome(turn: Turn) -> dict[str, object]:
    """What a resolution made of the turn, by names (ids may differ)."""
    return {
        "events": [
            (e.phase, e.code, e.text, e.kingdom.name if e.kingdom else None, e.province, e.gold)
            for e in TurnEvent.objects.filter(turn=turn).exclude(code=EventCode.TURN_RESTORED).select_related("kingdom")
        ],
        "battles": sorted(
            (b.province.number, b.attacker_army.name, b.defender_kingdom_id is not None, str(b.scenario))
            for b in Battle.objects.filter(turn=turn).select_related("province", "attacker_army")
        ),
        "rolls": sorted(
            (r.stream, r.sequence, r.expression, tuple(r.faces), r.purpose)
            for r in DiceRoll.objects.filter(campaign=turn.campaign, turn=turn.number)
        ),
        "treasury": sorted(
            (e.kingdom.name, e.amount, e.reason)
            for e in TreasuryEntry.objects.filter(kingdom__campaign=turn.campaign).select_related("kingdom")
        ),
        "armies": sorted(
            (a.kingdom.name, a.name, a.status, a.province.number if a.province else None)
            for a in Army.objects.filter(kingdom__campaign=turn.campaign).select_related("kingdom", "province")
        ),
    }


def test_a_snapshot_is_taken_before_the_orders_phase_as_the_turn_stood(battle_turn, django_capture_on_commit_callbacks):
    resolve(battle_turn, django_capture_on_commit_callbacks)
    snapshot = Snapshot.objects.get()
    assert (snapshot.turn_number, snapshot.phase) == (1, Snapshot.Phase.ORDERS)
    document = snapshot.unpacked()
    (turn,) = document["turns"]
    # The claim is not in it: the turn as it was before the phase, with nothing resolved.
    assert turn["status"] == Turn.Status.ORDERS_OPEN
    assert turn["events"] == [] and turn["battles"] == []
    assert Battle.objects.filter(turn=battle_turn).exists()  # while the phase itself went on


def test_a_phase_rolled_back_leaves_no_snapshot(battle_turn):
    def fails(turn, dice):  # type: ignore[no-untyped-def]
        raise RuntimeError("the phase breaks")

    with pytest.raises(RuntimeError):
        phase_run(ORDERS_PHASE, turn_id=battle_turn.pk, run=fails)
    assert not Snapshot.objects.exists()


def test_restore_brings_back_every_row_of_the_campaign_as_before_the_orders_phase(
    battle_turn, django_capture_on_commit_callbacks
):
    campaign = battle_turn.campaign
    before = CampaignRows(campaign).all()
    resolve(battle_turn, django_capture_on_commit_callbacks)
    assert CampaignRows(campaign).all() != before  # the phase changed armies, ledger, events, battles...

    restored = restore(Snapshot.objects.get(), django_capture_on_commit_callbacks)

    after = CampaignRows(campaign).all()
    different = sorted(label for label in before if before[label] != after[label])
    assert set(different) <= CHANGED_BY_THE_RESTORE, different
    # The campaign, its turn, kingdoms and armies keep their ids, so their pages and links still work.
    assert restored.pk == battle_turn.pk
    assert restored.campaign_id == campaign.pk
    assert restored.status == Turn.Status.ORDERS_OPEN
    assert restored.held_at is not None
    assert not Battle.objects.filter(turn=restored).exists()
    assert not TurnReport.objects.filter(turn=restored).exists()  # the undone phase's scenario sheets
    assert [e.code for e in TurnEvent.objects.filter(turn=restored)] == [EventCode.TURN_RESTORED]


def test_the_restored_turn_resolves_again_the_same_way_with_the_same_seed(
    battle_turn, django_capture_on_commit_callbacks
):
    """Rules decision 171: the seed is the turn's, so the same state and orders roll the same dice."""
    resolve(battle_turn, django_capture_on_commit_callbacks)
    first = outcome(battle_turn)
    assert first["battles"] and first["rolls"]

    turn = restore(Snapshot.objects.get(), django_capture_on_commit_callbacks)
    assert outcome(turn)["battles"] == []
    resolve(turn, django_capture_on_commit_callbacks)

    assert outcome(turn) == first
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES and turn.held_at is None  # resolving lifts the hold
    # The second resolution took its own snapshot; the restored one is kept (it may be restored again).
    assert Snapshot.objects.filter(campaign=turn.campaign, phase=Snapshot.Phase.ORDERS).count() == 2


def test_a_restored_turn_waits_for_the_organizer_not_the_deadline_sweep(
    battle_turn, django_capture_on_commit_callbacks
):
    resolve(battle_turn, django_capture_on_commit_callbacks)
    turn = restore(Snapshot.objects.get(), django_capture_on_commit_callbacks)
    after_every_deadline = turn.results_deadline + dt.timedelta(days=1)
    assert turn.pk not in turns_due(now=after_every_deadline)


def test_the_organizer_and_every_player_are_told_of_the_restore_and_it_is_recorded(
    battle_turn, django_capture_on_commit_callbacks
):
    resolve(battle_turn, django_capture_on_commit_callbacks)
    snapshot = Snapshot.objects.get()
    turn = restore(snapshot, django_capture_on_commit_callbacks)

    record = RestoreRecord.objects.get()
    assert (record.turn_number, record.phase, record.snapshot_id) == (1, Snapshot.Phase.ORDERS, snapshot.pk)
    assert record.restored_by == user_named("organizer")
    email = Email.objects.get(campaign=turn.campaign, subject__contains="restored")
    players = {p.email for k in turn.campaign.kingdoms.all() for p in k.players.all()}
    assert set(email.to) == players | {turn.campaign.organizer.email}
    assert email.status == Email.Status.SENT
    assert "turn 1 to its state before the orders phase" in email.text
    event = TurnEvent.objects.get(turn=turn, code=EventCode.TURN_RESTORED)
    assert "before the orders phase" in event.text


@pytest.mark.long
def test_restore_before_the_aftermath_undoes_the_next_turn_and_sends_nothing_twice(
    battle_turn, django_capture_on_commit_callbacks
):
    campaign = battle_turn.campaign
    resolve(battle_turn, django_capture_on_commit_callbacks)
    aftermath(battle_turn, django_capture_on_commit_callbacks)
    campaign.refresh_from_db()
    assert campaign.current_turn == 2
    sent = Counter(e.subject for e in Email.objects.filter(campaign=campaign, status=Email.Status.SENT))
    report_emails = ReportEmail.objects.filter(report__turn=battle_turn, status=Email.Status.SENT).count()
    assert report_emails  # the turn's reports went out
    # One report email failed after its last try: its Resend would send an undone report.
    failed = ReportEmail.objects.filter(report__turn=battle_turn, status=Email.Status.SENT).first()
    Email.objects.filter(pk=failed.pk).update(status=Email.Status.FAILED, sent_at=None, last_error="550")
    sent[failed.subject] -= 1
    outbox_before = len(mail.outbox)
    snapshot = Snapshot.objects.get(phase=Snapshot.Phase.AFTERMATH)

    turn = restore(snapshot, django_capture_on_commit_callbacks)

    campaign.refresh_from_db()
    assert campaign.current_turn == 1 and not campaign.turns.filter(number=2).exists()
    assert turn.status == Turn.Status.BATTLES and turn.held_at is not None
    assert not TurnReport.objects.filter(turn=turn, kind=TurnReport.Kind.KINGDOM).exists()
    # Every email sent is still in the history, none sent again; only the restore's went out.
    kept = Counter(e.subject for e in Email.objects.filter(campaign=campaign, status=Email.Status.SENT))
    assert kept - sent == Counter({next(s for s in kept if "restored" in s): 1})
    assert sent - kept == Counter()
    assert len(mail.outbox) - outbox_before == len(Email.objects.get(subject__contains="restored").to)
    assert not Email.objects.filter(campaign=campaign, status=Email.Status.FAILED).exists()
    # Nothing queued since the snapshot waits to go out (what was queued before it still does).
    assert not Email.objects.filter(
        campaign=campaign, status=Email.Status.QUEUED, created_at__gt=snapshot.taken_at
    ).exclude(subject__contains="restored")
    # Held: the sweep does not run the aftermath again by itself, the organizer does.
    assert turn.pk not in aftermaths_due(now=turn.results_deadline + dt.timedelta(days=1))
    assert aftermath(turn, django_capture_on_commit_callbacks).number == 2


def test_a_player_cannot_restore(battle_turn, django_capture_on_commit_callbacks):
    resolve(battle_turn, django_capture_on_commit_callbacks)
    snapshot = Snapshot.objects.get()
    with pytest.raises(DomainError, match="Only the campaign's organizer"):
        restore(snapshot, django_capture_on_commit_callbacks, user="alice")
    assert Battle.objects.filter(turn=battle_turn).exists() and not RestoreRecord.objects.exists()


def test_a_restore_while_a_phase_runs_is_refused_and_changes_nothing(battle_turn, django_capture_on_commit_callbacks):
    resolve(battle_turn, django_capture_on_commit_callbacks)
    snapshot = Snapshot.objects.get()
    battles = Battle.objects.filter(turn=battle_turn).count()
    refusals = []

    def run(turn, dice):  # type: ignore[no-untyped-def]
        # The aftermath has claimed the turn: the organizer presses Restore now.
        with pytest.raises(DomainError) as refused:
            snapshot_restore(snapshot_id=snapshot.pk, user=user_named("organizer"))
        refusals.append(refused.value.messages)

    phase_run(AFTERMATH_PHASE, turn_id=battle_turn.pk, run=run)
    assert refusals == [["Turn 1 is being resolved now: restore it once the phase has finished."]]
    assert Battle.objects.filter(turn=battle_turn).count() == battles and not RestoreRecord.objects.exists()


def test_only_the_current_turn_and_the_one_just_ended_can_be_restored(battle_turn, django_capture_on_commit_callbacks):
    """Rules decision 170."""
    campaign = battle_turn.campaign
    resolve(battle_turn, django_capture_on_commit_callbacks)
    turn_2 = aftermath(battle_turn, django_capture_on_commit_callbacks)
    resolve(turn_2, django_capture_on_commit_callbacks)  # nobody filed: every army holds
    older = Snapshot.objects.get(turn_number=1, phase=Snapshot.Phase.ORDERS)
    with pytest.raises(DomainError, match="Turn 1 cannot be restored: only the snapshots of the current turn"):
        restore(older, django_capture_on_commit_callbacks)
    assert campaign.turns.filter(number=2, status=Turn.Status.BATTLES).exists()
    assert Snapshot.objects.filter(campaign=campaign).count() == 3 <= SNAPSHOTS_KEPT


def test_players_never_see_snapshots_nor_restore_from_the_pages(battle_turn, django_capture_on_commit_callbacks):
    """Secrecy: a snapshot holds every kingdom's armies, orders and treasury."""
    resolve(battle_turn, django_capture_on_commit_callbacks)
    snapshot = Snapshot.objects.get()
    pages = f"/turns/{battle_turn.pk}/snapshots/"
    confirm = f"{pages}{snapshot.pk}/restore/"
    for player in ("alice", "bob"):
        client = pages_as(player)
        assert client.get(pages).status_code == 404
        assert client.get(confirm).status_code == 404
        assert client.post(confirm).status_code == 404
        assert "snapshots" not in client.get(f"/turns/{battle_turn.pk}/battles/").content.decode()
    assert Battle.objects.filter(turn=battle_turn).exists() and not RestoreRecord.objects.exists()


def test_the_restore_is_a_post_with_its_csrf_token(battle_turn, django_capture_on_commit_callbacks):
    resolve(battle_turn, django_capture_on_commit_callbacks)
    snapshot = Snapshot.objects.get()
    confirm = f"/turns/{battle_turn.pk}/snapshots/{snapshot.pk}/restore/"
    client = Client(enforce_csrf_checks=True)
    client.force_login(user_named("organizer"))
    page = client.get(confirm)
    assert "Restore to before the orders phase" in page.content.decode()
    assert client.post(confirm).status_code == 403  # no token: refused, nothing restored
    assert not RestoreRecord.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(confirm, {"csrfmiddlewaretoken": page.context["csrf_token"]})
    assert response.status_code == 302 and response["Location"] == f"/turns/{battle_turn.pk}/sheets/"
    assert RestoreRecord.objects.count() == 1


def test_a_refused_restore_says_why_on_the_page(battle_turn, django_capture_on_commit_callbacks):
    resolve(battle_turn, django_capture_on_commit_callbacks)
    turn_2 = aftermath(battle_turn, django_capture_on_commit_callbacks)
    resolve(turn_2, django_capture_on_commit_callbacks)
    older = Snapshot.objects.get(turn_number=1, phase=Snapshot.Phase.ORDERS)
    client = pages_as("organizer")
    listed = client.get(f"/turns/{battle_turn.pk}/snapshots/").content.decode()
    assert "Turn 1 cannot be restored" in listed and f"/snapshots/{older.pk}/restore/" not in listed
    response = client.post(f"/turns/{battle_turn.pk}/snapshots/{older.pk}/restore/", follow=True)
    assert "Turn 1 cannot be restored: only the snapshots of the current turn (2)" in response.content.decode()
    assert not RestoreRecord.objects.exists()


def test_after_a_restore_the_order_sheets_are_checked_against_the_restored_world(
    battle_turn, django_capture_on_commit_callbacks
):
    """The order sheets' kept world (kingdoms/services/world.py) is read again after a restore: the
    campaign's world_version only grows, even though the restored campaign row is the snapshot's."""
    campaign = battle_turn.campaign
    ostland = campaign.kingdoms.get(name="Ostland")
    before_orders = world_for_kingdom(campaign=campaign, turn_number=1, kingdom=ostland.id)
    resolve(battle_turn, django_capture_on_commit_callbacks)
    resolved_version = Campaign.objects.get(pk=campaign.pk).world_version

    restore(Snapshot.objects.get(campaign=campaign, phase=Snapshot.Phase.ORDERS), django_capture_on_commit_callbacks)

    assert Campaign.objects.get(pk=campaign.pk).world_version > resolved_version
    restored = world_for_kingdom(campaign=campaign, turn_number=1, kingdom=ostland.id)
    # The sheet's world: the turn's, without the characters and magic items the phases read (decisions 590, 591).
    assert restored == replace(world_load(campaign=campaign, turn_number=1), characters={}, items={})
    assert {a.name: a.province for a in restored.armies.values()} == {
        a.name: a.province for a in before_orders.armies.values()
    }


def test_a_restore_keeps_who_plays_each_kingdom_but_undoes_a_kingdom_changing_hands(
    battle_turn, django_capture_on_commit_callbacks
):
    """Restore to before turn 1's aftermath while turn 2's orders are open: eve, a co-player of Ostland
    from turn 1, was removed in turn 2, and frank was added to Karak Dumn in turn 2. The removed
    co-player does not get Ostland's pages back, nor the restore's email; the one added keeps his
    place. Tor Anlec's player, marked out in turn 2 (Rogue Kingdom), is undone with the mark: dave
    leads it again, as the snapshot has it."""
    campaign = battle_turn.campaign
    k = {x.name: x for x in campaign.kingdoms.all()}
    with django_capture_on_commit_callbacks(execute=True):
        eve = co_player_add(kingdom=k["Ostland"], email="eve@example.com")
    resolve(battle_turn, django_capture_on_commit_callbacks)
    aftermath(battle_turn, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        co_player_remove(kingdom=k["Ostland"], user_id=eve.pk)
        co_player_add(kingdom=k["Karak Dumn"], email="frank@example.com")
        kingdom_rogue_declare(kingdom=k["Tor Anlec"], why="moved abroad")
    snapshot = Snapshot.objects.get(phase=Snapshot.Phase.AFTERMATH)

    restore(snapshot, django_capture_on_commit_callbacks)

    rosters = {x.name: sorted(x.players.values_list("email", flat=True)) for x in campaign.kingdoms.all()}
    assert rosters["Ostland"] == ["alice@briternia.local"]
    assert rosters["Karak Dumn"] == ["carol@briternia.local", "frank@example.com"]
    assert rosters["Tor Anlec"] == ["dave@briternia.local"] and not campaign.kingdoms.get(name="Tor Anlec").is_rogue
    eve_client = Client()
    eve_client.force_login(eve)
    assert eve_client.get(f"/kingdoms/{k['Ostland'].pk}/").status_code == 404
    told = Email.objects.get(subject__contains="restored")
    assert "eve@example.com" not in told.to and "frank@example.com" in told.to
