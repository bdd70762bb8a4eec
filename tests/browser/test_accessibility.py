"""Every page a player and the organizer can open, checked by axe-core in real Chromium at a
desktop width and at a phone's 390 px (issue 18, point 10: phones and accessibility).

A page fails on any axe-core violation (unlabelled controls, empty table headers, contrast,
landmarks...) and on horizontal overflow (the page wider than the window, so a phone user must
scroll sideways). axe-core comes from npm at the version pinned in package-lock.json (`make test`
runs `npm ci`); it is each browser context's init script, evaluated as text in every document the
context opens, because the site's Content-Security-Policy refuses injected script tags.

Speed: one browser (the session's), one played demo campaign and one live server for the whole
module, one logged-in browser context per user. pytest-django's `live_server` fixture would flush
the database after every test, so the module runs its own server (pytest-django's LiveServer) on a
campaign built once, and flushes the database itself when the module ends.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.core.management import call_command
from django.test import override_settings
from playwright.sync_api import Browser, Page
from pytest_django.live_server_helper import LiveServer

from demo.campaign import DEMO_PASSWORD, demo_campaign_create
from kingdoms.models import Army, Campaign, Kingdom
from kingdoms.services import campaigns as campaign_services
from kingdoms.services.co_players import co_player_add
from kingdoms.services.invitations import invitation_link
from rulebook.setup.maps import load_default_map
from tests.battle_setup import file_battle_orders, raid_posted
from tests.shared_rows import Layers
from tests.smtp import email_failed_create
from turns.models import Turn
from turns.services.cycle import orders_phase_run

from .conftest import REPORTED, TIMEOUT_MS, login

AXE_JS = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
# The test database must exist for the module's campaign (pytest-django creates it only for tests
# that ask for it); each test's own transaction is empty, as the tests only drive the browser.
pytestmark = pytest.mark.django_db
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
ANONYMOUS = ""  # the pages' user before logging in


@dataclass(frozen=True)
class Site:
    url: str
    paths: dict[str, tuple[str, str]]  # page name -> (username, path)


def _paths(
    played: Campaign, setup: Campaign, fighting: Campaign, invited: AbstractBaseUser
) -> dict[str, tuple[str, str]]:
    """The pages to check, each opened as the user who would open it (alice leads Ostland)."""
    from battles.models import Battle
    from transfer.models import Snapshot

    ostland = Kingdom.objects.get(campaign=played, name="Ostland")
    army = Army.objects.filter(kingdom=ostland).order_by("pk").first()
    assert army is not None
    reported = played.turns.get(number=1)
    current = played.turns.order_by("-number").first()
    assert current is not None
    battle = Battle.objects.filter(turn=reported, province__number=62).get()
    fought = fighting.turns.get(number=1)
    fighting_ostland = Kingdom.objects.get(campaign=fighting, name="Ostland")
    open_battle = Battle.objects.filter(turn=fought, province__number=62).get()
    raid = Battle.objects.filter(turn=fought, mission="tomb-raid").get()
    snapshot = Snapshot.objects.filter(campaign=played, turn_number=reported.number).order_by("pk").first()
    assert snapshot is not None
    return {
        # Before logging in.
        "login": (ANONYMOUS, "/accounts/login/"),
        "password-reset": (ANONYMOUS, "/accounts/password_reset/"),
        # The invitation's set-password link (Django redirects it to its set-password form).
        "set-password": (ANONYMOUS, _invitation_path(invited)),
        "not-found": ("alice", "/no-such-page/"),
        # A player's pages.
        "home": ("alice", "/"),
        "campaign": ("alice", f"/campaigns/{played.pk}/"),
        "kingdom": ("alice", f"/kingdoms/{ostland.pk}/"),
        "army": ("alice", f"/armies/{army.pk}/"),
        "army-list-editor": ("alice", f"/armies/{army.pk}/edit/"),
        "order-sheet": ("alice", f"/turns/{current.pk}/orders/"),
        "past-order-sheet": ("alice", f"/turns/{reported.pk}/orders/"),
        "receipt": ("alice", f"/turns/{reported.pk}/orders/{ostland.pk}/receipt/"),
        "turn-battles": ("alice", f"/turns/{reported.pk}/battles/"),
        "battle": ("alice", f"/battles/{battle.pk}/"),
        "summary-sheet": ("alice", f"/battles/{battle.pk}/sheet/"),
        "turn-results": ("alice", f"/turns/{reported.pk}/results/"),
        "reports": ("alice", "/reports/"),
        "preferences": ("alice", "/account/reports/"),
        "turn-history": ("alice", f"/campaigns/{played.pk}/history/"),
        "stories": ("alice", f"/campaigns/{played.pk}/stories/"),
        # Diplomacy (issue 37): the messages between kingdoms and the form to write one.
        "messages": ("alice", f"/campaigns/{played.pk}/messages/"),
        "api-token": ("alice", "/account/api-token/"),
        "display-name": ("alice", "/account/name/"),
        "scenario-generator": ("alice", "/scenario/"),
        # A scenario rolled, its Deployment Map drawn (an Assault: both zones named).
        "scenario-generator-rolled": ("alice", "/scenario/?terrain=forest&settlement=town&seed=axe"),
        # A turn in its battles phase: the summary sheet to fill in.
        "open-turn-battles": ("alice", f"/turns/{fought.pk}/battles/"),
        "open-battle": ("alice", f"/battles/{open_battle.pk}/"),
        "open-summary-sheet": ("alice", f"/battles/{open_battle.pk}/sheet/"),
        # Issue 31: the kingdom's Tomb Raiders, and the summary sheet of their raid (its result, their losses).
        "tomb-raiders": ("alice", f"/kingdoms/{fighting_ostland.pk}/tomb-raiders/"),
        "raid-summary-sheet": ("alice", f"/battles/{raid.pk}/sheet/"),
        # The organizer's pages.
        "setup-new-campaign": ("organizer", "/campaigns/new/"),
        "setup-invitations": ("organizer", f"/campaigns/{setup.pk}/"),
        # The deadlines form, the pause and the schedule are on the organizer's campaign page.
        "organizer-campaign": ("organizer", f"/campaigns/{played.pk}/"),
        "sheets-overview": ("organizer", f"/turns/{current.pk}/sheets/"),
        "turn-preview": ("organizer", f"/turns/{current.pk}/preview/"),
        "leader": ("organizer", f"/kingdoms/{ostland.pk}/leader/"),
        "deliveries": ("organizer", f"/turns/{reported.pk}/deliveries/"),
        "emails": ("organizer", f"/campaigns/{played.pk}/emails/"),
        "restore": ("organizer", f"/turns/{reported.pk}/snapshots/"),
        "restore-confirm": ("organizer", f"/turns/{reported.pk}/snapshots/{snapshot.pk}/restore/"),
        "organizer-summary-sheet": ("organizer", f"/battles/{battle.pk}/sheet/{ostland.pk}/"),
        "organizer-open-summary-sheet": ("organizer", f"/battles/{open_battle.pk}/sheet/{fighting_ostland.pk}/"),
        "organizer-open-turn-battles": ("organizer", f"/turns/{fought.pk}/battles/"),
        # The organizer's forms on a player's army page (painted, experience).
        "organizer-army": ("organizer", f"/armies/{army.pk}/"),
        # Issue 37: the game master's desk (every army on the map, what is outstanding, a failed
        # email), and the fighting campaign's, whose aftermath failed (the reason, Retry, Restore).
        "desk": ("organizer", f"/campaigns/{played.pk}/desk/"),
        "desk-failed": ("organizer", f"/campaigns/{fighting.pk}/desk/"),
        # Joint kingdoms: the fighting campaign's Ostland has a co-player, who may declare independence.
        "independence": ("organizer", f"/kingdoms/{fighting_ostland.pk}/independence/"),
        # The API's documentation (Swagger UI), linked from the API token page.
        "api-docs": ("alice", "/api/docs/"),
        # The admin a staff organizer opens: its index, a list and objects' forms (a kingdom's with an
        # inline and its players, a province's with its neighbours).
        "admin-index": ("organizer", "/admin/"),
        "admin-changelist": ("organizer", "/admin/kingdoms/kingdom/"),
        "admin-change-form": ("organizer", f"/admin/kingdoms/kingdom/{ostland.pk}/change/"),
        "admin-province-form": ("organizer", f"/admin/kingdoms/province/{ostland.capitol_id}/change/"),
    }


def _tomb_raid_posted(campaign: Campaign) -> None:
    """Ostland's Tomb Raiders, and their raid on a ruin next to its 1st Army posted as a battle of the
    campaign's turn 1 (the row the raid's scheduling writes: a skirmish with mission "tomb-raid")."""
    from kingdoms.models import Province
    from kingdoms.services.tomb_raiders import tomb_raider_force_save
    from rulebook.ruins_and_tomb_raiders.force import Command, RaiderEntry, Role, TroopCategory

    ostland = Kingdom.objects.get(campaign=campaign, name="Ostland")
    army = Army.objects.get(kingdom=ostland, name="1st Army")
    tomb_raider_force_save(
        kingdom=ostland,
        entries=[
            RaiderEntry("Captain Kessler", 1, 23, role=Role.CAPTAIN, command=Command.CHAMPION, unit_type="Swordsmen"),
            RaiderEntry("Lieutenant Vogt", 1, 15, category=TroopCategory.SPECIAL, role=Role.LIEUTENANT),
            RaiderEntry("Swordsmen", 14, 8),
        ],
        saved_by=ostland.players.first(),
    )
    ruin = army.province.neighbours.filter(controller__isnull=True, armies__isnull=True, battles__isnull=True)
    ruin = ruin.order_by("number").first()
    assert ruin is not None
    Province.objects.filter(pk=ruin.pk).update(settlement="ruins")
    raid_posted(campaign.turns.get(number=1), ruin, ostland, army)


def _failures_recorded(played: Campaign, fighting_turn: Turn) -> None:
    """An email of the played campaign that failed, and the fighting campaign's aftermath failed (as
    phase_run records a failure after its transaction rolled back), for the desks' lists."""
    from turns.services.cycle import AFTERMATH_PHASE
    from turns.services.phases import failure_text, phase_failure_record

    email_failed_create(played)
    phase_failure_record(AFTERMATH_PHASE, fighting_turn.pk, failure_text(AFTERMATH_PHASE, OSError("disk full")))


