"""Characters through the sheets and the aftermath, on the demo campaign: the turn summary sheet's
choices (a reroll on the Character Injury Chart for 25 experience, Backstabbers, the Warlord's heir
on a tie) through the service, the page and the API; the reroll paid with its ledger row; battles
survived written. Rulebook: Spending Experience, Character Injury Chart, Warlord, Army-Specific
Rules (Backstabbers)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from battles.models import Battle, TurnSummarySheet
from battles.services.aftermath import aftermath_preview
from battles.services.summaries import summary_sheet_save
from briternia.errors import DomainError
from kingdoms.models import Army, Character, ExperienceEntry
from turns.models import TurnEvent
from turns.services.cycle import aftermath_phase_run


def _save(battle, kingdom, **data):
    return summary_sheet_save(battle=battle, kingdom=kingdom, data=data, entered_by=kingdom.players.first())


def _user(name):
    return get_user_model().objects.get(username=name)


@pytest.fixture
def battles(turn, battles_posted):
    return {b.province.number: b for b in Battle.objects.filter(turn=turn)}


def _general(army: Army, name: str, **kw) -> Character:
    unit = army.units.create(name=name, category="character", models_count=1, points_per_model=100)
    return Character.objects.create(unit=unit, kingdom=army.kingdom, role=Character.Role.GENERAL, **kw)


def test_a_reroll_bought_on_the_sheet_is_paid_with_a_ledger_row_and_the_survivors_count_the_battle(turn, k, battles):
    """XP5 through the site: Tor Anlec's sheet spends 25 experience to reroll any harmful result of
    Captain Eltharion's injury test. The Raiders win a minor victory (75 experience), pay 25 (a row
    of the experience ledger), the log shows both rolls; Captain Finubar, who was not hurt, has one
    more battle survived."""
    raiders = Army.objects.get(name="Raiders")
    eltharion = _general(raiders, "Captain Eltharion")
    finubar = _general(raiders, "Captain Finubar")
    _save(
        battles[62],
        k["Tor Anlec"],
        result="minor-victory",
        characters_lost=[eltharion.id],
        injury_rerolls={str(eltharion.id): "harmed"},
    )
    _save(battles[62], k["Ostland"], result="minor-loss")
    _save(battles[61], k["Da Red Fang"], result="draw")
    _save(battles[61], k["Ostland"], result="draw")
    # A seed whose first roll harms him (the preview is what the aftermath then does) and whose
    # reroll does not Survive Against the Odds (which would add 15).
    for n in range(40):
        turn.seed = f"xp5-{n}"
        turn.save(update_fields=["seed"])
        events = aftermath_preview(turn=turn).events
        lucky = any(e.data.get("code") == "survives-against-the-odds" for e in events if e.code == "injury")
        if any(e.code == "injury-reroll" for e in events) and not lucky:
            break
    else:
        pytest.fail("no seed rerolls")
    assert aftermath_phase_run(turn_id=turn.pk).resolved
    raiders.refresh_from_db()
    assert raiders.experience == 75 - 25
    row = ExperienceEntry.objects.get(army=raiders, reason="injury-reroll")
    assert row.amount == -25 and row.turn == 1
    event = TurnEvent.objects.get(turn=turn, code="injury-reroll")
    assert "Captain Eltharion" in event.text and "second roll stands" in event.text
    assert event.data["first"] and event.data["second"]
    eltharion.refresh_from_db()
    finubar.refresh_from_db()
    assert finubar.battles_survived == 1
    assert eltharion.battles_survived == (1 if eltharion.alive else 0)
    assert [i["roll"] for i in eltharion.injuries][:1] == [event.data["second"][0]["roll"]]


def test_case_A5_the_warlord_s_army_wiped_out_his_death_and_his_heir_are_written(turn, k, battles):
    """7. Aftermath, Warlord (decision 557) through the site: Ostland's Wardens, led by their Warlord
    Captain Aldric, lose in Hartwood (62) with every neighbour held: they are wiped out, Aldric is dead
    (the kingdom's log says so), a General of Ostland's is its living Warlord, and the Wardens earn no
    experience."""
    ostland = k["Ostland"]
    Character.objects.filter(kingdom=ostland, role=Character.Role.WARLORD).update(role=Character.Role.GENERAL)
    aldric = Character.objects.get(kingdom=ostland, unit__name="Captain Aldric")
    Character.objects.filter(pk=aldric.pk).update(role=Character.Role.WARLORD)
    hartwood = battles[62].province
    # Every neighbour but the 1st Army's (71) held, Eldenhall (61) too, which the Boyz leave after their draw.
    held = hartwood.neighbours.exclude(armies__kingdom=ostland, armies__status=Army.Status.ACTIVE)
    for n, free in enumerate(held.order_by("number")):
        blocker = Army.objects.create(kingdom=ostland, name=f"Blockers {n}", province=free, size=1000)
        blocker.units.create(name="Warriors", category="core", models_count=100, points_per_model=10)
    _save(battles[62], k["Tor Anlec"], result="minor-victory")
    _save(battles[62], ostland, result="minor-loss")
    _save(battles[61], k["Da Red Fang"], result="draw")
    _save(battles[61], ostland, result="draw")

    assert aftermath_phase_run(turn_id=turn.pk).resolved

    wardens = Army.objects.get(name="Wardens")
    aldric.refresh_from_db()
    assert wardens.status == Army.Status.DISBANDED and wardens.experience == 0
    assert not ExperienceEntry.objects.filter(army=wardens).exists()
    assert not aldric.alive
    heir = Character.objects.get(kingdom=ostland, role=Character.Role.WARLORD, alive=True)
    assert heir.unit.army.status == Army.Status.ACTIVE
    assert TurnEvent.objects.filter(turn=turn, code="wiped-out", kingdom=ostland).exists()
    dead = TurnEvent.objects.get(turn=turn, code="character-dead", kingdom=ostland)
    assert "Captain Aldric" in dead.text and "wiped out" in dead.text
    assert heir.unit.name in TurnEvent.objects.get(turn=turn, code="warlord-succession", kingdom=ostland).text


def test_the_sheet_refuses_choices_the_rules_do_not_allow_as_a_whole(k, battles):
    """A reroll for a character who was not removed as a casualty, Backstabbers against an army
    that is not Skaven, and an heir who is not a General: refused together, nothing saved."""
    raiders = Army.objects.get(name="Raiders")
    eltharion = _general(raiders, "Captain Eltharion")
    warlord = Character.objects.get(kingdom=k["Tor Anlec"], role="warlord")
    with pytest.raises(DomainError) as refused:
        _save(
            battles[62],
            k["Tor Anlec"],
            result="minor-victory",
            injury_rerolls={str(eltharion.id): "dead"},
            backstab=True,
            warlord_heir=warlord.id,
        )
    messages = refused.value.messages
    assert any(
        m.startswith("Injury rerolls: Captain Eltharion (Raiders) was not removed as a casualty") for m in messages
    )
    assert any(m.startswith("Backstabbers: only against a Skaven army") for m in messages)
    assert any(m.startswith("Warlord:") and "living Generals" in m for m in messages)
    assert not TurnSummarySheet.objects.exists()


def test_the_api_and_the_page_take_the_rerolls_and_the_heir(k, battles):
    raiders = Army.objects.get(name="Raiders")
    eltharion = _general(raiders, "Captain Eltharion")
    heir = _general(raiders, "Captain Finubar")
    api = APIClient()
    api.force_authenticate(_user("dave"))
    url = f"/api/battles/{battles[62].pk}/sheet/"
    bad = api.put(url, {"result": "draw", "injury_rerolls": {str(eltharion.id): "always"}}, format="json")
    assert bad.status_code == 400
    ok = api.put(
        url,
        {
            "result": "draw",
            "characters_lost": [eltharion.id],
            "injury_rerolls": {str(eltharion.id): "dead"},
            "warlord_heir": heir.id,
        },
        format="json",
    )
    assert ok.status_code == 200, ok.json()
    assert ok.json()["injury_rerolls"] == {str(eltharion.id): "dead"} and ok.json()["warlord_heir"] == heir.id

    page = Client()
    page.force_login(_user("dave"))
    sheet_url = f"/battles/{battles[62].pk}/sheet/"
    shown = page.get(sheet_url).content.decode()
    assert "Rerolls on the Character Injury Chart" in shown and "If your Warlord dies" in shown
    assert "Backstabbers" not in shown  # the Wardens are not Skaven
    response = page.post(
        sheet_url,
        {
            "result": "draw",
            f"character-{eltharion.id}": "on",
            f"reroll-{eltharion.id}": "harmed",
            "warlord_heir": str(heir.id),
            "action": "submit",
        },
    )
    assert response.status_code == 302
    sheet = TurnSummarySheet.objects.get(battle=battles[62], kingdom=k["Tor Anlec"])
    assert sheet.injury_rerolls == {str(eltharion.id): "harmed"} and sheet.warlord_heir == heir


def test_an_old_battle_wound_is_rolled_when_the_battle_is_posted_and_the_sheet_says_so(
    turn, k, battles_filed, django_capture_on_commit_callbacks
):
    """Old Battle Wound: "Roll a D6 before each battle. On the result of a 1 ... the character cannot
    participate": the engine rolls it when the battle is posted (a recorded die with its purpose);
    the scenario sheet (PDF and page) says he cannot take part, and he survived no battle."""
    from kernel.dice import SeededDice
    from turns.models import DiceRoll
    from turns.services.cycle import orders_phase_run

    wardens = Army.objects.get(name="Wardens")
    raiders = Army.objects.get(name="Raiders")
    ulric = _general(wardens, "Captain Ulric", injuries=[{"code": "old-battle-wound", "label": "Old Battle Wound"}])
    stream = f"old-wounds:scenario:62:{raiders.id}"
    turn.seed = next(
        s for s in (f"owb-{n}" for n in range(100)) if SeededDice(seed=s, stream=stream).d6(purpose="x") == 1
    )
    turn.save(update_fields=["seed"])
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_phase_run(turn_id=turn.pk).resolved
    hartwood = Battle.objects.get(turn=turn, province__number=62)
    assert hartwood.old_wounds == [
        {"character": ulric.id, "name": "Captain Ulric", "army": wardens.id, "rolls": [1], "out": True}
    ]
    roll = DiceRoll.objects.get(purpose="Old Battle Wound: Captain Ulric")
    assert roll.faces == [1] and roll.armies == [wardens.id]
    alice = Client()
    alice.force_login(_user("alice"))
    note = "Captain Ulric: Old Battle Wound: rolled 1; the old wound is acting up, he cannot take part"
    assert note in alice.get(f"/battles/{hartwood.pk}/").content.decode()
    import io

    from pypdf import PdfReader

    pdf = alice.get(f"/battles/{hartwood.pk}/scenario.pdf").content
    text = " ".join("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())
    assert note in text

    _save(hartwood, k["Tor Anlec"], result="minor-victory")
    _save(hartwood, k["Ostland"], result="minor-loss")
    eldenhall = Battle.objects.get(turn=turn, province__number=61)
    _save(eldenhall, k["Da Red Fang"], result="draw")
    _save(eldenhall, k["Ostland"], result="draw")
    assert aftermath_phase_run(turn_id=turn.pk).resolved
    ulric.refresh_from_db()
    assert ulric.battles_survived == 0
