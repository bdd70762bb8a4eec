"""Diplomacy in a real browser (issue 37, "done when": two players exchange messages that a third
kingdom cannot read). alice (Ostland) writes to dave (Tor Anlec) from the campaign page; dave is
emailed, reads it on the site and answers; bob (Da Red Fang) finds neither letter."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from demo.campaign import DEMO_PASSWORD
from kingdoms.models import Campaign

from .conftest import Outbox, login


def test_two_players_write_to_each_other_and_a_third_reads_nothing(
    open_page: Callable[[], Page], live_server, outbox: Outbox, demo_campaign: Campaign
) -> None:
    alice = open_page()
    login(alice, live_server, "alice", DEMO_PASSWORD)
    alice.get_by_role("link", name=demo_campaign.name).click()
    alice.get_by_role("link", name="Messages between kingdoms").click()
    expect(alice.get_by_role("heading", level=1)).to_have_text("Messages")
    alice.get_by_label("From").select_option(label="Ostland")
    alice.get_by_role("checkbox", name="Tor Anlec").check()
    alice.get_by_label("Message").fill("Shall we share the pass at 14? Our scouts saw orcs.")
    alice.get_by_role("button", name="Send the message").click()
    expect(alice.locator(".messages li").first).to_have_text("Your message is sent to Tor Anlec.")
    expect(alice.locator("li.message")).to_contain_text("Shall we share the pass at 14?")

    (email,) = [m for m in outbox.to("dave@briternia.local") if "a message from" in m["Subject"]]
    assert "a message from Ostland" in email["Subject"]
    assert "Shall we share the pass at 14?" in email.get_body(("plain",)).get_content()

    dave = open_page()
    login(dave, live_server, "dave", DEMO_PASSWORD)
    dave.goto(f"{live_server.url}/campaigns/{demo_campaign.pk}/messages/")
    expect(dave.locator("li.message")).to_contain_text("Ostland (alice) to Tor Anlec")
    dave.get_by_role("checkbox", name="Ostland").check()
    dave.get_by_label("Message").fill("Agreed: the pass is shared. No orcs past it.")
    dave.get_by_role("button", name="Send the message").click()
    expect(dave.locator("li.message")).to_have_count(2)

    bob = open_page()
    login(bob, live_server, "bob", DEMO_PASSWORD)
    bob.goto(f"{live_server.url}/campaigns/{demo_campaign.pk}/messages/")
    expect(bob.locator("#no-messages")).to_be_visible()
    assert "Shall we share" not in bob.content() and "Agreed: the pass" not in bob.content()
    api = bob.request.get(f"{live_server.url}/api/campaigns/{demo_campaign.pk}/messages/")
    assert api.status == 200 and api.json() == []
    assert not [m for m in outbox.to("bob@briternia.local") if "a message from" in m["Subject"]]
