"""The Scenario Generator's tables (Appendix: Scenario Generator), with the rulebook's words: the
scenario sheet prints them in full for the players at the table."""

from __future__ import annotations

from typing import NamedTuple

PITCHED = "Pitched Battle"
MEETING = "Meeting Engagement"
ASSAULT = "Assault"
ENGAGEMENT_TYPES: tuple[str, ...] = (PITCHED, MEETING, ASSAULT)

# 1. Determine Engagement Type (D6).
ENGAGEMENT_TYPE: dict[int, str] = {1: PITCHED, 2: PITCHED, 3: MEETING, 4: MEETING, 5: ASSAULT, 6: ASSAULT}
ENGAGEMENT_TEXT: dict[str, str] = {
    PITCHED: "The two armies maneuver for a battlefield suitable to their liking then make camp for the night. The "
    "following day, the armies are deployed and battle commences! Pitched Battles are the most straightforward type "
    "of engagement.",
    MEETING: "The two armies close with each other quickly and must deploy from their column of march to fight. A "
    "meeting engagement favors a faster army.",
    ASSAULT: "One army attacks the other in a defended position. An assault gives the Attacker advantages in "
    "deployment.",
}
# Battle for Towns, Cities, and Capitols: "The Engagement Type is always Assault".
ALWAYS_ASSAULT: frozenset[str] = frozenset({"town", "city", "capitol"})

DO_AS_YOU_SEE_FIT = "Do as you see fit."
KILL_THEM_ALL = "Kill them all!"
CAPTURE = "Capture"
CONQUEST = "Conquest"
ADVANCE = "Advance"
VENGEANCE = "Vengeance"
BRING_ME_VICTORY = "Bring me victory!"


def _column(ranges: dict[tuple[int, int], str]) -> dict[int, str]:
    return {n: objective for (low, high), objective in ranges.items() for n in range(low, high + 1)}


# 2. Determine Objective: the Scenario Objective Table (2D6), a column per engagement type.
SCENARIO_OBJECTIVE_TABLE: dict[str, dict[int, str]] = {
    PITCHED: _column(
        {
            (2, 2): DO_AS_YOU_SEE_FIT,
            (3, 3): KILL_THEM_ALL,
            (4, 5): CAPTURE,
            (6, 8): CONQUEST,
            (9, 10): ADVANCE,
            (11, 11): VENGEANCE,
            (12, 12): BRING_ME_VICTORY,
        }
    ),
    MEETING: _column(
        {
            (2, 2): DO_AS_YOU_SEE_FIT,
            (3, 3): KILL_THEM_ALL,
            (4, 6): CAPTURE,
            (7, 8): CONQUEST,
            (9, 10): ADVANCE,
            (11, 11): VENGEANCE,
            (12, 12): BRING_ME_VICTORY,
        }
    ),
    ASSAULT: _column(
        {
            (2, 2): DO_AS_YOU_SEE_FIT,
            (3, 4): KILL_THEM_ALL,
            (5, 5): CAPTURE,
            (6, 6): CONQUEST,
            (7, 9): ADVANCE,
            (10, 11): VENGEANCE,
            (12, 12): BRING_ME_VICTORY,
        }
    ),
}
# Objectives that become "Or Else!" on a further D6 of 4+.
OR_ELSE_OBJECTIVES: frozenset[str] = frozenset({CAPTURE, VENGEANCE})
OR_ELSE_MIN = 4
SECRET_OBJECTIVES: frozenset[str] = frozenset({DO_AS_YOU_SEE_FIT, BRING_ME_VICTORY})
# The objectives a player may take instead of a rolled one, in the table's order: "Do as you see fit."
# lets each player select "one of the objectives", any other of the table (decision 627); an ability
# that chooses the objective chooses among them too.
CHOOSABLE_OBJECTIVES: tuple[str, ...] = (KILL_THEM_ALL, CAPTURE, CONQUEST, ADVANCE, VENGEANCE, BRING_ME_VICTORY)
# Each secret objective's choices: Bring me victory!'s "either Capture or Vengeance".
SECRET_CHOICES: dict[str, tuple[str, ...]] = {
    DO_AS_YOU_SEE_FIT: CHOOSABLE_OBJECTIVES,
    BRING_ME_VICTORY: (CAPTURE, VENGEANCE),
}


class ObjectiveText(NamedTuple):
    victory: str
    special: str


