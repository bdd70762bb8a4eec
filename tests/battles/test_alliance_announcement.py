"""Allies, Announcement through the site (decision 385): "During the End of Campaign Turn, a player can
announce that an alliance is broken. During the next Campaign Turn, the rules for allies cease to
apply for the two realms in question." On the demo campaign's posted turn 1 (its battles phase, the
End of Turn), Ostland (Empire) and Karak Dumn (Dwarfs) are allied; Karak Dumn fights no battle,
Ostland fights two. The announcement is made on a turn summary sheet or, without a battle, on the
turn's battles page or its API; the aftermath ends the alliance with the turn, public in its
results; turn 2 loads it ended. Rulebook: Allies; 8. End of Turn."""

from __future__ import annotations

import datetime as dt

import pytest
from freezegun import freeze_time

from battles.models import AllianceEndAnnouncement, Battle, TurnSummarySheet
from kingdoms.models import Alliance, Army, Province, TreasuryEntry
from orders.services.sheets import order_sheet_context_load
from reports.services.reports import bulletin_context, kingdom_report_context
from rulebook.turn.write_orders.check import order_sheet_check
from rulebook.turn.write_orders.problems import SheetProblemCode
from rulebook.turn.write_orders.records import DeclareAlliance, SheetEntries
from tests.clients import api_as, error_details, pages_as
from turns.models import TurnEvent
from turns.services.cycle import aftermath_phase_run, orders_phase_run


@pytest.fixture
def alliance(k, battles_posted) -> Alliance:
    """Ostland and Karak Dumn, allied before turn 1 (Trusted Allies)."""
    return Alliance.objects.create(
        campaign=k["Ostland"].campaign, first=k["Ostland"], second=k["Karak Dumn"], trust="T", formed_turn=0
    )


def _file_every_sheet(turn) -> None:
    """Both battles' sheets, agreed: Hartwood (Tor Anlec attacks Ostland) and Eldenhall."""
    hartwood = Battle.objects.get(turn=turn, province__number=62)
    eldenhall = Battle.objects.get(turn=turn, province__number=61)
    for name, battle, result in (
        ("dave", hartwood, "minor-victory"),
        ("alice", hartwood, "minor-loss"),
        ("bob", eldenhall, "draw"),
        ("alice", eldenhall, "draw"),
    ):
        saved = api_as(name).put(f"/api/battles/{battle.pk}/sheet/", {"result": result}, format="json")
        assert saved.status_code == 200, saved.json()


def _lines(context) -> list[str]:
    return [e.text for _, rows in context["phases"] for e in rows]


def test_an_ally_without_a_battle_announces_the_end_and_the_alliance_ends_with_the_turn(turn, k, alliance):
    """Allies, Announcement: Karak Dumn, with no battle to report, announces on the turn's battles
    page during the End of Turn. Until the aftermath nobody else learns of it and the alliance holds;
    the aftermath breaks it (Ostland receives 2,000), both reports and the bulletin say so, and turn
    2's world and sheet check no longer treat the two as allies."""
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    carol = pages_as("carol")
    page = carol.get(f"/turns/{turn.pk}/battles/").content.decode()
    assert 'id="alliance-end-announce"' in page and "your alliance with Ostland" in page
    posted = carol.post(f"/turns/{turn.pk}/alliance-end/", {"ally": str(ostland.pk), "action": "announce"})
    assert posted.status_code == 302
    assert "You have announced the end of the alliance with Ostland" in carol.get(posted.url).content.decode()
    # Secrecy: private until the results. Ostland's page and API say nothing of it; Ostland cannot
    # read Karak Dumn's announcement (404), and the alliance is still in force.
    assert "announced the end" not in pages_as("alice").get(f"/turns/{turn.pk}/battles/").content.decode()
    assert api_as("alice").get(f"/api/turns/{turn.pk}/alliance-end/").json() == {
        "kingdom": ostland.pk,
        "ally": karak.pk,
        "announced": False,
    }
    assert api_as("alice").get(f"/api/turns/{turn.pk}/alliance-end/?kingdom={karak.pk}").status_code == 404
    alliance.refresh_from_db()
    assert alliance.in_force

    _file_every_sheet(turn)
    assert aftermath_phase_run(turn_id=turn.pk).resolved

    alliance.refresh_from_db()
    assert (alliance.ended_turn, alliance.ended_how, alliance.broken_by) == (1, "announcement", karak)
    assert TreasuryEntry.objects.get(kingdom=ostland, turn=1, reason="alliance").amount == 2000
    assert not TreasuryEntry.objects.filter(kingdom=karak, reason="alliance").exists()
    events = TurnEvent.objects.filter(turn=turn, code="alliance-broken").order_by("sequence")
    assert [(e.kingdom, e.gold, e.phase) for e in events] == [(karak, 0, "aftermath"), (ostland, 2000, "aftermath")]
    line = "Karak Dumn breaks its alliance with Ostland by announcement"
    assert any(line in text for text in _lines(kingdom_report_context(turn=turn, kingdom=ostland)))
    assert any(line in text for text in _lines(kingdom_report_context(turn=turn, kingdom=karak)))
    bulletin = bulletin_context(turn=turn)
    assert "Karak Dumn breaks its alliance with Ostland by announcement." in bulletin["changes"]
    # Nothing else of Karak Dumn leaks: its public line names kingdoms only, and Ostland's report
    # has no other event of Karak Dumn's.
    assert all(
        e.kingdom_id == ostland.pk
        for _, rows in kingdom_report_context(turn=turn, kingdom=ostland)["phases"]
        for e in rows
    )

    # Turn 2: "During the next Campaign Turn, the rules for allies cease to apply".
    turn_2 = turn.campaign.turns.get(number=2)
    ctx = order_sheet_context_load(kingdom=ostland, turn=turn_2)
    assert not ctx.world.allied(ostland.pk, karak.pk) and ctx.world.alliances == {}
    check = order_sheet_check(SheetEntries(alliances=(DeclareAlliance(karak.pk),)), ctx)
    assert SheetProblemCode.ALLIANCE_FULL not in [p.code for p in check.error_problems]
    assert api_as("carol").get(f"/api/kingdoms/{karak.pk}/").json()["alliance"] is None


