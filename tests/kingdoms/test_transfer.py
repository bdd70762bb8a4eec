"""A campaign as one JSON document and back (kingdoms/services/transfer.py, export_campaign,
import_campaign)."""

import copy
import json
from datetime import UTC, datetime
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import IntegrityError

from briternia.errors import DomainError
from kingdoms.models import (
    ArmoryItem,
    Army,
    ArmyMovement,
    Campaign,
    Character,
    DiceRoll,
    Kingdom,
    Province,
    TreasuryEntry,
    Unit,
)
from kingdoms.services import transfer
from kingdoms.services.transfer import campaign_export, campaign_import

User = get_user_model()
Neighbours = Province.neighbours.through
Players = Kingdom.players.through

ALL_MODELS = [
    User,
    Campaign,
    Province,
    Neighbours,
    Kingdom,
    Players,
    TreasuryEntry,
    Army,
    ArmyMovement,
    Unit,
    Character,
    ArmoryItem,
    DiceRoll,
]
LONG_AGO = datetime(2024, 3, 1, 12, 30, 15, 123456, tzinfo=UTC)


def row_counts() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in ALL_MODELS}


def campaign_counts(campaign: Campaign) -> dict[str, int]:
    in_campaign = {"kingdom__campaign": campaign}
    return {
        "provinces": campaign.provinces.count(),
        "neighbour rows": Neighbours.objects.filter(from_province__campaign=campaign).count(),
        "kingdoms": campaign.kingdoms.count(),
        "players": Players.objects.filter(**in_campaign).count(),
        "treasury entries": TreasuryEntry.objects.filter(**in_campaign).count(),
        "armies": Army.objects.filter(**in_campaign).count(),
        "movements": ArmyMovement.objects.filter(army__kingdom__campaign=campaign).count(),
        "units": Unit.objects.filter(army__kingdom__campaign=campaign).count(),
        "characters": Character.objects.filter(**in_campaign).count(),
        "armory items": ArmoryItem.objects.filter(**in_campaign).count(),
        "dice rolls": campaign.dice_rolls.count(),
    }


def kingdom_index(document: dict, name: str) -> int:
    return next(i for i, k in enumerate(document["kingdoms"]) if k["name"] == name)


@pytest.fixture
def eventful_campaign(demo_campaign: Campaign) -> Campaign:
    """The demo campaign with the state setup never produces: razed and fortified provinces,
    a disbanded army, casualties, a dead hero with injuries, a destroyed item, moves over
    several steps, a roll naming armies, and times long past."""
    campaign = demo_campaign
    ostland = campaign.kingdoms.get(name="Ostland")
    red_fang = campaign.kingdoms.get(name="Da Red Fang")
    first_army = ostland.armies.get(name="1st Army")
    home = first_army.province
    neighbours = list(home.neighbours.order_by("number")[:2])
    Province.objects.filter(pk=neighbours[0].pk).update(razed=True, controller=red_fang)
    Province.objects.filter(pk=neighbours[1].pk).update(fortified=True)
    ArmyMovement.objects.bulk_create(
        ArmyMovement(army=first_army, turn=1, step=step, province=province)
        for step, province in enumerate([home, neighbours[1], home])
    )
    second = Army.objects.create(
        kingdom=ostland,
        name="2nd Army",
        province=None,
        size=1500,
        supply_depot=False,
        experience=2,
        status=Army.Status.DISBANDED,
        created_turn=1,
        upgraded_turn=1,
    )
    flagellants = Unit.objects.create(
        army=second,
        position=3,
        name="Flagellants",
        category="core",
        models_count=10,
        points_per_model=10,
        veteran_level=2,
        models_lost=4,
    )
    ArmoryItem.objects.create(kingdom=ostland, name="Wizarding Hat", points=40, bearer=flagellants, destroyed=True)
    ArmoryItem.objects.create(kingdom=ostland, name="Dragon Bow", points=50)
    Character.objects.filter(unit__name="Captain Reiner").update(
        alive=False, battles_survived=2, injuries=[{"roll": 36, "injury": "Old war wound"}]
    )
    entry = TreasuryEntry.objects.create(
        kingdom=ostland, turn=1, amount=-150, reason=TreasuryEntry.Reason.ARMY_CREATED, note="2nd Army"
    )
    TreasuryEntry.objects.filter(pk=entry.pk).update(created_at=LONG_AGO)
    red_fang_army = red_fang.armies.get()
    DiceRoll.objects.create(
        campaign=campaign,
        turn=1,
        stream="battle:1",
        sequence=0,
        expression="2D6",
        faces=[3, 4],
        total=7,
        purpose="Who attacks first",
        kingdoms=[ostland.id, red_fang.id],
        armies=[first_army.id, red_fang_army.id],
    )
    Campaign.objects.filter(pk=campaign.pk).update(created_at=LONG_AGO)
    campaign.refresh_from_db()
    return campaign


