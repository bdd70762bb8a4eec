"""Services of the battles app: scenarios, turn summary sheets, the aftermath."""