def test_an_announcement_on_the_turn_summary_sheet_ends_the_alliance_and_both_announcing_cancel_it(turn, k, alliance):
    """Allies, Announcement, on the turn summary sheet (API and page): Ostland ticks it on its
    Hartwood sheet; its Eldenhall sheet, saved without the field, leaves it standing; Karak Dumn
    announces too through the API: the alliance is cancelled by both, no gold back (rule case AL4)."""
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    hartwood = Battle.objects.get(turn=turn, province__number=62)
    saved = api_as("alice").put(
        f"/api/battles/{hartwood.pk}/sheet/",
        {"result": "minor-loss", "announce_alliance_end": True},
        format="json",
    )
    assert saved.status_code == 200, saved.json()
    assert saved.json()["alliance_end_announced"] is True
    page = pages_as("alice").get(f"/battles/{hartwood.pk}/sheet/").content.decode()
    assert 'name="announce_alliance_end" id="announce_alliance_end" checked' in page
    assert AllianceEndAnnouncement.objects.get().kingdom == ostland
    announced = api_as("carol").post(f"/api/turns/{turn.pk}/alliance-end/", {"ally": ostland.pk}, format="json")
    assert announced.status_code == 200 and announced.json()["announced"] is True

    _file_every_sheet(turn)  # Ostland's sheets again, without the field: the announcement stands
    assert AllianceEndAnnouncement.objects.filter(kingdom=ostland).exists()
    assert aftermath_phase_run(turn_id=turn.pk).resolved

    alliance.refresh_from_db()
    assert (alliance.ended_turn, alliance.ended_how, alliance.broken_by) == (1, "cancelled", None)
    assert not TreasuryEntry.objects.filter(reason="alliance").exists()
    cancelled = [line for line in bulletin_context(turn=turn)["changes"] if "cancel their alliance" in line]
    assert len(cancelled) == 1 and {ostland.name, karak.name} <= set(
        cancelled[0][: -len(" cancel their alliance.")].split(" and ")
    )


def test_an_announcement_withdrawn_before_the_deadline_leaves_the_alliance(turn, k, alliance):
    """The page's box unticked withdraws it; the alliance holds into turn 2."""
    hartwood = Battle.objects.get(turn=turn, province__number=62)
    alice = pages_as("alice")
    url = f"/battles/{hartwood.pk}/sheet/"
    assert (
        alice.post(url, {"result": "minor-loss", "announce_alliance_end": "on", "action": "submit"}).status_code == 302
    )
    assert AllianceEndAnnouncement.objects.filter(kingdom=k["Ostland"]).exists()
    assert alice.post(url, {"result": "minor-loss", "action": "submit"}).status_code == 302
    assert not AllianceEndAnnouncement.objects.exists()
    _file_every_sheet(turn)
    assert aftermath_phase_run(turn_id=turn.pk).resolved
    alliance.refresh_from_db()
    assert alliance.in_force


def test_announcing_an_alliance_you_are_not_in_is_refused_and_nothing_changes(turn, k, alliance):
    """Bad input is refused whole with a message naming the kingdom and the rule; nothing is saved:
    Tor Anlec (no ally) on its API and on its sheet; Karak Dumn naming Tor Anlec, not its ally; an
    order sheet announcing an end (Allies, Announcement: during the End of Turn only)."""
    ostland, tor_anlec = k["Ostland"], k["Tor Anlec"]
    hartwood = Battle.objects.get(turn=turn, province__number=62)
    refused = api_as("dave").post(f"/api/turns/{turn.pk}/alliance-end/", {"ally": ostland.pk}, format="json")
    assert refused.status_code == 400
    assert error_details(refused) == [
        "Tor Anlec is in no alliance with Ostland: there is no alliance to announce the end of (Allies, Announcement)."
    ]
    sheet = api_as("dave").put(
        f"/api/battles/{hartwood.pk}/sheet/",
        {"result": "minor-victory", "announce_alliance_end": True},
        format="json",
    )
    assert sheet.status_code == 400
    assert error_details(sheet) == [
        "Announce the end of the alliance: Tor Anlec is in no alliance; there is no alliance to announce the end of "
        "(Allies, Announcement)."
    ]
    assert not TurnSummarySheet.objects.filter(kingdom=tor_anlec).exists()
    wrong = api_as("carol").post(f"/api/turns/{turn.pk}/alliance-end/", {"ally": tor_anlec.pk}, format="json")
    assert wrong.status_code == 400 and "Karak Dumn is in no alliance with Tor Anlec" in error_details(wrong)[0]
    assert not AllianceEndAnnouncement.objects.exists()
    alliance.refresh_from_db()
    assert alliance.in_force


