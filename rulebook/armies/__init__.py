"""Armies, the Army Table, Army Restrictions and the Armory: army lists and the losses taken from them
(pure Python)."""
