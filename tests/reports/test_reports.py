"""Turn reports (orders/services/reports.py, deliveries.py, tasks): a private PDF per kingdom and
the public bulletin, rendered after the aftermath from the stored rows, read back as text; emails
claimed, retried on temporary SMTP errors against a real local SMTP server, never sent twice;
the pages of the history and the reports, each answering 404 to those who may not read it.
Rulebook: Appendix, Campaign Schedule ("Turn results and map will be posted via email")."""

from __future__ import annotations

import datetime as dt
import io
import time

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db.models import Sum
from django.test import Client
from freezegun import freeze_time
from pypdf import PdfReader

from battles.models import Battle
from kernel.event_codes import EventCode
from kingdoms.models import Campaign, Character, Kingdom, ReportPreferences, TreasuryEntry
from orders.services.sheets import order_sheet_save
from outbox.services import EMAIL_TRIES
from outbox.tasks import email_send
from reports.models import ReportEmail, TurnMap, TurnReport
from reports.services.deliveries import report_emails_queue
from reports.services.reports import report_render, reports_to_render, turn_reports_create
from rulebook.turn.aftermath.injury_chart import ARM, Injury
from rulebook.turn.write_orders.records import ArmyOrder, OrderKind, SheetEntries
from tests.battle_setup import file_battle_orders, sheet_filed
from tests.conftest import DEMO, needs_broker
from tests.shared_rows import Layer
from tests.smtp import send_as_the_worker_would
from turns.models import Turn, TurnEvent
from turns.services.cycle import aftermath_phase_run, orders_phase_run
from turns.tasks import deadline_sweep


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def client_for(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def report_of(turn, kingdom=None) -> TurnReport:
    kind = TurnReport.Kind.KINGDOM if kingdom else TurnReport.Kind.BULLETIN
    return TurnReport.objects.get(turn=turn, kingdom=kingdom, kind=kind)


def play_the_turn_with(
    turn: Turn, kingdom: Kingdom, orders: list[ArmyOrder], capture, *, rendered: list[Kingdom | None]
) -> None:
    """The kingdom files these orders (the others file none), the turn is resolved, it has no
    battles, and its aftermath ends it; of its reports, those `rendered` reads (a kingdom's, or None
    for the bulletin) are rendered. Rendering every report and sending them (their emails are
    tested on `reported`) cost about 2 s a test that reads one."""
    order_sheet_save(
        kingdom=kingdom,
        turn=turn,
        entries=SheetEntries(orders=tuple(orders)),
        submitted_by=kingdom.players.first() or turn.campaign.organizer,
        submit=True,
        arrived_at=turn.orders_deadline - dt.timedelta(days=1),
    )
    aftermath_with_reports(turn, capture, rendered=rendered)


def aftermath_with_reports(turn: Turn, capture, *, rendered: list[Kingdom | None]) -> None:
    """The turn's orders phase and aftermath, their on-commit work (rendering and sending) left
    out, then the reports of `rendered` rendered, as the render task does."""
    with capture(execute=False):
        assert orders_phase_run(turn_id=turn.pk).resolved
    with capture(execute=False):
        assert aftermath_phase_run(turn_id=turn.pk).resolved
    for reader in rendered:
        assert report_render(report_id=report_of(turn, reader).pk)


def reports_made_and_rendered(turn: Turn, readers: list[Kingdom | None]) -> None:
    """What the end of a turn does (the aftermath's transaction, then the render tasks), for the
    reports of `readers` (a kingdom's, None for the bulletin): the ones the test reads (each
    report rendered costs about half a second)."""
    turn_reports_create(turn=turn)
    wanted = {report_of(turn, reader).pk for reader in readers}
    for report_id in reports_to_render(turn=turn):
        if report_id in wanted:
            assert report_render(report_id=report_id)


def test_every_kingdom_gets_its_own_report_and_every_player_the_bulletin(reported, k):
    reports = TurnReport.objects.filter(turn=reported, status=TurnReport.Status.READY).exclude(kind="scenario")
    assert reports.count() == len(k) + 1
    assert TurnMap.objects.filter(turn=reported).exists()
    to_alice = sorted(m.subject for m in mail.outbox if m.to == ["alice@briternia.local"])
    assert to_alice == [
        "Demo: The Awakening of the Ancients, turn 1: Ostland's turn report",
        "Demo: The Awakening of the Ancients, turn 1: the bulletin",
    ]
    ostland_mail = next(m for m in mail.outbox if m.subject.endswith("Ostland's turn report"))
    name, content, mimetype = ostland_mail.attachments[0]
    assert (name, mimetype) == ("turn1-Ostland.pdf", "application/pdf")
    assert content == bytes(report_of(reported, k["Ostland"]).pdf)
    # The Ancient Dead have no players: the organizer reads their report.
    assert any(
        m.subject.endswith("The Ancient Dead's turn report") and m.to == ["organizer@briternia.local"]
        for m in mail.outbox
    )
    turn_emails = ReportEmail.objects.filter(report__turn=reported).exclude(report__kind=TurnReport.Kind.SCENARIO)
    assert turn_emails.filter(status=ReportEmail.Status.SENT).count() == len(mail.outbox) == turn_emails.count()


def test_the_report_email_says_where_to_write_the_next_orders_in_both_parts(reported, k, settings):
    """Issue 18 (every player learns what to do next from their inbox): the turn report's email
    links to the campaign page, where the next order sheet is, in its HTML part as in its text."""
    message = next(m for m in mail.outbox if m.subject.endswith("Ostland's turn report"))
    link = f"{settings.SITE_URL}/campaigns/{k['Ostland'].campaign_id}/"
    assert "Orders for turn 2 are due by" in message.body and link in message.body
    (html,) = [content for content, mimetype in message.alternatives if mimetype == "text/html"]
    assert f'<a href="{link}">write them from the campaign page</a>' in html


def test_the_report_emails_say_in_a_line_what_happened(reported, k):
    """Issue 37: the email carries a line of what happened, not only the PDF and a link: Ostland's
    its battles won and lost, its provinces and its treasury with the turn's change (read from the
    ledger); the bulletin's the battles fought and the provinces that changed hands."""
    from django.db.models import Sum

    from kingdoms.models import TreasuryEntry

    ostland = k["Ostland"]
    message = next(m for m in mail.outbox if m.subject.endswith("Ostland's turn report"))
    change = TreasuryEntry.objects.filter(kingdom=ostland, turn=1).aggregate(total=Sum("amount"))["total"]
    balance = TreasuryEntry.objects.filter(kingdom=ostland, turn__lte=1).aggregate(total=Sum("amount"))["total"]
    line = f"treasury {balance:,} gold ({change:+,} this turn)."
    assert "Ostland in turn 1: 2 battles (" in message.body and line in message.body
    (html,) = [content for content, mimetype in message.alternatives if mimetype == "text/html"]
    assert "Ostland in turn 1: 2 battles (" in html
    bulletin = next(m for m in mail.outbox if "bulletin" in m.subject.lower())
    assert "Turn 1: 2 battles fought;" in bulletin.body


def test_the_report_says_who_filed_the_orders_by_the_name_the_players_see(
    demo_campaign, k, django_capture_on_commit_callbacks
):
    """Issue 18, point 2 (a display name, never the address): the private report names who
    submitted the orders that resolved as the site names them, as the receipt does. The
    walk-through found an invited player's login, their email address, there."""
    alice = get_user_model().objects.get(username="alice")
    alice.username, alice.first_name = alice.email, "Alice of the Marches"  # an invited player logs in by address
    alice.save(update_fields=["username", "first_name"])
    turn = demo_campaign.turns.get(number=1)
    play_the_turn_with(turn, k["Ostland"], [], django_capture_on_commit_callbacks, rendered=[k["Ostland"]])
    text = " ".join(pdf_text(bytes(report_of(turn, k["Ostland"]).pdf)).split())
    assert "from Alice of the Marches" in text
    assert alice.email not in text


def test_the_report_holds_the_kingdom_s_ledger_orders_battles_and_deadlines(reported, k):
    ostland = k["Ostland"]
    text = pdf_text(bytes(report_of(reported, ostland).pdf))
    opening = TreasuryEntry.objects.filter(kingdom=ostland, turn__lt=1).aggregate(t=Sum("amount"))["t"]
    closing = TreasuryEntry.objects.filter(kingdom=ostland).aggregate(t=Sum("amount"))["t"]
    assert f"Opening balance {opening}" in text.replace("\n", " ")
    assert f"Closing balance {closing}" in text.replace("\n", " ")
    flat = " ".join(text.split())
    for entry in TreasuryEntry.objects.filter(kingdom=ostland, turn=1):
        # Each ledger row: why, then the gold; the reason is said once ("Taxes: 2 cities ...").
        assert f"{entry.description} {entry.amount:+d}" in flat, entry
        assert f"{entry.get_reason_display()}: {entry.get_reason_display()}" not in flat
    assert "Wardens" in text and "62 Hartwood" in text and "61 Eldenhall" in text
    assert "Minor victory" in text  # the Raiders' result in Hartwood, read from the attacker's side
    assert "rolls" in text and "Casualty Recovery" in text  # the aftermath's recovery roll
    assert "Wardens gains 50 experience for the minor loss in 62 Hartwood" in flat  # experience gained
    assert "orders for turn 2 are due by" in text.replace("\n", " ")
    assert "Demo: The Awakening of the Ancients · Turn 1 · Ostland" in text  # the running header
    first_page = PdfReader(io.BytesIO(bytes(report_of(reported, ostland).pdf))).pages[0]
    assert len(first_page.images) == 1  # the map, under its own armies' flags
    assert "1st Army" in first_page.extract_text()  # a flag of the overlay, on page 1 with the map
    assert "Page 1 of" in text


def _structure(content: bytes) -> tuple[dict, list[tuple[str, str | None]]]:  # type: ignore[type-arg]
    """A PDF's catalog and its tagged structure as (role, alternative text) in reading order."""
    root = PdfReader(io.BytesIO(content)).trailer["/Root"]

    def walk(node):  # type: ignore[no-untyped-def]
        node = node.get_object()
        if isinstance(node, list):
            for child in node:
                yield from walk(child)
        elif hasattr(node, "get") and "/S" in node:
            yield str(node["/S"]), (str(node["/Alt"]) if "/Alt" in node else None)
            if "/K" in node:
                yield from walk(node["/K"])

    return root, list(walk(root["/StructTreeRoot"]["/K"])) if "/StructTreeRoot" in root else []


def test_the_reports_are_tagged_pdfs_a_screen_reader_can_follow(reported, k):
    """Issue 18, point 10 (phones and access), for the PDFs everyone receives: the report and the
    bulletin carry their language, their headings and tables as structure, and words for every
    picture (the map, and the overlay of the kingdom's armies and moves)."""
    for report in (report_of(reported, k["Ostland"]), report_of(reported)):
        root, structure = _structure(bytes(report.pdf))
        assert bool(root["/MarkInfo"]["/Marked"]) and root["/Lang"] == "en"
        roles = [role for role, _ in structure]
        assert roles.count("/H1") == 1 and "/H2" in roles, report
        assert "/Table" in roles and "/TH" in roles and "/TD" in roles, report
        figures = [alt for role, alt in structure if role == "/Figure"]
        assert figures and all(figures), (report, figures)
        assert "The map" in figures
    _, structure = _structure(bytes(report_of(reported, k["Ostland"]).pdf))
    assert any(alt and alt.endswith(": the armies and their moves") for _, alt in structure)


def test_no_report_shows_another_kingdom_s_private_data(reported, k):
    # The army named "Raiders" is the secret, not the words "Tomb Raiders" (every kingdom's own section).
    carol = pdf_text(bytes(report_of(reported, k["Karak Dumn"]).pdf)).replace("Tomb Raider", "Tomb-raider")
    for secret in ("Wardens", "Raiders", "Boyz", "Halberdiers", "Tor Anlec: ", "Casualty Recovery"):
        assert secret not in carol, secret
    # Ostland fought both battles: it reads its opponents' army names (the battle reveals them),
    # never their gold, rolls or aftermath: Tor Anlec's victory gold, the Raiders' experience, the
    # Boyz' retreat and recovery, each of which the turn's events hold.
    alice = " ".join(pdf_text(bytes(report_of(reported, k["Ostland"]).pdf)).split())
    assert "Boyz" in alice and "Raiders" in alice
    others = " ".join(
        TurnEvent.objects.filter(turn=reported).exclude(kingdom=k["Ostland"]).values_list("text", flat=True)
    )
    for secret in ("Victory gold for the minor victory in 62 Hartwood", "Raiders gains", "Boyz retreats", "Spearmen"):
        assert secret in others, secret
        assert secret not in alice, alice[max(0, alice.find(secret) - 300) :][:500]
    fang = TreasuryEntry.objects.filter(kingdom=k["Da Red Fang"]).aggregate(t=Sum("amount"))["t"]
    assert f"Closing balance {fang}" not in alice
    bulletin = pdf_text(bytes(report_of(reported).pdf))
    assert "62 Hartwood" in bulletin and "Tor Anlec" in bulletin  # a battle is public
    for secret in ("Wardens", "Raiders", "Boyz", "1st Army", "gold", "Halberdiers"):
        assert secret not in bulletin, secret
    assert "Karak Dumn filed no orders" in bulletin.replace("\n", " ")


def test_a_report_is_read_by_its_kingdom_and_the_organizer_only(reported, k, make_user):
    ostland, bulletin = report_of(reported, k["Ostland"]), report_of(reported)
    assert client_for("alice").get(f"/reports/{ostland.pk}/")["Content-Type"] == "application/pdf"
    assert client_for("organizer").get(f"/reports/{ostland.pk}/").status_code == 200
    assert client_for("dave").get(f"/reports/{ostland.pk}/").status_code == 404
    assert client_for("carol").get(f"/reports/{bulletin.pk}/").status_code == 200
    make_user("stranger")
    assert client_for("stranger").get(f"/reports/{bulletin.pk}/").status_code == 404
    history = client_for("alice").get(f"/campaigns/{reported.campaign_id}/history/").content.decode()
    assert f"/reports/{ostland.pk}/" in history and f"/reports/{bulletin.pk}/" in history
    assert f"/reports/{report_of(reported, k['Tor Anlec']).pk}/" not in history
    assert "<svg" in history  # the public map of turn 1
    assert client_for("alice").get(f"/turns/{reported.pk}/deliveries/").status_code == 404
    assert "alice@briternia.local" in client_for("organizer").get(f"/turns/{reported.pk}/deliveries/").content.decode()


def test_a_player_may_take_a_link_instead_and_choose_the_address(demo_campaign, k, django_capture_on_commit_callbacks):
    alice = get_user_model().objects.get(username="alice")
    ReportPreferences.objects.create(user=alice, report_email="alice@home.example", attach_pdf=False)
    turn = demo_campaign.turns.get(number=1)
    turn.status = Turn.Status.REPORTED
    turn.save()
    reports_made_and_rendered(turn, [k["Ostland"]])
    report = report_of(turn, k["Ostland"])
    mail.outbox.clear()
    for email_id in report_emails_queue(report=report):
        email_send.delay(email_id=email_id)
    (message,) = mail.outbox
    assert message.to == ["alice@home.example"] and message.attachments == []
    assert f"/reports/{report.pk}/" in message.body


def _one_email_build(campaign: Campaign, capture) -> ReportEmail:
    """Ostland's report of a (quiet) turn 1, rendered, with its one email queued."""
    turn = campaign.turns.get(number=1)
    ostland = Kingdom.objects.get(campaign=campaign, name="Ostland")
    reports_made_and_rendered(turn, [ostland])
    TurnReport.objects.filter(turn=turn).exclude(kingdom=ostland).delete()  # this test's one report
    (email_id,) = report_emails_queue(report=report_of(turn, ostland))
    return ReportEmail.objects.get(pk=email_id)


ONE_EMAIL = Layer("demo campaign, Ostland's quiet turn 1 reported, its email queued", _one_email_build, parent=DEMO)


@pytest.fixture
def one_email(demo_campaign, k, shared_layers) -> ReportEmail:
    """Ostland's report of a (quiet) turn 1, rendered, with its one email queued (built once per
    run: tests/shared_rows.py)."""
    return shared_layers.take(ONE_EMAIL)


def test_an_smtp_server_that_fails_twice_then_accepts_gives_one_sent_email(smtp, one_email):
    server = smtp(failures=2)
    assert send_as_the_worker_would(one_email.pk) == 2
    one_email.refresh_from_db()
    assert (one_email.status, one_email.attempts) == (ReportEmail.Status.SENT, 3)
    assert len(server.received) == 1
    assert server.received[0].rcpt_tos == ["alice@briternia.local"]
    email_send.delay(email_id=one_email.pk)  # again: nothing is sent twice
    assert len(server.received) == 1


def test_after_the_last_try_the_email_fails_and_the_organizer_resends_it(
    smtp, one_email, django_capture_on_commit_callbacks
):
    server = smtp(failures=EMAIL_TRIES)
    assert send_as_the_worker_would(one_email.pk) == EMAIL_TRIES - 1
    one_email.refresh_from_db()
    assert (one_email.status, one_email.attempts) == (ReportEmail.Status.FAILED, EMAIL_TRIES)
    assert "451" in one_email.last_error and server.received == []
    organizer = client_for("organizer")
    results = organizer.get(f"/turns/{one_email.report.turn_id}/results/").content.decode()
    assert "1 email failed to go out" in results  # the organizer sees it where he follows the turn
    assert (
        "failed to go out"
        not in client_for("alice").get(f"/turns/{one_email.report.turn_id}/results/").content.decode()
    )
    page = organizer.get(f"/turns/{one_email.report.turn_id}/deliveries/").content.decode()
    assert "email-failed" in page and f"/report-emails/{one_email.pk}/resend/" in page
    with django_capture_on_commit_callbacks(execute=True):
        organizer.post(f"/report-emails/{one_email.pk}/resend/")
    one_email.refresh_from_db()
    assert one_email.status == ReportEmail.Status.SENT and len(server.received) == 1
    assert client_for("alice").post(f"/report-emails/{one_email.pk}/resend/").status_code == 404


def test_a_crash_between_rendering_and_sending_sends_each_email_once(one_email):
    """The render task stored the PDF and queued the email, then the worker died before sending:
    the deadline sweep finds the queued row and sends it, once, however often it runs."""
    mail.outbox.clear()
    with freeze_time(one_email.created_at + dt.timedelta(minutes=1)):
        deadline_sweep.delay()
    assert mail.outbox == []  # not stale yet: its task may still be on its way
    with freeze_time(one_email.created_at + dt.timedelta(minutes=10)):
        deadline_sweep.delay()
        deadline_sweep.delay()
    assert len(mail.outbox) == 1
    one_email.refresh_from_db()
    assert one_email.status == ReportEmail.Status.SENT


@needs_broker
@pytest.mark.celery_worker
def test_the_whole_turn_goes_out_through_a_real_worker(celery_worker, transactional_db, settings, tmp_path, client):
    """The cycle on a real worker over Redis: the organizer's resolve button (the battles
    scheduled, their scenario sheets rendered and emailed), the sheets, the organizer's aftermath
    button, then every report rendered (one task each) and sent."""
    from demo.campaign import demo_campaign_create

    settings.EMAIL_BACKEND = "briternia.mail.EmlFileBackend"
    settings.EMAIL_OUTBOX_DIR = tmp_path
    campaign = demo_campaign_create()
    turn = campaign.turns.get(number=1)
    file_battle_orders(campaign, turn)
    client.force_login(campaign.organizer)
    assert client.post(f"/turns/{turn.pk}/resolve/").status_code == 302  # the organizer's button
    for _ in range(600):
        turn.refresh_from_db()
        if turn.status == Turn.Status.BATTLES:
            break
        time.sleep(0.1)
    assert turn.status == Turn.Status.BATTLES, turn.resolution_error
    kingdoms = {x.name: x for x in campaign.kingdoms.all()}
    battles = {b.province.number: b for b in Battle.objects.filter(turn=turn)}
    sheet_filed(battles[62], kingdoms["Tor Anlec"], result="draw")
    sheet_filed(battles[62], kingdoms["Ostland"], result="draw")
    sheet_filed(battles[61], kingdoms["Da Red Fang"], result="major-loss")
    sheet_filed(battles[61], kingdoms["Ostland"], result="major-victory")
    assert client.post(f"/turns/{turn.pk}/aftermath/").status_code == 302
    expected = None
    for _ in range(600):
        emails = list(ReportEmail.objects.filter(report__turn=turn).values_list("status", flat=True))
        expected = TurnReport.objects.filter(turn=turn, status=TurnReport.Status.READY).exclude(kind="scenario").count()
        if expected == len(kingdoms) + 1 and emails and all(s == ReportEmail.Status.SENT for s in emails):
            break
        time.sleep(0.1)
    assert expected == len(kingdoms) + 1
    assert all(s == ReportEmail.Status.SENT for s in emails)
    eml = [p.read_text(errors="replace") for p in tmp_path.glob("*.eml")]
    ostland = [m for m in eml if "turn 1: Ostland's turn report\n" in m]
    assert len(ostland) == 1, [m[:600] for m in ostland]
    hartwood = [m for m in eml if "turn 1: battle in 62 Hartwood\n" in m]  # the subject line
    # The scenario, sent once to each of the battle's players and the organizer by the worker.
    recipients = sorted(line for m in hartwood for line in m.splitlines() if line.startswith("To: "))
    assert recipients == ["To: alice@briternia.local", "To: dave@briternia.local", "To: organizer@briternia.local"]


def test_make_demo_plays_a_whole_turn_and_every_player_gets_a_report(transactional_db, settings, tmp_path):
    """`make demo` (manage.py play_demo_turn) on the embedded default: every player finds in the
    outbox an email with their own report attached (the map and the ledger in it), and the
    bulletin; the battles' scenario sheets went out too."""
    import email
    import email.policy
    from io import StringIO

    from django.core.management import call_command

    settings.EMAIL_BACKEND = "briternia.mail.EmlFileBackend"
    settings.EMAIL_OUTBOX_DIR = tmp_path
    out = StringIO()
    call_command("play_demo_turn", stdout=out)
    summary = out.getvalue()
    assert "turn 1 is Reported" in summary and str(tmp_path) in summary and "Turn 2 is open" in summary
    messages = [
        email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in sorted(tmp_path.glob("*.eml"))
    ]
    for username, kingdom in [
        ("alice", "Ostland"),
        ("bob", "Da Red Fang"),
        ("carol", "Karak Dumn"),
        ("dave", "Tor Anlec"),
    ]:
        (report,) = [m for m in messages if m["To"] == f"{username}@briternia.local" and "turn report" in m["Subject"]]
        (attachment,) = list(report.iter_attachments())
        text = pdf_text(attachment.get_content())
        assert f"{kingdom}: turn 1" in text and "Opening balance" in text and "Closing balance" in text
        assert len(PdfReader(io.BytesIO(attachment.get_content())).pages[0].images) == 1  # the map
        assert any(m["To"] == f"{username}@briternia.local" and "bulletin" in m["Subject"] for m in messages)
    # One battle for a settlement and one in the field, each scenario sent to its two players and
    # the organizer.
    assert "61 Eldenhall, a battle for the city (engagement: Assault)" in summary
    assert "62 Hartwood, a battle in the field" in summary
    scenarios = sorted(
        (m["Subject"].split("battle in ")[1], m["To"])
        for m in messages
        if m["Subject"].split(": ")[-1].startswith("battle in")
    )
    assert scenarios == [
        ("61 Eldenhall", "alice@briternia.local"),
        ("61 Eldenhall", "bob@briternia.local"),
        ("61 Eldenhall", "organizer@briternia.local"),
        ("62 Hartwood", "alice@briternia.local"),
        ("62 Hartwood", "dave@briternia.local"),
        ("62 Hartwood", "organizer@briternia.local"),
    ]


def test_each_army_s_order_stands_beside_what_became_of_it(reported, k):
    """The report pairs every army's order with its outcome: the Wardens held and were attacked,
    the 1st Army sent its detachment to Hartwood."""
    reader = PdfReader(io.BytesIO(bytes(report_of(reported, k["Ostland"]).pdf)))
    flat = " ".join(" ".join(page.extract_text() for page in reader.pages).split())
    section = flat[flat.index("Your orders and what became of them") : flat.index("What happened")]
    assert "Wardens (in 62 Hartwood): Hold" in section
    assert "1st Army" in section and "Support the battle in 62 Hartwood" in section
    wardens_row = section[section.index("Wardens (in 62 Hartwood): Hold") :]
    assert "Raiders" in wardens_row[:400]  # the battle the hold met, named in its outcome


def test_a_failed_order_says_why_in_the_report(demo_campaign, k, django_capture_on_commit_callbacks):
    """O5 Occupied Province: two Karak Dumn armies are ordered into the same empty province; the
    one that loses the roll holds, and its row in the report says so, with the reason."""
    from kingdoms.models import Province
    from tests.battle_setup import army_with_list

    turn = demo_campaign.turns.get(number=1)
    dwarfs = k["Karak Dumn"]
    first = dwarfs.armies.get(name="1st Army")
    target = next(
        p
        for p in first.province.neighbours.order_by("number")
        if not p.armies.exists() and p.controller_id in (None, dwarfs.pk) and p.terrain != "desert"
    )
    second = army_with_list(dwarfs, "Ironbreakers", first.province, [("Ironbreakers", 40, 13)])
    moves = [ArmyOrder(army.id, OrderKind.MOVE, target=target.number) for army in (first, second)]
    play_the_turn_with(turn, dwarfs, moves, django_capture_on_commit_callbacks, rendered=[dwarfs])
    flat = " ".join(pdf_text(bytes(report_of(turn, dwarfs).pdf)).split())
    section = flat[flat.index("Your orders and what became of them") : flat.index("What happened")]
    where = f"{target.number} {Province.objects.get(pk=target.pk).name}"
    assert f"1st Army (in {first.province}): Move into {where}" in section
    assert f"Ironbreakers (in {first.province}): Move into {where}" in section
    assert section.count("Occupied Province") == 1 and "holds." in section


def test_a_report_rendered_again_later_shows_the_armies_as_the_turn_left_them(reported, k):
    """The report keeps what the next turn changes: rendered again after the Wardens marched on
    (and a new army was raised), it still lists them where turn 1 left them."""
    from kingdoms.models import Army, Province

    ostland = k["Ostland"]
    report = report_of(reported, ostland)
    before = " ".join(pdf_text(bytes(report.pdf)).split())
    wardens = Army.objects.get(kingdom=ostland, name="Wardens")
    where = str(wardens.province)
    assert f"Wardens {where}" in before
    elsewhere = Province.objects.filter(campaign=reported.campaign).exclude(pk=wardens.province_id).first()
    Army.objects.filter(pk=wardens.pk).update(province=elsewhere)
    Army.objects.create(kingdom=ostland, name="Turn Two Levy", province=elsewhere, size=1000)
    TurnReport.objects.filter(pk=report.pk).update(status=TurnReport.Status.QUEUED)
    assert report_render(report_id=report.pk)
    report.refresh_from_db()
    after = " ".join(pdf_text(bytes(report.pdf)).split())
    assert f"Wardens {where}" in after, after
    assert "Turn Two Levy" not in after, after[after.index("Turn Two Levy") - 300 :][:600]


def test_names_with_quotes_and_ampersands_print_as_written_in_the_running_header(demo_campaign, k):
    """The campaign's name and turn on every page: the header is the page's own text, so a name
    like Karl's "War" & Peace prints as written (not escaped for another language)."""
    demo_campaign.name = 'Karl\'s "War" & Peace'
    demo_campaign.save()
    turn = demo_campaign.turns.get(number=1)
    reports_made_and_rendered(turn, [k["Ostland"]])
    reader = PdfReader(io.BytesIO(bytes(report_of(turn, k["Ostland"]).pdf)))
    assert len(reader.pages) >= 2
    for page in reader.pages:
        assert 'Karl\'s "War" & Peace · Turn 1 · Ostland' in page.extract_text()
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)  # A4 in points


