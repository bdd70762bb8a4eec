"""What the turn's map draws of the turn itself: its battles (crossed swords) and its moves (arrows).

Rules decision 340: every battle of a finished turn is public (the bulletin lists them), so the
public map of the turn carries their markers; a move is an army's whereabouts, which only its own
kingdom sees (and the organizer), so arrows are drawn for the reader's own armies only: in the
kingdom's private report and on the turn's results page, never on the bulletin.
"""

from __future__ import annotations

from collections.abc import Iterable

from battles.models import Battle
from kernel.event_codes import EventCode
from kingdoms.map_svg import MapArrow, MapBattleMarker
from kingdoms.models import Kingdom
from kingdoms.selectors import campaign_map_svg, map_kingdom_key
from turns.models import Turn, TurnEvent


def battle_markers(battles: Iterable[Battle]) -> list[MapBattleMarker]:
    """A marker per battle, named as the bulletin names it: the province and the kingdoms."""
    markers = []
    for b in battles:
        defender = b.defender_kingdom.name if b.defender_kingdom else "the neutral garrison"
        label = f"Battle in {b.province.number} {b.province.name}: {b.attacker_kingdom.name} against {defender}"
        markers.append(MapBattleMarker(province=b.province.number, label=label))
    return markers


def turn_battle_markers(turn: Turn) -> list[MapBattleMarker]:
    """Every battle of the turn: for its public map, once the turn is over. A Tomb Raiders' mission is
    secret (decision 442): the public map shows the ruin raided, not the raid's skirmish."""
    return battle_markers(
        Battle.objects.filter(turn=turn, mission="").select_related("province", "attacker_kingdom", "defender_kingdom")
    )


def turn_move_arrows(turn: Turn, *, kingdom: Kingdom | None) -> list[MapArrow]:
    """The turn's moves (Movement, Forced March: the MOVED events' "from" and "path") of the
    kingdom's armies; of every kingdom's when `kingdom` is None (the organizer; the reports' overlays,
    which keep each kingdom's own)."""
    events = TurnEvent.objects.filter(turn=turn, code=EventCode.MOVED).select_related("army").order_by("sequence")
    if kingdom is not None:
        events = events.filter(kingdom=kingdom)
    arrows = []
    for event in events:
        if event.kingdom_id is None or "from" not in event.data or not event.data.get("path"):
            continue
        path = (int(event.data["from"]), *(int(n) for n in event.data["path"]))
        label = event.army.name if event.army else "An army"
        arrows.append(MapArrow(path=path, label=label, kingdom=map_kingdom_key(event.kingdom_id)))
    return arrows


def turn_results_map_svg(*, turn: Turn, own: Kingdom | None, organizer: bool, battles: Iterable[Battle]) -> str:
    """The map of the turn's results page: the battles the reader may see there (their own during
    the turn, every one for the organizer) and the moves of their own armies (every army's for the
    organizer); the armies' flags only on the current turn, where they stand now."""
    return campaign_map_svg(
        campaign=turn.campaign,
        viewer=own if turn.number == turn.campaign.current_turn else None,
        turn=turn.number,
        arrows=turn_move_arrows(turn, kingdom=None if organizer else own),
        battles=battle_markers(battles),
    )
