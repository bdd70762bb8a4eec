"""The order sheet as a player files it, in a real browser: a refused sheet naming the army and
the rule, a fix and the receipt (page and email), drafts and resubmissions, the organizer's
overview, and a sheet that arrives after the deadline. The demo campaign (turn 1) is the setting:
alice leads Ostland (Empire), whose 1st Army stands in its capitol."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from demo.campaign import DEMO_PASSWORD
from kingdoms.models import Army, Campaign, Kingdom, Province
from orders.models import OrderSheet, OrderSubmission
from orders.services.sheets import order_sheet_context_load
from rulebook.turn.write_orders.targets import SheetTargets, sheet_targets
from turns.models import Turn

from .conftest import Outbox, login, text_of

ALICE_EMAIL = "alice@briternia.local"


@pytest.fixture
def campaign(outbox: Outbox, demo_campaign: Campaign) -> Campaign:
    """The demo campaign, set up after `outbox` so even its invitations stay in tmp_path."""
    return demo_campaign


@pytest.fixture
def ostland(campaign: Campaign) -> Kingdom:
    return Kingdom.objects.get(campaign=campaign, name="Ostland")


@pytest.fixture
def turn(campaign: Campaign) -> Turn:
    return Turn.objects.get(campaign=campaign, number=1)


def _label(p: Province) -> str:
    return f"{p.number} {p.name}"


def _adjacent(a: Province, b: Province) -> bool:
    return a.neighbours.filter(pk=b.pk).exists()


def _plains_steps(start: Province, *, second_adjacent: bool) -> tuple[Province, Province]:
    """A Forced March path from `start` through plains (all the Empire may march through): a free
    plains neighbour, then a plains province the sheet offers as the second step that is (or is
    not) adjacent to the first."""
    neighbours = list(start.neighbours.order_by("number"))
    reach = {n for p in neighbours for n in p.neighbours.all()} - {start}
    for first in neighbours:
        if first.terrain != "plains" or first.controller_id is not None:
            continue
        for second in sorted(reach, key=lambda p: p.number):
            if (
                second.terrain == "plains"
                and second not in (first, start)
                and _adjacent(first, second) is second_adjacent
            ):
                return first, second
    raise AssertionError(f"no such forced march from {_label(start)} on the demo map")


def _open_sheet(page: Page, live_server, campaign: Campaign, username: str = "alice") -> None:
    """Log in, open the campaign from the home page and follow the link to the order sheet."""
    login(page, live_server, username, DEMO_PASSWORD)
    page.get_by_role("link", name=campaign.name).click()
    page.get_by_role("link", name="Your order sheet").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ostland: orders for turn 1")


def _row(page: Page, army: Army) -> Locator:
    return page.locator(f"tr.army-row[data-army='{army.name}']")


def _field(row: Locator, name: str) -> Locator:
    return row.locator(f"select[name$='-{name}']")


def _order(row: Locator, kind: str, *, target: Province | None = None, path: tuple[Province, Province] | None = None):
    """Give the army in `row` an order, choosing its provinces by number."""
    _field(row, "kind").select_option(label=kind)
    if target is not None:
        _field(row, "target").select_option(str(target.number))
    if path is not None:
        _field(row, "path_1").select_option(str(path[0].number))
        _field(row, "path_2").select_option(str(path[1].number))


def _options(select: Locator) -> list[str]:
    return select.locator("option").evaluate_all("options => options.map(o => o.value)")


def _craft(select: Locator, province: Province) -> None:
    """Choose a province the page does not offer, as a crafted request would."""
    select.evaluate(
        "(select, number) => { select.add(new Option('crafted', number)); select.value = number; }",
        str(province.number),
    )


def _targets(kingdom: Kingdom) -> SheetTargets:
    turn = Turn.objects.get(campaign=kingdom.campaign, number=1)
    return sheet_targets(order_sheet_context_load(kingdom=kingdom, turn=turn))


def _arrows(page: Page, kind: str) -> list[str]:
    """The provinces each arrow of `kind` on the map passes through, in the armies' order."""
    return page.locator(f"#order-arrows .arrow-{kind}").evaluate_all(
        "lines => lines.map(l => l.getAttribute('data-provinces'))"
    )


def _submit(page: Page) -> None:
    page.get_by_role("button", name="Submit orders").click()


def _submissions(kingdom: Kingdom) -> list[OrderSubmission]:
    return list(OrderSubmission.objects.filter(sheet__kingdom=kingdom).order_by("id"))


