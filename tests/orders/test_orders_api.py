"""Order sheets through the API and the pages: one validation path, and secrecy per endpoint."""

import pytest
from django.contrib.auth import get_user_model

from kingdoms.models import Kingdom
from orders.models import OrderSheet
from tests.clients import error_details


@pytest.fixture
def users(demo_campaign):
    User = get_user_model()
    return {u.username: u for u in User.objects.all()}


@pytest.fixture
def kingdoms(demo_campaign):
    return {k.name: k for k in Kingdom.objects.filter(campaign=demo_campaign)}


def adjacent_move(kingdom):
    army = kingdom.armies.get(kind="field")
    target = army.province.neighbours.exclude(terrain="desert").order_by("number").first()
    return {"army": army.id, "kind": "move", "target": target.number}


def test_submit_through_the_api_and_read_it_back(api_client_for, users, kingdoms, turn):
    client = api_client_for(users["alice"])
    order = adjacent_move(kingdoms["Ostland"])
    response = client.put(f"/api/turns/{turn.pk}/sheet/", {"orders": [order], "submit": True}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["sheet"]["status"] == "submitted"
    read = client.get(f"/api/turns/{turn.pk}/sheet/").json()
    assert read["sheet"]["entries"]["orders"][0]["target"] == order["target"]
    assert read["check"]["errors"] == []


def test_invalid_sheet_through_the_api_is_400_naming_the_army_and_rule(api_client_for, users, kingdoms, turn):
    army = kingdoms["Ostland"].armies.get(kind="field")
    far = turn.campaign.provinces.exclude(pk__in=army.province.neighbours.all()).exclude(pk=army.province_id).first()
    response = api_client_for(users["alice"]).put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [{"army": army.id, "kind": "move", "target": far.number}], "submit": True},
        format="json",
    )
    assert response.status_code == 400
    assert "1st Army" in error_details(response)[0] and "(5. Executing Orders: Move)" in error_details(response)[0]
    assert not OrderSheet.objects.filter(kingdom=kingdoms["Ostland"]).exists()


def test_an_order_for_another_kingdoms_army_is_refused(api_client_for, users, kingdoms, turn):
    fang_army = kingdoms["Da Red Fang"].armies.get(kind="field")
    response = api_client_for(users["alice"]).put(
        f"/api/turns/{turn.pk}/sheet/", {"orders": [{"army": fang_army.id}], "submit": True}, format="json"
    )
    assert response.status_code == 400
    assert f"Army {fang_army.id} is not one of your active armies" in error_details(response)[0]


def test_another_kingdoms_sheet_answers_404_everywhere(api_client_for, client, users, kingdoms, turn):
    fang = kingdoms["Da Red Fang"]
    api_client_for(users["bob"]).put(
        f"/api/turns/{turn.pk}/sheet/", {"orders": [adjacent_move(fang)], "submit": True}, format="json"
    )
    alice = api_client_for(users["alice"])
    assert alice.get(f"/api/turns/{turn.pk}/sheet/?kingdom={fang.pk}").status_code == 404
    assert (
        alice.put(f"/api/turns/{turn.pk}/sheet/?kingdom={fang.pk}", {"submit": False}, format="json").status_code == 404
    )
    assert alice.get(f"/api/turns/{turn.pk}/sheets/").status_code == 404
    assert alice.post(f"/api/turns/{turn.pk}/deadlines/", {}, format="json").status_code == 404
    client.force_login(users["alice"])
    for url in (
        f"/turns/{turn.pk}/orders/{fang.pk}/",
        f"/turns/{turn.pk}/orders/{fang.pk}/receipt/",
        f"/turns/{turn.pk}/sheets/",
    ):
        assert client.get(url).status_code == 404, url
    assert client.post(f"/turns/{turn.pk}/deadlines/", {}).status_code == 404
    assert client.post(f"/campaigns/{turn.campaign_id}/pause/", {"paused": "1"}).status_code == 404


