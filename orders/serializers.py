"""API serializers for turns and order sheets."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from briternia.fields import IntegerSerializerField, list_bound
from kernel.events import Event
from rulebook.experience.spending import PurchaseKind
from rulebook.ruins_and_tomb_raiders.rival_mission_orders import RIVAL_LISTS, WHEN_IT_TAKES_EFFECT
from rulebook.ruins_and_tomb_raiders.rival_missions import CaptiveFate
from rulebook.ruins_and_tomb_raiders.tomb_raid import MissionKind
from rulebook.turn.write_orders.problems import SheetProblemCode
from rulebook.turn.write_orders.records import (
    DEFEND_CHOICES,
    DEFEND_WITH_ARMY,
    DISASTER_CHOICES,
    OrderKind,
    SheetEntries,
)
from turns.models import Turn, TurnEvent

from .entries import SHEET_LIST_MAX, SHEET_LIST_WHY, sheet_from_json
from .models import OrderSheet


class TurnSerializer(serializers.ModelSerializer):
    campaign = IntegerSerializerField(source="campaign_id")
    paused = serializers.SerializerMethodField()

    class Meta:
        model = Turn
        fields = [
            "id",
            "campaign",
            "number",
            "status",
            "orders_deadline",
            "results_deadline",
            "paused",
            # The organizer asked for the phase then; it runs within minutes (the sweep takes it up).
            "orders_requested_at",
            "aftermath_requested_at",
        ]

    def get_paused(self, turn: Turn) -> bool:
        from .services.turns import schedule_of

        return schedule_of(turn.campaign).paused


class ArmyOrderInput(serializers.Serializer):
    army = IntegerSerializerField()
    kind = serializers.ChoiceField(choices=[k.value for k in OrderKind], default="hold")
    target = IntegerSerializerField(required=False, allow_null=True)
    support = IntegerSerializerField(required=False, allow_null=True)
    path = serializers.ListField(child=IntegerSerializerField(), required=False, default=list, max_length=2)
    disaster_choice = serializers.ChoiceField(choices=DISASTER_CHOICES, default="casualties")
    pay_for_depot = serializers.BooleanField(default=True)
    defend_with = serializers.ChoiceField(
        choices=DEFEND_CHOICES,
        default=DEFEND_WITH_ARMY,
        help_text="If the army is attacked in a town, city or capitol of yours (where it stands, or the one it "
        "moves into): 'army' (the default) fights with the garrison supporting it, 'garrison' fights with the "
        "army supporting it (Battle for Towns, Cities, and Capitols).",
    )
    take_control = serializers.BooleanField(
        default=False,
        help_text="Allies, Invasion: the army takes control of the ally's province it moves into (this breaks the "
        "alliance). Without it an army moving through an ally's province takes nothing.",
    )


class CreateArmyInput(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    points = IntegerSerializerField()
    province = IntegerSerializerField()


class UpgradeArmyInput(serializers.Serializer):
    army = IntegerSerializerField()
    points = IntegerSerializerField()


class ArmyRefInput(serializers.Serializer):
    army = IntegerSerializerField()


class ProvinceRefInput(serializers.Serializer):
    province = IntegerSerializerField()


class LossesFromInput(serializers.Serializer):
    army = IntegerSerializerField()
    unit = serializers.CharField(
        max_length=100, help_text="The unit of the army's list (by name) that takes its losses first this turn."
    )


class PurchaseInput(serializers.Serializer):
    """A purchase with the army's experience (Spending Experience); arrives or acts as its kind says."""

    army = IntegerSerializerField()
    kind = serializers.ChoiceField(
        choices=list(PurchaseKind.ALL),
        help_text="recruits (models for the unit `unit`, or a new unit `name`/`category` at `points` a model, "
        "1 experience per 10 points), equipment (`points` for the unit `unit`, 1 a point), item (the magic item "
        "`name` of `points` for the character `unit`; `common`, `runic`), supply-depot (20), veteran (the unit "
        "`unit` to its next level, 10), advancement (a roll for the General `unit`: 25, Elves 35, undead 40), "
        "promotion (the Warlord `unit` to a Lord of `points` base points: the difference), potential (the "
        "Magician `unit` with the Potential ability gains one magic level, 75, once). Recruits, equipment, "
        "items and depots arrive at the start of the turn after next.",
    )
    unit = serializers.CharField(max_length=100, required=False, default="", allow_blank=True)
    models = IntegerSerializerField(required=False, default=0, min_value=0)
    points = IntegerSerializerField(required=False, default=0, min_value=0)
    name = serializers.CharField(max_length=100, required=False, default="", allow_blank=True)
    category = serializers.CharField(max_length=16, required=False, default="", allow_blank=True)
    common = serializers.BooleanField(required=False, default=False)
    runic = serializers.BooleanField(required=False, default=False)


