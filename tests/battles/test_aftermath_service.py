"""The aftermath through the service and the task (battles/services/aftermath.py): the whole cycle
from the posted battles through the sheets to the next turn, on the demo campaign; claimed once;
refused while a result is in conflict; the missing-sheet rule; the deadline sweep; a real worker.
Rulebook: 7. Aftermath, 8. End of Turn, Experience Points, Looting, Casualty Recovery."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db.models import Sum
from freezegun import freeze_time

from battles.models import Battle
from battles.services.aftermath import aftermath_preview
from battles.services.summaries import summary_sheet_save
from briternia.errors import DomainError
from kingdoms.models import Army, Province, TreasuryEntry, Unit
from orders.services.sheets import order_sheet_context_load
from tests.clients import error_details
from tests.conftest import needs_broker
from turns.models import DiceRoll, Turn, TurnEvent
from turns.services.cycle import aftermath_phase_run
from turns.services.requests import aftermath_phase_request
from turns.tasks import deadline_sweep


def _save(battle, kingdom, **data):
    return summary_sheet_save(battle=battle, kingdom=kingdom, data=data, entered_by=kingdom.players.first())


@pytest.fixture
def battles(turn, battles_posted):
    return {b.province.number: b for b in Battle.objects.filter(turn=turn)}


def _gold(kingdom) -> int:
    return TreasuryEntry.objects.filter(kingdom=kingdom).aggregate(total=Sum("amount"))["total"]


def test_the_whole_aftermath_by_the_rules(turn, k, battles, battles_posted):
    """The Raiders win a minor victory in Hartwood (the Wardens retreat: they did not move, so to a
    home territory); the Boyz win a major victory over Eldenhall's garrison and loot the city."""
    halberdiers = Unit.objects.get(army__name="Wardens", name="Halberdiers")
    spearmen = Unit.objects.get(army__name="Raiders", name="Spearmen")
    _save(battles[62], k["Tor Anlec"], result="minor-victory", casualties=[{"unit": spearmen.id, "models_lost": 12}])
    _save(
        battles[62],
        k["Ostland"],
        result="minor-loss",
        casualties=[{"unit": halberdiers.id, "models_lost": 24}],
        story="The Wardens fell back through the trees.",
    )
    _save(battles[61], k["Da Red Fang"], result="major-victory", loot_choice="loot")
    _save(battles[61], k["Ostland"], result="major-loss")
    gold_before = {name: _gold(kingdom) for name, kingdom in k.items()}

    outcome = aftermath_phase_run(turn_id=turn.pk)
    assert outcome.resolved
    turn.refresh_from_db()
    assert turn.status == Turn.Status.REPORTED and turn.resolution_error == ""
    assert outcome.next_turn.number == 2 and outcome.next_turn.status == Turn.Status.ORDERS_OPEN
    turn.campaign.refresh_from_db()
    assert turn.campaign.current_turn == 2

    # The victor keeps the province; the loser retreats to a province with no army in it (A5).
    raiders, wardens = Army.objects.get(name="Raiders"), Army.objects.get(name="Wardens")
    assert Province.objects.get(campaign=turn.campaign, number=62).controller == k["Tor Anlec"]
    assert raiders.province.number == 62
    assert wardens.province.number != 62
    assert not Army.objects.filter(province=wardens.province, status="active").exclude(pk=wardens.pk).exists()
    assert wardens.province.number in set(
        Province.objects.get(campaign=turn.campaign, number=62).neighbours.values_list("number", flat=True)
    )
    # A1: 75 for the victory, 50 for the loss, +3 for Ostland's story (Stories Are Nice).
    assert raiders.experience == 75
    assert wardens.experience == 50 + 3
    # A3: the Boyz loot Eldenhall: +1,000 gold, the city is theirs, and it cannot raise armies for a turn.
    eldenhall = Province.objects.get(campaign=turn.campaign, number=61)
    assert eldenhall.controller == k["Da Red Fang"] or eldenhall.settlement == "none"  # Savages may sack (1-2)
    if eldenhall.settlement == "city":  # looted: no armies raised there in turn 2 (Looting)
        context = order_sheet_context_load(kingdom=k["Da Red Fang"], turn=outcome.next_turn)
        assert context.provinces[61].looted_in(context.turn) and eldenhall.looted_turn == 1
    loot = TreasuryEntry.objects.filter(kingdom=k["Da Red Fang"], turn=1, reason="loot")
    assert [e.amount for e in loot] in ([1000], [2000])
    # A2: a major victory against a 1,000-point garrison: 2 x 150 gold.
    victory = TreasuryEntry.objects.filter(kingdom=k["Da Red Fang"], turn=1, reason="victory")
    assert [e.amount for e in victory] == [300]
    assert _gold(k["Da Red Fang"]) - gold_before["Da Red Fang"] == sum(e.amount for e in [*loot, *victory])
    # Tor Anlec's minor victory against the Wardens' 1,290 points and the 200-point detachment: 2 x 100.
    assert [e.amount for e in TreasuryEntry.objects.filter(kingdom=k["Tor Anlec"], turn=1, reason="victory")] == [200]
    # A4: some of the 24 Halberdiers came back (rounded down for the loser), never more than were lost.
    halberdiers.refresh_from_db()
    assert 36 <= halberdiers.models_count <= 36 + 16
    spearmen.refresh_from_db()
    assert 38 <= spearmen.models_count <= 50
    # Every change has its event, every roll its row, every gold movement its ledger row.
    events = TurnEvent.objects.filter(turn=turn, phase="aftermath")
    assert events.filter(army=wardens).exists() and events.filter(army=raiders).exists()
    assert sorted(e.gold for e in events if e.gold) == sorted(
        TreasuryEntry.objects.filter(turn=1, reason__in=["loot", "victory", "transfer"]).values_list(
            "amount", flat=True
        )
    )
    assert DiceRoll.objects.filter(campaign=turn.campaign, turn=1, stream="aftermath").exists()
    assert Battle.objects.filter(turn=turn, status=Battle.Status.RESOLVED).count() == 2
    assert Battle.objects.get(pk=battles[62].pk).victor == "attacker"


