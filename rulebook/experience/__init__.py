"""Experience Points, Spending Experience and Veteran Status: what each purchase costs and what the
rules refuse (pure Python)."""