def test_a_report_that_failed_is_rendered_again_with_one_click(demo_campaign, k, django_capture_on_commit_callbacks):
    """A render that failed is shown to the organizer with a button; one click renders it and
    sends its emails. A player cannot press it."""
    turn = demo_campaign.turns.get(number=1)
    turn_reports_create(turn=turn)
    report = report_of(turn, k["Ostland"])
    TurnReport.objects.filter(pk=report.pk).update(status=TurnReport.Status.FAILED, error="MemoryError()")
    organizer = client_for("organizer")
    page = organizer.get(f"/turns/{turn.pk}/deliveries/").content.decode()
    assert "report-failed" in page and f"/reports/{report.pk}/render-again/" in page and "MemoryError" in page
    assert client_for("alice").post(f"/reports/{report.pk}/render-again/").status_code == 404
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        organizer.post(f"/reports/{report.pk}/render-again/")
    report.refresh_from_db()
    assert report.status == TurnReport.Status.READY and report.error == ""
    assert [m.to for m in mail.outbox] == [["alice@briternia.local"]]
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer.post(f"/reports/{report.pk}/render-again/", follow=True)
    assert "nothing to render again" in response.content.decode() and len(mail.outbox) == 1


def test_the_sweep_takes_up_a_report_whose_worker_died(demo_campaign, k):
    """A worker died while rendering (the row stays 'rendering'), another before queueing the
    emails of a rendered report: the deadline sweep renders the one and mails the other, once."""
    turn = demo_campaign.turns.get(number=1)
    turn_reports_create(turn=turn)
    ostland, tor = report_of(turn, k["Ostland"]), report_of(turn, k["Tor Anlec"])
    started = ostland.created_at
    TurnReport.objects.filter(pk=ostland.pk).update(status=TurnReport.Status.RENDERING, render_started_at=started)
    assert report_render(report_id=tor.pk)  # rendered; its emails never queued
    TurnReport.objects.exclude(pk__in=[ostland.pk, tor.pk]).filter(turn=turn).delete()
    mail.outbox.clear()
    with freeze_time(started + dt.timedelta(minutes=3)):
        deadline_sweep.delay()
    assert mail.outbox == []  # still within its time: the worker may be alive
    with freeze_time(started + dt.timedelta(minutes=15)):
        deadline_sweep.delay()
        deadline_sweep.delay()
    ostland.refresh_from_db()
    assert ostland.status == TurnReport.Status.READY
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@briternia.local", "dave@briternia.local"]


