"""The shared builds (tests/shared_rows.py): every test that asks for one gets the rows its build left,
whatever the tests before it wrote, committed or not. The tests here run in the file's order (and
in reverse: see docs/performance.md); each writer is followed by a checker either way."""

from __future__ import annotations

import pytest
from django.core import mail

from kingdoms.models import Army, Kingdom
from tests.conftest import DEMO
from tests.shared_rows import RECORDED, _rows


def _as_recorded() -> None:
    """Every row the demo build wrote is in the database as the build left it, every row it removed
    is not, and the outbox holds the build's emails."""
    recorded = RECORDED.recorded[DEMO]
    now = _rows()
    written = {}
    for model, rows in recorded.change.written.items():
        pk = [f.attname for f in model._meta.local_concrete_fields].index(model._meta.pk.attname)
        written[model] = {row[pk]: row for row in rows}
        assert {key: now[model].get(key) for key in written[model]} == written[model], model._meta.label
    for model, pks in recorded.change.removed.items():
        assert not (set(pks) - set(written.get(model, {}))) & set(now[model]), model._meta.label
    assert [(m.subject, m.to) for m in mail.outbox] == [(m.subject, m.to) for m in recorded.outbox]


def _changed(campaign) -> None:
    ostland = Kingdom.objects.get(campaign=campaign, name="Ostland")
    Kingdom.objects.filter(pk=ostland.pk).update(name="Not Ostland", home_roll=12)
    Army.objects.filter(kingdom=ostland).delete()
    Kingdom.objects.create(campaign=campaign, name="A Kingdom of the Test", army_type="empire")
    campaign.turns.filter(number=1).update(status="reported")
    mail.outbox.clear()


def test_a_test_finds_the_build_as_it_was_built_first(demo_campaign):
    _as_recorded()
    assert Kingdom.objects.get(campaign=demo_campaign, name="Ostland").armies.exists()


def test_a_test_may_change_the_build(demo_campaign):
    _changed(demo_campaign)
    assert not Kingdom.objects.filter(name="Ostland").exists()


def test_the_next_test_finds_the_build_as_it_was_built(demo_campaign):
    _as_recorded()
    assert not Kingdom.objects.filter(name="A Kingdom of the Test").exists()


@pytest.mark.django_db(transaction=True)
def test_a_test_that_commits_may_change_the_build(demo_campaign):
    _changed(demo_campaign)
    assert Kingdom.objects.filter(name="A Kingdom of the Test").exists()


def test_after_a_commit_the_next_test_finds_the_build_as_it_was_built(demo_campaign):
    _as_recorded()
    assert not Kingdom.objects.filter(name="Not Ostland").exists()


def test_a_test_new_rows_take_ids_past_the_build(demo_campaign):
    """A test's own rows never take an id the build's rows have (PostgreSQL's sequences are set past
    them; SQLite's counters follow them)."""
    highest = Kingdom.objects.order_by("-pk").values_list("pk", flat=True).first()
    added = Kingdom.objects.create(campaign=demo_campaign, name="Latecomers", army_type="empire")
    assert added.pk > highest
