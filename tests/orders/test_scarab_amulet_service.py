"""The Scarab Amulet through the site (The Ancient Dead: Deserts): the organizer puts the amulet
found in the ruins on an army's list, the player orders it on the sheet (page and API), the turn
rolls it and the desert turns to plains: in the kingdom's report, the bulletin and the turn's map.
Rules decisions 109-114."""

from __future__ import annotations

import datetime as dt

import pytest

from briternia.errors import DomainError
from demo.turn import army_with_list
from kernel.event_codes import EventCode
from kingdoms.models import Army, Character, Kingdom, Province
from kingdoms.services.armies import army_entries, army_list_save
from kingdoms.services.world import world_load
from orders.models import OrderSheet
from orders.services.sheets import order_sheet_save
from reports.models import TurnMap
from reports.services.reports import bulletin_context, kingdom_report_context
from rulebook.ancient_dead.movement import ancient_dead_orders
from rulebook.armies.army_lists import ItemEntry, UnitEntry
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from tests.clients import api_as, error_details, pages_as, user_named
from turns.models import DiceRoll, TurnEvent
from turns.services.cycle import aftermath_phase_run, orders_phase_run

pytestmark = pytest.mark.django_db

KIND = OrderKind.SCARAB_AMULET.value


def _quiet_desert(campaign) -> Province:  # type: ignore[no-untyped-def]
    """A desert no army stands in and none of the Ancient Dead's computed orders enters this turn."""
    world = world_load(campaign=campaign, turn_number=1)
    entered = {o.target for o in ancient_dead_orders(world)}
    taken = {a.province for a in world.armies.values()}
    number = next(
        n
        for n, p in sorted(world.provinces.items())
        if p.terrain == "desert" and not p.pyramid and n not in entered | taken
    )
    return Province.objects.get(campaign=campaign, number=number)


@pytest.fixture
def seekers(demo_campaign, ostland: Kingdom) -> Army:
    """Ostland's army in a quiet desert, led by Magister Volkmar, a level 1 Wizard (as entered)."""
    army = army_with_list(ostland, "Seekers", _quiet_desert(demo_campaign), [("Swordsmen", 20, 6)])
    army.created_turn = 1  # raised this turn, not the starting army with the Warlord
    army.save(update_fields=["created_turn"])
    unit = army.units.create(name="Magister Volkmar", category="character", models_count=1, points_per_model=100)
    Character.objects.create(
        unit=unit, kingdom=ostland, role="general", archetype="magician", wizard=True, magic_level=1
    )
    return army


def _with_amulet(army: Army, magic_level: int) -> tuple[list[UnitEntry], list[ItemEntry]]:
    units, items = army_entries(army)
    units = [
        u
        if u.character is None
        else UnitEntry(
            **{**u.__dict__, "character": type(u.character)(**{**u.character.__dict__, "magic_level": magic_level})}
        )
        for u in units
    ]
    return units, [*items, ItemEntry("Scarab Amulet", 0, common=True, bearer="Magister Volkmar")]


def test_the_amulet_is_found_not_bought_the_organizer_adds_it_with_the_raid(demo_campaign, seekers) -> None:
    """Decision 110: the player cannot put a Scarab Amulet (or a higher magic level) on the list for
    nothing; the organizer adds it with the reason, and the world then counts it."""
    units, items = _with_amulet(seekers, 5)
    with pytest.raises(DomainError) as refused:
        army_list_save(army=seekers, units=units, items=items, corrected_by=user_named("alice"))
    said = " ".join(refused.value.messages)
    assert "a Scarab Amulet is not bought; it is found in ruins" in said
    assert "Magister Volkmar at magic level 5 instead of 1" in said

    army_list_save(
        army=seekers,
        units=units,
        items=items,
        correction="Tomb raid of the ruins of Ashmound, turn 1; Potential bought earlier",
        corrected_by=demo_campaign.organizer,
    )
    state = world_load(campaign=demo_campaign, turn_number=1).armies[seekers.id]
    assert (state.scarab_amulets, state.magic_level) == (1, 5)


