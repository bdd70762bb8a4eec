from django.urls import path

from . import views

urlpatterns = [
    path("turns/<int:turn_id>/snapshots/", views.turn_snapshots, name="turn-snapshots"),
    path(
        "turns/<int:turn_id>/snapshots/<int:snapshot_id>/restore/",
        views.snapshot_restore_confirm,
        name="snapshot-restore",
    ),
]