def _invitation_path(user: AbstractBaseUser) -> str:
    """The path of the set-password link the invitation email carries."""
    link = invitation_link(user)
    return link[link.index("/accounts/") :]


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker, browser: Browser, shared_layers: Layers) -> Iterator[Site]:
    """A demo campaign with turn 1 played and reported, a second in its battles phase, and a third
    in setup (its invitations page), served by a live server of the module's own."""
    with django_db_blocker.unblock(), override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
        server = None
        try:
            # The played campaign is the run's shared build, turn 1 played (tests/shared_rows.py; the
            # closed turns' tests take it too), written and committed here; the second demo campaign
            # is built again (the same rows cannot be written twice).
            played = shared_layers.take(REPORTED).campaign
            _letters_written(played)
            setup = campaign_services.campaign_create(
                name="Setup Campaign",
                organizer=played.organizer,
                player_count=2,
                time_zone="Europe/London",
                map_spec=load_default_map(),
            )
            campaign_services.player_invite(
                campaign=setup, email="alice@briternia.local", kingdom_name="Middenland", army_type="empire"
            )
            # A newcomer (no account yet), whose invitation links to the set-password page.
            newcomer = campaign_services.player_invite(
                campaign=setup, email="newcomer@briternia.local", kingdom_name="Nordland", army_type="empire"
            ).players.get()
            # A second demo campaign whose turn 1 is resolved into battles, awaiting their sheets.
            fighting = demo_campaign_create()
            fighting_turn = fighting.turns.get(number=1)
            file_battle_orders(fighting, fighting_turn)
            assert orders_phase_run(turn_id=fighting_turn.pk).resolved
            co_player_add(kingdom=fighting.kingdoms.get(name="Ostland"), email="erin@briternia.local")
            _tomb_raid_posted(fighting)
            _failures_recorded(played, fighting_turn)
            paths = _paths(played, setup, fighting, newcomer)
            server = LiveServer("localhost")
            yield Site(url=server.url, paths=paths)
        finally:
            if server is not None:
                server.stop()
                # Chromium may keep a connection to this server alive after its pages are closed; the
                # request thread serving it ends minutes later and closes the thread's connections. With
                # in-memory SQLite its connection is the main thread's, which stop() no longer shares:
                # that close raised in whichever test ran then (CI, stop 40). Sharing it for the rest of
                # the run lets that late close pass (an in-memory database ignores a close).
                for connection in server.thread.connections_override.values():
                    connection.inc_thread_sharing()
            call_command("flush", interactive=False, verbosity=0)


