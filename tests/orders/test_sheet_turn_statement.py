"""The order sheet's first statement (orders.selectors.order_sheet_turn_get): the turn, its campaign
and the user's own kingdom there, the first they play (issue 35: on PostgreSQL it reads the user's
kingdoms first, not every kingdom of the campaign)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.http import Http404

from kingdoms.models import Kingdom
from orders.selectors import order_sheet_turn_get
from tests.clients import user_named


def test_the_user_gets_their_first_kingdom_of_the_turns_campaign_and_none_of_another(demo_campaign):
    turn = demo_campaign.turns.get(number=1)
    alice = user_named("alice")
    kingdoms = list(Kingdom.objects.filter(campaign=demo_campaign).order_by("id"))
    own = next(k for k in kingdoms if k.players.filter(pk=alice.pk).exists())
    assert order_sheet_turn_get(user=alice, turn_id=turn.pk) == (turn, own)
    assert order_sheet_turn_get(user=alice, turn_id=turn.pk)[1].campaign == demo_campaign

    last = kingdoms[-1]
    assert last.pk > own.pk and not last.players.filter(pk=alice.pk).exists()
    last.players.add(alice)  # a second kingdom in the same campaign: the first (lowest id) stays hers
    assert order_sheet_turn_get(user=alice, turn_id=turn.pk)[1] == own
    own.players.remove(alice)
    assert order_sheet_turn_get(user=alice, turn_id=turn.pk)[1] == last

    last.players.remove(alice)  # none left there: the turn is not hers to see
    with pytest.raises(Http404):
        order_sheet_turn_get(user=alice, turn_id=turn.pk)
    with pytest.raises(Http404):
        order_sheet_turn_get(user=user_named("bob"), turn_id=turn.pk + 1000)
    assert order_sheet_turn_get(user=demo_campaign.organizer, turn_id=turn.pk) == (turn, None)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plan: CI's PostgreSQL pass")
def test_the_statement_reads_the_users_kingdoms_not_every_kingdom_of_the_campaign(demo_campaign):
    """Whatever the planner's statistics say, the user's own kingdom is found from their rows of the
    players' table (a few buffers), never by probing the players for each of the campaign's
    kingdoms (the statement's old plan on a young campaign: two probes for each kingdom)."""
    from orders.selectors import _turn_and_own_kingdom_sql

    turn = demo_campaign.turns.get(number=1)
    alice = user_named("alice")
    with connection.cursor() as cursor:
        cursor.execute(
            "EXPLAIN (ANALYZE, COSTS OFF, FORMAT JSON) " + _turn_and_own_kingdom_sql("postgresql"), [alice.pk, turn.pk]
        )
        plan = cursor.fetchone()[0]
    nodes = []

    def walk(node: dict) -> None:
        nodes.append(node)
        for child in node.get("Plans", []):
            walk(child)

    walk(plan[0]["Plan"])
    players = [
        n for n in nodes if n.get("Relation Name") == "kingdoms_kingdom_players" or "players" in n.get("Index Name", "")
    ]
    assert players and all(n["Actual Loops"] == 1 for n in players), plan
