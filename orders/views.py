"""Order sheet pages: the player's form and receipt, the organizer's overview and deadlines."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from briternia.arrival import arrived_at
from briternia.errors import DomainError
from briternia.fields import IntegerField
from briternia.flash import flash_errors
from briternia.locks import phase_running_since
from kingdoms.models import Army, Character
from kingdoms.selectors import campaign_get, campaign_map_svg, is_organizer, kingdom_organized_get
from kingdoms.services.mail_addresses import orders_address_for
from kingdoms.services.spending import deliveries_of_kingdom
from rulebook.campaign_schedule import deadline_text, moment_text
from rulebook.ruins_and_tomb_raiders.tomb_raid import armies_waiting
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.missions import moves_into, rival_choices
from rulebook.turn.write_orders.problems import SheetCheck, SheetProblemCode
from rulebook.turn.write_orders.records import SheetEntries
from rulebook.turn.write_orders.targets import sheet_targets
from turns.models import Turn

from . import selectors
from .entries import sheet_from_json
from .forms import ARMY_FIELDS, CREATION_FIELDS, PROBLEM_SECTIONS, SECTIONS, OrderSheetForm, place_problems
from .independence_form import IndependenceForm
from .models import CampaignSchedule, OrderSheet
from .services.calendar import calendar_key_read, deadlines_calendar
from .services.emails import receipt_content
from .services.independence import independence_declare
from .services.progress import turn_progress
from .services.resolution import turn_preview
from .services.rogue import kingdom_rogue_declare, rogue_kingdom_give
from .services.sheet_text import order_sheet_text
from .services.sheets import (
    ORDERS_PHASE_NAME,
    lists_due_data,
    order_sheet_context_load,
    order_sheet_gold,
    order_sheet_problems_data,
    order_sheet_save,
    orders_open_errors,
    record_submissions,
    standing_submission,
)
from .services.turns import (
    campaign_pause,
    closed_text,
    current_turn,
    deadline_change,
    schedule_of,
    schedule_set,
    turn_clock,
)


def _deadline_context(turn) -> dict:
    tz = turn.campaign.time_zone
    return {
        "deadline": deadline_text(turn.orders_deadline, tz),
        "clock": turn_clock(turn),
        "results_deadline": deadline_text(turn.results_deadline, tz),
        "paused": schedule_of(turn.campaign).paused,
    }


def _armies_waiting_on_the_raid(entries: SheetEntries | None, ctx: SheetContext) -> list[str]:
    """The names of the kingdom's armies ordered into the ruin the sheet's Tomb Raid names (Ruins)."""
    if entries is None or not entries.missions or entries.missions[0].province is None:
        return []
    waiting = armies_waiting(entries.missions[0].province, moves_into(entries.orders, ctx.armies))
    return [ctx.armies[a].name for a in waiting]


@login_required
def order_sheet(request: HttpRequest, turn_id: int, kingdom_id: int | None = None) -> HttpResponse:
    """The kingdom's order sheet: save a draft, check it, or submit it."""
    turn = selectors.turn_get(user=request.user, turn_id=turn_id)
    kingdom = selectors.order_sheet_kingdom_get(user=request.user, turn=turn, kingdom_id=kingdom_id)
    sheet = OrderSheet.objects.filter(turn=turn, kingdom=kingdom).first()
    if turn.status != Turn.Status.ORDERS_OPEN:
        return _order_sheet_closed(request, turn=turn, kingdom=kingdom, sheet=sheet)
    initial = sheet_from_json(sheet.entries) if sheet else None
    errors: list[str] = []
    refused: list[dict] | None = None  # the service's structured refusals, when it gave them
    if request.method == "POST":
        # The fields parse any adjacent province, so the save needs no offered targets: the sheet's
        # context and its targets are worked out below, only for a page drawn again.
        form = OrderSheetForm(request.POST, kingdom=kingdom)
        action = request.POST.get("action", "draft")
        if not form.is_valid():
            errors = form.field_errors
        else:
            try:
                saved = order_sheet_save(
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
                if saved.record is not None:  # it met the running resolution: kept, not resolved
                    messages.warning(request, saved.record.receipt["record"])
                    return redirect("order-receipt", turn_id=turn.pk, kingdom_id=kingdom.pk)
                if action == "submit":
                    messages.success(request, "Your orders are submitted. A receipt is on its way by email.")
                    return redirect("order-receipt", turn_id=turn.pk, kingdom_id=kingdom.pk)
                if action == "check":
                    messages.info(request, "Checked and saved as a draft (not submitted).")
                else:
                    messages.success(request, "Draft saved (not submitted).")
                return redirect("order-sheet-kingdom", turn_id=turn.pk, kingdom_id=kingdom.pk)
    ctx = order_sheet_context_load(kingdom=kingdom, turn=turn)
    targets = sheet_targets(ctx)  # the drop-downs offer what the check accepts (rulebook.turn.write_orders.targets)
    if request.method == "POST":
        form = OrderSheetForm(
            request.POST,
            kingdom=kingdom,
            targets=targets,
            raiders_points_added=ctx.raiders_points_added,
            rivals=rival_choices(ctx.world, ctx.kingdom, ctx.rival_characters),
        )
        check = order_sheet_check(form.entries(), ctx) if form.is_valid() else None
    else:
        form = OrderSheetForm(
            kingdom=kingdom,
            initial=initial,
            targets=targets,
            raiders_points_added=ctx.raiders_points_added,
            rivals=rival_choices(ctx.world, ctx.kingdom, ctx.rival_characters),
        )
        check = order_sheet_check(initial, ctx) if initial else None
    waiting = _armies_waiting_on_the_raid(form.entries() if form.is_valid() else initial, ctx)
    submitted = standing_submission(sheet) if sheet else None
    all_errors = errors or (check.errors if check else [])
    if refused is None:  # nothing refused by the service: the check's errors, when they are the ones shown
        refused = order_sheet_problems_data(check.error_problems, check.names) if check and not errors else []
    # Each problem beside what mends it: a part of the sheet (purchases, transfers, the gold...), or
    # the field of an army's row found by the army's id (never by its name: "A1" is the beginning of
    # "A10"), or of a new army's row; named as in the list above, which keeps them all.
    # A problem of the sheet's other parts (a purchase, a transfer, a land deal, the capitol) stands in
    # the row of the entry it names (`part`, `entry`); one whose row the page does not show (an entry
    # sent by the API only) stands under its part.
    sections: dict[str, list[str]] = {name: [] for name in SECTIONS}
    entry_rows = form.entry_rows()
    by_row: dict[int, list[dict]] = {}
    in_rows = []
    for p in refused:
        rows = entry_rows.get(p.get("part") or "", ([], ()))[0]
        if p.get("entry") is not None and p["entry"] < len(rows):
            by_row.setdefault(id(rows[p["entry"]]), []).append(p)
        elif (section := PROBLEM_SECTIONS.get(SheetProblemCode(p["code"]))) is not None:
            sections[section].append(p["message"])
        else:
            in_rows.append(p)
    for row_form, fields in form.all_entry_rows():
        place_problems(row_form, by_row.get(id(row_form), []), fields)
    for army_form in form.armies:
        place_problems(army_form, [p for p in in_rows if army_form.army.id in p["armies"]], ARMY_FIELDS)
    rows = form.creation_rows()
    for creation_form in form.creations:
        entry = rows.index(creation_form) if creation_form in rows else None
        place_problems(
            creation_form, [p for p in in_rows if entry is not None and p.get("creation") == entry], CREATION_FIELDS
        )
    context = {
        "turn": turn,
        "campaign": turn.campaign,
        "kingdom": kingdom,
        "form": form,
        "sections": sections,
        "sheet": sheet,
        "errors": all_errors,
        # Whose errors they are: this post's sheet, refused (nothing saved), or the saved sheet's own
        # check (a draft is saved with its problems; it would be refused if it were submitted).
        "errors_refused": bool(errors),
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
        # The map beside the sheet, with the kingdom's own armies; the script draws the orders on it.
        "map_svg": campaign_map_svg(campaign=turn.campaign, viewer=kingdom),
        "targets": targets.as_data(),
        # Ruins: the armies whose entry waits on the sheet's Tomb Raid.
        "raid_waiting": " and ".join(waiting),
        "raid_waiting_verb": "waits" if len(waiting) == 1 else "wait",
        **_deadline_context(turn),
        # File by email (issue 36): the sheet as it stands, as text, for the kingdom's own players only.
        **(
            {
                "sheet_text": order_sheet_text(kingdom=kingdom, turn=turn, ctx=ctx),
                "orders_address": orders_address_for(request.user, turn.campaign),
            }
            if kingdom.players.filter(pk=request.user.pk).exists()
            else {}
        ),
    }
    return render(request, "orders/order_sheet.html", context, status=400 if errors else 200)


def _order_sheet_closed(request: HttpRequest, *, turn: Turn, kingdom, sheet: OrderSheet | None) -> HttpResponse:  # type: ignore[no-untyped-def]
    """A turn whose orders are closed: what was filed then (the standing submission's receipt, as
    written when it was accepted), read-only; no form, no countdown. A sheet posted to it is refused
    by the same words the service uses, and nothing changes."""
    errors = orders_open_errors(turn, arrived_at(request)) if request.method == "POST" else []
    submitted = standing_submission(sheet) if sheet else None
    receipt = (
        (submitted.receipt or receipt_content(submission=submitted, kingdom=kingdom, turn=turn)) if submitted else None
    )
    return render(
        request,
        "orders/order_sheet_closed.html",
        {
            "turn": turn,
            "campaign": turn.campaign,
            "kingdom": kingdom,
            "sheet": sheet,
            "submitted": submitted,
            "receipt": receipt,
            "records": record_submissions(sheet) if sheet else [],
            "errors": errors,
            "closed": closed_text(turn),
        },
        status=400 if errors else 200,
    )


def deadlines_feed(request: HttpRequest, key: str) -> HttpResponse:
    """The campaign's deadlines as iCalendar, for the player whose private key it is (a calendar
    application fetches it without logging in: orders/services/calendar.py). A key the site did
    not sign, or whose user no longer plays in or runs the campaign, is "not found"."""
    found = calendar_key_read(key)
    if found is None:
        raise Http404("No such calendar.")
    campaign_id, user_id = found
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise Http404("No such calendar.")
    campaign = campaign_get(user=user, campaign_id=campaign_id)
    response = HttpResponse(
        deadlines_calendar(campaign=campaign, turns=campaign.turns.order_by("number")),
        content_type="text/calendar; charset=utf-8",
    )
    response["Content-Disposition"] = 'inline; filename="deadlines.ics"'
    return response


@login_required
def order_receipt(request: HttpRequest, turn_id: int, kingdom_id: int) -> HttpResponse:
    """The receipt of the submission that stands, as it was written when it was accepted, and those
    of the submissions kept for the record (never resolved: rules decision 520)."""
    turn = selectors.turn_get(user=request.user, turn_id=turn_id)
    kingdom = selectors.order_sheet_kingdom_get(user=request.user, turn=turn, kingdom_id=kingdom_id)
    sheet = OrderSheet.objects.filter(turn=turn, kingdom=kingdom).first()
    submission = standing_submission(sheet) if sheet else None
    records = record_submissions(sheet) if sheet else []
    if sheet is None or (submission is None and not records):
        raise Http404("Nothing submitted yet.")
    # A submission accepted before receipts were kept: written now, from the orders as received.
    receipt = (
        (submission.receipt or receipt_content(submission=submission, kingdom=kingdom, turn=turn))
        if submission
        else None
    )
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
            "records": records,
            "draft_differs": submission is not None and sheet.entries != submission.entries,
            "closed": _receipt_closed_text(turn),
            **_deadline_context(turn),
        },
    )


