"""7. Aftermath and 8. End of Turn: the battles' results, Looting, Casualty Recovery, the Character
Injury Chart, Withdrawal, succession, and the turn's end (pure Python)."""
