"""Reconnaissance, Army Construction Info and Army Statistics: the army's list, once its player wrote it,
through the orders phase (turns.services.cycle.orders_phase_run: orders/services/resolution.py, the
pure rulebook/turn/army_construction_spied.py and army_lists_spied.py, kingdoms/services/rival_missions.py),
and where a player reads it: the spy's report, intelligence page and API only. Rulebook: Reconnaissance
("The Location and Army list (no character info) for the next army this Kingdom creates"). Decisions 488,
562-564. The demo campaign's turn 1; the MissionEffect row is made here (the aftermath of a skirmish, or an
earlier resolution, makes it in play)."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from pypdf import PdfReader

from briternia.pdf import pdf_render
from kernel.event_codes import EventCode
from kingdoms.models import ArmoryItem, Army, Kingdom, MissionEffect, Unit
from orders.services.sheets import order_sheet_save
from reports.services.reports import kingdom_report_context
from rulebook.turn.write_orders.records import CreateArmy, SheetEntries
from tests.clients import user_named
from turns.models import Turn, TurnEvent
from turns.services.cycle import orders_phase_run

pytestmark = pytest.mark.django_db


def report_text(turn: Turn, kingdom: Kingdom) -> str:
    content = pdf_render("reports/kingdom_report.html", kingdom_report_context(turn=turn, kingdom=kingdom))
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages).split())


def _submit(turn: Turn, *sheets: tuple[Kingdom, SheetEntries]) -> None:
    for kingdom, entries in sheets:
        order_sheet_save(kingdom=kingdom, turn=turn, entries=entries, submitted_by=None, submit=True)


def _awaiting_list(turn: Turn, spy: Kingdom, target: Kingdom, army: Army, mission: str) -> MissionEffect:
    """The spy's effect waiting for `army`'s list (decision 563), and both kingdoms' sheets filed empty."""
    effect = MissionEffect.objects.create(
        campaign=turn.campaign,
        kingdom=spy,
        target=target,
        mission=mission,
        earned_turn=0,
        target_army=army,
        data={"list_awaited": True, "since_turn": 0},
    )
    _submit(turn, (target, SheetEntries()), (spy, SheetEntries()))
    return effect


def test_army_construction_info_the_army_raised_is_kept_for_its_list_under_its_row(turn, k):
    """Decision 488: Da Red Fang raises an army on turn 1; Ostland learns where and its points, and its
    effect stays pending, naming the new army's row (the writer puts it in place of the temporary id), for
    the list its player writes after the turn."""
    ostland, fang = k["Ostland"], k["Da Red Fang"]
    effect = MissionEffect.objects.create(
        campaign=turn.campaign, kingdom=ostland, target=fang, mission="army-construction-info", earned_turn=0
    )
    own = fang.provinces.exclude(pk=fang.capitol_id).order_by("number").first()
    # Room on the Army Table for one more army: its field army is gone.
    fang.armies.filter(kind="field").update(status=Army.Status.DISBANDED)
    _submit(
        turn, (fang, SheetEntries(creations=(CreateArmy("Spied Horde", 1000, own.number),))), (ostland, SheetEntries())
    )

    assert orders_phase_run(turn_id=turn.pk).resolved

    raised = Army.objects.get(kingdom=fang, name="Spied Horde")
    effect.refresh_from_db()
    assert (effect.status, effect.used_turn, effect.target_army_id) == ("pending", None, raised.pk)
    assert effect.data["list_awaited"] is True and effect.data["since_turn"] == 1
    (intel,) = TurnEvent.objects.filter(turn=turn, code=EventCode.INTELLIGENCE)
    assert intel.kingdom_id == ostland.pk and intel.data["target_army"] == raised.pk
    assert intel.data["info"]["list_due"] is True


