"""Setup: the campaign map, home selection and province picks (pure Python)."""