def round_trip(campaign: Campaign) -> Campaign:
    # Through JSON text, as the commands do: the document must survive serialisation.
    document = json.loads(json.dumps(campaign_export(campaign=campaign)))
    return campaign_import(document=document)


def refused(document: object) -> list[str]:
    """Import `document`, expecting a refusal that leaves every table as it was."""
    before = row_counts()
    with pytest.raises(DomainError) as refusal:
        campaign_import(document=document)
    assert row_counts() == before
    return refusal.value.messages


# --- the round trip --------------------------------------------------------------------------


def test_round_trip_gives_back_the_same_document(eventful_campaign):
    exported = campaign_export(campaign=eventful_campaign)
    imported = round_trip(eventful_campaign)
    assert imported.pk != eventful_campaign.pk
    # Nothing is campaign-specific in the document: no identifier needs setting aside.
    assert campaign_export(campaign=imported) == exported


def test_exporting_twice_gives_identical_json(eventful_campaign):
    first = json.dumps(campaign_export(campaign=eventful_campaign), indent=2)
    second = json.dumps(campaign_export(campaign=eventful_campaign), indent=2)
    assert first == second


def test_the_document_has_the_documented_top_level_keys(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    assert list(document) == [
        "format",
        "version",
        "campaign",
        "users",
        "provinces",
        "adjacency",
        "kingdoms",
        "dice_rolls",
    ]
    assert (document["format"], document["version"]) == ("briternia-campaign", 1)

    def keys(value):
        if isinstance(value, dict):
            return set(value) | {k for v in value.values() for k in keys(v)}
        if isinstance(value, list):
            return {k for v in value for k in keys(v)}
        return set()

    assert {k for k in keys(document) if k == "id" or k.endswith("_id")} == set()  # natural keys only


def test_every_field_of_the_models_is_in_the_document():
    """A field added to a model fails here until the document carries it."""
    carried_by_nesting = {"id", "campaign", "kingdom", "army", "unit"}
    specs = {
        Campaign: transfer.CAMPAIGN_KEYS,
        Province: {**transfer.PROVINCE_KEYS, "neighbours": "the top-level adjacency"},
        Kingdom: transfer.KINGDOM_KEYS,
        TreasuryEntry: transfer.TREASURY_KEYS,
        Army: transfer.ARMY_KEYS,
        ArmyMovement: transfer.MOVEMENT_KEYS,
        Unit: transfer.UNIT_KEYS,
        Character: {**transfer.CHARACTER_KEYS, "kingdom": "named"},
        ArmoryItem: transfer.ITEM_KEYS,
        DiceRoll: transfer.DICE_KEYS,
    }
    for model, keys in specs.items():
        fields = {f.name for f in [*model._meta.concrete_fields, *model._meta.many_to_many]}
        nested = carried_by_nesting - set(keys)
        assert fields - nested <= set(keys), f"{model.__name__}: {sorted(fields - nested - set(keys))}"


def test_import_keeps_the_number_of_rows_of_every_model(eventful_campaign):
    users_before = User.objects.count()
    imported = round_trip(eventful_campaign)
    counts = campaign_counts(eventful_campaign)
    assert all(counts.values()), counts  # every model has rows, or the comparison proves little
    assert campaign_counts(imported) == counts
    assert User.objects.count() == users_before  # the players are the same accounts


def test_import_keeps_treasury_balances(eventful_campaign):
    imported = round_trip(eventful_campaign)
    balances = {k.name: k.treasury_balance() for k in eventful_campaign.kingdoms.all()}
    assert balances["Ostland"] == 6000 - 150
    assert {k.name: k.treasury_balance() for k in imported.kingdoms.all()} == balances


def test_import_keeps_the_adjacency(demo_campaign):
    def pairs(campaign):
        return set(
            Neighbours.objects.filter(from_province__campaign=campaign).values_list(
                "from_province__number", "to_province__number"
            )
        )

    imported = round_trip(demo_campaign)
    assert len(pairs(demo_campaign)) > 100
    assert pairs(imported) == pairs(demo_campaign)
    home = imported.kingdoms.get(name="Ostland").capitol
    assert home.campaign == imported
    assert {p.campaign_id for p in home.neighbours.all()} == {imported.pk}


def test_import_keeps_characters_abilities_and_fortunes(eventful_campaign):
    def characters(campaign):
        return {
            (c.kingdom.name, c.unit.army.name, c.unit.name): (
                c.rank,
                c.role,
                c.archetype,
                c.abilities,
                c.ability_choice_pending,
                c.battles_survived,
                c.injuries,
                c.alive,
            )
            for c in Character.objects.filter(kingdom__campaign=campaign).select_related("kingdom", "unit__army")
        }

    imported = round_trip(eventful_campaign)
    before = characters(eventful_campaign)
    assert sum(len(abilities) for _, _, _, abilities, *_ in before.values()) >= 5  # starting + free rolls
    assert characters(imported) == before
    reiner = Character.objects.get(kingdom__campaign=imported, unit__name="Captain Reiner")
    assert not reiner.alive and reiner.injuries == [{"roll": 36, "injury": "Old war wound"}]


def test_import_keeps_dice_rolls_with_their_kingdoms_and_armies(eventful_campaign):
    def rolls(campaign):
        kingdoms = {k.id: k.name for k in Kingdom.objects.filter(campaign=campaign)}
        armies = {a.id: (a.kingdom.name, a.name) for a in Army.objects.filter(kingdom__campaign=campaign)}
        return [
            (
                r.turn,
                r.stream,
                r.sequence,
                r.expression,
                r.faces,
                r.total,
                r.purpose,
                [kingdoms[k] for k in r.kingdoms],  # KeyError: an id of another campaign
                [armies[a] for a in r.armies],
                r.created_at,
            )
            for r in campaign.dice_rolls.order_by("turn", "id")
        ]

    imported = round_trip(eventful_campaign)
    before = rolls(eventful_campaign)
    assert any(names for *_, names, _armies, _at in before)
    assert before[-1][7:9] == (["Ostland", "Da Red Fang"], [("Ostland", "1st Army"), ("Da Red Fang", "1st Army")])
    assert rolls(imported) == before


def test_import_restores_the_exported_times_not_the_time_of_import(eventful_campaign):
    imported = round_trip(eventful_campaign)
    assert imported.created_at == LONG_AGO
    entry = TreasuryEntry.objects.get(kingdom__campaign=imported, note="2nd Army")
    assert entry.created_at == LONG_AGO
    original_kingdom = eventful_campaign.kingdoms.get(name="Ostland")
    assert imported.kingdoms.get(name="Ostland").created_at == original_kingdom.created_at


def test_import_keeps_bearers_and_destroyed_items(eventful_campaign):
    imported = round_trip(eventful_campaign)
    items = {
        i.name: (i.bearer.army.name if i.bearer else None, i.bearer.name if i.bearer else None, i.destroyed)
        for i in ArmoryItem.objects.filter(kingdom__campaign=imported).select_related("bearer__army")
    }
    assert items["Runefang"] == ("1st Army", "Elector Count Valten", False)
    assert items["Wizarding Hat"] == ("2nd Army", "Flagellants", True)
    assert items["Dragon Bow"] == (None, None, False)
    assert ArmoryItem.objects.get(kingdom__campaign=imported, name="Runefang").bearer.army.kingdom.campaign == imported


def test_an_unknown_username_becomes_a_new_account_without_a_password(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    alice = next(u for u in document["users"] if u["username"] == "alice")
    alice.update(username="zoe", email="zoe@example.org", first_name="Zoe", last_name="Marlow")
    ostland = document["kingdoms"][kingdom_index(document, "Ostland")]
    ostland["players"] = ["zoe"]

    imported = campaign_import(document=document)

    zoe = User.objects.get(username="zoe")
    assert (zoe.email, zoe.first_name, zoe.last_name) == ("zoe@example.org", "Zoe", "Marlow")
    assert not zoe.has_usable_password()
    assert list(imported.kingdoms.get(name="Ostland").players.all()) == [zoe]
    assert imported.organizer == demo_campaign.organizer  # reused, not duplicated


# --- the commands ----------------------------------------------------------------------------


def test_the_commands_export_to_a_file_and_import_it(eventful_campaign, tmp_path):
    path = tmp_path / "campaign.json"
    call_command("export_campaign", str(eventful_campaign.pk), "-o", str(path), stderr=StringIO())
    out = StringIO()

    call_command("import_campaign", str(path), stdout=out)

    imported = Campaign.objects.exclude(pk=eventful_campaign.pk).get()
    assert out.getvalue().strip() == f"Imported campaign {imported.pk}: {eventful_campaign.name}"
    assert campaign_export(campaign=imported) == json.loads(path.read_text(encoding="utf-8"))
    assert json.loads(path.read_text(encoding="utf-8")) == campaign_export(campaign=eventful_campaign)


def test_import_reads_stdin_given_a_dash(demo_campaign, monkeypatch):
    document = campaign_export(campaign=demo_campaign)
    monkeypatch.setattr("sys.stdin", StringIO(json.dumps(document)))
    out = StringIO()

    call_command("import_campaign", "-", stdout=out)

    imported = Campaign.objects.exclude(pk=demo_campaign.pk).get()
    assert out.getvalue().strip() == f"Imported campaign {imported.pk}: {demo_campaign.name}"
    assert campaign_export(campaign=imported) == document


def test_export_writes_to_stdout_by_default(demo_campaign):
    out = StringIO()
    call_command("export_campaign", str(demo_campaign.pk), stdout=out)
    assert json.loads(out.getvalue()) == campaign_export(campaign=demo_campaign)
    assert out.getvalue().startswith('{\n  "format": "briternia-campaign",')  # indent 2


def test_export_of_an_unknown_campaign_is_a_command_error(db):
    with pytest.raises(CommandError, match="There is no campaign 4040"):
        call_command("export_campaign", "4040", stdout=StringIO())


def test_import_of_a_malformed_file_is_a_command_error_naming_the_problems(demo_campaign, tmp_path):
    document = campaign_export(campaign=demo_campaign)
    document["provinces"][0]["terrain"] = "lava"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    before = row_counts()

    with pytest.raises(CommandError) as refusal:
        call_command("import_campaign", str(path), stdout=StringIO())

    assert "nothing was imported" in str(refusal.value)
    assert "provinces[0] (number 1): \"terrain\": Value 'lava' is not a valid choice." in str(refusal.value)
    assert row_counts() == before


def test_import_of_a_file_that_is_not_json_is_a_command_error(db, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("import_campaign", str(path), stdout=StringIO())


# --- malformed documents ---------------------------------------------------------------------


def test_a_document_of_another_format_is_refused(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    document["format"] = "a-map"
    assert refused(document) == [
        "The document's format is 'a-map': it should be 'briternia-campaign' (a Briternia campaign export)."
    ]
    assert refused({"name": "not an export"}) == [
        "The document's format is missing: it should be 'briternia-campaign' (a Briternia campaign export)."
    ]


def test_a_document_of_another_version_is_refused(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    document["version"] = 2
    assert refused(document) == ["The document's version is 2: this site reads version 1."]


def test_a_document_that_is_not_an_object_is_refused(db):
    assert refused(["briternia-campaign"]) == ["The document: expected an object, found ['briternia-campaign']."]


def test_a_province_without_its_number_is_refused(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    del document["provinces"][5]["number"]
    messages = refused(document)
    assert 'provinces[5]: "number" is missing.' in messages
    # What referred to province 6 is reported too, rather than imported without it.
    assert any("province 6 is not among the document's provinces" in m for m in messages)


def test_an_army_in_a_province_that_does_not_exist_is_refused(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    index = kingdom_index(document, "Ostland")
    document["kingdoms"][index]["armies"][0]["province"] = 999
    assert refused(document) == [
        f'kingdoms[{index}] "Ostland" / armies[0] "1st Army": province 999 is not among the document\'s provinces.'
    ]


def test_every_problem_of_a_document_is_reported_at_once(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    ostland = kingdom_index(document, "Ostland")
    document["campaign"]["time_zone"] = "Mars/Olympus"
    document["provinces"][2]["razed"] = document["provinces"][2]["fortified"] = True
    document["provinces"][3]["razd"] = True
    document["kingdoms"][ostland]["players"] = ["mallory"]
    document["kingdoms"][ostland]["treasury"][0]["amount"] = "6000"
    document["kingdoms"][ostland]["armory"][0]["bearer"]["unit"] = 40
    duplicate = len(document["kingdoms"])
    document["kingdoms"].append(copy.deepcopy(document["kingdoms"][ostland]))
    document["dice_rolls"][0]["kingdoms"] = ["Nowhere"]
    units = len(document["kingdoms"][ostland]["armies"][0]["units"])

    messages = refused(document)

    expected = [
        "campaign: \"time_zone\": 'Mars/Olympus' is not a time zone name (for example Europe/London).",
        "provinces[2] (number 3): a province cannot be both razed and fortified.",
        'provinces[3] (number 4): unknown key "razd".',
        f'kingdoms[{ostland}] "Ostland" / players: the user "mallory" is not among the document\'s users.',
        f'kingdoms[{ostland}] "Ostland" / treasury[0]: "amount" should be an integer, not \'6000\'.',
        f'kingdoms[{duplicate}] "Ostland": there are two kingdoms called "Ostland".',
        f'kingdoms[{ostland}] "Ostland" / armory[0] / bearer: 1st Army has no unit at place 40 (it has {units} units).',
        'dice_rolls[0] / kingdoms: there is no kingdom called "Nowhere".',
        'users "alice": neither the organizer nor a player of any kingdom.',
    ]
    assert [m for m in expected if m not in messages] == []


def test_a_second_living_warlord_is_refused_before_the_database_sees_it(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    ostland = document["kingdoms"][kingdom_index(document, "Ostland")]
    ostland["armies"][0]["units"][1]["character"]["role"] = "warlord"
    assert refused(document) == ['kingdom "Ostland": a kingdom has one living Warlord, not 2.']


def test_a_database_refusal_half_way_through_the_import_saves_nothing(eventful_campaign, monkeypatch):
    document = campaign_export(campaign=eventful_campaign)

    def refuse(*args, **kwargs):
        raise IntegrityError("simulated refusal")

    # The dice rolls are written last: everything before them must be undone.
    monkeypatch.setattr(DiceRoll.objects, "bulk_create", refuse)
    assert refused(document) == ["The document breaks a rule of the database: simulated refusal"]
