"""Services of turns and order sheets."""