def test_an_email_in_flight_is_left_alone(one_email):
    """Another worker holds the row (sending): a second task sends nothing."""
    ReportEmail.objects.filter(pk=one_email.pk).update(status=ReportEmail.Status.SENDING)
    mail.outbox.clear()
    assert email_send.delay(email_id=one_email.pk).get() is False
    assert mail.outbox == []


def test_a_permanent_smtp_refusal_fails_at_once(smtp, one_email):
    """A 5xx reply is not temporary: no retries, the row is FAILED for the organizer."""
    server = smtp(failures=0)
    server.reply = "550 5.1.1 No such mailbox"
    assert send_as_the_worker_would(one_email.pk) == 0
    one_email.refresh_from_db()
    assert (one_email.status, one_email.attempts) == (ReportEmail.Status.FAILED, 1)
    assert "550" in one_email.last_error and server.received == []


def test_the_waits_between_tries_grow(settings):
    """Backoff: 30 s, 2 min, 10 min, then 30 min between the tries of a report email."""
    from outbox.services import email_retry_delay

    settings.EMAIL_BACKOFF_SCALE = 1
    assert [email_retry_delay(n) for n in (1, 2, 3, 4)] == [30, 120, 600, 1800]


def test_the_preferences_page_sets_the_address_and_link_instead(db, demo_campaign):
    alice = client_for("alice")
    assert "Send my turn reports to" in alice.get("/account/reports/").content.decode()
    response = alice.post("/account/reports/", {"report_email": "not an address"})
    assert response.status_code == 400 and not ReportPreferences.objects.filter(report_email="not an address")
    alice.post("/account/reports/", {"report_email": "alice@home.example"})
    preferences = ReportPreferences.objects.get(user__username="alice")
    assert (preferences.report_email, preferences.attach_pdf) == ("alice@home.example", False)


