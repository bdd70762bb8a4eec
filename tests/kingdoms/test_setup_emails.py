"""Setup is not silent (issue 18, point 2): each player learns every step of the setup from their
inbox (rulebook, Setup: the home selection roll, the picks in rule order, the starting army list,
then Campaign Schedule: turn 1 open), each email read in both parts; an existing account is invited
without a set-password link; the organizer sees whose army list is valid before pressing Start."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from demo.campaign import ANCIENT_DEAD_LISTS, SAMPLE_LISTS
from kernel.dice import ScriptedDice
from kingdoms.models import Army, Campaign
from kingdoms.services import armies as army_services
from kingdoms.services import campaigns as campaign_services
from turns.models import Turn
from turns.services.cycle import campaign_start

# Setup, rule case S1: 7, 9, 7, 4; the tied 7s re-rolled as 8 and 3.
S1_DICE = [3, 4, 4, 5, 3, 4, 2, 2, 4, 4, 1, 2]


def _parts(message) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """The text part and the HTML part of an email."""
    (html,) = [content for content, mimetype in message.alternatives if mimetype == "text/html"]
    return message.body, html


def _sent(address: str, subject_has: str) -> list:
    return [m for m in mail.outbox if m.to == [address] and subject_has in m.subject]


def _players(campaign: Campaign) -> list:
    return list(campaign.kingdoms.exclude(army_type="ancient-dead").order_by("id"))


def _pick_everything(campaign: Campaign, step) -> None:  # type: ignore[no-untyped-def]
    """Every kingdom picks in rule order, each pick its own committed step."""
    while (kingdom := campaign_services.setup_next_kingdom(campaign)) is not None:
        mail.outbox.clear()
        with step():
            if campaign.status == Campaign.Status.HOMES:
                site = campaign.provinces.filter(capitol_site=True, controller=None).order_by("number").first()
                campaign_services.home_pick(campaign=campaign, kingdom=kingdom, number=site.number)
            else:
                kingdom.refresh_from_db()
                free = kingdom.capitol.neighbours.filter(controller=None, capitol_site=False, pyramid=False)
                numbers = [p.number for p in free.exclude(terrain="desert").order_by("number")[:2]]
                campaign_services.adjacent_pick(campaign=campaign, kingdom=kingdom, numbers=numbers)
        campaign.refresh_from_db()
        following = campaign_services.setup_next_kingdom(campaign)
        if following is not None:
            # The next kingdom to pick, and nobody else, is told it is its turn.
            (told,) = mail.outbox
            assert told.to == [following.players.get().email]
            text, html = _parts(told)
            what = "a capitol site" if campaign.status == Campaign.Status.HOMES else "2 provinces adjacent"
            assert f"it is {following.name}'s turn to pick {what}" in text
            assert f"<strong>{following.name}</strong>'s turn to pick {what}" in html
            assert f"/campaigns/{campaign.pk}/" in text and 'href="http://' in html


@pytest.fixture
def step(django_capture_on_commit_callbacks):
    """One setup step, its transaction committed and its emails sent (eager tasks)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_an_existing_account_is_invited_with_the_campaign_s_link_not_a_set_password_link(invited_campaign):
    """The players of `invited_campaign` had accounts with passwords before they were invited."""
    invitation = _sent("p1@example.org", "You are invited to Test Campaign: lead Kingdom 1")
    (message,) = invitation
    text, html = _parts(message)
    for part in (text, html):
        assert "/accounts/reset/" not in part and "Set your password" not in part
        assert f"/campaigns/{invited_campaign.pk}/" in part
    assert "You already have an account: log in as p1 with your password" in text
    assert "log in as <code>p1</code>" in html


def test_every_setup_step_is_emailed_to_the_players_who_must_act(invited_campaign, step):
    campaign = invited_campaign
    k1, k2, k3, k4 = _players(campaign)
    mail.outbox.clear()
    with step():
        campaign_services.home_selection_start(campaign=campaign, dice=ScriptedDice(faces=S1_DICE))
    campaign.refresh_from_db()

    # Each player gets their roll and the order of picking; the highest roll (k2, 9) is told to pick.
    for kingdom, roll in ((k1, 8), (k2, 9), (k3, 3), (k4, 4)):
        (rolls,) = _sent(kingdom.players.get().email, "home selection is rolled")
        assert rolls.subject == f"Test Campaign: home selection is rolled, {kingdom.name} rolled {roll}"
        text, html = _parts(rolls)
        assert f"{kingdom.name} rolled {roll}." in text and f"<strong>{roll}</strong>" in html
        order = "1. Kingdom 2 (9)\n2. Kingdom 1 (8)\n3. Kingdom 4 (4)\n4. Kingdom 3 (3)\n"
        assert order.replace(f"({roll})\n", f"({roll}): you\n") in text
        assert "<li>Kingdom 2 (9)" in html
    (your_pick,) = _sent("p2@example.org", "your turn to pick")
    assert your_pick.subject == "Test Campaign: your turn to pick a capitol site for Kingdom 2"
    assert len(mail.outbox) == 5

    _pick_everything(campaign, step)

    # The last pick asks every player for their starting army's list, with the editor's link.
    assert campaign.status == Campaign.Status.ARMY_LISTS
    assert len(mail.outbox) == 4
    for kingdom in (k1, k2, k3, k4):
        army = kingdom.armies.get()
        (ask,) = _sent(kingdom.players.get().email, "enter the army list")
        assert ask.subject == f"Test Campaign: enter the army list of {kingdom.name}"
        text, html = _parts(ask)
        assert f"/armies/{army.pk}/edit/" in text and f"/armies/{army.pk}/edit/" in html
        assert f"({army.name}, 2000 points)" in text


