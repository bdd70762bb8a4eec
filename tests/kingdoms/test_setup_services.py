"""Campaign setup through the services (kingdoms/services/campaigns.py), rulebook Setup."""

from dataclasses import replace

import pytest
from django.core import mail

from briternia.errors import DomainError
from kernel.dice import ScriptedDice
from kingdoms.models import Army, Campaign, Kingdom, Province, TreasuryEntry
from kingdoms.services import armies as army_services
from kingdoms.services import campaigns as campaign_services
from rulebook.armies.army_lists import CharacterEntry, UnitEntry
from rulebook.setup.maps import load_default_map, map_from_json, map_to_json
from turns.models import DiceRoll
from turns.services.cycle import campaign_start


def players(campaign):
    return list(campaign.kingdoms.exclude(army_type="ancient-dead").order_by("id"))


def test_campaign_from_the_default_map_with_the_ancient_dead_in_the_centre(new_campaign):
    spec = load_default_map()
    assert new_campaign.provinces.count() == len(spec.provinces)
    pairs = Province.neighbours.through.objects.filter(from_province__campaign=new_campaign).count()
    assert pairs == 2 * len(spec.adjacency)  # stored both ways: adjacency is symmetric
    dead = new_campaign.kingdoms.get(army_type="ancient-dead")
    assert dead.capitol.pyramid
    assert set(dead.provinces.values_list("terrain", flat=True)) == {"desert"}
    assert dead.provinces.count() == new_campaign.provinces.filter(terrain="desert").count()
    assert dead.players.get() == new_campaign.organizer
    assert set(dead.armies.values_list("name", "kind")) == {("Capitol Garrison", "garrison"), ("First Host", "field")}


def test_corner_to_corner_sections_are_adjacent_in_the_stored_map(new_campaign):
    province = new_campaign.provinces.get(col=1, row=1)
    neighbours = {(p.col, p.row) for p in province.neighbours.all()}
    assert neighbours == {(c, r) for c in (0, 1, 2) for r in (0, 1, 2)} - {(1, 1)}


def test_map_with_too_few_capitol_sites_for_the_players_is_refused(organizer):
    doc = map_to_json(load_default_map())
    with pytest.raises(DomainError, match="capitol sites; 9 players need 9"):
        campaign_services.campaign_create(
            name="Too many", organizer=organizer, player_count=9, time_zone="UTC", map_spec=map_from_json(doc)
        )
    assert not Campaign.objects.exists()


