"""Celery tasks of the campaign world: thin, take ids, safe to run twice."""

from celery import shared_task
from django.contrib.auth import get_user_model

from .models import Kingdom
from .services.invitations import invitation_email_send


@shared_task(autoretry_for=(ConnectionError, OSError), retry_backoff=True, max_retries=5)
def invitation_send(*, user_id: int, kingdom_id: int) -> None:
    """Email a player their invitation. Running it twice sends a second, equally valid link,
    which is harmless: the player needs one."""
    user = get_user_model().objects.get(pk=user_id)
    kingdom = Kingdom.objects.select_related("campaign").get(pk=kingdom_id)
    invitation_email_send(user=user, kingdom=kingdom)
