"""Storing the dice kernel's rolls."""

from collections.abc import Sequence
from typing import Any

from django.db.models import Count

from kernel.dice import Dice, SeededDice
from turns.models import DiceRoll

from ..models import Campaign
from .bulk_rows import values_insert

# A roll's purpose names the armies, kingdoms and provinces it is for (two names of up to 100 characters
# each, and words): it is cut to what its column keeps, or the phase that rolled it could not store it.
PURPOSE_MAX = DiceRoll._meta.get_field("purpose").max_length or 200


def purpose_kept(purpose: str) -> str:
    """The roll's purpose as its row keeps it: cut, with an ellipsis, past PURPOSE_MAX characters."""
    return purpose if len(purpose) <= PURPOSE_MAX else purpose[: PURPOSE_MAX - 1] + "\u2026"


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
    streams): two queries whatever their number (bulk_rows.values_insert: thousands of rolls)."""
    started = dict(
        DiceRoll.objects.filter(campaign=campaign, turn=turn, stream__in=[d.stream for d in dice])
        .values_list("stream")
        .annotate(n=Count("id"))
    )
    values_insert(
        DiceRoll,
        DICE_ROLL_FIELDS,
        [
            (
                campaign.pk,
                turn,
                d.stream,
                started.get(d.stream, 0) + index,
                roll.expression,
                list(roll.faces),
                roll.total,
                purpose_kept(roll.purpose),
                list(roll.kingdoms),
                list(roll.armies),
            )
            for d in dice
            for index, roll in enumerate(d.rolls)
        ],
    )


# The fields of a roll's row, in the order dice_rolls_save_many gives them (a tuple per roll, no dict):
# the order phase's own rolls are written the same way (orders.services.resolution).
DICE_ROLL_FIELDS = (
    "campaign_id",
    "turn",
    "stream",
    "sequence",
    "expression",
    "faces",
    "total",
    "purpose",
    "kingdoms",
    "armies",
)


def _rows(campaign: Campaign, turn: int, stream: str, start: int, dice: Dice) -> list[dict[str, Any]]:
    """The rolls of `dice` as the fields of DiceRoll rows (dice_rolls_save's)."""
    return [
        {
            "campaign_id": campaign.pk,
            "turn": turn,
            "stream": stream,
            "sequence": start + index,
            "expression": roll.expression,
            "faces": list(roll.faces),
            "total": roll.total,
            "purpose": purpose_kept(roll.purpose),
            "kingdoms": list(roll.kingdoms),
            "armies": list(roll.armies),
        }
        for index, roll in enumerate(dice.rolls)
    ]
