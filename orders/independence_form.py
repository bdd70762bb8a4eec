"""The independence page's form (Joint kingdoms): who declares it, the new kingdom's name, and what
the kingdom gives. It checks the input's shape against what the page offered; the rules
(rulebook/player_issues/joint_kingdoms.py, through orders/services/independence.py) decide the rest."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser

from kingdoms.models import Army, Kingdom, Province
from kingdoms.people import display_name

from .services.independence import NAME_MAX


class IndependenceForm(forms.Form):
    co_player = forms.TypedChoiceField(coerce=int, label="The co-player")
    name = forms.CharField(max_length=NAME_MAX, label="The new kingdom's name")
    provinces = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label="Provinces, towns and cities given"
    )
    armies = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label="Armies given"
    )

    def __init__(
        self,
        *args: Any,
        kingdom: Kingdom,
        players: list[AbstractBaseUser],
        provinces: list[Province],
        armies: list[Army],
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.players = {p.pk: p for p in players}
        fields = self.fields
        fields["co_player"].choices = [("", "-")] + [(pk, display_name(p)) for pk, p in self.players.items()]
        fields["co_player"].error_messages.update(
            required=f"Choose the co-player of {kingdom.name} who declares independence.",
            invalid_choice=f"The one who declares independence is a co-player of {kingdom.name} (Joint kingdoms).",
        )
        fields["name"].error_messages.update(
            required=f"Name the new kingdom (at most {NAME_MAX} characters).",
            max_length=f"Name the new kingdom (at most {NAME_MAX} characters).",
        )
        fields["provinces"].choices = [
            (p.number, f"{p}{f' ({p.settlement})' if p.settlement != 'none' else ''}") for p in provinces
        ]
        fields["provinces"].error_messages["invalid_choice"] = (
            f"Province %(value)s is not one {kingdom.name} can give now (its capitol stays): reload the page."
        )
        fields["armies"].choices = [(a.pk, f"{a.name} (in {a.province})") for a in armies]
        fields["armies"].error_messages["invalid_choice"] = (
            f"Army %(value)s is not one {kingdom.name} can give now (the Warlord's stays): reload the page."
        )

    @property
    def messages(self) -> list[str]:
        """Every problem, each a sentence of its own (the fields' errors are written as such)."""
        return [e for errors in self.errors.values() for e in errors]

    @property
    def co_player_user(self) -> AbstractBaseUser:
        return self.players[self.cleaned_data["co_player"]]
