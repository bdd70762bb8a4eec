"""Battles arrive with the battles issue."""
