"""turns migrations 0002 and 0003 (issue 29): the turns, their events and the dice rolls move from
the orders and kingdoms apps to the turn cycle's with their tables. No row moves: a database
migrated from before the move keeps every turn, event and roll, with the rows that name them, and
the content types follow the models (the admin's history names them under their new labels)."""

from __future__ import annotations

from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType

from demo.campaign import demo_campaign_create
from orders.models import OrderSheet
from tests.migration_steps import migrated_back
from turns.models import DiceRoll, Turn, TurnEvent

# The last migrations before the move, of every app it touches.
BEFORE = [
    ("turns", "0001_sweep_record"),
    ("orders", "0009_hold_when_missing"),
    ("kingdoms", "0023_army_spare_carts"),
    ("battles", "0011_summary_sheet_supply_depots"),
    ("reports", "0002_report_emails_in_the_outbox"),
    ("outbox", "0004_email_kind_co_player_removed"),
    ("contenttypes", "0002_remove_content_type_name"),
]


def test_the_turns_events_and_dice_rolls_keep_their_rows_and_content_types(transactional_db, django_user_model):
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    sheets = set(OrderSheet.objects.filter(turn=turn).values_list("pk", flat=True))
    admin = django_user_model.objects.create_superuser("admin", "admin@briternia.local", "x")
    turn_type = ContentType.objects.get_for_model(Turn)
    LogEntry.objects.create(
        user=admin, content_type=turn_type, object_id=str(turn.pk), object_repr=str(turn), action_flag=CHANGE
    )
    with migrated_back(BEFORE) as old_apps:
        # Before the move: the same tables, under the old apps' labels.
        assert old_apps.get_model("orders", "Turn").objects.get(pk=turn.pk).number == 1
        old_turn = old_apps.get_model("orders", "Turn").objects.get(pk=turn.pk)
        event = old_apps.get_model("orders", "TurnEvent").objects.create(
            turn=old_turn, sequence=9999, phase="test", code="before-the-move", text="Written before the move."
        )
        roll = old_apps.get_model("kingdoms", "DiceRoll").objects.create(
            campaign_id=campaign.pk,
            turn=1,
            stream="test",
            sequence=1,
            expression="1D6",
            faces=[4],
            total=4,
            purpose="a test",
        )
        old_types = old_apps.get_model("contenttypes", "ContentType").objects
        assert old_types.get(app_label="orders", model="turn").pk == turn_type.pk
        assert not old_types.filter(app_label="turns", model="turn").exists()

    ContentType.objects.clear_cache()
    assert Turn.objects.get(pk=turn.pk).number == 1
    assert set(OrderSheet.objects.filter(turn_id=turn.pk).values_list("pk", flat=True)) == sheets
    assert TurnEvent.objects.get(pk=event.pk).code == "before-the-move"
    assert DiceRoll.objects.get(pk=roll.pk).campaign == campaign
    assert ContentType.objects.get_for_model(Turn).pk == turn_type.pk
    assert not ContentType.objects.filter(app_label="orders", model__in=["turn", "turnevent"]).exists()
    assert not ContentType.objects.filter(app_label="kingdoms", model="diceroll").exists()
    assert LogEntry.objects.get(user=admin).get_edited_object() == Turn.objects.get(pk=turn.pk)
