"""Safeguards around each turn (issue 17): a snapshot of the campaign before each phase, and the
organizer's restore of a turn to its state before a phase, from the site.

The snapshot is the campaign's export document (transfer.export.campaign_export), so it follows
the schema as other apps add to it and restores through the same reader and writer as an import.
The turn cycle does not import this app (it stands below it): `TransferConfig.ready` registers
`snapshot_take` with `turns.services.phases.before_phase_register`, and the phase runner calls it
once the phase has claimed its turn, in the phase's transaction, before the phase changes anything.

What a restore does (docs/architecture.md, "Snapshots and restore"):
- in one transaction, the campaign's rows are deleted and the snapshot's written in their place; the
  campaign's own row is kept (its id and URL), and so are the kingdoms', provinces', turns' and
  armies' ids that the snapshot names (the pages players bookmarked and emails linked keep
  working); accounts, logins and API tokens are the site's and are not touched;
- the turn is left as it was before the phase (orders open, or waiting for its battles), held for
  the organizer (`Turn.held_at`), so the deadline sweep does not run the phase again by itself:
  the organizer resolves it with the button when ready (the same seed: the same state resolves
  the same way);
- who plays each kingdom stays as it is now (a co-player removed since stays removed), but where the
  restore undoes a kingdom changing hands (`_rosters_kept`);
- emails: every email that existed when the snapshot was taken is kept as it stands now (sent ones
  are not sent again); of those queued since (the undone phase's scenario sheets or reports), the
  sent ones stay in the history, detached from the reports that no longer exist, and the others
  are dropped, never sent; the reports, maps, battles, events and rolls of the undone phase are
  gone with it;
- a RestoreRecord, an event "turn-restored" on the turn (the campaign's history), and an email to
  the organizer and every player saying what was undone.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.db import DatabaseError, transaction
from django.urls import reverse
from django.utils import timezone

from briternia.errors import DomainError
from inbox.models import InboundMessage
from kernel.event_codes import EventCode
from kingdoms.people import display_name
from kingdoms.selectors import AnyUser, is_organizer
from kingdoms.services.world import world_changed
from orders.services.emails import campaign_player_addresses
from orders.services.events import turn_event_sequence_next
from outbox.models import Email
from outbox.services import email_queue
from turns.models import PHASE_FAILURE_CLEARED, Turn, TurnEvent
from turns.services.desk import DeskAction
from turns.services.phases import Phase

from .campaign_models import Campaign
from .export import campaign_export
from .importer import campaign_plan_read, campaign_plan_write
from .models import RestoreRecord, Snapshot
from .plan import Plan

logger = logging.getLogger(__name__)

# Snapshots kept per campaign: the two phases of the current turn and of the turn just ended, which
# are all that may be restored (snapshot_refusal); older ones are deleted as new ones are taken.
SNAPSHOTS_KEPT = 4
RUNNING = (Turn.Status.RESOLVING_ORDERS, Turn.Status.RESOLVING_AFTERMATH)


def snapshot_take(turn: Turn, phase: Phase) -> Snapshot | None:
    """The campaign's document as it stands before `phase` of `turn` (the phase has claimed the turn:
    the document gives the turn the status it was claimed from, and no request pending). A snapshot
    that cannot be taken is logged as an error and the phase goes on without one: a turn resolving
    on time matters more to the players than the safeguard (the page then lists no snapshot)."""
    try:
        with transaction.atomic():  # a savepoint: a failure here leaves the phase's transaction usable
            document = campaign_export(campaign=turn.campaign)
            _before_the_claim(document, turn.number, phase)
            packed, size = Snapshot.packed(document)
            snapshot = Snapshot.objects.create(
                campaign=turn.campaign,
                turn_number=turn.number,
                phase=phase.name,
                taken_at=timezone.now(),
                document=packed,
                size=size,
            )
            old = Snapshot.objects.filter(campaign=turn.campaign).values_list("pk", flat=True)[SNAPSHOTS_KEPT:]
            Snapshot.objects.filter(pk__in=list(old)).delete()
            return snapshot
    except Exception:
        logger.exception("No snapshot of turn %s before its %s", turn.pk, phase.name)
        return None


def _before_the_claim(document: dict[str, Any], number: int, phase: Phase) -> None:
    for row in document["turns"]:
        if row["number"] == number:
            row.update(
                {"status": phase.claim_from, phase.requested: None, "resolution_error": "", **PHASE_FAILURE_CLEARED}
            )


def snapshot_refusal(snapshot: Snapshot, campaign: Campaign) -> str | None:
    """Why `snapshot` may not be restored now, or None. Only the current turn's snapshots, and the
    turn just ended's while the current turn's orders are still open (nothing of it resolved): an
    older one would undo turns whose reports the players have read and acted on (rules decision 170)."""
    current = campaign.turns.filter(number=campaign.current_turn).first()
    if current is None:
        return "The campaign has no turn to restore."
    if current.status in RUNNING:
        return f"Turn {current.number} is being resolved now: restore it once the phase has finished."
    if snapshot.turn_number == current.number:
        return None
    if snapshot.turn_number == current.number - 1 and current.status == Turn.Status.ORDERS_OPEN:
        return None
    return (
        f"Turn {snapshot.turn_number} cannot be restored: only the snapshots of the current turn "
        f"({current.number}), and of the turn just ended while the current turn's orders are open, can be."
    )


def snapshot_restore(*, snapshot_id: int, user: AnyUser, now: dt.datetime | None = None) -> Turn:
    """Replace the campaign's state with the snapshot's, in one transaction (see the module's
    docstring for what is kept); returns the restored turn, held for the organizer. Refused with
    a DomainError, nothing changed: not the organizer, a phase running, a snapshot too old."""
    now = now or timezone.now()
    with transaction.atomic():
        snapshot = Snapshot.objects.select_related("campaign").filter(pk=snapshot_id).first()
        if snapshot is None or not is_organizer(user, snapshot.campaign):
            raise DomainError("Only the campaign's organizer may restore a turn, from a snapshot of that campaign.")
        _no_phase_running(snapshot.campaign)
        # NO KEY: a running phase's rows that refer to the campaign (its snapshot) share-lock its key.
        campaign = Campaign.objects.select_for_update(no_key=True).get(pk=snapshot.campaign_id)
        refusal = snapshot_refusal(snapshot, campaign)
        if refusal:
            raise DomainError(refusal)
        document = snapshot.unpacked()
        now_document = campaign_export(campaign=campaign)
        document["emails"] = _emails_kept(snapshot, document, now_document)
        document["messages"] = _messages_kept(document, now_document)
        _rosters_kept(document, now_document)
        plan = campaign_plan_read(document=document)  # every problem found before anything is deleted
        _ids_kept(plan, campaign)
        _campaign_rows_delete(campaign)
        campaign_plan_write(plan=plan, into=campaign)
        world_changed(campaign.pk)  # the order sheets' kept copies of the world are stale
        turn = Turn.objects.select_related("campaign").get(campaign=campaign, number=snapshot.turn_number)
        Turn.objects.filter(pk=turn.pk).update(held_at=now)
        record = RestoreRecord.objects.create(
            campaign=campaign,
            snapshot=snapshot,
            turn_number=snapshot.turn_number,
            phase=snapshot.phase,
            snapshot_taken_at=snapshot.taken_at,
            restored_by=user,
            restored_at=now,
        )
        # What happened after this snapshot did not happen: their snapshots describe nothing now.
        Snapshot.objects.filter(campaign=campaign, taken_at__gt=snapshot.taken_at).delete()
        _restore_events_write(campaign)
        _restore_announce(record, turn)
        turn.refresh_from_db()
        return turn


def _campaign_rows_delete(campaign: Campaign) -> None:
    """Every row of the campaign but its own and the safeguards': those of every model with a
    foreign key to it (the hidden ones too, as an outbox email's), each deletion cascading to the
    rows that hang from them, so a model another app adds later is deleted as well (and restored:
    the round trip's test holds the document to every such row)."""
    for relation in Campaign._meta.get_fields(include_hidden=True):
        if relation.auto_created and not relation.concrete and (relation.one_to_many or relation.one_to_one):
            model = relation.related_model
            # The mail received (inbox) is the transport's record, not the campaign's state: kept, so
            # a mail processed before the restore is still known by its Message-ID (never filed twice).
            if model not in (Snapshot, RestoreRecord, InboundMessage):
                model._base_manager.filter(**{relation.field.name: campaign}).delete()


def _no_phase_running(campaign: Campaign) -> None:
    """Refuse while a phase holds one of the campaign's turns: its claim is an update of the turn's
    row inside the phase's transaction, so on PostgreSQL the row is locked (NOWAIT: refused at once,
    not after the phase); the status tells the rest (SQLite has one writer: a phase running elsewhere
    holds the database, and this request waits for it)."""
    try:
        with transaction.atomic():
            turns = list(Turn.objects.select_for_update(nowait=True).filter(campaign=campaign))
    except DatabaseError as error:
        raise DomainError("A phase of this campaign is being resolved now: restore once it has finished.") from error
    running = [t for t in turns if t.status in RUNNING]
    if running:
        raise DomainError(f"Turn {running[0].number} is being resolved now: restore it once the phase has finished.")


def _emails_kept(snapshot: Snapshot, document: dict[str, Any], now: dict[str, Any]) -> list[dict[str, Any]]:
    """The restored campaign's emails: every email of the campaign now (as delivered so far: what
    was sent is not sent again), but those queued since the snapshot that were not sent (they
    announce what is undone); those sent since stay in the history, without the key and report
    that named rows of the undone phase, and without a turn the snapshot does not have."""
    turns = {row["number"] for row in document["turns"]}
    known = {_identity(row) for row in document["emails"]}
    kept = []
    for row in now["emails"]:
        if _identity(row) in known:
            kept.append(row)
        elif row["status"] == Email.Status.SENT:
            turn = row["turn"] if row["turn"] in turns else None
            kept.append({**row, "key": None, "report_email": None, "turn": turn})
    return kept


def _messages_kept(document: dict[str, Any], now: dict[str, Any]) -> list[dict[str, Any]]:
    """Diplomacy: the letters written stay written (a restore undoes the game, not what the players
    said to each other), but those of a kingdom the restore undoes, and that kingdom among the
    recipients of the others."""
    kingdoms = {row["name"] for row in document["kingdoms"]}
    kept = []
    for row in now["messages"]:
        if row["sender_kingdom"] is None or row["sender_kingdom"] in kingdoms:
            kept.append({**row, "recipients": [name for name in row["recipients"] if name in kingdoms]})
    return kept


def _rosters_kept(document: dict[str, Any], now: dict[str, Any]) -> None:
    """Who plays each kingdom is the organizer's say about people, not the game's: a co-player
    removed since the snapshot (who may no longer see the kingdom's secrets) stays removed, and one
    added since keeps their place. Only where the restore undoes a kingdom changing hands (its player
    marked out, a Rogue Kingdom given to a new player: the kingdom is a Rogue Kingdom in one and not
    in the other), or an independence declared since (a kingdom the snapshot does not have), do its
    people go back to where the snapshot had them. A person plays one kingdom of the campaign."""
    then = {row["name"]: row for row in document["kingdoms"]}
    current = {row["name"]: row for row in now["kingdoms"]}
    kept = {
        name
        for name, row in then.items()
        if name in current and (row["rogue_turn"] is None) == (current[name]["rogue_turn"] is None)
    }
    # The people of a kingdom declared independent since go back to the kingdom they left.
    independent = {person for name, row in current.items() if name not in then for person in row["players"]}
    rosters = {
        name: [*current[name]["players"], *(p for p in then[name]["players"] if p in independent)] for name in kept
    }
    placed = {person for players in rosters.values() for person in players}
    for name, row in then.items():
        row["players"] = rosters[name] if name in kept else [p for p in row["players"] if p not in placed]
    # An account added since is named by the document's users, as the snapshot's are.
    known = {row["username"] for row in document["users"]}
    added = [row for row in now["users"] if row["username"] in placed and row["username"] not in known]
    document["users"] = sorted([*document["users"], *added], key=lambda row: row["username"])


def _identity(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["created_at"], row["kind"], tuple(row["to"]), row["subject"])


def _ids_kept(plan: Plan, campaign: Campaign) -> None:
    """Give the rows the snapshot shares with the campaign now their ids of now (kingdoms by name,
    provinces by number, turns by number, armies by kingdom and name): the links of the pages and
    emails keep naming them. The others are new rows, with new ids."""
    kingdoms = dict(campaign.kingdoms.values_list("name", "pk"))
    provinces = dict(campaign.provinces.values_list("number", "pk"))
    turns = dict(campaign.turns.values_list("number", "pk"))
    armies = {
        (kingdom, name): pk
        for kingdom, name, pk in Campaign.objects.filter(pk=campaign.pk).values_list(
            "kingdoms__name", "kingdoms__armies__name", "kingdoms__armies__pk"
        )
        if pk is not None
    }
    for number, province in plan.provinces.items():
        province.pk = provinces.get(number)
    for name, kingdom in plan.kingdoms.items():
        kingdom.pk = kingdoms.get(name)
    for key, army in plan.armies.items():
        army.pk = armies.get(key)
    for turn in plan.rows.get(Turn._meta.label, []):
        turn.pk = turns.get(turn.number)


def _restore_events_write(campaign: Campaign) -> None:
    """Every restore of the campaign as an event of its turn (the history), those the snapshot
    restored predates included, once each."""
    for record in RestoreRecord.objects.filter(campaign=campaign).select_related("restored_by").order_by("restored_at"):
        turn = campaign.turns.filter(number=record.turn_number).first()
        restored_at = record.restored_at.isoformat()
        if turn is None or turn.events.filter(code=EventCode.TURN_RESTORED, data__restored_at=restored_at).exists():
            continue
        by = display_name(record.restored_by) if record.restored_by else "the organizer"
        TurnEvent.objects.create(
            turn=turn,
            sequence=turn_event_sequence_next(turn),
            phase="restore",
            code=EventCode.TURN_RESTORED,
            text=f"Turn {turn.number} was restored by {by} to its state before {record.get_phase_display()}.",
            data={
                "phase": record.phase,
                "snapshot_taken_at": record.snapshot_taken_at.isoformat(),
                "restored_at": restored_at,
                "restored_by": by,
            },
        )


def _restore_announce(record: RestoreRecord, turn: Turn) -> None:
    """Tell the organizer and every player: what they were sent since the snapshot is undone, and
    the turn will be resolved again."""
    campaign = turn.campaign
    players = campaign_player_addresses(campaign)
    email_queue(
        template="turn-restored",
        kind=Email.Kind.ANNOUNCEMENT,
        to=sorted(players | ({campaign.organizer.email} if campaign.organizer.email else set())),
        context={"campaign": campaign, "turn": turn, "record": record},
        campaign_id=campaign.pk,
        turn_id=turn.pk,
    )


def desk_snapshot_action(campaign: Campaign) -> DeskAction | None:
    """For the game master's desk, beside a failed phase: the newest snapshot the campaign may be
    restored to (its confirmation page), or None."""
    turns = dict(campaign.turns.values_list("number", "pk"))
    for snapshot in Snapshot.objects.filter(campaign=campaign).defer("document"):
        if snapshot.turn_number in turns and snapshot_refusal(snapshot, campaign) is None:
            return DeskAction(
                label=f"Restore to before {snapshot.get_phase_display()} of turn {snapshot.turn_number}",
                url=reverse("snapshot-restore", args=[turns[snapshot.turn_number], snapshot.pk]),
            )
    return None