def test_a_refused_preferences_form_leaves_no_row_behind(db, demo_campaign):
    """Bad input (issue 33): a refused address answered 400 but made an empty preferences row."""
    ReportPreferences.objects.filter(user__username="alice").delete()
    response = client_for("alice").post("/account/reports/", {"report_email": "not-an-email"})
    assert response.status_code == 400
    assert not ReportPreferences.objects.filter(user__username="alice").exists()
    response = client_for("alice").post("/account/reports/", {"report_email": "a@x.org\r\nBcc: evil@x.org"})
    assert response.status_code == 400
    assert not ReportPreferences.objects.filter(user__username="alice").exists()


def test_the_bulletin_brings_news_of_the_ancient_dead(demo_campaign, k, django_capture_on_commit_callbacks):
    """The Ancient Dead march out of the desert and claim a neutral province: every player reads
    it in the bulletin's news of the Ancient Dead, without the army's name."""
    from kingdoms.models import Province
    from tests.battle_setup import army_with_list

    turn = demo_campaign.turns.get(number=1)
    dead = k["The Ancient Dead"]
    edge, target = next(
        (desert, p)
        for desert in Province.objects.filter(campaign=demo_campaign, terrain="desert", controller=dead)
        if not desert.armies.exists()
        for p in desert.neighbours.order_by("number")
        if p.controller_id is None and p.terrain != "desert" and not p.armies.exists()
    )
    legion = army_with_list(dead, "Tomb Legion", edge, [("Skeletons", 100, 10)])
    orders = [ArmyOrder(legion.id, OrderKind.MOVE, target=target.number)]
    play_the_turn_with(turn, dead, orders, django_capture_on_commit_callbacks, rendered=[None])
    flat = " ".join(pdf_text(bytes(report_of(turn).pdf)).split())
    news = flat[flat.index("News of the Ancient Dead") :]
    assert f"The Ancient Dead claims {target.number} {target.name}." in news
    assert "Tomb Legion" not in flat and "The tombs are quiet" not in news


