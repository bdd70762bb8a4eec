"""Allies and absent players on the turn summary sheet, through the site (page and API) and the
aftermath service, on the demo campaign's posted turn 1: an ally's withdrawal of support breaks
the alliance (2,000 gold to the betrayed, an event and a line in both kingdoms' reports, the
bulletin); the organizer marks who played the battle of an absent player (The Campaign Must Go
On), shown on the battle page and in the reports. Rulebook: Allies; Player Issues."""

from __future__ import annotations

import pytest
from django.utils import timezone

from battles.models import Battle, BattleSupport, TurnSummarySheet
from battles.services.aftermath_state import aftermath_state_load
from kingdoms.models import Alliance, Army, TreasuryEntry
from reports.services.reports import bulletin_context, kingdom_report_context
from tests.clients import api_as, error_details, pages_as, user_named
from turns.models import TurnEvent
from turns.services.cycle import aftermath_phase_run


@pytest.fixture
def hartwood(turn, battles_posted) -> Battle:
    """Tor Anlec's Raiders attack Ostland's Wardens in Hartwood (62)."""
    return Battle.objects.get(turn=turn, province__number=62)


@pytest.fixture
def allied_support(k, hartwood) -> Army:
    """Ostland (Empire) and Karak Dumn (Dwarfs) allied before turn 1 (Trusted Allies), and Karak
    Dumn's 1st Army sent Ostland 300 points of core troops in Hartwood: an ally's detachment, as
    the resolution writes it (AL3 is tested in tests/rulebook/allies/test_declarations.py)."""
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    Alliance.objects.create(campaign=ostland.campaign, first=ostland, second=karak, trust="T", formed_turn=0)
    army = karak.armies.get(name="1st Army")
    BattleSupport.objects.create(battle=hartwood, army=army, kingdom=karak, side="defender", points=300, arrival=5)
    return army


def _points_faced(turn, battle) -> tuple[int, int]:
    """The points each side of the battle faced, as the aftermath loads them (attacker, defender)."""
    (loaded,) = [b for b in aftermath_state_load(turn, now=timezone.now()).battles if b.id == battle.pk]
    return loaded.attacker.points_faced, loaded.defender.points_faced


def _lines(context) -> list[str]:
    return [e.text for _, rows in context["phases"] for e in rows]


def test_an_ally_withdrawing_its_support_breaks_the_alliance_and_pays_the_betrayed_2000(
    turn, k, hartwood, allied_support
):
    ostland, karak = k["Ostland"], k["Karak Dumn"]
    # The page offers the ally's detachment on Ostland's sheet (and on nobody else's).
    form = pages_as("alice").get(f"/battles/{hartwood.pk}/sheet/").content.decode()
    assert f'name="withdrawn-{allied_support.pk}"' in form and "Karak Dumn: 1st Army, 300 points" in form
    assert (
        f'name="withdrawn-{allied_support.pk}"'
        not in pages_as("dave").get(f"/battles/{hartwood.pk}/sheet/").content.decode()
    )
    # Tor Anlec's page files its sheet; Ostland's through the API, first without the withdrawal.
    posted = pages_as("dave").post(f"/battles/{hartwood.pk}/sheet/", {"result": "minor-victory", "action": "submit"})
    assert posted.status_code == 302
    eldenhall = Battle.objects.get(turn=turn, province__number=61)
    api_as("bob").put(f"/api/battles/{eldenhall.pk}/sheet/", {"result": "draw"}, format="json")
    api_as("alice").put(f"/api/battles/{eldenhall.pk}/sheet/", {"result": "draw"}, format="json")
    sheet = f"/api/battles/{hartwood.pk}/sheet/"
    assert api_as("alice").put(sheet, {"result": "minor-loss"}, format="json").status_code == 200
    before = _points_faced(turn, hartwood)
    saved = api_as("alice").put(
        sheet, {"result": "minor-loss", "support_withdrawn": [allied_support.pk]}, format="json"
    )
    assert saved.status_code == 200, saved.json()
    assert saved.json()["support_withdrawn"] == [allied_support.pk]
    # Decision 221: the 300 points that withdrew fought for Tor Anlec from then on: Ostland faced
    # them, Tor Anlec did not (victory gold counts the points faced).
    raiders_faced, wardens_faced = before
    assert _points_faced(turn, hartwood) == (raiders_faced - 300, wardens_faced + 300)

    assert aftermath_phase_run(turn_id=turn.pk).resolved

    alliance = Alliance.objects.get()
    assert (alliance.ended_turn, alliance.ended_how, alliance.broken_by) == (1, "withdrawal", karak)
    assert TreasuryEntry.objects.get(kingdom=ostland, turn=1, reason="alliance").amount == 2000
    assert not TreasuryEntry.objects.filter(kingdom=karak, reason="alliance").exists()
    events = TurnEvent.objects.filter(turn=turn, code="alliance-broken").order_by("sequence")
    assert [(e.kingdom, e.gold, e.phase) for e in events] == [(karak, 0, "aftermath"), (ostland, 2000, "aftermath")]
    assert all("alliance" not in e.data for e in events)  # the rules' id is not stored
    line = "Karak Dumn breaks its alliance with Ostland by withdrawing its support in battle (62 Hartwood)"
    assert any(line in text for text in _lines(kingdom_report_context(turn=turn, kingdom=ostland)))
    assert any(line in text for text in _lines(kingdom_report_context(turn=turn, kingdom=karak)))
    assert (
        "Karak Dumn breaks its alliance with Ostland by withdrawing its support in battle."
        in bulletin_context(turn=turn)["changes"]
    )
    assert api_as("carol").get(f"/api/kingdoms/{karak.pk}/").json()["alliance"] is None


