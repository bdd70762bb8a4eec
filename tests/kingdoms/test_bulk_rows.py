"""The set-based writes (kingdoms/services/bulk_rows.py) store what Django's own save would, on both
databases: text with quotes and percent signs, JSON of every shape, the creation time, the defaults
of the fields a record leaves out (the COPY of PostgreSQL and the VALUES of SQLite alike)."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from kernel.event_codes import EventCode
from kingdoms.services.bulk_rows import records_insert, rows_insert, rows_insert_with_ids, rows_update, values_insert
from turns.models import DiceRoll, TurnEvent

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


def test_rows_inserted_with_their_ids_in_their_order_as_bulk_create_gives_them(demo_campaign):
    """The battles' rows are written this way: each row gets its id (the supports and the scenario
    sheets name it), ascending in the rows' order, and reads back as it was built."""
    before = DiceRoll.objects.order_by("-id").values_list("id", flat=True).first() or 0
    rows = _rolls(demo_campaign, 120)
    with CaptureQueriesContext(connection) as queries:
        rows_insert_with_ids(DiceRoll, rows)
    # PostgreSQL: the ids drawn from the sequence, then one COPY; SQLite: bulk_create's batches.
    assert connection.vendor != "postgresql" or len(queries.captured_queries) == 2
    ids = [r.pk for r in rows]
    assert ids == sorted(ids) and len(set(ids)) == 120 and ids[0] > before
    assert not any(r._state.adding for r in rows)
    fields = ("stream", "sequence", "expression", "faces", "total", "purpose", "kingdoms", "armies")
    stored = {r.pk: r for r in DiceRoll.objects.filter(pk__in=ids)}
    assert [tuple(getattr(stored[r.pk], f) for f in fields) for r in rows] == [
        tuple(getattr(r, f) for f in fields) for r in rows
    ]
    assert stored[ids[0]].purpose == AWKWARD and stored[ids[0]].created_at is not None
    # The next row the table's own way takes the next id.
    assert rows_insert(DiceRoll, _rolls(demo_campaign, 1)) == 1
    assert DiceRoll.objects.order_by("-id").values_list("id", flat=True).first() > ids[-1]


def test_values_given_as_tuples_are_stored_as_records_would_be_the_others_defaulted(demo_campaign):
    """The scenarios' thousands of rolls are written from tuples (kingdoms.services.dice)."""
    turn = demo_campaign.turns.get(number=1)
    names = ("turn_id", "sequence", "phase", "code", "text", "data")
    with CaptureQueriesContext(connection) as queries:
        written = values_insert(
            TurnEvent,
            names,
            [
                (turn.pk, 950, "p", EventCode.MOVED, AWKWARD, {"path": [3, 4], "none": None}),
                (turn.pk, 951, "p", "x", "", [1, True, "a"]),
            ],
        )
    assert written == 1 and len(queries.captured_queries) == 1
    stored = TurnEvent.objects.filter(turn=turn, sequence__gte=950).order_by("sequence")
    assert [(e.code, e.text, e.data, e.gold, e.kingdom_id, e.army_id) for e in stored] == [
        ("moved", AWKWARD, {"path": [3, 4], "none": None}, 0, None, None),
        ("x", "", [1, True, "a"], 0, None, None),
    ]
    assert values_insert(TurnEvent, names, []) == 0


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


def test_records_take_their_defaults_their_enumerations_values_and_skip_conflicts_when_asked(demo_campaign):
    turn = demo_campaign.turns.get(number=1)
    # A record leaves out the fields with a default (gold, data); a code is a StrEnum, stored as its value.
    with CaptureQueriesContext(connection) as queries:
        written = records_insert(
            TurnEvent,
            [
                {"turn_id": turn.pk, "sequence": 900, "phase": "p", "code": EventCode.MOVED, "text": AWKWARD},
                {"turn_id": turn.pk, "sequence": 901, "phase": "p", "code": "x", "text": "", "data": {"a": [1]}},
            ],
        )
    assert written == 1 and len(queries.captured_queries) == 1  # a COPY on PostgreSQL, counted as any query
    stored = list(TurnEvent.objects.filter(turn=turn, sequence__gte=900).order_by("sequence"))
    assert [(e.code, e.text, e.gold, e.data, e.kingdom_id) for e in stored] == [
        ("moved", AWKWARD, 0, {}, None),
        ("x", "", 0, {"a": [1]}, None),
    ]
    # A row breaking the unique (turn, sequence) is skipped, the others written.
    records_insert(
        TurnEvent,
        [
            {"turn_id": turn.pk, "sequence": 900, "phase": "again", "code": "y", "text": "no"},
            {"turn_id": turn.pk, "sequence": 902, "phase": "p", "code": "z", "text": "yes"},
        ],
        ignore_conflicts=True,
    )
    assert list(TurnEvent.objects.filter(turn=turn, sequence__gte=900).values_list("sequence", "code")) == [
        (900, "moved"),
        (901, "x"),
        (902, "z"),
    ]


def test_copied_text_keeps_tabs_newlines_backslashes_nulls_and_json_of_every_shape(demo_campaign):
    """PostgreSQL's COPY is written as text a column at a time (kingdoms/services/copy_text.py): a
    value holding COPY's delimiter, a line break or a backslash, a NULL among numbers, and JSON that
    is a list of numbers or anything else read back as they were written (SQLite: the same rows)."""
    turn = demo_campaign.turns.get(number=1)
    kingdom = demo_campaign.kingdoms.first()
    control = "a\ttab, a\nnewline, a\r\nreturn, a \\N that is text, \\t not a tab"
    names = ("turn_id", "sequence", "phase", "code", "text", "kingdom_id", "province", "gold", "data")
    rows = [
        (turn.pk, 800, "p\tq", EventCode.MOVED, control, kingdom.pk, 5, 1, {"text": control, "n": [1, -2]}),
        (turn.pk, 801, "p", "x", "", None, None, 0, [[1, 2], [3]]),
        (turn.pk, 802, "p", "x", "\\", kingdom.pk, None, -7, [True, 1.5, None, "é"]),
        (turn.pk, 803, "p", "x", "plain", None, 0, 2, "just text"),
    ]
    assert values_insert(TurnEvent, names, rows) == 1
    stored = TurnEvent.objects.filter(turn=turn, sequence__gte=800).order_by("sequence")
    assert [tuple(getattr(e, name) for name in names[1:]) for e in stored] == [
        (800, "p\tq", "moved", control, kingdom.pk, 5, 1, {"text": control, "n": [1, -2]}),
        (801, "p", "x", "", None, None, 0, [[1, 2], [3]]),
        (802, "p", "x", "\\", kingdom.pk, None, -7, [True, 1.5, None, "é"]),
        (803, "p", "x", "plain", None, 0, 2, "just text"),
    ]
