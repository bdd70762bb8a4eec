"""Storing the dice kernel's rolls."""

from collections.abc import Sequence
from typing import Any

from django.db.models import Count

from kernel.dice import Dice, SeededDice
from turns.models import DiceRoll

from ..models import Campaign
from .bulk_rows import records_insert


def campaign_dice(*, campaign: Campaign, stream: str) -> SeededDice:
    """Setup dice of a campaign: drawn from its stored setup seed and the named stream.

    A stream that has already rolled continues where it stopped, so re-running a step that
    failed validation never changes the rolls already shown to players.
    """
    dice = SeededDice(seed=campaign.setup_seed, stream=stream)
    stored = DiceRoll.objects.filter(campaign=campaign, turn=0, stream=stream).order_by("sequence")
    for expression in stored.values_list("expression", flat=True):
        dice.roll(expression, purpose="replay")  # re-draw the stored rolls to advance the stream
    dice.rolls.clear()
    return dice


def dice_rolls_save(*, campaign: Campaign, turn: int, dice: Dice, stream: str = "") -> list[DiceRoll]:
    """Write the rolls made with `dice` (call inside the service's transaction)."""
    stream = getattr(dice, "stream", stream)
    start = DiceRoll.objects.filter(campaign=campaign, turn=turn, stream=stream).count()
    return DiceRoll.objects.bulk_create(DiceRoll(**row) for row in _rows(campaign, turn, stream, start, dice))


def dice_rolls_save_many(*, campaign: Campaign, turn: int, dice: Sequence[SeededDice]) -> None:
    """Write the rolls of several streams at once (a turn's scenarios, the orders phase's two
    streams): two queries whatever their number (bulk_rows.records_insert: thousands of rolls)."""
    started = dict(
        DiceRoll.objects.filter(campaign=campaign, turn=turn, stream__in=[d.stream for d in dice])
        .values_list("stream")
        .annotate(n=Count("id"))
    )
    rows = [row for d in dice for row in _rows(campaign, turn, d.stream, started.get(d.stream, 0), d)]
    records_insert(DiceRoll, rows)


def _rows(campaign: Campaign, turn: int, stream: str, start: int, dice: Dice) -> list[dict[str, Any]]:
    """The rolls of `dice` as DiceRoll records (bulk_rows.records_insert's): no model instance per roll."""
    return [
        {
            "campaign_id": campaign.pk,
            "turn": turn,
            "stream": stream,
            "sequence": start + index,
            "expression": roll.expression,
            "faces": list(roll.faces),
            "total": roll.total,
            "purpose": roll.purpose,
            "kingdoms": list(roll.kingdoms),
            "armies": list(roll.armies),
        }
        for index, roll in enumerate(dice.rolls)
    ]
