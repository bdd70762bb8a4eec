"""Order sheet pages: the player's form and receipt, the organizer's overview and deadlines."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from briternia.arrival import arrived_at
from briternia.errors import DomainError
from briternia.flash import flash_errors
from kingdoms.selectors import campaign_get, is_organizer
from kingdoms.services.spending import deliveries_of_kingdom

from . import selectors
from .entries import entries_from_json
from .forms import OrderSheetForm
from .models import CampaignSchedule, OrderSheet
from .rules.schedule import deadline_text, time_left_text
from .rules.sheets import SheetCheck, order_sheet_check
from .services.emails import receipt_content
from .services.resolution import turn_preview
from .services.sheets import (
    lists_due_data,
    order_sheet_context_load,
    order_sheet_gold,
    order_sheet_problems_data,
    order_sheet_save,
    standing_submission,
)
from .services.turns import (
    campaign_pause,
    current_turn,
    deadline_change,
    schedule_of,
    schedule_set,
)


def _deadline_context(turn) -> dict:
    tz = turn.campaign.time_zone
    return {
        "deadline": deadline_text(turn.orders_deadline, tz),
        "time_left": time_left_text(turn.orders_deadline, timezone.now()),
        "results_deadline": deadline_text(turn.results_deadline, tz),
        "paused": schedule_of(turn.campaign).paused,
    }


@login_required
def order_sheet(request: HttpRequest, turn_id: int, kingdom_id: int | None = None) -> HttpResponse:
    """The kingdom's order sheet: save a draft, check it, or submit it."""
    turn = selectors.turn_get(user=request.user, turn_id=turn_id)
    kingdom = selectors.order_sheet_kingdom_get(user=request.user, turn=turn, kingdom_id=kingdom_id)
    sheet = OrderSheet.objects.filter(turn=turn, kingdom=kingdom).first()
    initial = entries_from_json(sheet.entries) if sheet else None
    errors: list[str] = []
    refused: list[dict] | None = None  # the service's structured refusals, when it gave them
    if request.method == "POST":
        form = OrderSheetForm(request.POST, kingdom=kingdom)
        action = request.POST.get("action", "draft")
        if not form.is_valid():
            errors = form.field_errors
        else:
            try:
                order_sheet_save(
                    kingdom=kingdom,
                    turn=turn,
                    entries=form.entries(),
                    submitted_by=request.user,
                    submit=action == "submit",
                    arrived_at=arrived_at(request),
                )
            except DomainError as exc:
                errors = exc.messages
                refused = exc.problems
            else:
                if action == "submit":
                    messages.success(request, "Your orders are submitted. A receipt is on its way by email.")
                    return redirect("order-receipt", turn_id=turn.pk, kingdom_id=kingdom.pk)
                if action == "check":
                    messages.info(request, "Checked and saved as a draft (not submitted).")
                else:
                    messages.success(request, "Draft saved (not submitted).")
                return redirect("order-sheet-kingdom", turn_id=turn.pk, kingdom_id=kingdom.pk)
        ctx = order_sheet_context_load(kingdom=kingdom, turn=turn)
        check = order_sheet_check(form.entries(), ctx) if form.is_valid() else None
    else:
        form = OrderSheetForm(kingdom=kingdom, initial=initial)
        ctx = order_sheet_context_load(kingdom=kingdom, turn=turn)
        check = order_sheet_check(initial, ctx) if initial else None
    submitted = standing_submission(sheet) if sheet else None
    all_errors = errors or (check.errors if check else [])
    if refused is None:  # nothing refused by the service: the check's errors, when they are the ones shown
        refused = order_sheet_problems_data(check.error_problems, check.names) if check and not errors else []
    for army_form in form.armies:
        # Each problem beside its army's row, found by the army's id (never by its name: "A1" is
        # the beginning of "A10"), named as in the list above.
        army_form.messages = army_form.field_messages + [
            p["message"] for p in refused if army_form.army.id in p["armies"]
        ]
    context = {
        "turn": turn,
        "campaign": turn.campaign,
        "kingdom": kingdom,
        "form": form,
        "sheet": sheet,
        "errors": all_errors,
        "warnings": check.warnings if check else [],
        "costs": check.costs if check else [],
        "gold": check.gold if check else 0,
        # Spending Experience: each army's experience beside what the sheet's purchases cost, and
        # what was bought earlier and is on the way.
        "experience": check.experience_rows()
        if check
        else SheetCheck(
            names={a.id: a.name for a in ctx.armies.values()},
            experience={a.id: a.experience for a in ctx.armies.values()},
        ).experience_rows(),
        "on_the_way": deliveries_of_kingdom(kingdom),
        **order_sheet_gold(ctx),
        "lists_due": [row["message"] for row in lists_due_data(ctx=ctx, turn=turn)],
        # Which version will resolve: the standing submission (its receipt as accepted), and whether
        # the form holds an unsent draft beside it.
        "submitted": submitted,
        "submitted_receipt": (submitted.receipt or receipt_content(submission=submitted, kingdom=kingdom, turn=turn))
        if submitted
        else None,
        "draft_differs": sheet is not None and submitted is not None and submitted.entries != sheet.entries,
        "organizer": is_organizer(request.user, turn.campaign),
        **_deadline_context(turn),
    }
    return render(request, "orders/order_sheet.html", context, status=400 if errors else 200)


