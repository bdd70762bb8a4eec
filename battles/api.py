"""REST API of battles: the turn's battles, a battle with its scenario, its players by name, the
sheets' disagreement and the organizer's ruling, a message to the other side, your turn summary
sheet, the organizer's ruling and the aftermath. The same services and checks as the pages."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from briternia.api import KingdomQuery, kingdom_query
from briternia.fields import IntegerSerializerField, list_bound
from kingdoms.models import Kingdom
from kingdoms.selectors import alliance_in_force, army_private_get, is_organizer, kingdom_of
from orders.selectors import turn_get

from . import selectors
from .models import RESULT_CHOICES, Battle, TurnSummarySheet
from .services.announcements import alliance_end_announce, alliance_end_announced, alliance_end_withdraw
from .services.healing import healing_potion_use
from .services.opponents import MESSAGE_MAX, SideKingdom, battle_message_send, opponents_of, side_players
from .services.retirement import character_retire
from .services.rewards import army_painted_set, story_bonus_award
from .services.summaries import (
    SHEET_ROWS_MAX,
    battle_rule,
    battle_standing_text,
    disagreement_text,
    ruling_text,
    side_name,
    summary_sheet_save,
)

RESULT_VALUES = [v for v, _ in RESULT_CHOICES]


def _bounded(field: str) -> dict[str, Any]:
    return list_bound(field, SHEET_ROWS_MAX, "far more than any battle's units, characters or carts")


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _side_kingdoms_data(sides: list[SideKingdom]) -> list[dict[str, Any]]:
    return [{"kingdom": s.kingdom.pk, "kingdom_name": s.kingdom.name, "players": s.players} for s in sides]


def _battle_data(battle: Battle, *, organizer: bool, reader: Kingdom | None) -> dict[str, Any]:
    """The battle as its reader may see it: `reader` is the reader's kingdom in the campaign (None:
    the organizer who plays none); `standing` is the organizer's alone."""
    passed = timezone.now() > battle.turn.results_deadline
    data: dict[str, Any] = {
        "id": battle.pk,
        "turn": battle.turn.number,
        "province": battle.province.number,
        "province_name": battle.province.name,
        "status": battle.status,
        "attacker": {
            "kingdom": battle.attacker_kingdom_id,
            "army": battle.attacker_army_id,
            "name": side_name(battle, "attacker"),
        },
        "defender": {
            "kingdom": battle.defender_kingdom_id,
            "army": battle.defender_army_id,
            "name": side_name(battle, "defender"),
        },
        "assault": battle.assault,
        "garrison_points": battle.garrison_points,
        "garrison_defenses": battle.garrison_defenses,
        "fortified_points": battle.fortified_points,
        "supports": [
            {"army": s.army_id, "kingdom": s.kingdom_id, "side": s.side, "points": s.points, "arrival": s.arrival}
            for s in battle.supports.all()
        ],
        "scenario": battle.scenario,
        "result": battle.result or None,
        # The defender's own result: not the mirror of the attacker's when a sheet was missing.
        "defender_result": battle.defender_result or None,
        "victor": battle.victor or None,
        # Who fights it, by display name (never an address), as the battle page names them.
        "players": {side: _side_kingdoms_data(side_players(battle, side)) for side in ("attacker", "defender")},
        "opponents": _side_kingdoms_data(opponents_of(battle, reader)) if reader is not None else [],
        # Rules decision 320: the battle's readers see that the sheets disagree, then the ruling.
        "disagreement": _sentence(disagreement_text(battle, deadline_passed=passed)) or None,
        "ruling": ruling_text(battle) or None,
    }
    if organizer:
        data["standing"] = battle_standing_text(battle, deadline_passed=passed)
    return data


class BattleSideSerializer(serializers.Serializer):
    kingdom = IntegerSerializerField(allow_null=True)
    army = IntegerSerializerField(allow_null=True)
    name = serializers.CharField()


class BattleSupportSerializer(serializers.Serializer):
    army = IntegerSerializerField()
    kingdom = IntegerSerializerField()
    side = serializers.CharField()
    points = IntegerSerializerField()
    arrival = IntegerSerializerField(allow_null=True, help_text="Support Arrival D6.")


class SideKingdomSerializer(serializers.Serializer):
    kingdom = IntegerSerializerField()
    kingdom_name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField(), help_text="Display names, never addresses.")