def test_every_code_a_played_turn_writes_is_an_event_code(reported):
    """Turn 1 played through (orders, battles, sheets, the aftermath): every stored code is a
    member of EventCode, and fits the column."""
    written = set(TurnEvent.objects.filter(turn=reported).values_list("code", flat=True))
    assert {"moved", "battle-scheduled", "battle-result", "taxes"} <= written
    assert written <= {code.value for code in EventCode}
    longest = max(len(code.value) for code in EventCode)
    assert longest <= TurnEvent._meta.get_field("code").max_length


def test_the_bulletin_tells_exactly_the_public_event_codes(demo_campaign, k):
    """One event of every code in the turn: the bulletin reads exactly PUBLIC_EVENT_CODES, each in
    its own words (never the event's text, never the bare code)."""
    from kernel.event_codes import PUBLIC_EVENT_CODES
    from reports.services import reports

    turn = demo_campaign.turns.get(number=1)
    # An alliance's events name the ally (Allies): told once, from the first kingdom's event.
    ally = {"ally": k["Karak Dumn"].id, "trust": "T", "how": "invasion", "broken_by": k["Ostland"].id}
    TurnEvent.objects.bulk_create(
        TurnEvent(
            turn=turn,
            sequence=i,
            phase="test",
            code=code,
            text="PRIVATE",
            kingdom=k["Ostland"],
            province=61,
            # A land deal's name the other side (Land Sales): told once too.
            data=ally if code.startswith("alliance") else {"with": k["Karak Dumn"].id} if code == "land-deal" else {},
        )
        for i, code in enumerate(EventCode)
    )
    assert reports.PUBLIC_EVENT_CODES is PUBLIC_EVENT_CODES
    bulletin = reports.bulletin_context(turn=turn)
    assert bulletin["missed"] == ["Ostland"]
    assert len(bulletin["changes"]) == len(PUBLIC_EVENT_CODES - {EventCode.MISSED_ORDERS})
    assert not any("PRIVATE" in line or line.startswith("Ostland: ") for line in bulletin["changes"])
    assert bulletin["changes"].count("An army of Ostland is disbanded.") == 2  # both ways of disbanding
    assert "Ostland breaks its alliance with Karak Dumn by invasion." in bulletin["changes"]
    assert "Ostland and Karak Dumn make a land deal: provinces change hands (Land Sales)." in bulletin["changes"]
    assert "Ostland has lost its leader: it is now a Rogue Kingdom, wracked by civil war." in bulletin["changes"]


