"""4. Write Orders: the order sheet, what each entry may do, and the targets it offers (pure Python)."""
