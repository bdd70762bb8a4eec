"""Supply Depot on the turn summary sheet and in the aftermath, through the service, the API and the
page (battles/services/summaries.py, battles/api.py, battles/views.py, battles/services/aftermath_write.py):
a depot captured (whose, by which army) and a cart recaptured are recorded; the aftermath leaves the
army without a depot (it forages until it buys a replacement) and puts the cart on the captor's
roster; both kingdoms read it in the turn's log. Bad input is refused whole, naming the rule.
Rulebook: Supply Depot; 2. Maintain Armies; decisions 395-397."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from battles.models import Battle, TurnSummarySheet
from battles.services.summaries import summary_sheet_save
from briternia.errors import DomainError
from kernel.event_codes import EventCode
from kingdoms.models import Army
from reports.services.reports import kingdom_report_context
from tests.clients import api_as, error_details, user_named
from turns.models import DiceRoll, TurnEvent
from turns.services.cycle import aftermath_phase_run, orders_phase_run


def _save(battle, kingdom, **data):
    return summary_sheet_save(battle=battle, kingdom=kingdom, data=data, entered_by=kingdom.players.first())


@pytest.fixture
def hartwood(turn, battles_posted):
    """Tor Anlec's Raiders attack Ostland's Wardens in 62 Hartwood; Ostland's 1st Army supports them."""
    return Battle.objects.get(turn=turn, province__number=62)


@pytest.fixture
def armies(k):
    return {
        "raiders": Army.objects.get(kingdom=k["Tor Anlec"], name="Raiders"),
        "wardens": Army.objects.get(kingdom=k["Ostland"], name="Wardens"),
        "first": Army.objects.get(kingdom=k["Ostland"], name="1st Army"),
        "boyz": Army.objects.get(kingdom=k["Da Red Fang"], name="Boyz"),
    }