def test_the_report_says_a_new_army_s_list_is_due_and_by_when(demo_campaign, k, django_capture_on_commit_callbacks):
    """3. Create / Upgrade Armies: an army raised this turn counts at the points paid for it until
    its list is entered; the turn report tells its kingdom the list is due by the next orders
    deadline (docs/rules-decisions.md, decision 26a)."""
    from kingdoms.models import Army
    from rulebook.campaign_schedule import deadline_text
    from rulebook.turn.write_orders.records import CreateArmy

    turn = demo_campaign.turns.get(number=1)
    dwarfs = k["Karak Dumn"]
    where = dwarfs.provinces.exclude(pk=dwarfs.capitol_id).order_by("number").first()
    # A fourth province: with four players the Army Table allows a second army.
    fourth = where.neighbours.filter(controller=None).exclude(terrain="desert").order_by("number").first()
    type(fourth).objects.filter(pk=fourth.pk).update(controller=dwarfs)
    order_sheet_save(
        kingdom=dwarfs,
        turn=turn,
        entries=SheetEntries(creations=(CreateArmy("Iron Guard", 1000, where.number),)),
        submitted_by=dwarfs.players.first(),
        submit=True,
        arrived_at=turn.orders_deadline - dt.timedelta(days=1),
    )
    aftermath_with_reports(turn, django_capture_on_commit_callbacks, rendered=[dwarfs])
    raised = Army.objects.get(kingdom=dwarfs, name="Iron Guard")
    assert raised.list_due and not raised.units.exists()

    text = " ".join(pdf_text(bytes(report_of(turn, dwarfs).pdf)).split())
    deadline = deadline_text(demo_campaign.turns.get(number=2).orders_deadline, demo_campaign.time_zone)
    assert f"Iron Guard Its list is due: enter it by {deadline}; until then it counts at the points paid for it." in (
        text
    ), text[text.index("Your armies") :][:500]
    assert "Iron Guard Its list is due" in text and "1000" in text[text.index("Iron Guard Its list") :][:200]


