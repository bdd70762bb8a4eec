"""Names for form controls drawn in table rows, where the column's header stands in for a <label>.

A screen reader (and axe-core) needs each control's own name; a sighted user reads it from the
column header and the row. Each such control gets an aria-label saying both, e.g. "Models, row 2"
or "Order, Wardens" (issue 18, point 10).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.utils import pretty_name


def controls_name(form: forms.BaseForm, row: str, *names: str) -> None:
    """Name the form's visible controls (only `names` when given) by their field's label and `row`."""
    for name, field in form.fields.items():
        if names and name not in names:
            continue
        if field.widget.is_hidden:
            continue
        field.widget.attrs.setdefault("aria-label", f"{field.label or pretty_name(name)}, {row}")


class RowLabelledFormSet(forms.BaseFormSet):  # type: ignore[type-arg]
    """A formset drawn as a table, one form a row: its controls are named "<column>, row <n>"
    (the Remove box included, which the formset adds after the form is built)."""

    def add_fields(self, form: forms.BaseForm, index: Any) -> None:
        super().add_fields(form, index)
        controls_name(form, f"row {index + 1}" if index is not None else "new row")