# Description of Objectives.
DESCRIPTION_OF_OBJECTIVES: dict[str, ObjectiveText] = {
    DO_AS_YOU_SEE_FIT: ObjectiveText(
        "Each player selects one of the objectives and notes it in secret. Both players then reveal their objectives.",
        'Per chosen objective. Note that if you choose the "Kill them All" objective, only opposing units may rally '
        "below 25% strength.",
    ),
    KILL_THEM_ALL: ObjectiveText(
        "Double Victory Points for destroyed units and characters. No other Victory Points are scored - none for "
        "table quarters, fleeing units, units below half strength, captured banners, etc. Units that have fled off "
        "the battlefield count as destroyed for this purpose.",
        "Units may rally below 25% strength.",
    ),
    CAPTURE: ObjectiveText(
        'Normal Victory Points. Place an objective in the middle of the table, no larger than 6" square. At the end '
        'of the battle, add up the Unit Strength of all nonfleeing units within 6" of the objective. The side with '
        "the greater Unit Strength earns 500 Victory Points.",
        'On a roll of a 4+ this objective becomes an "Or Else!" objective. Normal Victory Points are not calculated '
        'in an "Or Else!" game. Only the army that achieves their objective wins. If both armies achieve their '
        "objective, it is a Draw.",
    ),
    CONQUEST: ObjectiveText("Normal Victory Points, Quarters.", "None."),
    ADVANCE: ObjectiveText(
        "Normal Victory Points. Nonfleeing units in the enemy Deployment Zone at the end of the battle earn Victory "
        "Points equal to their points value (or half their points value if below half strength). In the case of a "
        'Meeting Engagement, units that are within 12" of the enemy entry point (rather than the enemy Deployment '
        "Zone) earn these bonus Victory Points.",
        "None.",
    ),
    VENGEANCE: ObjectiveText(
        "Normal Victory Points. Enemy General is worth 500 Victory Points rather than +100 Victory Points.",
        "The two Generals Hate each other, even if normally Immune to Psychology. On a roll of a 4+ this objective "
        'becomes an "Or Else!" objective. Normal Victory Points are not calculated in an "Or Else!" game. Only the '
        "army that achieves their objective, killing the enemy's general, wins. If both armies achieve their "
        "objective, it is a Draw.",
    ),
    BRING_ME_VICTORY: ObjectiveText(
        'Each player secretly chooses either "Capture" or "Vengeance" objectives. Both players then reveal their '
        'objectives - the "Or Else!" rules apply in both cases.',
        "Per chosen objective.",
    ),
}

# 3. Determine Terrain.
FOREST, HILL, BUILDING, RIVER, MARSHFIELD = "Forest piece", "Hill", "Building", "River", "Marshfield"
# Number of pieces (D6).
TERRAIN_PIECES_COUNT: dict[int, int] = {1: 3, 2: 3, 3: 4, 4: 4, 5: 5, 6: 5}
# Each piece (D6); a river only once, re-rolled if unavailable.
TERRAIN_PIECE: dict[int, str] = {1: BUILDING, 2: FOREST, 3: FOREST, 4: HILL, 5: HILL, 6: RIVER}


class TerrainModifier(NamedTuple):
    piece: str | None  # the first pieces are of this kind
    dice: str  # how many: "D3", "D2"
    text: str
    extra: str | None = None  # an extra roll of pieces added: (dice, what)
    extra_dice: str = ""


# The province modifiers. A desert is not in the Scenario Generator: it is open ground, read as
# plains (docs/rules-decisions.md).
TERRAIN_MODIFIERS: dict[str, TerrainModifier] = {
    "plains": TerrainModifier(None, "", "Plains: There are no modifiers for Plains."),
    "desert": TerrainModifier(None, "", "Desert: open ground, read as Plains; no modifiers."),
    "forest": TerrainModifier(FOREST, "D3", "Forest Province: The first d3 pieces of terrain will be Forest pieces."),
    "mountains": TerrainModifier(
        HILL,
        "D2",
        "Mountain Province: The first d2 pieces of terrain will be Hills and add d2 impassable rocks or hills.",
        extra="Impassable rocks or hill",
        extra_dice="D2",
    ),
    "marshland": TerrainModifier(
        MARSHFIELD,
        "D3",
        "Marshland Province: The first d3 pieces of terrain will be marshfields. Marshfields are difficult terrain "
        "with no LOS issues.",
    ),
}
SETTLEMENT_MODIFIER = TerrainModifier(
    BUILDING,
    "D2",
    "Town/City: as province type, plus: The first d2 pieces of terrain will be Buildings and add a bridge to any "
    "river.",
)
RUINS_TEXT = "Ruins: as Raid Scenario Standards (see Tomb Raider Scenario & Terrain)."
# What the Raid Scenario Standards set up instead of rolled pieces (Tomb Raider Scenario & Terrain, 1.).
RUINS_PIECES = "a generous amount of terrain; woods & ruins are best (Tomb Raider Scenario & Terrain, 1.)"