def test_the_aftermath_runs_once(turn, k, battles):
    _save(battles[62], k["Tor Anlec"], result="draw")
    _save(battles[62], k["Ostland"], result="draw")
    _save(battles[61], k["Da Red Fang"], result="minor-loss")
    _save(battles[61], k["Ostland"], result="minor-victory")
    assert aftermath_phase_run(turn_id=turn.pk).resolved
    events = TurnEvent.objects.filter(turn=turn).count()
    assert not aftermath_phase_run(turn_id=turn.pk).resolved
    assert TurnEvent.objects.filter(turn=turn).count() == events
    assert Turn.objects.filter(campaign=turn.campaign).count() == 2
    # A draw: nobody wins; the Raiders, who moved in, go back where they came from (52).
    assert Army.objects.get(name="Raiders").province.number == 52
    assert Army.objects.get(name="Wardens").province.number == 62


def test_the_aftermath_is_deterministic_its_preview_is_what_it_then_does(turn, k, battles):
    """Same sheets, same seed, same rolls: the organizer's dry run gives exactly the events and
    rolls the aftermath then writes (casualty recovery and looting both roll dice here)."""
    halberdiers = Unit.objects.get(army__name="Wardens", name="Halberdiers")
    _save(battles[62], k["Tor Anlec"], result="minor-victory")
    _save(battles[62], k["Ostland"], result="minor-loss", casualties=[{"unit": halberdiers.id, "models_lost": 12}])
    _save(battles[61], k["Da Red Fang"], result="major-victory")
    _save(battles[61], k["Ostland"], result="major-loss")
    preview = aftermath_preview(turn=turn)
    again = aftermath_preview(turn=turn)
    assert [e.text for e in preview.events] == [e.text for e in again.events]
    assert aftermath_phase_run(turn_id=turn.pk).resolved
    written = TurnEvent.objects.filter(turn=turn, phase="aftermath").order_by("sequence")
    assert [e.text for e in written] == [e.text for e in preview.events]
    assert any(e.code == "casualty-recovery" for e in preview.events)
    assert any(e.code == "savages" for e in preview.events)  # the Orcs & Goblins' roll, recorded
    assert DiceRoll.objects.filter(campaign=turn.campaign, turn=turn.number, stream="aftermath").exists()


