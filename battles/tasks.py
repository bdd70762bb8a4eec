"""Celery tasks of the battles: thin, take ids, safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from briternia.emails import email_send
from orders.rules.schedule import deadline_text

from .models import Battle
from .services.aftermath import aftermath_resolve
from .services.scenarios import scenario_sheet_context, scenario_sheet_pdf


def battle_recipients(battle: Battle) -> list[str]:
    """The players of every kingdom in the battle (supports included) and the organizer."""
    kingdoms = {battle.attacker_kingdom, battle.defender_kingdom, *(s.kingdom for s in battle.supports.all())}
    emails = {p.email for k in kingdoms if k is not None for p in k.players.all() if p.email}
    organizer = battle.turn.campaign.organizer
    if organizer.email:
        emails.add(organizer.email)
    return sorted(emails)


@shared_task(autoretry_for=(ConnectionError, OSError), retry_backoff=True, max_retries=5)
def battle_scenarios_send(*, turn_id: int) -> int:
    """Email each battle's scenario sheet (PDF attached) to its players and the organizer. A
    battle is claimed before its email goes out, so a second run sends nothing twice; a failed
    send gives the claim back and the task retries."""
    sent = 0
    for battle_id in Battle.objects.filter(
        turn_id=turn_id, scenario__isnull=False, scenario_sent_at__isnull=True
    ).values_list("id", flat=True):
        claimed = Battle.objects.filter(Q(pk=battle_id) & Q(scenario_sent_at__isnull=True)).update(
            scenario_sent_at=timezone.now()
        )
        if not claimed:
            continue
        battle = (
            Battle.objects.select_related(
                "turn__campaign__organizer",
                "province",
                "attacker_kingdom",
                "attacker_army",
                "defender_kingdom",
                "defender_army",
            )
            .prefetch_related("supports__kingdom__players", "attacker_kingdom__players", "defender_kingdom__players")
            .get(pk=battle_id)
        )
        try:
            context = scenario_sheet_context(battle)
            context["results_deadline"] = deadline_text(battle.turn.results_deadline, battle.turn.campaign.time_zone)
            pdf = scenario_sheet_pdf(battle)
            filename = f"scenario-turn{battle.turn.number}-{battle.province.number}.pdf"
            email_send(
                "battle-scenario",
                to=battle_recipients(battle),
                context=context,
                attachments=[(filename, pdf, "application/pdf")],
            )
        except Exception:
            Battle.objects.filter(pk=battle_id).update(scenario_sent_at=None)
            raise
        sent += 1
    return sent


@shared_task(acks_late=True)
def aftermath_task(*, turn_id: int) -> bool:
    """Resolve a turn's aftermath. A second run finds the turn claimed and does nothing."""
    return aftermath_resolve(turn_id=turn_id).resolved