class BattlePlayersSerializer(serializers.Serializer):
    attacker = SideKingdomSerializer(many=True)
    defender = SideKingdomSerializer(many=True)


class BattleSerializer(serializers.Serializer):
    """A battle as _battle_data shapes it; `standing` for the organizer only."""

    id = IntegerSerializerField()
    turn = IntegerSerializerField()
    province = IntegerSerializerField()
    province_name = serializers.CharField()
    status = serializers.CharField()
    attacker = BattleSideSerializer()
    defender = BattleSideSerializer()
    assault = serializers.BooleanField()
    garrison_points = IntegerSerializerField()
    garrison_defenses = IntegerSerializerField()
    fortified_points = IntegerSerializerField()
    supports = BattleSupportSerializer(many=True)
    scenario = serializers.JSONField(allow_null=True, help_text="The Scenario Generator's results.")
    result = serializers.CharField(allow_null=True)
    defender_result = serializers.CharField(allow_null=True)
    victor = serializers.CharField(allow_null=True)
    players = BattlePlayersSerializer(
        help_text="The kingdoms on each side (the main army's, then each supporting detachment's) and their "
        "players' display names."
    )
    opponents = SideKingdomSerializer(
        many=True, help_text="The other side's kingdoms and players, for your kingdom (empty if you play none)."
    )
    disagreement = serializers.CharField(
        allow_null=True, help_text="On what the two turn summary sheets disagree, until the organizer rules."
    )
    ruling = serializers.CharField(allow_null=True, help_text="The organizer's ruling on the result, once made.")
    standing = serializers.CharField(required=False, help_text="Organizer only: where the sheets stand.")


class TurnBattlesApi(APIView):
    """The turn's battles you may see: your kingdom's (the organizer: all)."""

    @extend_schema(responses=BattleSerializer(many=True))
    def get(self, request: Request, turn_id: int) -> Response:
        turn = turn_get(user=request.user, turn_id=turn_id)
        organizer = is_organizer(request.user, turn.campaign)
        reader = kingdom_of(user=request.user, campaign=turn.campaign)
        return Response(
            [
                _battle_data(b, organizer=organizer, reader=reader)
                for b in selectors.turn_battles(user=request.user, turn=turn)
            ]
        )


def _battle_response(request: Request, battle: Battle) -> Response:
    campaign = battle.turn.campaign
    return Response(
        _battle_data(
            battle,
            organizer=is_organizer(request.user, campaign),
            reader=kingdom_of(user=request.user, campaign=campaign),
        )
    )


class BattleApi(APIView):
    """A battle of your kingdom's (the organizer: any): its forces, scenario, players by name, the
    sheets' disagreement and the ruling; anyone else gets 404."""

    @extend_schema(responses=BattleSerializer)
    def get(self, request: Request, battle_id: int) -> Response:
        return _battle_response(request, selectors.battle_get(user=request.user, battle_id=battle_id))


class BattleMessageInput(serializers.Serializer):
    message = serializers.CharField(
        allow_blank=True, trim_whitespace=False, help_text=f"At most {MESSAGE_MAX:,} characters."
    )


class BattleMessageSentSerializer(serializers.Serializer):
    recipients = IntegerSerializerField(help_text="How many players the message is emailed to.")


class BattleMessageApi(APIView):
    """A player of the battle writes to the other side's players (rules decision 321): the site
    emails it, Reply-To your address; their addresses are never shown. Refused with 400 and the
    reason (an empty or too long message, you play neither side, more than 5 messages
    an hour about the battle: rules decision 363); a battle you do not fight in: 404."""

    @extend_schema(request=BattleMessageInput, responses={201: BattleMessageSentSerializer})
    def post(self, request: Request, battle_id: int) -> Response:
        battle = selectors.battle_get(user=request.user, battle_id=battle_id)
        data = BattleMessageInput(data=request.data)
        data.is_valid(raise_exception=True)
        count = battle_message_send(
            battle=battle,
            sender=request.user,
            kingdom=kingdom_of(user=request.user, campaign=battle.turn.campaign),
            text=data.validated_data["message"],
        )
        return Response({"recipients": count}, status=status.HTTP_201_CREATED)


class CasualtyInput(serializers.Serializer):
    unit = IntegerSerializerField()
    models_lost = IntegerSerializerField(min_value=0, default=0)
    champion = serializers.BooleanField(default=False)
    standard = serializers.BooleanField(default=False)
    musician = serializers.BooleanField(default=False)
    one_use_used = serializers.BooleanField(default=False)


