"""Army-Specific Rules (pure Python). The Forced March table and the per-army tables live with the
phases that read them (rulebook.turn.tables)."""
