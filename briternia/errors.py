"""The one domain error: raised by services, shown to the user as it is."""


class DomainError(Exception):
    """A request the rules or the campaign's state refuse. Carries every message for the user.

    Services raise it before writing anything (or inside the transaction that it rolls back),
    so a refused request changes nothing.
    """

    def __init__(self, messages: str | list[str]):
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__("; ".join(self.messages))