def test_army_construction_info_the_list_written_reaches_the_spy_alone_at_the_next_resolution(turn, k, api_client_for):
    """Reconnaissance, Army Construction Info: Da Red Fang's army was raised on an earlier turn (Ostland
    learned where, and its points) and its list is written since: turn 1's resolution delivers it to
    Ostland, its units as the list gives them and no character info, and spends the effect (decision 488).
    Ostland's report, intelligence page and API hold it; Da Red Fang (bob) and Karak Dumn (carol) read it
    nowhere: their reports, their own pages, and the spy's pages answer them 404."""
    ostland, fang, karak = k["Ostland"], k["Da Red Fang"], k["Karak Dumn"]
    army = fang.armies.get(kind="field")
    regiments = [u for u in army.units.order_by("position", "id") if u.category != "character" and u.models_count]
    assert regiments, "the demo army has a written list"
    # A character of the list, with his magic item: no character info reaches the spy.
    character = Unit.objects.create(
        army=army, position=99, name="Grotsnik Da Secret Boss", category="character", models_count=1,
        points_per_model=130,
    )  # fmt: skip
    effect = _awaiting_list(turn, ostland, fang, army, "army-construction-info")

    assert orders_phase_run(turn_id=turn.pk).resolved

    effect.refresh_from_db()
    assert (effect.status, effect.used_turn) == ("used", 1)
    (intel,) = TurnEvent.objects.filter(turn=turn, code=EventCode.INTELLIGENCE)
    assert intel.kingdom_id == ostland.pk
    units = intel.data["info"]["units"]
    assert [(u["name"], u["models"]) for u in units] == [(u.name, u.models_count) for u in regiments]
    assert character.name not in intel.text and character.name not in repr(intel.data)
    first = regiments[0].name

    # The spy reads it in its report (the PDF) and on its intelligence page and API.
    spy = report_text(turn, ostland)
    assert "Army Construction Info" in spy and first in spy and character.name not in spy
    alice, bob, carol = user_named("alice"), user_named("bob"), user_named("carol")
    client = Client()
    client.force_login(alice)
    page = client.get(f"/kingdoms/{ostland.pk}/intelligence/").content.decode()
    assert "Army Construction Info" in page and first in page and character.name not in page
    learned = api_client_for(alice).get(f"/api/kingdoms/{ostland.pk}/intelligence/").json()["learned"]
    assert [item["mission"] for item in learned] == ["army-construction-info"]
    assert learned[0]["info"]["units"][0]["name"] == first
    # The target and a third kingdom: nothing in their reports; the spy's pages are not found for them;
    # their own intelligence pages learned nothing.
    for kingdom, user in ((fang, bob), (karak, carol)):
        assert "Army Construction Info" not in report_text(turn, kingdom)
        other = Client()
        other.force_login(user)
        assert other.get(f"/kingdoms/{ostland.pk}/intelligence/").status_code == 404
        assert api_client_for(user).get(f"/api/kingdoms/{ostland.pk}/intelligence/").status_code == 404
        own = api_client_for(user).get(f"/api/kingdoms/{kingdom.pk}/intelligence/").json()
        assert own["learned"] == [] and own["pending"] == []
        assert "Army Construction Info" not in other.get(f"/kingdoms/{kingdom.pk}/intelligence/").content.decode()


def test_an_awaited_list_still_due_keeps_the_effect_listed_as_waiting_on_the_spys_page(turn, k, api_client_for):
    """Decision 563: the army's list not written yet, turn 1's resolution delivers nothing; the effect stays
    pending, and the spy's page says it waits for the list."""
    ostland, fang = k["Ostland"], k["Da Red Fang"]
    army = fang.armies.get(kind="field")
    Army.objects.filter(pk=army.pk).update(list_due=True)
    effect = _awaiting_list(turn, ostland, fang, army, "army-statistics")

    assert orders_phase_run(turn_id=turn.pk).resolved

    effect.refresh_from_db()
    assert effect.status == "pending"
    assert not TurnEvent.objects.filter(turn=turn, code=EventCode.INTELLIGENCE).exists()
    (pending,) = api_client_for(user_named("alice")).get(f"/api/kingdoms/{ostland.pk}/intelligence/").json()["pending"]
    assert pending["label"] == "Army Statistics" and "list" in pending["when"] and "Da Red Fang" in pending["when"]


def test_army_statistics_the_list_delivered_holds_the_magic_items_its_regiments_bear(turn, k):
    """Reconnaissance, Army Statistics: "The Location and Army list (no character info) of any one army".
    The magic items a regiment bears are part of its list (Armory): the list delivered at turn 1's
    resolution gives each regiment its items, their names and points, and counts them in the list's points;
    a character's item stays out with him (decision 590; the world the resolution loads carries the items)."""
    ostland, fang = k["Ostland"], k["Da Red Fang"]
    army = fang.armies.get(kind="field")
    regiment = army.units.exclude(category="character").filter(models_count__gt=0).order_by("position", "id").first()
    character = Unit.objects.create(
        army=army, position=99, name="Grotsnik Da Secret Boss", category="character", models_count=1,
        points_per_model=130,
    )  # fmt: skip
    ArmoryItem.objects.create(kingdom=fang, name="Banner of Da Red Sun", points=50, bearer=regiment)
    ArmoryItem.objects.create(kingdom=fang, name="Secret Choppa", points=30, bearer=character)
    ArmoryItem.objects.create(kingdom=fang, name="Lost Totem", points=25, bearer=regiment, destroyed=True)
    effect = _awaiting_list(turn, ostland, fang, army, "army-statistics")

    assert orders_phase_run(turn_id=turn.pk).resolved

    effect.refresh_from_db()
    assert (effect.status, effect.used_turn) == ("used", 1)
    (intel,) = TurnEvent.objects.filter(turn=turn, code=EventCode.INTELLIGENCE)
    units = intel.data["info"]["units"]
    borne = {u["name"]: u["items"] for u in units}
    assert borne[regiment.name] == [{"name": "Banner of Da Red Sun", "points": 50}]
    assert all(items == [] for name, items in borne.items() if name != regiment.name)
    assert intel.data["info"]["points"] == sum(u["points"] for u in units) + 50
    assert "Banner of Da Red Sun" in intel.text
    for secret in ("Secret Choppa", character.name, "Lost Totem"):
        assert secret not in intel.text and secret not in repr(intel.data)
    spy = report_text(turn, ostland)
    assert "Banner of Da Red Sun (50)" in spy and "Secret Choppa" not in spy
