"""Bad input on the turn summary sheet, the ruling and the pause (issue 19): each is a clear 4xx
through the real endpoint or page, on SQLite and PostgreSQL alike, and no row changes."""

from __future__ import annotations

import pytest

from battles.models import Battle, TurnSummarySheet
from briternia.middleware import NUL_MESSAGE
from orders.models import CampaignSchedule
from rulebook.turn.tables import transfer_affordable, transfer_fee
from tests.clients import api_as, error_details, pages_as


@pytest.fixture
def hartwood(turn, battles_posted):
    return Battle.objects.get(turn=turn, province__number=62)


@pytest.fixture
def filed(hartwood, k):
    """Ostland's sheet as alice filed it."""
    response = api_as("alice").put(
        f"/api/battles/{hartwood.pk}/sheet/", {"result": "draw", "story": "Rain."}, format="json"
    )
    assert response.status_code == 200, response.json()
    return TurnSummarySheet.objects.get(battle=hartwood, kingdom=k["Ostland"])


def _rows(battle: Battle) -> list[tuple]:
    return list(
        TurnSummarySheet.objects.filter(battle=battle)
        .order_by("pk")
        .values_list("kingdom", "status", "result", "negotiation_gold", "negotiation_note", "story", "updated_at")
    )


def test_the_summary_sheet_api_refuses_junk_whole(hartwood, k, filed):
    url = f"/api/battles/{hartwood.pk}/sheet/"
    before = _rows(hartwood)
    alice, organizer = api_as("alice"), api_as("organizer")
    # A form body is refused: JSON only.
    form = alice.put(url, "result=massacre&casualties=x", content_type="application/x-www-form-urlencoded")
    assert form.status_code == 415 and "Unsupported media type" in error_details(form)[0]
    assert form.json()["errors"][0]["code"] == "unsupported_media_type"
    # ?kingdom= is parsed by its serializer field: "²" answered 500, "abc" fell back to the caller's.
    for junk in ("²", "abc", "-3"):
        for client in (alice, organizer):
            response = client.put(f"{url}?kingdom={junk}", {"result": "massacre"}, format="json")
            assert response.status_code == 400, (junk, response.content)
            assert [e["attr"] for e in response.json()["errors"]] == ["kingdom"], (junk, response.content)
            assert client.get(f"{url}?kingdom={junk}").status_code == 400
    # Money negotiations: within the column, then within what the treasury holds.
    for gold in (10**12, 2_147_483_648):
        response = alice.put(url, {"result": "massacre", "negotiation_gold": gold}, format="json")
        assert response.status_code == 400
        (error,) = response.json()["errors"]
        assert (error["attr"], error["code"]) == ("negotiation_gold", "max_value")
        assert error["detail"] == "Ensure this value is less than or equal to 2147483647."
    treasury = k["Ostland"].treasury_balance()
    # With its 10% transportation fee (Transfer of Gold, decision 142): the treasury pays both.
    most = transfer_affordable(treasury, treasury)
    response = alice.put(url, {"result": "massacre", "negotiation_gold": most + 1}, format="json")
    assert response.status_code == 400
    assert (
        f"Money negotiations: Ostland's treasury holds {treasury:,} gold; it cannot agree to pay {most + 1:,} "
        f"and its {transfer_fee(most + 1):,} transportation fee (a kingdom pays its negotiations from its treasury, "
        "as a Transfer of Gold)." in error_details(response)
    )
    # A NUL byte in any text, or in a key.
    for body in (
        {"result": "massacre", "story": "Rain\u0000"},
        {"result": "massacre", "negotiation_note": "\u0000"},
        {"result": "massacre", "injury_rerolls": {"\u0000": "dead"}},
    ):
        response = alice.put(url, body, format="json")
        assert response.status_code == 400 and error_details(response) == [NUL_MESSAGE]
    assert _rows(hartwood) == before
    # What the treasury holds, with the fee, may be agreed.
    agreed = alice.put(url, {"result": "draw", "negotiation_gold": most}, format="json")
    assert agreed.status_code == 200 and agreed.json()["negotiation_gold"] == most


def test_the_pages_refuse_a_nul_byte_and_unbounded_gold(hartwood, k, filed, demo_campaign):
    before = _rows(hartwood)
    page = pages_as("alice")
    sheet_url = f"/battles/{hartwood.pk}/sheet/"
    for field in ("story", "negotiation_note"):
        response = page.post(sheet_url, {"result": "massacre", field: "Rain\x00", "action": "submit"})
        assert response.status_code == 400 and NUL_MESSAGE in response.content.decode()
    for gold in ("2147483648", str(10**12)):
        response = page.post(sheet_url, {"result": "massacre", "negotiation_gold": gold, "action": "submit"})
        assert response.status_code == 400
        assert "Money negotiations: Ostland&#x27;s treasury holds" in response.content.decode()
    assert _rows(hartwood) == before

    organizer = pages_as("organizer")
    ruled = organizer.post(f"/battles/{hartwood.pk}/ruling/", {"result": "draw", "note": "Agreed\x00"})
    assert ruled.status_code == 400 and NUL_MESSAGE in ruled.content.decode()
    battle = Battle.objects.get(pk=hartwood.pk)
    assert (battle.ruling_result, battle.ruling_note) == ("", "")
    paused = organizer.post(f"/campaigns/{demo_campaign.pk}/pause/", {"paused": "1", "reason": "\x00"})
    assert paused.status_code == 400 and NUL_MESSAGE in paused.content.decode()
    assert not CampaignSchedule.objects.get(campaign=demo_campaign).paused
