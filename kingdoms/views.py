"""Pages of the campaign world. Each view parses input, calls one service, renders."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetConfirmView
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from briternia.errors import DomainError
from briternia.fields import ascii_int
from briternia.flash import flash_errors
from rulebook.archetypes.character_record import character_record
from rulebook.tables import ARCHETYPE_ADVANCEMENT, Archetype

from . import selectors
from .forms import (
    AbilityChooseForm,
    AdjacentPickForm,
    CampaignCreateForm,
    DisplayNameForm,
    HomePickForm,
    InviteForm,
    ItemFormSet,
    SetPasswordWithNameForm,
    TombRaiderFormSet,
    UnitFormSet,
    formset_entries,
    item_initial,
    tomb_raider_initial,
    unit_initial,
)
from .models import Army, Campaign, Character, DraftedArmyList, Kingdom
from .people import display_name
from .services import armies as army_services
from .services import campaigns as campaign_services
from .services.co_players import co_player_add, co_player_remove
from .services.experience import experience_adjust
from .services.mail_addresses import mail_secret_replace, orders_address_for
from .services.spending import deliveries_on_the_way
from .services.tomb_raiders import tomb_raider_force_save


class PasswordSetView(PasswordResetConfirmView):
    """The invitation's link (and a password reset): set the password and the display name."""

    form_class = SetPasswordWithNameForm