def test_a_conflict_holds_the_aftermath_and_changes_nothing(turn, k, battles):
    _save(battles[62], k["Tor Anlec"], result="major-victory")
    _save(battles[62], k["Ostland"], result="draw")
    with pytest.raises(DomainError, match="62 Hartwood"):
        aftermath_phase_request(turn=turn)
    with freeze_time(turn.results_deadline + dt.timedelta(hours=1)):
        with pytest.raises(DomainError):
            aftermath_phase_run(turn_id=turn.pk)
        assert deadline_sweep.delay().get()["aftermaths"] == 0
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES and "62 Hartwood" in turn.resolution_error
    assert not TurnEvent.objects.filter(turn=turn, phase="aftermath").exists()


def test_case_A7_no_sheet_by_the_deadline_is_a_major_loss_without_experience(turn, k, battles):
    """A7 / 8. End of Turn: Tor Anlec files nothing: the Raiders count a major loss and gain no
    experience, and go back; the Wardens' draw, as Ostland filed it, stands (50 experience, no
    victor: they stay). Ostland files nothing for Eldenhall: Da Red Fang's minor victory stands."""
    _save(battles[62], k["Ostland"], result="draw")
    _save(battles[61], k["Da Red Fang"], result="minor-victory")
    with freeze_time(turn.results_deadline + dt.timedelta(minutes=1)):
        assert deadline_sweep.delay().get()["aftermaths"] == 1
    turn.refresh_from_db()
    assert turn.status == Turn.Status.REPORTED
    raiders = Army.objects.get(name="Raiders")
    assert raiders.experience == 0 and raiders.province.number == 52  # back where it came from
    wardens = Army.objects.get(name="Wardens")
    assert wardens.experience == 50 and wardens.province.number == 62
    hartwood = Battle.objects.get(pk=battles[62].pk)
    assert (hartwood.result, hartwood.defender_result, hartwood.victor) == ("major-loss", "draw", "")
    eldenhall = Battle.objects.get(pk=battles[61].pk)
    assert (eldenhall.result, eldenhall.defender_result, eldenhall.victor) == (
        "minor-victory",
        "major-loss",
        "attacker",
    )
    # A2: Da Red Fang's minor victory as filed, against the 1,000-point city garrison: 2 x 100.
    victory = TreasuryEntry.objects.filter(kingdom=k["Da Red Fang"], turn=1, reason="victory")
    assert [e.amount for e in victory] == [200]


def test_case_R2_the_reports_say_each_side_s_result_when_a_sheet_is_missing(turn, k, battles):
    """R2 / 8. End of Turn: Da Red Fang alone files for Eldenhall, a minor victory; Ostland's sheet
    never comes. Ostland's report and the public bulletin give each side's result and say whose
    sheet was missing (Hartwood, with both sheets, reads as before); Ostland's aftermath says its
    garrison's major loss and why."""
    from reports.services.reports import bulletin_context, kingdom_report_context

    _save(battles[62], k["Tor Anlec"], result="minor-victory")
    _save(battles[62], k["Ostland"], result="minor-loss")
    _save(battles[61], k["Da Red Fang"], result="minor-victory")
    with freeze_time(turn.results_deadline + dt.timedelta(minutes=1)):
        assert deadline_sweep.delay().get()["aftermaths"] == 1
    turn.refresh_from_db()
    expected = "Minor victory for the attacker; major loss for the defender (no turn summary sheet)"
    report = kingdom_report_context(turn=turn, kingdom=k["Ostland"])
    rows = {row["battle"].province.number: row for row in report["battles"]}
    assert rows[61]["result"] == expected and rows[62]["result"] == "Minor victory"
    bulletin = {row["battle"].province.number: row["result"] for row in bulletin_context(turn=turn)["battles"]}
    assert bulletin[61] == expected
    aftermath = [
        text for title, events in report["phases"] if title == "7. Aftermath" for text in (e.text for e in events)
    ]
    assert (
        "Battle in 61 Eldenhall: major loss for Ostland (garrison), for want of a turn summary sheet by the "
        "deadline (8. End of Turn)." in aftermath
    )


def test_the_organizer_can_run_it_before_the_deadline_only_when_every_sheet_is_in(turn, k, battles):
    _save(battles[62], k["Tor Anlec"], result="draw")
    with pytest.raises(DomainError) as waiting:
        aftermath_phase_request(turn=turn)
    assert any("61 Eldenhall" in m for m in waiting.value.messages)


