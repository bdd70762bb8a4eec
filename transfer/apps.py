from django.apps import AppConfig


class TransferConfig(AppConfig):
    name = "transfer"
    verbose_name = "Transfer: a whole campaign as one JSON document, and back; snapshots and restores"

    def ready(self) -> None:
        # The turn cycle stands below this app and cannot import it: it calls what is registered.
        from turns.services.desk import desk_snapshot_finder_register
        from turns.services.phases import before_phase_register

        from .snapshots import desk_snapshot_action, snapshot_take

        before_phase_register(snapshot_take)
        desk_snapshot_finder_register(desk_snapshot_action)
