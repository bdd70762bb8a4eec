from django.urls import path

from . import views

urlpatterns = [
    path("campaigns/<int:campaign_id>/messages/", views.campaign_messages, name="campaign-messages"),
]