def test_the_turn_turns_the_desert_to_plains_in_the_report_the_bulletin_and_the_map(
    demo_campaign, seekers, ostland, turn
) -> None:
    """Deserts through the turn cycle: a level 5 Wizard needs any face (1 + 5 = 6): the order on the
    sheet, one D6 kept with the turn's dice, the province plains and Ostland's, the kingdom's report
    says so with the roll, the bulletin without the army, the turn's map shows plains."""
    units, items = _with_amulet(seekers, 5)
    army_list_save(army=seekers, units=units, items=items, correction="Tomb raid", corrected_by=demo_campaign.organizer)
    desert = seekers.province
    order_sheet_save(
        kingdom=ostland,
        turn=turn,
        entries=SheetEntries(orders=(ArmyOrder(seekers.id, OrderKind.SCARAB_AMULET),)),
        submitted_by=user_named("alice"),
        submit=True,
        arrived_at=turn.orders_deadline - dt.timedelta(days=1),
    )
    orders_phase_run(turn_id=turn.pk)

    desert.refresh_from_db()
    assert (desert.terrain, desert.controller_id) == ("plains", ostland.id)
    roll = DiceRoll.objects.get(campaign=demo_campaign, turn=1, purpose__contains="Scarab Amulet")
    assert roll.expression == "D6" and roll.armies == [seekers.id]
    events = TurnEvent.objects.filter(turn=turn, province=desert.number, kingdom=ostland)
    assert [e.code for e in events] == [EventCode.DESERT_REVERSAL_ROLL, EventCode.DESERT_REVERSED]
    assert events[0].data["face"] == roll.total

    assert not turn.battles.exists()
    aftermath_phase_run(turn_id=turn.pk, now=turn.orders_deadline + dt.timedelta(days=5))
    report = kingdom_report_context(turn=turn, kingdom=ostland)
    lines = [e.text for _, rows in report["phases"] for e in rows]
    assert f"Seekers turns {desert} from desert back to plains with its Scarab Amulet" in " ".join(lines)
    assert f"Seekers rolls {roll.total} +5" in " ".join(lines)
    bulletin = bulletin_context(turn=turn)["changes"]
    assert f"Ostland turns the desert of {desert} back to plains with a Scarab Amulet." in bulletin
    assert not any("Seekers" in line for line in bulletin)
    svg = TurnMap.objects.get(turn=turn).svg
    start = svg.index(f'id="province-{desert.number}"')
    assert "terrain-plains" in svg[start : svg.index(">", start)]


def test_the_api_takes_the_order_and_refuses_it_naming_the_army_and_the_rule(demo_campaign, seekers, ostland, turn):
    """The API: the 1st Army in Ostland's capitol has no desert, no amulet and no mage: one error
    each, the army and the rule named, nothing saved; the Seekers with their amulet are accepted."""
    first = ostland.armies.get(name="1st Army")
    client = api_as("alice")
    refused = client.put(
        f"/api/turns/{turn.pk}/sheet/", {"orders": [{"army": first.id, "kind": KIND}], "submit": True}, format="json"
    )
    assert refused.status_code == 400
    errors = error_details(refused)
    assert len(errors) == 3 and all(e.startswith("1st Army: ") for e in errors)
    assert all("(The Ancient Dead: Deserts)" in e for e in errors)
    assert not OrderSheet.objects.filter(kingdom=ostland).exists()

    units, items = _with_amulet(seekers, 1)
    army_list_save(army=seekers, units=units, items=items, correction="Tomb raid", corrected_by=demo_campaign.organizer)
    accepted = client.put(
        f"/api/turns/{turn.pk}/sheet/", {"orders": [{"army": seekers.id, "kind": KIND}], "submit": True}, format="json"
    )
    assert accepted.status_code == 200, accepted.json()
    assert client.get(f"/api/turns/{turn.pk}/sheet/").json()["sheet"]["entries"]["orders"][0]["kind"] == KIND


def test_the_sheet_page_offers_the_order_only_with_an_amulet_and_says_why_it_is_refused(
    demo_campaign, seekers, ostland, turn
):
    """The order sheet's form: without an amulet the page does not offer the Scarab Amulet (issue 37:
    only the orders the rules allow), and one posted anyway is refused on the army's row, nothing
    saved; with an amulet on the list the page offers it and the sheet is submitted."""
    client = pages_as("alice")
    url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    page = client.get(url).content.decode()
    assert f'value="{KIND}"' not in page

    prefix = f"army-{seekers.id}"
    form = {f"army-{a.id}-kind": "hold" for a in ostland.armies.filter(kind=Army.Kind.FIELD)}
    form.update({f"{prefix}-kind": KIND, "action": "submit"})
    refused = client.post(url, form)
    assert refused.status_code == 400
    assert "carries no Scarab Amulet on its list" in refused.content.decode()
    assert not OrderSheet.objects.filter(kingdom=ostland).exists()

    units, items = _with_amulet(seekers, 1)
    army_list_save(army=seekers, units=units, items=items, correction="Tomb raid", corrected_by=demo_campaign.organizer)
    page = client.get(url).content.decode()
    assert f'value="{KIND}"' in page and "Scarab Amulet: turn the desert to plains" in page
    submitted = client.post(url, form)
    assert submitted.status_code == 302
    receipt = client.get(submitted["Location"]).content.decode()
    assert "Scarab Amulet: turn the desert to plains" in receipt