def _lists_entered(campaign: Campaign) -> None:
    for army in Army.objects.filter(kingdom__campaign=campaign):
        kingdom = army.kingdom
        units, items = ANCIENT_DEAD_LISTS[army.name] if kingdom.is_ancient_dead else SAMPLE_LISTS[kingdom.army_type]
        army_services.army_list_save(army=army, units=units, items=items)


@pytest.fixture
def lists_due(invited_campaign, step) -> Campaign:
    with step():
        campaign_services.home_selection_start(campaign=invited_campaign, dice=ScriptedDice(faces=S1_DICE))
    invited_campaign.refresh_from_db()
    _pick_everything(invited_campaign, step)
    return invited_campaign


def test_the_start_of_the_campaign_tells_each_player_that_turn_1_is_open(lists_due, step):
    """Campaign Schedule: the campaign begins with turn 1 open for orders."""
    _lists_entered(lists_due)
    mail.outbox.clear()
    with step():
        campaign_start(campaign=lists_due)
    turn = Turn.objects.get(campaign=lists_due, number=1)
    # The players alone: the Ancient Dead are the organizer's, who pressed Start.
    assert sorted(m.to[0] for m in mail.outbox) == [f"p{i}@example.org" for i in range(1, 5)]
    for kingdom in _players(lists_due):
        (started,) = _sent(kingdom.players.get().email, "has started")
        assert started.subject == "Test Campaign has started: turn 1 is open for orders"
        text, html = _parts(started)
        sheet = f"/turns/{turn.pk}/orders/{kingdom.pk}/"
        assert sheet in text and sheet in html
        assert f"Write {kingdom.name}'s orders before the orders deadline," in text


def test_the_organizer_sees_whose_army_list_is_valid_before_pressing_start(lists_due, organizer):
    first = _players(lists_due)[0]
    army = first.armies.get()
    units, items = SAMPLE_LISTS[first.army_type]
    army_services.army_list_save(army=army, units=units, items=items)
    client = Client()
    client.force_login(organizer)
    page = client.get(f"/campaigns/{lists_due.pk}/").content.decode()
    table = page.split('id="army-lists"')[1].split("</table>")[0]
    rows = table.split("<tr>")[2:]
    assert len(rows) == 6  # four players' starting armies, the Ancient Dead's two
    (valid,) = [r for r in rows if f">{first.name}<" in r]
    assert "Valid" in valid and "Not valid yet" not in valid
    (other,) = [r for r in rows if ">Kingdom 2<" in r]
    assert "Not valid yet" in other and "must include the Warlord" in other
    # A player does not see the others' lists' standing.
    player = Client()
    player.force_login(first.players.get())
    assert 'id="army-lists"' not in player.get(f"/campaigns/{lists_due.pk}/").content.decode()


def test_the_invite_form_goes_once_every_player_is_invited(new_campaign, invited_campaign, organizer):
    client = Client()
    client.force_login(organizer)
    page = client.get(f"/campaigns/{invited_campaign.pk}/").content.decode()
    assert "Send the invitation" not in page
    assert "Every player is invited" in page and "Roll for home selection" in page
    invited_campaign.player_count = 5
    invited_campaign.save(update_fields=["player_count"])
    assert "Send the invitation" in client.get(f"/campaigns/{invited_campaign.pk}/").content.decode()


def test_the_organizer_may_name_a_new_player_at_invitation_never_by_an_address(new_campaign, organizer):
    """The other players see the name given at invitation (the player may change it when setting
    the password); an address is refused as a name, and nothing is saved."""
    client = Client()
    client.force_login(organizer)
    invite = f"/campaigns/{new_campaign.pk}/invite/"
    fields = {"email": "nell@example.org", "kingdom_name": "Nordland", "army_type": "empire"}
    refused = client.post(invite, {**fields, "display_name": "nell@example.org"}, follow=True).content.decode()
    assert "The player&#x27;s display name has no &#x27;@&#x27;" in refused
    assert not new_campaign.kingdoms.filter(name="Nordland").exists()
    client.post(invite, {**fields, "display_name": "Nell the Bold"})
    player = new_campaign.kingdoms.get(name="Nordland").players.get()
    assert player.first_name == "Nell the Bold"
    page = client.get(f"/campaigns/{new_campaign.pk}/").content.decode()
    kingdoms_table = page.split('id="kingdoms"')[1].split("</table>")[0]
    assert "Nell the Bold" in kingdoms_table and "nell@" not in kingdoms_table