def test_only_an_ally_s_detachment_on_the_own_side_can_be_reported_withdrawn(k, hartwood, allied_support):
    """Bad input is refused whole, naming the army and the rule; nothing is saved."""
    first = k["Ostland"].armies.get(name="1st Army")  # Ostland's own support: not an ally's
    refused = api_as("alice").put(
        f"/api/battles/{hartwood.pk}/sheet/",
        {"result": "minor-loss", "support_withdrawn": [first.pk]},
        format="json",
    )
    assert refused.status_code == 400
    assert error_details(refused) == [
        f"Withdrawal of support: army {first.pk} sent no ally's detachment to Ostland's side of this battle; only "
        "an ally supporting it can withdraw its support (Allies)."
    ]
    assert not TurnSummarySheet.objects.filter(battle=hartwood).exists()
    # Tor Anlec, on the other side, cannot report Ostland's ally's detachment.
    other = api_as("dave").put(
        f"/api/battles/{hartwood.pk}/sheet/",
        {"result": "minor-victory", "support_withdrawn": [allied_support.pk]},
        format="json",
    )
    assert other.status_code == 400 and "Tor Anlec's side" in error_details(other)[0]


def test_the_organizer_marks_who_played_an_absent_player_s_battle(turn, k, hartwood):
    """The Campaign Must Go On: "The Campaign Organizer may play or appoint someone to play the game
    for that person". The organizer files Ostland's sheet and names Carol (another player) through
    the page, or a guest through the API; a player cannot say it, and a stranger is refused."""
    organizer = pages_as("organizer")
    url = f"/battles/{hartwood.pk}/sheet/{k['Ostland'].pk}/"
    page = organizer.get(url).content.decode()
    carol = user_named("carol")
    assert 'id="played_by_player"' in page and f'value="{carol.pk}"' in page
    assert f'value="{user_named("alice").pk}"' not in page  # Ostland's own player is the absent one
    response = organizer.post(url, {"result": "minor-loss", "played_by_player": str(carol.pk), "action": "submit"})
    assert response.status_code == 302
    sheet = TurnSummarySheet.objects.get(battle=hartwood, kingdom=k["Ostland"])
    assert (sheet.played_by_player, sheet.played_by_guest, sheet.by_organizer) == (carol, "", True)
    shown = "Played for Ostland by carol (The Campaign Must Go On)."
    assert shown in pages_as("dave").get(f"/battles/{hartwood.pk}/").content.decode()

    guest = api_as("organizer").put(
        f"/api/battles/{hartwood.pk}/sheet/?kingdom={k['Ostland'].pk}",
        {"result": "minor-loss", "played_by_guest": "Gwen of the Tuesday club"},
        format="json",
    )
    assert guest.status_code == 200, guest.json()
    assert (guest.json()["played_by_guest"], guest.json()["played_by_player"]) == ("Gwen of the Tuesday club", None)

    # A player does not say who played for it; nobody outside the campaign is a stand-in.
    own = api_as("alice").put(
        f"/api/battles/{hartwood.pk}/sheet/", {"result": "minor-loss", "played_by_guest": "Gwen"}, format="json"
    )
    assert own.status_code == 400 and "only the organizer" in error_details(own)[0]
    stranger = api_as("organizer").put(
        f"/api/battles/{hartwood.pk}/sheet/?kingdom={k['Ostland'].pk}",
        {"result": "minor-loss", "played_by_player": 999_999},
        format="json",
    )
    assert stranger.status_code == 400 and "not a player of this campaign" in error_details(stranger)[0]
    sheet.refresh_from_db()
    assert sheet.played_by_guest == "Gwen of the Tuesday club"  # the refused sheets changed nothing

    # In the reports: both kingdoms' and the bulletin, once the battle is settled.
    api_as("dave").put(f"/api/battles/{hartwood.pk}/sheet/", {"result": "minor-victory"}, format="json")
    eldenhall = Battle.objects.get(turn=turn, province__number=61)
    api_as("bob").put(f"/api/battles/{eldenhall.pk}/sheet/", {"result": "draw"}, format="json")
    api_as("alice").put(f"/api/battles/{eldenhall.pk}/sheet/", {"result": "draw"}, format="json")
    assert aftermath_phase_run(turn_id=turn.pk).resolved
    line = "Played for Ostland by Gwen of the Tuesday club (a guest) (The Campaign Must Go On)."
    for context in (
        kingdom_report_context(turn=turn, kingdom=k["Tor Anlec"]),
        kingdom_report_context(turn=turn, kingdom=k["Ostland"]),
        bulletin_context(turn=turn),
    ):
        (row,) = [b for b in context["battles"] if b["battle"].pk == hartwood.pk]
        assert row["stand_ins"] == [line]
