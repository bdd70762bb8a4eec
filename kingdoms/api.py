"""REST API of the campaign world. Each endpoint reads through a selector (which owns
visibility: another kingdom's private data is 404) and writes through one service."""

from __future__ import annotations

from django.db.models import Prefetch
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from briternia.fields import IntegerSerializerField

from . import selectors
from .models import Army, Campaign, Character, Kingdom, Province
from .people import display_name
from .serializers import (
    AdjacentPickInputSerializer,
    AllianceSerializer,
    ArmyListInputSerializer,
    ArmySerializer,
    CampaignSerializer,
    CharacterSerializer,
    ExperienceAdjustInputSerializer,
    ExperienceLedgerSerializer,
    HomePickInputSerializer,
    KingdomPrivateSerializer,
    KingdomPublicSerializer,
    ProvinceSerializer,
    TombRaidersInputSerializer,
    TombRaidersSerializer,
    TreasuryEntrySerializer,
)
from .services import armies as army_services
from .services import campaigns as campaign_services
from .services.co_players import co_player_add, co_player_remove
from .services.experience import experience_adjust
from .services.tomb_raiders import tomb_raider_force_save


class CampaignListApi(APIView):
    @extend_schema(responses=CampaignSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(CampaignSerializer(selectors.campaigns_visible(request.user), many=True).data)


class CampaignDetailApi(APIView):
    @extend_schema(responses=CampaignSerializer)
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
        return Response(CampaignSerializer(campaign).data)


class CampaignMapApi(APIView):
    """The public map: provinces, their control, settlements and adjacency."""

    @extend_schema(responses=ProvinceSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
        provinces = campaign.provinces.prefetch_related(
            Prefetch("neighbours", queryset=Province.objects.only("number"))
        )
        return Response(ProvinceSerializer(provinces, many=True).data)


class CampaignKingdomsApi(APIView):
    """What everyone may know of the campaign's kingdoms."""

    @extend_schema(responses=KingdomPublicSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
        return Response(KingdomPublicSerializer(selectors.kingdoms_public(campaign=campaign), many=True).data)


class CampaignAlliancesApi(APIView):
    """Every alliance of the campaign, in force or ended (Allies: public once made)."""

    @extend_schema(responses=AllianceSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
        return Response(AllianceSerializer(selectors.alliances_public(campaign=campaign), many=True).data)


def _picking_kingdom(request: Request, campaign: Campaign, kingdom_id: int | None) -> Kingdom:
    """The kingdom a setup pick is made for: the player's own, or any for the organizer."""
    if kingdom_id is not None and selectors.is_organizer(request.user, campaign):
        kingdom = campaign.kingdoms.filter(pk=kingdom_id).first()
    else:
        kingdom = selectors.kingdom_of(user=request.user, campaign=campaign)
    if kingdom is None:
        raise Http404("No such kingdom.")
    return kingdom


class HomePickApi(APIView):
    @extend_schema(request=HomePickInputSerializer, responses=KingdomPublicSerializer)
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
        data = HomePickInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        kingdom = _picking_kingdom(request, campaign, data.validated_data.get("kingdom"))
        campaign_services.home_pick(campaign=campaign, kingdom=kingdom, number=data.validated_data["province"])
        return Response(KingdomPublicSerializer(selectors.kingdoms_public(campaign=campaign).get(pk=kingdom.pk)).data)


class AdjacentPickApi(APIView):
    @extend_schema(request=AdjacentPickInputSerializer, responses=KingdomPublicSerializer)
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
        data = AdjacentPickInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        kingdom = _picking_kingdom(request, campaign, data.validated_data.get("kingdom"))
        campaign_services.adjacent_pick(campaign=campaign, kingdom=kingdom, numbers=data.validated_data["provinces"])
        return Response(KingdomPublicSerializer(selectors.kingdoms_public(campaign=campaign).get(pk=kingdom.pk)).data)


class KingdomApi(APIView):
    """Your kingdom: its treasury balance (404 for another kingdom's)."""

    @extend_schema(responses=KingdomPrivateSerializer)
    def get(self, request: Request, kingdom_id: int) -> Response:
        kingdom = selectors.kingdom_private_get(user=request.user, kingdom_id=kingdom_id)
        return Response(KingdomPrivateSerializer(kingdom).data)


class CoPlayerInput(serializers.Serializer):
    email = serializers.EmailField(max_length=254, help_text="The co-player's address: they are invited by email.")


class KingdomPlayerSerializer(serializers.Serializer):
    id = IntegerSerializerField(help_text="The user's id: DELETE co-players/<id>/ removes a co-player.")
    name = serializers.CharField(help_text="Their display name.")


class KingdomCoPlayersApi(APIView):
    """Organizer only (404 for anyone else): the kingdom's players (GET), and add a co-player to the
    kingdom (POST; Joint kingdoms), who is invited by email and then sees and files for the kingdom
    like its players."""

    @extend_schema(responses=KingdomPlayerSerializer(many=True))
    def get(self, request: Request, kingdom_id: int) -> Response:
        kingdom = selectors.kingdom_organized_get(user=request.user, kingdom_id=kingdom_id)
        players = [{"id": p.pk, "name": display_name(p)} for p in kingdom.players.order_by("id")]
        return Response(KingdomPlayerSerializer(players, many=True).data)

    @extend_schema(request=CoPlayerInput, responses={201: KingdomPublicSerializer})
    def post(self, request: Request, kingdom_id: int) -> Response:
        kingdom = selectors.kingdom_organized_get(user=request.user, kingdom_id=kingdom_id)
        data = CoPlayerInput(data=request.data)
        data.is_valid(raise_exception=True)
        co_player_add(kingdom=kingdom, email=data.validated_data["email"])
        public = selectors.kingdoms_public(campaign=kingdom.campaign).get(pk=kingdom.pk)
        return Response(KingdomPublicSerializer(public).data, status=201)


class KingdomCoPlayerApi(APIView):
    """Organizer only (404 for anyone else): remove a co-player from the kingdom (Joint kingdoms,
    decision 229). From the next request they see and file nothing of it, by their session or their
    API token; they are told by email; what they filed stands. A kingdom keeps one player (its last
    is marked out on the leader page, Rogue Kingdom): removing it, or someone who does not play the
    kingdom, is refused (400) and nothing changes."""

    @extend_schema(
        responses={200: KingdomPublicSerializer},
        description="Remove the co-player `user_id` (a user id, as the kingdom's page names them) from the "
        "kingdom's players (GET co-players/ lists them with their ids); answers the kingdom as the public "
        "sees it, its players now. Taken back by adding them again (POST co-players/ with their address): "
        "nothing of theirs is lost.",
    )
    def delete(self, request: Request, kingdom_id: int, user_id: int) -> Response:
        kingdom = selectors.kingdom_organized_get(user=request.user, kingdom_id=kingdom_id)
        co_player_remove(kingdom=kingdom, user_id=user_id)
        public = selectors.kingdoms_public(campaign=kingdom.campaign).get(pk=kingdom.pk)
        return Response(KingdomPublicSerializer(public).data)


class KingdomLedgerApi(APIView):
    @extend_schema(responses=TreasuryEntrySerializer(many=True))
    def get(self, request: Request, kingdom_id: int) -> Response:
        kingdom = selectors.kingdom_private_get(user=request.user, kingdom_id=kingdom_id)
        return Response(TreasuryEntrySerializer(kingdom.ledger.all(), many=True).data)


class KingdomArmiesApi(APIView):
    @extend_schema(responses=ArmySerializer(many=True))
    def get(self, request: Request, kingdom_id: int) -> Response:
        kingdom = selectors.kingdom_private_get(user=request.user, kingdom_id=kingdom_id)
        return Response(ArmySerializer(selectors.armies_of(kingdom), many=True).data)


class KingdomCharactersApi(APIView):
    @extend_schema(responses=CharacterSerializer(many=True))
    def get(self, request: Request, kingdom_id: int) -> Response:
        kingdom = selectors.kingdom_private_get(user=request.user, kingdom_id=kingdom_id)
        characters = Character.objects.filter(kingdom=kingdom).select_related("unit")
        return Response(CharacterSerializer(characters, many=True).data)


class ArmyApi(APIView):
    """One of your armies with its list; PUT replaces the list, all or nothing."""

    def _army(self, request: Request, army_id: int) -> Army:
        army = selectors.army_private_get(user=request.user, army_id=army_id)
        return selectors.armies_of(army.kingdom).get(pk=army.pk)

    def _data(self, army: Army) -> dict:
        # The army's experience with its ledger: earned, spent, each row's turn and reason in words.
        data = dict(ArmySerializer(army).data)
        data["experience_ledger"] = ExperienceLedgerSerializer(selectors.experience_ledger_of(army)).data
        return data

    @extend_schema(responses=ArmySerializer)
    def get(self, request: Request, army_id: int) -> Response:
        return Response(self._data(self._army(request, army_id)))

    @extend_schema(request=ArmyListInputSerializer, responses=ArmySerializer)
    def put(self, request: Request, army_id: int) -> Response:
        army = self._army(request, army_id)
        data = ArmyListInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        units, items = data.entries()
        army_services.army_list_save(
            army=army,
            units=units,
            items=items,
            correction=data.validated_data["correction"],
            corrected_by=request.user,
        )
        return Response(self._data(self._army(request, army_id)))


class ArmyExperienceApi(APIView):
    """An army's experience ledger (yours, or any for the organizer; 404 otherwise). POST, the
    organizer only (404 for a player): a correction with its reason, a row of the ledger."""

    @extend_schema(responses=ExperienceLedgerSerializer)
    def get(self, request: Request, army_id: int) -> Response:
        army = selectors.army_private_get(user=request.user, army_id=army_id)
        return Response(ExperienceLedgerSerializer(selectors.experience_ledger_of(army)).data)

    @extend_schema(request=ExperienceAdjustInputSerializer, responses=ExperienceLedgerSerializer)
    def post(self, request: Request, army_id: int) -> Response:
        army = selectors.army_private_get(user=request.user, army_id=army_id)
        campaign = army.kingdom.campaign
        if not selectors.is_organizer(request.user, campaign):
            raise Http404
        data = ExperienceAdjustInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        experience_adjust(army=army, turn=campaign.current_turn, **data.validated_data)
        army.refresh_from_db()
        return Response(ExperienceLedgerSerializer(selectors.experience_ledger_of(army)).data)


class KingdomTombRaidersApi(APIView):
    """The kingdom's Tomb Raider force (its players and the organizer; 404 to anyone else, and for
    the Ancient Dead). PUT replaces the list, all or nothing: a list the rules refuse answers 400
    with one error per problem, each naming its entries and the rule (Tomb Raiders)."""

    @extend_schema(responses=TombRaidersSerializer)
    def get(self, request: Request, kingdom_id: int) -> Response:
        kingdom = selectors.tomb_raiders_private_get(user=request.user, kingdom_id=kingdom_id)
        return Response(TombRaidersSerializer(selectors.tomb_raiders_view(kingdom)).data)

    @extend_schema(request=TombRaidersInputSerializer, responses=TombRaidersSerializer)
    def put(self, request: Request, kingdom_id: int) -> Response:
        kingdom = selectors.tomb_raiders_private_get(user=request.user, kingdom_id=kingdom_id)
        data = TombRaidersInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tomb_raider_force_save(kingdom=kingdom, entries=data.raider_entries(), saved_by=request.user)
        return Response(TombRaidersSerializer(selectors.tomb_raiders_view(kingdom)).data)
