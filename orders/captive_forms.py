"""The order sheet page's Captives part (Reconnaissance, Sabotage: "A kingdom may do anything it wishes
with a captured Tomb Raider"; decisions 453 and 490): one row for each captive the kingdom holds, to
keep holding it, release it or execute it. The rows build the `captive_orders` part of the codec's JSON
(orders/entries.py); the check (rulebook/turn/write_orders/captives.py) places its problems on them.
"""

from __future__ import annotations

from typing import Any

from django import forms

from briternia.fields import IntegerField
from kingdoms.models import CapturedRaider, Kingdom
from rulebook.ruins_and_tomb_raiders.rival_missions import CaptiveFate

CAPTIVE_FIELDS = ("fate",)
PREFIX = "captive"


class CaptiveOrderForm(forms.Form):
    """One captive's row: which captive (hidden), and its fate ("": it stays held)."""

    captive = IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    fate = forms.ChoiceField(
        required=False,
        choices=[
            ("", "keep holding"),
            (CaptiveFate.RELEASED.value, "release"),
            (CaptiveFate.EXECUTED.value, "execute"),
        ],
        label="Fate",
    )

    def __init__(self, *args: Any, captives: dict[int, CapturedRaider], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.captives = captives

    @property
    def captive_id(self) -> int | None:
        raw = self.data.get(self.add_prefix("captive")) if self.is_bound else self.initial.get("captive")
        try:
            return int(raw) if raw not in (None, "") else None
        except (TypeError, ValueError):
            return None

    @property
    def label(self) -> str:
        """The captive as the row names it: the model, its owner, since when (or why it is not offered)."""
        captive = self.captives.get(self.captive_id or 0)
        if captive is None:
            return f"Captive {self.captive_id}: not a Tomb Raider your kingdom holds"
        return f"One model of {captive.entry} of {captive.owner.name}, held since turn {captive.captured_turn}"

    def order(self) -> dict[str, Any] | None:
        captive, fate = self.cleaned_data.get("captive"), self.cleaned_data.get("fate")
        return {"captive": captive, "fate": fate} if captive is not None and fate else None


def captive_order_rows(
    data: Any, *, kingdom: Kingdom, saved: list[dict[str, Any]], posted: int
) -> list[CaptiveOrderForm]:
    """The rows: the saved orders first, in the sheet's order (a problem's entry points into them), then
    a row for each other captive the kingdom holds; a posted sheet keeps every row it posts (`posted`:
    how many)."""
    held = {
        c.pk: c
        for c in CapturedRaider.objects.filter(captor=kingdom, fate=CaptiveFate.HELD.value).select_related("owner")
    }
    initial = [{"captive": o["captive"], "fate": o["fate"]} for o in saved]
    named = {o["captive"] for o in saved}
    initial += [{"captive": pk, "fate": ""} for pk in sorted(held) if pk not in named]
    count = max(len(initial), posted)
    return [
        CaptiveOrderForm(
            data,
            prefix=f"{PREFIX}-{i}",
            captives=held,
            initial=initial[i] if i < len(initial) else None,
        )
        for i in range(count)
    ]
