"""Reads of turns and order sheets, with visibility: a player sees only their own kingdom's
sheets; the organizer sees every sheet and who has not submitted. Anything else is 404."""

from __future__ import annotations

import functools

from django.db import connection
from django.db.models import Count, Q
from django.http import Http404

from briternia.one_statement import model_from_row, row_converters_build
from briternia.prepared import prepared_cursor
from kingdoms.models import Campaign, Kingdom
from kingdoms.selectors import AnyUser, campaigns_visible, is_organizer, kingdom_of
from turns.models import Turn

from .models import OrderSheet


def turn_get(*, user: AnyUser, turn_id: int) -> Turn:
    turn = Turn.objects.select_related("campaign").filter(pk=turn_id, campaign__in=campaigns_visible(user)).first()
    if turn is None:
        raise Http404("No such turn.")
    return turn


def order_sheet_kingdom_get(
    *, user: AnyUser, turn: Turn, kingdom_id: int | None = None, own: Kingdom | None = None
) -> Kingdom:
    """The kingdom whose sheet the user asks for: their own, or any for the organizer. `own`: the
    user's own kingdom in the turn's campaign, if the caller has read it (`order_sheet_turn_get`)."""
    if kingdom_id is None:
        kingdom = own or kingdom_of(user=user, campaign=turn.campaign)
    elif is_organizer(user, turn.campaign):
        kingdom = turn.campaign.kingdoms.filter(pk=kingdom_id).first()
    else:
        own = own or kingdom_of(user=user, campaign=turn.campaign)
        kingdom = own if own is not None and own.pk == kingdom_id else None
    if kingdom is None:
        raise Http404("No such order sheet.")
    return kingdom


def order_sheet_turn_get(*, user: AnyUser, turn_id: int) -> tuple[Turn, Kingdom | None]:
    """`turn_get` for the order sheet's API, with the user's own kingdom in the campaign (None for
    its organizer, whose sheet is named: `order_sheet_kingdom_get`). The turn, its campaign and the
    user's kingdom there (`kingdom_of`'s: the first they play) are read in one statement, and the
    turn's visibility told by them (a user sees the campaigns they organize or play in, and one who
    plays in one has a kingdom there), not by a subquery of the visible campaigns: every submission
    of the weekly rush asks (issue 35)."""
    row = _turn_and_own_kingdom(user, turn_id) if user.is_authenticated else None
    if row is None:
        raise Http404("No such turn.")
    turn, own = row
    if is_organizer(user, turn.campaign):
        return turn, None
    if own is None:
        raise Http404("No such turn.")  # the campaign is not the user's: neither is the turn
    return turn, own


def order_sheet_turn_statement_build() -> None:
    """`order_sheet_turn_get`'s statement and its rows' converters built now (a web worker's
    warm-up, briternia/warm.py), not by its first requests."""
    _turn_and_own_kingdom_sql(connection.vendor)
    row_converters_build(Turn, Campaign, Kingdom)


def order_sheet_turn_statement_prepare() -> None:
    """`order_sheet_turn_get`'s statement run once for a user and a turn that do not exist: this
    thread's connection prepares it (a web worker's warm-up)."""
    with prepared_cursor() as cursor:
        cursor.execute(_turn_and_own_kingdom_sql(connection.vendor), [0, 0])
        cursor.fetchall()


def _turn_and_own_kingdom(user: AnyUser, turn_id: int) -> tuple[Turn, Kingdom | None] | None:
    """The turn with its campaign and the user's first kingdom in it (None if they play none), or
    None if there is no such turn: one hand-written statement (the ORM would read the kingdom with a
    query of its own)."""
    sql = _turn_and_own_kingdom_sql(connection.vendor)
    with prepared_cursor() as cursor:
        cursor.execute(sql, [user.pk, turn_id])
        row = cursor.fetchone()
    if row is None:
        return None
    split = len(Turn._meta.concrete_fields)
    own_at = split + len(Campaign._meta.concrete_fields)
    turn = model_from_row(Turn, row[:split])
    turn.campaign = model_from_row(Campaign, row[split:own_at])
    own = None
    if row[own_at] is not None:
        own = model_from_row(Kingdom, row[own_at:])
        own.campaign = turn.campaign
    return turn, own


@functools.cache
def _turn_and_own_kingdom_sql(vendor: str) -> str:
    """`_turn_and_own_kingdom`'s statement (built once)."""
    quote = connection.ops.quote_name
    turn_fields, campaign_fields = Turn._meta.concrete_fields, Campaign._meta.concrete_fields
    players = Kingdom.players.through._meta
    player_kingdom = quote(Kingdom.players.field.m2m_column_name())
    player_user = quote(Kingdom.players.field.m2m_reverse_name())
    columns = (
        [f"t.{quote(f.column)}" for f in turn_fields]
        + [f"c.{quote(f.column)}" for f in campaign_fields]
        + [f"k.{quote(f.column)}" for f in Kingdom._meta.concrete_fields]
    )
    kingdom_table, campaign_column = quote(Kingdom._meta.db_table), quote(Kingdom._meta.get_field("campaign").column)
    turn_and_campaign = (
        f"SELECT {', '.join(columns)} FROM {quote(Turn._meta.db_table)} t "
        f"INNER JOIN {quote(Campaign._meta.db_table)} c ON c.id = t.{quote(Turn._meta.get_field('campaign').column)} "
    )
    if vendor == "postgresql":
        # The user's kingdoms first (the players' index on the user, read once), then the campaign's
        # among them, joined once (LATERAL). The plan PostgreSQL chose for the other form while its
        # statistics of a campaign just made were young (the load test's, a new season's) hashed
        # every kingdom and probed the players' index once for each of the campaign's kingdoms,
        # twice: 400 probes and 0.5 ms of the server for a 200-kingdom campaign at every request of
        # the rush, 10 buffers now (issue 35).
        return (
            f"{turn_and_campaign}LEFT OUTER JOIN LATERAL (SELECT k2.* FROM {kingdom_table} k2 WHERE k2.id = ANY(ARRAY("
            f"SELECT p.{player_kingdom} FROM {quote(players.db_table)} p WHERE p.{player_user} = %s)) "
            f"AND k2.{campaign_column} = c.id ORDER BY k2.id LIMIT 1) k ON true "
            "WHERE t.id = %s"
        )
    return (
        f"{turn_and_campaign}LEFT OUTER JOIN {kingdom_table} k ON k.id = ("
        f"SELECT k2.id FROM {kingdom_table} k2 INNER JOIN {quote(players.db_table)} p ON p.{player_kingdom} = k2.id "
        f"WHERE k2.{campaign_column} = c.id AND p.{player_user} = %s ORDER BY k2.id LIMIT 1) "
        "WHERE t.id = %s"
    )


def order_sheets_overview(*, user: AnyUser, turn: Turn) -> list[tuple[Kingdom, OrderSheet | None]]:
    """Organizer only: every kingdom with its sheet (None when it has filed nothing)."""
    if not is_organizer(user, turn.campaign):
        raise Http404("No such page.")
    # With how many submissions may resolve and how many are kept for the record (never resolved).
    sheets = {
        s.kingdom_id: s
        for s in OrderSheet.objects.filter(turn=turn).annotate(
            resolving=Count("submissions", filter=Q(submissions__for_record=False)),
            kept_for_record=Count("submissions", filter=Q(submissions__for_record=True)),
        )
    }
    return [(k, sheets.get(k.id)) for k in turn.campaign.kingdoms.order_by("id")]
