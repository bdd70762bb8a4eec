"""The import (transfer/reader.py, writer.py, importer.py): older versions still read, and a
malformed document refused whole, naming every problem, nothing saved."""

import copy

from django.contrib.auth import get_user_model
from django.db import IntegrityError

from battles.models import Battle, BattleSupport
from battles.services.scenarios import scenario_stream
from kingdoms.models import Army, ReportPreferences
from orders.models import OrderSheet, OrderSubmission
from reports.services.deliveries import report_emails_queue
from rulebook.turn.write_orders.records import OrderKind
from tests.transfer.documents import PDF, RESOLUTION_COUNTS, as_version, campaign_counts, kingdom_index, refused
from transfer.campaign_models import ReportEmail, TurnMap, TurnReport
from transfer.export import campaign_export
from transfer.importer import campaign_import

User = get_user_model()


def test_a_version_2_document_from_before_events_and_battles_is_still_read(resolved_campaign):
    document = campaign_export(campaign=resolved_campaign)
    # Nor their scenarios' rolls: the battles' aftermath came later still.
    rolls = document["dice_rolls"]
    document["dice_rolls"] = [
        r for r in rolls if not (isinstance(r["stream"], dict) and r["stream"]["prefix"] == "scenario")
    ]
    assert len(document["dice_rolls"]) < len(rolls)
    older = as_version(document, 2)
    for turn in older["turns"]:
        del turn["events"], turn["battles"]

    imported = campaign_import(document=older)

    assert campaign_counts(imported) == {
        **campaign_counts(resolved_campaign),
        **dict.fromkeys(RESOLUTION_COUNTS, 0),
        "dice rolls": len(document["dice_rolls"]),
    }
    for turn in document["turns"]:
        turn["events"] = turn["battles"] = []
        turn["reports"] = []  # a version 2 document has no reports (here the battles' scenario sheets)
    document["emails"] = []  # nor emails (here the invitations and the receipts)
    assert campaign_export(campaign=imported) == document


def test_malformed_events_and_battles_are_refused_naming_every_problem(resolved_campaign):
    document = campaign_export(campaign=resolved_campaign)
    turn = document["turns"][0]
    events = turn["events"]

    def index(code):
        return next(i for i, e in enumerate(events) if e["code"] == code)

    claimed, scheduled, guerrilla = index("province-claimed"), index("battle-scheduled"), index("guerrilla")
    moved, support = index("moved"), index("support")
    events[claimed]["data"]["from_kingdom"] = 2  # an id, as the database holds it
    events[scheduled]["data"]["opponent_army"] = ["Ostland", "9th Army"]
    events[guerrilla]["data"]["target"] = 6
    events[moved]["army"] = ["Ostland", "Nobody"]
    events[moved]["kingdom"] = "Nowhere"
    events[support]["data"] = []
    events[support]["army_id"] = 8
    events[1]["sequence"] = events[0]["sequence"]
    battle = turn["battles"][0]
    battle["status"] = "abandoned"
    battle["defender_kingdom"] = "Nowhere"
    battle["garrison_points"] = -5
    battle["guerrilla"]["army"] = ["Tor Anlec", "Ghosts"]
    battle["supports"][0]["side"] = "neutral"
    battle["supports"][0]["army"] = 8
    battle["province"] = 999

    messages = refused(document)

    t = "turns[0] (number 1)"
    b = f"{t} / battles[0] (province 999)"
    expected = [
        f'{t} / events[1] "{events[1]["code"]}": sequence 0 should come after 0: '
        "the events are listed in sequence order, each sequence once.",
        f'{t} / events[{claimed}] "province-claimed" / data: "from_kingdom" should be a kingdom name or null, not 2.',
        f'{t} / events[{scheduled}] "battle-scheduled" / data / opponent_army: '
        "there is no army '9th Army' of the kingdom 'Ostland'.",
        f'{t} / events[{guerrilla}] "guerrilla" / data: "target" should be [kingdom name, army name] or null, not 6.',
        f'{t} / events[{moved}] "moved": there is no kingdom called "Nowhere".',
        f"{t} / events[{moved}] \"moved\": there is no army 'Nobody' of the kingdom 'Ostland'.",
        f'{t} / events[{support}] "support": "data" should be an object, not [].',
        f'{t} / events[{support}] "support": unknown key "army_id".',
        f"{b}: province 999 is not among the document's provinces.",
        f"{b}: \"status\": Value 'abandoned' is not a valid choice.",
        f'{b}: "garrison_points": Ensure this value is greater than or equal to 0.',
        f'{b} / defender_kingdom: there is no kingdom called "Nowhere".',
        f"{b} / guerrilla / army: there is no army 'Ghosts' of the kingdom 'Tor Anlec'.",
        f"{b} / supports[0]: \"side\": Value 'neutral' is not a valid choice.",
        f'{b} / supports[0]: "army" should be [kingdom name, army name], not 8.',
    ]
    assert [m for m in expected if m not in messages] == [], messages


