"""Pages of the turn cycle: the campaign's page (setup, then the current turn), and the organizer's
buttons that start the campaign, resolve a turn's orders and run its aftermath. Each view parses
input, calls one service, renders."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from battles import selectors as battle_selectors
from battles.services.stories import STORIES_ON_CAMPAIGN_PAGE, stories_of
from briternia.flash import flash_outcome
from kingdoms import selectors
from kingdoms.forms import InviteForm
from kingdoms.models import Campaign, Kingdom
from kingdoms.services.armies import army_lists_standing
from kingdoms.services.campaigns import setup_next_kingdom
from kingdoms.views import setup_forms
from orders.models import OrderSheet
from orders.selectors import turn_get
from orders.services.calendar import calendar_key
from orders.services.progress import turn_progress
from orders.services.turns import current_turn, turn_clock
from reports.league import league_table
from reports.selectors import campaign_email_failures
from rulebook.campaign_schedule import deadline_text
from rulebook.tables import ArmyType
from rulebook.turn.aftermath.experience import STORY_EXPERIENCE
from turns.models import DiceRoll, Turn

from .services.cycle import campaign_start as campaign_start_service
from .services.desk import desk_armies, desk_failed_emails, desk_items
from .services.requests import aftermath_phase_request, orders_phase_request, phase_retry_request


def _organizer_turn(request: HttpRequest, turn_id: int) -> Turn:
    """The turn, to its campaign's organizer; to anyone else it is not found."""
    turn = turn_get(user=request.user, turn_id=turn_id)
    if not selectors.is_organizer(request.user, turn.campaign):
        raise Http404
    return turn


@login_required
@require_POST
def turn_resolve_now(request: HttpRequest, turn_id: int) -> HttpResponse:
    """The organizer's Resolve button: the task runs after this request's transaction commits."""
    turn = _organizer_turn(request, turn_id)
    success = (
        f"Turn {turn.number} is being resolved: your request is recorded, and if no worker takes it up at "
        "once the deadline sweep runs it within two minutes."
    )
    flash_outcome(request, lambda: orders_phase_request(turn=turn), success=success)
    return redirect("turn-results", turn_id=turn.pk)


@login_required
@require_POST
def aftermath_run(request: HttpRequest, turn_id: int) -> HttpResponse:
    turn = _organizer_turn(request, turn_id)
    success = (
        f"The aftermath of turn {turn.number} is being resolved: your request is recorded, and if no worker "
        "takes it up at once the deadline sweep runs it within two minutes."
    )
    flash_outcome(request, lambda: aftermath_phase_request(turn=turn), success=success)
    return redirect("turn-battles", turn_id=turn.pk)


@login_required
def turn_status(request: HttpRequest, turn_id: int) -> JsonResponse:
    """Where the turn's long work stands, as JSON, for the pages' polling script."""
    turn = turn_get(user=request.user, turn_id=turn_id)
    return JsonResponse(turn_progress(turn, organizer=selectors.is_organizer(request.user, turn.campaign)))


