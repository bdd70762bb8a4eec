"""The order sheet form: one row per army, the kingdom's entries below. It parses; the
service and the pure check decide."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from django import forms
from django.db.models import QuerySet

from briternia.fields import IntegerField, is_ascii_digits
from briternia.form_labels import controls_name
from kingdoms.models import ArmoryItem, Army, Kingdom, Province
from kingdoms.selectors import alliance_in_force, army_counted_points
from rulebook.allies.chart import TrustLevel, trust_level
from rulebook.experience.spending import PURCHASE_LABELS, PurchaseKind
from rulebook.ruins_and_tomb_raiders.maintaining import change_fee
from rulebook.ruins_and_tomb_raiders.reconnaissance import Reconnaissance
from rulebook.ruins_and_tomb_raiders.rival_mission_orders import RIVAL_LISTS, WHEN_IT_TAKES_EFFECT
from rulebook.ruins_and_tomb_raiders.rival_missions import MissionEffectState
from rulebook.ruins_and_tomb_raiders.tomb_raid import MissionKind
from rulebook.turn.write_orders.missions import RivalChoices
from rulebook.turn.write_orders.problems import SheetProblemCode
from rulebook.turn.write_orders.records import (
    DEFEND_WITH_ARMY,
    DEFEND_WITH_GARRISON,
    MOVING_ORDERS,
    SUPPORTING_ORDERS,
    ArmyOrder,
    OrderKind,
    SheetEntries,
)
from rulebook.turn.write_orders.targets import ArmyTargets, SheetTargets

from .captive_forms import CAPTIVE_FIELDS, CaptiveOrderForm, captive_order_rows
from .captive_forms import PREFIX as CAPTIVE_PREFIX
from .entries import SHEET_LIST_MAX, SHEET_LIST_WHY, entry_json, sheet_from_json, sheet_to_json
from .services.mission_uses import effect_label, usable_mission_effects

ORDER_CHOICES = [(k.value, k.label) for k in OrderKind]
CREATION_ROWS = 2
PURCHASE_ROWS = 3  # empty rows below the sheet's purchases: save, and three more come back
PURCHASE_CHOICES = [("", "-")] + [(k, PURCHASE_LABELS[k]) for k in PurchaseKind.ALL]


def _label(p: Province) -> str:
    extra = [p.terrain]
    if p.settlement != "none":
        extra.append(p.settlement)
    if p.razed:
        extra.append("razed")
    return f"{p.number} {p.name} ({', '.join(extra)})"


def _offer_only(form: forms.Form, name: str, legal: tuple[int, ...], provinces: dict[int, Province]) -> None:
    """Narrow the drop-down of `name` to the `legal` provinces, keeping the value the sheet holds
    (a draft's choice the rules no longer allow stays visible, and the check says why)."""
    raw = form.data.get(form.add_prefix(name)) if form.is_bound else form.initial.get(name)
    held = int(raw) if is_ascii_digits(raw) else None
    numbers = [n for n in provinces if n in legal or n == held]
    form.fields[name].widget.choices = [("", "-")] + [(n, _label(provinces[n])) for n in sorted(numbers)]


def _row_of(prefix: str | None) -> str:
    """ "create-0" -> "row 1": the row of a sheet's table a repeated form is drawn in."""
    index = (prefix or "").rsplit("-", 1)[-1]
    return f"row {int(index) + 1}" if is_ascii_digits(index) else "row"


class ArmyOrderForm(forms.Form):
    kind = forms.ChoiceField(choices=ORDER_CHOICES, initial="hold", label="Order")
    target = forms.TypedChoiceField(coerce=int, empty_value=None, required=False, label="Into")
    support = forms.TypedChoiceField(coerce=int, empty_value=None, required=False, label="Support the battle in")
    path_1 = forms.TypedChoiceField(coerce=int, empty_value=None, required=False, label="Forced march through")
    path_2 = forms.TypedChoiceField(coerce=int, empty_value=None, required=False, label="to")
    upgrade_to = IntegerField(required=False, min_value=0, label="Upgrade to (points)")
    buy_depot = forms.BooleanField(required=False, label="Buy a supply depot (200 gold)")
    disaster_choice = forms.ChoiceField(
        choices=[("casualties", "take 50% casualties"), ("disband", "disband")],
        initial="casualties",
        required=False,  # the sheet shows it only for an army without a depot; order() defaults it
        label="On a foraging Disaster",
    )
    pay_for_depot = forms.BooleanField(required=False, initial=True, label="Pay 400 gold for a depot on a 12")
    defend_with = forms.ChoiceField(
        choices=[
            (DEFEND_WITH_ARMY, "the army fights, the garrison supports it"),
            (DEFEND_WITH_GARRISON, "the garrison fights, the army supports it"),
        ],
        initial=DEFEND_WITH_ARMY,
        required=False,  # shown only for an army in a town, city or capitol of yours; order() defaults it
        label="If attacked here",
    )
    losses_from = forms.ChoiceField(required=False, label="Losses first from")
    take_control = forms.BooleanField(
        required=False, label="Take control of an ally's province it moves into (breaks the alliance)"
    )

    def __init__(
        self,
        *args: Any,
        army: Army,
        neighbours: list[Province],
        reach: list[Province],
        targets: ArmyTargets | None = None,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.army = army
        # The order's drop-down sits in the army's row without a <label> (the other fields have theirs).
        controls_name(self, army.name, "kind")
        # Foraging and Guerrilla Tactics losses: the rank and file of its list (a character never
        # takes them); left empty, core units first (rulebook.armies.losses).
        rank_and_file = [u.name for u in army.units.all() if u.category != "character"]
        self.fields["losses_from"].choices = [("", "core units first")] + [(n, n) for n in rank_and_file]
        adjacent = [("", "-")] + [(p.number, _label(p)) for p in neighbours]
        self.fields["target"].choices = adjacent
        self.fields["support"].choices = adjacent
        self.fields["path_1"].choices = adjacent
        self.fields["path_2"].choices = [("", "-")] + [(p.number, _label(p)) for p in reach]
        if targets is not None:
            # The fields parse any adjacent province (a value the rules refuse gets the check's words,
            # naming the rule); the drop-downs offer only what the check accepts.
            by_number = {p.number: p for p in [*neighbours, *reach]}
            for name, legal in (
                ("target", targets.move),
                ("support", targets.support),
                ("path_1", targets.march_firsts),
                ("path_2", targets.march_seconds),
            ):
                _offer_only(self, name, legal, by_number)
            # Only the orders the rules allow the army here (issue 37: Recover or the Scarab Amulet
            # offered where illegal); a drafted order no longer legal stays, and the check says why.
            # The widget's list only: the field still parses every kind, so a crafted one gets the
            # check's words, naming the rule.
            raw = self.data.get(self.add_prefix("kind")) if self.is_bound else self.initial.get("kind")
            self.fields["kind"].widget.choices = [
                (value, label) for value, label in ORDER_CHOICES if value in targets.kinds or value == raw
            ]

    @property
    def field_messages(self) -> list[str]:
        """This army's field errors, named (the page lists them above the sheet as well)."""
        return [f"{self.army.name}: {field}: {e}" for field, errors in self.errors.items() for e in errors]

    def order(self) -> dict[str, Any]:
        """The army's order, as the sheet's JSON holds it (orders/entries.py)."""
        d = self.cleaned_data
        kind = OrderKind(d["kind"])
        return {
            "army": self.army.id,
            "kind": kind.value,
            "target": d.get("target") if kind in (OrderKind.MOVE, OrderKind.RAZE_MOVE) else None,
            "support": d.get("support") if kind in SUPPORTING_ORDERS else None,
            "path": [p for p in (d.get("path_1"), d.get("path_2")) if p is not None]
            if kind is OrderKind.FORCED_MARCH
            else [],
            "disaster_choice": d.get("disaster_choice") or "casualties",
            "pay_for_depot": bool(d.get("pay_for_depot")),
            "defend_with": d.get("defend_with") or DEFEND_WITH_ARMY,
            "take_control": bool(d.get("take_control")) and kind in MOVING_ORDERS,
        }

    def upgrade(self) -> dict[str, Any] | None:
        points = self.cleaned_data.get("upgrade_to")
        return {"army": self.army.id, "points": points} if points else None

    def depot(self) -> dict[str, Any] | None:
        return {"army": self.army.id} if self.cleaned_data.get("buy_depot") else None

    def losses(self) -> dict[str, Any] | None:
        unit = self.cleaned_data.get("losses_from") or ""
        return {"army": self.army.id, "unit": unit} if unit else None


class CreateArmyForm(forms.Form):
    name = forms.CharField(max_length=100, required=False, label="New army")
    points = IntegerField(required=False, min_value=0)
    province = forms.TypedChoiceField(coerce=int, empty_value=None, required=False)

    def __init__(self, *args: Any, provinces: list[Province], legal: tuple[int, ...] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["province"].choices = [("", "-")] + [(p.number, _label(p)) for p in provinces]
        if legal is not None:
            _offer_only(self, "province", legal, {p.number: p for p in provinces})
        controls_name(self, _row_of(self.prefix))

    def creation(self) -> dict[str, Any] | None:
        d = self.cleaned_data
        if not (d.get("name") or d.get("points") or d.get("province")):
            return None
        return {"name": d.get("name") or "", "points": d.get("points") or 0, "province": d.get("province") or 0}


def _unit_choices(armies: list[Army], filed: str) -> list[Any]:
    """Each army's units and characters, grouped under the army's name (the page's script shows only
    the chosen army's group); a filed name no longer on any list stays offered, to be mended."""
    groups: list[Any] = [("", "-")]
    names = set()
    for army in armies:
        units = sorted(army.units.all(), key=lambda u: (u.category != "character", u.name))
        group = [(u.name, f"{u.name} (character)" if u.category == "character" else u.name) for u in units]
        names |= {u.name for u in units}
        if group:
            groups.append((army.name, group))
    if filed and filed not in names:
        groups.insert(1, (filed, f"{filed} (as filed: not on the army's list)"))
    return groups


class PurchaseForm(forms.Form):
    """One purchase with an army's experience (Spending Experience): what the kind needs is filled,
    the rest left empty; the check says what is missing."""

    army = forms.TypedChoiceField(coerce=int, empty_value=None, required=False)
    kind = forms.ChoiceField(choices=PURCHASE_CHOICES, required=False, label="Buy")
    # Chosen from the army's own list (issue 37: "Halbardiers" typed was caught only on Check). Still
    # a text field underneath: a name the page never offered (a crafted post, a draft naming a unit
    # since lost) reaches the check, which refuses it in its own words (Spending Experience).
    unit = forms.CharField(max_length=100, required=False, label="For (unit or character)", widget=forms.Select)
    models = IntegerField(required=False, min_value=0, label="Models")
    points = IntegerField(required=False, min_value=0, label="Points")
    name = forms.CharField(max_length=100, required=False, label="New unit or item")
    category = forms.ChoiceField(
        choices=[("", "-"), ("core", "core"), ("special", "special"), ("rare", "rare")], required=False
    )
    common = forms.BooleanField(required=False)
    runic = forms.BooleanField(required=False)

    def __init__(self, *args: Any, armies: list[Army], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["army"].choices = [("", "-")] + [(a.id, a.name) for a in armies]
        # What was posted (a refused sheet comes back as sent) or, unposted, what was filed.
        filed = self.data.get(self.add_prefix("unit"), "") if self.is_bound else self.initial.get("unit") or ""
        self.fields["unit"].widget.choices = _unit_choices(armies, str(filed)[:100])
        self.fields["unit"].widget.attrs.pop("maxlength", None)  # a list has no length to type
        controls_name(self, _row_of(self.prefix))

    def purchase(self) -> dict[str, Any] | None:
        d = self.cleaned_data
        if not (d.get("army") and d.get("kind")):
            return None
        return {
            "army": d["army"],
            "kind": d["kind"],
            "unit": d.get("unit") or "",
            "models": d.get("models") or 0,
            "points": d.get("points") or 0,
            "name": d.get("name") or "",
            "category": d.get("category") or "",
            "common": bool(d.get("common")),
            "runic": bool(d.get("runic")),
        }


class GarrisonsForm(forms.Form):
    """The towns and cities whose garrison the sheet reinforces, by province number: parsed by the
    field (a value that is no province of the campaign is refused); the check says which may be."""

    garrison = forms.TypedMultipleChoiceField(coerce=int, required=False, label="Reinforce the garrison of")

    def __init__(self, *args: Any, provinces: list[Province], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["garrison"].choices = [(p.number, _label(p)) for p in provinces]


class AllianceForm(forms.Form):
    """Allies: declare an alliance (both kingdoms on the same turn, 1,000 gold each). The choices are
    the kingdoms the Alliance Chart lets it ally with. The end of an alliance is announced during the
    End of Turn (battles.services.announcements), not here (decision 385)."""

    declare = forms.TypedChoiceField(coerce=int, empty_value=None, required=False, label="Declare an alliance with")

    def __init__(self, *args: Any, kingdom: Kingdom, **kwargs: Any):
        super().__init__(*args, **kwargs)
        others = kingdom.campaign.kingdoms.exclude(pk=kingdom.pk).exclude(army_type="ancient-dead").order_by("name")
        choices: list[tuple[Any, str]] = [("", "-")]
        for other in others:
            trust = trust_level(kingdom.army_type_enum, other.army_type_enum)
            if trust is not TrustLevel.DISALLOWED:
                choices.append((other.id, f"{other.name} ({other.army_type_enum.label}: {trust.label})"))
        self.fields["declare"].choices = choices
        self.alliance = alliance_in_force(kingdom)
        self.ally = self.alliance.other(kingdom) if self.alliance else None

    def declarations(self) -> list[dict[str, Any]]:
        chosen = self.cleaned_data.get("declare")
        return [{"kingdom": chosen}] if chosen else []


class ToKingdomForm(forms.Form):
    """A row of the sheet that goes to another kingdom of the campaign (Transfer of Gold, Land Sales):
    its `kingdom` lists the kingdoms it may go to (`receivers`), under the row's own label."""

    kingdom = forms.TypedChoiceField(coerce=int, empty_value=None, required=False)
    kingdom_label = ""
    prefix = ""  # of its rows' field names: <prefix>-<row>-<field>; a row's initial data is its entry's fields

    def __init__(self, *args: Any, kingdom: Kingdom, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["kingdom"].label = self.kingdom_label
        receivers = self.receivers(kingdom).order_by("name")
        self.fields["kingdom"].choices = [("", "-")] + [(k.id, k.name) for k in receivers]
        controls_name(self, _row_of(self.prefix))

    @staticmethod
    def receivers(kingdom: Kingdom) -> QuerySet[Kingdom]:
        """Another player's kingdom (Transfer of Gold): not the Ancient Dead, not a Rogue Kingdom, which has
        no player to receive it (decision 604)."""
        return kingdom.campaign.kingdoms.exclude(pk=kingdom.pk).filing_orders()


class GoldTransferForm(ToKingdomForm):
    """Transfer of Gold: gold to another player's kingdom (10% fee on top, arrives the turn after next)."""

    kingdom_label = "Transfer gold to"
    prefix = "transfer"
    gold = IntegerField(
        required=False,
        min_value=1,
        label="Gold",
        error_messages={"min_value": "Transfer a positive amount of gold (Transfer of Gold)."},
    )

    def transfer(self) -> dict[str, Any] | None:
        d = self.cleaned_data
        if not d.get("kingdom") and not d.get("gold"):
            return None
        return {"kingdom": d.get("kingdom") or 0, "gold": d.get("gold") or 0}


class ItemTransferForm(ToKingdomForm):
    """Transfer of Gold (items): a magic item the kingdom holds, by name, to another player's kingdom
    (10% of its gold cost, double its points, on top; arrives the turn after next)."""

    kingdom_label = "Transfer the item to"
    prefix = "item-transfer"
    # Chosen from the kingdom's own magic items (issue 37), a text field underneath: a name the page
    # never offered reaches the check, which refuses it in its words (Transfer of Gold).
    item = forms.CharField(required=False, max_length=100, label="Magic item", widget=forms.Select)

    def __init__(self, *args: Any, kingdom: Kingdom, **kwargs: Any):
        super().__init__(*args, kingdom=kingdom, **kwargs)
        held = sorted({i.name for i in ArmoryItem.objects.filter(kingdom=kingdom, destroyed=False)}, key=str.lower)
        filed = self.data.get(self.add_prefix("item"), "") if self.is_bound else self.initial.get("item") or ""
        choices: list[Any] = [("", "-")] + [(name, name) for name in held]
        if filed and filed not in held:
            choices.insert(1, (str(filed)[:100], f"{str(filed)[:100]} (as filed: the kingdom holds none)"))
        self.fields["item"].widget.choices = choices
        self.fields["item"].widget.attrs.pop("maxlength", None)

    def transfer(self) -> dict[str, Any] | None:
        d = self.cleaned_data
        if not d.get("kingdom") and not (d.get("item") or "").strip():
            return None
        return {"kingdom": d.get("kingdom") or 0, "item": (d.get("item") or "").strip()}


class LandDealForm(ToKingdomForm):
    """Land Sales: this kingdom's side of a deal with another player's kingdom: the province it gives
    (none of its towns, cities or capitol) and the gold it pays; the other declares its side too."""

    kingdom_label = "Land deal with"
    prefix = "land"
    province = forms.TypedChoiceField(coerce=int, empty_value=None, required=False, label="Province you give")
    gold = IntegerField(
        required=False,
        min_value=0,
        label="Gold you pay",
        error_messages={"min_value": "Pay 0 gold or more (Land Sales)."},
    )

    def __init__(self, *args: Any, kingdom: Kingdom, **kwargs: Any):
        super().__init__(*args, kingdom=kingdom, **kwargs)
        own = kingdom.provinces.filter(settlement="none").exclude(pk=kingdom.capitol_id).order_by("number")
        self.fields["province"].choices = [("", "none (you receive)")] + [(p.number, str(p)) for p in own]

    @staticmethod
    def receivers(kingdom: Kingdom) -> QuerySet[Kingdom]:
        """A kingdom with a player to agree (Land Sales): not the Ancient Dead, not a Rogue Kingdom."""
        return kingdom.campaign.kingdoms.exclude(pk=kingdom.pk).filing_orders()

    def deal(self) -> dict[str, Any] | None:
        d = self.cleaned_data
        if not d.get("kingdom"):
            return None
        return {"kingdom": d["kingdom"], "province": d.get("province"), "gold": d.get("gold") or 0}


RowForm = TypeVar("RowForm", bound=ToKingdomForm)


# Rows of one part a posted sheet may hold: the bound of every list of the sheet, the API's and a mail's
# (orders.entries.SHEET_LIST_MAX, decision 593); a row past it (a crafted index) refuses the sheet.
MAX_POSTED_ROWS = SHEET_LIST_MAX
# A field of a row of the sheet's repeated parts: <part>-<row>-<field>.
_ROW_FIELD = re.compile(r"(item-transfer|create|purchase|transfer|land)-(.*)-[a-z_0-9]+")


def unplaced_rows(data: Any) -> list[str]:
    """The posted fields of a repeated part whose row the form cannot place (an index that is not
    0 to MAX_POSTED_ROWS - 1 in the digits 0-9: `transfer-1000000-kingdom`, `transfer--1-kingdom`).
    They were dropped without a word and the sheet went in without them; now they refuse it."""
    if not data:
        return []
    return [
        key
        for key in data
        if (m := _ROW_FIELD.fullmatch(key)) and not (is_ascii_digits(m[2]) and int(m[2]) < MAX_POSTED_ROWS)
    ]


def posted_rows(data: Any, prefix: str) -> int:
    """How many rows of the part `prefix` the posted sheet holds (the page drew its rows from the
    saved sheet, so a posted sheet may hold more than the one the form is built with: each kept)."""
    if not data:
        return 0
    pattern = re.compile(rf"{re.escape(prefix)}-([0-9]+)-")
    indices = [int(m[1]) for key in data if (m := pattern.match(key)) and int(m[1]) < MAX_POSTED_ROWS]
    return max(indices, default=-1) + 1


def _rows(form_class: type[RowForm], data: Any, kingdom: Kingdom, entries: Iterable[dict[str, Any]]) -> list[RowForm]:
    """One form per entry the sheet holds (or row it posts), and one empty row below them (save,
    and another comes back)."""
    filed: list[Any] = list(entries)
    filed += [None] * max(1, posted_rows(data, form_class.prefix) - len(filed))
    return [
        form_class(data, prefix=f"{form_class.prefix}-{i}", kingdom=kingdom, initial=e) for i, e in enumerate(filed)
    ]


def _row_errors(rows: Iterable[forms.Form], what: str) -> list[str]:
    return [f"{what}: {field}: {e}" for form in rows for field, errors in form.errors.items() for e in errors]


class CapitolMoveForm(forms.Form):
    """Loss of the Capitol: move the capitol to another of the kingdom's cities, where its Warlord stands."""

    city = forms.TypedChoiceField(coerce=int, empty_value=None, required=False, label="Move the capitol to")

    def __init__(self, *args: Any, kingdom: Kingdom, **kwargs: Any):
        super().__init__(*args, **kwargs)
        cities = kingdom.provinces.filter(settlement="city").exclude(pk=kingdom.capitol_id).order_by("number")
        self.fields["city"].choices = [("", "-")] + [(p.number, str(p)) for p in cities]

    def moves(self) -> list[dict[str, Any]]:
        city = self.cleaned_data.get("city")
        return [{"province": city}] if city else []


def _desired_choices() -> list[tuple[str, Any]]:
    """The two lists by their names (the page lists each mission's words and when it takes effect below)."""
    return [("", "-")] + [(section, [(m.mission, m.label) for m in listed]) for section, listed in RIVAL_LISTS.values()]


# The two lists as the page shows them under the choice: each mission's name, the rulebook's words, and
# when it takes effect (decision 450).
MISSION_LISTS: list[tuple[str, list[tuple[str, str, str]]]] = [
    (section, [(m.label, m.text, WHEN_IT_TAKES_EFFECT[m.mission]) for m in listed])
    for section, listed in RIVAL_LISTS.values()
]


def _offered(choices: Sequence[tuple[int, str]], held: Any, none: str = "-") -> list[tuple[Any, str]]:
    """A drop-down's options, keeping the value the sheet holds (a draft's choice no longer offered stays
    visible, and the check says why)."""
    offered: list[tuple[Any, str]] = [("", none), *choices]
    if is_ascii_digits(str(held)) and int(held) not in {i for i, _ in choices}:
        offered.append((int(held), f"#{held}"))
    return offered


class TombRaidForm(forms.Form):
    """Using Tomb Raiders: the turn's one mission (100 gold). A Tomb Raid: into a ruin one of the kingdom's
    armies is ordered into. Reconnaissance or Sabotage: against a rival kingdom, the desired mission of its
    list and the army or character it names (decisions 454 and 455: the drop-downs offer the rivals and what
    a spy may name of theirs, `rivals`). The change fee's checkbox is shown when the force was changed this
    turn. The fields parse any province, kingdom, army or character (the check says why one is not)."""

    kind = forms.ChoiceField(
        choices=[
            ("", "- (no mission)"),
            (MissionKind.TOMB_RAID.value, "Tomb Raid"),
            (MissionKind.RECONNAISSANCE.value, "Reconnaissance"),
            (MissionKind.SABOTAGE.value, "Sabotage"),
        ],
        required=False,
        label="Send the Tomb Raiders on",
    )
    province = forms.TypedChoiceField(
        coerce=int, empty_value=None, required=False, label="Send the Tomb Raiders on a Tomb Raid into"
    )
    target_kingdom = IntegerField(required=False, label="Against the rival kingdom", widget=forms.Select)
    desired = forms.ChoiceField(choices=_desired_choices, required=False, label="The desired mission")
    target_army = IntegerField(required=False, label="The army (Army Statistics, Army Orders, Misdirection)")
    target_character = IntegerField(required=False, label="The character (Character Bio)")
    pay_change_fee = forms.BooleanField(required=False, label="Pay the change fee to send them all the same")

    def __init__(
        self,
        *args: Any,
        provinces: dict[int, Province],
        points_added: int = 0,
        rivals: RivalChoices | None = None,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.fields["province"].choices = [("", "-")] + [(n, _label(p)) for n, p in sorted(provinces.items())]
        ruins = tuple(n for n, p in provinces.items() if p.settlement == "ruins")
        _offer_only(self, "province", ruins, provinces)
        rivals = rivals or RivalChoices()
        for name, choices in (
            ("target_kingdom", rivals.kingdoms),
            ("target_army", rivals.armies),
            ("target_character", rivals.characters),
        ):
            held = self.data.get(self.add_prefix(name)) if self.is_bound else self.initial.get(name)
            self.fields[name].widget = forms.Select(choices=_offered(choices, held))
        self.points_added = points_added  # since the turn opened (Maintaining / Changing Tomb Raiders)
        self.change_fee = change_fee(points_added)
        self.fee_shown = points_added > 0 or bool(self.initial.get("pay_change_fee"))
        self.mission_lists = MISSION_LISTS

    def missions(self) -> list[dict[str, Any]]:
        kind = self.cleaned_data.get("kind") or ""
        province = self.cleaned_data.get("province")
        if kind in (MissionKind.RECONNAISSANCE.value, MissionKind.SABOTAGE.value):
            return [
                {
                    "kind": kind,
                    "target_kingdom": self.cleaned_data.get("target_kingdom"),
                    "desired": self.cleaned_data.get("desired") or "",
                    "target_army": self.cleaned_data.get("target_army"),
                    "target_character": self.cleaned_data.get("target_character"),
                    "pay_change_fee": bool(self.cleaned_data.get("pay_change_fee")),
                }
            ]
        if province is None:  # a Tomb Raid (the kind chosen, or left empty as before) names its ruin
            return []
        return [
            {
                "kind": MissionKind.TOMB_RAID.value,
                "province": province,
                "pay_change_fee": bool(self.cleaned_data.get("pay_change_fee")),
            }
        ]


# Where the page puts each of the check's problems: beside the field that mends it.
PROBLEM_FIELDS: dict[SheetProblemCode, str] = {
    SheetProblemCode.NO_TARGET: "target",
    SheetProblemCode.NOT_ADJACENT: "target",
    SheetProblemCode.ALREADY_THERE: "target",
    SheetProblemCode.TAKE_CONTROL: "take_control",
    SheetProblemCode.NO_SUPPORT_PROVINCE: "support",
    SheetProblemCode.SUPPORT_WRONG_ORDER: "support",
    SheetProblemCode.SUPPORT_NOT_BORDERING: "support",
    SheetProblemCode.FORCED_MARCH_PATH: "path_1",
    SheetProblemCode.FORCED_MARCH_NOT_ADJACENT: "path_1",
    SheetProblemCode.FORCED_MARCH_DESERT: "path_1",
    SheetProblemCode.FORCED_MARCH_TERRAIN: "path_1",
    SheetProblemCode.DISASTER_CHOICE: "disaster_choice",
    SheetProblemCode.DEFEND_WITH: "defend_with",
    SheetProblemCode.DEFEND_WITH_NO_GARRISON: "defend_with",
    SheetProblemCode.LOSSES_FROM: "losses_from",
    SheetProblemCode.UPGRADED_TWICE: "upgrade_to",
    SheetProblemCode.UPGRADE_NOT_IN_SETTLEMENT: "upgrade_to",
    SheetProblemCode.UPGRADE_NOT_LARGER: "upgrade_to",
    SheetProblemCode.DEPOT_TWICE: "buy_depot",
    SheetProblemCode.DEPOT_HELD: "buy_depot",
    SheetProblemCode.DEPOT_NOT_IN_SETTLEMENT: "buy_depot",
    SheetProblemCode.NO_NAME: "name",
    SheetProblemCode.NAME_TAKEN: "name",
    SheetProblemCode.TEXT_TOO_LONG: "name",
    SheetProblemCode.ARMY_SIZE: "points",
    SheetProblemCode.NOT_ON_MAP: "province",  # of a new army; an army's own lands on its order
    SheetProblemCode.NOT_YOURS: "province",
    SheetProblemCode.LOOTED: "province",
    SheetProblemCode.OCCUPIED: "province",
}
# The problems of the sheet's other parts: beside the part (its rows are not told apart by the check).
C = SheetProblemCode
PROBLEM_SECTIONS: dict[SheetProblemCode, str] = {
    C.OVER_BUDGET: "gold",
    C.ARMY_LIMIT: "creations",
    C.PURCHASE: "purchases",
    C.EXPERIENCE_SHORT: "purchases",
    C.TRANSFER: "transfers",
    C.ITEM_TRANSFER: "item_transfers",
    C.LAND_SALE: "land_deals",
    C.LAND_SALE_TWICE: "land_deals",
    C.CAPITOL: "capitol",
    C.GARRISON_TWICE: "garrisons",
    C.GARRISON_ANCIENT_DEAD: "garrisons",
    C.GARRISON_NOT_OWN_SETTLEMENT: "garrisons",
    C.GARRISON_REINFORCED: "garrisons",
    **{code: "alliance" for code in SheetProblemCode if code.value.startswith("alliance-")},
    **{code: "missions" for code in SheetProblemCode if code.value.startswith("mission-")},
    **{code: "captives" for code in SheetProblemCode if code.value.startswith("captive-")},
    # Reconnaissance and Sabotage: the effects used (orders/mission_use_forms.py)
    **{code: "mission_uses" for code in SheetProblemCode if code.value.startswith("mission-use-")},
}
SECTIONS = tuple(dict.fromkeys(PROBLEM_SECTIONS.values()))
# An entry's field named as the page's form names it, where the two differ (by the entry's part).
ENTRY_FIELDS: dict[str, dict[str, str]] = {"capitol_moves": {"province": "city"}, "captive_orders": {"captive": "fate"}}
# The fields of the rows of the sheet's other parts, the first standing for the row.
PURCHASE_FIELDS = ("army", "kind", "unit", "models", "points", "name", "category", "common", "runic")
GOLD_TRANSFER_FIELDS = ("kingdom", "gold")
ITEM_TRANSFER_FIELDS = ("kingdom", "item")
LAND_DEAL_FIELDS = ("kingdom", "province", "gold")
CAPITOL_FIELDS = ("city",)
TOMB_RAID_FIELDS = ("province", "pay_change_fee", "kind", "target_kingdom", "desired", "target_army")
TOMB_RAID_FIELDS += ("target_character",)
ARMY_FIELDS = ("kind", "target", "support", "path_1", "upgrade_to", "buy_depot", "disaster_choice", "defend_with")
ARMY_FIELDS += ("losses_from", "take_control")
CREATION_FIELDS = ("name", "points", "province")


class FieldProblems(list[str]):
    """The messages beside one field, and the id the field's aria-describedby points at."""

    def __init__(self, messages: Iterable[str] = (), *, id: str = "") -> None:
        super().__init__(messages)
        self.id = id


def place_problems(form: forms.Form, problems: list[dict[str, Any]], fields: tuple[str, ...]) -> None:
    """Set `form.problems`: field -> the messages beside it (its own parse errors, then the
    check's), a problem whose field the row does not have standing beside the first. A problem
    names its field by the check's code (an army's or a new army's row: PROBLEM_FIELDS) or by its
    entry's field (the sheet's other parts: `entry_field`, ENTRY_FIELDS). Each field with a
    message is marked invalid and described by it (aria-invalid, aria-describedby)."""
    placed: dict[str, list[str]] = {name: [] for name in fields}
    for name, errors in form.errors.items():
        placed[name if name in placed else fields[0]] += list(errors)
    for p in problems:
        name = p.get("entry_field") or PROBLEM_FIELDS.get(SheetProblemCode(p["code"]), fields[0])
        name = ENTRY_FIELDS.get(p.get("part") or "", {}).get(name, name)
        placed[name if name in placed else fields[0]].append(p["message"])
    form.problems = {}  # type: ignore[attr-defined]
    for name, messages in placed.items():
        error_id = f"{form[name].auto_id}-error"
        form.problems[name] = FieldProblems(messages, id=error_id)  # type: ignore[attr-defined]
        if messages:
            attrs = form.fields[name].widget.attrs
            attrs["aria-invalid"] = "true"
            attrs["aria-describedby"] = " ".join(filter(None, (attrs.get("aria-describedby"), error_id)))


class OrderSheetForm:
    """The whole sheet: `armies` (one ArmyOrderForm each), `creations`, `garrisons`."""

    def __init__(
        self,
        data: Any = None,
        *,
        kingdom: Kingdom,
        initial: SheetEntries | None = None,
        targets: SheetTargets | None = None,
        raiders_points_added: int = 0,
        rivals: RivalChoices | None = None,
    ):
        self.kingdom = kingdom
        campaign = kingdom.campaign
        provinces = {p.id: p for p in campaign.provinces.prefetch_related("neighbours")}
        armies = list(
            kingdom.armies.filter(status=Army.Status.ACTIVE, kind=Army.Kind.FIELD, province__isnull=False)
            .prefetch_related("units__items")
            .order_by("id")
        )
        # The saved sheet's rows in the codec's JSON form: the shape the posted rows are read back into.
        saved = sheet_to_json(initial or SheetEntries())
        orders = {o["army"]: o for o in saved["orders"]}
        upgrades = {u["army"]: u["points"] for u in saved["upgrades"]}
        depots = {d["army"] for d in saved["depots"]}
        losses = {c["army"]: c["unit"] for c in saved["losses"]}
        self.armies: list[ArmyOrderForm] = []
        for army in armies:
            here = provinces[army.province_id]
            neighbours = sorted(here.neighbours.all(), key=lambda p: p.number)
            reach = sorted({n for p in neighbours for n in p.neighbours.all()} - {here}, key=lambda p: p.number)
            o = orders.get(army.id) or entry_json(ArmyOrder(army=army.id))  # none filed: it holds
            init = {
                "kind": o["kind"],
                "target": o["target"],
                "support": o["support"],
                "path_1": o["path"][0] if len(o["path"]) > 0 else None,
                "path_2": o["path"][1] if len(o["path"]) > 1 else None,
                "disaster_choice": o["disaster_choice"],
                "pay_for_depot": o["pay_for_depot"],
                "defend_with": o["defend_with"],
                "upgrade_to": upgrades.get(army.id),
                "buy_depot": army.id in depots,
                "losses_from": losses.get(army.id, ""),
                "take_control": o["take_control"],
            }
            form = ArmyOrderForm(
                data,
                prefix=f"army-{army.id}",
                initial=init,
                army=army,
                neighbours=neighbours,
                reach=reach,
                targets=targets.armies.get(army.id) if targets else None,
            )
            form.province = here
            # What the army counts now (its list after its losses): an upgrade is measured from it.
            form.points = army_counted_points(army)
            # Battle for Towns, Cities, and Capitols: its garrison may fight instead of the army. The
            # Ancient Dead's pyramid is always defended by its Capitol Garrison (The Ancient Dead: Setup).
            form.garrisoned = (
                not kingdom.is_ancient_dead
                and here.controller_id == kingdom.id
                and (here.settlement in ("town", "city") or here.id == kingdom.capitol_id)
            )
            self.armies.append(form)
        own = sorted((p for p in provinces.values() if p.controller_id == kingdom.id), key=lambda p: p.number)
        # The filed new armies, then empty rows: at least CREATION_ROWS, and as many as were posted.
        creation_rows = max(CREATION_ROWS, len(saved["creations"]), posted_rows(data, "create"))
        created = [*saved["creations"], *[None] * (creation_rows - len(saved["creations"]))]
        self.filed_creations = len(saved["creations"])
        self.filed_entries = {
            part: len(saved[part])
            for part in (
                "purchases",
                "gold_transfers",
                "item_transfers",
                "land_deals",
                "capitol_moves",
                "missions",
                "captive_orders",
            )
        }
        self.creations = [
            CreateArmyForm(
                data,
                prefix=f"create-{i}",
                provinces=own,
                legal=targets.creation_provinces if targets else None,
                initial=c,
            )
            for i, c in enumerate(created)
        ]
        reinforced = set(
            kingdom.armies.filter(status=Army.Status.ACTIVE, kind=Army.Kind.GARRISON).values_list(
                "province__number", flat=True
            )
        )
        chosen = {g["province"] for g in saved["garrisons"]}
        self.garrison_options = [(p, p.number in reinforced) for p in own if p.settlement in ("town", "city")]
        self.garrisons_chosen = chosen
        self.garrisons = GarrisonsForm(
            data, provinces=sorted(provinces.values(), key=lambda p: p.number), initial={"garrison": sorted(chosen)}
        )
        bought = list(saved["purchases"]) + [None] * max(PURCHASE_ROWS, posted_rows(data, "purchase"))
        # The Elite Defense Forces spend their experience too (Battle for Towns, Cities, and Capitols:
        # "treated as an army in the field in all manners"; decision 620).
        spenders = armies + list(
            kingdom.armies.filter(status=Army.Status.ACTIVE, kind=Army.Kind.GARRISON)
            .prefetch_related("units__items")
            .order_by("id")
        )
        self.purchases = [
            PurchaseForm(
                data,
                prefix=f"purchase-{i}",
                armies=spenders,
                # An empty number field, not 0, where the purchase has none.
                initial={**p, "models": p["models"] or None, "points": p["points"] or None} if p else None,
            )
            for i, p in enumerate(bought)
        ]
        self.alliance = AllianceForm(
            data,
            prefix="alliance",
            kingdom=kingdom,
            initial={"declare": saved["alliances"][0]["kingdom"] if saved["alliances"] else None},
        )
        self.transfers = _rows(GoldTransferForm, data, kingdom, saved["gold_transfers"])
        self.item_transfers = _rows(ItemTransferForm, data, kingdom, saved["item_transfers"])
        self.land_deals = _rows(LandDealForm, data, kingdom, saved["land_deals"])
        self.capitol = CapitolMoveForm(
            data,
            prefix="capitol",
            kingdom=kingdom,
            initial={"city": saved["capitol_moves"][0]["province"] if saved["capitol_moves"] else None},
        )
        # Using Tomb Raiders: the sheet's one mission (a second, sent by the API, is refused under the part).
        self.mission = TombRaidForm(
            data,
            prefix="mission",
            provinces={p.number: p for p in provinces.values()},
            points_added=raiders_points_added,
            rivals=rivals,
            initial=saved["missions"][0] if saved["missions"] else None,
        )
        # Reconnaissance, Sabotage: the fate of each captured Tomb Raider the kingdom holds.
        self.captives = captive_order_rows(
            data, kingdom=kingdom, saved=saved["captive_orders"], posted=posted_rows(data, CAPTIVE_PREFIX)
        )
        # Reconnaissance and Sabotage: a row for each effect earned that this sheet may use.
        self.mission_uses = mission_use_rows(data, kingdom, saved["mission_uses"])
        self.filed_uses = [u["effect"] for u in saved["mission_uses"]]
        self.data = data

    def creation_rows(self) -> list[CreateArmyForm]:
        """The rows that hold the sheet's new armies, in the order of its entries (a problem's
        `creation` index points into this list)."""
        if self.data is None:
            return self.creations[: self.filed_creations]
        return [f for f in self.creations if f.is_valid() and f.creation() is not None]

    def entry_rows(self) -> dict[str, tuple[list[forms.Form], tuple[str, ...]]]:
        """The sheet's other parts by their SheetEntries name: the rows that hold their entries, in
        the order of the entries (a problem's `entry` points into this list), and the rows' fields."""
        filed = self.filed_entries
        bound = self.data is not None

        def holding(rows: Sequence[forms.Form], part: str, entry: Callable[[Any], Any]) -> list[forms.Form]:
            if not bound:
                return list(rows[: filed[part]])
            return [f for f in rows if f.is_valid() and entry(f) is not None]

        return {
            "purchases": (holding(self.purchases, "purchases", PurchaseForm.purchase), PURCHASE_FIELDS),
            "gold_transfers": (
                holding(self.transfers, "gold_transfers", GoldTransferForm.transfer),
                GOLD_TRANSFER_FIELDS,
            ),
            "item_transfers": (
                holding(self.item_transfers, "item_transfers", ItemTransferForm.transfer),
                ITEM_TRANSFER_FIELDS,
            ),
            "land_deals": (holding(self.land_deals, "land_deals", LandDealForm.deal), LAND_DEAL_FIELDS),
            "capitol_moves": (holding([self.capitol], "capitol_moves", lambda f: f.moves() or None), CAPITOL_FIELDS),
            "missions": (holding([self.mission], "missions", lambda f: f.missions() or None), TOMB_RAID_FIELDS),
            "captive_orders": (holding(self.captives, "captive_orders", CaptiveOrderForm.order), CAPTIVE_FIELDS),
            "mission_uses": (self._mission_use_rows(), MISSION_USE_FIELDS),
        }

    def _mission_use_rows(self) -> list[forms.Form]:
        """The rows holding the sheet's mission uses, in the order of its entries."""
        if self.data is not None:
            return [f for f in self.mission_uses if f.is_valid() and f.use() is not None]
        rows = {f.effect.id: f for f in self.mission_uses}
        return [rows[e] for e in self.filed_uses if e in rows]

    def all_entry_rows(self) -> list[tuple[forms.Form, tuple[str, ...]]]:
        """Every row of the sheet's other parts, empty ones too, with its fields."""
        return [
            *((f, PURCHASE_FIELDS) for f in self.purchases),
            *((f, GOLD_TRANSFER_FIELDS) for f in self.transfers),
            *((f, ITEM_TRANSFER_FIELDS) for f in self.item_transfers),
            *((f, LAND_DEAL_FIELDS) for f in self.land_deals),
            (self.capitol, CAPITOL_FIELDS),
            (self.mission, TOMB_RAID_FIELDS),
            *((f, CAPTIVE_FIELDS) for f in self.captives),
            *((f, MISSION_USE_FIELDS) for f in self.mission_uses),
        ]

    def is_valid(self) -> bool:
        forms_ = [
            *self.armies,
            *self.creations,
            *self.purchases,
            self.garrisons,
            self.alliance,
            *self.transfers,
            *self.item_transfers,
            *self.land_deals,
            self.capitol,
            self.mission,
            *self.captives,
            *self.mission_uses,
        ]
        return all(f.is_valid() for f in forms_) and not unplaced_rows(self.data)

    @property
    def field_errors(self) -> list[str]:
        out = [
            f"{key}: the sheet has no such row (rows are numbered 0 to {MAX_POSTED_ROWS - 1}: a part of the sheet "
            f"holds at most {MAX_POSTED_ROWS:,}, {SHEET_LIST_WHY}); nothing is saved."
            for key in unplaced_rows(self.data)
        ]
        for form in self.armies:
            out += form.field_messages
        out += _row_errors(self.creations, "New army")
        out += _row_errors(self.purchases, "Purchase")
        for errors in self.garrisons.errors.values():
            out += [f"Garrisons: {e}" for e in errors]
        for field, errors in self.alliance.errors.items():
            out += [f"Alliance: {field}: {e}" for e in errors]
        out += _row_errors(self.transfers, "Transfer of gold")
        out += _row_errors(self.item_transfers, "Transfer of an item")
        out += _row_errors(self.land_deals, "Land deal")
        for field, errors in self.capitol.errors.items():
            out += [f"Capitol: {field}: {e}" for e in errors]
        for field, errors in self.mission.errors.items():
            out += [f"Tomb Raiders' mission: {field}: {e}" for e in errors]
        out += _row_errors(self.captives, "Captive")
        out += _row_errors(self.mission_uses, "Effect used")
        return out

    def sheet_json(self) -> dict[str, Any]:
        """The sheet its rows hold, in the codec's JSON form (orders/entries.py), as the API takes it."""

        def filled(entries: Iterable[dict[str, Any] | None]) -> list[dict[str, Any]]:
            return [e for e in entries if e is not None]

        garrisons = self.garrisons.cleaned_data["garrison"] if self.data else []
        return {
            "orders": [f.order() for f in self.armies],
            "creations": filled(f.creation() for f in self.creations),
            "upgrades": filled(f.upgrade() for f in self.armies),
            "depots": filled(f.depot() for f in self.armies),
            "garrisons": [{"province": n} for n in garrisons],
            "losses": filled(f.losses() for f in self.armies),
            "purchases": filled(f.purchase() for f in self.purchases),
            "alliances": self.alliance.declarations(),
            "alliance_ends": [],  # announced during the End of Turn, never on the order sheet (decision 385)
            "gold_transfers": filled(f.transfer() for f in self.transfers),
            "item_transfers": filled(f.transfer() for f in self.item_transfers),
            "land_deals": filled(f.deal() for f in self.land_deals),
            "capitol_moves": self.capitol.moves(),
            "missions": self.mission.missions(),
            "captive_orders": filled(f.order() for f in self.captives),
            "mission_uses": [u for f in self.mission_uses if (u := f.use()) is not None],
        }

    def entries(self) -> SheetEntries:
        return sheet_from_json(self.sheet_json())


# -- Reconnaissance and Sabotage: the effects used ---------------------------------------------------
# One row for each effect the kingdom's Tomb Raiders earned that this turn's sheet may use, with a choice
# of army (rulebook.turn.write_orders.mission_uses). Army Orders offers the kingdom's own armies (the one
# that holds in response); Destroy Communication offers "the first support from or to" the target this
# turn, since the target's armies are its secret (an army named by the API stays offered, by its id).

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
