"""Forms of the campaign world: they parse input; the services decide."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.contrib.auth.forms import SetPasswordForm

from briternia.fields import IntegerField
from briternia.form_labels import RowLabelledFormSet
from rulebook.ancient_dead.deserts import RUNE_SMITH_ARMIES
from rulebook.armies.army_lists import CATEGORIES, CharacterEntry, ItemEntry, UnitEntry
from rulebook.experience.spending import CURSE_OF_THE_DEAD
from rulebook.ruins_and_tomb_raiders.force import (
    FORCE_POINTS,
    KIND_LABELS,
    MAX_LEADERSHIP,
    Base,
    Command,
    ModelKind,
    RaiderEntry,
    Role,
    TroopCategory,
    raider_entry,
)
from rulebook.setup.maps import MapError, MapSpec, load_default_map, map_from_json
from rulebook.tables import ARCHETYPE_LABELS, ARCHETYPE_TABLE, ARMY_TYPE_LABELS, PLAYER_ARMY_TYPES, ArmyType

from .people import DISPLAY_NAME_MAX, display_name
from .selectors import display_name_holder

MAX_MAP_BYTES = 1_000_000


class CampaignCreateForm(forms.Form):
    name = forms.CharField(max_length=100)
    player_count = IntegerField(min_value=2, max_value=20, initial=4, label="Number of players")
    time_zone = forms.ChoiceField(choices=[], initial="Europe/London")
    map_file = forms.FileField(
        required=False,
        label="Map (JSON)",
        help_text="Leave empty for the default Briternia map. See docs/maps.md for the format.",
    )
    special_characters = forms.BooleanField(
        required=False,
        label="Allow special characters",
        help_text="Army Restrictions: no special characters may be used unless the organizer allows them.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [(z, z) for z in sorted(zoneinfo.available_timezones())]

    def clean_map_file(self) -> MapSpec:
        upload = self.cleaned_data.get("map_file")
        if not upload:
            return load_default_map()
        if upload.size > MAX_MAP_BYTES:
            raise forms.ValidationError("The map file is larger than 1 MB.")
        try:
            return map_from_json(upload.read())
        except MapError as exc:
            raise forms.ValidationError(exc.messages) from exc


class InviteForm(forms.Form):
    email = forms.EmailField()
    kingdom_name = forms.CharField(max_length=100)
    army_type = forms.ChoiceField(choices=[(t.value, ARMY_TYPE_LABELS[t]) for t in PLAYER_ARMY_TYPES])
    # The name the other players see until the player chooses one (on the set-password page);
    # blank: one derived from the kingdom. An account that exists keeps the name it has.
    display_name = forms.CharField(
        max_length=DISPLAY_NAME_MAX,
        required=False,
        label="Player's display name (optional)",
        help_text="What the other players see of this player; never an email address.",
    )


class HomePickForm(forms.Form):
    province = forms.TypedChoiceField(coerce=int, choices=[], label="Capitol site")

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["province"].choices = choices


class AdjacentPickForm(forms.Form):
    provinces = forms.TypedMultipleChoiceField(coerce=int, choices=[], widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["provinces"].choices = choices


def _label_controls(form: forms.Form) -> None:
    """Each control of a table row names itself (the row read alone, or on a phone where the
    table's header is out of sight)."""
    for name, field in form.fields.items():
        field.widget.attrs.setdefault("aria-label", str(field.label or name.replace("_", " ").capitalize()))


class UnitForm(forms.Form):
    key = IntegerField(required=False, widget=forms.HiddenInput)
    name = forms.CharField(max_length=100)
    # Selects start on the option a browser submits for an untouched row, so an empty extra row
    # counts as unchanged and is skipped instead of failing as a half-filled unit.
    category = forms.ChoiceField(choices=[(c, c.title()) for c in CATEGORIES], initial="core")
    models = IntegerField(min_value=1, initial=1)
    points_per_model = IntegerField(min_value=0, label="Points per model")
    equipment_points = IntegerField(min_value=0, initial=0, required=False, label="Equipment points")
    veteran_level = IntegerField(min_value=0, max_value=3, initial=0, required=False, label="Veteran")
    one_use = forms.BooleanField(required=False, label="One use")
    living = forms.BooleanField(required=False, label="Living (not undead)")
    dogs_of_war = forms.BooleanField(required=False, label="Dogs of War (hired)")
    special_character = forms.BooleanField(required=False, label="Special character")
    champion_points = IntegerField(min_value=0, initial=0, required=False, label="Champion (points)")
    standard_points = IntegerField(min_value=0, initial=0, required=False, label="Standard (points)")
    musician_points = IntegerField(min_value=0, initial=0, required=False, label="Musician (points)")
    rank = forms.ChoiceField(choices=[("hero", "Hero"), ("lord", "Lord")], required=False, initial="hero")
    role = forms.ChoiceField(
        choices=[("hero", "Hero"), ("general", "General"), ("warlord", "Warlord")], required=False, initial="hero"
    )
    archetype = forms.ChoiceField(choices=[("", "-")] + list(ARCHETYPE_LABELS.items()), required=False)
    monstrous_mount = forms.BooleanField(required=False, label="Monstrous mount")
    wizard = forms.BooleanField(required=False)
    magic_level = IntegerField(
        min_value=0, max_value=5, initial=0, required=False, label="Magic level", help_text="A Wizard's level."
    )
    rune_smith = forms.BooleanField(required=False, label="Rune smith")
    immune_to_psychology = forms.BooleanField(required=False, label="Immune to Psychology")

    def __init__(self, *args: Any, army_type: ArmyType | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if army_type is not None:
            # The drop-down offers the Archetype Table's archetypes of the army type (and a value
            # the row already holds, which the check then refuses in its own words: the field
            # parses every archetype).
            held = self["archetype"].value() or ""
            allowed = {a.value for a in ARCHETYPE_TABLE[army_type]}
            self.fields["archetype"].widget.choices = [("", "-")] + [
                (value, label) for value, label in ARCHETYPE_LABELS.items() if value in allowed or value == held
            ]
        # The field still parses (a crafted rune smith gets the check's words); the page shows it
        # only to the armies that may have one.
        self.offers_rune_smith = army_type is None or army_type in RUNE_SMITH_ARMIES
        # Curse of the Dead: only an undead army's list says which of its units live.
        self.offers_living = army_type is None or army_type in CURSE_OF_THE_DEAD
        # Dogs of War hired into another kingdom's army (a Dogs of War kingdom's are all mercenaries).
        self.offers_dogs_of_war = army_type is not ArmyType.DOGS_OF_WAR
        _label_controls(self)

    def entry(self) -> UnitEntry:
        d = self.cleaned_data
        character = None
        if d["category"] == "character":
            character = CharacterEntry(
                rank=d.get("rank") or "hero",
                role=d.get("role") or "hero",
                archetype=d.get("archetype") or None,
                monstrous_mount=d.get("monstrous_mount", False),
                wizard=d.get("wizard", False),
                magic_level=d.get("magic_level") or 0,
                rune_smith=d.get("rune_smith", False),
                immune_to_psychology=d.get("immune_to_psychology", False),
            )
        return UnitEntry(
            key=d.get("key"),
            name=d["name"],
            category=d["category"],
            models=d["models"],
            points_per_model=d["points_per_model"],
            equipment_points=d.get("equipment_points") or 0,
            veteran_level=d.get("veteran_level") or 0,
            one_use=d.get("one_use", False),
            living=d.get("living", False),
            dogs_of_war=d.get("dogs_of_war", False),
            special_character=d.get("special_character", False),
            champion_points=d.get("champion_points") or 0,
            standard_points=d.get("standard_points") or 0,
            musician_points=d.get("musician_points") or 0,
            character=character,
        )


class ItemForm(forms.Form):
    name = forms.CharField(max_length=100)
    points = IntegerField(min_value=0)
    common = forms.BooleanField(required=False, help_text="Common magic items may be duplicated.")
    bearer = forms.CharField(max_length=100, help_text="The unit or character carrying it.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _label_controls(self)

    def entry(self) -> ItemEntry:
        d = self.cleaned_data
        return ItemEntry(name=d["name"], points=d["points"], common=d.get("common", False), bearer=d["bearer"])


UnitFormSet = forms.formset_factory(UnitForm, formset=RowLabelledFormSet, extra=3, can_delete=True)
ItemFormSet = forms.formset_factory(ItemForm, formset=RowLabelledFormSet, extra=2, can_delete=True)


def unit_initial(entry: UnitEntry) -> dict[str, Any]:
    c = entry.character
    return {
        "key": entry.key,
        "name": entry.name,
        "category": entry.category,
        "models": entry.models,
        "points_per_model": entry.points_per_model,
        "equipment_points": entry.equipment_points,
        "veteran_level": entry.veteran_level,
        "one_use": entry.one_use,
        "living": entry.living,
        "dogs_of_war": entry.dogs_of_war,
        "special_character": entry.special_character,
        "champion_points": entry.champion_points,
        "standard_points": entry.standard_points,
        "musician_points": entry.musician_points,
        "rank": c.rank if c else "hero",
        "role": c.role if c else "hero",
        "archetype": (c.archetype or "") if c else "",
        "monstrous_mount": c.monstrous_mount if c else False,
        "wizard": c.wizard if c else False,
        "magic_level": c.magic_level if c else 0,
        "rune_smith": c.rune_smith if c else False,
        "immune_to_psychology": c.immune_to_psychology if c else False,
    }


def item_initial(entry: ItemEntry) -> dict[str, Any]:
    return {"name": entry.name, "points": entry.points, "common": entry.common, "bearer": entry.bearer}


def formset_entries(formset: forms.BaseFormSet) -> list[Any]:
    """Entries of the filled, not deleted rows of a valid formset, in order."""
    return [
        form.entry()
        for form in formset.forms
        # Unchanged extra rows are left empty by the formset; initial rows are always cleaned.
        if form.cleaned_data and not form.cleaned_data.get("DELETE")
    ]


class AbilityChooseForm(forms.Form):
    ability = forms.ChoiceField(choices=[])

    def __init__(self, *args: Any, choices: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ability"].choices = [(a, a) for a in choices]


class DisplayNameForm(forms.Form):
    display_name = forms.CharField(
        max_length=DISPLAY_NAME_MAX,
        label="Display name",
        help_text="What the other players see of you (your email address is never shown to them).",
    )

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user  # the account whose name it is (its own name is no other's)

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"].strip()
        if "@" in name:
            raise forms.ValidationError(
                "A display name has no '@': the other players see it; choose a name, not an address."
            )
        # Another account's name (case and spaces aside) would let one player pass for another: the
        # players of two kingdoms would read the same name, the messages of one signed as the other's.
        if display_name_holder(name=name, user=self.user) is not None:
            raise forms.ValidationError(
                f"Another account is already shown as {name}: the other players would take you for them. "
                "Choose another name."
            )
        return name


class SetPasswordWithNameForm(SetPasswordForm):
    """The invitation's set-password page: the player also chooses the name the others see."""

    display_name = DisplayNameForm.base_fields["display_name"]
    field_order = ["display_name", "new_password1", "new_password2"]

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.fields["display_name"].initial = display_name(user)
        self.order_fields(self.field_order)

    clean_display_name = DisplayNameForm.clean_display_name

    def save(self, commit: bool = True) -> Any:
        self.user.first_name = self.cleaned_data["display_name"]
        return super().save(commit)


class TombRaiderEntryForm(forms.Form):
    """One entry of the Tomb Raider force, marked with what the check needs (Creating Tomb Raiders).
    Selects start on what an untouched row submits, so an empty extra row is skipped."""

    name = forms.CharField(max_length=100)
    unit_type = forms.CharField(max_length=100, required=False, label="Army book unit")
    models = IntegerField(min_value=1, max_value=FORCE_POINTS, initial=1)
    points_per_model = IntegerField(min_value=0, max_value=FORCE_POINTS, label="Points per model")
    category = forms.ChoiceField(
        choices=[(c.value, c.value.title()) for c in TroopCategory], initial="core", label="Troop category"
    )
    base = forms.ChoiceField(
        choices=[("20mm", "20 mm"), ("25mm", "25 mm"), ("other", "another base (40 mm, cavalry, chariot)")],
        initial=Base.MM_25.value,
    )
    kind = forms.ChoiceField(
        choices=[(k.value, KIND_LABELS[k]) for k in ModelKind], initial=ModelKind.FOOT.value, label="Models are"
    )
    role = forms.ChoiceField(choices=[(r.value, r.value.title()) for r in Role], initial=Role.TROOPER.value)
    command = forms.ChoiceField(
        choices=[(c.value, c.value.title()) for c in Command], initial=Command.NONE.value, label="Command model"
    )
    missile_weapon = forms.BooleanField(required=False, label="Missile weapons")
    magic_item = forms.BooleanField(required=False, label="Magic item")
    magic_user = forms.BooleanField(required=False, label="Magic user")
    leadership = IntegerField(min_value=0, max_value=MAX_LEADERSHIP, initial=0, required=False, label="Ld")
    wounds = IntegerField(min_value=1, max_value=10, initial=1, required=False, label="W")
    promoted = forms.BooleanField(required=False, label="Promoted Captain")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.problems: list[str] = []  # the check's refusals of this entry, shown beside it
        _label_controls(self)

    def entry(self) -> RaiderEntry:
        return raider_entry(self.cleaned_data)


TombRaiderFormSet = forms.formset_factory(
    TombRaiderEntryForm, formset=RowLabelledFormSet, extra=3, can_delete=True, max_num=FORCE_POINTS, validate_max=True
)


def tomb_raider_initial(entry: RaiderEntry) -> dict[str, Any]:
    return {
        "name": entry.name,
        "unit_type": entry.unit_type,
        "models": entry.models,
        "points_per_model": entry.points_per_model,
        "category": entry.category.value,
        "base": entry.base.value,
        "kind": entry.kind.value,
        "role": entry.role.value,
        "command": entry.command.value,
        "missile_weapon": entry.missile_weapon,
        "magic_item": entry.magic_item,
        "magic_user": entry.magic_user,
        "leadership": entry.leadership,
        "wounds": entry.wounds,
        "promoted": entry.promoted,
    }
