"""Invitation emails: a link that lets a new player set their password; a player who already has
an account (one with a password) gets a plain invitation with the campaign's link."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from briternia.site import site_url
from outbox.models import Email
from outbox.services import email_queue

from ..models import Kingdom


def invitation_link(user: AbstractBaseUser) -> str:
    """The set-password link: Django's password-reset confirmation, valid until the password is set."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return site_url() + reverse("password_reset_confirm", args=[uid, token])


def invitation_queue(*, user: AbstractBaseUser, kingdom: Kingdom, joint: bool = False) -> None:
    """Queue the invitation, rendered now (inside the inviting transaction); it is sent once that
    transaction has committed. Inviting again queues a second, equally valid link. `joint`: a
    co-player, who shares the kingdom with its players (Joint kingdoms)."""
    existing = user.has_usable_password()
    link = site_url() + reverse("campaign", args=[kingdom.campaign_id]) if existing else invitation_link(user)
    email_queue(
        template="invitation",
        kind=Email.Kind.INVITATION,
        to=[user.email],
        context={
            "user": user,
            "kingdom": kingdom,
            "campaign": kingdom.campaign,
            "link": link,
            "existing": existing,
            "joint": joint,
        },
        campaign_id=kingdom.campaign_id,
    )