class KingdomRefInput(serializers.Serializer):
    kingdom = IntegerSerializerField()


class TransferGoldInput(serializers.Serializer):
    kingdom = IntegerSerializerField()
    gold = IntegerSerializerField()


class TransferItemInput(serializers.Serializer):
    kingdom = IntegerSerializerField()
    item = serializers.CharField(max_length=100, help_text="The magic item's name, as on the army list or armory.")


class LandDealInput(serializers.Serializer):
    kingdom = IntegerSerializerField(help_text="The other kingdom of the deal.")
    province = IntegerSerializerField(
        required=False, allow_null=True, default=None, help_text="The province (number) this kingdom gives, if any."
    )
    gold = IntegerSerializerField(default=0, help_text="The gold this kingdom pays, paid at once.")


class TombRaiderMissionInput(serializers.Serializer):
    """Using Tomb Raiders: the Tomb Raiders' one mission of the turn (100 gold from the treasury)."""

    kind = serializers.ChoiceField(
        choices=[k.value for k in MissionKind],
        default=MissionKind.TOMB_RAID.value,
        help_text="tomb-raid: a raid on a ruin; reconnaissance or sabotage: a mission against a rival kingdom "
        "(Reconnaissance; Sabotage).",
    )
    province = IntegerSerializerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Tomb Raid: the province (number) with the ruins; one of your armies must be ordered to move "
        "into it this turn, and waits on the raid: it moves in only if the raid is a success (Ruins).",
    )
    pay_change_fee = serializers.BooleanField(
        default=False,
        help_text="Your Tomb Raiders were changed this turn: pay 5 gold a point added, with the 100, to send them "
        "all the same (Maintaining / Changing Tomb Raiders).",
    )
    target_kingdom = IntegerSerializerField(
        required=False,
        allow_null=True,
        help_text="Reconnaissance, Sabotage: the rival kingdom (id): another kingdom still in the game, an ally "
        "too, never the Ancient Dead.",
    )
    desired = serializers.ChoiceField(
        choices=[""] + [m.mission for _, listed in RIVAL_LISTS.values() for m in listed],
        required=False,
        help_text="Reconnaissance, Sabotage: the desired mission of the kind's list. When each takes effect: "
        + "; ".join(f"{mission}: {when}" for mission, when in WHEN_IT_TAKES_EFFECT.items())
        + ".",
    )
    target_army = IntegerSerializerField(
        required=False,
        allow_null=True,
        help_text="Army Statistics, Army Orders, Misdirection (only): the rival's army (id), one of theirs that "
        "fought a battle of an earlier turn.",
    )
    target_character = IntegerSerializerField(
        required=False,
        allow_null=True,
        help_text="Character Bio (only): the rival's character (id), their Warlord or the General of an army you "
        "may name.",
    )


class CaptiveOrderInput(serializers.Serializer):
    """Reconnaissance, Sabotage: "A kingdom may do anything it wishes with a captured Tomb Raider"."""

    captive = IntegerSerializerField(
        help_text="A captive this kingdom holds: its id, as GET /api/kingdoms/{id}/tomb-raiders/ lists it "
        "(`captives`, held: true)."
    )
    fate = serializers.ChoiceField(
        choices=[CaptiveFate.RELEASED.value, CaptiveFate.EXECUTED.value],
        help_text="released: the model goes back to its owner's Tomb Raiders when the turn resolves; executed: it "
        "is gone. A ransom is agreed between the players and paid with the owner's Transfer of Gold.",
    )


class MissionUseInput(serializers.Serializer):
    """Reconnaissance and Sabotage: an effect your Tomb Raiders earned, used on this sheet."""

    effect = IntegerSerializerField(
        help_text="The effect's id (GET /api/turns/{id}/sheet/ lists yours under `usable_effects`): Army Orders "
        "from the turn after its success, Destroy Communication within the two turns after it."
    )
    army = IntegerSerializerField(
        required=False,
        allow_null=True,
        default=None,
        help_text='Army Orders: one of your armies, which holds "in response" if the army spied on is ordered '
        "into its province or one adjacent to it. Destroy Communication: the army (not yours) whose support "
        "from or to the target is cancelled, if it gives one this turn.",
    )


