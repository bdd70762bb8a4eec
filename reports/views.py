"""Pages of the turn reports: the campaign's history, a report's PDF, the organizer's deliveries
(a turn's reports and emails, and every email of the campaign, with the one-click resend and
render-again), and the player's report preferences."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from briternia.errors import DomainError
from briternia.flash import flash_outcome
from kingdoms.models import ReportPreferences
from kingdoms.selectors import campaign_get, campaigns_visible, is_organizer, tomb_raiders_private_get
from orders.selectors import turn_get
from orders.services.progress import turn_progress
from outbox.services import email_resend

from . import selectors
from .models import TurnReport
from .services.intelligence import intelligence_page
from .services.reports import report_render_again
from .turn_map import turn_results_map_svg


@login_required
def my_reports(request: HttpRequest) -> HttpResponse:
    """The top bar's "Reports": the reports of the user's one campaign (its history), or the list of
    their campaigns' histories when they play in several."""
    campaigns = list(campaigns_visible(request.user))
    if len(campaigns) == 1:
        return redirect("campaign-history", campaign_id=campaigns[0].pk)
    return render(request, "reports/my_reports.html", {"campaigns": campaigns})


@login_required
def campaign_history(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = campaign_get(user=request.user, campaign_id=campaign_id)
    rows = selectors.campaign_history(user=request.user, campaign=campaign)
    return render(request, "reports/history.html", {"campaign": campaign, "rows": rows})


@login_required
def report_download(request: HttpRequest, report_id: int) -> HttpResponse:
    report = selectors.report_get(user=request.user, report_id=report_id)
    response = HttpResponse(bytes(report.pdf), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{report.filename}"'
    return response


@login_required
def turn_deliveries(request: HttpRequest, turn_id: int) -> HttpResponse:
    """The organizer's view of the turn's reports and every email: what is sent, what failed."""
    turn = turn_get(user=request.user, turn_id=turn_id)
    deliveries = selectors.turn_deliveries(user=request.user, turn=turn)
    return render(request, "reports/deliveries.html", {"turn": turn, "campaign": turn.campaign, **deliveries})


@login_required
def campaign_emails(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The organizer's view of every email of the campaign (invitations, receipts, announcements,
    reminders, reports): what failed, with a Resend button, and the latest."""
    campaign = campaign_get(user=request.user, campaign_id=campaign_id)
    emails = selectors.campaign_emails(user=request.user, campaign=campaign)
    return render(request, "reports/emails.html", {"campaign": campaign, **emails})


@login_required
@require_POST
def email_resend_view(request: HttpRequest, email_id: int) -> HttpResponse:
    """Queue a failed email again, then back to the page the button was on (its `next`), or the
    campaign's emails."""
    email = selectors.email_for_organizer(user=request.user, email_id=email_id)
    flash_outcome(request, lambda: email_resend(email=email), success=f"The email to {email.to_line} is queued again.")
    back = request.POST.get("next", "")
    # A path of this site only: `redirect` would read any other word as a view's name and fail (500)
    # after the email was queued again.
    if back.startswith("/") and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return HttpResponseRedirect(back)
    return redirect("campaign-emails", campaign_id=email.campaign_id)


@login_required
@require_POST
def report_render_again_view(request: HttpRequest, report_id: int) -> HttpResponse:
    report = (
        TurnReport.objects.select_related("turn__campaign", "kingdom", "battle__province")
        .defer("pdf")
        .filter(pk=report_id)
        .first()
    )
    if report is None or not is_organizer(request.user, report.turn.campaign):
        raise Http404
    try:
        report_render_again(report=report, now=timezone.now())
    except DomainError as exc:
        for m in exc.messages:
            messages.error(request, m)
    else:
        messages.success(request, f"{report.title} is queued to be rendered again.")
    return redirect("turn-deliveries", turn_id=report.turn_id)


class ReportPreferencesForm(forms.ModelForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A form posted without it (an older page, a script) keeps the player's choice.
        self.fields["message_emails"].required = False

    def clean_message_emails(self) -> str:
        return self.cleaned_data.get("message_emails") or self.instance.message_emails

    class Meta:
        model = ReportPreferences
        fields = ["report_email", "attach_pdf", "message_emails"]
        labels = {
            "report_email": "Send my turn reports to",
            "attach_pdf": "Attach the PDF (off: a link instead)",
            "message_emails": "Messages from other kingdoms",
        }


@login_required
def report_preferences(request: HttpRequest) -> HttpResponse:
    # Read, not made: a refused form leaves no row behind (only a valid one is saved).
    preferences = ReportPreferences.objects.filter(user=request.user).first() or ReportPreferences(user=request.user)
    form = ReportPreferencesForm(request.POST or None, instance=preferences)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your report preferences are saved.")
        return redirect("report-preferences")
    return render(request, "reports/preferences.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def turn_results_page(request: HttpRequest, turn_id: int) -> HttpResponse:
    turn = turn_get(user=request.user, turn_id=turn_id)
    results = selectors.turn_results(user=request.user, turn=turn)
    progress = turn_progress(turn, organizer=results["organizer"])
    map_svg = turn_results_map_svg(
        turn=turn, own=results["own"], organizer=results["organizer"], battles=results["battles"]
    )
    return render(
        request,
        "orders/turn_results.html",
        {"turn": turn, "campaign": turn.campaign, "progress": progress, "map_svg": map_svg, **results},
    )


@login_required
def kingdom_intelligence(request: HttpRequest, kingdom_id: int) -> HttpResponse:
    """What the kingdom's Reconnaissance learned over the campaign, and the mission effects it holds
    pending: its players' and the organizer's, 404 to anyone else (the target never reads it)."""
    kingdom = tomb_raiders_private_get(user=request.user, kingdom_id=kingdom_id)
    page = intelligence_page(kingdom)
    return render(
        request,
        "reports/intelligence.html",
        {"kingdom": kingdom, "campaign": kingdom.campaign, "intelligence": page["learned"], **page},
    )