@login_required
def campaign_detail(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    own = selectors.kingdom_of(user=request.user, campaign=campaign)
    organizer = selectors.is_organizer(request.user, campaign)
    picking = setup_next_kingdom(campaign)
    may_pick = picking is not None and (organizer or (own is not None and own.pk == picking.pk))
    context = {
        "campaign": campaign,
        "own": own,
        "organizer": organizer,
        "kingdoms": selectors.kingdoms_public(campaign=campaign),
        "map_svg": selectors.campaign_map_svg(campaign=campaign, viewer=own),
        "picking": picking,
        "may_pick": may_pick,
        "setup_rolls": DiceRoll.objects.filter(campaign=campaign, turn=0, stream="home-selection"),
        # The invite form goes once every player kingdom is invited; the roll button stays.
        "invite_form": InviteForm() if organizer and _inviting(campaign) else None,
        "army_lists": army_lists_standing(campaign) if organizer else [],
        "failed_emails": campaign_email_failures(campaign) if organizer else 0,
        # The user's private address of the campaign's deadlines, for a calendar to subscribe to.
        "calendar_url": request.build_absolute_uri(
            reverse("deadlines-feed", args=[calendar_key(campaign_id=campaign.pk, user_id=request.user.pk)])
        ),
    }
    if may_pick:
        context.update(setup_forms(campaign, picking))
    context.update(_turn_panel(campaign, own, organizer=organizer))
    context.update(_stories_panel(request, campaign, organizer=organizer, own=own))
    return render(request, "kingdoms/campaign_detail.html", context)


def _inviting(campaign: Campaign) -> bool:
    invited = campaign.kingdoms.exclude(army_type=ArmyType.ANCIENT_DEAD).count()
    return campaign.status == Campaign.Status.INVITING and invited < campaign.player_count


def _turn_panel(campaign: Campaign, own: Kingdom | None, *, organizer: bool) -> dict:
    """The current turn, its deadline and the player's sheet status."""
    turn = current_turn(campaign)
    if turn is None:
        return {}
    sheet = OrderSheet.objects.filter(turn=turn, kingdom=own).first() if own else None
    return {
        "turn": turn,
        "clock": turn_clock(turn),
        "own_sheet": sheet,
        "results_deadline": deadline_text(turn.results_deadline, campaign.time_zone),
        "past_turns": list(campaign.turns.filter(number__lt=turn.number).order_by("-number")),
        "league": league_table(campaign=campaign, turn=turn),
        "progress": turn_progress(turn, organizer=organizer),
    }


def _stories_panel(request: HttpRequest, campaign: Campaign, *, organizer: bool, own: Kingdom | None) -> dict:
    """Stories Are Nice: the newest public battle stories (rules decisions 360-361), shortened, each
    linking to where the stories page has it in full."""
    visible = battle_selectors.stories_visible(user=request.user, campaign=campaign)
    order = list(visible.values_list("id", flat=True))
    public = battle_selectors.stories_visible(user=request.user, campaign=campaign, public_only=True)
    return {
        "stories": stories_of(public[:STORIES_ON_CAMPAIGN_PAGE], organizer=organizer, own=own, order=order),
        "stories_total": len(order),
        "story_experience": STORY_EXPERIENCE,
    }


@login_required
@require_POST
def campaign_start(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = _organizer_campaign(request, campaign_id)
    flash_outcome(request, lambda: campaign_start_service(campaign=campaign), success="The campaign has begun: turn 1.")
    return redirect("campaign", campaign_id=campaign.pk)


def _organizer_campaign(request: HttpRequest, campaign_id: int) -> Campaign:
    """The campaign, to its organizer; to anyone else (its players included) it is not found."""
    campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    if not selectors.is_organizer(request.user, campaign):
        raise Http404("No such page.")
    return campaign


@login_required
def campaign_desk(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The game master's desk: every army where it stands (never shown to a player) and what is
    outstanding, each with its action."""
    campaign = _organizer_campaign(request, campaign_id)
    turn = current_turn(campaign)
    return render(
        request,
        "turns/desk.html",
        {
            "campaign": campaign,
            "turn": turn,
            "items": desk_items(campaign),
            "failed_emails": desk_failed_emails(campaign),
            "map_svg": selectors.campaign_map_svg(campaign=campaign, every_army=True),
            "armies": desk_armies(campaign),
        },
    )


@login_required
@require_POST
def phase_retry(request: HttpRequest, turn_id: int) -> HttpResponse:
    """The desk's Retry of a failed phase: it runs now (the task after this request commits)."""
    turn = _organizer_turn(request, turn_id)
    flash_outcome(
        request,
        lambda: phase_retry_request(turn=turn),
        success=f"Turn {turn.number}: the failed phase runs again now; this page shows how it went.",
    )
    return redirect("campaign-desk", campaign_id=turn.campaign_id)
