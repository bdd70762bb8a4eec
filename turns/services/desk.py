"""The game master's desk (issue 37): one organizer page per campaign with every army where it stands
(the god view, never a player's) and what is outstanding, each with the action that settles it: the
order sheets not in for the open turn, the battles waiting for a turn summary sheet or for a ruling,
the army lists due, a held or paused turn, a phase that failed (its reason, tries, next try, Retry,
and the snapshot to restore), the emails that failed (Resend). Read-only: every action is an existing
page or button (and the desk's Retry, turns.views.phase_retry). The page and the API
(GET /api/campaigns/<id>/desk/) show the same list."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.urls import reverse
from django.utils import timezone

from battles.models import Battle
from battles.services.summaries import battle_standing
from kingdoms.models import Army, Campaign
from kingdoms.services.armies import army_lists_standing
from orders.models import CampaignSchedule, OrderSheet
from orders.services.turns import current_turn
from outbox.models import Email
from rulebook.campaign_schedule import moment_text
from rulebook.turn.aftermath.results import Conflict, Outcome
from turns.models import Turn


@dataclass(frozen=True)
class DeskAction:
    label: str
    url: str
    method: str = "get"  # "post": a button (with its CSRF token and a confirmation)
    confirm: str = ""


@dataclass(frozen=True)
class DeskItem:
    """One thing outstanding: its kind (for the API and the tests), what it is in words, and the
    actions that settle it."""

    kind: str
    text: str
    actions: tuple[DeskAction, ...] = ()
    details: dict[str, object] = field(default_factory=dict)


# The snapshot to restore after a failed phase: found by the transfer app, which stands above the
# turn cycle and registers its finder from its AppConfig.ready (transfer.snapshots): the newest
# snapshot the campaign may be restored to, as an action, or None.
SnapshotFinder = Callable[[Campaign], DeskAction | None]
_SNAPSHOT_FINDERS: list[SnapshotFinder] = []


def desk_snapshot_finder_register(finder: SnapshotFinder) -> None:
    if finder not in _SNAPSHOT_FINDERS:
        _SNAPSHOT_FINDERS.append(finder)


ITEM_KINDS = (
    "phase-failed",
    "turn-held",
    "campaign-paused",
    "orders-missing",
    "ruling-needed",
    "summary-missing",
    "army-list-due",
    "email-failed",
)


def desk_items(campaign: Campaign) -> list[DeskItem]:
    """What is outstanding in the campaign, most urgent first (a failure, a hold, then what waits
    on the players, then the emails). The caller has checked that the reader is the organizer."""
    turn = current_turn(campaign)
    items: list[DeskItem] = []
    if turn is not None:
        items += _failed_phase(campaign, turn)
        items += _held_or_paused(campaign, turn)
        items += _orders_missing(turn)
        items += _battles_open(turn)
    items += _army_lists_due(campaign)
    items += _emails_failed(campaign)
    return items


def _failed_phase(campaign: Campaign, turn: Turn) -> list[DeskItem]:
    if not turn.phase_failed:
        return []
    tz = campaign.time_zone
    what = f"the {turn.phase_failed_name} of turn {turn.number}"
    actions = [
        DeskAction(
            label=f"Retry {what} now",
            url=reverse("turn-retry", args=[turn.pk]),
            method="post",
            confirm=f"Run {what} now? If what made it fail is put right it runs, and cannot be undone.",
        )
    ]
    for finder in _SNAPSHOT_FINDERS:
        if (restore := finder(campaign)) is not None:
            actions.append(restore)
    actions.append(DeskAction(label=f"Snapshots of turn {turn.number}", url=reverse("turn-snapshots", args=[turn.pk])))
    details = {
        "phase": turn.phase_failed_name,
        "reason": turn.resolution_error,
        "failed_since": moment_text(turn.phase_failed_since, tz) if turn.phase_failed_since else "",
        "failed_at": moment_text(turn.phase_failed_at, tz) if turn.phase_failed_at else "",
        "tries": turn.phase_failures,
        "next_try": moment_text(turn.phase_retry_at, tz) if turn.phase_retry_at else "",
    }
    return [
        DeskItem(
            kind="phase-failed",
            text=f"FAILED: {what}. {turn.resolution_error}",
            actions=tuple(actions),
            details=details,
        )
    ]


def _held_or_paused(campaign: Campaign, turn: Turn) -> list[DeskItem]:
    items = []
    sheets = DeskAction(
        label="Order sheets, deadlines, resolution and pause", url=reverse("sheets-overview", args=[turn.pk])
    )
    if turn.held_at and turn.status in (Turn.Status.ORDERS_OPEN, Turn.Status.BATTLES):
        since = moment_text(turn.held_at, campaign.time_zone)
        if turn.status == Turn.Status.ORDERS_OPEN:
            text = f"Turn {turn.number} is held since {since}: it waits for you to resolve it or extend its deadline."
            items.append(DeskItem(kind="turn-held", text=text, actions=(sheets,)))
        else:
            text = f"Turn {turn.number} is held since {since}: its aftermath waits for you to run it."
            battles = DeskAction(label="Battles and the aftermath", url=reverse("turn-battles", args=[turn.pk]))
            items.append(DeskItem(kind="turn-held", text=text, actions=(battles,)))
    if CampaignSchedule.objects.filter(campaign=campaign, paused=True).exists():
        text = "The campaign is paused: no deadline passes and nothing is resolved until you resume it."
        items.append(DeskItem(kind="campaign-paused", text=text, actions=(sheets,)))
    return items


def _orders_missing(turn: Turn) -> list[DeskItem]:
    if turn.status != Turn.Status.ORDERS_OPEN:
        return []
    submitted = OrderSheet.objects.filter(turn=turn, status=OrderSheet.Status.SUBMITTED).values("kingdom_id")
    missing = turn.campaign.kingdoms.filing_orders().exclude(id__in=submitted).order_by("name")
    return [
        DeskItem(
            kind="orders-missing",
            text=f"{kingdom.name}'s orders for turn {turn.number} are not in.",
            actions=(
                DeskAction(label="Order sheets of the turn", url=reverse("sheets-overview", args=[turn.pk])),
                DeskAction(
                    label=f"{kingdom.name}'s sheet", url=reverse("order-sheet-kingdom", args=[turn.pk, kingdom.pk])
                ),
            ),
            details={"kingdom": kingdom.name},
        )
        for kingdom in missing
    ]


def _battles_open(turn: Turn) -> list[DeskItem]:
    """The turn's battles not settled: in conflict (the organizer rules), or waiting for a sheet."""
    if turn.status != Turn.Status.BATTLES:
        return []
    deadline_passed = timezone.now() > turn.results_deadline
    battles = (
        Battle.objects.filter(turn=turn)
        .select_related("province", "attacker_kingdom", "defender_kingdom", "attacker_army", "defender_army")
        .prefetch_related("summary_sheets")
        .order_by("province__number", "id")
    )
    items = []
    for battle in battles:
        standing = battle_standing(battle, deadline_passed=deadline_passed)
        if isinstance(standing, Outcome):
            continue
        page = DeskAction(label=f"The battle in {battle.province}", url=reverse("battle", args=[battle.pk]))
        if isinstance(standing, Conflict):
            text = f"The battle in {battle.province}: the turn summary sheets disagree ({standing.message}) Rule on it."
            items.append(DeskItem(kind="ruling-needed", text=text, actions=(page,), details={"battle": battle.pk}))
        else:
            text = f"The battle in {battle.province}: {standing.message}"
            items.append(DeskItem(kind="summary-missing", text=text, actions=(page,), details={"battle": battle.pk}))
    return items