def _letters_written(campaign: Campaign) -> None:
    """Diplomacy: a letter between kingdoms and the organizer's announcement, for the messages page."""
    from diplomacy.services.messages import message_send

    alice = campaign.kingdoms.get(name="Ostland").players.get()
    message_send(
        campaign=campaign,
        sender=alice,
        kingdom=campaign.kingdoms.get(name="Ostland"),
        to=[campaign.kingdoms.get(name="Tor Anlec").pk],
        text="Shall we share the pass?\nOur scouts saw orcs.",
    )
    message_send(
        campaign=campaign, sender=campaign.organizer, kingdom=None, to=[], text="No games Tuesday.", announcement=True
    )


@pytest.fixture(scope="module")
def pages(site: Site, browser: Browser, axe_js: str) -> Iterator[dict[str, Page]]:
    """One logged-in page per user, shared by the module's tests.

    axe-core is each context's init script: Chromium evaluates it in every document it opens, from
    its own compiled copy, before the page's scripts. Evaluated by each test instead, its 500 KB
    crossed from Python through Playwright's driver into the page at every test (about 0.08 s of
    wall time and 0.05 s of CPU a page, on 107 pages)."""
    opened: dict[str, Page] = {}
    for username in {user for user, _ in site.paths.values()}:
        context = browser.new_context()
        context.set_default_timeout(TIMEOUT_MS)
        context.add_init_script(script=axe_js)
        page = context.new_page()
        if username != ANONYMOUS:
            login(page, site, username, DEMO_PASSWORD)
        opened[username] = page
    yield opened
    for page in opened.values():
        page.context.close()


