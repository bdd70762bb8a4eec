"""The turn's map with its moves and battles (issue 18, "What would delight them"; rules decision
340): battle markers are public once the turn is over (the bulletin lists the battles), a move is
its army's whereabouts, drawn only for the reader's own armies (every army's for the organizer).

Turn 1 of the demo: Tor Anlec's Raiders march from 52 into Ostland's Hartwood (62), Da Red Fang's
Boyz from 60 into Ostland's city Eldenhall (61); two battles."""

from __future__ import annotations

import re

from reports.models import TurnMap, TurnReport
from tests.reports.test_reports import client_for


def moves(svg: str) -> set[str]:
    return set(re.findall(r'class="move" data-kingdom="\d+" data-path="([\d-]+)"', svg))


def battles(svg: str) -> set[str]:
    return set(re.findall(r'class="battle" data-province="(\d+)"', svg))


def test_the_results_page_draws_the_reader_s_moves_and_battles_only(reported):
    """Movement is secret (a player sees only their own armies); the organizer sees every move."""
    page = client_for("dave").get(f"/turns/{reported.pk}/results/").content.decode()
    assert moves(page) == {"52-62"} and battles(page) == {"62"}
    assert "Boyz" not in page  # Da Red Fang's army, its move and its battle: none of Tor Anlec's business
    page = client_for("bob").get(f"/turns/{reported.pk}/results/").content.decode()
    assert moves(page) == {"60-61"} and battles(page) == {"61"}
    page = client_for("organizer").get(f"/turns/{reported.pk}/results/").content.decode()
    assert {"52-62", "60-61"} <= moves(page) and battles(page) == {"61", "62"}


def test_the_bulletin_map_shows_every_battle_and_no_move_and_each_report_its_own_moves(reported, k):
    """The bulletin's picture is the turn's public map: both battles, no arrows; each kingdom's report
    lays its own moves over it (the overlay printed in its PDF)."""
    public = TurnMap.objects.get(turn=reported).svg
    assert battles(public) == {"61", "62"} and moves(public) == set()
    overlay = {
        name: TurnReport.objects.get(turn=reported, kind=TurnReport.Kind.KINGDOM, kingdom=k[name]).snapshot[
            "armies_svg"
        ]
        for name in ("Tor Anlec", "Da Red Fang", "Ostland")
    }
    assert moves(overlay["Tor Anlec"]) == {"52-62"}
    assert moves(overlay["Da Red Fang"]) == {"60-61"}
    assert moves(overlay["Ostland"]) == set()  # the Wardens held
    assert all(battles(svg) == set() for svg in overlay.values())
    assert not TurnReport.objects.filter(turn=reported).exclude(status=TurnReport.Status.READY).exists()
