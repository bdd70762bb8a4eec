from typing import Any

from django.apps import AppConfig


class KingdomsConfig(AppConfig):
    name = "kingdoms"
    verbose_name = "Kingdoms: the campaign world"

    def ready(self) -> None:
        from briternia.admin import campaign_edited_in_admin

        campaign_edited_in_admin.connect(_world_changed_in_admin, dispatch_uid="kingdoms-world-changed-in-admin")


def _world_changed_in_admin(sender: Any, campaign_id: int, **kwargs: Any) -> None:
    from .services.world import world_changed

    world_changed(campaign_id)
