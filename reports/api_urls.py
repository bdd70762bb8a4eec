from django.urls import path

from . import api

urlpatterns = [
    path("turns/<int:turn_id>/results/", api.TurnResultsApi.as_view(), name="api-turn-results"),
    path(
        "kingdoms/<int:kingdom_id>/intelligence/",
        api.KingdomIntelligenceApi.as_view(),
        name="api-kingdom-intelligence",
    ),
]