@pytest.fixture
def committed_battles(transactional_db, django_capture_on_commit_callbacks):
    from demo.campaign import demo_campaign_create
    from tests.battle_setup import file_battle_orders
    from turns.services.cycle import orders_phase_run

    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    file_battle_orders(campaign, turn)
    assert orders_phase_run(turn_id=turn.pk).resolved
    return turn


@needs_broker
@pytest.mark.celery_worker
def test_the_organizer_s_aftermath_runs_on_a_real_worker(celery_worker, committed_battles, client):
    turn = committed_battles
    kingdoms = {x.name: x for x in turn.campaign.kingdoms.all()}
    battles = {b.province.number: b for b in Battle.objects.filter(turn=turn)}
    _save(battles[62], kingdoms["Tor Anlec"], result="massacre")
    _save(battles[62], kingdoms["Ostland"], result="massacred")
    _save(battles[61], kingdoms["Da Red Fang"], result="draw")
    _save(battles[61], kingdoms["Ostland"], result="draw")
    client.force_login(turn.campaign.organizer)
    response = client.post(f"/turns/{turn.pk}/aftermath/")
    assert response.status_code == 302
    import time

    for _ in range(200):
        turn.refresh_from_db()
        if turn.status == Turn.Status.REPORTED:
            break
        time.sleep(0.1)
    assert turn.status == Turn.Status.REPORTED
    assert Army.objects.get(name="Raiders").experience == 100  # A1: massacred the opponent


def test_the_aftermath_and_ruling_endpoints_are_the_organizer_s(
    turn, k, battles, api_client_for, django_capture_on_commit_callbacks
):
    """The API: a player gets 404 from the organizer's endpoints; the organizer's aftermath request
    is refused with the reasons while a sheet is missing, and accepted once all are in."""
    from django.contrib.auth import get_user_model

    alice = api_client_for(get_user_model().objects.get(username="alice"))
    organizer = api_client_for(turn.campaign.organizer)
    assert alice.post(f"/api/turns/{turn.pk}/aftermath/").status_code == 404
    assert alice.post(f"/api/battles/{battles[62].pk}/ruling/", {"result": "draw"}, format="json").status_code == 404
    waiting = organizer.post(f"/api/turns/{turn.pk}/aftermath/")
    assert waiting.status_code == 400 and any("62 Hartwood" in m for m in error_details(waiting))
    ruled = organizer.post(f"/api/battles/{battles[62].pk}/ruling/", {"result": "minor-victory"}, format="json")
    assert ruled.status_code == 200 and ruled.json()["standing"].startswith("Decided by the organizer: Minor victory")
    _save(battles[61], k["Da Red Fang"], result="draw")
    _save(battles[61], k["Ostland"], result="draw")
    with django_capture_on_commit_callbacks(execute=True):
        assert organizer.post(f"/api/turns/{turn.pk}/aftermath/").status_code == 202
    turn.refresh_from_db()
    assert turn.status == Turn.Status.REPORTED  # the task ran after the request's commit


def test_the_campaign_round_trips_with_sheets_rulings_and_the_aftermath(turn, k, battles):
    """Export / import (transfer/) carries the turn summary sheets (their
    casualties and lost characters by unit place), the organizer's ruling, the scenarios, and
    after the aftermath the results, looted provinces and veteran eligibility."""
    from battles.services.summaries import battle_rule
    from kingdoms.models import Character
    from transfer.export import campaign_export
    from transfer.importer import campaign_import

    halberdiers = Unit.objects.get(army__name="Wardens", name="Halberdiers")
    general = Character.objects.filter(kingdom=k["Ostland"], unit__army__name="1st Army").first()
    _save(battles[62], k["Tor Anlec"], result="major-victory")
    _save(
        battles[62],
        k["Ostland"],
        result="draw",
        casualties=[{"unit": halberdiers.id, "models_lost": 7, "standard": True}],
        characters_lost=[general.id] if general else [],
    )
    battle_rule(
        battle=battles[62],
        result="minor-victory",
        attacker_withdrew=False,
        defender_withdrew=False,
        note="phone call",
        ruled_by=turn.campaign.organizer,
    )
    document = json.loads(json.dumps(campaign_export(campaign=turn.campaign)))  # through JSON text
    copy = campaign_import(document=document)
    assert campaign_export(campaign=copy) == document
    sheet = next(s for b in document["turns"][0]["battles"] for s in b["summary_sheets"] if s["kingdom"] == "Ostland")
    assert sheet["casualties"][0]["unit"] == {"kingdom": "Ostland", "army": "Wardens", "unit": 0}
    _save(battles[61], k["Da Red Fang"], result="major-victory")
    _save(battles[61], k["Ostland"], result="major-loss")
    assert aftermath_phase_run(turn_id=turn.pk).resolved
    after = campaign_export(campaign=turn.campaign)
    assert campaign_export(campaign=campaign_import(document=after)) == after


