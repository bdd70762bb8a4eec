"""Pages of the battles: the turn's battles, each battle's scenario sheet (page and PDF), the turn
summary sheet form, the organizer's ruling and aftermath, and the stand-alone scenario generator."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from briternia.errors import DomainError
from briternia.fields import ascii_int, is_ascii_digits
from briternia.flash import flash_errors
from kernel.dice import SeededDice, new_seed
from kingdoms.models import Campaign, Kingdom
from kingdoms.selectors import alliance_in_force, army_private_get, campaign_get, is_organizer, kingdom_of
from kingdoms.services.mail_addresses import orders_address_for
from orders.selectors import turn_get
from orders.services.progress import turn_progress
from orders.services.turns import turn_clock
from rulebook.campaign_schedule import deadline_text
from rulebook.scenario.generator import ScenarioSetup, ScenarioSide, scenario_generate
from rulebook.scenario.sheet import scenario_lines
from rulebook.setup.maps import TERRAINS
from rulebook.turn.aftermath.experience import STORY_EXPERIENCE
from turns.models import Turn

from . import selectors
from .models import RAID_RESULT_CHOICES, RESULT_CHOICES, Battle, TurnSummarySheet
from .services.announcements import alliance_end_announce, alliance_end_announced, alliance_end_withdraw
from .services.healing import healing_potion_use
from .services.opponents import MESSAGE_LIMIT, MESSAGE_MAX, battle_message_send, opponents_of
from .services.retirement import character_retire, retirement_preview, warlord_heirs
from .services.rewards import army_painted_set, story_bonus_award, story_bonus_given
from .services.scenarios import deployment_figure, scenario_sheet_context, scenario_sheet_pdf
from .services.stories import STORIES_PER_PAGE, Story, stories_of
from .services.summaries import (
    REROLL_LABELS,
    SHEET_ROWS_MAX,
    battle_rule,
    battle_standing_text,
    players_standing_text,
    side_name,
    stand_ins_text,
    summary_sheet_filed,
    summary_sheet_form,
    summary_sheet_save,
    summary_sheet_values,
)
from .services.summary_text import summary_sheet_text

SETTLEMENT_CHOICES = ("none", "town", "city", "capitol", "ruins")


def _deadline_passed(turn) -> bool:  # type: ignore[no-untyped-def]
    return timezone.now() > turn.results_deadline


@login_required
def turn_battles_page(request: HttpRequest, turn_id: int) -> HttpResponse:
    """The turn's battles with the state of their sheets; for the organizer, the conflicts and the
    button that runs the aftermath."""
    turn = turn_get(user=request.user, turn_id=turn_id)
    battles = selectors.turn_battles(user=request.user, turn=turn)
    organizer = is_organizer(request.user, turn.campaign)
    own = kingdom_of(user=request.user, campaign=turn.campaign)
    passed = _deadline_passed(turn)
    names = dict(turn.campaign.kingdoms.values_list("id", "name"))
    rows = []
    for b in battles:
        sheets = {s.kingdom_id: s for s in b.summary_sheets.all()}
        row: dict[str, Any] = {
            "battle": b,
            "attacker": side_name(b, "attacker"),
            "defender": side_name(b, "defender"),
            "own_sheet": sheets.get(own.pk) if own else None,
            "own_files": own is not None and own.pk in b.filing_kingdom_ids(),
        }
        if organizer:
            row["standing_text"] = battle_standing_text(b, deadline_passed=passed)
        else:  # their sheets' disagreement, or the ruling (rules decision 320)
            row["players_standing"] = players_standing_text(b, deadline_passed=passed)
            row["sheets"] = [(names[k], sheets.get(k)) for k in b.filing_kingdom_ids()]
        rows.append(row)
    return render(
        request,
        "battles/turn_battles.html",
        {
            "turn": turn,
            "campaign": turn.campaign,
            "rows": rows,
            "organizer": organizer,
            "own": own,
            "deadline_passed": passed,
            "results_deadline": deadline_text(turn.results_deadline, turn.campaign.time_zone),
            "clock": turn_clock(turn),
            "progress": turn_progress(turn, organizer=organizer),
            "alliance_end": _alliance_end_panel(own, turn),
        },
    )


def _alliance_end_panel(own: Kingdom | None, turn: Turn) -> dict[str, Any] | None:
    """Allies, Announcement: the player's kingdom's alliance and whether it announced its end this
    End of Turn (None: no kingdom, or no ally)."""
    alliance = alliance_in_force(own) if own is not None and not own.is_ancient_dead else None
    if own is None or alliance is None:
        return None
    return {
        "ally": alliance.other(own),
        "announced": alliance_end_announced(kingdom=own, turn=turn) is not None,
        "open": turn.status == Turn.Status.BATTLES and not _deadline_passed(turn),
    }


@login_required
@require_POST
def turn_alliance_end(request: HttpRequest, turn_id: int) -> HttpResponse:
    """Allies, Announcement: the player announces (or withdraws) the end of its kingdom's alliance
    during the End of Turn, with or without a battle (decision 385)."""
    turn = turn_get(user=request.user, turn_id=turn_id)
    kingdom = selectors.end_of_turn_kingdom_get(user=request.user, turn=turn)
    try:
        if request.POST.get("action") == "withdraw":
            alliance_end_withdraw(kingdom=kingdom, turn=turn)
            messages.success(request, "Your announcement is withdrawn: the alliance holds.")
        else:
            ally = request.POST.get("ally", "")
            alliance_end_announce(
                kingdom=kingdom,
                turn=turn,
                ally_id=int(ally) if is_ascii_digits(ally) else None,
                entered_by=request.user,
            )
            messages.success(
                request,
                "The end of your alliance is announced: the rules for allies cease next turn; everyone reads it in "
                "this turn's results.",
            )
    except DomainError as exc:
        flash_errors(request, exc)
    return redirect("turn-battles", turn_id=turn.pk)


@login_required
def battle_page(request: HttpRequest, battle_id: int) -> HttpResponse:
    battle = selectors.battle_get(user=request.user, battle_id=battle_id)
    organizer = is_organizer(request.user, battle.turn.campaign)
    own = kingdom_of(user=request.user, campaign=battle.turn.campaign)
    passed = _deadline_passed(battle.turn)
    # A Reconnaissance or Sabotage: what the spy desires is the spy's (and the organizer's) alone (decision 463).
    reveal = organizer or (own is not None and own.pk == battle.attacker_kingdom_id)
    context = scenario_sheet_context(battle, reveal_mission=reveal)
    context.update(
        {
            "organizer": organizer,
            # The other side, by name, and a way to write to them (issue 18).
            "opponents": opponents_of(battle, own) if own is not None else [],
            "message_max": MESSAGE_MAX,
            "message_limit": MESSAGE_LIMIT,
            # Their two sheets disagree, or the organizer's ruling (rules decision 320).
            "players_standing": players_standing_text(battle, deadline_passed=passed),
            "sheets": selectors.summary_sheets_visible(user=request.user, battle=battle),
            "attacker_name": side_name(battle, "attacker"),
            "defender_name": side_name(battle, "defender"),
            "results": RESULT_CHOICES,
            "own": own,
            "filing": battle.filing_kingdom_ids(),
            # The Campaign Must Go On: who played the battle for an absent player (decision 223).
            "stand_ins": stand_ins_text(battle),
            # Stories Are Nice: the battle's stories, once the turn is reported (decisions 360-361).
            "stories": _battle_stories(request, battle, organizer=organizer, own=own),
            # Where the players book their game, the deadline of its sheets counts down (issue 18, point 5).
            "clock": turn_clock(battle.turn),
        }
    )
    if organizer:
        context["standing_text"] = battle_standing_text(battle, deadline_passed=passed)
        names = dict(battle.turn.campaign.kingdoms.values_list("id", "name"))
        context["filing_names"] = [(k, names[k]) for k in battle.filing_kingdom_ids()]
    return render(request, "battles/battle.html", context)


def _battle_stories(request: HttpRequest, battle: Battle, *, organizer: bool, own: Kingdom | None) -> list[Story]:
    sheets = selectors.battle_stories(user=request.user, battle=battle)
    if not sheets:
        return []
    campaign = battle.turn.campaign
    order = list(selectors.stories_visible(user=request.user, campaign=campaign).values_list("id", flat=True))
    return stories_of(sheets, organizer=organizer, own=own, order=order)


@login_required
def campaign_stories_page(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Every battle story of the campaign the user may read, newest first, in full, a page at a time
    (Stories Are Nice; each story has its anchor, which the campaign page links to)."""
    campaign = campaign_get(user=request.user, campaign_id=campaign_id)
    organizer = is_organizer(request.user, campaign)
    own = kingdom_of(user=request.user, campaign=campaign)
    visible = selectors.stories_visible(user=request.user, campaign=campaign)
    page = Paginator(visible, STORIES_PER_PAGE).get_page(request.GET.get("page"))
    order = list(visible.values_list("id", flat=True))
    return render(
        request,
        "battles/campaign_stories.html",
        {
            "campaign": campaign,
            "page": page,
            "stories": stories_of(page.object_list, organizer=organizer, own=own, order=order),
            "organizer": organizer,
            "own": own,
            "story_experience": STORY_EXPERIENCE,
            "writing_turn": _writing_turn(campaign, own),
        },
    )


