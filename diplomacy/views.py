"""The campaign's messages page: the messages the user may read, by turn, and the form to write."""

from __future__ import annotations

from itertools import groupby

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from briternia.errors import DomainError
from briternia.flash import flash_errors
from kingdoms.selectors import campaign_get, is_organizer

from .forms import ANNOUNCEMENT, MessageForm
from .models import MESSAGE_MAX
from .selectors import correspondents, messages_visible, own_kingdoms
from .services.messages import MESSAGES_PER_HOUR, message_from_text, message_send


@login_required
def campaign_messages(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = campaign_get(user=request.user, campaign_id=campaign_id)
    own = own_kingdoms(user=request.user, campaign=campaign)
    organizer = is_organizer(request.user, campaign)
    form = MessageForm(
        request.POST or None,
        own=own,
        others=correspondents(campaign=campaign, exclude=[]),
        organizer=organizer,
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            announcement = data["sender"] == ANNOUNCEMENT
            kingdom = None if announcement else next((k for k in own if str(k.pk) == data["sender"]), None)
            try:
                sent = message_send(
                    campaign=campaign,
                    sender=request.user,
                    kingdom=kingdom,
                    to=data["to"],
                    text=data["text"],
                    announcement=announcement,
                )
            except DomainError as exc:
                flash_errors(request, exc)
                status = 400
            else:
                readers = ", ".join(k.name for k in sent.recipients.all())
                flash.success(request, f"Your message is sent to {readers}.")
                return redirect("campaign-messages", campaign_id=campaign.pk)
        else:
            status = 400
    visible = list(messages_visible(user=request.user, campaign=campaign))
    turns = [
        (number, [(m, message_from_text(m)) for m in group])
        for number, group in groupby(visible, key=lambda m: m.turn_number)
    ]
    return render(
        request,
        "diplomacy/messages.html",
        {
            "campaign": campaign,
            "form": form,
            "turns": turns,
            "organizer": organizer,
            "may_write": bool(own) or organizer,
            "limit": MESSAGES_PER_HOUR,
            "max": MESSAGE_MAX,
        },
        status=status,
    )