# 4. Determine Deployment (D3): the map of the engagement type.
DEPLOYMENT_MAPS: dict[str, dict[int, str]] = {kind: {n: f"{kind} {n}" for n in (1, 2, 3)} for kind in ENGAGEMENT_TYPES}
# "Note: In Assault deployments 1 and 3, the Defender chooses which long table edge he is defending."
# (6. Deploy Armies, Assault). The sheet prints it with the deployment map, only for those maps, so it
# is not part of DEPLOY_ARMIES[ASSAULT] (one place, no duplicate sentence).
ASSAULT_DEFENDER_CHOOSES_EDGE = (1, 3)
ASSAULT_DEFENDER_EDGE = "the Defender chooses which long table edge he is defending"

# 5. Determine Special Circumstances: Major Events Table (a double between the players' D6).
MAJOR_EVENTS_TABLE: dict[int, tuple[str, str]] = {
    1: (
        "Fog",
        "A mist envelopes the battlefield and obscures the enemy. At the start of each game turn, roll an Artillery "
        "die and multiply the result by four to find out how far in inches the troops can see through the cloudy "
        "mists. If you roll a Misfire, then the fog has lifted enough for normal warfare for that game turn. You "
        "cannot shoot, charge, or cast spells at targets you cannot see.",
    ),
    2: (
        "Boggy Ground",
        "Recent weather has made footing treacherous, which hampers the movement of troops. After declaring "
        "charges, roll a D6 for any cavalry or chariot before it moves. On a roll of a 1, the unit has wandered "
        "into a patch of poor ground and counts as being in difficult terrain for the turn. Units that begin their "
        "move in or on a terrain piece (such as a hill, in a wood, etc) do not need to test.",
    ),
    3: (
        "Storm Clouds",
        "Dark thunderheads gather in the skies, and flickers of lightning fork down, accompanied by strong winds. "
        'Flyers and flying units reduce their maximum move by D6". Roll each time the unit moves, after declaring '
        "charges.",
    ),
    4: (
        "Magical Flux",
        "The winds of magic are particularly unstable in this region. At the start of the Magic Phase, the player "
        "whose turn it is must roll all of his Power Dice. Any dice that roll 1's are passed to the opponent and may "
        "be used as Dispel Dice that turn. The other dice may be used as Power Dice as normal.",
    ),
    5: (
        "Unsteady Footing",
        "The ground is soft, and it is almost impossible to site war machines without risking them to shifting or "
        "sinking when fired. Before firing each war machine, roll a D6. On a roll of a 1-3, it has worked loose from "
        "its securing ropes, boards, etc. The crew must spend the phase steadying it again, and the war machine may "
        "not shoot that phase. On a roll of 4+, the war machine may fire normally. Note that this penalty applies "
        "in addition to any other rolls required by spells (such as Rainlord) or other effects.",
    ),
    6: (
        "Foreboding!",
        "A conjunction of the sun and moons shroud the battlefield in shadow, or perhaps the omens of the Shamans "
        "the night before battle were not good. The end result is that both armies are unnerved and likely to run "
        "if things turn against them. All units suffer a -1 to their Leadership (after any other modifications, such "
        "as using the General's Leadership) when taking Panic tests.",
    ),
}
# Minor Events Table (the two D6 total 7), keyed by the lower die.
MINOR_EVENTS_TABLE: dict[int, tuple[str, str]] = {
    1: (
        "Unstable Magic",
        "The fickle winds of magic are more erratic than normal around the battlefield. At the start of each Magic "
        "Phase, each player rolls a die. The player who rolls highest gains an extra die for the phase - a Power die "
        "if it is his turn, a Dispel die if it is the opponent's turn. If the roll is a tie, then neither player "
        "gets a bonus die.",
    ),
    2: (
        "Plague",
        "Some badly cooked chicken from the night before, a virulent fever, or some other illness afflicts the two "
        "camps. Every character must take a Toughness test. Any character that fails is feeling under the weather "
        "and reduces its WS and I by 1 point each. Characters with the Mark of Nurgle or from the Skaven Clan "
        "Pestilens only fail on a roll of a 6, regardless of their Toughness.",
    ),
    3: (
        "Pride",
        "Both armies are feeling stirred up by the rousing speeches of their leaders, and the regiments are all "
        "trying to outdo the other. Any unit not led by a character must always pursue and overrun if possible. Orc "
        "units (not Goblins or other greenskins) must always pursue and overrun, even if led by a character!",
    ),
}
MINOR_EVENT_TOTAL = 7

