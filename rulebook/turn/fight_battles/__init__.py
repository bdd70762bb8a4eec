"""6. Fight Battles: scheduling. Who fights whom where, with the garrisons, fortification,
Guerrilla Tactics and supports each battle gets, ready to be fought on the table. Pure Python.

Rulebook: 6. Fight Battles (`scheduling`; Support and Support Arrival, `support`; Guerrilla Tactics,
`guerrilla_tactics`; Battle for Towns, Cities, and Capitols, `towns_cities_capitols`), Fortify and
Defended Obstacles (`defended_obstacles`), The Ancient Dead: Setup, Armies (`ancient_dead`),
Deserts. Rule cases B2, B3, B4, R4, R5, R10 (B1 and B5 are settled by the orders phase, which makes
the contacts read here).
"""

PHASE = "battles"  # the events' phase
