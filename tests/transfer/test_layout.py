"""The engine's reading of the models (transfer/layout.py): every field a campaign model holds has a
JSON kind, so a field added to a model is written and read by its type with no edit to transfer/."""

from datetime import date

import pytest
from django.apps import apps
from django.db import models

from tests.transfer.rows import campaign_models
from transfer.codec import NAMING
from transfer.export import _Names
from transfer.kinds import DATE, time_text
from transfer.layout import LAYOUTS, Layout, field_kind
from transfer.reading import Reading
from transfer.references import REFERENCE_KINDS


def test_every_field_of_every_campaign_model_has_a_json_kind():
    for label in campaign_models():
        for field in apps.get_model(label)._meta.concrete_fields:
            if not (field.primary_key or field.is_relation):
                assert field_kind(field).label, f"{label}.{field.name}"


def test_a_date_travels_as_its_iso_date():
    kind = field_kind(models.DateField())
    assert kind is DATE and time_text(date(2024, 3, 1)) == "2024-03-01"
    assert kind.accepts("2024-03-01") and kind.read("2024-03-01") == date(2024, 3, 1)
    assert not kind.accepts("2024-03-01T12:00:00+00:00") and not kind.accepts("1 March")


def test_a_field_of_a_type_the_document_cannot_write_is_refused_by_name():
    field = models.DecimalField(max_digits=5, decimal_places=2)
    field.set_attributes_from_name("price")
    field.model = apps.get_model("kingdoms.TreasuryEntry")
    with pytest.raises(TypeError, match=r"kingdoms.TreasuryEntry.price"):
        field_kind(field)


def test_a_key_may_be_absent_when_its_field_has_a_default_or_may_be_null():
    """A document written before a field was added lacks its key: read with the default (or null,
    or, for a text that may be blank, ""); a field with none of them must be there."""
    for layout in LAYOUTS:
        optional = set(layout.optional())
        for field in layout.fields():
            blank_text = field.blank and isinstance(field, models.CharField | models.TextField)
            may_lack = bool(field.has_default() or field.null or field.many_to_many or blank_text)
            assert (field.name in optional) == may_lack, f"{layout.model._meta.label}.{field.name}"


def test_every_campaign_model_is_read_and_written_by_the_engine():
    """No campaign model is kept by hand in transfer/: each has its layout, so its fields travel by
    their kinds (a model added later fails here until it has one, or is declared an exception); a
    many-to-many field's table travels with the field (a province's neighbours: the adjacency)."""
    carried = {layout.model._meta.label for layout in LAYOUTS} | {
        field.remote_field.through._meta.label for layout in LAYOUTS for field in layout.model._meta.local_many_to_many
    }
    assert set(campaign_models()) - carried == set()


def test_every_kind_of_reference_is_named_both_ways():
    """Each kind of reference a document holds (transfer/references.py) is named by the export and
    read back by the import as codec.NAMING says: by the methods it names (looked up by name, so a
    method renamed on one side is caught here rather than by the first document that holds one) or
    by a row's place in one of the document's lists."""
    assert NAMING.keys() == REFERENCE_KINDS.keys()
    for kind, how in NAMING.items():
        if isinstance(how, Layout):
            assert how in LAYOUTS, kind
            continue
        encode, decode = how
        assert encode == "" or callable(getattr(_Names, encode, None)), f"{kind}: export's _Names.{encode}"
        assert callable(getattr(Reading, decode, None)), f"{kind}: reading.Reading.{decode}"
    named_by_layouts = {kind for layout in LAYOUTS for kind in layout.names.values()}
    assert named_by_layouts <= NAMING.keys()
