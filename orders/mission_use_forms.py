"""The order sheet page's mission uses (Reconnaissance and Sabotage): one row for each effect the
kingdom's Tomb Raiders earned that this turn's sheet may use, with a choice of army
(rulebook.turn.write_orders.mission_uses). Army Orders offers the kingdom's own armies (the one that holds
in response); Destroy Communication offers "the first support from or to" the target this turn, since the
target's armies are its secret (an army named by the API stays offered, by its id)."""

from __future__ import annotations

from typing import Any

from django import forms

from kingdoms.models import Army, Kingdom
from orders.services.mission_uses import effect_label, usable_mission_effects
from rulebook.ruins_and_tomb_raiders.reconnaissance import Reconnaissance
from rulebook.ruins_and_tomb_raiders.rival_missions import MissionEffectState

PART = "mission_uses"
MISSION_USE_FIELDS = ("army",)
FIRST_SUPPORT = "first"  # Destroy Communication without an army: the first support from or to the target


class MissionUseForm(forms.Form):
    """One usable effect: not used (""), or used with the army chosen."""

    army = forms.ChoiceField(required=False, label="Use it")

    def __init__(self, *args: Any, effect: MissionEffectState, label: str, own: list[Army], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.effect = effect
        self.label = label
        if effect.mission == Reconnaissance.ARMY_ORDERS:
            choices = [("", "- (no response)")] + [(str(a.id), f"{a.name} holds in response") for a in own]
        else:
            choices = [("", "- (not this turn)"), (FIRST_SUPPORT, "Cancel the first support from or to them")]
        named = self.initial.get("army")
        if named and str(named) not in {c for c, _ in choices}:
            choices.append((str(named), f"The army named on the sheet (id {named})"))
        self.fields["army"].choices = choices

    def use(self) -> dict[str, Any] | None:
        chosen = self.cleaned_data.get("army") or ""
        if not chosen:
            return None
        return {"effect": self.effect.id, "army": None if chosen == FIRST_SUPPORT else int(chosen)}


def mission_use_rows(data: Any, kingdom: Kingdom, saved: list[dict[str, Any]]) -> list[MissionUseForm]:
    """A row for each effect usable on this turn's sheet, oldest first, with what the sheet filed."""
    effects = usable_mission_effects(kingdom, kingdom.campaign.current_turn)
    if not effects:
        return []
    filed = {u["effect"]: u for u in saved}
    names = dict(Kingdom.objects.filter(campaign=kingdom.campaign).values_list("id", "name"))
    own = list(kingdom.armies.filter(status=Army.Status.ACTIVE, kind=Army.Kind.FIELD).order_by("id"))
    rows = []
    for effect in effects:
        use = filed.get(effect.id)
        initial = None
        if use is not None:
            army = use.get("army")
            initial = {"army": str(army) if army else FIRST_SUPPORT}
        rows.append(
            MissionUseForm(
                data,
                prefix=f"use-{effect.id}",
                effect=effect,
                label=effect_label(effect, names),
                own=own,
                initial=initial,
            )
        )
    return rows
