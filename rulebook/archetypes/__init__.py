"""Character Archetypes and Advancement: what a character's record (abilities, injuries) means (pure
Python)."""
