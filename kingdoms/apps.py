from django.apps import AppConfig


class KingdomsConfig(AppConfig):
    name = "kingdoms"
    verbose_name = "Kingdoms: the campaign world"