def _bounded(field: str) -> dict[str, Any]:
    """Every list of an order sheet (orders.entries.SHEET_LIST_MAX, the form's and a mail's bound too):
    more is refused whole before an entry is read."""
    return list_bound(field, SHEET_LIST_MAX, SHEET_LIST_WHY)


# OrderSheetInput.of's fields, built once per thread.
_kept_fields = threading.local()


class OrderSheetInput(serializers.Serializer):
    orders = ArmyOrderInput(
        many=True,
        **_bounded("orders"),
        default=list,
        help_text="One order per army (an army left out holds). Required with `submit: true`: give [] for every "
        "army to hold.",
    )
    creations = CreateArmyInput(many=True, **_bounded("creations"), default=list)
    upgrades = UpgradeArmyInput(many=True, **_bounded("upgrades"), default=list)
    depots = ArmyRefInput(many=True, **_bounded("depots"), default=list)
    garrisons = ProvinceRefInput(many=True, **_bounded("garrisons"), default=list)
    losses = LossesFromInput(
        many=True,
        **_bounded("losses"),
        default=list,
        help_text="Foraging and Guerrilla Tactics losses: the unit that takes them first.",
    )
    purchases = PurchaseInput(
        many=True, **_bounded("purchases"), default=list, help_text="What each army buys with its experience."
    )
    alliances = KingdomRefInput(
        many=True,
        **_bounded("alliances"),
        default=list,
        help_text="Allies: the kingdom this sheet declares an alliance with (1,000 gold; both must declare it "
        "the same turn).",
    )
    gold_transfers = TransferGoldInput(
        many=True,
        **_bounded("gold_transfers"),
        default=list,
        help_text="Transfer of Gold: gold sent to another kingdom; the sender pays a 10% fee on top, the gold "
        "arrives at the beginning of the turn after next.",
    )
    item_transfers = TransferItemInput(
        many=True,
        **_bounded("item_transfers"),
        default=list,
        help_text="Transfer of Gold (items): a magic item the kingdom holds, sent to another kingdom; the sender "
        "pays 10% of its gold cost (double its points), it arrives at the beginning of the turn after next.",
    )
    alliance_ends = KingdomRefInput(
        many=True,
        **_bounded("alliance_ends"),
        default=list,
        help_text="Allies, Announcement: refused (code alliance-end-at-end-of-turn). The end of an alliance is "
        "announced during the End of Turn: on a turn summary sheet (announce_alliance_end) or with "
        "POST /api/turns/{id}/alliance-end/ while the turn's battles are played.",
    )
    land_deals = LandDealInput(
        many=True,
        **_bounded("land_deals"),
        default=list,
        help_text="Land Sales: this kingdom's side of a deal with another (the province it gives, the gold it "
        "pays); both must declare it the same turn. One province a turn per receiving kingdom; no town or city.",
    )
    capitol_moves = ProvinceRefInput(
        many=True,
        **_bounded("capitol_moves"),
        default=list,
        help_text="Loss of the Capitol: the city (its Warlord standing in it) the capitol moves to, for 1,000 gold.",
    )
    missions = TombRaiderMissionInput(
        many=True,
        **_bounded("missions"),
        default=list,
        help_text="Using Tomb Raiders: at most one mission a turn, 100 gold (and the change fee it pays) taken from "
        "the treasury when the turn resolves, if it is still able to go then.",
    )
    captive_orders = CaptiveOrderInput(
        many=True,
        **_bounded("captive_orders"),
        default=list,
        help_text="The fate of captured Tomb Raiders this kingdom holds (one order a captive), settled when the "
        "turn resolves; both kingdoms are told.",
    )
    mission_uses = MissionUseInput(
        many=True,
        **_bounded("mission_uses"),
        default=list,
        help_text="Reconnaissance and Sabotage: the effects earned used on this sheet (Army Orders' response, "
        "Destroy Communication's cancelled support); each once.",
    )
    submit = serializers.BooleanField(default=False, help_text="false saves a draft; true submits (all or nothing).")

    @staticmethod
    def of(data: Any) -> OrderSheetInput:
        """The input serializer of one request's `data`, with the fields this thread built for its
        first one (issue 35): REST framework deep-copies a serializer's seventeen nested list fields
        for each instance (about half of validating a sheet), and nothing of a request is kept in
        them: validating stores its state on the serializer (initial and validated data, errors),
        and this one is built per request. Kept per thread, never shared between two at once.

        Each reuse binds the kept fields to this request's serializer: a field finds its serializer
        (`parent`), and through it `root` (its `partial`, its `context`), so left bound to the
        thread's first one they would read that request's serializer (and keep its data alive).
        Only the top fields point at it; the nested ones reach it through them."""
        serializer = OrderSheetInput(data=data)
        kept = getattr(_kept_fields, "fields", None)
        if kept is None:
            _kept_fields.fields = serializer.fields
        else:
            kept.serializer = serializer  # the BindingDict binds any field added later to it
            for field in kept.values():
                field.parent = serializer  # Field.bind's assignment (bind itself refuses a second call)
            serializer.__dict__["fields"] = kept  # Serializer.fields is a cached property
        return serializer

    @staticmethod
    def thread_fields_build() -> None:
        """This thread's kept fields built now (a web worker's warm-up, briternia/warm.py), not by
        the thread's first sheet."""
        OrderSheetInput.of({})

    def validate(self, attrs: dict) -> dict:
        # A submission replaces the one before: one whose orders were lost on the way (a client that
        # sent none) must not turn every army to holding without a word.
        if attrs.get("submit") and "orders" not in self.initial_data:
            raise serializers.ValidationError(
                {"orders": ["A submission lists its orders: give [] for every army to hold."]}
            )
        return attrs

    def sheet_json(self) -> dict[str, Any]:
        """The validated sheet in the codec's JSON form (orders/entries.py): every part, without `submit`."""
        return {part: items for part, items in self.validated_data.items() if part != "submit"}

    def entries(self) -> SheetEntries:
        return sheet_from_json(self.sheet_json())


class OrderSheetSerializer(serializers.ModelSerializer):
    """The sheet as last saved (the form's working copy). `status` says what these entries are:
    "submitted" when they are the standing submission's, "draft" when they are an unsent draft
    (nothing submitted yet, or saved after the submission, which still stands: see `submitted`)."""

    kingdom = IntegerSerializerField(source="kingdom_id")
    turn = IntegerSerializerField(source="turn.number")
    status = serializers.SerializerMethodField()

    class Meta:
        model = OrderSheet
        fields = ["kingdom", "turn", "status", "entries", "updated_at", "submitted_at"]

    def get_status(self, sheet: OrderSheet) -> str:
        standing = self.context.get("submitted")
        if standing is not None and standing.entries == sheet.entries:
            return OrderSheet.Status.SUBMITTED
        return OrderSheet.Status.DRAFT


class SubmittedOrdersSerializer(serializers.Serializer):
    """The standing submission: the orders that will resolve, as received."""

    submitted_at = serializers.DateTimeField(help_text="When the request arrived: the time that decided it.")
    submitted_by = serializers.CharField(source="submitted_by.username", allow_null=True, default=None)
    entries = serializers.JSONField()
    gold = IntegerSerializerField()
    receipt = serializers.JSONField(help_text="The receipt as written when the sheet was accepted.")


class RecordSerializer(SubmittedOrdersSerializer):
    """A submission kept for the record, never resolved: it arrived in time while the turn was
    already being resolved (rules decision 520)."""

    message = serializers.CharField(
        source="receipt.record",
        default="",
        help_text="Accepted for the record at (to the millisecond), since when the turn was being resolved, "
        "and which submission the resolution uses.",
    )


class DraftSerializer(serializers.Serializer):
    """An unsent draft: saved, not submitted; it will not resolve unless submitted."""

    entries = serializers.JSONField()
    updated_at = serializers.DateTimeField()


# The four serializers above, written out for the sheet's answer (orders.api._sheet_versions): the
# same values, without building a serializer and deep-copying its fields for each answer (about half
# a millisecond of CPU an answer in the weekly rush, issue 35). The serializers stay what the API's
# schema reads; tests/orders/test_answer_data.py shows both give the same answer.
_TIME = serializers.DateTimeField()  # REST framework's representation of a time: ISO 8601, "Z" for UTC


def _time(value: Any) -> Any:
    return _TIME.to_representation(value)