def _receipt_closed_text(turn: Turn) -> str:
    """Why the receipt's orders can no longer change: the turn is closed, or its orders phase is
    running (seen without waiting, briternia/locks.py); empty while they may."""
    if turn.status != Turn.Status.ORDERS_OPEN:
        return closed_text(turn)
    since = phase_running_since(ORDERS_PHASE_NAME, turn.pk)
    if since is None:
        return ""
    return (
        f"Turn {turn.number} is being resolved (since {moment_text(since, turn.campaign.time_zone)}): "
        "its orders take no more sheets."
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
            # A Rogue Kingdom files no orders (Rogue Kingdom): never missing.
            "missing": [
                k
                for k, s in rows
                if not k.is_ancient_dead and not k.is_rogue and (s is None or s.status != "submitted")
            ],
            # Of how many kingdoms file orders: the hold's own count (orders_missing), a Rogue Kingdom never.
            "filing": sum(1 for k, _ in rows if not k.is_ancient_dead and not k.is_rogue),
            "changes": turn.deadline_changes.select_related("changed_by"),
            "progress": turn_progress(turn, organizer=True),
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
        field_classes = {"hold_when_missing": IntegerField}  # 0-9 only; bounded (and 100 by the model)
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

        def moved(new: dt.datetime, old: dt.datetime) -> dt.datetime | None:
            # The form shows a deadline to the minute: one set to the second (the API) and left as
            # shown has not moved (else a resolved turn's orders deadline would be "changed").
            return None if new == old.replace(second=0, microsecond=0) else new

        try:
            deadline_change(
                turn=turn,
                changed_by=request.user,
                orders_deadline=moved(aware["orders_deadline"], turn.orders_deadline),
                results_deadline=moved(aware["results_deadline"], turn.results_deadline),
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


@login_required
def independence_page(request: HttpRequest, kingdom_id: int) -> HttpResponse:
    """Joint kingdoms (organizer only): a co-player declares independence with the provinces,
    towns, cities and armies the kingdom gives."""
    kingdom = kingdom_organized_get(user=request.user, kingdom_id=kingdom_id)
    warlord_army = (
        Character.objects.filter(kingdom=kingdom, alive=True, role=Character.Role.WARLORD)
        .values_list("unit__army_id", flat=True)
        .first()
    )
    form = IndependenceForm(
        request.POST or None,
        kingdom=kingdom,
        players=list(kingdom.players.order_by("id")),
        provinces=list(kingdom.provinces.exclude(pk=kingdom.capitol_id).order_by("number")),
        armies=list(
            Army.objects.filter(kingdom=kingdom, kind=Army.Kind.FIELD, status=Army.Status.ACTIVE)
            .exclude(pk=warlord_army)
            .select_related("province")
            .order_by("id")
        ),
    )
    errors: list[str] = []
    if request.method == "POST":
        if not form.is_valid():
            errors = form.messages
        else:
            try:
                new = independence_declare(
                    kingdom=kingdom,
                    co_player=form.co_player_user,
                    name=form.cleaned_data["name"],
                    provinces=sorted(form.cleaned_data["provinces"]),
                    armies=sorted(form.cleaned_data["armies"]),
                )
            except DomainError as exc:
                errors = exc.messages
            else:
                messages.success(request, f"{new.name} declares independence from {kingdom.name}.")
                return redirect("kingdom", kingdom_id=new.pk)
    return render(
        request,
        "orders/independence.html",
        {
            "kingdom": kingdom,
            "campaign": kingdom.campaign,
            "form": form,
            "errors": errors,
        },
        status=400 if errors else 200,
    )


class RogueForm(forms.Form):
    why = forms.CharField(max_length=200, required=False, label="Why (told in the turn's log)")


class NewPlayerForm(forms.Form):
    email = forms.EmailField(label="The new player's email")


@login_required
def kingdom_leader_page(request: HttpRequest, kingdom_id: int) -> HttpResponse:
    """Organizer only (anyone else gets 404): who leads the kingdom. Mark its player out, and the
    kingdom becomes a Rogue Kingdom; give a Rogue Kingdom to a new or returning player (New Player
    Option), invited by email."""
    kingdom = kingdom_organized_get(user=request.user, kingdom_id=kingdom_id)
    rogue_form, player_form = RogueForm(), NewPlayerForm()
    refused = False  # a refusal is a 400, as on every other form
    if request.method == "POST":
        action = request.POST.get("action")
        form: forms.Form = RogueForm(request.POST) if action == "rogue" else NewPlayerForm(request.POST)
        if action == "rogue":
            rogue_form = form
        else:
            player_form = form
        if form.is_valid():
            try:
                if action == "rogue":
                    kingdom_rogue_declare(kingdom=kingdom, why=form.cleaned_data["why"])
                    messages.success(request, f"{kingdom.name} is a Rogue Kingdom.")
                else:
                    rogue_kingdom_give(kingdom=kingdom, email=form.cleaned_data["email"])
                    messages.success(request, f"{form.cleaned_data['email']} is invited to lead {kingdom.name}.")
            except DomainError as exc:
                flash_errors(request, exc)
                refused = True
            else:
                return redirect("kingdom-leader", kingdom_id=kingdom.pk)
        else:
            refused = True
    kingdom.refresh_from_db()
    return render(
        request,
        "orders/kingdom_leader.html",
        {
            "kingdom": kingdom,
            "campaign": kingdom.campaign,
            "players": list(kingdom.players.order_by("username")),
            "rogue_form": rogue_form,
            "player_form": player_form,
        },
        status=400 if refused else 200,
    )
