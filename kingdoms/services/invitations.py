"""Invitation emails: a link that lets a new player set their password."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from briternia.emails import email_send

from ..models import Kingdom


def invitation_link(user: AbstractBaseUser) -> str:
    """The set-password link: Django's password-reset confirmation, valid until the password is set."""
    from django.conf import settings

    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return settings.SITE_URL.rstrip("/") + reverse("password_reset_confirm", args=[uid, token])


def invitation_queue(*, user: AbstractBaseUser, kingdom: Kingdom) -> None:
    """Send the invitation once the inviting transaction has committed."""
    from ..tasks import invitation_send

    transaction.on_commit(lambda: invitation_send.delay(user_id=user.pk, kingdom_id=kingdom.pk))


def invitation_email_send(*, user: AbstractBaseUser, kingdom: Kingdom) -> None:
    email_send(
        "invitation",
        to=[user.email],
        context={
            "user": user,
            "kingdom": kingdom,
            "campaign": kingdom.campaign,
            "link": invitation_link(user),
        },
    )