def test_the_raiders_general_presses_the_advantage_and_is_not_judged_a_veteran(turn, k, battles):
    """Rogue / Trickster, Press the Advantage: the Raiders' General has it, wins a minor victory in
    Hartwood and survives: 75 + 25 experience. Veteran Status is for regiments: his one-model unit
    is not made eligible (the state knows a character's unit and his abilities)."""
    from kingdoms.models import Character

    raiders = Army.objects.get(name="Raiders")
    unit = raiders.units.create(name="Prince Imrik", category="character", models_count=1, points_per_model=150)
    Character.objects.create(
        unit=unit,
        kingdom=k["Tor Anlec"],
        role=Character.Role.GENERAL,
        archetype="rogue",
        abilities=["Withdraw", "Press the Advantage"],
    )
    _save(battles[62], k["Tor Anlec"], result="minor-victory")
    _save(battles[62], k["Ostland"], result="minor-loss")
    _save(battles[61], k["Da Red Fang"], result="draw")
    _save(battles[61], k["Ostland"], result="draw")
    assert aftermath_phase_run(turn_id=turn.pk).resolved
    raiders.refresh_from_db()
    unit.refresh_from_db()
    assert raiders.experience == 75 + 25
    pressed = TurnEvent.objects.get(turn=turn, code="press-the-advantage")
    assert pressed.army == raiders and "Prince Imrik" in pressed.text
    assert not unit.veteran_eligible
    eligible = TurnEvent.objects.filter(turn=turn, code="veteran-eligible", army=raiders)
    assert eligible.exists() and not eligible.filter(text__contains="Prince Imrik").exists()


def test_one_use_troops_roll_for_recovery_though_the_sheet_does_not_tick_them(turn, k, battles):
    """Spending Experience, NOTE: the Boyz' Fanatics roll a Casualty Recovery D6 "regardless of the
    status of these models at the game's end", though Da Red Fang's sheet does not release them."""
    _save(battles[62], k["Tor Anlec"], result="draw")
    _save(battles[62], k["Ostland"], result="draw")
    _save(battles[61], k["Da Red Fang"], result="minor-loss")
    _save(battles[61], k["Ostland"], result="minor-victory")
    assert aftermath_phase_run(turn_id=turn.pk).resolved
    [event] = TurnEvent.objects.filter(turn=turn, code="one-use-recovery")
    assert event.army.name == "Boyz" and event.data["unit"] == "Fanatics" and not event.data["released"]
    # A D6 for each of the 3 Fanatics; each 4+ is back.
    assert len(event.data["rolls"]) == 3
    fanatics = Unit.objects.get(army__name="Boyz", name="Fanatics")
    assert fanatics.models_count == event.data["recovered"] == sum(1 for r in event.data["rolls"] if r >= 4)


