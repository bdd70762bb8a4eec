"""The schedule keeps its rhythm (issue 37, rules decision 511): a turn whose battles are all
settled, or that has none, moves to its aftermath by itself at the next deadline sweep, before its
results deadline; one still waiting for a sheet or a ruling, or whose campaign has an alliance that
may still be announced over during the End of Turn (Allies, Announcement; decision 385), waits for
the results deadline. Rulebook: 7. Aftermath, 8. End of Turn, Campaign Schedule."""

from __future__ import annotations

from battles.models import Battle
from battles.services.summaries import summary_sheet_save
from kingdoms.models import Alliance
from turns.models import Turn
from turns.services.cycle import orders_phase_run
from turns.tasks import deadline_sweep


def _sweep_now() -> int:
    return deadline_sweep.delay().get()["aftermaths"]


def test_a_turn_without_battles_reaches_its_aftermath_without_a_click(
    demo_campaign, django_capture_on_commit_callbacks
):
    """No army moves: the orders phase posts no battle, and the next sweep runs the aftermath days
    before the results deadline; turn 2 opens."""
    turn = demo_campaign.turns.get(number=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES and not Battle.objects.filter(turn=turn).exists()
    # The aftermath's reports queued, not rendered (seconds): the turn's status is what is checked.
    with django_capture_on_commit_callbacks(execute=False):
        assert _sweep_now() == 1
    turn.refresh_from_db()
    assert turn.status == Turn.Status.REPORTED
    assert demo_campaign.turns.filter(number=2, status=Turn.Status.ORDERS_OPEN).exists()


def test_battles_settled_by_agreeing_sheets_move_on_and_a_missing_sheet_waits(
    turn, k, battles_posted, django_capture_on_commit_callbacks
):
    """Both battles of turn 1 posted: while Eldenhall's sheet is missing the sweep waits; once every
    sheet is in and agrees, the next sweep runs the aftermath before the results deadline."""
    hartwood = Battle.objects.get(turn=turn, province__number=62)
    eldenhall = Battle.objects.get(turn=turn, province__number=61)
    for battle, kingdom, result in [(hartwood, "Tor Anlec", "minor-victory"), (hartwood, "Ostland", "minor-loss")]:
        summary_sheet_save(battle=battle, kingdom=k[kingdom], data={"result": result}, entered_by=None)
    summary_sheet_save(battle=eldenhall, kingdom=k["Da Red Fang"], data={"result": "draw"}, entered_by=None)
    assert _sweep_now() == 0
    summary_sheet_save(battle=eldenhall, kingdom=k["Ostland"], data={"result": "draw"}, entered_by=None)
    with django_capture_on_commit_callbacks(execute=False):  # the reports queued, not rendered
        assert _sweep_now() == 1
    turn.refresh_from_db()
    assert turn.status == Turn.Status.REPORTED


def test_an_alliance_in_force_keeps_the_end_of_turn_open_until_the_results_deadline(
    demo_campaign, k, django_capture_on_commit_callbacks
):
    """Decision 511: Ostland and Karak Dumn are allied; either may announce its end until the results
    deadline (decision 385), so a turn without battles waits for it."""
    Alliance.objects.create(
        campaign=demo_campaign, first=k["Ostland"], second=k["Karak Dumn"], trust="T", formed_turn=1
    )
    turn = demo_campaign.turns.get(number=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved
    assert _sweep_now() == 0
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES
