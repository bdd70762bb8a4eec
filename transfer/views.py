"""The organizer's pages of the safeguards: a turn's snapshots, and "Restore to before <phase>"
(a confirmation page, then a POST). Anyone else gets 404: players never see snapshots."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from briternia.flash import flash_outcome
from kingdoms.selectors import is_organizer
from orders.selectors import turn_get
from turns.models import Turn

from .models import RestoreRecord, Snapshot
from .snapshots import snapshot_refusal, snapshot_restore


def _organizer_turn(request: HttpRequest, turn_id: int) -> Turn:
    turn = turn_get(user=request.user, turn_id=turn_id)
    if not is_organizer(request.user, turn.campaign):
        raise Http404
    return turn


@login_required
def turn_snapshots(request: HttpRequest, turn_id: int) -> HttpResponse:
    """The turn's snapshots, each with its restore button or why it cannot be restored, and every
    restore of the campaign."""
    turn = _organizer_turn(request, turn_id)
    campaign = turn.campaign
    snapshots = Snapshot.objects.filter(campaign=campaign, turn_number=turn.number).defer("document")
    return render(
        request,
        "transfer/turn_snapshots.html",
        {
            "turn": turn,
            "campaign": campaign,
            "rows": [(s, snapshot_refusal(s, campaign)) for s in snapshots],
            "restores": RestoreRecord.objects.filter(campaign=campaign).select_related("restored_by"),
            "previous": campaign.turns.filter(number=turn.number - 1).first(),
        },
    )


@login_required
def snapshot_restore_confirm(request: HttpRequest, turn_id: int, snapshot_id: int) -> HttpResponse:
    """GET: what the restore undoes, and the button; POST: restore, then the restored turn's page."""
    turn = _organizer_turn(request, turn_id)
    snapshot = Snapshot.objects.filter(pk=snapshot_id, campaign=turn.campaign, turn_number=turn.number).first()
    if snapshot is None:
        raise Http404
    if request.method == "POST":
        restored = flash_outcome(
            request,
            lambda: snapshot_restore(snapshot_id=snapshot.pk, user=request.user),
            success=(
                f"Turn {snapshot.turn_number} is restored to its state before {snapshot.get_phase_display()}. "
                "It waits for you: resolve it when ready (the players have been told)."
            ),
        )
        if not restored:
            return redirect("turn-snapshots", turn_id=turn.pk)
        if snapshot.phase == Snapshot.Phase.ORDERS:
            return redirect("sheets-overview", turn_id=turn.pk)
        return redirect("turn-battles", turn_id=turn.pk)
    return render(
        request,
        "transfer/snapshot_restore.html",
        {
            "turn": turn,
            "campaign": turn.campaign,
            "snapshot": snapshot,
            "refusal": snapshot_refusal(snapshot, turn.campaign),
        },
    )