class DepotCapturedInput(serializers.Serializer):
    army = IntegerSerializerField(help_text="The opponent's army whose cart was captured.")
    by = IntegerSerializerField(help_text="The army of this side that captured it.")


class RaidersLostInput(serializers.Serializer):
    entry = serializers.CharField(
        max_length=100, help_text="An entry of the kingdom's Tomb Raider force: its name (or its id)."
    )
    killed = IntegerSerializerField(min_value=0, max_value=150, default=0, help_text="Models killed: off the list.")
    injured = IntegerSerializerField(
        min_value=0, max_value=150, default=0, help_text="Models removed as injured: each rolls on Recovery."
    )


class SummarySheetInput(serializers.Serializer):
    result = serializers.ChoiceField(
        choices=RESULT_VALUES,
        required=False,
        allow_blank=True,
        default="",
        help_text="The battle's result on the ladder, this side's (not asked of a plain ruin's Tomb Raid: its "
        "raid_result is its result).",
    )
    raid_result = serializers.ChoiceField(
        choices=["success", "draw", "failure"],
        required=False,
        allow_blank=True,
        default="",
        help_text="Tomb Raid, Reconnaissance or Sabotage (the sheet of the kingdom that sent its Tomb Raiders): "
        "success, draw or failure; a draw is no success.",
    )
    raiders = RaidersLostInput(
        many=True,
        **_bounded("raiders"),
        required=False,
        default=list,
        help_text="The Tomb Raiders' skirmish (a raid, the scouting forces): each entry of the force with models "
        "killed or removed as injured (Maintaining / Changing Tomb Raiders; Recovery).",
    )
    withdrew = serializers.BooleanField(default=False)
    opponent_withdrew = serializers.BooleanField(default=False)
    casualties = CasualtyInput(many=True, **_bounded("casualties"), required=False, default=list)
    characters_lost = serializers.ListField(
        child=IntegerSerializerField(), **_bounded("characters_lost"), required=False, default=list
    )
    loot_choice = serializers.ChoiceField(choices=["", "loot", "sack"], required=False, default="")
    negotiation_gold = IntegerSerializerField(
        min_value=0,
        max_value=2_147_483_647,
        required=False,
        default=0,
        help_text="Gold this kingdom pays its opponent: at most what its treasury holds.",
    )
    negotiation_note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")
    story = serializers.CharField(required=False, allow_blank=True, default="")
    story_bonus = serializers.BooleanField(default=False)
    story_private = serializers.BooleanField(default=False, help_text="Stories Are Nice: keep it out of the bulletin.")
    story_army = IntegerSerializerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Stories Are Nice: on a Tomb Raiders' skirmish's sheet, the kingdom's army that takes the story's "
        "experience (any of its armies; null: the skirmish's army).",
    )
    injury_rerolls = serializers.DictField(
        child=serializers.ChoiceField(choices=["dead", "harmed"]),
        required=False,
        default=dict,
        help_text='Character id -> "dead" (reroll a Dead result) or "harmed" (any result that harms him): '
        "25 experience each (Spending Experience).",
    )
    backstab = serializers.BooleanField(
        default=False, help_text="Against a Skaven army: force one reroll of an unharmed injury test (Backstabbers)."
    )
    warlord_heir = IntegerSerializerField(
        required=False, allow_null=True, default=None, help_text="The General who succeeds the Warlord on a tie."
    )
    support_withdrawn = serializers.ListField(
        child=IntegerSerializerField(),
        **_bounded("support_withdrawn"),
        required=False,
        default=list,
        help_text="Allies, Withdraw of support: the parent armies of an ally's detachments on this side that "
        "withdrew their support in the battle (it breaks the alliance).",
    )
    announce_alliance_end = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Allies, Announcement: true announces the end of this kingdom's alliance during the End of Turn "
        "(the rules for allies cease next turn; one announcement a turn for all the kingdom's sheets); false "
        "withdraws it; null or absent leaves it as it stands.",
    )
    depots_captured = DepotCapturedInput(
        many=True,
        **_bounded("depots_captured"),
        required=False,
        default=list,
        help_text="Supply Depot: each cart of the opponent's army captured in the battle (once per cart), and the "
        "army of this side that took it: its army loses a spare cart, else its depot (and forages); the cart joins "
        "the captor's roster.",
    )
    carts_recaptured = serializers.ListField(
        child=IntegerSerializerField(),
        **_bounded("carts_recaptured"),
        required=False,
        default=list,
        help_text="Supply Depot: this side's army whose cart friendly forces recaptured before the game ended.",
    )
    played_by_player = IntegerSerializerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The Campaign Must Go On (organizer only): the player of the campaign who played the battle.",
    )
    played_by_guest = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="The Campaign Must Go On (organizer only): the guest who played the battle.",
    )
    submit = serializers.BooleanField(default=True)

    def validate_injury_rerolls(self, value: dict[str, str]) -> dict[str, str]:
        if len(value) > SHEET_ROWS_MAX:
            raise serializers.ValidationError(
                f"injury_rerolls: at most {SHEET_ROWS_MAX:,} entries (far more than any battle's characters); "
                "this list has more. Nothing was saved."
            )
        return value