def test_the_list_editor_takes_a_wizard_s_magic_level_and_refuses_a_rune_smith_outside_the_dwarfs(seekers):
    """The army list form: the magic level and the rune smith are columns of the list; an Empire
    rune smith is refused naming the army and the rule, and nothing changes."""
    client = pages_as("alice")
    page = client.get(f"/armies/{seekers.id}/edit/")
    assert 'name="units-0-magic_level"' in page.content.decode()
    form = {"units-TOTAL_FORMS": "2", "units-INITIAL_FORMS": "2", "items-TOTAL_FORMS": "0", "items-INITIAL_FORMS": "0"}
    for i, row in enumerate(page.context["units"].initial):
        form.update({f"units-{i}-{k}": str(v) for k, v in row.items() if v not in (None, False)})
        if row["name"] == "Magister Volkmar":
            form[f"units-{i}-rune_smith"] = "on"
    response = client.post(f"/armies/{seekers.id}/edit/", form)
    assert response.status_code == 400
    assert "Seekers: Magister Volkmar cannot be a rune smith" in response.content.decode()
    assert not Character.objects.get(unit__army=seekers).rune_smith


def _desert_rolled(turn, ostland: Kingdom, army: Army, faces: list[int]) -> None:  # type: ignore[no-untyped-def]
    """The army's Scarab Amulet order submitted, the Deserts step of the turn run on these faces (every
    one used) and written as the orders phase writes it: the world, the events, the dice."""
    from django.db import transaction

    from kernel.dice import ScriptedDice
    from orders.services.resolution import resolution_write, turn_state_load
    from rulebook.ancient_dead.deserts_turned import reverse_deserts
    from rulebook.turn.pipeline import Resolution

    order_sheet_save(
        kingdom=ostland,
        turn=turn,
        entries=SheetEntries(orders=(ArmyOrder(army.id, OrderKind.SCARAB_AMULET),)),
        submitted_by=user_named("alice"),
        submit=True,
        arrived_at=turn.orders_deadline - dt.timedelta(days=1),
    )
    before = turn_state_load(turn)
    work = before.working_copy()
    dice = ScriptedDice(faces=faces)
    events: list = []
    reverse_deserts(work, [], dice, events)
    assert dice.unused == [], "every scripted die is used"
    with transaction.atomic():
        resolution_write(
            turn=turn,
            before=before,
            resolution=Resolution(state=work, events=events, contacts=[], battles=[]),
            dice=dice,
        )


def _report_text(turn, kingdom: Kingdom) -> str:  # type: ignore[no-untyped-def]
    import io

    from pypdf import PdfReader

    from briternia.pdf import pdf_render

    pdf = pdf_render("reports/kingdom_report.html", kingdom_report_context(turn=turn, kingdom=kingdom))
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())


@pytest.mark.parametrize(("face", "turned"), [(4, True), (3, False)])
def test_case_TR9_a_level_2_mage_turns_the_desert_on_a_4_not_on_a_3_and_the_report_says_so(
    demo_campaign, seekers, ostland, turn, face, turned
) -> None:
    """Issue 31, done when: an army with one amulet and a level 2 mage turns a desert to plains on a 4
    (4 + 2 = 6) and not on a 3; one D6, no reroll (one amulet); the kingdom's PDF report says the roll
    with its bonus and what came of it."""
    units, items = _with_amulet(seekers, 2)
    army_list_save(army=seekers, units=units, items=items, correction="Tomb raid", corrected_by=demo_campaign.organizer)
    desert = seekers.province
    _desert_rolled(turn, ostland, seekers, [face])

    desert.refresh_from_db()
    assert desert.terrain == ("plains" if turned else "desert")
    text = _report_text(turn, ostland)
    assert f"Seekers rolls {face} +2 (its best mage's magic level) = {face + 2} for {desert}; it needs 6" in text
    if turned:
        assert f"Seekers turns {desert} from desert back to plains with its Scarab Amulet" in text
    else:
        assert f"{desert} stays desert: Seekers rolled {face} +2, short of 6" in text


