"""Rulings told (issue 37): a receipt for every turn summary sheet submitted, an email to both sides
(and the organizer) when their sheets disagree, an email to both when the organizer rules, and the
ruling with its note in the kingdoms' reports and the bulletin's battle line.
Rulebook: 8. End of Turn (the organizer decides a conflict), Appendix (Turn Summary Sheet)."""

from __future__ import annotations

import pytest
from django.core import mail

from battles.models import Battle
from battles.services.summaries import battle_rule, summary_sheet_save
from kingdoms.models import Unit
from outbox.models import Email


@pytest.fixture
def hartwood(turn, battles_posted):
    return Battle.objects.get(turn=turn, province__number=62)


def _file(battle, kingdom, capture, **data):
    with capture(execute=True):
        return summary_sheet_save(battle=battle, kingdom=kingdom, data=data, entered_by=kingdom.players.first())


def _sent(subject_part: str) -> list:
    return [m for m in mail.outbox if subject_part in m.subject]


def _to(messages: list) -> list[str]:
    """Every campaign email goes one message per address: who got one."""
    return sorted(address for m in messages for address in m.to)


def test_every_submitted_sheet_gets_a_receipt_saying_what_was_filed(hartwood, k, django_capture_on_commit_callbacks):
    """Ostland's sheet: its receipt goes to Ostland's player only, names the result and the losses as
    filed; submitting again sends a second receipt; a draft sends none."""
    mail.outbox.clear()
    halberdiers = Unit.objects.get(army__name="Wardens", name="Halberdiers")
    _file(
        hartwood,
        k["Ostland"],
        django_capture_on_commit_callbacks,
        result="minor-loss",
        casualties=[{"unit": halberdiers.id, "models_lost": 7}],
    )
    (receipt,) = _sent("turn summary sheet for the battle in 62 Hartwood received")
    assert receipt.to == ["alice@briternia.local"]
    assert "Result: Minor loss" in receipt.body and "Halberdiers (Wardens): 7 models lost" in receipt.body
    assert "from alice" in receipt.body
    with django_capture_on_commit_callbacks(execute=True):
        summary_sheet_save(
            battle=hartwood, kingdom=k["Ostland"], data={"result": "draw"}, entered_by=None, submit=False
        )
    assert len(_sent("sheet for the battle in 62 Hartwood received")) == 1  # a draft: no receipt
    _file(hartwood, k["Ostland"], django_capture_on_commit_callbacks, result="major-loss")
    receipts = _sent("sheet for the battle in 62 Hartwood received")
    assert len(receipts) == 2 and "Result: Major loss" in receipts[1].body


def test_disagreeing_sheets_tell_both_sides_and_the_organizer_once(hartwood, k, django_capture_on_commit_callbacks):
    """8. End of Turn: Tor Anlec claims a major victory, Ostland a minor loss: both players and the
    organizer are told on what they disagree, once; the same sheet again sends nothing new."""
    mail.outbox.clear()
    _file(hartwood, k["Tor Anlec"], django_capture_on_commit_callbacks, result="major-victory")
    assert not _sent("disagree")
    _file(hartwood, k["Ostland"], django_capture_on_commit_callbacks, result="minor-loss")
    told = _sent("the turn summary sheets of the battle in 62 Hartwood disagree")
    organizer = hartwood.turn.campaign.organizer.email
    assert _to(told) == sorted(["dave@briternia.local", "alice@briternia.local", organizer])
    assert all("The organizer decides the result (8. End of Turn)" in m.body for m in told)
    _file(hartwood, k["Ostland"], django_capture_on_commit_callbacks, result="minor-loss")
    assert len(_sent("disagree")) == 3
    assert Email.objects.filter(kind=Email.Kind.BATTLE_RULING).count() == 1


def test_the_ruling_is_told_to_both_sides_with_its_note(hartwood, k, django_capture_on_commit_callbacks):
    _file(hartwood, k["Tor Anlec"], django_capture_on_commit_callbacks, result="major-victory")
    _file(hartwood, k["Ostland"], django_capture_on_commit_callbacks, result="draw")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        battle_rule(
            battle=hartwood,
            result="minor-victory",
            attacker_withdrew=False,
            defender_withdrew=False,
            note="Both agreed at the club that the Raiders held the ford.",
            ruled_by=hartwood.turn.campaign.organizer,
        )
    rulings = _sent("the organizer's ruling on the battle in 62 Hartwood")
    assert _to(rulings) == ["alice@briternia.local", "dave@briternia.local"]
    (ruling, _) = rulings
    assert "Decided by the organizer: Minor victory for the attacker" in ruling.body
    assert "Both agreed at the club that the Raiders held the ford." in ruling.body


def test_the_ruling_and_its_note_stand_in_both_reports_and_the_bulletin(turn, k, hartwood):
    """After the aftermath, the battle's line in Ostland's and Tor Anlec's reports and in the public
    bulletin carries the organizer's ruling and its note, not just "minor victory" (8. End of Turn)."""
    import datetime as dt

    from freezegun import freeze_time

    from reports.services.reports import bulletin_context, kingdom_report_context
    from turns.tasks import deadline_sweep

    eldenhall = Battle.objects.get(turn=turn, province__number=61)
    summary_sheet_save(battle=hartwood, kingdom=k["Tor Anlec"], data={"result": "major-victory"}, entered_by=None)
    summary_sheet_save(battle=hartwood, kingdom=k["Ostland"], data={"result": "draw"}, entered_by=None)
    summary_sheet_save(battle=eldenhall, kingdom=k["Da Red Fang"], data={"result": "draw"}, entered_by=None)
    summary_sheet_save(battle=eldenhall, kingdom=k["Ostland"], data={"result": "draw"}, entered_by=None)
    battle_rule(
        battle=hartwood,
        result="minor-victory",
        attacker_withdrew=False,
        defender_withdrew=False,
        note="The Raiders held the ford at the end of turn 5.",
        ruled_by=turn.campaign.organizer,
    )
    with freeze_time(turn.results_deadline + dt.timedelta(minutes=1)):
        assert deadline_sweep.delay().get()["aftermaths"] == 1
    turn.refresh_from_db()
    line = "Decided by the organizer: The Raiders held the ford at the end of turn 5."
    for kingdom in ("Ostland", "Tor Anlec"):
        rows = {
            r["battle"].province.number: r for r in kingdom_report_context(turn=turn, kingdom=k[kingdom])["battles"]
        }
        assert rows[62]["result"] == "Minor victory" and line in rows[62]["stand_ins"], kingdom
        assert 61 not in rows or not any("Decided" in x for x in rows[61]["stand_ins"])
    bulletin = {r["battle"].province.number: r for r in bulletin_context(turn=turn)["battles"]}
    assert line in bulletin[62]["stand_ins"]