def sheet_data(sheet: OrderSheet, submitted: Any) -> dict[str, Any]:
    """`OrderSheetSerializer(sheet, context={"submitted": submitted}).data`."""
    standing = submitted is not None and submitted.entries == sheet.entries
    return {
        "kingdom": int(sheet.kingdom_id),
        "turn": int(sheet.turn.number),
        "status": OrderSheet.Status.SUBMITTED if standing else OrderSheet.Status.DRAFT,
        "entries": sheet.entries,
        "updated_at": _time(sheet.updated_at),
        "submitted_at": _time(sheet.submitted_at),
    }


def submitted_data(submission: Any) -> dict[str, Any]:
    """`SubmittedOrdersSerializer(submission).data`."""
    by = submission.submitted_by
    return {
        "submitted_at": _time(submission.submitted_at),
        "submitted_by": None if by is None or by.username is None else str(by.username),
        "entries": submission.entries,
        "gold": None if submission.gold is None else int(submission.gold),
        "receipt": submission.receipt,
    }


def record_data(submission: Any) -> dict[str, Any]:
    """`RecordSerializer(submission).data`."""
    receipt = submission.receipt
    message = receipt.get("record", "") if isinstance(receipt, Mapping) else ""
    return {**submitted_data(submission), "message": None if message is None else str(message)}


def draft_data(sheet: OrderSheet) -> dict[str, Any]:
    """`DraftSerializer(sheet).data`."""
    return {"entries": sheet.entries, "updated_at": _time(sheet.updated_at)}


class SheetProblemSerializer(serializers.Serializer):
    """One problem the sheet check found (orders/services/sheets.py::order_sheet_problems_data)."""

    code = serializers.ChoiceField(choices=[c.value for c in SheetProblemCode], help_text="Stable, one per rule.")
    army = IntegerSerializerField(allow_null=True, help_text="The army whose row it belongs to (null: the sheet's).")
    armies = serializers.ListField(child=IntegerSerializerField(), help_text="Every army it concerns.")
    creation = IntegerSerializerField(
        allow_null=True, help_text="The new army's entry it concerns, by its index among the sheet's creations."
    )
    part = serializers.CharField(
        allow_blank=True,
        help_text='The part of the sheet whose entry it concerns ("purchases", "gold_transfers", "item_transfers", '
        '"land_deals", "capitol_moves", "missions", "captive_orders", "mission_uses"); "" when none.',
    )
    entry = IntegerSerializerField(allow_null=True, help_text="That entry, by its index among the part's entries.")
    entry_field = serializers.CharField(allow_blank=True, help_text='The entry\'s field it is about ("gold").')
    text = serializers.CharField(help_text="The words, without the army's name.")
    message = serializers.CharField(help_text="The words naming the army once, as in `errors` and `warnings`.")


class ListDueSerializer(serializers.Serializer):
    army = IntegerSerializerField()
    name = serializers.CharField()
    points = IntegerSerializerField(help_text="What it counts as meanwhile: the points paid for it, less losses.")
    due = serializers.DateTimeField(help_text="Enter the list by then: this turn's orders deadline.")
    message = serializers.CharField()


class PurchaseCostSerializer(serializers.Serializer):
    what = serializers.CharField()
    cost = IntegerSerializerField(help_text="Experience.")


class ArmyExperienceSerializer(serializers.Serializer):
    army = IntegerSerializerField()
    name = serializers.CharField()
    experience = IntegerSerializerField(help_text="The army's experience as it stands.")
    spent = IntegerSerializerField(help_text="What the sheet's purchases cost it.")
    left = IntegerSerializerField()
    purchases = PurchaseCostSerializer(many=True)


class SheetCheckSerializer(serializers.Serializer):
    errors = serializers.ListField(child=serializers.CharField())
    warnings = serializers.ListField(child=serializers.CharField())
    costs = serializers.ListField(child=serializers.ListField())
    gold = IntegerSerializerField()
    treasury = IntegerSerializerField(help_text="The treasury as it stands.")
    taxes = IntegerSerializerField(help_text="This turn's taxes (1. Tally Gold comes before Create / Upgrade).")
    available = IntegerSerializerField(help_text="What the sheet may spend: the treasury and this turn's taxes.")
    lists_due = ListDueSerializer(many=True, help_text="Armies whose list is due, and by when.")
    experience = ArmyExperienceSerializer(many=True, help_text="Each army's experience and the sheet's purchases.")
    problems = SheetProblemSerializer(many=True, help_text="The errors, structured.")
    warning_problems = SheetProblemSerializer(many=True, help_text="The warnings, structured.")