def test_money_negotiations_leave_with_their_fee_and_arrive_at_the_beginning_of_the_turn_after_next(
    turn, k, battles, battles_posted
):
    """Decision 142: Ostland agrees on its turn summary sheet to pay Tor Anlec 500 gold after Hartwood:
    the aftermath of turn 1 takes 550 from Ostland (with the 10% transportation fee); nothing reaches
    Tor Anlec when turn 2 opens; the 500 arrive when turn 3 opens, once, each step in the reports."""
    from orders.services.transfers import gold_transfers_arrive
    from reports.services.reports import kingdom_report_context

    _save(battles[62], k["Tor Anlec"], result="minor-victory")
    _save(battles[62], k["Ostland"], result="minor-loss", negotiation_gold=500, negotiation_note="Safe passage")
    _save(battles[61], k["Da Red Fang"], result="draw")
    _save(battles[61], k["Ostland"], result="draw")
    outcome = aftermath_phase_run(turn_id=turn.pk)
    assert outcome.resolved
    (paid,) = TreasuryEntry.objects.filter(kingdom=k["Ostland"], turn=1, reason="transfer")
    assert paid.amount == -550
    # Turn 2 has opened: the gold is on its way still (Tor Anlec's victory gold is another row).
    assert not TreasuryEntry.objects.filter(kingdom=k["Tor Anlec"], reason="transfer").exists()
    lines = [e.text for _, rows in kingdom_report_context(turn=turn, kingdom=k["Tor Anlec"])["phases"] for e in rows]
    assert any("Ostland pays Tor Anlec 500 gold after the battle in" in t and "turn 3" in t for t in lines)

    third = Turn.objects.create(
        campaign=turn.campaign,
        number=3,
        orders_deadline=turn.orders_deadline,
        results_deadline=turn.results_deadline,
        seed="t3",
    )
    gold_transfers_arrive(turn=third)
    gold_transfers_arrive(turn=third)  # safe twice
    (received,) = TreasuryEntry.objects.filter(kingdom=k["Tor Anlec"], reason="transfer")
    assert (received.amount, received.turn) == (500, 3)
    (arrived,) = TurnEvent.objects.filter(turn=third, code="transfer-arrived")
    assert arrived.kingdom == k["Tor Anlec"] and "paid in money negotiations after a battle by Ostland" in arrived.text


def test_robbed_takes_the_character_s_equipment_and_items_off_the_list(turn, k, battles, monkeypatch):
    """Character Injury Chart, 46-51 Robbed: "his equipment and magic items are lost": the aftermath
    writes his unit without its mundane equipment points and his magic items destroyed (decision 389)."""
    from kingdoms.models import ArmoryItem, Character
    from rulebook.turn.aftermath import character_injuries
    from rulebook.turn.aftermath.injury_chart import ROBBED, Injury

    raiders = Army.objects.get(name="Raiders")
    unit = raiders.units.create(
        name="Captain Eldril", category="character", models_count=1, points_per_model=70, equipment_points=9
    )
    captain = Character.objects.create(unit=unit, kingdom=k["Tor Anlec"], role=Character.Role.HERO)
    sword = ArmoryItem.objects.create(kingdom=k["Tor Anlec"], name="Sword of Battle", points=25, bearer=unit)
    robbed = Injury(
        code=ROBBED.code, label=ROBBED.label, text=ROBBED.text, roll=46, items_lost=True, detail="equipment lost"
    )
    monkeypatch.setattr(character_injuries, "injury_roll", lambda *args, **kw: [robbed])
    _save(battles[62], k["Tor Anlec"], result="minor-victory", characters_lost=[captain.id])
    _save(battles[62], k["Ostland"], result="minor-loss")
    _save(battles[61], k["Da Red Fang"], result="draw")
    _save(battles[61], k["Ostland"], result="draw")
    assert aftermath_phase_run(turn_id=turn.pk).resolved
    unit.refresh_from_db()
    sword.refresh_from_db()
    assert (unit.equipment_points, unit.models_count, sword.destroyed) == (0, 1, True)


def test_casualty_recovery_a_champion_that_fails_its_roll_leaves_the_list(turn, k, battles, monkeypatch):
    """Casualty Recovery: the Wardens' Halberdiers lose their champion (10 points of their 25 of
    equipment) and he fails his 4+: the aftermath writes the unit without him (decision 394)."""
    from rulebook.turn.aftermath import casualty_recovery

    monkeypatch.setattr(casualty_recovery, "COMMAND_RECOVERY_MIN", 7)  # every command model fails
    halberdiers = Unit.objects.get(army__name="Wardens", name="Halberdiers")
    Unit.objects.filter(pk=halberdiers.pk).update(equipment_points=25, champion_points=10)
    _save(battles[62], k["Tor Anlec"], result="minor-victory")
    _save(
        battles[62],
        k["Ostland"],
        result="minor-loss",
        casualties=[{"unit": halberdiers.id, "models_lost": 0, "champion": True}],
    )
    _save(battles[61], k["Da Red Fang"], result="draw")
    _save(battles[61], k["Ostland"], result="draw")
    assert aftermath_phase_run(turn_id=turn.pk).resolved
    halberdiers.refresh_from_db()
    assert (halberdiers.champion_points, halberdiers.equipment_points) == (0, 15)
    event = TurnEvent.objects.get(turn=turn, code="command-recovery")
    assert "Halberdiers' champion" in event.text and "it leaves the list (10 points)" in event.text
