"""Warlord: who leads the kingdom, and who succeeds him (pure Python)."""
