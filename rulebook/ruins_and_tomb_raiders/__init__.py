"""Ruins, Treasure from the Ruins and Tomb Raiders (pure Python): the chapter of issue 31 (the warband,
the Tomb Raid, the treasure and the Scarab Amulets) and issue 32 (Reconnaissance and Sabotage, on the same
mission seam). One module per section of the rulebook:

- `force`: the Tomb Raider force's records and its check (Creating Tomb Raiders; Sample Tomb Raider List);
- `combat`: Combat with Tomb Raiders, its Modifications and Misc. (numbers and the sheet's text);
- `maintaining`: Maintaining / Changing Tomb Raiders (killed models, the change fee, the promotion);
- `recovery`: Recovery after a skirmish (a D6 per model removed as injured);
- `treasure`: Treasure from the Ruins and the Scarab Amulet;
- `tomb_raid`: Using Tomb Raiders, the Tomb Raid on the order sheet and the army's entry into the Ruins;
- `generic_opponents`: Generic Opponents, the warband a raid is played against;
- `missions_sent`: Using Tomb Raiders at the resolution: each mission checked again and paid;
- `reconnaissance` and `sabotage`: their lists, as the rulebook numbers them (and the Theft's gold);
- `rival_missions`: what both share: the draw and failure charts, the random model captured, and the
  records the World keeps between turns (an effect earned, a captive);
- `rival_mission_orders`: a Reconnaissance or Sabotage on the order sheet, and when each takes effect;
- `intelligence`: what a Reconnaissance learns, read from the target's state;
- `mission_effects`: the pending effects of a mission, used or expired;
- `captives`: "A kingdom may do anything it wishes with a captured Tomb Raider".

The skirmish's scenario is the Scenario Generator's (rulebook.scenario, Tomb Raider Scenario & Terrain);
turning a desert to plains with a Scarab Amulet is The Ancient Dead's (rulebook.ancient_dead.deserts).
"""
