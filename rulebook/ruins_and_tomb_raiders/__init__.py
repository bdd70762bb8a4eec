"""Ruins, Treasure from the Ruins and Tomb Raiders (pure Python): the chapter of issue 31 (the warband,
the Tomb Raid, the treasure and the Scarab Amulets) and issue 32 (Reconnaissance and Sabotage, still to
come on the same mission seam). One module per section of the rulebook:

- `force`: the Tomb Raider force's records and its check (Creating Tomb Raiders; Sample Tomb Raider List);
- `combat`: Combat with Tomb Raiders, its Modifications and Misc. (numbers and the sheet's text);
- `maintaining`: Maintaining / Changing Tomb Raiders (killed models, the change fee, the promotion);
- `recovery`: Recovery after a skirmish (a D6 per model removed as injured);
- `treasure`: Treasure from the Ruins and the Scarab Amulet;
- `tomb_raid`: Using Tomb Raiders, the Tomb Raid on the order sheet and the army's entry into the Ruins;
- `generic_opponents`: Generic Opponents, the warband a raid is played against.

The skirmish's scenario is the Scenario Generator's (rulebook.scenario, Tomb Raider Scenario & Terrain);
turning a desert to plains with a Scarab Amulet is The Ancient Dead's (rulebook.ancient_dead.deserts).
"""