def test_an_order_sheet_announcing_an_end_is_refused_pointing_to_the_end_of_turn(turn, k, alliance):
    """Allies, Announcement: the next turn's order sheet is not the place (decision 135 withdrawn):
    refused whole with the rule's code, nothing saved."""
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    _file_every_sheet(turn)
    assert aftermath_phase_run(turn_id=turn.pk).resolved
    turn_2 = turn.campaign.turns.get(number=2)
    refused = api_as("alice").put(
        f"/api/turns/{turn_2.pk}/sheet/",
        {"orders": [], "alliance_ends": [{"kingdom": karak.pk}], "submit": True},
        format="json",
    )
    assert refused.status_code == 400
    assert [e["code"] for e in refused.json()["errors"]] == ["alliance-end-at-end-of-turn"]
    assert "turn summary sheet" in error_details(refused)[0]
    assert not ostland.order_sheets.filter(turn=turn_2).exists()
    # Outside the End of Turn (turn 2 takes orders) an announcement is refused too.
    late = api_as("carol").post(f"/api/turns/{turn_2.pk}/alliance-end/", {"ally": ostland.pk}, format="json")
    assert late.status_code == 400 and "during the End of Turn" in error_details(late)[0]


def test_after_the_results_deadline_only_the_organizer_announces_or_withdraws(turn, k, alliance):
    """8. End of Turn ends at the results deadline (decision 385): a player's announcement after it
    is refused, nothing saved; the organizer names the kingdom (?kingdom=) and may still make or
    withdraw it until the aftermath, as it enters sheets (decision 60)."""
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    url = f"/api/turns/{turn.pk}/alliance-end/"
    with freeze_time(turn.results_deadline + dt.timedelta(minutes=1)):
        late = api_as("carol").post(url, {"ally": ostland.pk}, format="json")
        assert late.status_code == 400 and "The results deadline has passed" in error_details(late)[0]
        assert not AllianceEndAnnouncement.objects.exists()
        made = api_as("organizer").post(f"{url}?kingdom={karak.pk}", {"ally": ostland.pk}, format="json")
        assert made.status_code == 200 and made.json() == {"kingdom": karak.pk, "ally": ostland.pk, "announced": True}
        announcement = AllianceEndAnnouncement.objects.get()
        assert (announcement.kingdom, announcement.by_organizer) == (karak, True)
        assert api_as("carol").delete(url).status_code == 400  # the player's End of Turn is over
        withdrawn = api_as("organizer").delete(f"{url}?kingdom={karak.pk}")
        assert withdrawn.status_code == 200 and withdrawn.json()["announced"] is False
    assert not AllianceEndAnnouncement.objects.exists()


def test_allies_sharing_a_province_stand_together_after_the_end_and_fight_in_the_next_turn(turn, k, alliance):
    """Decision 570 through the site: Karak Dumn's 1st Army stands beside Ostland's 1st Army in
    Ostland's 71 (as an ally's army may: Allies), and Karak Dumn announces the end of the alliance
    during the End of Turn. "During the next Campaign Turn, the rules for allies cease to apply": the
    aftermath leaves the two together and its sanity check accepts it (before, it rolled the whole
    aftermath back and the campaign stopped); in turn 2 neither moves out, and "when two unallied
    armies occupy the same province, a combat occurs" (6. Fight Battles): Karak Dumn's army attacks
    Ostland's, which defends its own province."""
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    theirs = Army.objects.get(kingdom=karak, name="1st Army")
    ours = Army.objects.get(kingdom=ostland, name="1st Army")
    theirs.province = Province.objects.get(campaign=turn.campaign, number=71)
    theirs.save(update_fields=["province"])
    assert ours.province_id == theirs.province_id
    announced = api_as("carol").post(f"/api/turns/{turn.pk}/alliance-end/", {"ally": ostland.pk}, format="json")
    assert announced.status_code == 200
    _file_every_sheet(turn)

    assert aftermath_phase_run(turn_id=turn.pk).resolved
    alliance.refresh_from_db()
    assert (alliance.ended_turn, alliance.ended_how) == (1, "announcement")
    ours.refresh_from_db()
    theirs.refresh_from_db()
    assert ours.province_id == theirs.province_id and ours.province.number == 71

    turn_2 = turn.campaign.turns.get(number=2)
    assert orders_phase_run(turn_id=turn_2.pk).resolved
    battle = Battle.objects.get(turn=turn_2, province__number=71)
    assert (battle.attacker_army, battle.defender_army, battle.both_moved) == (theirs, ours, False)
