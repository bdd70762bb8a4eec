from django.apps import AppConfig


class DiplomacyConfig(AppConfig):
    name = "diplomacy"
    verbose_name = "Diplomacy: messages between kingdoms"