def test_the_private_report_lists_the_kingdom_s_characters_and_no_other_s(demo_campaign, k):
    """Issue 18, what would delight them: the private report carries the kingdom's character roster
    (Characters: role, Archetype and its Abilities; Injuries: the chart's result and what it
    means), and only the reader's own kingdom's (Secrecy: another kingdom's characters are its own)."""
    turn = demo_campaign.turns.get(number=1)
    ostland, dumn = k["Ostland"], k["Karak Dumn"]
    roster = list(Character.objects.filter(kingdom=ostland, alive=True).select_related("unit__army"))
    assert any(c.archetype and c.abilities for c in roster), "the demo's Ostland has a General with abilities"
    wounded = roster[0]
    wounded.injuries = [
        {
            **Injury(
                code=ARM.code, label=ARM.label, text=ARM.text, roll=31, stats={"WS": -1}, detail="light wound, -1 WS"
            ).as_json(),
            "turn": 1,
        }
    ]
    wounded.save(update_fields=["injuries"])
    reports_made_and_rendered(turn, [ostland, dumn])

    alice = " ".join(pdf_text(bytes(report_of(turn, ostland).pdf)).split())
    assert "Your characters" in alice
    for character in roster:
        assert character.unit.name in alice, character
        if character.archetype:
            assert character.get_archetype_display() in alice, character
        for ability in character.abilities:
            assert ability in alice, (character, ability)
    assert f"{ARM.label}: light wound, -1 WS (turn 1)" in alice

    carol = " ".join(pdf_text(bytes(report_of(turn, dumn).pdf)).split())
    assert "Your characters" in carol
    theirs = {c.unit.name for c in Character.objects.filter(kingdom=dumn)}
    assert any(c.unit.name not in theirs for c in roster)
    for character in roster:
        if character.unit.name not in theirs:
            assert character.unit.name not in carol, character
    assert "light wound, -1 WS" not in carol


