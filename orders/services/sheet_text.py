"""The order sheet as text, for a kingdom and a turn (orders.sheet_text): the emails that open a turn
carry it, and the order page shows it ("File by email")."""

from __future__ import annotations

from kingdoms.models import Kingdom
from rulebook.turn.write_orders.context import SheetContext
from rulebook.turn.write_orders.missions import known_armies, known_characters
from rulebook.turn.write_orders.records import ArmyOrder, SheetEntries
from turns.models import Turn

from ..entries import sheet_from_json
from ..models import OrderSheet
from ..sheet_text import SheetNames, sheet_text_write
from .sheets import order_sheet_context_load


def sheet_names(ctx: SheetContext) -> SheetNames:
    """The names a sheet's text writes for the ids it holds, as the kingdom sees them: its own armies,
    and of its rivals only what the site's sheet offers a spy (rules decisions 340 and 455: "a player
    never sees another kingdom's armies or characters unless the rules reveal them"): the armies that
    fought a battle of an earlier turn, and the Warlords and such armies' Generals by their place
    ("Tor Anlec: the Warlord"), never by a name the spy has not learned. Any other is written and
    read by its number ("#<id>"), and is no name a refusal lists."""
    world = ctx.world
    kingdoms = {k.id: k.name for k in world.kingdoms.values()}
    rivals = {i: a for i, a in known_armies(world).items() if a.kingdom != ctx.kingdom}
    characters = known_characters(world, known_armies(world), ctx.rival_characters)
    # The kingdom's Elite Defense Forces are named too: they spend their experience (decision 620).
    own = {a.id: a.name for a in (*ctx.armies.values(), *ctx.elite_defense_forces.values())}
    return SheetNames(
        armies={**{i: a.label for i, a in rivals.items()}, **own},
        own_armies=frozenset(own),
        kingdoms=kingdoms,
        characters={
            i: f"{kingdoms.get(c.kingdom, '?')}: {c.label}" for i, c in characters.items() if c.kingdom != ctx.kingdom
        },
        positions={a.id: a.province for a in ctx.armies.values()},
        army_kingdoms={i: a.kingdom for i, a in rivals.items()},
    )


def order_sheet_prefilled(*, kingdom: Kingdom, turn: Turn, ctx: SheetContext) -> SheetEntries:
    """The kingdom's sheet as it stands (its draft, or what it last submitted: the sheet's entries
    are the last saved), with a block for each of its armies the sheet has no order for: they hold
    (4. Write Orders: an army without orders holds)."""
    sheet = OrderSheet.objects.filter(turn=turn, kingdom=kingdom).first()
    entries = sheet_from_json(sheet.entries) if sheet else SheetEntries()
    ordered = {order.army for order in entries.orders}
    missing = tuple(ArmyOrder(army=army) for army in sorted(ctx.armies) if army not in ordered)
    return SheetEntries(**{**entries.__dict__, "orders": entries.orders + missing})


def order_sheet_text(
    *, kingdom: Kingdom, turn: Turn, entries: SheetEntries | None = None, ctx: SheetContext | None = None
) -> str:
    """The kingdom's order sheet for `turn` as text (orders.sheet_text): `entries`, or the sheet as
    it stands (`order_sheet_prefilled`). `ctx`: the sheet's context, if the caller has loaded it."""
    ctx = ctx or order_sheet_context_load(kingdom=kingdom, turn=turn)
    if entries is None:
        entries = order_sheet_prefilled(kingdom=kingdom, turn=turn, ctx=ctx)
    return sheet_text_write(
        header=order_sheet_header(kingdom=kingdom, turn=turn), entries=entries, names=sheet_names(ctx)
    )


def order_sheet_header(*, kingdom: Kingdom, turn: Turn) -> dict[str, object]:
    return {"campaign": turn.campaign.name, "turn": turn.number, "kingdom": kingdom.name, "draft": "no"}
