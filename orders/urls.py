from django.urls import path

from . import report_views, views

urlpatterns = [
    path("turns/<int:turn_id>/orders/", views.order_sheet, name="order-sheet"),
    path("turns/<int:turn_id>/orders/<int:kingdom_id>/", views.order_sheet, name="order-sheet-kingdom"),
    path("turns/<int:turn_id>/orders/<int:kingdom_id>/receipt/", views.order_receipt, name="order-receipt"),
    path("turns/<int:turn_id>/sheets/", views.sheets_overview, name="sheets-overview"),
    path("turns/<int:turn_id>/deadlines/", views.deadlines_change, name="turn-deadlines"),
    path("turns/<int:turn_id>/resolve/", views.turn_resolve_now, name="turn-resolve"),
    path("turns/<int:turn_id>/preview/", views.turn_preview_page, name="turn-preview"),
    path("turns/<int:turn_id>/results/", views.turn_results_page, name="turn-results"),
    path("campaigns/<int:campaign_id>/pause/", views.campaign_pause_toggle, name="campaign-pause"),
    path("campaigns/<int:campaign_id>/schedule/", views.schedule_change, name="campaign-schedule"),
    path("campaigns/<int:campaign_id>/history/", report_views.campaign_history, name="campaign-history"),
    path("reports/<int:report_id>/", report_views.report_download, name="report"),
    path("turns/<int:turn_id>/deliveries/", report_views.turn_deliveries, name="turn-deliveries"),
    path("reports/<int:report_id>/render-again/", report_views.report_render_again_view, name="report-render-again"),
    path("report-emails/<int:email_id>/resend/", report_views.report_email_resend_view, name="report-email-resend"),
    path("account/reports/", report_views.report_preferences, name="report-preferences"),
]
