from django.urls import path

from . import views

urlpatterns = [
    path("campaigns/<int:campaign_id>/stories/", views.campaign_stories_page, name="campaign-stories"),
    path("turns/<int:turn_id>/battles/", views.turn_battles_page, name="turn-battles"),
    path("turns/<int:turn_id>/alliance-end/", views.turn_alliance_end, name="turn-alliance-end"),
    path("battles/<int:battle_id>/", views.battle_page, name="battle"),
    path("battles/<int:battle_id>/message/", views.battle_message, name="battle-message"),
    path("battles/<int:battle_id>/scenario.pdf", views.battle_scenario_pdf, name="battle-scenario-pdf"),
    path("battles/<int:battle_id>/sheet/", views.summary_sheet_page, name="summary-sheet"),
    path("battles/<int:battle_id>/sheet/<int:kingdom_id>/", views.summary_sheet_page, name="summary-sheet-kingdom"),
    path("battles/<int:battle_id>/ruling/", views.battle_ruling, name="battle-ruling"),
    path("battles/<int:battle_id>/sheet/<int:kingdom_id>/story-bonus/", views.story_bonus_page, name="story-bonus"),
    path("armies/<int:army_id>/painted/", views.army_painted_page, name="army-painted"),
    path("characters/<int:character_id>/retire/", views.character_retire_page, name="character-retire"),
    path(
        "characters/<int:character_id>/healing-potion/",
        views.character_healing_potion_page,
        name="character-healing-potion",
    ),
    path("scenario/", views.scenario_generator_page, name="scenario-generator"),
]
