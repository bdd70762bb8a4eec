"""Helpers of the transfer tests: counting rows, a round trip through JSON text, a refusal."""

import copy
import json
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle, BattleSupport
from briternia.errors import DomainError
from kingdoms.models import (
    ArmoryItem,
    Army,
    ArmyMovement,
    Campaign,
    Character,
    Kingdom,
    Province,
    TombRaiderEntry,
    TombRaiderForce,
    TreasuryEntry,
    Unit,
)
from orders.models import CampaignSchedule, DeadlineChange, OrderSheet, OrdersReminder, OrderSubmission
from outbox.models import Email
from reports.models import ReportEmail, TurnMap, TurnReport
from transfer.export import campaign_export
from transfer.importer import campaign_import
from turns.models import DiceRoll, Turn, TurnEvent

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
    CampaignSchedule,
    Turn,
    DeadlineChange,
    OrderSheet,
    OrderSubmission,
    OrdersReminder,
    TurnEvent,
    Battle,
    BattleSupport,
    TurnMap,
    TurnReport,
    Email,
    ReportEmail,
]
LONG_AGO = datetime(2024, 3, 1, 12, 30, 15, 123456, tzinfo=UTC)
# Stand-ins for a rendered report and the map's picture: bytes that are not text.
PDF = b"%PDF-1.7\n\x00\xff\xfe stand-in"
PICTURE = b"\x89PNG\r\n\x1a\n stand-in"


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
        "tomb raider forces": TombRaiderForce.objects.filter(**in_campaign).count(),
        "tomb raider entries": TombRaiderEntry.objects.filter(force__kingdom__campaign=campaign).count(),
        "dice rolls": campaign.dice_rolls.count(),
        "schedules": CampaignSchedule.objects.filter(campaign=campaign).count(),
        "turns": campaign.turns.count(),
        "deadline changes": DeadlineChange.objects.filter(turn__campaign=campaign).count(),
        "order sheets": OrderSheet.objects.filter(turn__campaign=campaign).count(),
        "submissions": OrderSubmission.objects.filter(sheet__turn__campaign=campaign).count(),
        "reminders": OrdersReminder.objects.filter(turn__campaign=campaign).count(),
        "turn events": TurnEvent.objects.filter(turn__campaign=campaign).count(),
        "battles": Battle.objects.filter(turn__campaign=campaign).count(),
        "battle supports": BattleSupport.objects.filter(battle__turn__campaign=campaign).count(),
    }


# What only a resolved turn has: see resolved_campaign.
RESOLUTION_COUNTS = ("turn events", "battles", "battle supports")


def kingdom_index(document: dict, name: str) -> int:
    return next(i for i, k in enumerate(document["kingdoms"]) if k["name"] == name)


def round_trip(campaign: Campaign) -> Campaign:
    # Through JSON text, as the commands do: the document must survive serialisation.
    document = json.loads(json.dumps(campaign_export(campaign=campaign)))
    return campaign_import(document=document)


def as_version(document: dict, version: int) -> dict:
    """`document` as an older version of the site wrote it: without what came since (written out
    here, not taken from transfer/schema.py). Version 4 made the "emails" every email of the
    campaign (version 3's were the reports' alone, each to one address, with no text kept);
    version 3 added the reports: a turn's "map" and "reports", the users' "report_preferences"
    and the "emails"; version 2 added the orders: "schedule" and "turns". Version 5 named the
    ids in a dice roll's stream by natural key: before, the stream held the ids of the site it was
    written on (made up here)."""
    older = copy.deepcopy(document)
    older["version"] = version
    if version < 5:
        for roll in older["dice_rolls"]:
            roll["stream"] = stream_as_written(older, roll["stream"])
    if version < 4:
        older["emails"] = [
            {
                "report": email["report_email"]["report"],
                "user": email["report_email"]["user"],
                "to": address,
                "attach_pdf": email["report_email"]["attach_pdf"],
                **{key: email[key] for key in ("status", "attempts", "last_error")},
                **{key: email[key] for key in ("created_at", "claimed_at", "sent_at")},
            }
            for email in older["emails"]
            if email["report_email"] is not None
            for address in email["to"]
        ]
    if version < 3:
        del older["emails"]
        for user in older["users"]:
            del user["report_preferences"]
        for turn in older["turns"]:
            del turn["map"], turn["reports"]
    if version < 2:
        del older["schedule"], older["turns"]
    return older


def stream_as_written(document: dict, stream: str | dict, first_id: int = 900) -> str:
    """A roll's stream as a version 4 document held it: with ids, here `first_id` + the place of its
    kingdom in the document, or of its army among every kingdom's armies."""
    if isinstance(stream, str):
        return stream
    if stream["prefix"] == "warlord-free-roll":
        kingdoms = [k["name"] for k in document["kingdoms"]]
        return f"warlord-free-roll:{first_id + kingdoms.index(stream['kingdom'])}"
    armies = [[k["name"], a["name"]] for k in document["kingdoms"] for a in k["armies"]]
    return f"scenario:{stream['province']}:{first_id + armies.index(stream['army'])}"


def refused(document: object) -> list[str]:
    """Import `document`, expecting a refusal that leaves every table as it was."""
    before = row_counts()
    with pytest.raises(DomainError) as refusal:
        campaign_import(document=document)
    assert row_counts() == before
    return refusal.value.messages