class SummarySheetSerializer(serializers.ModelSerializer):
    alliance_end_announced = serializers.SerializerMethodField(
        help_text="Allies, Announcement: the kingdom has announced the end of its alliance this End of Turn."
    )

    def get_alliance_end_announced(self, sheet: TurnSummarySheet) -> bool:
        return alliance_end_announced(kingdom=sheet.kingdom, turn=sheet.battle.turn) is not None

    class Meta:
        model = TurnSummarySheet
        fields = [
            "battle",
            "kingdom",
            "status",
            "result",
            "withdrew",
            "opponent_withdrew",
            "casualties",
            "characters_lost",
            "loot_choice",
            "negotiation_gold",
            "negotiation_note",
            "story",
            "story_bonus",
            "story_army",
            "story_private",
            "injury_rerolls",
            "backstab",
            "warlord_heir",
            "support_withdrawn",
            "depots_captured",
            "carts_recaptured",
            "played_by_player",
            "played_by_guest",
            "raid_result",
            "raiders",
            "alliance_end_announced",
            "by_organizer",
            "submitted_at",
        ]


class SummarySheetApi(APIView):
    """Your kingdom's turn summary sheet for the battle (the organizer may name a kingdom:
    ?kingdom=<id>). PUT saves and submits it (`submit: false`: a draft); a sheet with any error is
    refused whole with 400 and the messages."""

    def _kingdom(self, request: Request, battle: Battle):  # type: ignore[no-untyped-def]
        return selectors.summary_sheet_kingdom_get(user=request.user, battle=battle, kingdom_id=kingdom_query(request))

    @extend_schema(parameters=[KingdomQuery], responses=SummarySheetSerializer)
    def get(self, request: Request, battle_id: int) -> Response:
        battle = selectors.battle_get(user=request.user, battle_id=battle_id)
        kingdom = self._kingdom(request, battle)
        sheet = TurnSummarySheet.objects.filter(battle=battle, kingdom=kingdom).first()
        if sheet is None:
            raise NotFound("No sheet filed yet.")
        return Response(SummarySheetSerializer(sheet).data)

    @extend_schema(parameters=[KingdomQuery], request=SummarySheetInput, responses=SummarySheetSerializer)
    def put(self, request: Request, battle_id: int) -> Response:
        battle = selectors.battle_get(user=request.user, battle_id=battle_id)
        kingdom = self._kingdom(request, battle)
        data = SummarySheetInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        submit = values.pop("submit")
        organizer = is_organizer(request.user, battle.turn.campaign)
        own = kingdom in request.user.kingdoms.all()
        sheet = summary_sheet_save(
            battle=battle,
            kingdom=kingdom,
            data=values,
            entered_by=request.user,
            submit=submit,
            by_organizer=organizer and not own,
        )
        return Response(SummarySheetSerializer(sheet).data)


class AllianceEndInput(serializers.Serializer):
    ally = IntegerSerializerField(
        min_value=1, max_value=2**63 - 1, help_text="The kingdom whose alliance with yours is over: your ally."
    )


class AllianceEndSerializer(serializers.Serializer):
    kingdom = IntegerSerializerField()
    ally = IntegerSerializerField(allow_null=True, help_text="The kingdom's ally (null: it has none).")
    announced = serializers.BooleanField(help_text="The end of the alliance is announced this End of Turn.")