# 6. Deploy Armies.
DEPLOY_ARMIES: dict[str, str] = {
    PITCHED: "The players roll a D6 each (rerolling ties). The player who wins the roll can choose to deploy either "
    "first or second. The players then alternate placing their units in their deployment zones. War machines and "
    "characters are deployed at the same time. Units with special deployment rules can be deployed after both "
    "armies have been deployed. The player who finishes his deployment first adds +1 to their die roll when "
    "determining who gets first turn.",
    MEETING: "The players each roll a D6 (rerolling ties). The player who scores highest chooses an entry point to "
    "denote where his army is arriving. He then makes a move onto the table with a unit as if it were a normal "
    "Movement Phase. The unit moves on from within the entry point as if it had pursued an enemy off the table in a "
    "previous turn. Therefore, no charges may be declared. All other special movement rules apply (such as random "
    "movement distances, activating Night Goblin Fanatics, etc). Note that Orc and Goblin units not on the table do "
    "not test for Animosity, and Unruly Beastmen units do not have to test before moving on. Creatures suffering "
    "from Stupidity must test and, if they become Stupid, will only move at half their normal speed. Once the first "
    "player has moved a unit, the second player repeats this procedure from the other entry point, and so on until "
    "all units have moved on the table. No units may use special deployment rules (except for hidden models, such "
    "as Fanatics and Assassins). The player who finishes his deployment first adds +1 to his die roll for "
    "determining who gets the 1st turn.",
    ASSAULT: "The Defender deploys first and places all their units in their Deployment Zone. The Attacker then "
    "deploys his entire army in his Deployment Zone. Scouts and other units with special deployment rules may use "
    "them as normal after both armies have deployed.",
}

# 7. First Turn and Game Length: Game Length (D6) per engagement type; 0 means Random.
RANDOM = 0
GAME_LENGTH: dict[str, dict[int, int]] = {
    PITCHED: {1: 5, 2: 6, 3: 6, 4: 6, 5: 6, 6: RANDOM},
    MEETING: {1: 5, 2: 6, 3: 6, 4: 6, 5: RANDOM, 6: RANDOM},
    ASSAULT: {1: 5, 2: 6, 3: 6, 4: RANDOM, 5: RANDOM, 6: RANDOM},
}
RANDOM_GAME_LENGTH = (
    "Random Game Length. Roll a D6 at the end of the fifth turn. On a roll of a 1, the battle ends. With any other "
    "result, roll again at the end of the sixth turn. On a roll of 1-3, the battle ends. With any other result, roll "
    "again at the end of each subsequent turn. The battle ends on any roll except a 6."
)
FIRST_TURN_TEXT = (
    "The player who scores the highest may choose to have the first turn or to allow his opponent to have first turn."
)

# Tomb Raider Scenario & Terrain: "Use the Scenario Generator in the Appendix section but with the
# following rules" (the Tomb Raiders' skirmish, decisions 231 and 352). Printed on the sheet.
TOMB_RAIDER_SECTION = "Tomb Raider Scenario & Terrain"
TOMB_RAIDER_RULES: tuple[str, ...] = (
    "A Tomb Raider match: the Scenario Generator with the rules of Tomb Raider Scenario & Terrain.",
    "1. Play on a 4x4 table, with a generous amount of terrain. Woods & ruins are best for Ruins games and more "
    "dwellings is appropriate for Recon & Sabotage games. The deployment zones are drawn to the 4x4 table.",
    '2. Any Scenario Objective that rolls for the "Or Else!" special rule automatically becomes an "Or Else!" '
    "objective scenario.",
    "3. The Tomb Raider Captain counts as the Army General for scenario objective purposes.",
    "4. Games last until one side withdraws or until the Game Length ends.",
    "The Tomb Raiders fight, not an army: no army's list loses anything; the Tomb Raiders' own losses are yours "
    "to keep (Maintaining / Changing Tomb Raiders).",
)
TOMB_RAIDER_OR_ELSE = (
    'Tomb Raider Scenario & Terrain: no roll; an objective that rolls for "Or Else!" automatically becomes an '
    '"Or Else!" objective.'
)
TOMB_RAIDER_OR_ELSE_CHOSEN = (
    'Tomb Raider Scenario & Terrain: a player who chooses Capture or Vengeance plays it as an "Or Else!" objective.'
)
TOMB_RAIDER_TABLE_NOTE = (
    "Tomb Raider Scenario & Terrain: a 4x4 table; the deployment zones are the map's, fitted to the 4 foot width."
)
# On a square table no edge is the long one: the Defender of Assault 1 or 3 chooses any edge.
TOMB_RAIDER_DEFENDER_EDGE = (
    "the Defender chooses which table edge he is defending (on the 4x4 table every edge is 4 feet)"
)
TOMB_RAIDER_GAME_LENGTH = (
    "Tomb Raider Scenario & Terrain: the game lasts until one side withdraws or until the Game Length ends."
)