def test_invitation_creates_the_kingdom_and_emails_a_set_password_link(
    new_campaign, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        kingdom = campaign_services.player_invite(
            campaign=new_campaign, email="Newcomer@Example.org", kingdom_name="Ostland", army_type="empire"
        )
    user = kingdom.players.get()
    assert user.email == "newcomer@example.org" and not user.has_usable_password()
    (message,) = mail.outbox
    assert message.to == ["newcomer@example.org"]
    assert "Ostland" in message.subject
    assert "/accounts/reset/" in message.body
    assert "/accounts/reset/" in message.alternatives[0][0]


@pytest.mark.parametrize(
    "email, name, army_type, expected",
    [
        ("x@example.org", "Kingdom 1", "empire", "already a kingdom called Kingdom 1"),
        ("p1@example.org", "Other", "empire", "already plays a kingdom"),
        ("x@example.org", "Other", "ancient-dead", "not an army type a player may take"),
        ("not-an-email", "Other", "empire", "is not an email address"),
    ],
)
def test_bad_invitation_is_refused_and_saves_nothing(invited_campaign, email, name, army_type, expected):
    invited_campaign.player_count = 5
    invited_campaign.save()
    before = Kingdom.objects.count()
    with pytest.raises(DomainError, match=expected):
        campaign_services.player_invite(campaign=invited_campaign, email=email, kingdom_name=name, army_type=army_type)
    assert Kingdom.objects.count() == before


def test_no_more_players_than_the_campaign_is_for(invited_campaign):
    with pytest.raises(DomainError, match="already has its 4 player kingdoms"):
        campaign_services.player_invite(
            campaign=invited_campaign, email="fifth@example.org", kingdom_name="Fifth", army_type="skaven"
        )


def test_case_S1_home_selection_order_through_the_services(invited_campaign):
    k1, k2, k3, k4 = players(invited_campaign)
    dice = ScriptedDice(faces=[3, 4, 4, 5, 3, 4, 2, 2, 4, 4, 1, 2])  # 7, 9, 7, 4; re-rolls 8 and 3
    values = campaign_services.home_selection_start(campaign=invited_campaign, dice=dice)
    assert values == {k1.id: 8, k2.id: 9, k3.id: 3, k4.id: 4}
    rolls = DiceRoll.objects.filter(campaign=invited_campaign, turn=0)
    assert [r.total for r in rolls] == [7, 9, 7, 4, 8, 3]
    invited_campaign.refresh_from_db()

    sites = list(invited_campaign.provinces.filter(capitol_site=True).order_by("number"))
    order = []
    for site in sites[:4]:
        kingdom = campaign_services.setup_next_kingdom(invited_campaign)
        order.append(kingdom)
        campaign_services.home_pick(campaign=invited_campaign, kingdom=kingdom, number=site.number)
        invited_campaign.refresh_from_db()
    assert order == [k2, k1, k4, k3]  # 9, 8, 4, 3
    assert invited_campaign.status == Campaign.Status.PROVINCES

    order = []
    while (kingdom := campaign_services.setup_next_kingdom(invited_campaign)) is not None:
        order.append(kingdom)
        kingdom.refresh_from_db()
        free = kingdom.capitol.neighbours.filter(controller__isnull=True, capitol_site=False).exclude(terrain="desert")
        campaign_services.adjacent_pick(
            campaign=invited_campaign, kingdom=kingdom, numbers=[p.number for p in free[:2]]
        )
        invited_campaign.refresh_from_db()
    assert order == [k3, k4, k1, k2]  # 3, 4, 8, 9
    assert invited_campaign.status == Campaign.Status.ARMY_LISTS
    assert all(k.provinces.count() == 3 for k in players(invited_campaign))


@pytest.fixture
def homes_open(invited_campaign):
    campaign_services.home_selection_start(campaign=invited_campaign)
    invited_campaign.refresh_from_db()
    return invited_campaign


def test_same_seed_gives_the_same_setup_rolls(homes_open, organizer, django_capture_on_commit_callbacks):
    twin = Campaign.objects.create(
        name="Twin", organizer=organizer, player_count=4, map_name="x", setup_seed=homes_open.setup_seed
    )
    for i in range(1, 5):
        Kingdom.objects.create(campaign=twin, name=f"Kingdom {i}", army_type="empire")
    campaign_services.home_selection_start(campaign=twin)
    totals = lambda c: list(DiceRoll.objects.filter(campaign=c).values_list("faces", "purpose"))  # noqa: E731
    assert totals(twin) == totals(homes_open)


def test_home_pick_out_of_turn_or_not_a_site_is_refused_and_changes_nothing(homes_open):
    first = campaign_services.setup_next_kingdom(homes_open)
    other = next(k for k in players(homes_open) if k != first)
    site = homes_open.provinces.filter(capitol_site=True).first()
    with pytest.raises(DomainError, match=f"It is {first.name}'s turn"):
        campaign_services.home_pick(campaign=homes_open, kingdom=other, number=site.number)
    plain = homes_open.provinces.filter(capitol_site=False, terrain="plains").first()
    with pytest.raises(DomainError, match="not one of the predetermined capitol sites"):
        campaign_services.home_pick(campaign=homes_open, kingdom=first, number=plain.number)
    assert not homes_open.provinces.exclude(controller__army_type="ancient-dead").exclude(controller=None).exists()
    assert not TreasuryEntry.objects.exists()


def test_case_S3_each_kingdom_starts_with_capitol_gold_and_a_2000_point_army(homes_open):
    kingdom = campaign_services.setup_next_kingdom(homes_open)
    site = homes_open.provinces.filter(capitol_site=True).first()
    campaign_services.home_pick(campaign=homes_open, kingdom=kingdom, number=site.number)
    kingdom.refresh_from_db()
    assert kingdom.capitol == site and kingdom.capitol.settlement == "city" and kingdom.capitol.controller == kingdom
    assert kingdom.treasury_balance() == 6000
    assert list(kingdom.ledger.values_list("reason", "amount", "turn")) == [("starting-gold", 6000, 0)]
    (army,) = kingdom.armies.all()
    assert (army.size, army.province, army.supply_depot) == (2000, site, True)
    # The army must include the Warlord, who becomes its General.
    assert any("must include the Warlord" in p for p in army_services.army_list_problems(army))


def test_case_S2_six_players_take_one_adjacent_province(organizer, django_capture_on_commit_callbacks):
    campaign = campaign_services.campaign_create(
        name="Six", organizer=organizer, player_count=6, time_zone="UTC", map_spec=load_default_map()
    )
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(6):
            campaign_services.player_invite(
                campaign=campaign, email=f"six{i}@example.org", kingdom_name=f"K{i}", army_type="skaven"
            )
    campaign_services.home_selection_start(campaign=campaign)
    campaign.refresh_from_db()
    sites = iter(campaign.provinces.filter(capitol_site=True).order_by("number"))
    while campaign.status == Campaign.Status.HOMES:
        kingdom = campaign_services.setup_next_kingdom(campaign)
        campaign_services.home_pick(campaign=campaign, kingdom=kingdom, number=next(sites).number)
        campaign.refresh_from_db()
    kingdom = campaign_services.setup_next_kingdom(campaign)
    kingdom.refresh_from_db()
    free = [p.number for p in kingdom.capitol.neighbours.filter(capitol_site=False).exclude(terrain="desert")]
    with pytest.raises(DomainError, match="Pick exactly 1 province"):
        campaign_services.adjacent_pick(campaign=campaign, kingdom=kingdom, numbers=free[:2])
    campaign_services.adjacent_pick(campaign=campaign, kingdom=kingdom, numbers=free[:1])
    assert kingdom.provinces.count() == 2


# Veteran is on the Archetype Table of every army type of the invited campaign.
WARLORD = UnitEntry("Count Valten", "character", 1, 150, character=CharacterEntry("lord", "warlord", "veteran"))


def _starting_army(campaign):
    kingdom = campaign_services.setup_next_kingdom(campaign)
    site = campaign.provinces.filter(capitol_site=True, controller=None).first()
    campaign_services.home_pick(campaign=campaign, kingdom=kingdom, number=site.number)
    return kingdom.armies.get()


def test_warlord_gets_the_starting_ability_and_a_recorded_free_roll(homes_open):
    army = _starting_army(homes_open)
    army_services.army_list_save(army=army, units=[WARLORD, UnitEntry("Swordsmen", "core", 300, 6)], items=[])
    character = army.units.get(name="Count Valten").character
    (roll,) = DiceRoll.objects.filter(campaign=homes_open, stream=f"warlord-free-roll:{army.kingdom_id}")
    assert roll.expression == "D6" and army.kingdom_id in roll.kingdoms
    assert character.abilities[0] == "Iron Nerves"
    if roll.total == 6:
        assert character.ability_choice_pending and len(character.abilities) == 1
        army_services.ability_choose(character=character, ability="Fearless")
        character.refresh_from_db()
        assert character.abilities == ["Iron Nerves", "Fearless"]
    else:
        veteran_table = ["Chain of Command", "Fearless", "Disciplined", "Unflinching", "Grizzled Fighters"]
        assert character.abilities == ["Iron Nerves", veteran_table[roll.total - 1]]
    # Saving the list again never rolls again.
    army_services.army_list_save(army=army, units=army_services.army_entries(army)[0], items=[])
    assert DiceRoll.objects.filter(campaign=homes_open, stream__startswith="warlord-free-roll").count() == 1


def test_invalid_army_list_is_refused_whole_and_nothing_is_saved(homes_open):
    army = _starting_army(homes_open)
    army_services.army_list_save(army=army, units=[WARLORD, UnitEntry("Swordsmen", "core", 300, 6)], items=[])
    before = army_services.army_entries(army)
    with pytest.raises(DomainError) as refused:
        army_services.army_list_save(army=army, units=[*before[0], UnitEntry("Knights", "special", 20, 25)], items=[])
    assert "1st Army: the list totals 2450 points" in refused.value.messages[0]
    assert army_services.army_entries(army) == before


@pytest.mark.parametrize(("swordsmen", "accepted"), [(299, False), (300, True), (308, True), (309, False)])
def test_case_S3_the_starting_army_s_list_is_a_2000_point_army(homes_open, swordsmen, accepted):
    """Setup: "a 2,000 point army". With the 150-point Warlord, 299 Swordsmen make 1,944 points,
    short of 2,000 by more than one 50-point step (docs/rules-decisions.md, decision 4): refused;
    1,950 and 1,998 are a 2,000-point army; 2,004 is more than the kingdom was given."""
    army = _starting_army(homes_open)
    units = [WARLORD, UnitEntry("Swordsmen", "core", swordsmen, 6)]
    if accepted:
        army_services.army_list_save(army=army, units=units, items=[])
        assert army.units.count() == 2
        return
    with pytest.raises(DomainError) as refused:
        army_services.army_list_save(army=army, units=units, items=[])
    total = 150 + swordsmen * 6
    assert refused.value.messages == [
        f"1st Army: the list totals {total} points; the starting army is a 2,000 point army (Setup): "
        "1,950 to 2,000 points."
    ]
    assert not army.units.exists()


def test_an_army_raised_counts_at_its_price_until_its_list_is_entered_which_leaves_out_its_losses(homes_open):
    """3. Create / Upgrade Armies, Army Restrictions: the list entered for a new army may hold what
    was paid for, less what the army lost before its list was entered; entering it ends that."""
    first = _starting_army(homes_open)
    army_services.army_list_save(army=first, units=[WARLORD, UnitEntry("Swordsmen", "core", 300, 6)], items=[])
    raised = Army.objects.create(
        kingdom=first.kingdom,
        name="2nd Army",
        province=first.province,
        size=1500,
        created_turn=1,
        list_due=True,
        losses_before_list=100,
    )
    general = UnitEntry("Captain Brandt", "character", 1, 100, character=CharacterEntry("hero", "general", "veteran"))
    with pytest.raises(DomainError) as refused:
        army_services.army_list_save(army=raised, units=[general, UnitEntry("Halberdiers", "core", 280, 5)], items=[])
    assert refused.value.messages == [
        "2nd Army: the list totals 1500 points but the army was raised at 1500 points and lost 100 before its "
        "list was entered."
    ]
    army_services.army_list_save(army=raised, units=[general, UnitEntry("Halberdiers", "core", 260, 5)], items=[])
    raised.refresh_from_db()
    assert (raised.list_due, raised.losses_before_list) == (False, 0)
    # Later, troops lost may leave the list under 1,000 points: the player may still edit it.
    army_services.army_list_save(army=raised, units=[general, UnitEntry("Halberdiers", "core", 150, 5)], items=[])
    assert raised.units.get(name="Halberdiers").models_count == 150


def test_second_monstrous_mount_in_another_army_is_refused(homes_open):
    army = _starting_army(homes_open)
    mounted = UnitEntry(
        "Count on Griffon", "character", 1, 300, character=CharacterEntry("lord", "warlord", "veteran", True)
    )
    army_services.army_list_save(army=army, units=[mounted, UnitEntry("Swordsmen", "core", 275, 6)], items=[])
    second = Army.objects.create(
        kingdom=army.kingdom, name="2nd Army", province=army.province, size=1500, created_turn=1
    )
    captain = UnitEntry(
        "Captain on Pegasus", "character", 1, 100, character=CharacterEntry("hero", "general", "veteran", True)
    )
    with pytest.raises(DomainError, match="only one character mounted on a monstrous creature"):
        army_services.army_list_save(army=second, units=[captain, UnitEntry("Halberdiers", "core", 200, 5)], items=[])
    assert not second.units.exists()


def test_an_elite_defense_force_list_is_entered_once_and_its_composition_never_changes(homes_open):
    """Battle for Towns, Cities, and Capitols: "The composition of the Elite Defense Force cannot
    change". Its list (one hero, its General, and core troops; 500 points) is entered once; every
    later edit is refused and changes nothing. One in the kingdom's capitol is an Elite Defense
    Force too (only the Ancient Dead's Capitol Garrison is not)."""
    army = _starting_army(homes_open)
    force = Army.objects.create(
        kingdom=army.kingdom, name="Elite Defense Force", kind=Army.Kind.GARRISON, province=army.province, size=500
    )
    captain = UnitEntry("Captain Eda", "character", 1, 80, character=CharacterEntry("hero", "general", "veteran"))
    army_services.army_list_save(army=force, units=[captain, UnitEntry("Guards", "core", 40, 10)], items=[])
    entered = army_services.army_entries(force)
    assert [u.name for u in entered[0]] == ["Captain Eda", "Guards"]

    fewer_guards = [entered[0][0], replace(entered[0][1], models=30)]
    with pytest.raises(DomainError, match="composition of an Elite Defense Force cannot change"):
        army_services.army_list_save(army=force, units=fewer_guards, items=[])
    assert army_services.army_entries(force) == entered


def test_campaign_starts_only_when_every_list_is_valid(demo_campaign):
    assert demo_campaign.status == Campaign.Status.RUNNING and demo_campaign.current_turn == 1
    with pytest.raises(DomainError, match="once every home and province"):
        campaign_start(campaign=demo_campaign)


def test_campaign_start_is_refused_while_an_army_list_is_missing(homes_open):
    campaign = homes_open
    while (kingdom := campaign_services.setup_next_kingdom(campaign)) is not None:
        if campaign.status == Campaign.Status.HOMES:
            site = campaign.provinces.filter(capitol_site=True, controller=None).first()
            campaign_services.home_pick(campaign=campaign, kingdom=kingdom, number=site.number)
        else:
            kingdom.refresh_from_db()
            free = kingdom.capitol.neighbours.filter(controller=None, capitol_site=False).exclude(terrain="desert")
            campaign_services.adjacent_pick(campaign=campaign, kingdom=kingdom, numbers=[p.number for p in free[:2]])
        campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.ARMY_LISTS
    with pytest.raises(DomainError) as refused:
        campaign_start(campaign=campaign)
    assert any("Kingdom 1: 1st Army: the starting army must include the Warlord" in m for m in refused.value.messages)
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.ARMY_LISTS and campaign.current_turn == 0
