from django.urls import path

from . import api, tokens

urlpatterns = [
    path("token/", tokens.ObtainTokenApi.as_view(), name="api-token-obtain"),
    path("campaigns/", api.CampaignListApi.as_view(), name="api-campaigns"),
    path("campaigns/<int:campaign_id>/", api.CampaignDetailApi.as_view(), name="api-campaign"),
    path("campaigns/<int:campaign_id>/map/", api.CampaignMapApi.as_view(), name="api-campaign-map"),
    path("campaigns/<int:campaign_id>/kingdoms/", api.CampaignKingdomsApi.as_view(), name="api-campaign-kingdoms"),
    path("campaigns/<int:campaign_id>/alliances/", api.CampaignAlliancesApi.as_view(), name="api-campaign-alliances"),
    path("campaigns/<int:campaign_id>/setup/home/", api.HomePickApi.as_view(), name="api-setup-home"),
    path("campaigns/<int:campaign_id>/setup/provinces/", api.AdjacentPickApi.as_view(), name="api-setup-provinces"),
    path("kingdoms/<int:kingdom_id>/", api.KingdomApi.as_view(), name="api-kingdom"),
    path("kingdoms/<int:kingdom_id>/co-players/", api.KingdomCoPlayersApi.as_view(), name="api-kingdom-co-players"),
    path(
        "kingdoms/<int:kingdom_id>/co-players/<int:user_id>/",
        api.KingdomCoPlayerApi.as_view(),
        name="api-kingdom-co-player",
    ),
    path("kingdoms/<int:kingdom_id>/ledger/", api.KingdomLedgerApi.as_view(), name="api-kingdom-ledger"),
    path("kingdoms/<int:kingdom_id>/armies/", api.KingdomArmiesApi.as_view(), name="api-kingdom-armies"),
    path("kingdoms/<int:kingdom_id>/characters/", api.KingdomCharactersApi.as_view(), name="api-kingdom-characters"),
    path(
        "kingdoms/<int:kingdom_id>/tomb-raiders/", api.KingdomTombRaidersApi.as_view(), name="api-kingdom-tomb-raiders"
    ),
    path("armies/<int:army_id>/", api.ArmyApi.as_view(), name="api-army"),
    path("armies/<int:army_id>/experience/", api.ArmyExperienceApi.as_view(), name="api-army-experience"),
]