@pytest.fixture(scope="module")
def axe_js() -> str:
    """axe-core's script, as npm installed it (`npm ci` at the repository root; `make test` does)."""
    if not AXE_JS.exists():
        reason = f"axe-core is not installed at {AXE_JS}: run `npm ci` at the repository root."
        if os.environ.get("BRITERNIA_REQUIRE_BROWSER") == "1":
            pytest.fail(f"BRITERNIA_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    return AXE_JS.read_text()


# Third-party markup the site cannot change, left out of one axe-core rule each by selector (never a
# whole rule, never a whole page): page name -> (rule, selector). docs/architecture.md, "Phones and
# accessibility". Swagger UI (the API docs) draws these itself, in its script:
THIRD_PARTY: dict[str, list[tuple[str, str]]] = {
    "api-docs": [
        # nested-interactive: each operation's summary is a <button> (expand) holding Swagger UI's
        # own focusable controls (copy the path, the lock of its authorization).
        ("nested-interactive", ".opblock-summary-control"),
        # heading-order: the operation groups are <h3> under Swagger UI's <h1> title (no <h2>).
        ("heading-order", "h3.opblock-tag"),
        # region: the title block (.information-container) stands outside Swagger UI's own <main>;
        # wrapping it in a landmark would nest that <main> in another.
        ("region", ".information-container"),
    ],
}


def _violations(page: Page, axe_js: str, excluded: Sequence[tuple[str, str]] = ()) -> list[str]:
    """axe-core's violations on the page, one line each: rule, impact, and the first elements; an
    element matching an `excluded` (rule, selector) pair is left out of that rule only."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):  # the context's init script defines it
        page.evaluate(axe_js)
    result = page.evaluate(
        """async (excluded) => {
            const result = await axe.run(document, {resultTypes: ['violations']});
            for (const violation of result.violations) {
                violation.nodes = violation.nodes.filter((node) => !excluded.some(([rule, selector]) =>
                    rule === violation.id && document.querySelector(node.target[0])?.matches(selector)));
            }
            return result;
        }""",
        list(excluded),
    )
    lines = []
    for violation in result["violations"]:
        targets = [" ".join(node["target"]) for node in violation["nodes"]]
        if targets:
            lines.append(
                f"{violation['id']} ({violation['impact']}, {len(targets)}): {violation['help']}: {targets[:5]}"
            )
    return lines


PAGE_NAMES = [
    "login",
    "password-reset",
    "set-password",
    "not-found",
    "home",
    "campaign",
    "kingdom",
    "army",
    "army-list-editor",
    "order-sheet",
    "past-order-sheet",
    "receipt",
    "turn-battles",
    "battle",
    "summary-sheet",
    "open-turn-battles",
    "open-battle",
    "open-summary-sheet",
    "tomb-raiders",
    "raid-summary-sheet",
    "turn-results",
    "reports",
    "preferences",
    "turn-history",
    "stories",
    "messages",
    "api-token",
    "display-name",
    "scenario-generator",
    "scenario-generator-rolled",
    "setup-new-campaign",
    "setup-invitations",
    "organizer-campaign",
    "sheets-overview",
    "turn-preview",
    "leader",
    "deliveries",
    "emails",
    "restore",
    "restore-confirm",
    "organizer-summary-sheet",
    "organizer-open-summary-sheet",
    "organizer-open-turn-battles",
    "organizer-army",
    "desk",
    "desk-failed",
    "independence",
    "api-docs",
    "admin-index",
    "admin-changelist",
    "admin-change-form",
    "admin-province-form",
]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("name", PAGE_NAMES)
def test_page_has_no_accessibility_violation_and_fits_the_screen(
    axe_js: str, site: Site, pages: dict[str, Page], name: str, viewport: dict[str, int]
) -> None:
    username, path = site.paths[name]
    page = pages[username]
    page.set_viewport_size(viewport)
    response = page.goto(f"{site.url}{path}")
    expected = 404 if name == "not-found" else 200
    assert response is not None and response.status == expected, f"{path} answered {response and response.status}"
    if name == "set-password":  # the form itself, not the page saying the link is no longer valid
        assert page.locator("input[name=new_password1]").count() == 1, "the invitation's link showed no password form"
    if name == "api-docs":  # Swagger UI draws the operations once it has fetched the schema
        page.locator(".opblock").first.wait_for()
    problems = _violations(page, axe_js, THIRD_PARTY.get(name, []))
    scroll_width, inner_width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if scroll_width > inner_width:
        problems.append(f"horizontal overflow: the page is {scroll_width} px wide in a {inner_width} px window")
    assert not problems, f"{name} ({path}) at {viewport['width']} px:\n" + "\n".join(problems)


def test_every_page_is_checked(site: Site) -> None:
    assert sorted(PAGE_NAMES) == sorted(site.paths)


def test_the_map_fits_a_phone_and_may_be_zoomed(site: Site, pages: dict[str, Page]) -> None:
    """At 390 px the campaign map shrinks to the screen (its SVG scales with its viewBox), the page
    lets the player pinch-zoom (no user-scalable=no or maximum-scale in the viewport meta), and a
    link opens the map full size on its own."""
    page = pages["alice"]
    page.set_viewport_size(PHONE)
    page.goto(f"{site.url}{site.paths['campaign'][1]}")
    viewport_meta = page.locator("meta[name=viewport]").get_attribute("content") or ""
    assert "width=device-width" in viewport_meta
    assert "user-scalable" not in viewport_meta and "maximum-scale" not in viewport_meta
    map_svg = page.locator("#campaign-map svg")
    assert map_svg.get_attribute("viewBox")
    box = map_svg.bounding_box()
    assert box is not None and box["x"] > 0 and box["x"] + box["width"] <= PHONE["width"]
    full_size = page.get_by_role("link", name="The map full size")
    response = page.request.get(f"{site.url}{full_size.get_attribute('href')}")
    assert response.status == 200 and response.headers["content-type"].startswith("image/svg+xml")


def test_the_league_table_and_the_turn_s_map_fit_a_phone(site: Site, pages: dict[str, Page]) -> None:
    """Issue 18, what would delight them: at 390 px the campaign page's league table (named by its
    caption, gold as a band: decision 341) stays inside the screen, scrolling in its own box, and the
    turn's results page draws the battles Ostland fought on the turn's map (decision 340)."""
    page = pages["alice"]
    page.set_viewport_size(PHONE)
    page.goto(f"{site.url}{site.paths['campaign'][1]}")
    league = page.get_by_role("table", name=re.compile("lands, battles won, gold as a rank band"))
    box = league.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert league.get_by_role("rowheader", name="Ostland").is_visible()
    bands = league.locator("tbody tr td:nth-of-type(5)").all_inner_texts()
    assert bands and set(bands) <= {"richest third", "middle", "poorest third", "-"}
    page.goto(f"{site.url}{site.paths['turn-results'][1]}")
    turn_map = page.locator("#turn-map svg")
    box = turn_map.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"]
    assert turn_map.locator("g.battle").count() >= 1
