"""The pages a campaign's history is read on, made comparable between two campaigns: the
history page's and the organizer's Emails page's content with the ids in their links replaced by
what they name, and each report's download (status, headers and bytes) by the report's name."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client

from kingdoms.models import Campaign
from transfer.campaign_models import Email, TurnReport


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def report_name(report: TurnReport) -> str:
    subject = report.kingdom.name if report.kingdom_id else ""
    if report.battle_id:
        subject = f"battle in {report.battle.province.number} by {report.battle.attacker_army.name}"
    return f"turn {report.turn.number} {report.kind} {subject}".strip()


def _reports(campaign: Campaign) -> list[TurnReport]:
    return list(
        TurnReport.objects.filter(turn__campaign=campaign).select_related(
            "turn", "kingdom", "battle__province", "battle__attacker_army"
        )
    )


def history_page(user: Any, campaign: Campaign) -> str:
    """The content of the campaign's history page as `user` reads it (the header, which carries
    a new CSRF token every time, left out), its links naming turns and reports, not their ids."""
    response = _client(user).get(f"/campaigns/{campaign.pk}/history/")
    assert response.status_code == 200
    main = re.search(r"<main>.*</main>", response.content.decode(), re.DOTALL)
    assert main is not None
    return _named_links(
        main.group(0),
        {
            "campaigns": {campaign.pk: "the campaign"},
            "turns": {turn.pk: f"turn {turn.number}" for turn in campaign.turns.all()},
            "reports": {report.pk: report_name(report) for report in _reports(campaign)},
        },
    )


def emails_page(user: Any, campaign: Campaign) -> str:
    """The content of the campaign's Emails page as `user` (its organizer) reads it, the CSRF tokens
    of its Resend buttons left out, its links naming the campaign and the emails (by kind,
    addresses and the time they were queued), not their ids."""
    response = _client(user).get(f"/campaigns/{campaign.pk}/emails/")
    assert response.status_code == 200
    main = re.search(r"<main>.*</main>", response.content.decode(), re.DOTALL)
    assert main is not None
    content = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">', "", main.group(0))
    emails = {
        e.pk: f"{e.kind} to {e.to_line} at {e.created_at.isoformat()}" for e in Email.objects.filter(campaign=campaign)
    }
    return _named_links(content, {"campaigns": {campaign.pk: "the campaign"}, "emails": emails})


def _named_links(content: str, names: dict[str, dict[int, str]]) -> str:
    """`content` with the id in each link to one of `names`' tables replaced by what it names."""

    def named(match: re.Match[str]) -> str:
        table, pk = match.group(1), int(match.group(2))
        return f"/{table}/[{names[table].get(pk, f'not of this campaign: {pk}')}]/"

    return re.sub(rf"/({'|'.join(names)})/(\d+)/", named, content)


def report_downloads(user: Any, campaign: Campaign) -> dict[str, tuple[int, str, str, bytes]]:
    """Each report of the campaign as `user` downloads it, by the report's name."""
    client = _client(user)
    downloads = {}
    for report in _reports(campaign):
        response = client.get(f"/reports/{report.pk}/")
        downloads[report_name(report)] = (
            response.status_code,
            response.get("Content-Type", ""),
            response.get("Content-Disposition", ""),
            # A refusal is the site's 404 page, whose logout form carries a new CSRF token each time.
            re.sub(rb'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">', b"", response.content),
        )
    return downloads
