"""Delivering the turn reports by email: one outbox email per report and address (a ReportEmail),
rendered when the report is ready and sent by the outbox like every other email (outbox.services:
claimed, retried, failed, resent, taken up after a crash)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone

from battles.models import Battle
from battles.services.scenarios import scenario_sheet_context
from battles.services.summary_text import summary_sheet_text
from kernel.event_codes import EventCode
from kingdoms.models import Kingdom, ReportPreferences, TreasuryEntry
from kingdoms.services.mail_addresses import orders_address_for
from orders.services.sheet_text import order_sheet_text
from outbox.models import Email
from outbox.services import email_queue, email_render
from rulebook.campaign_schedule import deadline_text
from rulebook.tables import ArmyType
from turns.models import Turn, TurnEvent

from ..models import ReportEmail, TurnReport


def _preferences(users: list) -> dict[int, ReportPreferences]:  # type: ignore[type-arg]
    return {p.user_id: p for p in ReportPreferences.objects.filter(user__in=users)}


def _readers(report: TurnReport) -> list[Any]:
    """Who receives the report: a kingdom's report its players (the organizer for a kingdom
    without players: the Ancient Dead); a scenario sheet the players of every kingdom in the
    battle (supports too, and a garrison beside its ally's army) and the organizer; the bulletin
    every player and the organizer."""
    campaign = report.turn.campaign
    if report.is_scenario:
        battle = report.battle
        # The kingdom whose garrison fights beside its ally's army: its garrison is on the table (decision 585).
        kingdoms = {battle.attacker_kingdom_id, battle.defender_kingdom_id, battle.garrison_kingdom_id}
        kingdoms |= {support.kingdom_id for support in battle.supports.all()}
        users = list(get_user_model().objects.filter(kingdoms__in=kingdoms - {None}).distinct())
    elif report.kingdom_id is not None:
        return list(report.kingdom.players.all()) or [campaign.organizer]
    else:
        users = list(get_user_model().objects.filter(kingdoms__campaign=campaign).distinct())
    if campaign.organizer not in users:
        users.append(campaign.organizer)
    return users


def report_recipients(report: TurnReport) -> list[tuple[Any, str, bool]]:
    """(user, address, attach the PDF) for each reader, by the reader's report preferences."""
    users = _readers(report)
    preferences = _preferences(users)
    recipients = []
    for user in sorted(users, key=lambda u: u.pk):
        preference = preferences.get(user.pk)
        address = (preference.report_email if preference and preference.report_email else user.email) or ""
        if address:
            recipients.append((user, address, preference.attach_pdf if preference else True))
    return recipients


def _email_template_and_context(report: TurnReport) -> tuple[str, dict[str, Any]]:
    turn = report.turn
    campaign = turn.campaign
    context: dict[str, Any] = {"report": report, "turn": turn, "campaign": campaign}
    if report.is_scenario:
        context |= scenario_sheet_context(report.battle)
        context["results_deadline"] = deadline_text(turn.results_deadline, campaign.time_zone)
        return "battle-scenario", context
    next_turn = Turn.objects.filter(campaign=campaign, number=turn.number + 1).first()
    context["kingdom"] = report.kingdom
    # One line of what happened, in the email itself (issue 37): the PDF or the link has the rest.
    context["what_happened"] = bulletin_line(turn) if report.is_bulletin else kingdom_turn_line(turn, report.kingdom)
    context["next_orders_deadline"] = deadline_text(next_turn.orders_deadline, campaign.time_zone) if next_turn else ""
    return ("turn-bulletin" if report.is_bulletin else "turn-report"), context


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def kingdom_turn_line(turn: Turn, kingdom: Kingdom) -> str:
    """'Ostland in turn 1: 2 battles (1 won, 1 lost, 0 drawn); 4 provinces; treasury 5,525 gold
    (+630 this turn).' From the stored rows (the battles' settled victors, the ledger)."""
    ledger = TreasuryEntry.objects.filter(kingdom=kingdom)
    change = ledger.filter(turn=turn.number).aggregate(total=Sum("amount"))["total"] or 0
    balance = ledger.filter(turn__lte=turn.number).aggregate(total=Sum("amount"))["total"] or 0
    won = lost = drawn = 0
    battles = Battle.objects.filter(turn=turn).filter(Q(attacker_kingdom=kingdom) | Q(defender_kingdom=kingdom))
    for battle in battles.filter(mission=""):  # the Tomb Raiders' missions are skirmishes, told apart
        side = "attacker" if battle.attacker_kingdom_id == kingdom.pk else "defender"
        if not battle.victor:
            drawn += 1
        elif battle.victor == side:
            won += 1
        else:
            lost += 1
    fought = won + lost + drawn
    battles_text = f"{_count(fought, 'battle')} ({won} won, {lost} lost, {drawn} drawn)" if fought else "no battle"
    provinces = kingdom.provinces.count()
    return (
        f"{kingdom.name} in turn {turn.number}: {battles_text}; {_count(provinces, 'province')}; "
        f"treasury {balance:,} gold ({change:+,} this turn)."
    )


def bulletin_line(turn: Turn) -> str:
    """'Turn 1: 2 battles fought; 3 provinces changed hands.' (public facts only)."""
    battles = Battle.objects.filter(turn=turn, mission="").count()  # missions are secret (decision 442)
    changed = TurnEvent.objects.filter(
        turn=turn, code__in=[EventCode.PROVINCE_CLAIMED, EventCode.PROVINCE_CONQUERED]
    ).count()
    return f"Turn {turn.number}: {_count(battles, 'battle')} fought; {_count(changed, 'province')} changed hands."


EMAIL_KINDS = {
    TurnReport.Kind.KINGDOM: Email.Kind.KINGDOM_REPORT,
    TurnReport.Kind.BULLETIN: Email.Kind.BULLETIN,
    TurnReport.Kind.SCENARIO: Email.Kind.SCENARIO_SHEET,
}


def report_emails_queue(*, report: TurnReport) -> list[int]:
    """Render and queue the report's emails (once per address, the PDF attached or a link, by each
    reader's preferences) and return the ids still queued. The caller enqueues their sending: this
    runs in the render task (or the sweep), after the report is stored."""
    template, context = _email_template_and_context(report)
    pdf = (report.filename, bytes(report.pdf), "application/pdf") if report.pdf else None
    sheets = _sheets_by_email(report)
    with transaction.atomic():
        for user, address, attach in report_recipients(report):
            sheet = sheets(user)
            email_queue(
                template=template,
                kind=EMAIL_KINDS[report.kind],
                to=[address],
                context={**context, "attached": attach and pdf is not None, **sheet},
                reply_to=sheet.get("orders_address", ""),
                campaign_id=report.turn.campaign_id,
                turn_id=report.turn_id,
                attachment=pdf if attach else None,
                key=f"report:{report.pk}:{address}",
                model=ReportEmail,
                after_commit=False,
                report=report,
                user=user,
                attach_pdf=attach,
            )
        _carried_over_emails_render(report, template, context, pdf)
        now = timezone.now()
        TurnReport.objects.filter(pk=report.pk, emails_queued_at__isnull=True).update(emails_queued_at=now)
        if report.is_scenario:
            Battle.objects.filter(pk=report.battle_id, scenario_sent_at__isnull=True).update(scenario_sent_at=now)
    return list(report.emails.filter(status=Email.Status.QUEUED).values_list("id", flat=True))


def _sheets_by_email(report: TurnReport) -> Callable[[Any], dict[str, str]]:
    """For each reader, the sheet they may reply with (issue 36), as the email's context (`sheet_text`
    and `orders_address`, where a reply goes), or nothing: a kingdom's report carries the kingdom's
    order sheet of the turn it opens to its players; a scenario sheet carries the reader's turn summary
    sheet of the battle, if their kingdom files one."""
    campaign = report.turn.campaign
    texts: dict[int, str] = {}
    if report.is_scenario:
        battle = report.battle
        filing = battle.filing_kingdom_ids()
        if battle.turn.status == Turn.Status.BATTLES:
            for kingdom in Kingdom.objects.filter(pk__in=filing).exclude(army_type=ArmyType.ANCIENT_DEAD):
                texts[kingdom.pk] = summary_sheet_text(battle=battle, kingdom=kingdom)
    elif report.kingdom_id is not None and not report.kingdom.is_ancient_dead:
        opened = Turn.objects.filter(
            campaign=campaign, number=report.turn.number + 1, status=Turn.Status.ORDERS_OPEN
        ).first()
        if opened is not None:
            texts[report.kingdom_id] = order_sheet_text(kingdom=report.kingdom, turn=opened)

    def sheet(user: Any) -> dict[str, str]:
        kingdom = next((k for k in texts if user.kingdoms.filter(pk=k).exists()), None)
        if kingdom is None:
            return {}
        return {"sheet_text": texts[kingdom], "orders_address": orders_address_for(user, campaign)}

    return sheet


def _carried_over_emails_render(
    report: TurnReport, template: str, context: dict[str, Any], pdf: tuple[str, bytes, str] | None
) -> None:
    """The report's emails that were not sent before every email became an outbox row (reports
    migration 0002 kept them, with their tries and errors, but had no way to render them): rendered
    now, as they would have been, so the sender (or the organizer's Resend) can send them."""
    for email in report.emails.filter(subject="").exclude(status=Email.Status.SENT):
        attached = email.attach_pdf and pdf is not None
        rendered = email_render(template=template, context={**context, "attached": attached})
        filename, content, mimetype = pdf if pdf and email.attach_pdf else ("", None, "")
        Email.objects.filter(pk=email.pk).update(
            subject=rendered.subject,
            text=rendered.text,
            html=rendered.html,
            attachment_name=filename,
            attachment_type=mimetype,
            attachment=content,
        )
