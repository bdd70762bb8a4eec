from django.urls import path

from . import api

urlpatterns = [
    path("turns/<int:turn_id>/resolve/", api.TurnResolveApi.as_view(), name="api-turn-resolve"),
    path("turns/<int:turn_id>/aftermath/", api.AftermathApi.as_view(), name="api-turn-aftermath"),
    path("campaigns/<int:campaign_id>/desk/", api.CampaignDeskApi.as_view(), name="api-campaign-desk"),
]