@login_required
def order_receipt(request: HttpRequest, turn_id: int, kingdom_id: int) -> HttpResponse:
    """The receipt of the submission that stands, as it was written when it was accepted."""
    turn = selectors.turn_get(user=request.user, turn_id=turn_id)
    kingdom = selectors.order_sheet_kingdom_get(user=request.user, turn=turn, kingdom_id=kingdom_id)
    sheet = OrderSheet.objects.filter(turn=turn, kingdom=kingdom).first()
    submission = standing_submission(sheet) if sheet else None
    if sheet is None or submission is None:
        raise Http404("Nothing submitted yet.")
    # A submission accepted before receipts were kept: written now, from the orders as received.
    receipt = submission.receipt or receipt_content(submission=submission, kingdom=kingdom, turn=turn)
    return render(
        request,
        "orders/order_receipt.html",
        {
            "turn": turn,
            "campaign": turn.campaign,
            "kingdom": kingdom,
            "submission": submission,
            "receipt": receipt,
            "submissions": sheet.submissions.select_related("submitted_by").order_by("-submitted_at", "-id"),
            "draft_differs": sheet.entries != submission.entries,
            **_deadline_context(turn),
        },
    )


@login_required
def sheets_overview(request: HttpRequest, turn_id: int) -> HttpResponse:
    turn = selectors.turn_get(user=request.user, turn_id=turn_id)
    rows = selectors.order_sheets_overview(user=request.user, turn=turn)
    return render(
        request,
        "orders/sheets_overview.html",
        {
            "turn": turn,
            "campaign": turn.campaign,
            "rows": rows,
            "missing": [k for k, s in rows if not k.is_ancient_dead and (s is None or s.status != "submitted")],
            "filing": sum(1 for k, _ in rows if not k.is_ancient_dead),
            "changes": turn.deadline_changes.select_related("changed_by"),
            "schedule_form": ScheduleForm(instance=schedule_of(turn.campaign)),
            "deadline_form": DeadlineForm(
                initial={
                    "orders_deadline": timezone.localtime(turn.orders_deadline, _zone(turn)).strftime("%Y-%m-%dT%H:%M"),
                    "results_deadline": timezone.localtime(turn.results_deadline, _zone(turn)).strftime(
                        "%Y-%m-%dT%H:%M"
                    ),
                }
            ),
            **_deadline_context(turn),
        },
    )


def _zone(turn):
    from zoneinfo import ZoneInfo

    return ZoneInfo(turn.campaign.time_zone)


class ScheduleForm(forms.ModelForm):
    class Meta:
        model = CampaignSchedule
        fields = ["orders_weekday", "orders_time", "results_weekday", "results_time", "hold_when_missing"]
        widgets = {
            "orders_time": forms.TimeInput(attrs={"type": "time"}),
            "results_time": forms.TimeInput(attrs={"type": "time"}),
        }

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        # Left out (an older form, a script), the share set before stays.
        self.fields["hold_when_missing"].required = False