def _writing_turn(campaign: Campaign, own: Kingdom | None) -> Turn | None:
    """The turn whose turn summary sheets the player may write a story on now, if any."""
    if own is None:
        return None
    return campaign.turns.filter(status=Turn.Status.BATTLES).order_by("-number").first()


@login_required
@require_POST
def battle_message(request: HttpRequest, battle_id: int) -> HttpResponse:
    """A player of the battle writes to the other side's players; the site emails it."""
    battle = selectors.battle_get(user=request.user, battle_id=battle_id)
    own = kingdom_of(user=request.user, campaign=battle.turn.campaign)
    try:
        count = battle_message_send(
            battle=battle, sender=request.user, kingdom=own, text=request.POST.get("message", "")
        )
    except DomainError as exc:
        flash_errors(request, exc)
    else:
        messages.success(request, f"Your message is on its way to {count} player{'s' if count != 1 else ''}.")
    return redirect("battle", battle_id=battle.pk)


@login_required
def battle_scenario_pdf(request: HttpRequest, battle_id: int) -> HttpResponse:
    battle = selectors.battle_get(user=request.user, battle_id=battle_id)
    if not battle.scenario:
        raise Http404("This battle has no scenario yet.")
    response = HttpResponse(scenario_sheet_pdf(battle), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="scenario-turn{battle.turn.number}-battle{battle.pk}.pdf"'
    return response


def _sheet_data(post: Any, form: Any) -> dict[str, Any]:
    """The sheet form's fields as the service's data (the same shape the API takes)."""
    return {
        "result": post.get("result", ""),
        "withdrew": post.get("withdrew"),
        "opponent_withdrew": post.get("opponent_withdrew"),
        "casualties": [
            {
                "unit": u.id,
                "models_lost": post.get(f"lost-{u.id}", ""),
                "champion": post.get(f"champion-{u.id}"),
                "standard": post.get(f"standard-{u.id}"),
                "musician": post.get(f"musician-{u.id}"),
                "one_use_used": post.get(f"oneuse-{u.id}"),
            }
            for u in form.units
        ],
        "characters_lost": [c.id for c in form.characters if post.get(f"character-{c.id}")],
        "loot_choice": post.get("loot_choice", ""),
        "negotiation_gold": post.get("negotiation_gold", ""),
        "negotiation_note": post.get("negotiation_note", ""),
        "story": post.get("story", ""),
        "story_bonus": post.get("story_bonus"),
        "story_army": post.get("story_army", ""),
        "story_private": post.get("story_private"),
        "injury_rerolls": {str(c.id): post.get(f"reroll-{c.id}", "") for c in form.characters},
        "backstab": post.get("backstab"),
        "warlord_heir": post.get("warlord_heir", ""),
        "support_withdrawn": [a for a in form.allied_detachments if post.get(f"withdrawn-{a}")],
        # Allies, Announcement: the box is on the page only when the kingdom has an ally
        "announce_alliance_end": bool(post.get("announce_alliance_end")) if form.ally else None,
        # Supply Depot: for each enemy army with carts, how many were captured and by which army.
        "depots_captured": [
            {"army": army, "by": post.get(f"captured-by-{army}", "")}
            for army in form.enemy_carts
            for _ in range(_cart_count(post.get(f"captured-{army}")))
        ],
        "carts_recaptured": [a for a in form.own_carts if post.get(f"recaptured-{a}")],
        "played_by_player": post.get("played_by_player", ""),
        "played_by_guest": post.get("played_by_guest", ""),
        # Tomb Raiders: the raid's result, and each entry's models killed and injured in the skirmish.
        "raid_result": post.get("raid_result", ""),
        "raiders": [
            {
                "entry": e.name,
                "killed": post.get(f"raider-killed-{e.id}", ""),
                "injured": post.get(f"raider-injured-{e.id}", ""),
            }
            for e in form.raiders
        ],
    }


def _cart_count(raw: Any) -> int:
    """The number of carts the form says were captured (the sheet refuses more than were there)."""
    try:
        return max(0, min(ascii_int(raw or 0), SHEET_ROWS_MAX))
    except (TypeError, ValueError):
        return 0


@login_required
def summary_sheet_page(request: HttpRequest, battle_id: int, kingdom_id: int | None = None) -> HttpResponse:
    """A kingdom's Turn Summary Sheet for one battle; the organizer may enter or correct any."""
    battle = selectors.battle_get(user=request.user, battle_id=battle_id)
    kingdom = selectors.summary_sheet_kingdom_get(user=request.user, battle=battle, kingdom_id=kingdom_id)
    organizer = is_organizer(request.user, battle.turn.campaign)
    by_organizer = organizer and kingdom_of(user=request.user, campaign=battle.turn.campaign) != kingdom
    sheet = TurnSummarySheet.objects.filter(battle=battle, kingdom=kingdom).first()
    if battle.turn.status != Turn.Status.BATTLES:
        return _summary_sheet_closed(request, battle=battle, kingdom=kingdom, sheet=sheet)
    form = summary_sheet_form(battle=battle, kingdom=kingdom)
    errors: list[str] = []
    values: dict[str, Any] = {}
    if request.method == "POST":
        values = _sheet_data(request.POST, form)
        try:
            summary_sheet_save(
                battle=battle,
                kingdom=kingdom,
                data=values,
                entered_by=request.user,
                submit=request.POST.get("action") != "draft",
                by_organizer=by_organizer,
            )
        except DomainError as exc:
            errors = exc.messages
        else:
            messages.success(request, f"The turn summary sheet of {kingdom.name} for {battle.province} is saved.")
            return redirect("battle", battle_id=battle.pk)
    elif sheet is not None:
        values = summary_sheet_values(sheet)
    if request.method != "POST":
        values["announce_alliance_end"] = form.alliance_end_announced
    by_unit = {int(c["unit"]): c for c in values.get("casualties", []) if is_ascii_digits(c.get("unit"))}
    unit_rows = [(u, by_unit.get(u.id, {}), form.detachments.get(u.army_id)) for u in form.units]
    lost_characters = {int(c) for c in values.get("characters_lost", []) if is_ascii_digits(c)}
    rerolls = values.get("injury_rerolls") or {}
    character_rows = [(c, rerolls.get(str(c.id), "")) for c in form.characters]
    heir = str(values.get("warlord_heir") or "")
    withdrawn = {int(a) for a in values.get("support_withdrawn") or [] if is_ascii_digits(a)}
    detachment_rows = [(army, label, army in withdrawn) for army, label in form.allied_detachments.items()]
    captured = [c for c in values.get("depots_captured") or [] if isinstance(c, dict)]
    cart_rows = [
        (
            army,
            label,
            carts,
            sum(1 for c in captured if str(c.get("army")) == str(army)),
            next((str(c.get("by")) for c in captured if str(c.get("army")) == str(army)), ""),
        )
        for army, (label, carts) in form.enemy_carts.items()
    ]
    recaptured = {str(a) for a in values.get("carts_recaptured") or []}
    recapture_rows = [(army, name, str(army) in recaptured) for army, name in form.own_carts.items()]
    lost_raiders = {
        str(r.get("entry", "")).strip().lower(): r for r in values.get("raiders") or [] if isinstance(r, dict)
    }
    raider_rows = [(e, lost_raiders.get(e.name.strip().lower(), {})) for e in form.raiders]
    return render(
        request,
        "battles/summary_sheet.html",
        {
            "battle": battle,
            "turn": battle.turn,
            "campaign": battle.turn.campaign,
            "kingdom": kingdom,
            "form": form,
            "sheet": sheet,
            "values": values,
            "unit_rows": unit_rows,
            "lost_characters": lost_characters,
            "character_rows": character_rows,
            "reroll_labels": REROLL_LABELS,
            "heir": heir,
            "detachment_rows": detachment_rows,
            "cart_rows": cart_rows,
            "recapture_rows": recapture_rows,
            "raider_rows": raider_rows,
            "raid_results": RAID_RESULT_CHOICES,
            "played_by_player": str(values.get("played_by_player") or ""),
            "errors": errors,
            "story_bonus_open": _story_bonus_open(organizer, sheet),
            "results": RESULT_CHOICES,
            "by_organizer": by_organizer,
            "results_deadline": deadline_text(battle.turn.results_deadline, battle.turn.campaign.time_zone),
            "clock": turn_clock(battle.turn),
            # File by email (issue 36): the sheet as text, for the kingdom's own players only.
            **(
                {
                    "sheet_text": summary_sheet_text(battle=battle, kingdom=kingdom),
                    "orders_address": orders_address_for(request.user, battle.turn.campaign),
                }
                if kingdom.players.filter(pk=request.user.pk).exists()
                else {}
            ),
        },
        status=400 if errors else 200,
    )


def _story_bonus_open(organizer: bool, sheet: TurnSummarySheet | None) -> bool:
    """Stories Are Nice: the organizer's extra, offered once per kingdom and turn, for a sheet with
    a story (the extra is given after the aftermath, on the sheet's closed page too)."""
    return organizer and sheet is not None and bool(sheet.story.strip()) and not story_bonus_given(sheet)


def _summary_sheet_closed(request: HttpRequest, *, battle, kingdom, sheet: TurnSummarySheet | None) -> HttpResponse:  # type: ignore[no-untyped-def]
    """After the aftermath: the sheet as it was filed, read-only. A sheet posted now is refused and
    nothing changes (8. End of Turn: the aftermath has read the sheets)."""
    turn = battle.turn
    errors = (
        [f"Turn {turn.number} is {turn.get_status_display().lower()}: sheets can no longer change."]
        if request.method == "POST"
        else []
    )
    return render(
        request,
        "battles/summary_sheet_closed.html",
        {
            "story_bonus_open": _story_bonus_open(is_organizer(request.user, turn.campaign), sheet),
            "battle": battle,
            "turn": turn,
            "campaign": turn.campaign,
            "kingdom": kingdom,
            "sheet": sheet,
            "filed": summary_sheet_filed(sheet) if sheet else None,
            "errors": errors,
        },
        status=400 if errors else 200,
    )


@login_required
@require_POST
def battle_ruling(request: HttpRequest, battle_id: int) -> HttpResponse:
    battle = selectors.battle_get(user=request.user, battle_id=battle_id)
    if not is_organizer(request.user, battle.turn.campaign):
        raise Http404
    try:
        battle_rule(
            battle=battle,
            result=request.POST.get("result", ""),
            attacker_withdrew=bool(request.POST.get("attacker_withdrew")),
            defender_withdrew=bool(request.POST.get("defender_withdrew")),
            note=request.POST.get("note", ""),
            ruled_by=request.user,
        )
    except DomainError as exc:
        flash_errors(request, exc)
    else:
        messages.success(request, f"The result of the battle in {battle.province} is decided.")
    return redirect("battle", battle_id=battle.pk)


@login_required
@require_POST
def story_bonus_page(request: HttpRequest, battle_id: int, kingdom_id: int) -> HttpResponse:
    """Organizer only (404 for anyone else): 1 or 2 more experience for a good story (Stories Are Nice)."""
    battle = selectors.battle_get(user=request.user, battle_id=battle_id)
    if not is_organizer(request.user, battle.turn.campaign):
        raise Http404
    sheet = TurnSummarySheet.objects.filter(battle=battle, kingdom_id=kingdom_id).select_related("kingdom").first()
    if sheet is None:
        raise Http404
    raw = request.POST.get("experience", "")
    try:
        event = story_bonus_award(sheet=sheet, amount=int(raw) if is_ascii_digits(raw.strip()) else 0)
    except DomainError as exc:
        flash_errors(request, exc)
    else:
        messages.success(request, event.text)
    return redirect("summary-sheet-kingdom", battle_id=battle.pk, kingdom_id=kingdom_id)


@login_required
@require_POST
def army_painted_page(request: HttpRequest, army_id: int) -> HttpResponse:
    """Organizer only (a player gets 404): mark an army painted or not (Painting Counts)."""
    army = army_private_get(user=request.user, army_id=army_id)
    if not is_organizer(request.user, army.kingdom.campaign):
        raise Http404
    painted = request.POST.get("painted") in ("1", "on", "true")
    try:
        army_painted_set(army=army, painted=painted)
    except DomainError as exc:
        flash_errors(request, exc)
    else:
        messages.success(request, f"{army.name} is {'marked' if painted else 'no longer marked'} a painted army.")
    return redirect("army", army_id=army.pk)


def scenario_generator_page(request: HttpRequest) -> HttpResponse:
    """A stand-alone scenario for any province, for players who just want one (no campaign)."""
    terrain = request.GET.get("terrain", "")
    settlement = request.GET.get("settlement", "none")
    context: dict[str, Any] = {"terrains": TERRAINS, "settlements": SETTLEMENT_CHOICES, "values": request.GET}
    if terrain:
        errors = []
        if terrain not in TERRAINS:
            errors.append(f"Terrain: choose one of {', '.join(TERRAINS)}.")
        if settlement not in SETTLEMENT_CHOICES:
            errors.append(f"Settlement: choose one of {', '.join(SETTLEMENT_CHOICES)}.")
        seed = request.GET.get("seed") or new_seed()
        if len(seed) > 32:
            errors.append("Seed: at most 32 characters.")
        if errors:
            context["errors"] = errors
            return render(request, "battles/scenario_generator.html", context, status=400)
        setup = ScenarioSetup(
            terrain=terrain,
            settlement=settlement,
            attacker=ScenarioSide(name="Attacker", supported=bool(request.GET.get("attacker_supported"))),
            defender=ScenarioSide(
                name="Defender",
                supported=bool(request.GET.get("defender_supported")),
                fortified=bool(request.GET.get("fortified")),
            ),
            defending=not request.GET.get("both_moved"),
            # A Tomb Raider match (a Raid, Recon or Sabotage, or a skirmish): Tomb Raider Scenario & Terrain.
            skirmish=bool(request.GET.get("tomb_raiders")),
        )
        scenario = scenario_generate(setup, SeededDice(seed=seed, stream="scenario"))
        context.update(
            {
                "scenario": scenario,
                "sections": scenario_lines(scenario),
                "seed": seed,
                "deployment": deployment_figure(scenario),
            }
        )
    return render(request, "battles/scenario_generator.html", context)


@login_required
@require_POST
def character_retire_page(request: HttpRequest, character_id: int) -> HttpResponse:
    """Retire a character from the kingdom's page: keep his items for twice their points in gold."""
    character = selectors.own_character_get(user=request.user, character_id=character_id)
    heir = request.POST.get("warlord_heir", "")
    if request.POST.get("confirmed") != "yes":
        # A retirement cannot be taken back: the kingdom page's button only asks (issue 37).
        return _character_retire_confirm(request, character, heir)
    try:
        done = character_retire(
            character=character,
            keep_items=bool(request.POST.get("keep_items")),
            heir_choice=int(heir) if is_ascii_digits(heir) else None,
        )
    except DomainError as exc:
        flash_errors(request, exc)
    else:
        kept = f"; {', '.join(done.items_kept)} kept for {done.gold:,} gold" if done.items_kept else ""
        after = f"; {done.heir.unit.name} is the Warlord" if done.heir else ""
        messages.success(request, f"{character.unit.name} retires{kept}{after}.")
    return redirect("kingdom", kingdom_id=character.kingdom_id)


def _character_retire_confirm(request: HttpRequest, character: Any, heir: str) -> HttpResponse:
    preview = retirement_preview(character)
    heir_name = ""
    if preview.is_warlord and is_ascii_digits(heir):
        heir_name = next((g.unit.name for g in warlord_heirs(character.kingdom) if g.pk == int(heir)), "")
    return render(
        request,
        "battles/character_retire_confirm.html",
        {
            "character": character,
            "preview": preview,
            "keep_items": bool(request.POST.get("keep_items")),
            "warlord_heir": heir,
            "heir_name": heir_name,
        },
    )


@login_required
@require_POST
def character_healing_potion_page(request: HttpRequest, character_id: int) -> HttpResponse:
    """Treasure from the Ruins: an injured character drinks a Healing Potion his army carries."""
    character = selectors.own_character_get(user=request.user, character_id=character_id)
    try:
        healed = healing_potion_use(character=character)
    except DomainError as exc:
        flash_errors(request, exc)
    else:
        messages.success(
            request, f"{character.unit.name} drinks the Healing Potion: {', '.join(healed.injuries_removed)} gone."
        )
    return redirect("kingdom", kingdom_id=character.kingdom_id)
