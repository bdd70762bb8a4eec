"""Player Issues: the Rogue Kingdom, joint kingdoms, Land Sales and the Transfer of Gold (pure Python)."""
