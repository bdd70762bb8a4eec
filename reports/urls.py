from django.urls import path

from . import views

urlpatterns = [
    path("turns/<int:turn_id>/results/", views.turn_results_page, name="turn-results"),
    path("reports/", views.my_reports, name="my-reports"),
    path("campaigns/<int:campaign_id>/history/", views.campaign_history, name="campaign-history"),
    path("reports/<int:report_id>/", views.report_download, name="report"),
    path("turns/<int:turn_id>/deliveries/", views.turn_deliveries, name="turn-deliveries"),
    path("reports/<int:report_id>/render-again/", views.report_render_again_view, name="report-render-again"),
    path("campaigns/<int:campaign_id>/emails/", views.campaign_emails, name="campaign-emails"),
    path("emails/<int:email_id>/resend/", views.email_resend_view, name="email-resend"),
    # A report email's Resend, at the address it had before every email went through the outbox.
    path("report-emails/<int:email_id>/resend/", views.email_resend_view, name="report-email-resend"),
    # Reconnaissance: what the kingdom learned, and its pending mission effects (its players and the organizer).
    path("kingdoms/<int:kingdom_id>/intelligence/", views.kingdom_intelligence, name="kingdom-intelligence"),
    path("account/reports/", views.report_preferences, name="report-preferences"),
]
