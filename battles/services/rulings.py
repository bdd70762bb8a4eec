"""What a battle's players are told of its turn summary sheets as they come in (issue 37, "rulings
told"): a receipt for every sheet submitted, an email to both sides when their sheets disagree
(8. End of Turn: the organizer decides), and one when the organizer rules. The texts come from
battles.services.summaries, which calls these as it saves; this module only addresses and queues
them, so it imports nothing of it."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from django.urls import reverse

from briternia.site import site_url
from kingdoms.models import Kingdom
from outbox.models import Email
from outbox.services import email_queue
from rulebook.campaign_schedule import moment_text

from ..models import Battle, TurnSummarySheet


def _players(kingdoms: list[Kingdom | None]) -> list[str]:
    return [p.email for k in kingdoms if k is not None for p in k.players.order_by("pk") if p.email]


def _digest(text: str) -> str:
    """A short fingerprint of what was said: the same words are queued once, new words again."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _context(battle: Battle) -> dict[str, Any]:
    return {
        "battle": battle,
        "turn": battle.turn,
        "campaign": battle.turn.campaign,
        "link": site_url() + reverse("battle", args=[battle.pk]),
    }


def summary_receipt_queue(
    sheet: TurnSummarySheet, filed: dict[str, Any], *, entered_by_name: str, notes: Sequence[str] = ()
) -> Email | None:
    """The receipt of a submitted sheet, to its kingdom's players: what was filed, when and by whom
    (as an order sheet's receipt). One per submission: a sheet submitted again gets a new one.
    `notes`: lines it adds (a sheet filed by email: what its mail carried besides)."""
    battle = sheet.battle
    return email_queue(
        template="summary-receipt",
        kind=Email.Kind.SUMMARY_RECEIPT,
        to=_players([sheet.kingdom]),
        context={
            **_context(battle),
            "kingdom": sheet.kingdom,
            "sheet": sheet,
            "filed": filed,
            "by": entered_by_name,
            "received": moment_text(sheet.submitted_at, battle.turn.campaign.time_zone) if sheet.submitted_at else "",
            "sheet_link": site_url() + reverse("summary-sheet", args=[battle.pk]),
            "notes": list(notes),
        },
        campaign_id=battle.turn.campaign_id,
        turn_id=battle.turn_id,
        # No key: each submission queues its own receipt once, in the transaction that accepts it.
    )


def disagreement_queue(battle: Battle, disagreement: str) -> Email | None:
    """Both sides' players and the organizer are told when the two sheets disagree, and on what
    (8. End of Turn; rules decision 320): once for each new disagreement."""
    campaign = battle.turn.campaign
    to = _players([battle.attacker_kingdom, battle.defender_kingdom])
    if campaign.organizer.email:
        to.append(campaign.organizer.email)
    return email_queue(
        template="battle-disagreement",
        kind=Email.Kind.BATTLE_RULING,
        to=to,
        context={**_context(battle), "disagreement": disagreement},
        campaign_id=campaign.pk,
        turn_id=battle.turn_id,
        key=f"battle-disagreement:{battle.pk}:{_digest(disagreement)}",
    )


def ruling_queue(battle: Battle, ruling: str) -> Email | None:
    """Both sides' players are told the organizer's ruling and its note: once for each ruling."""
    return email_queue(
        template="battle-ruling",
        kind=Email.Kind.BATTLE_RULING,
        to=_players([battle.attacker_kingdom, battle.defender_kingdom]),
        context={**_context(battle), "ruling": ruling},
        campaign_id=battle.turn.campaign_id,
        turn_id=battle.turn_id,
        key=f"battle-ruling:{battle.pk}:{_digest(ruling)}",
    )
