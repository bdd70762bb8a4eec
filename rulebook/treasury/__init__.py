"""Treasury: what the campaign shows of the kingdoms' gold (pure Python)."""