def test_supply_depot_captured_through_the_api_leaves_the_army_without_one_after_the_aftermath(
    turn, k, hartwood, armies
):
    """Supply Depot: the Raiders' sheet (the API) reports the Wardens' depot captured by the Raiders;
    after the aftermath the Wardens have none (2. Maintain Armies: they forage from the next turn) and
    the cart is a spare on the Raiders' roster (decision 396); both kingdoms' logs tell it."""
    raiders, wardens = armies["raiders"], armies["wardens"]
    assert wardens.supply_depot and raiders.supply_depot and raiders.spare_carts == 0
    url = f"/api/battles/{hartwood.pk}/sheet/"
    response = api_as("dave").put(
        url,
        {"result": "minor-victory", "depots_captured": [{"army": wardens.pk, "by": raiders.pk}]},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["depots_captured"] == [{"army": wardens.pk, "by": raiders.pk}]
    assert api_as("dave").get(url).json()["carts_recaptured"] == []
    _save(hartwood, k["Ostland"], result="minor-loss")
    eldenhall = Battle.objects.get(turn=turn, province__number=61)  # the turn's other battle
    _save(eldenhall, k["Da Red Fang"], result="major-victory")
    _save(eldenhall, k["Ostland"], result="major-loss")

    outcome = aftermath_phase_run(turn_id=turn.pk)
    assert outcome.resolved
    raiders.refresh_from_db()
    wardens.refresh_from_db()
    assert (wardens.supply_depot, wardens.spare_carts) == (False, 0)
    assert (raiders.supply_depot, raiders.spare_carts) == (True, 1)
    told = {
        (e.code, e.kingdom_id, e.army_id): e.text
        for e in TurnEvent.objects.filter(turn=turn, code__in=[EventCode.DEPOT_LOST, EventCode.DEPOT_CAPTURED])
    }
    assert set(told) == {
        (EventCode.DEPOT_LOST, k["Ostland"].pk, wardens.pk),
        (EventCode.DEPOT_CAPTURED, k["Tor Anlec"].pk, raiders.pk),
    }
    assert "Foraging Table" in told[(EventCode.DEPOT_LOST, k["Ostland"].pk, wardens.pk)]
    assert "150 Victory Points" in told[(EventCode.DEPOT_CAPTURED, k["Tor Anlec"].pk, raiders.pk)]
    # The reports tell it: each kingdom's turn report has its own line of it.
    for name, code, army in (
        ("Ostland", EventCode.DEPOT_LOST, wardens),
        ("Tor Anlec", EventCode.DEPOT_CAPTURED, raiders),
    ):
        context = kingdom_report_context(turn=turn, kingdom=k[name])
        lines = [e.text for _, rows in context["phases"] for e in rows]
        assert told[(code, k[name].pk, army.pk)] in lines

    # The sheet's page, once the turn has moved on, says what it filed.
    client = Client()
    client.force_login(user_named("dave"))
    page = html.unescape(client.get(url.removeprefix("/api")).content.decode())
    assert "Supply depots: Wardens' cart captured by Raiders." in page

    # 2. Maintain Armies of the next turn: the Wardens roll on the Foraging Table, the Raiders do not.
    assert orders_phase_run(turn_id=outcome.next_turn.pk).resolved
    foraging = TurnEvent.objects.filter(turn=outcome.next_turn, phase="maintain-armies", code__startswith="foraging-")
    assert {e.army_id for e in foraging} == {wardens.pk}
    assert DiceRoll.objects.filter(
        campaign=turn.campaign, turn=outcome.next_turn.number, purpose="Wardens: Foraging Table"
    ).exists()


def test_supply_depot_the_page_records_a_capture_and_a_cart_recaptured(k, hartwood, armies):
    """Supply Depot on the sheet's page: Ostland's sheet offers the Raiders' cart (captured by one of
    its armies in the battle) and the Wardens' own cart recaptured; what it posts is saved, and the page
    shows it again."""
    raiders, wardens = armies["raiders"], armies["wardens"]
    client = Client()
    client.force_login(user_named("alice"))
    url = f"/battles/{hartwood.pk}/sheet/"
    page = client.get(url).content.decode()
    assert "<h2>Supply depots</h2>" in page and "150 Victory Points" in page
    assert f'name="captured-{raiders.pk}"' in page and f'name="recaptured-{wardens.pk}"' in page
    assert f'name="captured-{wardens.pk}"' not in page  # its own army's cart is not the enemy's

    response = client.post(
        url,
        {
            "result": "minor-loss",
            "action": "submit",
            f"captured-{raiders.pk}": "1",
            f"captured-by-{raiders.pk}": str(armies["first"].pk),  # the supporting army's detachment took it
            f"recaptured-{wardens.pk}": "on",
        },
    )
    assert response.status_code == 302
    sheet = TurnSummarySheet.objects.get(battle=hartwood, kingdom=k["Ostland"])
    assert sheet.depots_captured == [{"army": raiders.pk, "by": armies["first"].pk}]
    assert sheet.carts_recaptured == [wardens.pk]
    again = client.get(url).content.decode()
    assert f'name="recaptured-{wardens.pk}" checked' in again


def test_supply_depot_capturing_the_depot_of_an_army_not_in_the_battle_is_refused_whole(k, hartwood, armies):
    """Bad input: the Boyz did not fight in Hartwood, so their depot cannot be captured there; the API
    refuses the whole sheet with a message naming the army and the rule, and nothing is saved."""
    boyz = armies["boyz"]
    response = api_as("dave").put(
        f"/api/battles/{hartwood.pk}/sheet/",
        {"result": "minor-victory", "depots_captured": [{"army": boyz.pk, "by": armies["raiders"].pk}]},
        format="json",
    )
    assert response.status_code == 400
    assert error_details(response) == [
        f"Supply depots captured: army {boyz.pk} brought no cart to this battle against Tor Anlec: only a cart of "
        "the army that fought it here can be captured; a support detachment, a garrison or the Tomb Raiders "
        "bring none (Supply Depot)."
    ]
    assert not TurnSummarySheet.objects.exists()
    assert Battle.objects.get(pk=hartwood.pk).status == Battle.Status.SCHEDULED


def test_supply_depot_every_bad_cart_on_a_sheet_is_named_and_nothing_is_saved(k, hartwood, armies):
    """Supply Depot (decision 395): a support detachment brings no cart (the 1st Army's cannot be
    captured); the captor must have fought on the sheet's side; an army loses no more carts than it
    brought (the Wardens: their depot alone); only the side's own cart is recaptured."""
    raiders, wardens, first = armies["raiders"], armies["wardens"], armies["first"]
    with pytest.raises(DomainError) as refused:
        _save(
            hartwood,
            k["Tor Anlec"],
            result="minor-victory",
            depots_captured=[
                {"army": first.pk, "by": raiders.pk},
                {"army": wardens.pk, "by": armies["boyz"].pk},
                {"army": wardens.pk, "by": raiders.pk},
                {"army": wardens.pk, "by": raiders.pk},
            ],
            carts_recaptured=[wardens.pk],
        )
    messages = refused.value.messages
    assert messages[0].startswith(f"Supply depots captured: army {first.pk} brought no cart to this battle")
    assert messages[1] == (
        f"Supply depots captured: Ostland: Wardens' cart: army {armies['boyz'].pk} did not fight on Tor Anlec's "
        "side of this battle; name the army of this side that captured it (Supply Depot)."
    )
    assert messages[2] == (
        "Supply depots captured: Ostland: Wardens brought 1 cart to this battle (its Supply Depot and the carts it "
        "had captured); no more can be captured (Supply Depot)."
    )
    assert messages[3].startswith(f"Carts recaptured: army {wardens.pk} is not Tor Anlec's army with a cart")
    assert messages[3].endswith("(Supply Depot).")
    assert not TurnSummarySheet.objects.exists()


def test_supply_depot_more_carts_than_an_army_brought_is_told_once_on_the_page(k, hartwood, armies):
    """Supply Depot (decision 395): the page's form says 100 of the Wardens' carts were captured; they
    brought one. The sheet is refused with one message for the Wardens (not one per extra cart), and
    nothing is saved."""
    raiders, wardens = armies["raiders"], armies["wardens"]
    client = Client()
    client.force_login(user_named("dave"))
    url = f"/battles/{hartwood.pk}/sheet/"
    response = client.post(
        url,
        {
            "result": "minor-victory",
            "action": "submit",
            f"captured-{wardens.pk}": "100",
            f"captured-by-{wardens.pk}": str(raiders.pk),
        },
    )
    page = html.unescape(response.content.decode())
    message = (
        "Supply depots captured: Ostland: Wardens brought 1 cart to this battle (its Supply Depot and the carts it "
        "had captured); no more can be captured (Supply Depot)."
    )
    assert page.count(message) == 1, page.count(message)
    assert not TurnSummarySheet.objects.exists()


def test_supply_depot_the_api_refuses_a_list_of_carts_longer_than_any_battle_has_naming_it(k, hartwood, armies):
    """Supply Depot: a sheet's list of captured carts (once per cart) has at most 100 rows, the most the
    page's form takes; the API refuses 3,000 whole with one message naming the field, and nothing is
    saved. Within the bound, too many carts of one army are one message."""
    raiders, wardens = armies["raiders"], armies["wardens"]
    url = f"/api/battles/{hartwood.pk}/sheet/"
    row = {"army": wardens.pk, "by": raiders.pk}
    response = api_as("dave").put(url, {"result": "minor-victory", "depots_captured": [row] * 3000}, format="json")
    assert response.status_code == 400
    assert error_details(response) == [
        "depots_captured: at most 100 entries (far more than any battle's units, characters or carts); this list "
        "has more. Nothing was saved."
    ]
    response = api_as("dave").put(url, {"result": "minor-victory", "depots_captured": [row] * 100}, format="json")
    assert response.status_code == 400
    assert error_details(response) == [
        "Supply depots captured: Ostland: Wardens brought 1 cart to this battle (its Supply Depot and the carts it "
        "had captured); no more can be captured (Supply Depot)."
    ]
    for field, rows in (("casualties", [{"unit": 1}] * 101), ("characters_lost", [1] * 101)):
        response = api_as("dave").put(url, {"result": "minor-victory", field: rows}, format="json")
        assert response.status_code == 400
        assert error_details(response)[0].startswith(f"{field}: at most 100 entries")
    assert not TurnSummarySheet.objects.exists()
