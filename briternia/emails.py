"""Sending an email from its three templates: emails/<name>-subject.txt, -body.txt, -body.html."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string

# (file name, content, MIME type), as EmailMessage.attach takes them.
Attachment = tuple[str, bytes, str]


def email_send(name: str, *, to: list[str], context: dict[str, Any], attachments: Sequence[Attachment] = ()) -> None:
    """Render emails/<name>-* with `context` and send it to `to`, text and HTML parts, with any
    attachments (a scenario sheet's PDF, a turn report)."""
    context = {"site_url": settings.SITE_URL.rstrip("/"), **context}
    subject = " ".join(render_to_string(f"emails/{name}-subject.txt", context).split())
    text = render_to_string(f"emails/{name}-body.txt", context)
    html = render_to_string(f"emails/{name}-body.html", context)
    message = EmailMultiAlternatives(subject=subject, body=text, from_email=settings.DEFAULT_FROM_EMAIL, to=to)
    message.attach_alternative(html, "text/html")
    for filename, content, mimetype in attachments:
        message.attach(filename, content, mimetype)
    message.send()
