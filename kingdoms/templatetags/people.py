"""{% load people %}: {{ user|display_name }} names a person without their email address."""

from typing import Any

from django import template

from ..people import display_name as _display_name

register = template.Library()


@register.filter
def display_name(user: Any) -> str:
    return _display_name(user)
