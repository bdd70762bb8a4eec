from django.urls import path

from . import health, views

urlpatterns = [
    path("health/", health.health, name="health"),
    path("turns/<int:turn_id>/resolve/", views.turn_resolve_now, name="turn-resolve"),
    path("turns/<int:turn_id>/status/", views.turn_status, name="turn-status"),
    path("turns/<int:turn_id>/aftermath/", views.aftermath_run, name="turn-aftermath"),
    path("campaigns/<int:campaign_id>/", views.campaign_detail, name="campaign"),
    path("campaigns/<int:campaign_id>/start/", views.campaign_start, name="campaign-start"),
    path("campaigns/<int:campaign_id>/desk/", views.campaign_desk, name="campaign-desk"),
    path("turns/<int:turn_id>/retry/", views.phase_retry, name="turn-retry"),
]
