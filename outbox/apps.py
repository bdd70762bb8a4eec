from django.apps import AppConfig


class OutboxConfig(AppConfig):
    name = "outbox"
    verbose_name = "Outgoing emails"

    def ready(self) -> None:
        from briternia.warm import web_warm_register

        from .services import email_publisher_start

        # A web worker's requests hand the emails they commit to one publisher (EmailPublisher).
        web_warm_register(email_publisher_start)