# Tomb Raid (Using Tomb Raiders): the mission a Tomb Raider match plays on the ruins (decision 424).
TOMB_RAID_SECTION = "Tomb Raid"
TOMB_RAID_SKIRMISH = (
    "A Tomb Raid (Using Tomb Raiders): the kingdom's Tomb Raiders, its warband of 150 points at most, raid the "
    "ruins. Its army does not fight: it stands at the ruins and waits on the raid."
)
TOMB_RAID_WITH_BATTLE = (
    "A Tomb Raid goes with this battle: the kingdom's Tomb Raiders, its warband of 150 points at most, raid the "
    "ruins in a Tomb Raider match of their own. Roll its scenario as a Tomb Raider match with the Scenario "
    "Generator (the site's stand-alone generator offers it), under the rules of Tomb Raider Scenario & Terrain: "
    'a 4x4 table with woods & ruins; an objective that rolls for "Or Else!" is one; the Tomb Raider Captain '
    "counts as the Army General; the game lasts until one side withdraws or the Game Length ends."
)
TOMB_RAID_PLAYED_BY = "Any non-allied player or a guest plays the warband (Tomb Raid; Generic Opponents)."
TOMB_RAID_TREASURE = "Success: the Tomb is raided. Roll on Treasure from the Ruins for the kingdom's cut"
TOMB_RAID_AMULET = (
    "; the kingdom acquires a Scarab Amulet if it is the first time these ruins were successfully raided."
)
TOMB_RAID_NO_AMULET = "; the ruins of a sacked town hold no Scarab Amulet (The Ancient Dead: Deserts)."
TOMB_RAID_ARMY_ENTERS = "The army is now safely able to move into the province."
TOMB_RAID_ARMY_OUT = "A draw or a failure: the army may not move into the province this turn (Ruins; decision 407)."
TOMB_RAID_NOTHING_FOUND = (
    "A draw or a failure: nothing is found (decision 407). What the army's entry into the province needs besides "
    "is in the battle's notes (decisions 409, 422)."
)
TOMB_RAID_RECOVERY = (
    "Keep track of the effects on your Tomb Raiders: each raider removed as injured rolls on the Recovery chart."
)

# Supply Depot: what the players need at the table (decision 398: no cart in the Tomb Raiders' skirmish).
SUPPLY_DEPOT_SECTION = "Supply Depots"
SUPPLY_DEPOT_VICTORY_POINTS = 150  # "captured Supply Depots count for 150 points"
SUPPLY_DEPOT_RULES: tuple[str, ...] = (
    "Each army brings its Supply Depot, if it has one, and the carts it has captured (they must be represented "
    "in each battle): a wagon, cart or other suitable model(s) on a standard chariot base, crewed by three Core "
    "troopers on foot. Cart: T5, W3. Steed: S3, T1, W2. For missile fire treat it as a war machine, except the "
    "Steed is hit on a 1; if the steed is lost, the crew pull the cart at half their normal Move rate.",
    "If charged, the crewmen line up in front of the Supply Depot and try to hold; the cart and steed offer no "
    "attacks or unit strength. The Supply Depot is captured if the crew is killed / broken in combat (or "
    "otherwise destroyed) and the unattended cart is touched by any enemy unit. It is not lost if friendly "
    "forces recapture the cart, just as they would capture a standard, before the game ends.",
    f"In games where Victory Points determine the outcome, captured Supply Depots count for "
    f"{SUPPLY_DEPOT_VICTORY_POINTS} Victory Points. Report a captured Supply Depot (whose, and which army took "
    "it) and a cart recaptured on the turn summary sheet: an army whose own depot is lost forages until it buys "
    "a replacement; a captured cart joins the captor's roster, and an army can lose such a cart with no penalty.",
)