class UsableEffectSerializer(serializers.Serializer):
    """An effect your Tomb Raiders earned that this turn's sheet may use (orders/services/mission_uses.py)."""

    id = IntegerSerializerField()
    mission = serializers.CharField(help_text="army-orders or destroy-communication.")
    label = serializers.CharField()
    target = IntegerSerializerField(help_text="The kingdom it was earned against.")
    target_army = IntegerSerializerField(allow_null=True, help_text="Army Orders: the army spied on.")
    earned_turn = IntegerSerializerField()
    last_turn = IntegerSerializerField(allow_null=True, help_text="Destroy Communication: the last turn to use it.")


class OrderSheetResultSerializer(serializers.Serializer):
    """`sheet`: the working copy, and `check` its check; `submitted`: the orders that will resolve
    (null: nothing submitted, every army holds); `draft`: the unsent draft, when the working copy is
    not the submission (null otherwise); `resolves`: "submitted" or "nothing"; `kept_for_record`:
    the submissions kept for the record, never resolved; `record` (PUT answered 202): the one just
    kept."""

    sheet = OrderSheetSerializer()
    submitted = SubmittedOrdersSerializer(allow_null=True)
    draft = DraftSerializer(allow_null=True)
    resolves = serializers.ChoiceField(choices=["submitted", "nothing"])
    kept_for_record = RecordSerializer(
        many=True, help_text="The kingdom's submissions kept for the record, not resolved (the last first)."
    )
    record = RecordSerializer(
        required=False,
        help_text="PUT answered 202 only: the submission just kept for the record (it met the running "
        "resolution); `submitted` is still what the resolution uses.",
    )
    check = SheetCheckSerializer()
    usable_effects = UsableEffectSerializer(
        many=True, help_text="Reconnaissance and Sabotage: your effects this sheet may use (`mission_uses`)."
    )


class SheetStatusSerializer(serializers.Serializer):
    kingdom = IntegerSerializerField()
    name = serializers.CharField()
    status = serializers.CharField()
    submitted_at = serializers.DateTimeField(allow_null=True)
    kept_for_record = IntegerSerializerField(help_text="Submissions kept for the record, not resolved.")


class DeadlinesInput(serializers.Serializer):
    orders_deadline = serializers.DateTimeField(required=False)
    results_deadline = serializers.DateTimeField(required=False)
    reason = serializers.CharField(required=False, default="", allow_blank=True, max_length=200)


class TurnEventSerializer(serializers.Serializer):
    phase = serializers.CharField()
    code = serializers.CharField()
    text = serializers.CharField()
    kingdom = IntegerSerializerField(allow_null=True)
    army = IntegerSerializerField(allow_null=True)
    province = IntegerSerializerField(allow_null=True)
    gold = IntegerSerializerField()
    data = serializers.DictField()


class BattleSummarySerializer(serializers.Serializer):
    province = IntegerSerializerField()
    attacker_kingdom = IntegerSerializerField()
    attacker_army = IntegerSerializerField(allow_null=True)  # none: a Reconnaissance or Sabotage
    defender_kingdom = IntegerSerializerField(allow_null=True)
    defender_army = IntegerSerializerField(allow_null=True)
    assault = serializers.BooleanField()
    garrison_points = IntegerSerializerField()
    supports = serializers.ListField(child=serializers.DictField())


class DiceRollSerializer(serializers.Serializer):
    expression = serializers.CharField()
    faces = serializers.ListField(child=IntegerSerializerField())
    total = IntegerSerializerField()
    purpose = serializers.CharField()


class TurnResultsSerializer(serializers.Serializer):
    turn = TurnSerializer()
    events = TurnEventSerializer(many=True)
    battles = BattleSummarySerializer(many=True)
    rolls = DiceRollSerializer(many=True)


def event_row(e: TurnEvent | Event) -> dict:
    """A stored TurnEvent or a previewed pure Event, in the same shape."""
    stored = isinstance(e, TurnEvent)
    return {
        "phase": e.phase,
        "code": e.code,
        "text": e.text,
        "kingdom": e.kingdom_id if stored else e.kingdom,
        "army": e.army_id if stored else e.army,
        "province": e.province,
        "gold": e.gold,
        "data": e.data,
    }
