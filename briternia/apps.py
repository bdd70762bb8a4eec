from django.apps import AppConfig


class BriterniaConfig(AppConfig):
    name = "briternia"

    def ready(self) -> None:
        # Bind @shared_task to the project's Celery app (configured from the settings) as soon as
        # Django starts, in the web process as in the worker.
        from . import celery  # noqa: F401
