"""Every event code the turn writes, one member each (pure Python).

An event's code is stored in `TurnEvent.code` and read back by the reports, the bulletin, the
transfer export and the aftermath, so it is written once here and never retyped. EventCode is a
StrEnum: a member is equal to the string the database holds, so stored rows keep their values
and a code is never renamed once released (add a member instead).

Grouped by the phase of the Campaign Turn Sequence that writes it (the event's `phase`).
"""

from __future__ import annotations

from enum import StrEnum


class EventCode(StrEnum):
    # 1. Tally Gold (rulebook/turn/tally_gold.py)
    TAXES = "taxes"
    IMPERIAL_TAXATION = "imperial-taxation"  # the Empire's levy on the same sources

    # Allies (rulebook/allies/declarations.py): declared on the order sheets, at the beginning of
    # the turn after 1. Tally Gold; broken by announcement (the sheet), invasion or raze (4-5. Orders).
    ALLIANCE_FORMED = "alliance-formed"  # one per ally, 1,000 gold each (data: alliance, ally, trust)
    ALLIANCE_NOT_RECOGNISED = "alliance-not-recognised"  # only one of the two declared it: nothing paid
    ALLIANCE_REFUSED = "alliance-refused"  # the chart, another alliance or the treasury refuse it now
    ALLIANCE_BROKEN = "alliance-broken"  # one per ally; the betrayed receives 2,000 (data: how, broken_by)
    ALLIANCE_CANCELLED = "alliance-cancelled"  # both announced its end: no gold back
    ALLY_PASSAGE = "ally-passage"  # an army in an ally's province: control does not change hands
    ALLY_SUPPORT = "ally-support"  # the supported ally's side of an allied detachment (6. Fight Battles)

    # Joint kingdoms (orders/services/independence.py): a co-player declares independence with what
    # its parent kingdom gave; recorded in the open turn's log when the organizer enters it.
    KINGDOM_INDEPENDENT = "kingdom-independent"  # the new kingdom's, public (data: from_kingdom, provinces)
    INDEPENDENCE_GIVEN = "independence-given"  # the parent's (data: to, provinces)

    # Transfer of Gold (rulebook/allies/declarations.py; arrival: orders/services/transfers.py)
    TRANSFER_SENT = "transfer-sent"  # the gold and its 10% fee leave (data: to, gold, fee, arrives)
    TRANSFER_REFUSED = "transfer-refused"  # the treasury cannot pay it now, or to a Rogue Kingdom: nothing leaves
    TRANSFER_ARRIVED = "transfer-arrived"  # at the beginning of the turn after next (data: from_kingdom, sent_turn)
    # Items (rulebook/player_issues/transfer_of_gold.py; arrival: orders/services/transfers.py)
    ITEM_SENT = "item-sent"  # the item leaves its bearer, its fee the treasury (data: to, item_id, name, points...)
    ITEM_TRANSFER_REFUSED = "item-transfer-refused"  # the item or the fee is not there now: nothing leaves
    ITEM_ARRIVED = "item-arrived"  # in the receiver's armory (data: from_kingdom, sent_turn, sequence)

    # 2. Maintain Armies: the Foraging Table (rulebook/turn/maintain_armies.py)
    FORAGING_DISASTER = "foraging-disaster"  # 2: casualties or disbanding, as the order chose
    FORAGING_RECOVERY = "foraging-recovery"  # 2, casualties: their Rank and File Recovery roll
    FORAGING_LOSSES = "foraging-losses"  # 3-4: D6 x 50 points lost, no Forced March
    FORAGING_NO_FORCED_MARCH = "foraging-no-forced-march"  # 5-9
    FORAGING_PLENTY = "foraging-plenty"  # 10-11
    FORAGING_DEPOT = "foraging-depot"  # 12: a new supply depot, paid
    FORAGING_DEPOT_UNPAID = "foraging-depot-unpaid"  # 12 not paid for: it rolls again at -1
    # An army disbanded in 2. Maintain Armies, by foraging (a Disaster answered with disbanding, or
    # losses that leave it at 500 points or less). Not the same code as DISBANDED (7. Aftermath,
    # after a battle): both mean the army is gone and the bulletin says the same of both, but
    # rows of both exist, so both values stay.
    ARMY_DISBANDED = "army-disbanded"

    # 3. Create / Upgrade Armies (rulebook/turn/create_upgrade_armies.py): what the sheet bought, or
    # why it was not bought
    ARMY_CREATED = "army-created"
    ARMY_UPGRADED = "army-upgraded"
    SUPPLY_DEPOT = "supply-depot"
    ELITE_DEFENSE_FORCE = "elite-defense-force"
    NOT_AFFORDED = "not-afforded"  # foraging spent the gold since the sheet was checked
    SETTLEMENT_UNAVAILABLE = "settlement-unavailable"  # the province is no longer yours, or occupied
    ARMY_UNAVAILABLE = "army-unavailable"  # the army is no longer active
    SUPPLY_DEPOT_HELD = "supply-depot-held"  # a 12 on the Foraging Table already gave it one
    # Spending Experience (rulebook/turn/spending.py): each purchase spends the army's experience
    PURCHASE_ORDERED = "purchase-ordered"  # recruits, equipment, an item, a depot: a delivery (data: delivery)
    VETERAN_STATUS = "veteran-status"  # a unit one Veteran level up (data: unit, level)
    ARCHETYPE_ROLL = "archetype-roll"  # a roll on the Archetype Advancement Table (data: faces, ability)
    PROMOTION = "promotion"  # the Warlord promoted to Lord level (data: unit, points)
    POTENTIAL = "potential"  # Magician, Potential: one more magic level (data: unit, level)
    PURCHASE_REFUSED = "purchase-refused"  # the rules or the army's experience refuse it now (data: reason)
    # The beginning of a turn (orders/services/deliveries.py): what was bought two turns before
    DELIVERY_ARRIVED = "delivery-arrived"
    DELIVERY_LOST = "delivery-lost"  # its army was disbanded meanwhile

    # 4-5. Orders (rulebook/turn/executing_orders/)
    MISSED_ORDERS = "missed-orders"  # a kingdom sent no orders: every army holds
    ORDER_ILLEGAL = "order-illegal"  # the sheet check refuses the order now: it holds (data: problem)
    RAZED = "razed"
    RAZE_TOO_LONG = "raze-too-long"  # Raze and Move: razing took too long, it stays
    FORCED_MARCH = "forced-march"  # completed
    FORCED_MARCH_FORBIDDEN = "forced-march-forbidden"  # by the Foraging Table: one province only
    FORCED_MARCH_BLOCKED = "forced-march-blocked"  # an enemy in the province passed through
    FORCED_MARCH_MUTINY = "forced-march-mutiny"
    FORCED_MARCH_FATIGUE = "forced-march-fatigue"
    CO_OCCUPYING = "co-occupying"  # fatigued into a friendly army's province
    CO_OCCUPYING_STAYED = "co-occupying-stayed"  # ... and did not move out the next turn
    CO_OCCUPYING_ENDED = "co-occupying-ended"  # ... but no army of its kingdom is left there: it counts
    PASSED_IN_THE_NIGHT = "passed-in-the-night"  # Don't Pass in the Night: the lower roll stays
    OCCUPIED_PROVINCE = "occupied-province"  # Occupied Province: the lower rolls hold
    MULTIPLE_MOVES = "multiple-moves"  # Multiple Moves into Battle: the lower rolls hold
    MOVED = "moved"  # data: from, path (the reports and the aftermath read them)
    PROVINCE_CLAIMED = "province-claimed"  # without a fight (data: from_kingdom)
    # The province's former controller's side: after a claim (4-5. Orders) or a conquest
    # (7. Aftermath); the same code in both phases.
    PROVINCE_LOST = "province-lost"
    TOO_SMALL_TO_CLAIM = "too-small-to-claim"
    FORTIFIED = "fortified"
    FORTIFY_AFTER_BATTLE = "fortify-after-battle"
    FORTIFY_RAZED = "fortify-razed"
    FORTIFY_CO_OCCUPYING = "fortify-co-occupying"  # it shares a friendly army's province: it holds
    FORTIFICATION_LOST = "fortification-lost"  # the Fortified army moved away or is gone (Fortify)
    RECOVERED = "recovered"
    RECOVER_FAILED = "recover-failed"
    RECOVER_IN_BATTLE = "recover-in-battle"
    RECOVER_CO_OCCUPYING = "recover-co-occupying"  # it shares a friendly army's province: it does not roll

    # The Ancient Dead (rulebook/ancient_dead/turn_steps.py)
    ANCIENT_DEAD_RISEN = "ancient-dead-risen"  # a new army rises from the desert (Armies)
    INCANTATION = "incantation"  # a province turned to plains by the Liche Priests (Movement)
    DESERT_SPREAD = "desert-spread"  # a province turned to desert (Movement)
    DESERT_RUINS = "desert-ruins"  # a town or city turned desert: sacked, ruins (Deserts)
    ANCIENT_DEAD_SIZE = "ancient-dead-size"  # an Ancient Dead army's size in a battle (Armies)
    RETURN_TO_THE_TOMB = "return-to-the-tomb"  # their capitol taken: they advance no more
    # Deserts, a Scarab Amulet and a mage / rune smith (rulebook/ancient_dead/deserts_turned.py)
    DESERT_REVERSAL_ROLL = "desert-reversal-roll"  # each D6, the first and each reroll (data: face, bonus)
    DESERT_REVERSED = "desert-reversed"  # the desert is plains again, its garrison gone (public)
    DESERT_NOT_REVERSED = "desert-not-reversed"  # every roll short of 6: it stays desert
    DESERT_REVERSAL_IN_BATTLE = "desert-reversal-in-battle"  # a battle there this turn: no attempt

    # Rogue Kingdom (kingdoms/services/rogue.py, rulebook/turn/executing_orders/contacts.py)
    ROGUE_KINGDOM = "rogue-kingdom"  # the player is out: the kingdom becomes a Rogue Kingdom
    ROGUE_KINGDOM_ROLL = "rogue-kingdom-roll"  # a foreign army entered (data: roll, force, points)
    # Ruins and the Tomb Raid (rulebook/turn/executing_orders/ruins.py; decisions 408, 420-424)
    RUINS_NO_RAID = "ruins-no-raid"  # no Tomb Raid sent there: the army waits outside (data: ruin)
    RUINS_WAITING = "ruins-waiting"  # another army of the kingdom stands in the ruin on the raid (data: ruin)
    # Land Sales and Civil Unrest (rulebook/player_issues/land_sales.py)
    LAND_DEAL = "land-deal"  # one per side (data: with, given, received, gold: the price it pays)
    LAND_PRICE_PAID = "land-price-paid"  # the price and its 10% fee leave (data: to, gold, fee, arrives)
    LAND_DEAL_NOT_AGREED = "land-deal-not-agreed"  # only one side declared it: nothing changes hands
    LAND_DEAL_REFUSED = "land-deal-refused"  # the rules refuse it now (data: reason)
    CIVIL_UNREST = "civil-unrest"  # a newly acquired province without its owner's army (data: roll)
    PACIFIED = "pacified"  # the new owner's army stands in it: no Civil Unrest
    # Loss of the Capitol (rulebook/loss_of_the_capitol.py)
    CAPITOL_MOVED = "capitol-moved"  # the Warlord moved the capitol (1,000 gold)
    CORONATION = "coronation"  # the Warlord crowned in a city after the capitol was lost
    CAPITOL_COUNTDOWN = "capitol-countdown"  # data: turns_left
    PLAYER_OUT = "player-out"  # no coronation in three turns: the kingdom becomes a Rogue Kingdom
    NEW_PLAYER = "new-player"  # New Player Option: a Rogue Kingdom given to a new or returning player

    # Using Tomb Raiders (rulebook/ruins_and_tomb_raiders/missions_sent.py), before 5. Executing Orders
    TOMB_RAID_SENT = "tomb-raid-sent"  # 100 gold (and the change fee) paid (data: province, gold, fee, armies)
    TOMB_RAID_NOT_SENT = "tomb-raid-not-sent"  # refused now, nothing paid (data: province, problems)

    # 6. Fight Battles: the scheduling (rulebook/turn/fight_battles/)
    BATTLE_SCHEDULED = "battle-scheduled"  # one per side (data: opponent_kingdom, opponent_army)
    NO_BATTLE = "no-battle"
    GUERRILLA = "guerrilla"  # Guerrilla Tactics
    SUPPORT = "support"  # a detachment sent
    SUPPORT_REFUSED = "support-refused"  # data: reason
    SUPPORT_NO_BATTLE = "support-no-battle"  # no battle in the province it supports
    DEFENDED_OBSTACLES = "defended-obstacles"  # Fortify: the defender's defenses
    # The town's kingdom's: its garrison fights beside its ally's army defending it (data: ally, battle, points)
    GARRISON_BESIDE_ALLY = "garrison-beside-ally"

    # 7. Aftermath and 8. End of Turn (rulebook/turn/aftermath/)
    BATTLE_RESULT = "battle-result"
    VICTORY_GOLD = "victory-gold"
    DETACHMENT_RETURNED = "detachment-returned"
    NO_VICTOR = "no-victor"
    ELITE_DEFENSE_FORCE_PERISHED = "elite-defense-force-perished"
    PROVINCE_CONQUERED = "province-conquered"  # data: from_kingdom
    # Allies: a victor keeps its ally's province for its ally, one event for each (data: ally)
    PROVINCE_KEPT_FOR_ALLY = "province-kept-for-ally"
    CAPITOL_LOST = "capitol-lost"
    SAVAGES = "savages"  # Orcs & Goblins "Savages"
    SACKED = "sacked"
    LOOTED = "looted"
    WIPED_OUT = "wiped-out"  # nowhere to retreat
    RETREATED = "retreated"  # data: from
    # Rogue Kingdom, scouting forces: the Tomb Raiders did not win; the army never entered (data: back_to)
    SKIRMISH_LOST = "skirmish-lost"
    # Tomb Raid (rulebook/turn/aftermath/tomb_raids.py): the raid's result for the raiding kingdom
    TOMB_RAID_SUCCESS = "tomb-raid-success"  # the treasure (data: items, gold, faces, amulet, ruin_raids)
    TOMB_RAID_FAILED = "tomb-raid-failed"  # a draw, a failure or no result: nothing found (data: result)
    SCARAB_AMULET_FOUND = "scarab-amulet-found"  # the ruin's first successful raid (data: bearer)
    RUINS_ITEM_LOST = "ruins-item-lost"  # an armory item the kingdom holds already (Armory; decision 431)
    # Tomb Raiders after a skirmish (Maintaining / Changing Tomb Raiders; Recovery): one event each
    TOMB_RAIDERS_KILLED = "tomb-raiders-killed"  # data: killed (entry name -> models)
    TOMB_RAIDERS_RECOVERY = "tomb-raiders-recovery"  # data: rolls [{entry, face, outcome}]
    TOMB_RAIDERS_PROMOTED = "tomb-raiders-promoted"  # the Lieutenant is the new Captain (data: captain)
    TOMB_RAIDERS_NO_CAPTAIN = "tomb-raiders-no-captain"  # the Captain died, no Lieutenant to promote
    TOMB_RAIDERS_BACK_IN_ACTION = "tomb-raiders-back-in-action"  # the turn out of action is over
    # Reconnaissance and Sabotage (rulebook/ruins_and_tomb_raiders/rival_missions.py and the phases that
    # use what they earn). Every one is a kingdom's own: the spy's, or the target's where it says so.
    RIVAL_MISSION_SENT = "rival-mission-sent"  # the spy's: 100 gold paid (data: mission, desired, target, ...)
    RIVAL_MISSION_NOT_SENT = "rival-mission-not-sent"  # the spy's: refused now, nothing paid (data: problems)
    RAIDERS_COMING = "raiders-coming"  # the target's: raiders come, who defends (data: spy, mission, defender)
    RIVAL_MISSION_RESULT = "rival-mission-result"  # the spy's: the charts read (data: result, earned, how, faces)
    RIVAL_MISSION_REPELLED = "rival-mission-repelled"  # the target's: the skirmish's outcome, never what was learned
    INTELLIGENCE = "intelligence"  # the spy's alone: what a Reconnaissance learned (data: mission, info)
    THEFT = "theft"  # Sabotage, Theft: one event per treasury (data: face, gold, saboteur, target)
    RAIDER_CAPTURED = "raider-captured"  # both kingdoms': one model captured (data: captive, entry, captor, owner)
    CAPTIVE_FATE = "captive-fate"  # both kingdoms': released or executed (data: captive, fate)
    MISDIRECTION = "misdirection"  # both kingdoms': the army's orders revert to Hold (data: army, order)
    ARMY_ORDERS_RESPONSE = "army-orders-response"  # the spy's: its army holds in response (data: army, spied)
    SUPPORT_CANCELLED = "support-cancelled"  # Destroy Communication: both kingdoms' (data: army, battle)
    SABOTAGE_APPLIED = "sabotage-applied"  # Poison Well, Assassinate, Sappers, Mislabeled goods on their moment
    SABOTAGE_EXPIRED = "sabotage-expired"  # the saboteur's: Destroy Communication unused within 2 turns
    # Supply Depot (rulebook/turn/aftermath/supply_depot.py): one event for each kingdom
    DEPOT_LOST = "depot-lost"  # the army's own depot captured: it forages until it has one again
    SPARE_CART_LOST = "spare-cart-lost"  # a captured cart of its roster taken instead: no penalty
    DEPOT_CAPTURED = "depot-captured"  # the captor's: the cart joins its roster as a spare
    CART_RECAPTURED = "cart-recaptured"  # friendly forces took the cart back before the game ended
    NEGOTIATION_PAID = "negotiation-paid"
    NEGOTIATION_RECEIVED = "negotiation-received"
    EXPERIENCE = "experience"
    NO_EXPERIENCE = "no-experience"  # no turn summary sheet
    STORY = "story"  # Stories Are Nice
    # Stories Are Nice: "possibly one or two additional bonus Experience Points for those who put in
    # that extra effort": the organizer's award, after the aftermath, on the turn it is given.
    STORY_BONUS = "story-bonus"
    # Painting Counts: the organizer marks an army painted (or takes the mark back); data: painted.
    ARMY_PAINTED = "army-painted"
    PRESS_THE_ADVANTAGE = "press-the-advantage"
    CASUALTY_RECOVERY = "casualty-recovery"  # Rank and File Recovery
    COMMAND_RECOVERY = "command-recovery"
    ONE_USE_RECOVERY = "one-use-recovery"
    VETERAN_ELIGIBLE = "veteran-eligible"
    VETERAN_LOST = "veteran-lost"
    INJURY = "injury"  # Character Injury Chart
    INJURY_REROLL = "injury-reroll"  # Resilient, 25 experience, Backstabbers: both rolls
    INJURY_REROLL_REFUSED = "injury-reroll-refused"  # the army could not pay for the reroll
    OLD_WOUND_OUT = "old-wound-out"  # Old Battle Wound: rolled a 1 before the battle
    DEEP_WOUND_MISSED = "deep-wound-missed"
    CHARACTER_DEAD = "character-dead"
    CHARACTER_RETIRED = "character-retired"
    HEALING_POTION_USED = "healing-potion-used"  # Treasure from the Ruins: all injuries removed
    WARLORD_SUCCESSION = "warlord-succession"
    NO_WARLORD = "no-warlord"
    # An army of 500 points or less after its battles is disbanded (Army Restrictions, in
    # 7. Aftermath). See ARMY_DISBANDED for the same end in 2. Maintain Armies.
    DISBANDED = "disbanded"

    # The organizer's safeguards (transfer/snapshots.py): a turn restored to its state before a
    # phase (data: phase, snapshot_taken_at, restored_at, restored_by), in the campaign's history.
    TURN_RESTORED = "turn-restored"


