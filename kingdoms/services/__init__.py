"""Services of the campaign world: the only code that writes kingdoms' models."""