def test_the_events_and_battles_must_be_lists(resolved_campaign):
    document = campaign_export(campaign=resolved_campaign)
    document["turns"][0]["events"] = {}
    document["turns"][0]["battles"] = None
    assert refused(document) == [
        'turns[0] (number 1): "events" should be a list, not {}.',
        'turns[0] (number 1): "battles" should be a list, not None.',
    ]


def test_an_unknown_username_becomes_a_new_account_without_a_password(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    alice = next(u for u in document["users"] if u["username"] == "alice")
    alice.update(username="zoe", email="zoe@example.org", first_name="Zoe", last_name="Marlow")
    ostland = document["kingdoms"][kingdom_index(document, "Ostland")]
    ostland["players"] = ["zoe"]

    imported = campaign_import(document=document)

    zoe = User.objects.get(username="zoe")
    assert (zoe.email, zoe.first_name, zoe.last_name) == ("zoe@example.org", "Zoe", "Marlow")
    assert not zoe.has_usable_password()
    assert list(imported.kingdoms.get(name="Ostland").players.all()) == [zoe]
    assert imported.organizer == demo_campaign.organizer  # reused, not duplicated


def test_a_document_of_another_format_is_refused(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    document["format"] = "a-map"
    assert refused(document) == [
        "The document's format is 'a-map': it should be 'briternia-campaign' (a Briternia campaign export)."
    ]
    assert refused({"name": "not an export"}) == [
        "The document's format is missing: it should be 'briternia-campaign' (a Briternia campaign export)."
    ]


def test_a_document_of_another_version_is_refused(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    document["version"] = 7
    assert refused(document) == ["The document's version is 7: this site reads versions 1, 2, 3, 4, 5 and 6."]
    document["version"] = "2"
    assert refused(document) == ["The document's version is '2': this site reads versions 1, 2, 3, 4, 5 and 6."]


def test_a_version_1_document_is_read_as_a_campaign_without_orders(eventful_campaign):
    document = campaign_export(campaign=eventful_campaign)
    version_1 = as_version(document, 1)
    # Version 1 knew no deadline changes, so no staff member who only changed one.
    version_1["users"] = [u for u in version_1["users"] if u["username"] != "marshal"]

    imported = campaign_import(document=version_1)

    assert campaign_counts(imported) == {
        **campaign_counts(eventful_campaign),
        **dict.fromkeys(["schedules", "turns", "deadline changes", "order sheets", "submissions", "reminders"], 0),
    }
    # Version 1 has no orders sections: they are refused there, not ignored.
    assert refused({**version_1, "turns": []}) == ['The document: unknown key "turns".']


def test_a_document_from_before_fortified_in_gives_a_fortification_to_its_controller_s_army_there(
    eventful_campaign,
):
    """Fortify: the bonuses are the Fortified army's. A document written before the armies' "fortified_in"
    is still read: a fortified province goes to its controller's active army standing in it; one with
    no such army stays as written (the turn's resolution finds no army that fortified it)."""
    document = campaign_export(campaign=eventful_campaign)
    first = next(
        a for k in document["kingdoms"] if k["name"] == "Ostland" for a in k["armies"] if a["name"] == "1st Army"
    )
    assert first["fortified_in"] == first["province"]
    older = copy.deepcopy(document)
    for kingdom in older["kingdoms"]:
        for army in kingdom["armies"]:
            del army["fortified_in"]

    imported = campaign_import(document=older)

    assert campaign_export(campaign=imported) == document


def test_a_document_that_is_not_an_object_is_refused(db):
    assert refused(["briternia-campaign"]) == ["The document: expected an object, found ['briternia-campaign']."]


def test_a_province_without_its_number_is_refused(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    del document["provinces"][5]["number"]
    messages = refused(document)
    assert 'provinces[5]: "number" is missing.' in messages
    # What referred to province 6 is reported too, rather than imported without it.
    assert any("province 6 is not among the document's provinces" in m for m in messages)


def test_an_army_in_a_province_that_does_not_exist_is_refused(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    index = kingdom_index(document, "Ostland")
    document["kingdoms"][index]["armies"][0]["province"] = 999
    assert refused(document) == [
        f'kingdoms[{index}] "Ostland" / armies[0] "1st Army": province 999 is not among the document\'s provinces.'
    ]


def test_every_problem_of_a_document_is_reported_at_once(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    ostland = kingdom_index(document, "Ostland")
    document["campaign"]["time_zone"] = "Mars/Olympus"
    document["provinces"][2]["razed"] = document["provinces"][2]["fortified"] = True
    document["provinces"][3]["razd"] = True
    document["kingdoms"][ostland]["players"] = ["mallory"]
    document["kingdoms"][ostland]["treasury"][0]["amount"] = "6000"
    document["kingdoms"][ostland]["armory"][0]["bearer"]["unit"] = 40
    duplicate = len(document["kingdoms"])
    document["kingdoms"].append(copy.deepcopy(document["kingdoms"][ostland]))
    document["dice_rolls"][0]["kingdoms"] = ["Nowhere"]
    units = len(document["kingdoms"][ostland]["armies"][0]["units"])

    messages = refused(document)

    expected = [
        "campaign: \"time_zone\": 'Mars/Olympus' is not a time zone name (for example Europe/London).",
        "provinces[2] (number 3): a province cannot be both razed and fortified.",
        'provinces[3] (number 4): unknown key "razd".',
        f'kingdoms[{ostland}] "Ostland" / players: the user "mallory" is not among the document\'s users.',
        f'kingdoms[{ostland}] "Ostland" / treasury[0]: "amount" should be an integer, not \'6000\'.',
        f'kingdoms[{duplicate}] "Ostland": there are two kingdoms called "Ostland".',
        f'kingdoms[{ostland}] "Ostland" / armory[0] / bearer: 1st Army has no unit at place 40 (it has {units} units).',
        'dice_rolls[0] / kingdoms: there is no kingdom called "Nowhere".',
        'users "alice": neither the organizer nor a player of any kingdom, nor named by a turn.',
    ]
    assert [m for m in expected if m not in messages] == []


def test_a_second_living_warlord_is_refused_before_the_database_sees_it(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    ostland = document["kingdoms"][kingdom_index(document, "Ostland")]
    ostland["armies"][0]["units"][1]["character"]["role"] = "warlord"
    assert refused(document) == ['kingdom "Ostland": a kingdom has one living Warlord, not 2.']


def test_malformed_orders_sections_are_refused_naming_every_problem(eventful_campaign):
    document = campaign_export(campaign=eventful_campaign)
    document["schedule"]["orders_weekday"] = 9
    document["schedule"]["results_time"] = "25:00"
    turn = document["turns"][0]
    turn["results_deadline"] = turn["orders_deadline"]
    turn["deadline_changes"][0]["changed_by"] = "mallory"
    turn["deadline_changes"][1]["kind"] = "whenever"
    # The players' sheets alone (the Ancient Dead's computed draft is left out of this document).
    turn["sheets"] = [s for s in turn["sheets"] if s["kingdom"] != "The Ancient Dead"]
    ostland, red_fang = turn["sheets"]  # in the kingdoms' order
    assert (ostland["kingdom"], red_fang["kingdom"]) == ("Ostland", "Da Red Fang")
    red_fang["entries"]["upgrades"][0]["army"] = ["Da Red Fang", "9th Army"]
    red_fang["entries"]["orders"][0]["kind"] = "teleport"
    red_fang["entries"]["depots"][0]["army"] = 7  # an id, as the database holds it
    red_fang["entries"]["bribes"] = []
    ostland["submissions"][0]["entries"]["orders"][0]["target"] = "north"
    ostland["submissions"][1]["submitted_at"] = "yesterday"
    duplicate_sheet = len(turn["sheets"])
    turn["sheets"].append(copy.deepcopy(ostland))
    turn["reminders"][0]["kingdom"] = "Nowhere"
    document["turns"].append(copy.deepcopy(turn))
    document["turns"][1]["sheets"] = document["turns"][1]["reminders"] = document["turns"][1]["deadline_changes"] = []

    messages = refused(document)

    t = "turns[0] (number 1)"
    entries = f'{t} / sheets[1] "Da Red Fang" / entries'
    expected = [
        'schedule: "orders_weekday": Value 9 is not a valid choice.',
        "schedule: \"results_time\" should be a time of day (HH:MM:SS), not '25:00'.",
        f"{t}: the results deadline must come after the orders deadline.",
        f'{t} / deadline_changes[0] / changed_by: the user "mallory" is not among the document\'s users.',
        f"{t} / deadline_changes[1]: \"kind\": Value 'whenever' is not a valid choice.",
        f'{entries}: unknown key "bribes".',
        f"{entries} / orders[0]: \"kind\" should be one of {', '.join(k.value for k in OrderKind)}, not 'teleport'.",
        f"{entries} / upgrades[0]: there is no army '9th Army' of the kingdom 'Da Red Fang'.",
        f'{entries} / depots[0]: "army" should be [kingdom name, army name], not 7.',
        f'{t} / sheets[0] "Ostland" / submissions[0] / entries / orders[0]: '
        "\"target\" should be an integer or null, not 'north'.",
        f'{t} / sheets[0] "Ostland" / submissions[1]: '
        "\"submitted_at\" should be an ISO 8601 time with its UTC offset, not 'yesterday'.",
        f'{t} / sheets[{duplicate_sheet}] "Ostland": Ostland has two order sheets for this turn.',
        f'{t} / reminders[0] "Nowhere": there is no kingdom called "Nowhere".',
        "turns[1] (number 1): turn 1 appears twice.",
    ]
    assert [m for m in expected if m not in messages] == []
    assert document["turns"][0]["sheets"][1]["entries"]["orders"][0]["kind"] == "teleport"  # not fixed up


def test_an_order_from_before_the_choice_of_who_defends_is_read_as_the_army_defending(eventful_campaign):
    """Battle for Towns, Cities, and Capitols: "defend_with" came within version 5. An order
    without it is read (the army defends, as it always did); one with an unknown choice is refused."""
    document = campaign_export(campaign=eventful_campaign)
    place = next(i for i, s in enumerate(document["turns"][0]["sheets"]) if s["kingdom"] == "Ostland")
    ostland = document["turns"][0]["sheets"][place]
    assert ostland["entries"]["orders"][0]["defend_with"] == "army"
    older = copy.deepcopy(document)
    for submission in [older["turns"][0]["sheets"][place], *older["turns"][0]["sheets"][place]["submissions"]]:
        for order in submission["entries"]["orders"]:
            del order["defend_with"]
    imported = campaign_import(document=older)
    sheet = imported.turns.get(number=1).sheets.get(kingdom__name="Ostland")
    assert "defend_with" not in sheet.entries["orders"][0]  # kept as written; sheet_from_json reads "army"

    ostland["entries"]["orders"][0]["defend_with"] = "everyone"
    assert (
        f'turns[0] (number 1) / sheets[{place}] "Ostland" / entries / orders[0]: '
        "\"defend_with\" should be one of army, garrison, not 'everyone'."
    ) in refused(document)


def test_the_orders_sections_must_have_the_right_shape(demo_campaign):
    document = campaign_export(campaign=demo_campaign)
    document["schedule"] = []
    document["turns"][0]["sheets"] = [{"kingdom": "Ostland"}]
    messages = refused(document)
    assert 'The document: "schedule" should be an object or null, not [].' in messages
    assert 'turns[0] (number 1) / sheets[0] "Ostland": "entries" is missing.' in messages


def test_a_database_refusal_half_way_through_the_import_saves_nothing(resolved_campaign, monkeypatch):
    document = campaign_export(campaign=resolved_campaign)

    def refuse(*args, **kwargs):
        raise IntegrityError("simulated refusal")

    # The battles' supports are written last: everything before them must be undone.
    monkeypatch.setattr(BattleSupport.objects, "bulk_create", refuse)
    assert refused(document) == ["The document breaks a rule of the database: simulated refusal"]


# --- the reports, their emails, the users' report preferences -----------------------------------


def test_report_preferences_come_with_a_new_account_and_leave_an_existing_one_as_it_is(demo_campaign):
    bob = User.objects.get(username="bob")
    ReportPreferences.objects.create(user=bob, report_email="bob@home.example", attach_pdf=True)
    document = campaign_export(campaign=demo_campaign)
    users = {u["username"]: u for u in document["users"]}
    users["alice"].update(
        username="zoe",
        email="zoe@example.org",
        report_preferences={"report_email": "zoe@home.example", "attach_pdf": False},
    )
    document["kingdoms"][kingdom_index(document, "Ostland")]["players"] = ["zoe"]
    users["bob"]["report_preferences"] = {"report_email": "bob@elsewhere.example", "attach_pdf": False}
    users["carol"]["report_preferences"] = {"report_email": "carol@elsewhere.example", "attach_pdf": False}

    campaign_import(document=document)

    zoe = ReportPreferences.objects.get(user__username="zoe")
    assert (zoe.report_email, zoe.attach_pdf) == ("zoe@home.example", False)
    bob_now = ReportPreferences.objects.get(user=bob)
    assert (bob_now.report_email, bob_now.attach_pdf) == ("bob@home.example", True)  # his own, kept
    assert not ReportPreferences.objects.filter(user__username="carol").exists()  # she set none here


def test_a_version_2_document_is_read_as_a_campaign_whose_turns_have_no_reports(reports_made):
    document = campaign_export(campaign=reports_made)
    older = as_version(document, 2)

    imported = campaign_import(document=older)

    assert not TurnReport.objects.filter(turn__campaign=imported).exists()
    assert not TurnMap.objects.filter(turn__campaign=imported).exists()
    for turn in document["turns"]:
        turn["map"], turn["reports"] = None, []
    document["emails"] = []
    assert campaign_export(campaign=imported) == document
    # Version 2 has no reports: they are refused there, not ignored.
    assert refused({**older, "emails": []}) == ['The document: unknown key "emails".']


def test_malformed_reports_and_emails_are_refused_naming_every_problem(reports_made):
    document = campaign_export(campaign=reports_made)
    turn = document["turns"][0]
    reports = {r["kingdom"] or r["kind"]: r for r in turn["reports"]}
    index = {r["kingdom"] or r["kind"]: i for i, r in enumerate(turn["reports"])}
    turn["map"]["png"] = 5
    reports["bulletin"]["kingdom"] = "Ostland"
    reports["scenario"]["battle"] = 5
    reports["Ostland"]["pdf"] = "not base64!"
    reports["Ostland"]["snapshot"]["armies"][0]["id"] = ["Ostland", "Ghosts"]
    reports["Tor Anlec"]["status"] = "lost"
    duplicate = len(turn["reports"])
    turn["reports"].append(copy.deepcopy(reports["Karak Dumn"]))

    messages = refused(document)

    t = "turns[0] (number 1)"
    expected = [
        f'{t} / map: "png" should be base64 text or null, not 5.',
        f'{t} / reports[{index["bulletin"]}] "Ostland": a kingdom report names its kingdom and no battle, a bulletin '
        "neither, a scenario sheet its battle and no kingdom.",
        f'{t} / reports[{index["scenario"]}] "scenario": the turn has no battle at place 5 (it has 1).',
        f'{t} / reports[{index["Ostland"]}] "Ostland": "pdf" should be base64 text or null, not \'not base64!\'.',
        f'{t} / reports[{index["Ostland"]}] "Ostland" / snapshot / armies[0] / id: '
        "there is no army 'Ghosts' of the kingdom 'Ostland'.",
        f'{t} / reports[{index["Tor Anlec"]}] "Tor Anlec": "status": Value \'lost\' is not a valid choice.',
        f'{t} / reports[{duplicate}] "Karak Dumn": the turn has this report twice.',
    ]
    assert [m for m in expected if m not in messages] == [], messages


def test_malformed_emails_are_refused_naming_every_problem(reports_made):
    document = campaign_export(campaign=reports_made)
    emails = document["emails"]
    first = len(emails)
    (report_email,) = [e for e in emails if e["report_email"] is not None]
    receipt = next(e for e in emails if e["kind"] == "orders-receipt")
    report_email["report_email"]["user"] = "mallory"
    report_email["status"] = "lost"
    report_email["attachment"] = "not base64!"
    emails.append(copy.deepcopy(report_email))  # the same key again
    elsewhere = copy.deepcopy(report_email)
    elsewhere["key"] = None
    elsewhere["report_email"]["report"]["kingdom"] = "Nowhere"
    emails.append(elsewhere)
    wrong_row = copy.deepcopy(receipt)
    wrong_row["key"]["row"]["submission"] = 7
    emails.append(wrong_row)
    other_prefix = copy.deepcopy(receipt)
    other_prefix["key"]["prefix"] = "password-reset"
    other_prefix["to"] = "alice@briternia.local"
    other_prefix["turn"] = 9
    emails.append(other_prefix)

    messages = refused(document)

    r = f'emails[{emails.index(report_email)}] "kingdom-report"'
    expected = [
        f'{r} / report_email / user: the user "mallory" is not among the document\'s users.',
        f"{r}: \"status\": Value 'lost' is not a valid choice.",
        f"{r}: \"attachment\" should be base64 text or null, not 'not base64!'.",
        f'emails[{first}] "kingdom-report": another email has the same key: queuing twice sends once.',
        f'emails[{first + 1}] "kingdom-report" / report_email / report: turn 1 has no kingdom report of "Nowhere".',
        f'emails[{first + 2}] "orders-receipt" / key / row: turn 1 has no submission at place 7 of the order sheet '
        f'of "{receipt["key"]["row"]["kingdom"]}".',
        f'emails[{first + 3}] "orders-receipt" / turn: there is no turn 9 among the document\'s turns.',
        f'emails[{first + 3}] "orders-receipt": "to" should be a list of strings, not \'alice@briternia.local\'.',
        f'emails[{first + 3}] "orders-receipt" / key: "prefix" should be one of report, orders-receipt, '
        "deadline-change, orders-reminder, results-reminder, orders-held, phase-failed, battle-disagreement, "
        "battle-ruling, not 'password-reset'.",
    ]
    assert [m for m in expected if m not in messages] == [], messages


def test_malformed_version_3_emails_are_refused_naming_every_problem(reports_made):
    document = as_version(campaign_export(campaign=reports_made), 3)
    (email,) = document["emails"]
    email.update(user="mallory", to="not an address")
    document["emails"].append({**email, "report": {**email["report"], "kingdom": "Nowhere"}})
    document["emails"].append({**email, "user": "alice"})

    messages = refused(document)

    expected = [
        'emails[0] "not an address" / user: the user "mallory" is not among the document\'s users.',
        'emails[0] "not an address": "to": Enter a valid email address.',
        'emails[1] "not an address" / report: turn 1 has no kingdom report of "Nowhere".',
        'emails[2] "not an address": the report is sent to not an address twice.',
    ]
    assert [m for m in expected if m not in messages] == [], messages


# --- version 3's report emails, read into the outbox ---------------------------------------------


def test_a_version_3_document_s_report_emails_become_outbox_emails_as_the_migration_made_them(reports_made):
    """Version 3 kept a report's email without its text: read as reports migration 0002 carried
    such a row into the outbox (keyed by the copy's report, no subject yet, its ready report left
    for the deadline sweep to render it), and its report renders it when it is taken up."""
    document = campaign_export(campaign=reports_made)

    imported = campaign_import(document=as_version(document, 3))

    (email,) = ReportEmail.objects.filter(campaign=imported)
    report = TurnReport.objects.get(turn__campaign=imported, kingdom__name="Ostland")
    assert (email.report, email.turn, email.user.username, email.kind) == (
        report,
        report.turn,
        "alice",
        "kingdom-report",
    )
    assert (email.key, email.to, email.subject, email.attachment) == (
        f"report:{report.pk}:alice@briternia.local",
        ["alice@briternia.local"],
        "",
        None,
    )
    assert (email.status, email.attempts, email.last_error) == ("failed", 5, "451 4.3.0 Try again later")
    assert report.emails_queued_at is None  # an email not sent: the sweep takes the report up
    # Everything else as the document has it: version 3 had no other emails.
    (original,) = [e for e in document["emails"] if e["report_email"] is not None]
    original.update(subject="", text="", html="", attachment_name="", attachment_type="", attachment=None)
    document["emails"] = [original]
    ostland = next(r for r in document["turns"][0]["reports"] if r["kingdom"] == "Ostland")
    ostland["emails_queued_at"] = None
    assert campaign_export(campaign=imported) == document

    report_emails_queue(report=report)  # the sweep taking the report up

    email.refresh_from_db()
    assert "Ostland" in email.subject and bytes(email.attachment) == PDF and email.status == "failed"


# --- dice roll streams that hold ids ------------------------------------------------------------


def test_a_version_4_document_s_streams_are_written_with_the_copy_s_ids(resolved_campaign):
    """Before version 5 a stream held the ids of the site it was written on: the document says what
    they named (a free roll's kingdom, the attacker of the one battle of its turn in its province)."""
    document = campaign_export(campaign=resolved_campaign)
    older = as_version(document, 4)
    assert {"warlord-free-roll:900", "warlord-free-roll:901"} <= {r["stream"] for r in older["dice_rolls"]}

    imported = campaign_import(document=older)

    assert campaign_export(campaign=imported) == document
    kingdoms = dict(imported.kingdoms.values_list("name", "id"))
    assert imported.dice_rolls.filter(stream=f"warlord-free-roll:{kingdoms['Ostland']}").exists()
    battles = Battle.objects.filter(turn__campaign=imported).select_related("province")
    assert {r.stream for r in imported.dice_rolls.filter(stream__startswith="scenario:")} == {
        scenario_stream(b) for b in battles
    }


def test_a_version_4_stream_the_document_cannot_name_is_kept_as_written(resolved_campaign):
    older = as_version(campaign_export(campaign=resolved_campaign), 4)
    roll = next(r for r in older["dice_rolls"] if r["stream"].startswith("warlord-free-roll:"))
    roll["kingdoms"] = []  # nothing says which kingdom the id was

    imported = campaign_import(document=older)

    assert imported.dice_rolls.filter(stream=roll["stream"]).exists()


def test_streams_that_hold_ids_are_refused_unless_named_by_natural_key(resolved_campaign):
    document = campaign_export(campaign=resolved_campaign)
    rolls = document["dice_rolls"]
    warlord, scenario = (
        next(i for i, r in enumerate(rolls) if isinstance(r["stream"], dict) and r["stream"]["prefix"] == prefix)
        for prefix in ("warlord-free-roll", "scenario")
    )
    rolls[warlord]["stream"] = "warlord-free-roll:12"
    rolls[scenario]["stream"] = {**rolls[scenario]["stream"], "army": ["Ostland", "Nobody"]}
    rolls[0]["stream"] = {"prefix": "battle", "battle": 1}
    rolls[1]["stream"] = {"prefix": "warlord-free-roll", "kingdom": "Nowhere", "army": ["Ostland", "1st Army"]}

    assert refused(document) == [
        'dice_rolls[0] / stream: "prefix" should be one of warlord-free-roll, scenario, rival-scenario, '
        "not 'battle'.",
        'dice_rolls[1] / stream: unknown key "army".',
        'dice_rolls[1] / stream: there is no kingdom called "Nowhere".',
        f"dice_rolls[{warlord}] / stream: 'warlord-free-roll:12' holds ids: "
        'write it as an object with "prefix", "kingdom".',
        f"dice_rolls[{scenario}] / stream: there is no army 'Nobody' of the kingdom 'Ostland'.",
    ]
    older = as_version(campaign_export(campaign=resolved_campaign), 4)
    older["dice_rolls"][0]["stream"] = {"prefix": "warlord-free-roll", "kingdom": "Ostland"}
    assert refused(older) == [
        "dice_rolls[0] / stream: a version 4 document's stream is a string, "
        "not {'prefix': 'warlord-free-roll', 'kingdom': 'Ostland'}."
    ]


def test_a_document_from_before_losses_were_counted_once_is_still_read(resolved_campaign):
    """Issue 13 retired an army's "pending_losses" (counted twice once the player had taken the
    models off the list) and added "list_due", "losses_before_list" and a submission's "treasury" and
    "taxes". An earlier document is read as migration kingdoms/0006 read the database: an army with
    a list keeps its list as what counts, one without keeps the points as lost before its list."""
    document = campaign_export(campaign=resolved_campaign)
    older = copy.deepcopy(document)
    tor = older["kingdoms"][kingdom_index(older, "Tor Anlec")]
    for kingdom in older["kingdoms"]:
        for army in kingdom["armies"]:
            del army["list_due"], army["losses_before_list"]
            army["pending_losses"] = 100
    scouts = next(a for a in tor["armies"] if a["name"] == "Scouts")
    scouts["units"] = []  # its list never entered
    for turn in older["turns"]:
        for sheet in turn["sheets"]:
            for submission in sheet["submissions"]:
                del submission["treasury"], submission["taxes"]

    imported = campaign_import(document=older)

    # The players' armies (the Ancient Dead's risen hosts have no list: theirs is not wanted).
    armies = {
        a.name: a for a in Army.objects.filter(kingdom__campaign=imported).exclude(kingdom__army_type="ancient-dead")
    }
    assert armies["Scouts"].losses_before_list == 100
    assert {a.losses_before_list for name, a in armies.items() if name != "Scouts"} == {0}
    assert not any(a.list_due for a in armies.values())
    assert {s.treasury for s in OrderSubmission.objects.filter(sheet__turn__campaign=imported)} == {None}


def test_a_sheet_s_choice_of_the_unit_that_takes_the_losses_travels_with_its_army(resolved_campaign):
    document = campaign_export(campaign=resolved_campaign)
    sheet = next(s for t in document["turns"] for s in t["sheets"] if s["kingdom"] == "Tor Anlec")
    sheet["entries"]["losses"] = [{"army": ["Tor Anlec", "Raiders"], "unit": "Spearmen"}]

    imported = campaign_import(document=document)

    raiders = Army.objects.get(kingdom__campaign=imported, name="Raiders")
    stored = OrderSheet.objects.get(turn__campaign=imported, kingdom__name="Tor Anlec").entries
    assert stored["losses"] == [{"army": raiders.id, "unit": "Spearmen"}]
    assert campaign_export(campaign=imported)["turns"] == document["turns"]


def test_a_malformed_tomb_raider_force_is_refused_naming_every_problem(eventful_campaign):
    document = campaign_export(campaign=eventful_campaign)
    ostland = document["kingdoms"][kingdom_index(document, "Ostland")]
    force = ostland["tomb_raiders"]
    assert [e["name"] for e in force["entries"]] == ["Captain", "Swordsmen", "Greatsword"]
    force["entries"][1]["out_of_action"] = 6  # of 5 models
    force["entries"][2]["name"] = "captain"
    force["entries"][2]["base"] = "40mm"
    force["entries"][0]["models_count"] = 151
    dead = document["kingdoms"][kingdom_index(document, "The Ancient Dead")]
    dead["tomb_raiders"] = copy.deepcopy(force)

    messages = refused(document)

    k = 'kingdoms[{}] "{}" / tomb_raiders'
    ours, theirs = (
        k.format(kingdom_index(document, "Ostland"), "Ostland"),
        k.format(kingdom_index(document, "The Ancient Dead"), "The Ancient Dead"),
    )
    expected = [
        f'{ours} / entries[1] "Swordsmen": more models out of action than the entry has.',
        f'{ours} / entries[2] "captain": two entries are called "captain".',
        f'{ours} / entries[2] "captain": "base": Value \'40mm\' is not a valid choice.',
        f'{ours} / entries[0] "Captain": "models_count": Ensure this value is less than or equal to 150.',
        f"{theirs}: the Ancient Dead keep no Tomb Raiders.",
    ]
    assert [m for m in expected if m not in messages] == [], messages


def test_text_longer_than_its_column_is_refused_naming_the_key(resolved_campaign):
    # Bad input gets a clear error and changes nothing: SQLite would keep a 101-character army name,
    # PostgreSQL refuse it only as the row is written; the reader names the key on either.
    document = campaign_export(campaign=resolved_campaign)
    document["provinces"][0]["name"] = "A" * 101
    plain = next(i for i, roll in enumerate(document["dice_rolls"]) if isinstance(roll["stream"], str))
    document["dice_rolls"][plain]["stream"] = "s" * 101

    assert refused(document) == [
        f'provinces[0] (number {document["provinces"][0]["number"]}): "name" should be a string of at most 100 '
        f"characters, not {'A' * 101!r:.60}.",
        f"dice_rolls[{plain}] / stream: the stream should be a string of at most 100 characters, "
        f"not {'s' * 101!r:.60}.",
    ]
