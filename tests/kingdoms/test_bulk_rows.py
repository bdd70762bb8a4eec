"""The set-based writes (kingdoms/services/bulk_rows.py) store what Django's own save would, on both
databases: text with quotes and percent signs, JSON of every shape, the creation time."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from kingdoms.services.bulk_rows import rows_insert, rows_update
from turns.models import DiceRoll

AWKWARD = 'it\'s 100% "fine"; ünïcode — and a \\ backslash'


def _rolls(campaign, count):
    return [
        DiceRoll(
            campaign=campaign,
            turn=3,
            stream=f"s{i % 2}",
            sequence=i,
            expression="2D6",
            faces=[i, 6 - i % 6],
            total=i + 1,
            purpose=AWKWARD if i == 0 else f"roll {i}",
            kingdoms=[] if i else ["a", {"nested": [1, None, True]}],
            armies=[i, None],
        )
        for i in range(count)
    ]


def test_rows_inserted_in_one_statement_read_back_as_saved(demo_campaign):
    rows = _rolls(demo_campaign, 300)
    with CaptureQueriesContext(connection) as queries:
        assert rows_insert(DiceRoll, rows) == 1
    assert len(queries.captured_queries) == 1  # on SQLite too: its limit of parameters, not Django's 999
    stored = list(DiceRoll.objects.filter(campaign=demo_campaign, turn=3).order_by("id"))
    fields = ("stream", "sequence", "expression", "faces", "total", "purpose", "kingdoms", "armies")
    assert [tuple(getattr(r, f) for f in fields) for r in stored] == [
        tuple(getattr(r, f) for f in fields) for r in rows
    ]
    assert all(r.created_at is not None for r in stored)
    assert stored[0].purpose == AWKWARD and stored[0].kingdoms == ["a", {"nested": [1, None, True]}]
    assert rows_insert(DiceRoll, []) == 0


def test_rows_updated_only_in_the_fields_named_for_each(demo_campaign):
    rows_insert(DiceRoll, _rolls(demo_campaign, 3))
    first, second, third = DiceRoll.objects.filter(campaign=demo_campaign, turn=3).order_by("id")
    DiceRoll.objects.filter(pk=second.pk).update(total=99)  # behind the writer's back
    with CaptureQueriesContext(connection) as queries:
        rows_update(
            DiceRoll,
            {
                first.pk: {"purpose": AWKWARD, "faces": {"a": [1, 2]}},
                second.pk: {"kingdoms": "just text", "expression": "D6"},
                third.pk: {},
            },
        )
    assert len(queries.captured_queries) == 1
    first.refresh_from_db()
    second.refresh_from_db()
    third_now = DiceRoll.objects.get(pk=third.pk)
    assert (first.purpose, first.faces, first.expression, first.total) == (AWKWARD, {"a": [1, 2]}, "2D6", 1)
    assert (second.kingdoms, second.expression, second.total, second.purpose) == ("just text", "D6", 99, "roll 1")
    assert (third_now.purpose, third_now.faces, third_now.total) == (third.purpose, third.faces, third.total)
