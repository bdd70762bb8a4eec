"""A player's orders address (kingdoms/services/mail_addresses.py, issue 36): the plus-address read
back whatever the case and the display name, any other address no orders address, and the
organizer's view with every secret hidden."""

from __future__ import annotations

import pytest

from kingdoms.services.mail_addresses import is_orders_address, orders_address_masked, orders_address_secret


@pytest.fixture(autouse=True)
def orders_address(settings):
    settings.ORDERS_EMAIL_ADDRESS = "Briternia orders <Orders@Campaign.Example.org>"


@pytest.mark.parametrize(
    ("address", "secret"),
    [
        ("orders+abc123@campaign.example.org", "abc123"),
        ("Hans <ORDERS+ABC123@Campaign.Example.ORG>", "abc123"),  # a server that folded the case
        ("orders@campaign.example.org", None),
        ("orders+@campaign.example.org", None),
        ("orders+abc-123@campaign.example.org", None),  # not a secret's letters
        ("orders+abc123@elsewhere.example.org", None),
        ("sales+abc123@campaign.example.org", None),
        ("", None),
    ],
)
def test_the_secret_is_read_from_the_orders_plus_address_only(address, secret):
    assert orders_address_secret(address) == secret


def test_the_orders_address_and_its_plus_addresses_are_the_orders_address():
    assert is_orders_address("orders@campaign.example.org")
    assert is_orders_address("<Orders+x@campaign.example.org>")
    assert not is_orders_address("player@campaign.example.org")


def test_the_organizers_view_hides_every_secret():
    to = "Orders+k3v9secret@campaign.example.org, friend@example.org, orders+other@campaign.example.org"
    assert (
        orders_address_masked(to) == "Orders+…@campaign.example.org, friend@example.org, orders+…@campaign.example.org"
    )
