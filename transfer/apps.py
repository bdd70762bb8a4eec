from django.apps import AppConfig


class TransferConfig(AppConfig):
    name = "transfer"
    verbose_name = "Transfer: a whole campaign as one JSON document, and back"
