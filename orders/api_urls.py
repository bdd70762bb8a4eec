from django.urls import path

from . import api

urlpatterns = [
    path("campaigns/<int:campaign_id>/turn/", api.CurrentTurnApi.as_view(), name="api-current-turn"),
    path("turns/<int:turn_id>/", api.TurnApi.as_view(), name="api-turn"),
    path("turns/<int:turn_id>/sheet/", api.OrderSheetApi.as_view(), name="api-order-sheet"),
    path("turns/<int:turn_id>/sheets/", api.SheetsOverviewApi.as_view(), name="api-sheets"),
    path("turns/<int:turn_id>/deadlines/", api.DeadlinesApi.as_view(), name="api-turn-deadlines"),
    path("turns/<int:turn_id>/preview/", api.TurnPreviewApi.as_view(), name="api-turn-preview"),
    path("kingdoms/<int:kingdom_id>/independence/", api.IndependenceApi.as_view(), name="api-kingdom-independence"),
]