def test_the_organizer_sees_every_sheet_and_who_has_not_submitted(api_client_for, client, users, kingdoms, turn):
    api_client_for(users["bob"]).put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [adjacent_move(kingdoms["Da Red Fang"])], "submit": True},
        format="json",
    )
    organizer = api_client_for(users["organizer"])
    rows = {r["name"]: r["status"] for r in organizer.get(f"/api/turns/{turn.pk}/sheets/").json()}
    assert rows["Da Red Fang"] == "submitted" and rows["Ostland"] == "missing"
    fang_sheet = organizer.get(f"/api/turns/{turn.pk}/sheet/?kingdom={kingdoms['Da Red Fang'].pk}")
    assert fang_sheet.status_code == 200
    client.force_login(users["organizer"])
    page = client.get(f"/turns/{turn.pk}/sheets/").content.decode()
    missing = page.split('id="missing"')[1].split("</p>")[0]
    assert "Ostland" in missing and "Da Red Fang" not in missing


def test_form_post_without_javascript_submits_and_shows_the_receipt(client, users, kingdoms, turn):
    ostland = kingdoms["Ostland"]
    order = adjacent_move(ostland)
    client.force_login(users["alice"])
    prefix = f"army-{order['army']}"
    response = client.post(
        f"/turns/{turn.pk}/orders/{ostland.pk}/",
        {
            f"{prefix}-kind": "move",
            f"{prefix}-target": order["target"],
            f"{prefix}-disaster_choice": "casualties",
            "action": "submit",
        },
    )
    assert response.status_code == 302
    receipt = client.get(response["Location"]).content.decode()
    assert "Move into" in receipt and "orders received" in receipt.lower()


