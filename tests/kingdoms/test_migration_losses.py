"""kingdoms migration 0006 (issue 13, losses are counted once): `Army.pending_losses` goes. An army
with a list keeps its list as what counts (the points were taken off it again after the player had
removed the models: taking them once more would count them twice); an army whose list was never
entered keeps them as the points its list, when entered, leaves out."""

from __future__ import annotations

from kingdoms.models import Army, Kingdom
from kingdoms.services.world import world_load
from tests.migration_steps import migrated_back

BEFORE = [("kingdoms", "0005_army_fortified_in")]


def test_pending_losses_are_kept_only_for_an_army_without_a_list(transactional_db):
    from demo.campaign import demo_campaign_create

    campaign = demo_campaign_create()
    ostland = Kingdom.objects.get(campaign=campaign, name="Ostland")
    listed = ostland.armies.get(name="1st Army")
    listed_points = world_load(campaign=campaign, turn_number=1).armies[listed.pk].points
    unlisted = Army.objects.create(kingdom=ostland, name="2nd Army", province=ostland.capitol, size=1500)
    with migrated_back(BEFORE) as old_apps:
        Legacy = old_apps.get_model("kingdoms", "Army")
        Legacy.objects.filter(pk__in=[listed.pk, unlisted.pk]).update(pending_losses=150)

    listed.refresh_from_db()
    unlisted.refresh_from_db()
    assert (listed.losses_before_list, unlisted.losses_before_list) == (0, 150)
    world = world_load(campaign=campaign, turn_number=1)
    assert world.armies[listed.pk].points == listed_points  # its list, nothing subtracted
    assert world.armies[unlisted.pk].points == 1350  # paid for, less what it lost before its list
