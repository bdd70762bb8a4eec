"""The daily digest of messages, run by the beat (settings: CELERY_BEAT_SCHEDULE "message-digests")."""

from __future__ import annotations

from celery import shared_task

from .services.digests import message_digests_send


@shared_task
def message_digests() -> int:
    return message_digests_send()
