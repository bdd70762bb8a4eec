from django.apps import AppConfig


class OrdersConfig(AppConfig):
    name = "orders"
    verbose_name = "Orders: turns, deadlines and order sheets"

    def ready(self) -> None:
        # A submission's receipt email is rendered by the worker (orders.services.emails).
        from outbox.models import Email
        from outbox.services import email_worker_render_register

        from .services.emails import orders_receipt_render

        email_worker_render_register(Email.Kind.ORDERS_RECEIPT, orders_receipt_render)
