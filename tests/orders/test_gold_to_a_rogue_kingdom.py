"""Gold on its way to a kingdom whose player is marked out (Player Issues > Rogue Kingdom, New Player Option:
"treasury restored"; Transfer of Gold: it "will arrive at the beginning of the turn after next"; decision
604). Sent before the receiver went Rogue, a transfer and a land sale's price arrive in its treasury as
sent: the sender paid them, the province sold changed hands, and the treasury waits for a new player."""

from __future__ import annotations

from kernel.event_codes import EventCode
from kingdoms.models import Kingdom, TreasuryEntry
from orders.forms import GoldTransferForm, ItemTransferForm
from orders.services.rogue import kingdom_rogue_declare, rogue_kingdom_give
from orders.services.transfers import gold_transfers_arrive
from tests.kingdoms.builders import campaign_built, kingdom_built
from tests.turns.builders import turn_built
from turns.models import Turn, TurnEvent


def _sent(turn: Turn, sender: Kingdom, to: Kingdom, code: EventCode, gold: int, sequence: int) -> None:
    TurnEvent.objects.create(
        turn=turn,
        sequence=sequence,
        phase="transfers",
        code=code,
        text="sent",
        kingdom=sender,
        gold=-gold - gold // 10,
        data={"to": to.pk, "gold": gold, "fee": gold // 10, "arrives": turn.number + 2},
    )


def test_gold_sent_before_the_receiver_went_rogue_waits_in_its_treasury_for_a_new_player(db) -> None:
    """Westreach sent Eastmark 500 gold and paid 300 for a province of it in turn 1; Eastmark's player is
    out in turn 2; turn 3 opens: the 800 arrive in Eastmark's treasury, and its new leader finds them."""
    campaign = campaign_built(name="In flight", provinces=6, current_turn=2)
    eastmark = kingdom_built(campaign, "Eastmark", player="east", capitol=1, gold=2000)
    westreach = kingdom_built(campaign, "Westreach", player="west", capitol=6, gold=2000)
    first = turn_built(campaign, 1, status=Turn.Status.REPORTED)
    _sent(first, westreach, eastmark, EventCode.TRANSFER_SENT, 500, 1)
    _sent(first, westreach, eastmark, EventCode.LAND_PRICE_PAID, 300, 2)
    second = turn_built(campaign, 2)
    kingdom_rogue_declare(kingdom=eastmark)
    Turn.objects.filter(pk=second.pk).update(status=Turn.Status.REPORTED)
    third = turn_built(campaign, 3)
    campaign.current_turn = 3
    campaign.save(update_fields=["current_turn"])

    gold_transfers_arrive(turn=third)

    arrived = TreasuryEntry.objects.filter(kingdom=eastmark, turn=3)
    assert sorted((e.amount, e.reason) for e in arrived) == [(300, "land-sale"), (500, "transfer")]
    assert TurnEvent.objects.filter(turn=third, code=EventCode.TRANSFER_ARRIVED, kingdom=eastmark).count() == 2
    rogue_kingdom_give(kingdom=eastmark, email="erin@example.com")
    assert Kingdom.objects.get(pk=eastmark.pk).treasury_balance() == 2000 + 800


def test_the_order_sheet_page_offers_no_rogue_kingdom_to_send_gold_or_items_to(db) -> None:
    """Decision 604: the sheet's Transfer of Gold rows list the kingdoms with a player to receive it."""
    campaign = campaign_built(name="Receivers", provinces=6)
    eastmark = kingdom_built(campaign, "Eastmark", player="east", capitol=1)
    westreach = kingdom_built(campaign, "Westreach", player="west", capitol=6)
    northwood = kingdom_built(campaign, "Northwood", player="north", capitol=3)
    turn_built(campaign)
    kingdom_rogue_declare(kingdom=eastmark)

    for form in (GoldTransferForm(kingdom=westreach), ItemTransferForm(kingdom=westreach)):
        assert [name for _, name in form.fields["kingdom"].choices] == ["-", northwood.name]
