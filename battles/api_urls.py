from django.urls import path

from . import api

urlpatterns = [
    path("turns/<int:turn_id>/battles/", api.TurnBattlesApi.as_view(), name="api-turn-battles"),
    path("turns/<int:turn_id>/alliance-end/", api.AllianceEndApi.as_view(), name="api-alliance-end"),
    path("battles/<int:battle_id>/", api.BattleApi.as_view(), name="api-battle"),
    path("battles/<int:battle_id>/message/", api.BattleMessageApi.as_view(), name="api-battle-message"),
    path("battles/<int:battle_id>/sheet/", api.SummarySheetApi.as_view(), name="api-summary-sheet"),
    path("characters/<int:character_id>/retire/", api.CharacterRetireApi.as_view(), name="api-character-retire"),
    path(
        "characters/<int:character_id>/healing-potion/",
        api.CharacterHealingPotionApi.as_view(),
        name="api-character-healing-potion",
    ),
    path("battles/<int:battle_id>/ruling/", api.BattleRulingApi.as_view(), name="api-battle-ruling"),
    path(
        "battles/<int:battle_id>/sheet/<int:kingdom_id>/story-bonus/",
        api.StoryBonusApi.as_view(),
        name="api-story-bonus",
    ),
    path("armies/<int:army_id>/painted/", api.ArmyPaintedApi.as_view(), name="api-army-painted"),
]
