from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = "Battles: scenarios, turn summary sheets and the aftermath"
