"""Turns and order sheets arrive with the order-sheet issue."""
