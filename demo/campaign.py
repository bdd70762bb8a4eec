"""The demo campaign: the real setup services run with sample players and army lists."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from kingdoms.models import Army, Campaign, Kingdom
from kingdoms.services import armies as army_services
from kingdoms.services import campaigns as campaign_services
from rulebook.armies.army_lists import CharacterEntry, ItemEntry, UnitEntry
from rulebook.setup.maps import load_default_map
from turns.services.cycle import campaign_start

DEMO_PASSWORD = "briternia"

PLAYERS = [
    # username, kingdom, army type
    ("alice", "Ostland", "empire"),
    ("bob", "Da Red Fang", "orcs-and-goblins"),
    ("carol", "Karak Dumn", "dwarfs"),
    ("dave", "Tor Anlec", "high-elves"),
]


def _c(rank: str, role: str, archetype: str | None = None, **flags: bool) -> CharacterEntry:
    return CharacterEntry(rank=rank, role=role, archetype=archetype, **flags)


# Sample starting lists (just under 2,000 points), one per demo army type.
SAMPLE_LISTS: dict[str, tuple[list[UnitEntry], list[ItemEntry]]] = {
    "empire": (
        [
            UnitEntry("Elector Count Valten", "character", 1, 90, 15, character=_c("lord", "warlord", "noble")),
            UnitEntry("Captain Reiner", "character", 1, 50, 10, character=_c("hero", "hero")),
            UnitEntry("Swordsmen", "core", 20, 6, 20),
            UnitEntry("Halberdiers", "core", 20, 5, 20),
            UnitEntry("Handgunners", "core", 20, 8),
            UnitEntry("Knightly Orders", "special", 8, 23, 20),
            UnitEntry("Great Cannon", "special", 1, 100),
            UnitEntry("Greatswords", "special", 15, 10, 20),
            UnitEntry("Helblaster Volley Gun", "rare", 1, 110),
            UnitEntry("Crossbowmen", "core", 10, 8),
            UnitEntry("State Troops Reserve", "core", 40, 5, 20),
            UnitEntry("Pistoliers", "special", 5, 18),
            UnitEntry("Steam Tank", "rare", 1, 300),
        ],
        [
            ItemEntry("Runefang", 85, bearer="Elector Count Valten"),
            ItemEntry("Enchanted Shield", 10, True, "Captain Reiner"),
        ],
    ),
    "orcs-and-goblins": (
        [
            UnitEntry("Warboss Grimgor", "character", 1, 110, 20, character=_c("lord", "warlord", "barbarian")),
            UnitEntry("Big Boss Skarsnik", "character", 1, 60, 10, character=_c("hero", "hero")),
            UnitEntry("Orc Boyz", "core", 25, 6, 20),
            UnitEntry("Orc Arrer Boyz", "core", 16, 6),
            UnitEntry("Night Goblins", "core", 30, 3, 10),
            UnitEntry("Night Goblin Fanatics", "core", 3, 25, one_use=True),
            UnitEntry("Black Orcs", "special", 15, 12, 20),
            UnitEntry("Boar Boyz", "special", 8, 16, 20),
            UnitEntry("Rock Lobber", "rare", 1, 80),
            UnitEntry("Trolls", "rare", 3, 45),
            UnitEntry("Savage Orcs", "core", 20, 8, 20),
            UnitEntry("Goblin Wolf Riders", "core", 10, 12),
            UnitEntry("Orc Boyz Mob", "core", 20, 6, 20),
            UnitEntry("Spear Chukka", "special", 1, 35),
            UnitEntry("Giant", "rare", 1, 205),
        ],
        [ItemEntry("Armour of Gork", 70, bearer="Warboss Grimgor")],
    ),
    "dwarfs": (
        [
            UnitEntry("Thane Durin", "character", 1, 90, 30, character=_c("lord", "warlord", "veteran")),
            UnitEntry("Runesmith Kragg", "character", 1, 70, 10, character=_c("hero", "hero")),
            UnitEntry("Dwarf Warriors", "core", 20, 8, 25),
            UnitEntry("Quarrellers", "core", 15, 11),
            UnitEntry("Thunderers", "core", 10, 14),
            UnitEntry("Ironbreakers", "special", 15, 14, 20),
            UnitEntry("Hammerers", "special", 12, 14, 20),
            UnitEntry("Cannon", "special", 1, 90),
            UnitEntry("Organ Gun", "rare", 1, 120),
            UnitEntry("Longbeards", "special", 15, 12, 20),
            UnitEntry("Miners", "special", 15, 11),
            UnitEntry("Gyrocopter", "rare", 1, 140),
            UnitEntry("Clan Warriors", "core", 15, 8, 10),
        ],
        [ItemEntry("Rune of Stone", 5, True, "Thane Durin")],
    ),
    "high-elves": (
        [
            UnitEntry("Prince Imrik", "character", 1, 130, 30, character=_c("lord", "warlord", "intellectual")),
            UnitEntry("Mage Caladh", "character", 1, 100, character=_c("hero", "hero", wizard=True)),
            UnitEntry("Spearmen", "core", 20, 9, 20),
            UnitEntry("Archers", "core", 15, 12),
            UnitEntry("Silver Helms", "core", 5, 21, 15),
            UnitEntry("Swordmasters", "special", 12, 15, 20),
            UnitEntry("White Lions", "special", 10, 15, 10),
            UnitEntry("Repeater Bolt Thrower", "rare", 1, 100),
            UnitEntry("Repeater Bolt Thrower (2)", "rare", 1, 100),
            UnitEntry("Phoenix Guard", "special", 10, 15, 10),
            UnitEntry("Dragon Princes", "special", 5, 30),
            UnitEntry("Great Eagle", "special", 1, 50),
            UnitEntry("Lothern Sea Guard", "core", 15, 11, 15),
            UnitEntry("Shadow Warriors", "special", 5, 16),
        ],
        [ItemEntry("Star Lance", 45, bearer="Prince Imrik")],
    ),
}

ANCIENT_DEAD_LISTS: dict[str, tuple[list[UnitEntry], list[ItemEntry]]] = {
    "Capitol Garrison": (
        [
            UnitEntry("Tomb King Setep", "character", 1, 175, 25, character=_c("lord", "warlord", "noble")),
            UnitEntry("Skeleton Warriors", "core", 40, 8, 20),
            UnitEntry("Skeleton Archers", "core", 30, 8),
            UnitEntry("Tomb Guard", "special", 20, 11, 20),
            UnitEntry("Ushabti", "rare", 6, 55),
            UnitEntry("Skeleton Regiment", "core", 30, 8, 10),
            UnitEntry("Tomb Guard Cohort", "special", 15, 11, 20),
            UnitEntry("Ushabti Guard", "rare", 3, 55),
        ],
        [],
    ),
    "First Host": (
        [
            UnitEntry("Tomb Prince Ankhor", "character", 1, 100, 20, character=_c("hero", "general")),
            UnitEntry("Skeleton Spearmen", "core", 30, 8, 20),
            UnitEntry("Skeleton Horsemen", "core", 10, 16),
            UnitEntry("Chariots", "core", 6, 50),
            UnitEntry("Tomb Scorpion", "special", 2, 85),
            UnitEntry("Screaming Skull Catapult", "rare", 1, 90),
            UnitEntry("Bone Giant", "rare", 1, 200),
            UnitEntry("Skeleton Archers", "core", 25, 8),
            UnitEntry("Tomb Swarm", "special", 6, 35),
            UnitEntry("Ushabti", "rare", 4, 55),
        ],
        [],
    ),
}


def _user(username: str, *, staff: bool = False):
    User = get_user_model()
    user, created = User.objects.get_or_create(
        username=username, defaults={"email": f"{username}@briternia.local", "is_staff": staff, "is_superuser": staff}
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
    return user


def _spread_out_site(campaign: Campaign) -> int:
    """The free capitol site farthest from the capitols already taken, so demo kingdoms have room."""
    taken = [(p.col, p.row) for p in campaign.provinces.filter(capitol_site=True, controller__isnull=False)]
    free = campaign.provinces.filter(capitol_site=True, controller__isnull=True).order_by("number")

    def distance(p) -> int:
        return min((max(abs(p.col - c), abs(p.row - r)) for c, r in taken), default=0)

    return max(free, key=lambda p: (distance(p), -p.number)).number


@transaction.atomic
def demo_campaign_create() -> Campaign:
    """A demo campaign set up through the real services: invitations, the home selection roll,
    picks in rule order, sample army lists, and turn 1."""
    organizer = _user("organizer", staff=True)
    campaign = campaign_services.campaign_create(
        name="Demo: The Awakening of the Ancients",
        organizer=organizer,
        player_count=len(PLAYERS),
        time_zone="Europe/London",
        map_spec=load_default_map(),
    )
    # A fixed seed: every fresh demo rolls the same setup dice.
    campaign.setup_seed = "briternia-demo"
    campaign.save(update_fields=["setup_seed"])
    for username, kingdom_name, army_type in PLAYERS:
        user = _user(username)
        campaign_services.player_invite(
            campaign=campaign, email=user.email, kingdom_name=kingdom_name, army_type=army_type
        )
    campaign_services.home_selection_start(campaign=campaign)
    campaign.refresh_from_db()
    while (kingdom := campaign_services.setup_next_kingdom(campaign)) is not None:
        if campaign.status == Campaign.Status.HOMES:
            campaign_services.home_pick(campaign=campaign, kingdom=kingdom, number=_spread_out_site(campaign))
        else:
            options = (
                kingdom.capitol.neighbours.filter(controller__isnull=True, capitol_site=False, pyramid=False)
                .exclude(terrain="desert")
                .order_by("number")
            )
            wanted = 1 if campaign.player_count > 5 else 2
            campaign_services.adjacent_pick(
                campaign=campaign, kingdom=kingdom, numbers=[p.number for p in options[:wanted]]
            )
        campaign.refresh_from_db()
    for kingdom in Kingdom.objects.filter(campaign=campaign):
        for army in Army.objects.filter(kingdom=kingdom):
            units, items = ANCIENT_DEAD_LISTS[army.name] if kingdom.is_ancient_dead else SAMPLE_LISTS[kingdom.army_type]
            army_services.army_list_save(army=army, units=units, items=items)
    return campaign_start(campaign=campaign)
