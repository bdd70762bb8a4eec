"""A player's own orders address (issue 36): the campaign's orders address with the player's secret
as its plus part, `orders+k3v9...@example.org` for ORDERS_EMAIL_ADDRESS `orders@example.org`. The
inbox (inbox/services/receive.py) files a mail sent there for the account the secret belongs to; the
From header proves nothing.

The secret: 26 characters of lowercase letters and digits (about 134 bits; a mail server may fold an
address's case, so no capitals), made on first use and replaced by its owner (the old address then
stops working at once). Shown only to its owner: on their "Orders by email" page and in the emails
sent to them.
"""

from __future__ import annotations

import re
import secrets
import string
from email.headerregistry import Address
from email.utils import parseaddr

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from ..models import Campaign, PlayerMailSecret

SECRET_ALPHABET = string.ascii_lowercase + string.digits
SECRET_LENGTH = 26


def _secret_new() -> str:
    return "".join(secrets.choice(SECRET_ALPHABET) for _ in range(SECRET_LENGTH))


def _orders_address_parts() -> tuple[str, str]:
    """The local part and the domain of ORDERS_EMAIL_ADDRESS ("Briternia <orders@x.org>" or a bare address)."""
    address = parseaddr(settings.ORDERS_EMAIL_ADDRESS)[1] or settings.ORDERS_EMAIL_ADDRESS
    local, _, domain = address.rpartition("@")
    return local, domain


def mail_secret_for(user: AbstractBaseUser) -> str:
    """The account's secret, made on first use."""
    existing = PlayerMailSecret.objects.filter(user=user).values_list("secret", flat=True).first()
    if existing:
        return existing
    try:
        with transaction.atomic():
            return PlayerMailSecret.objects.create(user=user, secret=_secret_new()).secret
    except IntegrityError:  # made at the same moment by another request
        return PlayerMailSecret.objects.get(user=user).secret


@transaction.atomic
def mail_secret_replace(*, user: AbstractBaseUser) -> str:
    """A new secret for `user`; mail to the old address is refused from now on."""
    secret = _secret_new()
    PlayerMailSecret.objects.update_or_create(user=user, defaults={"secret": secret})
    return secret


def orders_address_for(user: AbstractBaseUser, campaign: Campaign | None) -> str:
    """The address `user` sends their sheets of `campaign` to: the orders address with their secret.
    The secret is the account's (one for every campaign: kingdoms.models.PlayerMailSecret)."""
    local, domain = _orders_address_parts()
    return str(Address(username=f"{local}+{mail_secret_for(user)}", domain=domain))


def _plus_part(address: str) -> str | None:
    """For the orders address or one of its plus-addresses (any case): the plus part ("" for the
    bare address); None for any other address."""
    local, domain = _orders_address_parts()
    bare = (parseaddr(address)[1] or "").strip().lower()
    their_local, _, their_domain = bare.rpartition("@")
    base, _, plus = their_local.partition("+")
    return plus.strip() if base == local.lower() and their_domain == domain.lower() else None


def orders_address_secret(address: str) -> str | None:
    """The secret of a plus-address to the orders address (`orders+<secret>@domain`), or None."""
    secret = _plus_part(address)
    return secret if secret and all(c in SECRET_ALPHABET for c in secret) else None


def is_orders_address(address: str) -> bool:
    """The orders address itself, or one of its plus-addresses (any case)."""
    return _plus_part(address) is not None


def mail_secret_owner(secret: str) -> AbstractBaseUser | None:
    """The active account whose secret this is, or None."""
    if not secret:
        return None
    row = PlayerMailSecret.objects.filter(secret=secret, user__is_active=True).select_related("user").first()
    return row.user if row else None


def orders_address_masked(text: str) -> str:
    """`text` (a To header, a list of addresses) with the secret of every orders plus-address hidden
    (`orders+…@domain`): what the organizer's list of received mail shows, so no secret is seen by
    anyone but its owner."""
    local, _ = _orders_address_parts()
    return re.sub(rf"(?i)\b({re.escape(local)})\+[^@\s<>,]*@", r"\1+…@", text)


def registered_user_for(address: str) -> AbstractBaseUser | None:
    """The one active account registered with this address (case aside), or None (none, or several)."""
    address = (parseaddr(address)[1] or "").strip()
    if not address:
        return None
    users = list(get_user_model().objects.filter(email__iexact=address, is_active=True)[:2])
    return users[0] if len(users) == 1 else None
