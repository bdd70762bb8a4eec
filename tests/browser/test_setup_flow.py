"""The campaign setup as its users do it, in a real browser: invitations, home selection,
adjacent provinces, the starting army list, password reset, and what a player may not open."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from email.message import EmailMessage

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from demo.campaign import ANCIENT_DEAD_LISTS, SAMPLE_LISTS
from kernel.dice import SeededDice
from kingdoms.models import Army, Campaign, Character, Kingdom, Province, Unit
from kingdoms.services import armies as army_services
from rulebook.tables import ADVANCEMENT_CHOOSE, ARCHETYPE_ADVANCEMENT, Archetype
from turns.models import DiceRoll

from .conftest import PASSWORD, Outbox, html_of, link_in, login, password_set, text_of

NEW_PASSWORD = "wyverns-over-highcastle-42"


def _message(page: Page, text: str) -> None:
    """The page shows a flash message (status or alert) containing `text`."""
    expect(page.locator("ul.messages li", has_text=text)).to_have_count(1)


def test_organizer_creates_campaign_and_invited_players_set_their_passwords(
    page: Page, open_page: Callable[[], Page], live_server, organizer, outbox: Outbox
):
    login(page, live_server, "organizer", PASSWORD)
    page.get_by_role("link", name="Organize a new campaign").click()
    page.get_by_label("Name:", exact=True).fill("Albion Rising")
    page.get_by_label("Number of players").fill("2")
    expect(page.get_by_label("Time zone")).to_have_value("Europe/London")
    page.get_by_role("button", name="Create the campaign").click()

    _message(page, "Albion Rising is created. Invite its players.")
    expect(page.get_by_role("heading", level=1)).to_have_text("Albion Rising")
    campaign = Campaign.objects.get(name="Albion Rising")
    assert (campaign.organizer, campaign.player_count, campaign.map_name) == (organizer, 2, "Briternia")
    assert campaign.provinces.count() == 81
    assert page.url == f"{live_server.url}/campaigns/{campaign.pk}/"

    players = [("anna@example.org", "Reikland", "Empire"), ("bert@example.org", "Karak Azgal", "Dwarfs")]
    for address, kingdom_name, army_label in players:
        page.get_by_label("Email").fill(address)
        page.get_by_label("Kingdom name").fill(kingdom_name)
        page.get_by_label("Army type").select_option(label=army_label)
        page.get_by_role("button", name="Send the invitation").click()
        _message(page, f"{address} is invited to lead {kingdom_name}.")
    for _, kingdom_name, army_label in players:
        expect(page.locator("#kingdoms tr", has_text=kingdom_name)).to_contain_text(army_label)
    # The campaign has its two players: no more invitations, the dice can be rolled.
    assert campaign.kingdoms.exclude(army_type="ancient-dead").count() == 2
    expect(page.get_by_role("button", name="Send the invitation")).to_have_count(0)
    expect(page.locator("#everyone-invited")).to_have_text(
        "Every player is invited: roll for home selection when you are ready."
    )
    expect(page.get_by_role("button", name="Roll for home selection")).to_be_visible()

    assert len(outbox.messages()) == 2
    for address, kingdom_name, _ in players:
        (invitation,) = outbox.to(address)
        assert invitation["Subject"] == f"You are invited to Albion Rising: lead {kingdom_name}"
        link = link_in(invitation, live_server)
        assert link in html_of(invitation)
        assert f"Your login name is {address}." in text_of(invitation)

        player_page = open_page()
        password_set(player_page, link, NEW_PASSWORD, display_name=f"{kingdom_name}'s lord")
        login(player_page, live_server, address, NEW_PASSWORD)
        expect(player_page.locator("header .who")).to_have_text(f"{kingdom_name}'s lord")
        player_page.get_by_role("link", name="Albion Rising").click()
        expect(player_page.get_by_role("heading", name=f"Your kingdom: {kingdom_name}")).to_be_visible()
        assert get_user_model().objects.get(email=address).check_password(NEW_PASSWORD)


def _rolls_table(page: Page):
    return page.locator("h3:has-text('Home selection rolls (2D6)') + table tr")


def _one_link(message: EmailMessage, live_server, path: str) -> str:
    """The one link to `path` on the live server, in both parts of the email."""
    (link,) = set(re.findall(re.escape(live_server.url + path) + r"\S*?(?=[\s\"<]|$)", text_of(message)))
    assert link in html_of(message)
    return link


def test_home_and_adjacent_province_selection(
    page: Page, open_page: Callable[[], Page], live_server, invited_campaign: Campaign, outbox: Outbox
):
    campaign = invited_campaign
    campaign_url = f"{live_server.url}/campaigns/{campaign.pk}/"
    organizer_page = page
    login(organizer_page, live_server, "organizer", PASSWORD)
    organizer_page.goto(campaign_url)
    organizer_page.get_by_role("button", name="Roll for home selection").click()
    _message(organizer_page, "The dice are rolled: home selection is open.")

    # Every 2D6 roll (re-rolls of ties included) is shown, with its kingdom, total and faces.
    rolls = list(DiceRoll.objects.filter(campaign=campaign, stream="home-selection").order_by("sequence"))
    assert len(rolls) >= 2
    rows = _rolls_table(organizer_page)
    expect(rows).to_have_count(1 + len(rolls))
    for index, roll in enumerate(rolls, start=1):
        (kingdom,) = Kingdom.objects.filter(pk__in=roll.kingdoms)
        cells = rows.nth(index).locator("td")
        expect(cells.nth(0)).to_have_text(kingdom.name)
        expect(cells.nth(1)).to_have_text(str(roll.total))
        expect(cells.nth(2)).to_contain_text(" + ".join(map(str, roll.faces)))

    # Highest roll picks its home first; the player present picks, the organizer picks for the absent one.
    first, second = sorted(campaign.kingdoms.exclude(army_type="ancient-dead"), key=lambda k: -k.home_roll)
    expect(organizer_page.locator("#picking")).to_have_text(f"It is {first.name}'s turn to pick.")
    # Each player learns their roll by email, and the first to pick that it is their turn, with the link.
    for kingdom in (first, second):
        (rolled,) = [m for m in outbox.to(kingdom.players.get().email) if "home selection is rolled" in m["Subject"]]
        assert f"{kingdom.name} rolled {kingdom.home_roll}." in text_of(rolled)
    (your_turn,) = [m for m in outbox.to(first.players.get().email) if "your turn to pick" in m["Subject"]]
    assert your_turn["Subject"] == f"Browser Campaign: your turn to pick a capitol site for {first.name}"
    player_page = open_page()
    login(player_page, live_server, first.players.get().username, PASSWORD)
    player_page.goto(_one_link(your_turn, live_server, f"/campaigns/{campaign.pk}/"))
    player_page.get_by_label("Capitol site").select_option("11")
    player_page.get_by_role("button", name="Take this capitol site").click()
    _message(player_page, f"{first.name} makes province 11 its capitol.")
    expect(player_page.locator("#picking")).to_have_text(f"It is {second.name}'s turn to pick.")
    expect(player_page.get_by_role("button", name="Take this capitol site")).to_have_count(0)

    organizer_page.reload()
    expect(organizer_page.get_by_text(f"You pick on behalf of {second.name}.")).to_be_visible()
    site_options = organizer_page.get_by_label("Capitol site").locator("option")
    expect(site_options.filter(has_text="11 Highcastle")).to_have_count(0)  # taken
    organizer_page.get_by_label("Capitol site").select_option("71")
    organizer_page.get_by_role("button", name="Take this capitol site").click()
    _message(organizer_page, f"{second.name} makes province 71 its capitol.")
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.capitol.number, second.capitol.number) == (11, 71)

    # Adjacent provinces go lowest roll first: the organizer picks again for the absent player.
    expect(organizer_page.locator("#picking")).to_have_text(f"It is {second.name}'s turn to pick.")
    organizer_page.locator("input[name=provinces][value='61']").check()
    organizer_page.locator("input[name=provinces][value='62']").check()
    organizer_page.get_by_role("button", name="Take these provinces").click()
    _message(organizer_page, f"{second.name} takes provinces 61, 62.")

    # One province instead of two: refused with the rule, and nothing is taken.
    player_page.reload()
    player_page.locator("input[name=provinces][value='1']").check()
    player_page.get_by_role("button", name="Take these provinces").click()
    expect(player_page.get_by_role("alert")).to_have_text(
        "Pick exactly 2 provinces adjacent to your home (Setup); you picked 1."
    )
    assert list(Province.objects.filter(controller=first).values_list("number", flat=True)) == [11]
    first.refresh_from_db()
    assert not first.picked_provinces

    player_page.locator("input[name=provinces][value='1']").check()
    player_page.locator("input[name=provinces][value='2']").check()
    player_page.get_by_role("button", name="Take these provinces").click()
    _message(player_page, f"{first.name} takes provinces 1, 2.")
    expect(player_page.locator("#setup")).to_contain_text("Every kingdom enters its army list")
    expect(player_page.locator("p.muted").first).to_contain_text("Army lists")
    assert sorted(Province.objects.filter(controller=first).values_list("number", flat=True)) == [1, 2, 11]
    assert sorted(Province.objects.filter(controller=second).values_list("number", flat=True)) == [61, 62, 71]
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.ARMY_LISTS

    # Every player is asked by email for their army list; the link opens the editor.
    (asked,) = [m for m in outbox.to(first.players.get().email) if "enter the army list" in m["Subject"]]
    army = first.armies.get()
    player_page.goto(_one_link(asked, live_server, f"/armies/{army.pk}/edit/"))
    expect(player_page.get_by_role("heading", level=1)).to_have_text(f"{army.name}: army list")
    assert [m for m in outbox.to(second.players.get().email) if "enter the army list" in m["Subject"]]
    # The organizer sees whose list is valid before pressing Start: none yet.
    organizer_page.reload()
    expect(organizer_page.locator("#army-lists tr", has_text=first.name)).to_contain_text("Not valid yet")


def _fill_unit(page: Page, row: int, **fields: str | bool) -> None:
    """Fill row `row` of the units table: text fields by value, selects by value, checkboxes by bool."""
    for field, value in fields.items():
        control = page.locator(f"[name='units-{row}-{field}']")
        if isinstance(value, bool):
            control.set_checked(value)
        elif control.evaluate("el => el.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)


def _stored_list(army: Army) -> list[tuple]:
    return [
        (
            u.name,
            u.category,
            u.models_count,
            u.points_per_model,
            u.character.monstrous_mount if hasattr(u, "character") else None,
        )
        for u in Unit.objects.filter(army=army).select_related("character").order_by("position")
    ]


def _seed_giving(stream: str, *, six: bool) -> str:
    """A setup seed whose first D6 on `stream` is a 6 (Choose), or is not."""
    for n in itertools.count():
        seed = f"browser-{n}"
        if (SeededDice(seed=seed, stream=stream).d6(purpose="probe") == ADVANCEMENT_CHOOSE) == six:
            return seed
    raise AssertionError("unreachable")


@pytest.mark.parametrize("free_roll", ["advancement", "choose"])
def test_player_enters_the_starting_army_list(page: Page, live_server, army_lists_campaign: Campaign, free_roll: str):
    reikland = Kingdom.objects.get(campaign=army_lists_campaign, name="Reikland")
    army = Army.objects.get(kingdom=reikland, name="1st Army")
    # The Warlord's free roll comes from the campaign's setup seed: pick one that rolls the case under test.
    stream = f"warlord-free-roll:{reikland.pk}"
    seed = _seed_giving(stream, six=free_roll == "choose")
    Campaign.objects.filter(pk=army_lists_campaign.pk).update(setup_seed=seed)
    login(page, live_server, "anna", PASSWORD)
    page.get_by_role("link", name="Browser Campaign").click()
    page.get_by_role("link", name="Treasury, armies and characters").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Reikland")
    expect(page.locator("#balance")).to_have_text("6000")
    ledger_rows = page.locator("#ledger tr")
    expect(ledger_rows).to_have_count(2)
    expect(ledger_rows.nth(1)).to_contain_text("Starting gold (Setup)")
    expect(ledger_rows.nth(1)).to_contain_text("+6000")
    army_row = page.locator("#armies tr", has_text="1st Army")
    expect(army_row.locator("td")).to_have_text(
        ["1st Army", "11 Highcastle", "2000", "0", "yes", "0", "Active", "Edit list"]
    )
    expect(page.locator("#characters")).to_contain_text("No characters yet")

    army_row.get_by_role("link", name="Edit list").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("1st Army: army list")
    _fill_unit(
        page, 0, name="Count Aldric", category="character", models="1", points_per_model="250",
        rank="lord", role="warlord", archetype="barbarian",
    )  # fmt: skip
    _fill_unit(page, 1, name="Halberdiers", category="core", models="85", points_per_model="10")
    _fill_unit(page, 2, name="Knights", category="special", models="10", points_per_model="85")
    page.get_by_role("button", name="Save the list").click()

    _message(page, "The list of 1st Army is saved.")
    assert page.url == f"{live_server.url}/kingdoms/{reikland.pk}/"
    expect(page.locator("#armies tr", has_text="1st Army").locator("td").nth(3)).to_have_text("1950")
    saved = [
        ("Count Aldric", "character", 1, 250, False),
        ("Halberdiers", "core", 85, 10, None),
        ("Knights", "special", 10, 85, None),
    ]
    assert _stored_list(army) == saved

    # The Warlord has the Barbarian's Starting Ability, and the free roll on the Barbarian table.
    warlord_row = page.locator("#characters tr", has_text="Count Aldric")
    expect(warlord_row.locator("td").nth(2)).to_have_text("Warlord (Lord)")
    expect(warlord_row.locator("td").nth(3)).to_have_text("Barbarian")
    (roll,) = DiceRoll.objects.filter(campaign=army_lists_campaign, stream=stream)
    assert (roll.total == ADVANCEMENT_CHOOSE) == (free_roll == "choose"), f"seed {seed} rolled {roll.total}"
    table = ARCHETYPE_ADVANCEMENT[Archetype.BARBARIAN]
    if free_roll == "choose":
        expect(warlord_row).to_contain_text("You rolled a 6 (Choose)")
        expect(warlord_row.locator("select option")).to_have_text(list(table))
        warlord_row.locator("select").select_option("Berserker Rage")
        warlord_row.get_by_role("button", name="Choose").click()
        _message(page, "Count Aldric gains Berserker Rage.")
        advancement = "Berserker Rage"
    else:
        expect(warlord_row).not_to_contain_text("You rolled a 6")
        advancement = table[roll.total - 1]
    warlord_row = page.locator("#characters tr", has_text="Count Aldric")
    expect(warlord_row.locator("td").nth(4)).to_have_text(f"Furious Charge, {advancement}")
    expect(warlord_row.get_by_role("button", name="Choose")).to_have_count(0)  # the choice is made
    assert Character.objects.get(unit__army=army).abilities == ["Furious Charge", advancement]

    # 2,100 points: refused, naming the army and the rule; the stored list does not change.
    edit_url = f"{live_server.url}/armies/{army.pk}/edit/"
    page.goto(edit_url)
    expect(page.locator("[name='units-1-models']")).to_have_value("85")
    _fill_unit(page, 1, models="100")
    page.get_by_role("button", name="Save the list").click()
    expect(page.locator("#list-errors")).to_contain_text(
        "1st Army: the list totals 2100 points; the starting army is a 2,000 point army (Setup): 1,950 to 2,000 points."
    )
    assert page.url == edit_url
    assert _stored_list(army) == saved

    # A second character on a monstrous mount: refused the same way.
    page.goto(edit_url)
    _fill_unit(page, 0, monstrous_mount=True)
    _fill_unit(
        page, 3, name="Captain Brandt", category="character", models="1", points_per_model="100",
        rank="hero", role="hero", monstrous_mount=True,
    )  # fmt: skip
    page.get_by_role("button", name="Save the list").click()
    expect(page.locator("#list-errors")).to_contain_text(
        "1st Army: a kingdom may include only one character mounted on a monstrous creature, "
        "garrisons included (Army Restrictions)."
    )
    assert _stored_list(army) == saved

    page.goto(f"{live_server.url}/kingdoms/{reikland.pk}/")
    expect(page.locator("#armies tr", has_text="1st Army").locator("td").nth(3)).to_have_text("1950")
    expect(page.locator("#characters tr")).to_have_count(2)

    # A valid change saves, the empty extra rows are ignored, and the Warlord keeps his abilities.
    page.goto(edit_url)
    _fill_unit(page, 1, models="89")
    page.get_by_role("button", name="Save the list").click()
    _message(page, "The list of 1st Army is saved.")
    expect(page.locator("#armies tr", has_text="1st Army").locator("td").nth(3)).to_have_text("1990")
    expect(page.locator("#characters tr", has_text="Count Aldric").locator("td").nth(4)).to_have_text(
        f"Furious Charge, {advancement}"
    )
    assert _stored_list(army) == [saved[0], ("Halberdiers", "core", 89, 10, None), saved[2]]


def test_password_reset_by_email(page: Page, live_server, make_user, outbox: Outbox):
    user = make_user("carla")
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("link", name="Forgotten your password?").click()
    page.get_by_label("Email").fill("carla@example.org")
    page.get_by_role("button", name="Email me a link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Check your email")

    (reset,) = outbox.messages()
    assert reset["To"] == "carla@example.org"
    assert reset["Subject"] == "Briternia: reset your password"
    assert "(carla)" in text_of(reset)
    password_set(page, link_in(reset, live_server), NEW_PASSWORD)

    # The old password no longer opens the account; the new one does.
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("carla")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("form")).to_contain_text("Please enter a correct username and password")
    login(page, live_server, "carla", NEW_PASSWORD)
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_player_cannot_open_another_kingdom_or_its_army(page: Page, live_server, army_lists_campaign: Campaign):
    own = Kingdom.objects.get(campaign=army_lists_campaign, name="Reikland")
    other = Kingdom.objects.get(campaign=army_lists_campaign, name="Karak Azgal")
    login(page, live_server, "anna", PASSWORD)

    # The player's own pages open, so the 404s below are about whose pages they are.
    response = page.goto(f"{live_server.url}/kingdoms/{own.pk}/")
    assert response is not None and response.status == 200
    response = page.goto(f"{live_server.url}/armies/{own.armies.get().pk}/edit/")
    assert response is not None and response.status == 200

    for url in [f"/kingdoms/{other.pk}/", f"/armies/{other.armies.get().pk}/edit/"]:
        response = page.goto(live_server.url + url)
        assert response is not None and response.status == 404, url
        expect(page.get_by_role("heading", level=1)).to_have_text(
            "Not found"
        )  # the site's own 404 page (templates/404.html)
        expect(page.locator("body")).not_to_contain_text("Karak Azgal")
        expect(page.locator("body")).not_to_contain_text("1st Army")

    # On the campaign page the other kingdom is listed without a link to it.
    page.goto(f"{live_server.url}/campaigns/{army_lists_campaign.pk}/")
    expect(page.locator("#kingdoms tr", has_text="Karak Azgal")).to_be_visible()
    expect(page.locator("#kingdoms a", has_text="Karak Azgal")).to_have_count(0)
    expect(page.locator("#kingdoms a", has_text="Reikland")).to_have_count(1)


def test_the_organizer_starts_the_campaign_and_each_player_opens_their_order_sheet_from_the_email(
    page: Page, open_page: Callable[[], Page], live_server, army_lists_campaign: Campaign, outbox: Outbox
):
    """Issue 18, point 2 (setup is silent) and Campaign Schedule: with every army list valid, the
    organizer sees them all valid and presses Start; each player's "turn 1 is open" email links, in
    both its parts, to their own order sheet, which opens for them."""
    campaign = army_lists_campaign
    for army in Army.objects.filter(kingdom__campaign=campaign):
        kingdom = army.kingdom
        units, items = ANCIENT_DEAD_LISTS[army.name] if kingdom.is_ancient_dead else SAMPLE_LISTS[kingdom.army_type]
        army_services.army_list_save(army=army, units=units, items=items)

    login(page, live_server, "organizer", PASSWORD)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    lists = page.locator("#army-lists tr", has_text="Valid")
    expect(lists).to_have_count(Army.objects.filter(kingdom__campaign=campaign).count())
    expect(page.locator("#army-lists")).not_to_contain_text("Not valid yet")
    page.get_by_role("button", name="Start the campaign").click()
    _message(page, "The campaign has begun: turn 1.")
    turn = campaign.turns.get(number=1)

    for username, kingdom_name in [("anna", "Reikland"), ("bert", "Karak Azgal")]:
        kingdom = Kingdom.objects.get(campaign=campaign, name=kingdom_name)
        (started,) = [m for m in outbox.to(f"{username}@example.org") if "has started" in m["Subject"]]
        assert started["Subject"] == "Browser Campaign has started: turn 1 is open for orders"
        link = _one_link(started, live_server, f"/turns/{turn.pk}/orders/{kingdom.pk}/")
        player_page = open_page()
        login(player_page, live_server, username, PASSWORD)
        player_page.goto(link)
        expect(player_page.get_by_role("heading", level=1)).to_have_text(f"{kingdom_name}: orders for turn 1")
        expect(player_page.get_by_role("button", name="Submit orders")).to_be_enabled()
    # Nobody else is told: the organizer, who pressed Start, runs the Ancient Dead.
    assert not [m for m in outbox.to("organizer@example.org") if "has started" in m["Subject"]]