def _alliance_end_data(kingdom: Kingdom, turn: Any) -> dict[str, Any]:
    alliance = alliance_in_force(kingdom)
    return {
        "kingdom": kingdom.pk,
        "ally": alliance.other(kingdom).pk if alliance is not None else None,
        "announced": alliance_end_announced(kingdom=kingdom, turn=turn) is not None,
    }


class AllianceEndApi(APIView):
    """Allies, Announcement: "During the End of Campaign Turn, a player can announce that an alliance
    is broken" (decision 385). While the turn's battles are played (until the results deadline; the
    organizer's until the aftermath), POST announces the end of your kingdom's alliance with `ally`,
    DELETE withdraws it; the same announcement as a turn summary sheet's `announce_alliance_end`, for
    a kingdom with or without a battle. The rules for allies cease next turn; the turn's results make
    it public. The organizer names a kingdom with ?kingdom=<id>."""

    def _target(self, request: Request, turn_id: int) -> tuple[Any, Kingdom, bool]:
        turn = turn_get(user=request.user, turn_id=turn_id)
        kingdom = selectors.end_of_turn_kingdom_get(user=request.user, turn=turn, kingdom_id=kingdom_query(request))
        organizer = is_organizer(request.user, turn.campaign)
        return turn, kingdom, organizer and kingdom not in request.user.kingdoms.all()

    @extend_schema(parameters=[KingdomQuery], responses=AllianceEndSerializer)
    def get(self, request: Request, turn_id: int) -> Response:
        turn, kingdom, _ = self._target(request, turn_id)
        return Response(_alliance_end_data(kingdom, turn))

    @extend_schema(parameters=[KingdomQuery], request=AllianceEndInput, responses=AllianceEndSerializer)
    def post(self, request: Request, turn_id: int) -> Response:
        turn, kingdom, by_organizer = self._target(request, turn_id)
        data = AllianceEndInput(data=request.data)
        data.is_valid(raise_exception=True)
        alliance_end_announce(
            kingdom=kingdom,
            turn=turn,
            ally_id=data.validated_data["ally"],
            entered_by=request.user,
            by_organizer=by_organizer,
        )
        return Response(_alliance_end_data(kingdom, turn))

    @extend_schema(parameters=[KingdomQuery], request=None, responses=AllianceEndSerializer)
    def delete(self, request: Request, turn_id: int) -> Response:
        turn, kingdom, by_organizer = self._target(request, turn_id)
        alliance_end_withdraw(kingdom=kingdom, turn=turn, by_organizer=by_organizer)
        return Response(_alliance_end_data(kingdom, turn))


class RulingInput(serializers.Serializer):
    result = serializers.ChoiceField(choices=RESULT_VALUES)
    attacker_withdrew = serializers.BooleanField(default=False)
    defender_withdrew = serializers.BooleanField(default=False)
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class BattleRulingApi(APIView):
    """Organizer only: decide the battle's result, read from the attacker's side."""

    @extend_schema(request=RulingInput, responses=BattleSerializer)
    def post(self, request: Request, battle_id: int) -> Response:
        battle = selectors.battle_get(user=request.user, battle_id=battle_id)
        if not is_organizer(request.user, battle.turn.campaign):
            raise NotFound("Not found.")
        data = RulingInput(data=request.data)
        data.is_valid(raise_exception=True)
        battle = battle_rule(battle=battle, ruled_by=request.user, **data.validated_data)
        return _battle_response(request, selectors.battle_get(user=request.user, battle_id=battle.pk))


class StoryBonusInput(serializers.Serializer):
    experience = IntegerSerializerField(help_text="1 or 2 (Stories Are Nice).")


class StoryBonusResultSerializer(serializers.Serializer):
    army = IntegerSerializerField(allow_null=True)
    experience = IntegerSerializerField()
    text = serializers.CharField()


class StoryBonusApi(APIView):
    """Organizer only (404 for anyone else): 1 or 2 more experience for a good story, to the army
    that got the kingdom's story experience this turn; once per kingdom and turn."""

    @extend_schema(request=StoryBonusInput, responses=StoryBonusResultSerializer)
    def post(self, request: Request, battle_id: int, kingdom_id: int) -> Response:
        battle = selectors.battle_get(user=request.user, battle_id=battle_id)
        if not is_organizer(request.user, battle.turn.campaign):
            raise NotFound("Not found.")
        sheet = TurnSummarySheet.objects.filter(battle=battle, kingdom_id=kingdom_id).select_related("kingdom").first()
        if sheet is None:
            raise NotFound("Not found.")
        data = StoryBonusInput(data=request.data)
        data.is_valid(raise_exception=True)
        event = story_bonus_award(sheet=sheet, amount=data.validated_data["experience"])
        return Response({"army": event.army, "experience": event.experience, "text": event.text})


