"""The form that writes a message: from one of the user's kingdoms (or, for the organizer, an
announcement to every kingdom), to the kingdoms ticked."""

from __future__ import annotations

from typing import Any

from django import forms

from kingdoms.models import Kingdom

from .models import MESSAGE_MAX

ANNOUNCEMENT = "announcement"


class MessageForm(forms.Form):
    sender = forms.ChoiceField(label="From")
    to = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label="To (an announcement goes to all)"
    )
    # The length is the service's to refuse, in its words (the page and the API say the same).
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 6, "maxlength": MESSAGE_MAX}), label="Message")

    def __init__(self, *args: Any, own: list[Kingdom], others: list[Kingdom], organizer: bool, **kwargs: Any):
        super().__init__(*args, **kwargs)
        choices = [(str(k.pk), k.name) for k in own]
        if organizer:
            choices.append((ANNOUNCEMENT, "The organizer: an announcement to every kingdom"))
        self.fields["sender"].choices = choices
        self.fields["to"].choices = [(k.pk, k.name) for k in others]
