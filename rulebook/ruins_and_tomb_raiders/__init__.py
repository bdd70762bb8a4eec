"""Ruins, Treasure from the Ruins and Tomb Raiders (pure Python): the chapter of issue 31 (the warband,
the Tomb Raid, the treasure and the Scarab Amulets) and issue 32 (Reconnaissance and Sabotage). Empty
until they land; the Tomb Raiders' skirmish is rolled by the Scenario Generator (rulebook.scenario)."""