def _receipts(outbox: Outbox, campaign: Campaign) -> list:
    subject = f"{campaign.name}, turn 1: orders received for Ostland"
    return [m for m in outbox.to(ALICE_EMAIL) if m["Subject"] == subject]


def test_player_is_refused_a_non_adjacent_march_fixes_it_and_gets_a_receipt(
    page: Page, live_server, campaign: Campaign, ostland: Kingdom, outbox: Outbox
):
    army = Army.objects.get(kingdom=ostland, name="1st Army")
    here = army.province
    assert here == ostland.capitol
    neighbours = list(here.neighbours.order_by("number"))
    first, far = _plains_steps(here, second_adjacent=False)
    assert not _adjacent(here, far) and not _adjacent(first, far)

    _open_sheet(page, live_server, campaign)
    expect(page.locator("#deadline")).to_contain_text("Nothing filed yet: without orders every army holds.")
    row = _row(page, army)
    expect(row).to_contain_text(f"in {here.number} {here.name}")
    # Only the provinces adjacent to the army are offered as a Move's target.
    offered = _options(_field(row, "target"))
    assert offered == ["", *[str(p.number) for p in neighbours]]

    # A Forced March: its second step offers only what the rules allow from the first (plains, for
    # the Empire, adjacent to the first); one crafted past the page is refused, naming army and rule.
    _order(row, "Forced March")
    _field(row, "path_1").select_option(str(first.number))
    seconds = _options(_field(row, "path_2"))
    legal = _targets(ostland).armies[army.pk].march[first.number]
    assert seconds == ["", *map(str, legal)] and str(far.number) not in seconds
    _craft(_field(row, "path_2"), far)
    _submit(page)
    expected = f"1st Army: {_label(far)} is not adjacent to {_label(first)} (Forced March)."
    expect(page.locator("#sheet-errors")).to_contain_text("The sheet is refused as a whole:")
    expect(page.locator("#sheet-errors li")).to_have_text([expected])
    expect(_row(page, army).locator(".army-error")).to_have_text([expected])
    assert not OrderSheet.objects.filter(kingdom=ostland).exists()
    assert _submissions(ostland) == []

    # A crafted Move into the far province (an option the page never offers): refused too.
    row = _row(page, army)
    _field(row, "kind").select_option(label="Move")
    _craft(_field(row, "target"), far)
    _submit(page)
    expect(page.locator("#sheet-errors li")).to_have_text(
        [f"1st Army: target: Select a valid choice. {far.number} is not one of the available choices."]
    )
    assert _submissions(ostland) == []
    assert _receipts(outbox, campaign) == []

    # Fixed: a Move into an adjacent province is accepted and the receipt lists it.
    _order(_row(page, army), "Move", target=first)
    _submit(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Ostland: orders received for turn 1")
    expect(page.locator("ul.messages li")).to_have_text("Your orders are submitted. A receipt is on its way by email.")
    line = f"1st Army (in {_label(here)}): Move into {_label(first)}"
    expect(page.locator("#receipt-orders li")).to_have_text([line])
    expect(page.locator("#receipt-time")).to_contain_text("from alice")
    (submission,) = _submissions(ostland)
    assert submission.submitted_by.username == "alice"
    assert [(o["army"], o["kind"], o["target"]) for o in submission.entries["orders"]] == [
        (army.pk, "move", first.number)
    ]

    (receipt,) = _receipts(outbox, campaign)
    assert receipt["To"] == ALICE_EMAIL
    assert f"- {line}\n" in text_of(receipt)


def test_move_and_forced_march_for_two_armies(page: Page, live_server, campaign: Campaign, ostland: Kingdom):
    first_army = Army.objects.get(kingdom=ostland, name="1st Army")
    capitol = ostland.capitol
    home = capitol.neighbours.filter(controller=ostland).order_by("number").first()
    second_army = Army.objects.create(
        kingdom=ostland, name="2nd Army", kind=Army.Kind.FIELD, province=home, size=1500, created_turn=0
    )
    step, far = _plains_steps(home, second_adjacent=False)
    _, good = _plains_steps(home, second_adjacent=True)
    move_into = capitol.neighbours.exclude(pk__in=[home.pk, step.pk, good.pk]).filter(controller=None).first()
    assert _adjacent(capitol, move_into)

    _open_sheet(page, live_server, campaign)
    expect(page.locator("tr.army-row")).to_have_count(2)
    row = _row(page, second_army)
    expect(row).to_contain_text(f"in {_label(home)}")
    targets = {name: row.locator(f".{name}") for name in ("t-move", "t-support", "t-fm")}

    # The script shows only the target fields the chosen order uses: "Support the battle in" for a
    # Support, and for a Move or a Forced March only once the player asks to support a battle too
    # (Move and / or Support; a Forced March is a way to move, decision 588).
    also = row.locator("label.t-also-support")
    for kind, shown in [
        ("Hold", set()),
        ("Move", {"t-move"}),
        ("Support", {"t-support"}),
        ("Forced March", {"t-fm"}),
        ("Raze and Move", {"t-move"}),
        ("Hold", set()),
    ]:
        _field(row, "kind").select_option(label=kind)
        (expect(also).to_be_visible if kind in ("Move", "Forced March") else expect(also).to_be_hidden)()
        for name, label in targets.items():
            (expect(label).to_be_visible if name in shown else expect(label).to_be_hidden)()
    _field(row, "kind").select_option(label="Move")
    also.locator("input").check()
    expect(targets["t-support"]).to_be_visible()

    # Each drafted order is drawn on the map as the player writes it.
    _field(row, "kind").select_option(label="Support")
    _field(row, "support").select_option(str(capitol.number))
    assert _arrows(page, "support") == [f"{home.number} {capitol.number}"]
    _order(_row(page, first_army), "Move", target=move_into)
    assert _arrows(page, "move") == [f"{capitol.number} {move_into.number}"]
    _order(row, "Forced March")
    # The box ticked for the Move stays ticked: the Forced March shows the battle it supports.
    expect(targets["t-support"]).to_be_visible()
    assert _arrows(page, "support") == [f"{home.number} {capitol.number}"]
    also.locator("input").uncheck()
    assert _arrows(page, "support") == []  # the hidden support is cleared, never filed by mistake
    _field(row, "path_1").select_option(str(step.number))
    assert _arrows(page, "march") == [f"{home.number} {step.number}"]
    _craft(_field(row, "path_2"), far)
    _submit(page)
    expected = f"2nd Army: {_label(far)} is not adjacent to {_label(step)} (Forced March)."
    expect(page.locator("#sheet-errors li")).to_have_text([expected])
    # The error stands beside its own army; the page keeps what was written, forced march shown.
    expect(_row(page, second_army).locator(".army-error")).to_have_text([expected])
    expect(_row(page, first_army).locator(".army-error")).to_have_count(0)
    expect(_field(_row(page, first_army), "target")).to_have_value(str(move_into.number))
    expect(_row(page, second_army).locator(".t-fm")).to_be_visible()
    expect(_row(page, second_army).locator(".t-move")).to_be_hidden()
    assert _submissions(ostland) == []

    _field(_row(page, second_army), "path_2").select_option(str(good.number))
    assert _arrows(page, "march") == [f"{home.number} {step.number} {good.number}"]
    # The Forced March supports the battle in the capitol as well (decision 588).
    _row(page, second_army).locator("input.also-support").check()
    _field(_row(page, second_army), "support").select_option(str(capitol.number))
    assert _arrows(page, "support") == [f"{home.number} {capitol.number}"]
    _submit(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Ostland: orders received for turn 1")
    expect(page.locator("#receipt-orders li")).to_have_text(
        [
            f"1st Army (in {_label(capitol)}): Move into {_label(move_into)}",
            f"2nd Army (in {_label(home)}): Forced March through {_label(step)} to {_label(good)} and support the "
            f"battle in {_label(capitol)}",
        ]
    )
    (submission,) = _submissions(ostland)
    orders = {o["army"]: (o["kind"], o["target"], o["path"], o["support"]) for o in submission.entries["orders"]}
    assert orders == {
        first_army.pk: ("move", move_into.number, [], None),
        second_army.pk: ("forced-march", None, [step.number, good.number], capitol.number),
    }


def test_draft_submit_and_resubmit_then_the_organizer_overview(
    page: Page, open_page: Callable[[], Page], live_server, campaign: Campaign, ostland: Kingdom, outbox: Outbox
):
    army = Army.objects.get(kingdom=ostland, name="1st Army")
    here = army.province
    first, second = list(here.neighbours.filter(controller=None).order_by("number"))[:2]

    _open_sheet(page, live_server, campaign)
    _order(_row(page, army), "Move", target=first)
    page.get_by_role("button", name="Save draft").click()
    expect(page.locator("ul.messages li")).to_have_text("Draft saved (not submitted).")
    expect(page.locator("#deadline")).to_contain_text("Draft saved, not submitted.")
    expect(_field(_row(page, army), "kind")).to_have_value("move")
    expect(_field(_row(page, army), "target")).to_have_value(str(first.number))
    sheet = OrderSheet.objects.get(kingdom=ostland)
    assert sheet.status == OrderSheet.Status.DRAFT
    assert _submissions(ostland) == []

    _submit(page)
    expect(page.locator("#receipt-orders li")).to_have_text(
        [f"1st Army (in {_label(here)}): Move into {_label(first)}"]
    )

    page.get_by_role("link", name="Change the orders").click()
    expect(page.locator("#deadline")).to_contain_text("Submitted")
    _order(_row(page, army), "Move", target=second)
    _submit(page)
    expect(page.locator("#receipt-orders li")).to_have_text(
        [f"1st Army (in {_label(here)}): Move into {_label(second)}"]
    )
    expect(page.locator("table tr", has_text="alice")).to_have_count(2)  # both submissions listed
    submissions = _submissions(ostland)
    assert [s.entries["orders"][0]["target"] for s in submissions] == [first.number, second.number]
    assert len(_receipts(outbox, campaign)) == 2

    organizer_page = open_page()
    login(organizer_page, live_server, "organizer", DEMO_PASSWORD)
    organizer_page.get_by_role("link", name=campaign.name).click()
    organizer_page.get_by_role("link", name=re.compile(r"^Order sheets")).click()
    expect(organizer_page.get_by_role("heading", level=1)).to_have_text("Turn 1: order sheets")
    cells = organizer_page.locator("#sheets tr", has_text="Ostland").locator("td")
    expect(cells.nth(1)).to_have_text("Submitted")
    expect(cells.nth(3)).to_have_text("2")
    others = [k.name for k in campaign.kingdoms.exclude(pk=ostland.pk).exclude(army_type="ancient-dead").order_by("id")]
    assert len(others) == 3
    expect(organizer_page.locator("#missing")).to_have_text(f"Not submitted yet: {', '.join(others)}.")
    for name in others:
        expect(organizer_page.locator("#sheets tr", has_text=name).locator("td").nth(1)).to_have_text("nothing filed")


def test_a_sheet_after_the_deadline_is_refused(page: Page, live_server, campaign: Campaign, ostland: Kingdom, turn):
    army = Army.objects.get(kingdom=ostland, name="1st Army")
    first, second = list(army.province.neighbours.filter(controller=None).order_by("number"))[:2]
    _open_sheet(page, live_server, campaign)
    _order(_row(page, army), "Move", target=first)
    _submit(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Ostland: orders received for turn 1")
    assert len(_submissions(ostland)) == 1

    past = timezone.now() - dt.timedelta(hours=1)
    Turn.objects.filter(pk=turn.pk).update(orders_deadline=past)
    page.get_by_role("link", name="Change the orders").click()
    expect(page.locator("#deadline-clock .clock-left")).to_have_text("the deadline has passed")
    _order(_row(page, army), "Move", target=second)
    _submit(page)
    local = past.astimezone(ZoneInfo(campaign.time_zone))
    expect(page.locator("#sheet-errors li")).to_have_text(
        [
            re.compile(
                r"This sheet arrived at \d\d:\d\d:\d\d( on \w+day \d+ \w+ \d{4})?, "
                rf"after the deadline of {local:%H:%M:%S} "
                rf"\({local:%A} {local.day} {local:%B %Y}, {campaign.time_zone}\): "
                r"the orders of turn 1 are closed to it\."
            )
        ]
    )
    (submission,) = _submissions(ostland)
    assert submission.entries["orders"][0]["target"] == first.number
    assert OrderSheet.objects.get(kingdom=ostland).entries["orders"][0]["target"] == first.number


def test_on_a_phone_the_map_zooms_and_the_sheet_fits(page: Page, live_server, campaign: Campaign, ostland: Kingdom):
    """At 390 px (a phone) nothing overflows the page sideways, the map stands above the sheet and
    its zoom buttons enlarge it within its frame, and an order is drawn on it as it is chosen."""
    page.set_viewport_size({"width": 390, "height": 844})
    army = Army.objects.get(kingdom=ostland, name="1st Army")
    into = army.province.neighbours.filter(controller=None).order_by("number").first()
    _open_sheet(page, live_server, campaign)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    map_box = page.locator("#sheet-map").bounding_box()
    assert map_box["y"] < page.locator("#order-sheet").bounding_box()["y"]
    width = page.locator("#sheet-map svg").bounding_box()["width"]
    page.get_by_role("button", name="Zoom in").click()
    assert page.locator("#sheet-map svg").bounding_box()["width"] > 1.4 * width
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the frame scrolls, not the page
    _order(_row(page, army), "Move", target=into)
    assert _arrows(page, "move") == [f"{army.province.number} {into.number}"]
