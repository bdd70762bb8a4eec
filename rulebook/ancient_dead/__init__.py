"""The Ancient Dead: their Army Table, their movement, their risings and incantations, and the Deserts
(pure Python)."""
