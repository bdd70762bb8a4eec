"""Loss of the Capitol through the turn's writers: the aftermath starts the countdown, the orders
phase writes the coronation, and a kingdom whose three turns ran out becomes a Rogue Kingdom in the
database (its players, armies and alliance gone). Rulebook: Loss of the Capitol."""

from kernel.event_codes import EventCode
from kingdoms.models import Army, Character, Kingdom, Province
from turns.models import Turn, TurnEvent
from turns.services.cycle import orders_phase_run


def test_case_AL7_the_coronation_is_written_and_a_kingdom_out_of_turns_becomes_a_rogue_kingdom(
    turn, ostland, demo_campaign
):
    tor = Kingdom.objects.get(campaign=demo_campaign, name="Tor Anlec")
    # Ostland lost its capitol at the start; its Warlord stands in its old capitol city, still its own.
    warlord_army = Character.objects.get(kingdom=ostland, role="warlord", alive=True).unit.army
    city = warlord_army.province
    assert city.settlement == "city" and city.controller_id == ostland.id
    Kingdom.objects.filter(pk=ostland.pk).update(capitol=None, capitol_lost_turn=4)
    # Tor Anlec lost its capitol in turn 1 (taken by Da Red Fang) and has not been crowned since: the
    # turn is now turn 5. (Its Warlord in a city of its own would be crowned, decision 390.)
    lost_city = tor.capitol
    Province.objects.filter(pk=lost_city.pk).update(
        controller=Kingdom.objects.get(campaign=demo_campaign, name="Da Red Fang")
    )
    Kingdom.objects.filter(pk=tor.pk).update(capitol=None, capitol_lost_turn=1)
    Turn.objects.filter(pk=turn.pk).update(number=5)

    assert orders_phase_run(turn_id=turn.pk).resolved

    ostland.refresh_from_db()
    assert (ostland.capitol_id, ostland.capitol_lost_turn) == (city.id, None)
    assert TurnEvent.objects.filter(turn=turn, kingdom=ostland, code=EventCode.CORONATION).exists()
    tor.refresh_from_db()
    assert tor.rogue_turn == 5 and not tor.players.exists()
    assert not Army.objects.filter(kingdom=tor, status=Army.Status.ACTIVE).exists()
    assert TurnEvent.objects.filter(turn=turn, kingdom=tor, code=EventCode.PLAYER_OUT).exists()
