"""A restore pressed while a phase runs in another process is refused at once (PostgreSQL): the
phase's claim holds its turn's row until it commits, and the restore takes the campaign's turn rows
FOR UPDATE NOWAIT (transfer/snapshots.py)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from briternia.errors import DomainError
from demo.campaign import demo_campaign_create
from tests.battle_setup import file_battle_orders
from tests.clients import user_named
from transfer.models import RestoreRecord, Snapshot
from transfer.snapshots import snapshot_restore
from turns.services.cycle import AFTERMATH_PHASE, orders_phase_run
from turns.services.phases import phase_run

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks and concurrent writers: CI's PostgreSQL pass runs this"
)


def test_a_restore_while_a_phase_runs_elsewhere_is_refused_at_once(transactional_db):
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    file_battle_orders(campaign, turn)
    assert orders_phase_run(turn_id=turn.pk).resolved
    snapshot = Snapshot.objects.get(campaign=campaign)
    claimed, release = threading.Event(), threading.Event()

    def run(turn, dice):  # type: ignore[no-untyped-def]
        claimed.set()
        assert release.wait(30)
        raise RuntimeError("the aftermath stops here")  # rolled back: the turn is as it was

    def aftermath() -> None:
        try:
            with pytest.raises(RuntimeError):
                phase_run(AFTERMATH_PHASE, turn_id=turn.pk, run=run)
        finally:
            connection.close()

    worker = threading.Thread(target=aftermath)
    worker.start()
    try:
        assert claimed.wait(30)
        with pytest.raises(DomainError, match="A phase of this campaign is being resolved now"):
            snapshot_restore(snapshot_id=snapshot.pk, user=user_named("organizer"))
    finally:
        release.set()
        worker.join(30)
    assert not RestoreRecord.objects.exists()
    # Once the phase is over, the restore goes through.
    assert snapshot_restore(snapshot_id=snapshot.pk, user=user_named("organizer")).number == 1
