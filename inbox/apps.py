from django.apps import AppConfig


class InboxConfig(AppConfig):
    name = "inbox"
    verbose_name = "Mail received"

    def ready(self) -> None:
        # The email provider's inbound webhook (django-anymail's `inbound` signal) feeds the inbox.
        from . import webhooks  # noqa: F401
