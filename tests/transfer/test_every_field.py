"""Every field of every campaign model travels: a campaign whose every concrete field holds a value
other than its default is exported, imported beside it, and compared row for row and field by field.

The models are those tests/transfer/rows.py counts as a campaign's (every model a chain of foreign
keys leads to a Campaign, from `apps.get_models()`), less transfer/exceptions.py's declared
exceptions. Plain fields are filled generically by their type (`non_default`): a field added later
to a model gets a value other than its default with no edit here, and fails the comparison, naming
the model and the field, until the export carries it. The rows and their references are staged
directly, a few rows per model (not the played demo campaign), so the test is fast; the references a
model's JSON keeps (ids of armies, kingdoms, characters: transfer/references.py) are given real ids,
since the import checks what they name.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.apps import apps
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from orders import entries as codec
from tests.transfer.rows import CampaignRows, campaign_models, differences, ids_set_apart
from transfer.campaign_models import (
    Alliance,
    AllianceEndAnnouncement,
    ArmoryItem,
    Army,
    ArmyMovement,
    Battle,
    BattleSupport,
    Campaign,
    CampaignSchedule,
    CapturedRaider,
    Character,
    DeadlineChange,
    Delivery,
    DiceRoll,
    Email,
    ExperienceEntry,
    Kingdom,
    Message,
    MissionEffect,
    OrderSheet,
    OrdersReminder,
    OrderSubmission,
    Province,
    ReportEmail,
    ResultsReminder,
    RosterAdjustment,
    TombRaiderEntry,
    TombRaiderForce,
    TreasuryEntry,
    Turn,
    TurnEvent,
    TurnMap,
    TurnReport,
    TurnSummarySheet,
    Unit,
    User,
)
from transfer.export import campaign_export
from transfer.importer import campaign_import

BASE_TIME = datetime(2023, 5, 17, 8, 45, 12, 345678, tzinfo=UTC)


class Filler:
    """Values other than a field's default, by the field's type; each time a new one, so the times
    of one row differ (a deadline after the other) and texts are told apart."""

    def __init__(self) -> None:
        self.count = 0

    def value(self, field: models.Field) -> Any:  # type: ignore[type-arg]
        self.count += 1
        default = field.get_default() if field.has_default() else None
        if field.choices:
            values = [value for value, _ in field.flatchoices if value not in ("", default)]
            return values[self.count % len(values)]
        if isinstance(field, models.BooleanField):
            return not default if default is not None else True
        if isinstance(field, models.IntegerField):
            low = max([0, *(v.limit_value for v in field.validators if isinstance(v, MinValueValidator))])
            high = min([10**6, *(v.limit_value for v in field.validators if isinstance(v, MaxValueValidator))])
            start = default if isinstance(default, int) else low
            return min(max(start + 2, low), high) if start + 2 <= high else max(start - 1, low)
        if isinstance(field, models.FloatField):
            return 1.25 + self.count
        if isinstance(field, models.DateTimeField):
            return BASE_TIME + timedelta(hours=self.count)
        if isinstance(field, models.DateField):
            return date(2023, 5, 1) + timedelta(days=self.count)
        if isinstance(field, models.TimeField):
            return time(7, self.count % 60, 30)
        if isinstance(field, models.BinaryField):
            return b"\x00\xff bytes " + str(self.count).encode()
        if isinstance(field, models.JSONField):
            return [f"{field.name} {self.count}"] if isinstance(default, list) else {"value": self.count}
        if isinstance(field, models.EmailField):
            return f"field{self.count}@every.example"
        if isinstance(field, models.CharField | models.TextField):
            text = f"{field.name} {self.count}"
            return text[-field.max_length :] if field.max_length else text
        raise AssertionError(f"test_every_field has no value for {field.model._meta.label}.{field.name} ({field})")


FILLER = Filler()


def make(model: type[models.Model], **given: Any) -> Any:
    """A saved row of `model`: `given` as given, every other plain field a value other than its
    default (Filler), relations not given left null."""
    values = {}
    for field in model._meta.concrete_fields:
        if field.primary_key or field.name in given or field.is_relation:
            continue
        values[field.name] = FILLER.value(field)
    row = model(**values, **given)
    row.save()
    # auto_now and auto_now_add stamp the time of the save: the values wanted, written again.
    stamped = {
        f.name: values[f.name]
        for f in model._meta.concrete_fields
        if f.name in values and (getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False))
    }
    if stamped:
        model._base_manager.filter(pk=row.pk).update(**stamped)
        for name, value in stamped.items():
            setattr(row, name, value)
    return row


def entries(ids: dict[str, int]) -> dict[str, Any]:
    """An order sheet's entries with one entry in every part, every key of it set, references naming
    real rows (`ids` by the reference's key), as the sheet's codec writes them."""

    def value(section: str, entry_field: codec.EntryField) -> Any:
        if entry_field.name in ids:
            return ids[entry_field.name]
        if entry_field.choices:
            return [c for c in entry_field.choices if c][0]
        return {
            codec.INT: 3,
            codec.INT_OR_NULL: 4,
            codec.STR: f"{section} {entry_field.name}",
            codec.BOOL: True,
            codec.INT_LIST: [5, 6],
        }[entry_field.kind]

    raw = {name: [{f.name: value(name, f) for f in section.fields}] for name, section in codec.SECTIONS.items()}
    return codec.sheet_to_json(codec.sheet_from_json(raw))


def stage_campaign() -> Campaign:
    """A small campaign with rows of every campaign model, every field set."""
    organizer = User.objects.create(username="every-organizer", email="organizer@every.example")
    players = [User.objects.create(username=f"every-player-{n}", email=f"p{n}@every.example") for n in (1, 2)]
    campaign = make(Campaign, organizer=organizer, time_zone="America/New_York")
    provinces = [make(Province, campaign=campaign, number=n, razed=n == 1, fortified=n == 2) for n in (1, 2, 3)]
    provinces[0].neighbours.add(provinces[1], provinces[2])
    kingdoms = [
        make(Kingdom, campaign=campaign, name=name, army_type=army_type, capitol=province)
        for name, army_type, province in (
            ("Ostland", "empire", provinces[0]),
            ("Red Fang", "orcs-and-goblins", provinces[1]),
        )
    ]
    for kingdom, player in zip(kingdoms, players, strict=True):
        kingdom.players.add(player)
    for province, kingdom in zip(provinces, kingdoms, strict=False):
        province.controller = kingdom
        province.save()
    armies = [
        make(Army, kingdom=kingdom, name=f"{kingdom.name} Host", province=p, fortified_in=p)
        for kingdom, p in zip(kingdoms, provinces[1:], strict=True)
    ]
    for army in armies:
        make(ArmyMovement, army=army, province=provinces[0])
        ledger = [make(ExperienceEntry, army=army) for _ in range(2)]
        army.experience = sum(entry.amount for entry in ledger)  # the import holds the ledger to it
        army.save()
        make(Delivery, army=army)
        make(RosterAdjustment, army=army, made_by=organizer)
    for kingdom in kingdoms:
        make(TreasuryEntry, kingdom=kingdom)
    units = [make(Unit, army=army, position=0, veteran_level=2) for army in armies]
    make(Unit, army=armies[0], veteran_level=3)  # its position, after the first's
    characters = [make(Character, unit=unit, kingdom=army.kingdom) for unit, army in zip(units, armies, strict=True)]
    make(ArmoryItem, kingdom=kingdoms[0], bearer=units[0], name="Sword of Every Field")
    force = make(TombRaiderForce, kingdom=kingdoms[0])
    make(TombRaiderEntry, force=force, models_count=5, out_of_action=2)
    first, second = sorted(kingdoms, key=lambda k: k.pk)
    make(Alliance, campaign=campaign, first=first, second=second, broken_by=first)
    effect = make(
        MissionEffect,
        campaign=campaign,
        kingdom=kingdoms[0],
        target=kingdoms[1],
        target_army=armies[1],
        target_character=characters[1],
    )
    captive = make(CapturedRaider, campaign=campaign, captor=kingdoms[0], owner=kingdoms[1])
    stage_turns(campaign, organizer, kingdoms, armies, characters, {"effect": effect.pk, "captive": captive.pk})
    return campaign


def stage_turns(
    campaign: Campaign,
    organizer: Any,
    kingdoms: list[Kingdom],
    armies: list[Army],
    characters: list[Character],
    places: dict[str, int],
) -> None:
    """The dice, the messages, the orders app's, the resolution's, the reports' and the outbox's rows."""
    ostland, red_fang = kingdoms
    province = armies[0].province
    make(
        DiceRoll,
        campaign=campaign,
        stream=f"warlord-free-roll:{ostland.pk}",
        faces=[3, 5],
        kingdoms=[ostland.pk],
        armies=[armies[0].pk],
    )
    make(
        DiceRoll,
        campaign=campaign,
        stream=f"scenario:{province.number}:{armies[0].pk}",
        faces=[6],
        kingdoms=[],
        armies=[],
    )
    message = make(Message, campaign=campaign, sender=organizer, sender_kingdom=ostland, announcement=False)
    message.recipients.add(red_fang)
    make(Message, campaign=campaign, sender=organizer, sender_kingdom=None, announcement=True)
    make(CampaignSchedule, campaign=campaign)
    turn = make(Turn, campaign=campaign, number=1)
    change = make(DeadlineChange, turn=turn, changed_by=organizer)
    references = {
        "army": armies[0].pk,
        "kingdom": red_fang.pk,
        "target_kingdom": red_fang.pk,
        "target_army": armies[1].pk,
        "target_character": characters[1].pk,
        **places,
    }
    sheet = make(OrderSheet, turn=turn, kingdom=ostland, entries=entries(references))
    submission = make(
        OrderSubmission, sheet=sheet, submitted_by=organizer, entries=entries(references), warnings=["a warning"]
    )
    reminder = make(OrdersReminder, turn=turn, kingdom=ostland)
    make(ResultsReminder, turn=turn, kingdom=ostland)
    make(AllianceEndAnnouncement, turn=turn, kingdom=ostland, alliance=Alliance.objects.get(), entered_by=organizer)
    make(
        TurnEvent,
        turn=turn,
        sequence=1,
        code="battle-scheduled",
        kingdom=ostland,
        army=armies[0],
        data={"opponent_kingdom": red_fang.pk, "opponent_army": armies[1].pk, "note": "kept as it is"},
    )
    battle = make(
        Battle,
        turn=turn,
        province=province,
        attacker_kingdom=ostland,
        attacker_army=armies[0],
        defender_kingdom=red_fang,
        garrison_kingdom=ostland,
        defender_army=armies[1],
        ruled_by=organizer,
        mission_detail={"target_army": armies[1].pk, "target_character": characters[1].pk},
        guerrilla={"army": armies[0].pk, "target": armies[1].pk},
        old_wounds=[{"character": characters[0].pk, "army": armies[0].pk, "roll": 4}],
    )
    make(BattleSupport, battle=battle, army=armies[1], kingdom=red_fang)
    unit = characters[0].unit
    make(
        TurnSummarySheet,
        battle=battle,
        kingdom=ostland,
        casualties=[
            {
                "unit": unit.pk,
                "models_lost": 1,
                "champion": True,
                "standard": False,
                "musician": True,
                "one_use_used": True,
            }
        ],
        characters_lost=[characters[0].pk],
        injury_rerolls={str(characters[0].pk): "reroll"},
        warlord_heir=characters[0],
        story_army=armies[0],
        support_withdrawn=[armies[1].pk],
        depots_captured=[{"army": armies[1].pk, "by": armies[0].pk}],
        carts_recaptured=[armies[0].pk],
        raiders=[{"entry": "Scout", "killed": 1, "injured": 0}],
        played_by_player=organizer,
        entered_by=organizer,
    )
    make(TurnMap, turn=turn)
    report = make(
        TurnReport,
        turn=turn,
        kind="kingdom",
        kingdom=ostland,
        snapshot={"armies": [{"id": armies[0].pk, "name": armies[0].name}]},
    )
    make(TurnReport, turn=turn, kind="scenario", battle=battle)
    make(
        Email,
        campaign=campaign,
        turn=turn,
        key=f"orders-receipt:{submission.pk}",
        to=["alice@every.example"],
    )
    make(Email, campaign=campaign, turn=turn, key=f"deadline-change:{change.pk}", to=["bob@every.example"])
    make(Email, campaign=campaign, turn=turn, key=f"orders-reminder:{reminder.pk}", to=["bob@every.example"])
    make(
        ReportEmail,
        campaign=campaign,
        turn=turn,
        report=report,
        user=organizer,
        key=f"report:{report.pk}:organizer@every.example",
        to=["organizer@every.example"],
    )


def fields_left_default(campaign: Campaign) -> list[str]:
    """The concrete fields of the campaign's models that hold only their default (or null) in every
    staged row: what the comparison would not prove carried."""
    found = []
    for label, paths in campaign_models().items():
        model = apps.get_model(label)
        ids: set[Any] = set()
        for path in paths:
            ids |= set(model._base_manager.filter(**{path: campaign.pk}).values_list("pk", flat=True))
        rows = list(model._base_manager.filter(pk__in=ids))
        if not rows:
            found.append(f"{label} (no row)")
            continue
        for field in model._meta.concrete_fields:
            if field.primary_key:
                continue
            default = field.get_default() if field.has_default() else None
            values = [getattr(row, field.attname) for row in rows]
            if all(v is None or v == default or (v in ("", [], {}) and not field.is_relation) for v in values):
                found.append(f"{label}.{field.name}")
    return found


def fields_lost(original: dict[str, Counter[Any]], copy: dict[str, Counter[Any]]) -> list[str]:
    """Model by model, the fields in which the copy's rows differ from the original's: each row only
    the original has, against the copy's row that agrees with it on the most fields."""
    lost = set()
    for label, found in differences(original, copy).items():
        only_original = found["only in the original"][1]
        only_copy = found["only in the copy"][1]
        if not only_copy:
            lost.add(f"{label} (rows missing)")
            continue
        for row in only_original:
            mine = dict(row)
            nearest = max((dict(other) for other in only_copy), key=lambda o: sum(o[k] == v for k, v in mine.items()))
            lost |= {f"{label}.{name}" for name, value in mine.items() if nearest.get(name) != value}
    return sorted(lost)


def test_every_field_of_every_campaign_model_travels(db):
    with ids_set_apart():
        original = stage_campaign()
        assert fields_left_default(original) == []  # the staging sets every field, or it proves nothing
        copy = campaign_import(document=json.loads(json.dumps(campaign_export(campaign=original))))
        rows, copy_rows = CampaignRows(original).all(), CampaignRows(copy).all()
    assert fields_lost(rows, copy_rows) == []
