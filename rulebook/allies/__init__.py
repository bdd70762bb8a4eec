"""Allies: the Alliance Chart, trust levels and support, alliances declared, announced over and broken
(pure Python)."""