def test_who_defends_the_capitol_is_chosen_through_the_api(api_client_for, users, kingdoms, turn):
    """Battle for Towns, Cities, and Capitols: "you may use either the local garrison force or the
    army". The 1st Army holds Ostland's capitol; the sheet says the garrison fights (rule case R4)."""
    army = kingdoms["Ostland"].armies.get(kind="field")
    client = api_client_for(users["alice"])
    url = f"/api/turns/{turn.pk}/sheet/"
    order = {"army": army.id, "kind": "hold", "defend_with": "garrison"}
    response = client.put(url, {"orders": [order], "submit": True}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["sheet"]["entries"]["orders"][0]["defend_with"] == "garrison"

    unknown = client.put(url, {"orders": [{**order, "defend_with": "everyone"}], "submit": True}, format="json")
    assert unknown.status_code == 400
    assert [(e["attr"], e["code"]) for e in unknown.json()["errors"]] == [("orders.0.defend_with", "invalid_choice")]
    target = army.province.neighbours.filter(settlement="none").exclude(terrain="desert").order_by("number").first()
    leaving = {**order, "kind": "move", "target": target.number}
    refused = client.put(url, {"orders": [leaving], "submit": True}, format="json")
    assert refused.status_code == 400
    (problem,) = refused.json()["errors"]
    assert (problem["code"], problem["armies"]) == ("defend-with-no-garrison", [army.id])
    assert problem["detail"].startswith("1st Army: ") and "Battle for Towns, Cities, and Capitols" in problem["detail"]
    assert client.get(url).json()["sheet"]["entries"]["orders"][0]["defend_with"] == "garrison"  # the last stands


def test_the_sheet_page_offers_the_garrison_and_the_receipt_says_who_defends(client, users, kingdoms, turn):
    ostland = kingdoms["Ostland"]
    army = ostland.armies.get(kind="field")
    client.force_login(users["alice"])
    url = f"/turns/{turn.pk}/orders/{ostland.pk}/"
    page = client.get(url).content.decode()
    assert f'name="army-{army.id}-defend_with"' in page and "If attacked here" in page

    prefix = f"army-{army.id}"
    response = client.post(url, {f"{prefix}-kind": "hold", f"{prefix}-defend_with": "garrison", "action": "submit"})
    assert response.status_code == 302
    receipt = client.get(response["Location"]).content.decode()
    capitol = f"{army.province.number} {army.province.name}"
    assert f"if attacked in {capitol}: the garrison fights, the army supports it" in receipt

    response = client.post(url, {f"{prefix}-kind": "hold", "action": "submit"})  # silent: the army fights
    receipt = client.get(response["Location"]).content.decode()
    assert f"if attacked in {capitol}: the army fights, the garrison supports it" in receipt


def test_form_post_with_a_bad_sheet_shows_the_errors_in_place_and_saves_nothing(client, users, kingdoms, turn):
    ostland = kingdoms["Ostland"]
    army = ostland.armies.get(kind="field")
    client.force_login(users["alice"])
    response = client.post(
        f"/turns/{turn.pk}/orders/{ostland.pk}/",
        {
            "create-0-name": "2nd Army",
            "create-0-points": "900",
            "create-0-province": army.province.number,
            f"army-{army.id}-kind": "hold",
            f"army-{army.id}-disaster_choice": "casualties",
            "action": "submit",
        },
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "an army of 900 points cannot be created" in page
    assert not OrderSheet.objects.filter(kingdom=kingdoms["Ostland"]).exists()


def test_schema_lists_the_order_endpoints(client, users):
    client.force_login(users["alice"])
    schema = client.get("/api/schema/").content.decode()
    assert "/api/turns/{turn_id}/sheet/" in schema and "/api/turns/{turn_id}/sheets/" in schema


def test_organizer_sets_the_weekly_schedule_and_players_are_told(
    client, users, turn, django_capture_on_commit_callbacks
):
    from django.core import mail

    from orders.models import DeadlineChange
    from orders.services.turns import schedule_of

    client.force_login(users["organizer"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/campaigns/{turn.campaign_id}/schedule/",
            {"orders_weekday": 5, "orders_time": "18:00", "results_weekday": 1, "results_time": "22:00"},
        )
    assert response.status_code == 302
    schedule = schedule_of(turn.campaign)
    assert (schedule.orders_weekday, schedule.orders_time.hour) == (5, 18)
    change = DeadlineChange.objects.get(kind="schedule")
    assert "Saturday 18:00" in change.new_value and "Sunday 20:00" in change.old_value
    assert any("Saturday 18:00" in m.body for m in mail.outbox)


@pytest.fixture
def a1_and_a10(kingdoms):
    """Ostland's 1st Army renamed "A10" and a new army "A1" in another of Ostland's provinces:
    one name is the beginning of the other."""
    from kingdoms.models import Army
    from tests.battle_setup import army_with_list

    ostland = kingdoms["Ostland"]
    a10 = ostland.armies.get(kind="field")
    Army.objects.filter(pk=a10.pk).update(name="A10")
    a10.refresh_from_db()
    elsewhere = (
        ostland.campaign.provinces.filter(controller=ostland, armies__isnull=True)
        .exclude(pk=a10.province_id)
        .order_by("number")
        .first()
    )
    a1 = army_with_list(ostland, "A1", elsewhere, [("Swordsmen", 20, 6)])
    return a1, a10


def _row(page: str, name: str) -> str:
    return page.split(f'data-army="{name}"')[1].split("</tr>")[0]


def test_the_page_puts_an_error_on_its_own_army_s_row_when_one_name_begins_another(
    client, users, kingdoms, turn, a1_and_a10
):
    a1, a10 = a1_and_a10
    ostland = kingdoms["Ostland"]
    client.force_login(users["alice"])
    response = client.post(
        f"/turns/{turn.pk}/orders/{ostland.pk}/",
        {
            f"army-{a1.id}-kind": "hold",
            f"army-{a1.id}-disaster_choice": "casualties",
            f"army-{a10.id}-kind": "recover",  # its province is not razed
            f"army-{a10.id}-disaster_choice": "casualties",
            "action": "submit",
        },
    )
    assert response.status_code == 400
    page = response.content.decode()
    message = f"A10: {a10.province.number} {a10.province.name} is not razed; Recover is for razed provinces (Recover)."
    assert message in page.split('id="sheet-errors"')[1].split("</div>")[0]
    assert message in _row(page, "A10") and "army-error" in _row(page, "A10")
    assert "army-error" not in _row(page, "A1")
    # The same sheet saved as a draft: the page shows the check's errors, placed the same way.
    client.post(
        f"/turns/{turn.pk}/orders/{ostland.pk}/",
        {f"army-{a10.id}-kind": "recover", f"army-{a1.id}-kind": "hold", "action": "draft"},
    )
    page = client.get(f"/turns/{turn.pk}/orders/{ostland.pk}/").content.decode()
    assert message in _row(page, "A10") and "army-error" not in _row(page, "A1")


def test_an_api_400_carries_the_problems_codes_and_army_ids(api_client_for, users, kingdoms, turn, a1_and_a10):
    a1, a10 = a1_and_a10
    stranger = kingdoms["Da Red Fang"].armies.get(kind="field")
    response = api_client_for(users["alice"]).put(
        f"/api/turns/{turn.pk}/sheet/",
        {"orders": [{"army": a10.id, "kind": "recover"}, {"army": a1.id}, {"army": stranger.id}], "submit": True},
        format="json",
    )
    assert response.status_code == 400
    where = f"{a10.province.number} {a10.province.name}"
    # The one error shape (briternia/api.py): each problem's code, the words naming the army and
    # the rule, and the ids of the armies it concerns.
    assert response.json() == {
        "type": "validation_error",
        "errors": [
            {
                "code": "recover-not-razed",
                "detail": f"A10: {where} is not razed; Recover is for razed provinces (Recover).",
                "attr": None,
                "armies": [a10.id],
            },
            {
                "code": "no-such-army",
                "detail": f"Army {stranger.id} is not one of your active armies.",
                "attr": None,
                "armies": [stranger.id],
            },
        ],
    }
    # A draft is kept with its errors: the check in the 200 answer carries the same problems.
    sheet = {"orders": [{"army": a10.id, "kind": "recover"}], "submit": False}
    draft = api_client_for(users["alice"]).put(f"/api/turns/{turn.pk}/sheet/", sheet, format="json")
    assert draft.status_code == 200
    check = draft.json()["check"]
    assert [(p["code"], p["army"]) for p in check["problems"]] == [("recover-not-razed", a10.id)]
    assert check["warning_problems"] == []


def test_the_schema_documents_the_refusal_and_its_problems(client, users):
    client.force_login(users["alice"])
    schema = client.get("/api/schema/").content.decode()
    # The refusal is the one error shape, with the armies it concerns (briternia/api.py).
    assert "ErrorResponse400" in schema and "armies:" in schema
    assert "SheetProblem" in schema and "recover-not-razed" in schema


def _taxes(kingdom) -> int:
    """1. Tally Gold for the kingdom's provinces, net of the Empire's Imperial Taxation."""
    tax = {"city": (300, 50), "town": (150, 25)}
    total = 0
    for p in kingdom.provinces.all():
        if p.razed or p.terrain == "desert":
            continue
        taxes, levy = tax.get(p.settlement, (30, 5))
        total += taxes - (levy if kingdom.army_type == "empire" else 0)
    return total


def test_case_R6_the_sheet_shows_this_turn_s_taxes_beside_the_treasury(client, api_client_for, users, kingdoms, turn):
    """1. Tally Gold comes before 3. Create / Upgrade Armies: the page, the API and the receipt show
    the taxes the turn will bring beside the treasury, and what the sheet may spend."""
    ostland = kingdoms["Ostland"]
    treasury, taxes = ostland.treasury_balance(), _taxes(ostland)
    assert taxes > 0
    client.force_login(users["alice"])
    page = client.get(f"/turns/{turn.pk}/orders/{ostland.pk}/").content.decode()
    gold = page.split('id="gold"')[1].split("</table>")[0]
    assert f'Taxes this turn</th><th class="num">{taxes}</th>' in gold
    assert f'Available</th><th class="num">{treasury + taxes}</th>' in gold

    api = api_client_for(users["alice"])
    response = api.put(f"/api/turns/{turn.pk}/sheet/", {"orders": [], "submit": True}, format="json")
    check = response.json()["check"]
    assert (check["treasury"], check["taxes"], check["available"]) == (treasury, taxes, treasury + taxes)
    receipt = client.get(f"/turns/{turn.pk}/orders/{ostland.pk}/receipt/").content.decode()
    assert f"(treasury {treasury}, this turn's taxes {taxes}: 1. Tally Gold comes before" in receipt


def test_the_form_names_the_unit_that_takes_the_army_s_losses_first(client, users, kingdoms, turn):
    """Foraging Table, Guerrilla Tactics: the player chooses the models, by a standing choice."""
    ostland = kingdoms["Ostland"]
    army = ostland.armies.get(kind="field")
    unit = army.units.exclude(category="character").order_by("position").last()
    client.force_login(users["alice"])
    page = client.get(f"/turns/{turn.pk}/orders/{ostland.pk}/").content.decode()
    choices = page.split(f'name="army-{army.id}-losses_from"')[1].split("</select>")[0]
    assert "core units first" in choices and unit.name in choices
    assert "Elector Count Valten" not in choices  # a character never takes them
    response = client.post(
        f"/turns/{turn.pk}/orders/{ostland.pk}/",
        {f"army-{army.id}-kind": "hold", f"army-{army.id}-losses_from": unit.name, "action": "submit"},
    )
    assert response.status_code == 302
    assert OrderSheet.objects.get(kingdom=ostland).entries["losses"] == [{"army": army.id, "unit": unit.name}]
    receipt = client.get(response["Location"]).content.decode()
    assert f"losses first from {unit.name}" in receipt


def test_the_sheet_page_and_the_api_say_which_lists_are_due_and_by_when(client, api_client_for, users, kingdoms, turn):
    from kingdoms.models import Army
    from rulebook.campaign_schedule import deadline_text

    ostland = kingdoms["Ostland"]
    raised = Army.objects.create(
        kingdom=ostland, name="2nd Army", province=ostland.capitol, size=1500, created_turn=1, list_due=True
    )
    deadline = deadline_text(turn.orders_deadline, turn.campaign.time_zone)
    message = (
        f"2nd Army: its list is due; enter it by {deadline}. Until it is entered the army counts at the 1,500 "
        "points paid for it (Army Restrictions)."
    )
    client.force_login(users["alice"])
    page = client.get(f"/turns/{turn.pk}/orders/{ostland.pk}/").content.decode()
    assert message in page.split('id="lists-due"')[1]
    response = api_client_for(users["alice"]).put(f"/api/turns/{turn.pk}/sheet/", {"submit": False}, format="json")
    (due,) = response.json()["check"]["lists_due"]
    assert (due["army"], due["points"], due["message"]) == (raised.id, 1500, message)


def test_a_forced_march_that_also_supports_a_battle_is_submitted_through_the_api(api_client_for, users, kingdoms, turn):
    """Decision 588 (4. Write Orders: "Move and / or Support"; a Forced March is how an army moves): the
    API takes a Forced March with a support province bordering the army, and reads it back. Before, it
    answered 400 ("only Move or Support orders may support a battle")."""
    from orders.services.sheets import order_sheet_context_load
    from rulebook.turn.write_orders.targets import sheet_targets

    ostland = kingdoms["Ostland"]
    army = ostland.armies.get(kind="field")
    targets = sheet_targets(order_sheet_context_load(kingdom=ostland, turn=turn)).armies[army.id]
    first, seconds = next(iter(targets.march.items()))
    order = {"army": army.id, "kind": "forced-march", "path": [first, seconds[0]], "support": targets.support[0]}
    client = api_client_for(users["alice"])

    response = client.put(f"/api/turns/{turn.pk}/sheet/", {"orders": [order], "submit": True}, format="json")

    assert response.status_code == 200, response.json()
    (read,) = client.get(f"/api/turns/{turn.pk}/sheet/").json()["sheet"]["entries"]["orders"]
    assert (read["kind"], read["path"], read["support"]) == ("forced-march", order["path"], order["support"])
