"""The organizer's page of the mail received for a campaign."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from kingdoms.selectors import campaign_get

from . import selectors


@login_required
def campaign_mail_received(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = campaign_get(user=request.user, campaign_id=campaign_id)
    rows = selectors.campaign_mail_received(user=request.user, campaign=campaign)
    return render(request, "inbox/mail_received.html", {"campaign": campaign, "rows": rows})