# What the bulletin may tell every player (orders/services/reports.py): who holds what, who
# missed the orders, armies lost and new Warlords; the bulletin words them from the code, the
# kingdom and the province only, never from the event's text (which names armies and gold).
PUBLIC_EVENT_CODES: frozenset[EventCode] = frozenset(
    {
        EventCode.PROVINCE_CLAIMED,
        EventCode.PROVINCE_CONQUERED,
        EventCode.SACKED,
        EventCode.LOOTED,
        EventCode.CAPITOL_LOST,
        EventCode.MISSED_ORDERS,
        EventCode.WIPED_OUT,
        EventCode.DISBANDED,
        EventCode.ARMY_DISBANDED,
        EventCode.WARLORD_SUCCESSION,
        EventCode.ANCIENT_DEAD_RISEN,
        EventCode.INCANTATION,
        EventCode.DESERT_SPREAD,
        EventCode.DESERT_RUINS,
        EventCode.RETURN_TO_THE_TOMB,
        EventCode.DESERT_REVERSED,
        # Allies: alliances are public once made, and so is their end (decision 130).
        EventCode.ALLIANCE_FORMED,
        EventCode.ALLIANCE_BROKEN,
        EventCode.ALLIANCE_CANCELLED,
        # Joint kingdoms: a new kingdom on the map is news for everyone (decision 228).
        EventCode.KINGDOM_INDEPENDENT,
        # Rogue Kingdom: a kingdom without a leader is plain to see on the map.
        EventCode.ROGUE_KINGDOM,
        EventCode.NEW_PLAYER,
        # Land Sales: land changing hands is as public as a claim; a province lost to Civil Unrest too.
        EventCode.LAND_DEAL,
        EventCode.CIVIL_UNREST,
        EventCode.CAPITOL_MOVED,
        EventCode.CORONATION,
        EventCode.PLAYER_OUT,
    }
)
