from django.urls import path

from . import views, webhooks

urlpatterns = [
    path("campaigns/<int:campaign_id>/mail/", views.campaign_mail_received, name="campaign-mail-received"),
    # Postmark's inbound webhook (django-anymail), at the path anymail's own URLs give it.
    path("anymail/postmark/inbound/", webhooks.PostmarkInboundView.as_view(), name="postmark-inbound"),
]