class ArmyPaintedInput(serializers.Serializer):
    painted = serializers.BooleanField()


class ArmyPaintedResultSerializer(serializers.Serializer):
    army = IntegerSerializerField()
    painted = serializers.BooleanField()


class ArmyPaintedApi(APIView):
    """Organizer only (404 for a player): mark an army painted or not (Painting Counts)."""

    @extend_schema(request=ArmyPaintedInput, responses=ArmyPaintedResultSerializer)
    def post(self, request: Request, army_id: int) -> Response:
        army = army_private_get(user=request.user, army_id=army_id)
        if not is_organizer(request.user, army.kingdom.campaign):
            raise NotFound("Not found.")
        data = ArmyPaintedInput(data=request.data)
        data.is_valid(raise_exception=True)
        army = army_painted_set(army=army, painted=data.validated_data["painted"])
        return Response({"army": army.pk, "painted": army.painted})


class CharacterRetireInput(serializers.Serializer):
    keep_items = serializers.BooleanField(
        default=False, help_text="Pay twice the items' points in gold to keep them in the kingdom's armory."
    )
    warlord_heir = IntegerSerializerField(
        required=False, allow_null=True, default=None, help_text="A retiring Warlord: the General to succeed on a tie."
    )
    confirm = serializers.BooleanField(
        help_text="Must be true: a retirement cannot be undone (the site asks first; the API asks for this)."
    )

    def validate_confirm(self, value: bool) -> bool:
        if not value:
            raise serializers.ValidationError("A retirement cannot be undone: send confirm: true to retire him.")
        return value


class CharacterRetiredSerializer(serializers.Serializer):
    character = IntegerSerializerField()
    alive = serializers.BooleanField()
    items_kept = serializers.ListField(child=serializers.CharField())
    items_gone = serializers.ListField(child=serializers.CharField())
    gold = IntegerSerializerField(help_text="The treasury's change (negative: paid to keep the items).")
    warlord = IntegerSerializerField(allow_null=True, help_text="The Warlord after him (a retiring Warlord).")
    treasury = IntegerSerializerField()


class CharacterRetireApi(APIView):
    """Retire one of your characters (Character Injury Chart): he counts as dead and takes his items,
    unless `keep_items` pays twice their points in gold (refused with 400 if the treasury cannot).
    It cannot be undone: the request must say `confirm: true`."""

    @extend_schema(request=CharacterRetireInput, responses=CharacterRetiredSerializer)
    def post(self, request: Request, character_id: int) -> Response:
        character = selectors.own_character_get(user=request.user, character_id=character_id)
        data = CharacterRetireInput(data=request.data)
        data.is_valid(raise_exception=True)
        done = character_retire(
            character=character,
            keep_items=data.validated_data["keep_items"],
            heir_choice=data.validated_data["warlord_heir"],
        )
        return Response(
            {
                "character": character.id,
                "alive": False,
                "items_kept": done.items_kept,
                "items_gone": done.items_gone,
                "gold": -done.gold,
                "warlord": done.heir.id if done.heir else None,
                "treasury": character.kingdom.treasury_balance(),
            }
        )


class CharacterHealedSerializer(serializers.Serializer):
    character = IntegerSerializerField()
    injuries_removed = serializers.ListField(child=serializers.CharField())
    potion_bearer = serializers.CharField(help_text="The character of the army who carried the potion.")


class CharacterHealingPotionApi(APIView):
    """Treasure from the Ruins: one of your injured characters drinks a Healing Potion carried in his
    army; all his injuries are removed and the potion is gone (400 with the reason otherwise)."""

    @extend_schema(request=None, responses=CharacterHealedSerializer)
    def post(self, request: Request, character_id: int) -> Response:
        character = selectors.own_character_get(user=request.user, character_id=character_id)
        healed = healing_potion_use(character=character)
        return Response(
            {
                "character": character.id,
                "injuries_removed": healed.injuries_removed,
                "potion_bearer": healed.potion_bearer,
            }
        )
