"""7. Aftermath and 8. End of Turn: the battles' results, Looting, Casualty Recovery, the Character
Injury Chart, Withdrawal, succession, and the turn's end (pure Python).

Small functions over one state (`state`), a module per rulebook section, each importing only the
state and the modules below it (an import-linter contract): `run` (resolve_aftermath: the order of
the steps), `retreats` (7. Aftermath), `casualty_recovery`, `character_injuries`, `end_of_turn`,
`looting`, `negotiations`, `withdrawal`, `experience`, `succession`; the battles as the turn
summary sheets reported them, `sheets`; the tables `results` and `injury_chart`."""
