"""What the database's foreign-key constraints on a turn's logs checked, checked once per phase for
the turn's rows in one set-based query: a turn's events, dice rolls and army movements keep their
keys without a constraint (turns/models.py, above TurnEvent), so that the phase's commit does not
check them row by row, thousands of them.

The check is stricter than the constraints were: a key must name a row of the turn's own campaign,
not only a row that exists. What it does not look at, because the rows are found by it: an event's
turn and a dice roll's campaign (a row written with the wrong one is not among the turn's rows), and
a movement's army (a movement is the turn's through its army)."""

from __future__ import annotations

from django.db.models import Q, QuerySet, Value

from kingdoms.models import Army, ArmyMovement, Kingdom, Province
from turns.models import Turn, TurnEvent

# At most this many dangling rows are named: one is enough to roll the phase back.
NAMED_AT_MOST = 10


def log_references_dangling(*, turn: Turn) -> list[str]:
    """The problems of the turn's events and army movements whose kingdom, army or province is not
    one of the turn's campaign (at most NAMED_AT_MOST of them), in one query."""
    kingdoms = Kingdom.objects.filter(campaign_id=turn.campaign_id).values("id")
    armies = Army.objects.filter(kingdom__campaign_id=turn.campaign_id).values("id")
    provinces = Province.objects.filter(campaign_id=turn.campaign_id).values("id")
    events: QuerySet = (
        TurnEvent.objects.filter(turn=turn)
        .filter(
            (Q(kingdom_id__isnull=False) & ~Q(kingdom_id__in=kingdoms))
            | (Q(army_id__isnull=False) & ~Q(army_id__in=armies))
        )
        .order_by()
        .values_list(Value("event"), "sequence", "code", "kingdom_id", "army_id")
    )
    movements: QuerySet = (
        ArmyMovement.objects.filter(army_id__in=armies, turn=turn.number)
        .exclude(province_id__in=provinces)
        .order_by()
        .values_list(Value("movement"), "step", Value(""), "province_id", "army_id")
    )
    problems = []
    for what, number, code, other, army in events.union(movements, all=True)[:NAMED_AT_MOST]:
        if what == "event":
            problems.append(
                f"Event #{number} ({code}) of the turn names a kingdom ({other}) or an army ({army}) "
                "that is not of this campaign."
            )
        else:
            problems.append(
                f"Step {number} of army {army}'s movement this turn is in a province ({other}) "
                "that is not of this campaign."
            )
    return problems
