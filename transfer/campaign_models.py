"""Every model a campaign's document carries, imported here once: the other modules of the
package take them from here, so a model that moves to another app changes one line."""

from django.contrib.auth import get_user_model

from battles.models import AllianceEndAnnouncement, Battle, BattleSupport, ResultsReminder, TurnSummarySheet
from diplomacy.models import Message
from kingdoms.models import (
    Alliance,
    ArmoryItem,
    Army,
    ArmyMovement,
    Campaign,
    CapturedRaider,
    Character,
    Delivery,
    ExperienceEntry,
    Kingdom,
    MissionEffect,
    Province,
    ReportPreferences,
    RosterAdjustment,
    TombRaiderEntry,
    TombRaiderForce,
    TreasuryEntry,
    Unit,
)
from orders.models import CampaignSchedule, DeadlineChange, OrderSheet, OrdersReminder, OrderSubmission
from outbox.models import Email
from reports.models import ReportEmail, TurnMap, TurnReport
from turns.models import DiceRoll, Turn, TurnEvent

User = get_user_model()

__all__ = [
    "AllianceEndAnnouncement",
    "Alliance",
    "ArmoryItem",
    "Army",
    "ArmyMovement",
    "Battle",
    "BattleSupport",
    "Campaign",
    "CampaignSchedule",
    "CapturedRaider",
    "Character",
    "DeadlineChange",
    "Delivery",
    "DiceRoll",
    "Email",
    "ExperienceEntry",
    "Kingdom",
    "Message",
    "MissionEffect",
    "OrderSheet",
    "OrderSubmission",
    "OrdersReminder",
    "Province",
    "ReportEmail",
    "ReportPreferences",
    "RosterAdjustment",
    "ResultsReminder",
    "TombRaiderEntry",
    "TombRaiderForce",
    "TreasuryEntry",
    "Turn",
    "TurnEvent",
    "TurnMap",
    "TurnReport",
    "TurnSummarySheet",
    "Unit",
    "User",
]