def test_case_TR9_each_further_amulet_is_a_reroll_through_the_site(demo_campaign, seekers, ostland, turn) -> None:
    """Two amulets on the list, as the world loads them: a 2 (+2 = 4) fails, the second amulet's reroll,
    a 4, turns the desert; both rolls are in the kingdom's events, the second marked a reroll."""
    units, items = _with_amulet(seekers, 2)
    items = [*items, ItemEntry("Scarab Amulet", 0, common=True, bearer="Swordsmen")]
    army_list_save(army=seekers, units=units, items=items, correction="Two raids", corrected_by=demo_campaign.organizer)
    assert world_load(campaign=demo_campaign, turn_number=1).armies[seekers.id].scarab_amulets == 2
    desert = seekers.province
    _desert_rolled(turn, ostland, seekers, [2, 4])

    desert.refresh_from_db()
    assert (desert.terrain, desert.controller_id) == ("plains", ostland.id)
    rolls = TurnEvent.objects.filter(turn=turn, code=EventCode.DESERT_REVERSAL_ROLL, army=seekers).order_by("sequence")
    assert [(e.data["face"], e.data["reroll"]) for e in rolls] == [(2, False), (4, True)]
    assert "rerolls with an additional Scarab Amulet: 4 +2" in rolls[1].text


def test_an_amulet_transferred_counts_for_the_receiving_kingdom_s_army(demo_campaign, seekers, ostland, turn) -> None:
    """Transfer of Gold (items) and Deserts: Karak Dumn sends its Scarab Amulet to Ostland on turn 1;
    it arrives in Ostland's armory when turn 3 opens; Ostland's player gives it to Magister Volkmar on
    the Seekers' list (held, not bought: no correction needed, decision 443), it leaves the armory, and
    the Seekers carry it as the turn's world reads them."""
    from kingdoms.models import ArmoryItem
    from orders.services.transfers import items_arrive
    from rulebook.turn.write_orders.records import TransferItem
    from turns.models import Turn

    karak = Kingdom.objects.get(campaign=demo_campaign, name="Karak Dumn")
    ArmoryItem.objects.create(kingdom=karak, name="Scarab Amulet", points=0, common=True)
    order_sheet_save(
        kingdom=karak,
        turn=turn,
        entries=SheetEntries(item_transfers=(TransferItem(ostland.id, "Scarab Amulet"),)),
        submitted_by=user_named("carol"),
        submit=True,
        arrived_at=turn.orders_deadline - dt.timedelta(days=1),
    )
    assert orders_phase_run(turn_id=turn.pk).resolved
    assert not ArmoryItem.objects.filter(kingdom=karak, name="Scarab Amulet").exists()
    for number in (2, 3):
        items_arrive(
            turn=Turn.objects.create(
                campaign=demo_campaign,
                number=number,
                orders_deadline=turn.orders_deadline,
                results_deadline=turn.results_deadline,
                seed=f"t{number}",
            )
        )
    (arrived,) = ArmoryItem.objects.filter(kingdom=ostland, name="Scarab Amulet")
    assert arrived.bearer is None

    units, items = army_entries(seekers)
    army_list_save(
        army=seekers,
        units=units,
        items=[*items, ItemEntry("Scarab Amulet", 0, common=True, bearer="Magister Volkmar")],
        corrected_by=user_named("alice"),
    )
    (carried,) = ArmoryItem.objects.filter(kingdom=ostland, name="Scarab Amulet")
    assert carried.bearer.name == "Magister Volkmar"
    assert world_load(campaign=demo_campaign, turn_number=1).armies[seekers.id].scarab_amulets == 1
    # A second one is not in the armory: it would be a new amulet, found in ruins, never given for nothing.
    with pytest.raises(DomainError, match="a Scarab Amulet is not bought"):
        army_list_save(
            army=seekers,
            units=units,
            items=[
                *items,
                ItemEntry("Scarab Amulet", 0, common=True, bearer="Magister Volkmar"),
                ItemEntry("Scarab Amulet", 0, common=True, bearer="Swordsmen"),
            ],
            corrected_by=user_named("alice"),
        )
