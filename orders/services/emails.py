"""The orders' emails: the receipt of a submission, queued as one row inside the submitting
transaction and rendered by the worker from the receipt written at acceptance (what was accepted
then, not what stands later); the announcement of a changed deadline, schedule or pause, rendered
when it is queued. Sent by the outbox."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.utils import timezone

from kingdoms.models import Campaign, Kingdom
from kingdoms.people import display_name
from outbox.models import Email
from outbox.services import Rendered, email_queue, email_queue_for_worker, email_render
from rulebook.campaign_schedule import deadline_text, moment_text
from rulebook.world import World
from turns.models import Turn

from ..models import DeadlineChange, OrderSubmission
from .calendar import deadlines_calendar
from .describe import describe_entries, new_lists_note


def kingdom_email_queue(
    *,
    template: str,
    kind: str,
    kingdom: Kingdom,
    turn: Turn,
    key: str,
    players: Sequence[Any] | None = None,
    reply_to: str = "",
    **context: Any,
) -> None:
    """Queue an email about `turn` to the kingdom's players (receipts, reminders), or to those of them
    in `players`: its templates read the kingdom, the turn and the campaign besides `context`.
    `reply_to`: where a reply goes (blank: the campaign's organizer)."""
    email_queue(
        template=template,
        kind=kind,
        to=[p.email for p in (kingdom.players.all() if players is None else players) if p.email],
        context={"kingdom": kingdom, "turn": turn, "campaign": turn.campaign, **context},
        campaign_id=turn.campaign_id,
        turn_id=turn.pk,
        key=key,
        reply_to=reply_to,
    )


def receipt_content(
    *,
    submission: OrderSubmission,
    kingdom: Kingdom,
    turn: Turn,
    lists_due: list[str] | None = None,
    world: World | None = None,
    army_rows: Iterable[Sequence[Any]] | None = None,
    record: str = "",
) -> dict[str, Any]:
    """The receipt of a submission as written when it is accepted, kept on the submission
    (`OrderSubmission.receipt`): when it arrived (to the second, in the campaign's time zone), the
    orders in words with where each army stood then, the deadline, the army lists due. The receipt
    page and the email show this, never a description written again later. `world`: the world the
    sheet was checked against (its map and names; `describe_entries`), and `army_rows` the
    kingdom's armies as the check read them (describe.ARMY_ROW_FIELDS). `record`: for a submission
    kept for the record, what it says (orders.services.sheets.record_text: accepted at, the running
    resolution, what it uses)."""
    lines = describe_entries(kingdom=kingdom, entries=submission.entries, world=world, army_rows=army_rows)
    return {
        "received": moment_text(submission.submitted_at, turn.campaign.time_zone),
        "by": display_name(submission.submitted_by) if submission.submitted_by else "",
        "orders": lines["orders"],
        "kingdom": lines["kingdom"],
        "deadline": deadline_text(turn.orders_deadline, turn.campaign.time_zone),
        "lists_due": list(lists_due or []),
        "new_lists": new_lists_note(entries=submission.entries, turn_number=turn.number),
        **({"record": record} if record else {}),
    }


RECEIPT_KEY_PREFIX = "orders-receipt:"


def orders_receipt_queue(*, submission: OrderSubmission, turn: Turn) -> None:
    """Confirm a submission to the kingdom's players with its receipt as written at acceptance (the
    orders as received, the gold it was checked against, the army lists due): one row, which the
    worker renders (`orders_receipt_render`); the request that submits reads and renders nothing
    for it."""
    email_queue_for_worker(
        kind=Email.Kind.ORDERS_RECEIPT,
        key=f"{RECEIPT_KEY_PREFIX}{submission.pk}",
        campaign_id=turn.campaign_id,
        turn_id=turn.pk,
    )


def orders_receipt_render(email: Email) -> tuple[list[str], Rendered] | None:
    """The receipt email of the submission its key names (registered with the outbox: the worker
    renders it before its first try), to the kingdom's players: what the submission's receipt says,
    written when it was accepted, with the links to the address the sheet was submitted at. None
    when the submission is gone (its campaign deleted or replaced)."""
    submission_id = int(email.key.removeprefix(RECEIPT_KEY_PREFIX))
    submission = (
        OrderSubmission.objects.select_related("sheet__kingdom", "sheet__turn__campaign", "submitted_by")
        .filter(pk=submission_id)
        .first()
    )
    if submission is None:
        return None
    kingdom, turn = submission.sheet.kingdom, submission.sheet.turn
    receipt = submission.receipt or receipt_content(submission=submission, kingdom=kingdom, turn=turn)
    context = {
        "kingdom": kingdom,
        "turn": turn,
        "campaign": turn.campaign,
        "submission": submission,
        "receipt": receipt,
        **({"site_url": email.text} if email.text else {}),
    }
    return [p.email for p in kingdom.players.all()], email_render(template="orders-receipt", context=context)


def sheet_answer_queue(
    *, user: Any, subject: str, lines: Sequence[str], campaign_id: int | None, turn_id: int | None = None
) -> Email | None:
    """The answer to a sheet filed by email (a draft saved, a refusal), to the user's registered
    address: never to the address the mail came from, which proves nothing. None: no address."""
    return email_queue(
        template="sheet-answer",
        kind=Email.Kind.SHEET_ANSWER,
        to=[user.email],
        context={"subject": subject, "lines": list(lines)},
        campaign_id=campaign_id,
        turn_id=turn_id,
    )


def campaign_player_addresses(campaign: Campaign) -> set[str]:
    """The address of every player of the campaign: who an announcement goes to."""
    return {p.email for k in campaign.kingdoms.prefetch_related("players") for p in k.players.all() if p.email}


def deadline_change_announce(*, change: DeadlineChange, turn: Turn) -> None:
    """Tell every player of the campaign about a changed deadline, schedule or pause, with the turn's
    deadlines attached as iCalendar; `turn` carries the deadlines as they stand after the change."""
    campaign = turn.campaign
    email_queue(
        template="deadline-changed",
        kind=Email.Kind.ANNOUNCEMENT,
        to=sorted(campaign_player_addresses(campaign)),
        context={
            "change": change,
            "turn": turn,
            "campaign": campaign,
            "orders_deadline": deadline_text(turn.orders_deadline, campaign.time_zone),
            "results_deadline": deadline_text(turn.results_deadline, campaign.time_zone),
            "passed_in_pause": _passed_in_pause(change, turn),
        },
        campaign_id=campaign.pk,
        turn_id=turn.pk,
        key=f"deadline-change:{change.pk}",
        # The turn's deadlines as they stand, for the player's calendar (the same events as the feed).
        attachment=(
            f"turn-{turn.number}-deadlines.ics",
            deadlines_calendar(campaign=campaign, turns=[turn]),
            "text/calendar",
        ),
    )


def _passed_in_pause(change: DeadlineChange, turn: Turn) -> str:
    """For a campaign resumed after its turn's deadline passed during the pause (rules decision 610):
    what the resumption does now, since that deadline is not ahead of the players."""
    if change.kind != DeadlineChange.Kind.RESUMED:
        return ""
    now, tz = timezone.now(), turn.campaign.time_zone
    if turn.status == Turn.Status.ORDERS_OPEN and turn.orders_deadline <= now:
        return (
            f"The orders deadline, {deadline_text(turn.orders_deadline, tz)}, passed while the campaign was paused: "
            "no more orders are taken, and the turn is resolved now with the orders filed (those filed during the "
            "pause count)."
        )
    if turn.status == Turn.Status.BATTLES and turn.results_deadline <= now:
        return (
            f"The results deadline, {deadline_text(turn.results_deadline, tz)}, passed while the campaign was "
            "paused: no more turn summary sheets are taken, and the turn ends now with the sheets filed (those "
            "filed during the pause count)."
        )
    return ""


def orders_held_announce(*, turn: Turn, missing: int, total: int) -> None:
    """Tell the organizer that the orders deadline passed with too many orders missing and the turn
    waits for them (turns.services.sweep holds it)."""
    campaign = turn.campaign
    email_queue(
        template="orders-held",
        kind=Email.Kind.ORGANIZER_ALERT,
        to=[campaign.organizer.email] if campaign.organizer.email else [],
        context={
            "turn": turn,
            "campaign": campaign,
            "missing": missing,
            "total": total,
            "orders_deadline": deadline_text(turn.orders_deadline, campaign.time_zone),
        },
        campaign_id=campaign.pk,
        turn_id=turn.pk,
        key=f"orders-held:{turn.pk}:{turn.orders_deadline.isoformat()}",
    )
