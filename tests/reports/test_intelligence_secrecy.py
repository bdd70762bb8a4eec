"""Issue 32's last "Done when": no page, API response, PDF or email lets the target or a third kingdom read
what a spy learned. Ostland's Tomb Raiders succeed at a Treasury Info Reconnaissance against Da Red Fang
(bob); every route of the site is opened by bob and by carol (Karak Dumn, a third kingdom), naming the
spy's, the target's and the third kingdom (and their turn reports' PDFs) and the mission's battle, and
every email they were sent is read (an email's PDF is the report the site keeps): none holds what was
learned. The spy's own page and report do (the control). Rulebook: Reconnaissance; decisions 462, 463
and 478."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from django.urls import get_resolver
from pypdf import PdfReader
from rest_framework.test import APIClient

from battles.models import Battle
from briternia.pdf import pdf_render
from kernel.event_codes import EventCode
from kingdoms.models import Army, Kingdom, MissionEffect
from outbox.models import Email
from reports.models import TurnReport
from reports.services.reports import kingdom_report_context
from tests.briternia.test_route_access import ROUTES, _routes, _url, world  # noqa: F401 (the fixture)
from tests.clients import user_named
from tests.reports.test_intelligence import _mission
from turns.models import Turn, TurnEvent
from turns.services.cycle import aftermath_phase_run, orders_phase_run

pytestmark = pytest.mark.django_db


def _text(body: bytes, content_type: str) -> str:
    if content_type.startswith("application/pdf"):
        return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)
    return body.decode(errors="replace")


def _pages_read(user, variants: list[dict]) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """Every GET route of the site (not the admin's) at each of `variants`' ids, as `user` reads it: each
    page that answers 200, with its text (a PDF's read back)."""
    pages = []
    for name, path in _routes(get_resolver().url_patterns):
        if name.startswith("admin:") or ROUTES[name][0] != "GET":
            continue
        for url in sorted({_url(path, ids) for ids in variants}):
            client = APIClient() if path.startswith("api/") else Client()
            client.force_login(user)
            response = client.get(url)
            if response.status_code != 200 or getattr(response, "streaming", False):
                continue
            pages.append((url, _text(response.content, response.get("Content-Type", ""))))
    return pages


def _emails_read(user, campaign) -> list[tuple[str, str, bool]]:  # type: ignore[no-untyped-def]
    """Each email of the campaign sent to `user`: its subject, its texts with its PDF's read back, and
    whether it had a PDF."""
    read = []
    for email in (e for e in Email.objects.filter(campaign=campaign) if user.email in e.to):
        texts = [email.subject, email.text, email.html]
        pdf = bool(email.attachment) and email.attachment_type == "application/pdf"
        if pdf:
            texts.append(_text(bytes(email.attachment), email.attachment_type))
        read.append((email.subject, "".join(texts), pdf))
    return read


def test_neither_the_target_nor_a_third_kingdom_reads_what_the_spy_learned(world, django_capture_on_commit_callbacks):  # noqa: F811
    turn = Turn.objects.get(pk=world["turn_id"])
    ostland = Kingdom.objects.get(pk=world["kingdom_id"])
    fang = Kingdom.objects.get(campaign=turn.campaign, name="Da Red Fang")
    Battle.objects.filter(turn=turn).update(ruling_result="draw")
    mission = _mission(turn, ostland, fang, "reconnaissance", "treasury-info", "minor-victory")
    with django_capture_on_commit_callbacks(execute=True):
        assert aftermath_phase_run(turn_id=turn.pk).resolved
    (intel,) = TurnEvent.objects.filter(turn=turn, code=EventCode.INTELLIGENCE)
    treasury = intel.data["info"]["treasury"]
    # What only the spy may read: the mission's name and the figure its raiders brought back.
    secrets = ("Treasury Info", f"Treasury: {treasury:,} gold")

    spy = Client()
    spy.force_login(user_named("alice"))
    own = spy.get(f"/kingdoms/{ostland.pk}/intelligence/").content.decode()
    assert all(secret in own for secret in secrets)  # the control: the spy reads it, on its page

    # Each kingdom's turn report PDF (an email's attachment is the report the site keeps: outbox/services.py).
    reports = dict(TurnReport.objects.filter(turn=turn, kingdom__isnull=False).values_list("kingdom_id", "pk"))
    variants = [
        {**world, "kingdom_id": kingdom, "battle_id": battle, "report_id": reports[kingdom]}
        for kingdom in (ostland.pk, fang.pk, Kingdom.objects.get(campaign=turn.campaign, name="Karak Dumn").pk)
        for battle in (mission.pk, world["battle_id"])
    ]
    leaks = []
    read: dict[str, set[str]] = {"bob": set(), "carol": set()}  # what each opened: urls, and "pdf email"
    for username in ("bob", "carol"):
        user = user_named(username)
        for url, text in _pages_read(user, variants):
            read[username].add(url)
            leaks += [f"{username}: {url} shows {secret!r}" for secret in secrets if secret in text]
        for subject, text, pdf in _emails_read(user, turn.campaign):
            if pdf:
                read[username].add("pdf email")
            leaks += [f"{username}: email {subject!r} shows {secret!r}" for secret in secrets if secret in text]
    # The sweep opened the site, not a handful of pages: each its own report's PDF (the target's tells it
    # raiders came) and the mission's battle page for the target.
    assert len(read["bob"]) > 30 and len(read["carol"]) > 30
    assert f"/reports/{reports[fang.pk]}/" in read["bob"]
    karak = Kingdom.objects.get(campaign=turn.campaign, name="Karak Dumn")
    assert f"/reports/{reports[karak.pk]}/" in read["carol"]
    assert f"/battles/{mission.pk}/" in read["bob"]
    # ... and in its report's PDF, by the same route.
    pdf = spy.get(f"/reports/{reports[ostland.pk]}/")
    assert "Treasury Info" in _text(pdf.content, pdf["Content-Type"])
    assert leaks == []


@pytest.mark.long
def test_an_army_list_awaited_then_delivered_is_read_by_the_spy_alone(world, django_capture_on_commit_callbacks):  # noqa: F811
    """Decisions 562-564, end to end through the phases: Ostland's Army Statistics succeeds against Da Red
    Fang's army while its list is due (turn 1's aftermath: its points, and an effect awaiting the list);
    bob writes the list; turn 2's resolution delivers it to Ostland. Every route of the site opened by bob
    (the target) and carol (Karak Dumn, a third kingdom), turn 2's reports of their kingdoms, and every
    email they were sent: none holds what the spy learned. The spy's page and report do (the control)."""
    turn = Turn.objects.get(pk=world["turn_id"])
    ostland = Kingdom.objects.get(pk=world["kingdom_id"])
    fang = Kingdom.objects.get(campaign=turn.campaign, name="Da Red Fang")
    karak = Kingdom.objects.get(campaign=turn.campaign, name="Karak Dumn")
    army = fang.armies.filter(kind="field", status="active").order_by("id").first()
    Army.objects.filter(pk=army.pk).update(list_due=True)
    Battle.objects.filter(turn=turn).update(ruling_result="draw")
    mission = _mission(turn, ostland, fang, "reconnaissance", "army-statistics", "minor-victory", target_army=army.pk)
    with django_capture_on_commit_callbacks(execute=True):
        assert aftermath_phase_run(turn_id=turn.pk).resolved
    (effect,) = MissionEffect.objects.filter(kingdom=ostland, status="pending")
    assert (effect.mission, effect.target_army_id, effect.data["list_awaited"]) == ("army-statistics", army.pk, True)

    Army.objects.filter(pk=army.pk).update(list_due=False)  # bob writes the list
    following = Turn.objects.get(campaign=turn.campaign, number=2)
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_phase_run(turn_id=following.pk).resolved
    effect.refresh_from_db()
    assert (effect.status, effect.used_turn) == ("used", 2)
    (intel,) = TurnEvent.objects.filter(turn=following, code=EventCode.INTELLIGENCE)
    assert intel.kingdom_id == ostland.pk and intel.data["info"]["units"]
    # What only the spy may read: the delivery as its page and report print it, and its event's words.
    secrets = (f"Army Statistics: {fang.name}", "(no character info)", f"the list of {army.name} (")

    spy = Client()
    spy.force_login(user_named("alice"))
    own = spy.get(f"/kingdoms/{ostland.pk}/intelligence/").content.decode()
    assert all(secret in own for secret in secrets[:2])  # the control
    assert intel.data["info"]["units"][0]["name"] in own and secrets[2] in intel.text
    spy_report = _text(
        pdf_render("reports/kingdom_report.html", kingdom_report_context(turn=following, kingdom=ostland)),
        "application/pdf",
    )
    assert all(secret in " ".join(spy_report.split()) for secret in secrets[:2])

    reports = dict(TurnReport.objects.filter(turn=turn, kingdom__isnull=False).values_list("kingdom_id", "pk"))
    variants = [
        {**world, "turn_id": turn_id, "kingdom_id": kingdom, "battle_id": battle, "report_id": reports[kingdom]}
        for turn_id in (turn.pk, following.pk)
        for kingdom in (ostland.pk, fang.pk, karak.pk)
        for battle in (mission.pk, world["battle_id"])
    ]
    leaks = []
    opened: dict[str, int] = {"bob": 0, "carol": 0}
    for username, kingdom in (("bob", fang), ("carol", karak)):
        user = user_named(username)
        report = _text(
            pdf_render("reports/kingdom_report.html", kingdom_report_context(turn=following, kingdom=kingdom)),
            "application/pdf",
        )
        leaks += [f"{username}: turn 2's report shows {s!r}" for s in secrets if s in " ".join(report.split())]
        for url, text in _pages_read(user, variants):
            opened[username] += 1
            leaks += [f"{username}: {url} shows {secret!r}" for secret in secrets if secret in text]
        for subject, text, _ in _emails_read(user, turn.campaign):
            leaks += [f"{username}: email {subject!r} shows {s!r}" for s in secrets if s in text]
    assert opened["bob"] > 30 and opened["carol"] > 30
    assert leaks == []
