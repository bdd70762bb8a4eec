from django.urls import path

from . import api

urlpatterns = [
    path("campaigns/<int:campaign_id>/messages/", api.CampaignMessagesApi.as_view(), name="api-campaign-messages"),
]