def _army_lists_due(campaign: Campaign) -> list[DeskItem]:
    items = []
    for standing in army_lists_standing(campaign):
        if not standing.problems:
            continue
        army = standing.army
        text = f"{army.kingdom.name}: the army list of {army.name} is due ({'; '.join(standing.problems)})."
        action = DeskAction(label=f"The list of {army.name}", url=reverse("army-edit", args=[army.pk]))
        items.append(DeskItem(kind="army-list-due", text=text, actions=(action,), details={"army": army.pk}))
    return items


def desk_failed_emails(campaign: Campaign) -> list[Email]:
    """The campaign's emails that failed to go, newest first (each can be resent)."""
    return list(
        Email.objects.filter(campaign=campaign, status=Email.Status.FAILED)
        .defer("text", "html", "attachment")
        .order_by("-created_at", "-id")
    )


def _emails_failed(campaign: Campaign) -> list[DeskItem]:
    return [
        DeskItem(
            kind="email-failed",
            text=f"The email \u201c{email.subject or email.get_kind_display()}\u201d to {email.to_line} failed: "
            + email.last_error,
            actions=(
                DeskAction(
                    label="Resend",
                    url=reverse("email-resend", args=[email.pk]),
                    method="post",
                    confirm=f"Send the email to {email.to_line} again?",
                ),
            ),
            details={"email": email.pk},
        )
        for email in desk_failed_emails(campaign)
    ]


@dataclass(frozen=True)
class ArmyWhere:
    kingdom: str
    army: str
    province: str


def desk_armies(campaign: Campaign) -> list[ArmyWhere]:
    """Every kingdom's active armies and where they stand: the god view's table under its map."""
    armies = (
        Army.objects.filter(kingdom__campaign=campaign, status=Army.Status.ACTIVE)
        .select_related("kingdom", "province")
        .order_by("kingdom__name", "name", "id")
    )
    return [
        ArmyWhere(kingdom=a.kingdom.name, army=a.name, province=str(a.province) if a.province else "off the map")
        for a in armies
    ]