def test_the_private_report_heads_every_phase_by_its_rule_and_breaks_no_ability_mid_word(reported, k):
    """The private report's "What happened" heads each phase of the turn by its rulebook title (the
    Ancient Dead's own moves under "The Ancient Dead", never the phase's key "ancient-dead"), and its
    character roster gives an ability's words room: each whole (say "Gentlemanly Restraint"), not
    broken in the middle of a word by a narrow column (The Ancient Dead: Movement; Characters)."""
    ancient = report_of(reported, k["The Ancient Dead"])
    text = " ".join(pdf_text(bytes(ancient.pdf)).split())
    assert "ancient-dead" not in text
    assert "The Ancient Dead The Liche Priests of" in text, text[text.index("What happened") :][:400]
    # Every ability of the roster stands whole in the text; which ones the demo's Warlord rolled
    # differs between databases (e.g. "Gentlemanly Restraint", "Noblesse Oblige"), two words either way.
    abilities = [a for c in Character.objects.filter(kingdom=k["The Ancient Dead"], alive=True) for a in c.abilities]
    assert any(" " in ability for ability in abilities), abilities
    for ability in abilities:
        assert ability in text, ability
    assert "Character Army Role Archetype Abilities Battles survived Injuries" in text
    # A Hero is named once in the roster (not "Hero (Hero)"); a General's rank stays beside his role.
    ostland = " ".join(pdf_text(bytes(report_of(reported, k["Ostland"]).pdf)).split())
    assert "Hero (Hero)" not in ostland and "Captain Reiner 1st Army Hero" in ostland
    assert "General (Hero)" in ostland
