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

        # A web worker builds what a submission needs before its first request (issue 35): the
        # weekly rush reaches all its threads at once.
        from briternia.warm import web_warm_register

        from .serializers import OrderSheetInput
        from .services.sheet_statements import sheet_statements_build, sheet_statements_prepare

        web_warm_register(sheet_statements_build)
        web_warm_register(OrderSheetInput.thread_fields_build, per_thread=True)
        web_warm_register(sheet_statements_prepare, per_thread=True)
