"""The admin, scoped by campaign: a staff organizer sees and manages the objects of the campaigns
they organize, and only those; a site administrator (superuser) sees every campaign's. Every
ModelAdmin of a campaign's objects extends CampaignScopedAdmin with the lookup from its model to
the campaign; its inlines extend CampaignScopedInline."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import Model, Q, QuerySet
from django.dispatch import Signal
from django.forms import BaseForm
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest

from .form_labels import controls_name

# Sent with `campaign_id` after an admin edit or deletion of one of a campaign's objects: it changed
# the campaign's world behind the turn's back (kingdoms/apps.py listens: the order sheets' kept
# copies of the world are read again). A signal, because the apps below kingdoms use this module.
campaign_edited_in_admin = Signal()

# The lookup from a related model to its campaign's organizer: the choices of a foreign key or a
# many-to-many field are the organizer's own (another campaign's names never show).
RELATED_SCOPE = {
    "Campaign": "organizer",
    "Kingdom": "campaign__organizer",
    "Province": "campaign__organizer",
    "Turn": "campaign__organizer",
    "DiceRoll": "campaign__organizer",
    "Army": "kingdom__campaign__organizer",
    "Character": "kingdom__campaign__organizer",
    "ArmoryItem": "kingdom__campaign__organizer",
    "Unit": "army__kingdom__campaign__organizer",
    "OrderSheet": "turn__campaign__organizer",
    "Battle": "turn__campaign__organizer",
}


def _staff(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_active and user.is_staff)


def _choices(request: HttpRequest, model: type[Model], queryset: QuerySet) -> QuerySet:
    user = request.user
    if user.is_superuser:
        return queryset
    if model is get_user_model():
        # The organizer and the players of the organizer's campaigns.
        return queryset.filter(Q(pk=user.pk) | Q(kingdoms__campaign__organizer=user)).distinct()
    path = RELATED_SCOPE.get(model.__name__)
    return queryset.filter(**{path: user}) if path else queryset.none()


class ScopedChoices:
    """The foreign key and many-to-many choices of a form, limited to the organizer's campaigns."""

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]
        if field is not None and hasattr(field, "queryset"):
            field.queryset = _choices(request, db_field.related_model, field.queryset)
        return field

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_manytomany(db_field, request, **kwargs)  # type: ignore[misc]
        if field is not None and hasattr(field, "queryset"):
            field.queryset = _choices(request, db_field.related_model, field.queryset)
        return field


class CampaignScopedAdmin(ScopedChoices, admin.ModelAdmin):
    # The lookup from the model to its campaign ("kingdom__campaign"); "" for the Campaign itself.
    campaign_path = "campaign"
    # Staff organizers add campaigns on the site (it sets up the map and the schedule), not here.
    staff_may_add = False

    def _organizer_lookup(self) -> str:
        return f"{self.campaign_path}__organizer" if self.campaign_path else "organizer"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(**{self._organizer_lookup(): request.user})

    def _may(self, request: HttpRequest, obj: Model | None) -> bool:
        if request.user.is_superuser:
            return True
        if not _staff(request):
            return False
        return obj is None or self.get_queryset(request).filter(pk=obj.pk).exists()

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser or _staff(request)

    def _campaign_id(self, obj: Model) -> int | None:
        """The id of the campaign `obj` belongs to, by `campaign_path`."""
        if not self.campaign_path:
            return obj.pk
        *steps, last = self.campaign_path.split("__")
        for step in steps:
            obj = getattr(obj, step)
        return getattr(obj, f"{last}_id")

    def _edited(self, campaign_ids: set[int | None]) -> None:
        for campaign_id in campaign_ids - {None}:
            campaign_edited_in_admin.send(sender=type(self), campaign_id=campaign_id)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        self._edited({self._campaign_id(obj)})

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        campaign_id = self._campaign_id(obj)
        super().delete_model(request, obj)
        self._edited({campaign_id})

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        lookup = f"{self.campaign_path}_id" if self.campaign_path else "pk"
        campaign_ids = set(queryset.values_list(lookup, flat=True))
        super().delete_queryset(request, queryset)
        self._edited(campaign_ids)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._may(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._may(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._may(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser or (self.staff_may_add and _staff(request))


class RowLabelledInlineFormSet(BaseInlineFormSet):  # type: ignore[type-arg]
    """An inline drawn as a table (TabularInline), whose column headers are no <label>s: each row's
    controls, its Delete box included, are named "<column>, row <n>" (issue 18, point 10; axe-core's
    label rule over the admin's change forms, tests/browser/test_accessibility.py)."""

    def add_fields(self, form: BaseForm, index: Any) -> None:
        super().add_fields(form, index)
        controls_name(form, f"row {index + 1}" if index is not None else "new row")


class CampaignScopedInline(ScopedChoices, admin.options.InlineModelAdmin):
    """An inline of a CampaignScopedAdmin: its parent object is already one of the organizer's."""

    formset = RowLabelledInlineFormSet

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser or _staff(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser or _staff(request)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser or _staff(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser or _staff(request)
