"""Issue 15's pages in a real browser, on the demo campaign (turn 1 open for orders).

The organizer: adds two co-players to Ostland on its page, removes one (the button asks first),
enters the other's declaration of independence; marks Da Red Fang's player out on its leader page
(asks first) and gives the Rogue Kingdom to a new player, who follows the invitation's link and
leads it. Alice: fills her order sheet's alliance, gold and item transfers, land deal and capitol
move, submits, and reads them on the receipt and on the sheet again.

Rulebook: Allies, Player Issues (Rogue Kingdom, New Player Option, joint kingdoms, Land Sales and
Civil Unrest, Transfer of Gold), Loss of the Capitol; decisions 150-159, 224-230."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from demo.campaign import DEMO_PASSWORD
from kingdoms.models import Army, Campaign, Kingdom, Province
from orders.models import OrderSheet

from .conftest import PASSWORD, Outbox, link_in, login, password_set, text_of

ERIN, FRANK, GINA = "erin@example.org", "frank@example.org", "gina@example.org"


def _message(page: Page, text: str) -> None:
    expect(page.locator("ul.messages li", has_text=text)).to_have_count(1)


def _kingdoms(campaign: Campaign) -> dict[str, Kingdom]:
    return {k.name: k for k in Kingdom.objects.filter(campaign=campaign)}


def test_the_organizer_changes_who_plays_a_kingdom(
    outbox: Outbox, demo_campaign: Campaign, open_page, live_server
) -> None:
    k = _kingdoms(demo_campaign)
    ostland, red_fang = k["Ostland"], k["Da Red Fang"]
    page = open_page()
    login(page, live_server, "organizer", DEMO_PASSWORD)

    # Joint kingdoms: two co-players are invited to Ostland from its page.
    page.goto(f"{live_server.url}/kingdoms/{ostland.pk}/")
    for address in (ERIN, FRANK):
        page.get_by_label("Co-player's email").fill(address)
        page.get_by_role("button", name="Add a co-player").click()
        _message(page, f"{address} is invited to share Ostland (a joint kingdom).")
    assert [m["Subject"] for m in outbox.to(FRANK)] == [f"You are invited to {demo_campaign.name}: lead Ostland"]
    expect(page.locator("#co-players li")).to_have_count(3)

    # Removing Frank asks first: dismissed, nothing happens; accepted, he is out and told.
    frank = ostland.players.get(email=FRANK)
    remove = page.locator(f"#remove-co-player-{frank.pk}")
    page.once("dialog", lambda dialog: dialog.dismiss())
    remove.click()
    expect(page.locator("#co-players li")).to_have_count(3)
    assert ostland.players.filter(pk=frank.pk).exists()
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    remove.click()
    _message(page, "no longer plays Ostland; they are told by email.")
    assert asked and asked[0].startswith("Remove ") and "of Ostland?" in asked[0]
    assert not ostland.players.filter(pk=frank.pk).exists()
    (told,) = [m for m in outbox.to(FRANK) if "no longer share Ostland" in m["Subject"]]
    assert "removed you from the players of Ostland" in text_of(told)

    # Erin declares Eldenmark independent with Eldenhall (61) and Hartwood (62).
    page.get_by_role("link", name="A co-player declares independence").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("A co-player declares independence from Ostland")
    page.get_by_label("The new kingdom's name").fill("Eldenmark")
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_label("The co-player").select_option(str(ostland.players.get(email=ERIN).pk))
    page.get_by_role("button", name="Declare independence").click()
    expect(page.locator("#independence-errors")).to_contain_text(
        "Give the new kingdom at least one of Ostland's provinces"
    )
    expect(page.get_by_label("The new kingdom's name")).to_have_value("Eldenmark")
    for number in (61, 62):
        page.locator(f"#provinces input[value='{number}']").check()
    page.get_by_role("button", name="Declare independence").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Eldenmark")
    _message(page, "Eldenmark declares independence from Ostland.")
    eldenmark = Kingdom.objects.get(campaign=demo_campaign, name="Eldenmark")
    assert list(eldenmark.players.values_list("email", flat=True)) == [ERIN]
    assert sorted(eldenmark.provinces.values_list("number", flat=True)) == [61, 62]

    # The Rogue Kingdom: Bob is out of the campaign (the button asks first).
    bob = open_page()
    login(bob, live_server, "bob", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/kingdoms/{red_fang.pk}/")
    page.locator("#kingdom-leader").click()
    expect(page.locator("#leader-status")).to_contain_text("Led by")
    page.get_by_label("Why (told in the turn's log)").fill("moved abroad")
    page.get_by_role("button", name="Mark the player out").click()
    _message(page, "Da Red Fang is a Rogue Kingdom.")
    expect(page.locator("#leader-status")).to_contain_text("A Rogue Kingdom since turn 1")
    response = bob.goto(f"{live_server.url}/kingdoms/{red_fang.pk}/")
    assert response is not None and response.status == 404
    assert not Army.objects.filter(kingdom=red_fang, status=Army.Status.ACTIVE).exists()

    # New Player Option: Gina is invited, sets her password from the email and leads Da Red Fang.
    page.get_by_label("The new player's email").fill(GINA)
    page.get_by_role("button", name="Give the kingdom to this player").click()
    _message(page, f"{GINA} is invited to lead Da Red Fang.")
    expect(page.locator("#leader-status")).to_contain_text("Led by")
    (invitation,) = outbox.to(GINA)
    gina = open_page()
    password_set(gina, link_in(invitation, live_server), PASSWORD, display_name="Gina the Green")
    login(gina, live_server, GINA, PASSWORD)
    gina.goto(f"{live_server.url}/kingdoms/{red_fang.pk}/")
    expect(gina.get_by_role("heading", level=1)).to_have_text("Da Red Fang")
    expect(gina.locator("#players")).to_have_text("Gina the Green")
    expect(gina.locator("#rogue")).to_have_count(0)


def test_alice_files_her_kingdom_s_dealings_and_reads_them_on_the_receipt(
    outbox: Outbox, demo_campaign: Campaign, page: Page, live_server
) -> None:
    """Her Warlord's 1st Army stands in Eldenhall (61), a city of hers, so the capitol may move there."""
    k = _kingdoms(demo_campaign)
    ostland = k["Ostland"]
    first = Army.objects.get(kingdom=ostland, name="1st Army")
    first.province = Province.objects.get(campaign=demo_campaign, number=61)
    first.save(update_fields=["province"])
    turn = demo_campaign.turns.get(number=1)

    login(page, live_server, "alice", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/turns/{turn.pk}/orders/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ostland: orders for turn 1")
    # The Alliance Chart: only the kingdoms Ostland (Empire) may ally with are offered.
    declare = page.locator("select[name='alliance-declare']")
    offered = declare.locator("option").all_inner_texts()
    assert "Karak Dumn (Dwarfs: Trusted Allies)" in offered and not any(o.startswith("Da Red Fang") for o in offered)
    declare.select_option(label="Karak Dumn (Dwarfs: Trusted Allies)")
    page.locator("select[name='transfer-0-kingdom']").select_option(label="Tor Anlec")
    page.locator("input[name='transfer-0-gold']").fill("500")
    page.locator("select[name='item-transfer-0-kingdom']").select_option(label="Karak Dumn")
    page.locator("select[name='item-transfer-0-item']").select_option("Enchanted Shield")
    page.locator("select[name='capitol-city']").select_option("61")
    page.locator("select[name='land-0-kingdom']").select_option(label="Karak Dumn")
    page.locator("select[name='land-0-province']").select_option("62")
    page.get_by_role("button", name="Submit orders").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Ostland: orders received for turn 1")
    expect(page.locator("#receipt-kingdom li")).to_have_text(
        [
            "Declare an alliance with Karak Dumn",
            "Transfer 500 gold to Tor Anlec (10% fee on top)",
            "Transfer the magic item Enchanted Shield to Karak Dumn (10% of double its points on top)",
            "Land deal with Karak Dumn: give 62 Hartwood",
            "Move the capitol to 61 Eldenhall (1,000 gold)",
        ]
    )
    # 1,000 (alliance) + 550 (gold and fee) + 2 (10% of the shield's 20 gold) + 1,000 (capitol).
    expect(page.locator("#receipt-gold")).to_contain_text("Gold spent by this sheet: 2552")
    assert OrderSheet.objects.get(turn=turn, kingdom=ostland).status == OrderSheet.Status.SUBMITTED

    # The sheet again: every row as filed, and one empty row below each list of rows.
    page.get_by_role("link", name="Change the orders").click()
    expect(page.locator("select[name='alliance-declare']")).to_have_value(str(k["Karak Dumn"].pk))
    expect(page.locator("input[name='transfer-0-gold']")).to_have_value("500")
    expect(page.locator("input[name='transfer-1-gold']")).to_have_value("")
    expect(page.locator("select[name='item-transfer-0-item']")).to_have_value("Enchanted Shield")
    expect(page.locator("select[name='item-transfer-1-kingdom']")).to_have_value("")
    expect(page.locator("select[name='land-0-province']")).to_have_value("62")
    expect(page.locator("select[name='land-1-kingdom']")).to_have_value("")
    expect(page.locator("select[name='capitol-city']")).to_have_value("61")
