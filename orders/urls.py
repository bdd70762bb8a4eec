from django.urls import path

from . import views

urlpatterns = [
    path("turns/<int:turn_id>/orders/", views.order_sheet, name="order-sheet"),
    path("turns/<int:turn_id>/orders/<int:kingdom_id>/", views.order_sheet, name="order-sheet-kingdom"),
    path("turns/<int:turn_id>/orders/<int:kingdom_id>/receipt/", views.order_receipt, name="order-receipt"),
    path("turns/<int:turn_id>/sheets/", views.sheets_overview, name="sheets-overview"),
    path("turns/<int:turn_id>/deadlines/", views.deadlines_change, name="turn-deadlines"),
    path("turns/<int:turn_id>/preview/", views.turn_preview_page, name="turn-preview"),
    path("calendar/<str:key>/deadlines.ics", views.deadlines_feed, name="deadlines-feed"),
    path("kingdoms/<int:kingdom_id>/leader/", views.kingdom_leader_page, name="kingdom-leader"),
    path("campaigns/<int:campaign_id>/pause/", views.campaign_pause_toggle, name="campaign-pause"),
    path("campaigns/<int:campaign_id>/schedule/", views.schedule_change, name="campaign-schedule"),
    path("kingdoms/<int:kingdom_id>/independence/", views.independence_page, name="kingdom-independence"),
]