@login_required
def account_name(request: HttpRequest) -> HttpResponse:
    """Choose the name the other players see."""
    form = DisplayNameForm(
        request.POST or None, user=request.user, initial={"display_name": display_name(request.user)}
    )
    if request.method == "POST" and form.is_valid():
        request.user.first_name = form.cleaned_data["display_name"]
        request.user.save(update_fields=["first_name"])
        messages.success(request, f"The other players now see you as {request.user.first_name}.")
        return redirect("account-name")
    return render(request, "kingdoms/account_name.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def account_orders_address(request: HttpRequest) -> HttpResponse:
    """The player's own orders address (its secret is theirs alone) and the button that replaces it."""
    if request.method == "POST":
        mail_secret_replace(user=request.user)
        messages.success(request, "Your orders address is replaced: mail sent to the old one is refused from now on.")
        return redirect("account-orders-address")
    campaigns = Campaign.objects.filter(kingdoms__players=request.user).distinct()
    return render(
        request,
        "kingdoms/account_orders_address.html",
        {"address": orders_address_for(request.user, None), "campaigns": campaigns},
    )


def home(request: HttpRequest) -> HttpResponse:
    campaigns = selectors.campaigns_visible(request.user)
    return render(request, "kingdoms/home.html", {"campaigns": campaigns})


@login_required
def campaign_create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        raise Http404("Only organizers create campaigns.")
    form = CampaignCreateForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = campaign_services.campaign_create(
                name=form.cleaned_data["name"],
                organizer=request.user,
                player_count=form.cleaned_data["player_count"],
                time_zone=form.cleaned_data["time_zone"],
                map_spec=form.cleaned_data["map_file"],
                special_characters=form.cleaned_data["special_characters"],
            )
        except DomainError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            messages.success(request, f"{campaign.name} is created. Invite its players.")
            return redirect("campaign", campaign_id=campaign.pk)
    return render(request, "kingdoms/campaign_create.html", {"form": form})


def setup_forms(campaign: Campaign, picking: Kingdom | None, data=None) -> dict:
    """The pick form for the kingdom whose turn it is, with only the legal choices offered."""
    if picking is None:
        return {}
    if campaign.status == Campaign.Status.HOMES:
        free = campaign.provinces.filter(capitol_site=True, controller__isnull=True)
        return {"home_form": HomePickForm(data, choices=[(p.number, str(p)) for p in free])}
    if campaign.status == Campaign.Status.PROVINCES and picking.capitol:
        options = picking.capitol.neighbours.filter(controller__isnull=True, capitol_site=False, pyramid=False).exclude(
            terrain="desert"
        )
        return {"adjacent_form": AdjacentPickForm(data, choices=[(p.number, f"{p} ({p.terrain})") for p in options])}
    return {}


@login_required
@require_POST
def campaign_invite(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    if not selectors.is_organizer(request.user, campaign):
        raise Http404
    form = InviteForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            for error in errors:
                messages.error(request, f"{field.replace('_', ' ')}: {error}")
        return redirect("campaign", campaign_id=campaign.pk)
    try:
        kingdom = campaign_services.player_invite(campaign=campaign, **form.cleaned_data)
    except DomainError as exc:
        flash_errors(request, exc)
    else:
        messages.success(request, f"{form.cleaned_data['email']} is invited to lead {kingdom.name}.")
    return redirect("campaign", campaign_id=campaign.pk)


@login_required
@require_POST
def campaign_roll_homes(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    if not selectors.is_organizer(request.user, campaign):
        raise Http404
    try:
        campaign_services.home_selection_start(campaign=campaign)
    except DomainError as exc:
        flash_errors(request, exc)
    else:
        messages.success(request, "The dice are rolled: home selection is open.")
    return redirect("campaign", campaign_id=campaign.pk)


@login_required
@require_POST
def campaign_pick(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """A setup pick, by the kingdom whose turn it is or by the organizer on its behalf."""
    campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    own = selectors.kingdom_of(user=request.user, campaign=campaign)
    picking = campaign_services.setup_next_kingdom(campaign)
    organizer = selectors.is_organizer(request.user, campaign)
    if picking is None or not (organizer or (own is not None and own.pk == picking.pk)):
        messages.error(request, "It is not your turn to pick.")
        return redirect("campaign", campaign_id=campaign.pk)
    forms_ = setup_forms(campaign, picking, request.POST)
    try:
        if "home_form" in forms_ and forms_["home_form"].is_valid():
            number = forms_["home_form"].cleaned_data["province"]
            campaign_services.home_pick(campaign=campaign, kingdom=picking, number=number)
            messages.success(request, f"{picking.name} makes province {number} its capitol.")
        elif "adjacent_form" in forms_ and forms_["adjacent_form"].is_valid():
            numbers = forms_["adjacent_form"].cleaned_data["provinces"]
            campaign_services.adjacent_pick(campaign=campaign, kingdom=picking, numbers=numbers)
            messages.success(request, f"{picking.name} takes provinces {', '.join(map(str, numbers))}.")
        else:
            for form in forms_.values():
                for errors in form.errors.values():
                    for error in errors:
                        messages.error(request, error)
            if not forms_:
                messages.error(request, "There is nothing to pick now.")
    except DomainError as exc:
        flash_errors(request, exc)
    return redirect("campaign", campaign_id=campaign.pk)


@login_required
def campaign_map_svg(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
    own = selectors.kingdom_of(user=request.user, campaign=campaign)
    svg = selectors.campaign_map_svg(campaign=campaign, viewer=own if request.GET.get("view") != "public" else None)
    return HttpResponse(svg, content_type="image/svg+xml")


@login_required
def kingdom_detail(request: HttpRequest, kingdom_id: int) -> HttpResponse:
    kingdom = selectors.kingdom_private_get(user=request.user, kingdom_id=kingdom_id)
    armies = list(selectors.armies_of(kingdom))
    characters = Character.objects.filter(kingdom=kingdom).select_related("unit__army").order_by("unit__army", "id")
    player_rows = [(p.pk, display_name(p)) for p in kingdom.players.order_by("id")]
    return render(
        request,
        "kingdoms/kingdom_detail.html",
        {
            "kingdom": kingdom,
            "campaign": kingdom.campaign,
            "ledger": selectors.ledger_with_balance(kingdom),
            "alliance": selectors.alliance_in_force(kingdom),
            "balance": kingdom.treasury_balance(),
            "armies": [(a, selectors.army_points(a)) for a in armies],
            "army_allowance": selectors.army_allowance(kingdom),
            "dice_rolls": selectors.dice_rolls_of(kingdom),
            "plays": kingdom.players.filter(pk=request.user.pk).exists(),
            "players": [name for _, name in player_rows],
            "player_rows": player_rows,
            "organizer": selectors.is_organizer(request.user, kingdom.campaign),
            "heirs": [c for c in characters if c.alive and c.role == Character.Role.GENERAL],
            # Treasure from the Ruins: the armies carrying a Healing Potion, for their injured characters
            "potion_armies": selectors.healing_potion_armies(kingdom),
            "tomb_raiders": None if kingdom.is_ancient_dead else selectors.tomb_raiders_view(kingdom),
            "characters": [
                (
                    c,
                    AbilityChooseForm(choices=_choosable(c)) if c.ability_choice_pending else None,
                )
                for c in characters
            ],
        },
    )


@login_required
@require_POST
def kingdom_co_player_add(request: HttpRequest, kingdom_id: int) -> HttpResponse:
    """Joint kingdoms: the organizer adds a co-player, invited by email."""
    kingdom = selectors.kingdom_organized_get(user=request.user, kingdom_id=kingdom_id)
    email = request.POST.get("email", "")
    try:
        co_player_add(kingdom=kingdom, email=email)
    except DomainError as exc:
        flash_errors(request, exc)
    else:
        messages.success(request, f"{email.strip()} is invited to share {kingdom.name} (a joint kingdom).")
    return redirect("kingdom", kingdom_id=kingdom.pk)


@login_required
@require_POST
def kingdom_co_player_remove(request: HttpRequest, kingdom_id: int, user_id: int) -> HttpResponse:
    """Joint kingdoms: the organizer removes a co-player (the button asks for confirmation first)."""
    kingdom = selectors.kingdom_organized_get(user=request.user, kingdom_id=kingdom_id)
    try:
        removed = co_player_remove(kingdom=kingdom, user_id=user_id)
    except DomainError as exc:
        flash_errors(request, exc)
    else:
        messages.success(request, f"{display_name(removed)} no longer plays {kingdom.name}; they are told by email.")
    return redirect("kingdom", kingdom_id=kingdom.pk)


def _choosable(character: Character) -> list[str]:
    return [a for a in ARCHETYPE_ADVANCEMENT[Archetype(character.archetype)] if a not in character.abilities]


@login_required
@require_POST
def character_choose_ability(request: HttpRequest, character_id: int) -> HttpResponse:
    character = selectors.character_private_get(user=request.user, character_id=character_id)
    form = AbilityChooseForm(request.POST, choices=_choosable(character) if character.archetype else [])
    if form.is_valid():
        try:
            army_services.ability_choose(character=character, ability=form.cleaned_data["ability"])
            messages.success(request, f"{character.unit.name} gains {form.cleaned_data['ability']}.")
        except DomainError as exc:
            flash_errors(request, exc)
    else:
        messages.error(request, "Choose one of the abilities offered.")
    return redirect("kingdom", kingdom_id=character.kingdom_id)


@login_required
def army_page(request: HttpRequest, army_id: int) -> HttpResponse:
    """One army: its list, its experience with the ledger (earned, spent, each row's turn and
    reason), painted or not; the organizer's forms to mark it painted and to correct its experience."""
    army = selectors.army_private_get(user=request.user, army_id=army_id)
    army = selectors.armies_of(army.kingdom).get(pk=army.pk)
    return render(
        request,
        "kingdoms/army_detail.html",
        {
            "army": army,
            "kingdom": army.kingdom,
            "campaign": army.kingdom.campaign,
            "points": selectors.army_points(army),
            "ledger": selectors.experience_ledger_of(army),
            "on_the_way": deliveries_on_the_way(army),
            "organizer": selectors.is_organizer(request.user, army.kingdom.campaign),
        },
    )


@login_required
@require_POST
def army_experience_adjust(request: HttpRequest, army_id: int) -> HttpResponse:
    """Organizer only (a player gets 404): correct an army's experience, with the reason."""
    army = selectors.army_private_get(user=request.user, army_id=army_id)
    campaign = army.kingdom.campaign
    if not selectors.is_organizer(request.user, campaign):
        raise Http404
    try:
        amount = ascii_int(request.POST.get("amount", ""))
    except ValueError:
        messages.error(request, f"{army.name}: the correction is a whole number of experience, + or -.")
        return redirect("army", army_id=army.pk)
    try:
        experience_adjust(army=army, turn=campaign.current_turn, amount=amount, reason=request.POST.get("reason", ""))
    except DomainError as exc:
        flash_errors(request, exc)
    else:
        messages.success(request, f"{army.name}: experience corrected by {amount:+}.")
    return redirect("army", army_id=army.pk)


def _list_formsets(army: Army, data: Any = None) -> tuple[forms.BaseFormSet, forms.BaseFormSet]:
    """The editor's rows: posted (or drafted) `data`, else the army's list as entered. A unit's
    choices are the ones its army type may take."""
    kwargs = {"army_type": army.kingdom.army_type_enum}
    if data is not None:
        return (
            UnitFormSet(data, prefix="units", form_kwargs=kwargs),
            ItemFormSet(data, prefix="items"),
        )
    unit_entries, item_entries = army_services.army_entries(army)
    return (
        UnitFormSet(initial=[unit_initial(u) for u in unit_entries], prefix="units", form_kwargs=kwargs),
        ItemFormSet(initial=[item_initial(i) for i in item_entries], prefix="items"),
    )


def _list_check(army: Army, units: forms.BaseFormSet, items: forms.BaseFormSet) -> dict[str, Any]:
    """The rows' running total and what is wrong with them, as the rules see it (the save checks
    the same): a row that does not parse is named by its number."""
    problems: list[str] = []
    entries: dict[str, list[Any]] = {"units": [], "items": []}
    if not units.is_bound:  # the list as entered
        entries["units"], entries["items"] = army_services.army_entries(army)
    for what, formset in (("Unit", units), ("Item", items)) if units.is_bound else ():
        if not formset.management_form.is_valid():
            return {"total": 0, "problems": ["The form is incomplete: reload the page."], "valid": False}
        for number, form in enumerate(formset.forms, start=1):
            if form["DELETE"].data:  # a row marked for removal is not part of the list, whatever it holds
                continue
            if not form.is_valid():
                for name, errors in form.errors.items():
                    label = form.fields[name].label if name in form.fields else name
                    problems += [f"{what} row {number}: {label or name}: {e}" for e in errors]
            elif form.cleaned_data:
                entries["units" if what == "Unit" else "items"].append(form.entry())
    total = sum(u.points for u in entries["units"]) + sum(i.points for i in entries["items"])
    if not problems:
        problems = army_services.army_list_check(army, entries["units"], entries["items"])
    return {"total": total, "problems": problems, "valid": not problems}


@login_required
def army_edit(request: HttpRequest, army_id: int) -> HttpResponse:
    """The army-list editor: save the list (entered only when the rules accept it), or keep the
    rows as a draft, valid or not, to go on with later (a draft never counts)."""
    army = selectors.army_private_get(user=request.user, army_id=army_id)
    units_errors: list[str] = []
    drafted = DraftedArmyList.objects.filter(army=army).first()
    if request.method == "POST":
        action = request.POST.get("action", "save")
        try:
            if action == "draft":
                army_services.army_list_draft_save(army=army, rows=request.POST.dict())
                messages.success(
                    request, f"Draft of {army.name}'s list kept. It does not count until you save the list."
                )
                return redirect("army-edit", army_id=army.pk)
            if action == "discard":
                army_services.army_list_draft_discard(army=army)
                messages.success(request, f"Draft discarded: the editor shows {army.name}'s list as entered.")
                return redirect("army-edit", army_id=army.pk)
        except DomainError as exc:
            flash_errors(request, exc)
            return redirect("army-edit", army_id=army.pk)
        units, items = _list_formsets(army, request.POST)
        if units.is_valid() and items.is_valid():
            try:
                army_services.army_list_save(
                    army=army,
                    units=formset_entries(units),
                    items=formset_entries(items),
                    correction=request.POST.get("correction", ""),
                    corrected_by=request.user,
                )
            except DomainError as exc:
                units_errors = exc.messages
            else:
                messages.success(request, f"The list of {army.name} is saved.")
                return redirect("kingdom", kingdom_id=army.kingdom_id)
        else:
            units_errors = ["Correct the rows marked below."]
    else:
        units, items = _list_formsets(army, drafted.rows if drafted else None)
    return render(
        request,
        "kingdoms/army_edit.html",
        {
            "army": army,
            "kingdom": army.kingdom,
            "campaign": army.kingdom.campaign,
            "units": units,
            "items": items,
            "errors": units_errors,
            "drafted": drafted if request.method == "GET" else None,
            "check": _list_check(army, units, items),
            "movements": army.movements.select_related("province"),
            "characters": [
                (c, character_record(c.injuries))
                for c in Character.objects.filter(unit__army=army).select_related("unit").order_by("-alive", "id")
            ],
            "locked": army_services.army_list_locked(army),
            # XP7: an entered list grows only by what is paid for; the organizer may correct it with a reason.
            "paid": army_services.army_list_paid(army),
            "organizer": request.user.pk == army.kingdom.campaign.organizer_id,
            "on_the_way": deliveries_on_the_way(army),
        },
        status=400 if units_errors else 200,
    )


@login_required
@require_POST
def army_list_check(request: HttpRequest, army_id: int) -> JsonResponse:
    """The editor's rows as posted, checked and totalled (nothing is saved): the page asks while
    the player writes, so the running total and what is wrong stay in view."""
    army = selectors.army_private_get(user=request.user, army_id=army_id)
    units, items = _list_formsets(army, request.POST)
    return JsonResponse(_list_check(army, units, items))


def _place_problems(formset: forms.BaseFormSet, problems: list[dict[str, Any]]) -> list[str]:
    """Each refusal beside the entries it names (by name, as the check names them); the ones that
    name no row (the force as a whole: its total, its missing Captain) are returned for the top."""
    rows: dict[str, list[forms.Form]] = {}
    for form in formset.forms:
        if not form.is_valid() or not form.cleaned_data or form.cleaned_data.get("DELETE"):
            continue
        name = (form.cleaned_data.get("name") or "").strip().lower()
        if name:
            rows.setdefault(name, []).append(form)
    whole: list[str] = []
    for problem in problems:
        placed = False
        for name in problem["entries"]:
            for form in rows.get(name.strip().lower(), []):
                if problem["message"] not in form.problems:
                    form.problems.append(problem["message"])
                placed = True
        if not placed:
            whole.append(problem["message"])
    return whole


@login_required
def tomb_raiders_edit(request: HttpRequest, kingdom_id: int) -> HttpResponse:
    """The kingdom's Tomb Raider force: add, change and remove entries; the list is saved only when
    the rules accept it whole, and each refusal is shown beside its entry (Tomb Raiders)."""
    kingdom = selectors.tomb_raiders_private_get(user=request.user, kingdom_id=kingdom_id)
    errors: list[str] = []
    total: int | None = None  # the rows' total as posted, when they parse
    if request.method == "POST":
        formset = TombRaiderFormSet(request.POST, prefix="entries")
        if formset.is_valid():
            entries = formset_entries(formset)
            total = sum(e.points for e in entries)
            try:
                tomb_raider_force_save(kingdom=kingdom, entries=entries, saved_by=request.user)
            except DomainError as exc:
                errors = _place_problems(formset, exc.problems) if exc.problems else exc.messages
                errors = errors or ["The rules refuse the list: see the entries marked below."]
            else:
                messages.success(request, f"The Tomb Raiders of {kingdom.name} are saved.")
                return redirect("kingdom-tomb-raiders", kingdom_id=kingdom.pk)
        else:
            errors = ["Correct the rows marked below."]
    view = selectors.tomb_raiders_view(kingdom)
    if request.method != "POST":
        formset = TombRaiderFormSet(initial=[tomb_raider_initial(e) for e in view.force.entries], prefix="entries")
        # A stored list the check refuses now (a promotion the points cannot pay, decision 404).
        stored = {e.name.strip().lower(): form for e, form in zip(view.force.entries, formset.forms, strict=False)}
        for problem in view.problems:
            forms_named = [stored[n.strip().lower()] for n in problem.entries if n.strip().lower() in stored]
            for form in forms_named:
                form.problems.append(problem.message)
            if not forms_named:
                errors.append(problem.message)
    return render(
        request,
        "kingdoms/tomb_raiders.html",
        {
            "kingdom": kingdom,
            "campaign": kingdom.campaign,
            "view": view,
            "formset": formset,
            "errors": errors,
            "total": view.points if total is None else total,
            # Where the mission is given: the current turn's order sheet (orders app; its page links by name).
            "order_turn": selectors.current_turn_of(kingdom.campaign),
        },
        status=400 if request.method == "POST" else 200,
    )