@login_required
@require_POST
def schedule_change(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The weekly schedule used for the deadlines of the turns opened from now on."""
    campaign = campaign_get(user=request.user, campaign_id=campaign_id)
    if not is_organizer(request.user, campaign):
        raise Http404
    form = ScheduleForm(request.POST)
    if form.is_valid():
        schedule_set(campaign=campaign, changed_by=request.user, **form.cleaned_data)
        messages.success(request, "Weekly schedule saved; it sets the deadlines of the next turns.")
    else:
        messages.error(
            request, "Give a weekday and a time for both deadlines, and a share of missing orders from 0 to 100."
        )
    turn = current_turn(campaign)
    return redirect("sheets-overview", turn_id=turn.pk) if turn else redirect("campaign", campaign_id=campaign.pk)


class DeadlineForm(forms.Form):
    orders_deadline = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    results_deadline = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    reason = forms.CharField(max_length=200, required=False)


@login_required
@require_POST
def deadlines_change(request: HttpRequest, turn_id: int) -> HttpResponse:
    turn = selectors.turn_get(user=request.user, turn_id=turn_id)
    if not is_organizer(request.user, turn.campaign):
        raise Http404
    form = DeadlineForm(request.POST)
    if form.is_valid():
        zone = _zone(turn)
        # The organizer types local times of the campaign's time zone.
        local = {k: form.cleaned_data[k].replace(tzinfo=None) for k in ("orders_deadline", "results_deadline")}
        aware = {k: dt.datetime.combine(v.date(), v.time(), tzinfo=zone) for k, v in local.items()}
        try:
            deadline_change(
                turn=turn,
                changed_by=request.user,
                orders_deadline=aware["orders_deadline"] if aware["orders_deadline"] != turn.orders_deadline else None,
                results_deadline=aware["results_deadline"]
                if aware["results_deadline"] != turn.results_deadline
                else None,
                reason=form.cleaned_data["reason"],
            )
        except DomainError as exc:
            flash_errors(request, exc)
        else:
            messages.success(request, "Deadlines saved; the players are told by email.")
    else:
        messages.error(request, "Give both deadlines as date and time.")
    return redirect("sheets-overview", turn_id=turn.pk)


@login_required
@require_POST
def campaign_pause_toggle(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = campaign_get(user=request.user, campaign_id=campaign_id)
    if not is_organizer(request.user, campaign):
        raise Http404
    paused = request.POST.get("paused") == "1"
    try:
        campaign_pause(campaign=campaign, paused=paused, changed_by=request.user, reason=request.POST.get("reason", ""))
    except DomainError as exc:
        flash_errors(request, exc)
    else:
        messages.success(request, "The campaign is paused." if paused else "The campaign is running again.")
    turn = current_turn(campaign)
    return redirect("sheets-overview", turn_id=turn.pk) if turn else redirect("campaign", campaign_id=campaign.pk)


@login_required
def turn_preview_page(request: HttpRequest, turn_id: int) -> HttpResponse:
    """A dry run for the organizer: the events resolving now would produce; nothing is written."""
    turn = selectors.turn_get(user=request.user, turn_id=turn_id)
    if not is_organizer(request.user, turn.campaign):
        raise Http404
    if turn.status != turn.Status.ORDERS_OPEN:
        messages.error(request, "Only an open turn can be previewed.")
        return redirect("turn-results", turn_id=turn.pk)
    resolution = turn_preview(turn=turn)
    kingdoms = {k.id: k.name for k in turn.campaign.kingdoms.all()}
    return render(
        request,
        "orders/turn_preview.html",
        {
            "turn": turn,
            "campaign": turn.campaign,
            "events": resolution.events,
            "battles": resolution.battles,
            "kingdoms": kingdoms,
            "provinces": {p.number: p for p in turn.campaign.provinces.all()},
        },
    )
