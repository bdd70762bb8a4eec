"""Who fights a battle, by name, and a way to write to them (issue 18, point 6): the battle page
and the scenario sheet name each side's players (their display names, never an address), and a
player of the battle writes to the other side's players through the site: the message is emailed
by the outbox, one message per address, with Reply-To the sender (rules decision 321)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from briternia.errors import DomainError
from briternia.site import site_url
from kingdoms.models import Kingdom
from kingdoms.people import display_name
from outbox.models import Email
from outbox.services import email_queue
from rulebook.campaign_schedule import moment_text

from ..models import Battle, BattleMessage

MESSAGE_MAX = 2000  # characters: a note to book a game, not a letter
# Rules decision 363: at most this many messages per sender and battle in any hour. Booking a game
# takes a message or two (the replies go by email, Reply-To the sender); the limit stops a flood
# (a script on the API, a form posted again and again) from filling the opponents' inboxes.
MESSAGE_LIMIT = 5
MESSAGE_WINDOW = dt.timedelta(hours=1)
SIDES = ("attacker", "defender")


@dataclass(frozen=True)
class SideKingdom:
    """A kingdom on one side of a battle (its main army's, or a supporting detachment's) and the
    names of its players."""

    kingdom: Kingdom
    players: list[str]

    @property
    def text(self) -> str:
        return f"{self.kingdom.name} ({', '.join(self.players) or 'no player'})"


def side_kingdoms(battle: Battle, side: str) -> list[Kingdom]:
    """The kingdoms that fight on `side`: the main army's first, then the kingdom whose town's
    garrison fights beside its ally's army defending it (decision 585), then each supporting
    detachment's (a neutral garrison has none)."""
    main = battle.attacker_kingdom if side == "attacker" else battle.defender_kingdom
    kingdoms = [main] if main is not None else []
    if side == "defender" and battle.garrison_kingdom_id is not None and battle.garrison_kingdom not in kingdoms:
        kingdoms.append(battle.garrison_kingdom)
    for support in battle.supports.all():
        if support.side == side and support.kingdom_id not in [k.pk for k in kingdoms]:
            kingdoms.append(support.kingdom)
    return kingdoms


def side_players(battle: Battle, side: str) -> list[SideKingdom]:
    return [SideKingdom(k, [display_name(p) for p in k.players.order_by("pk")]) for k in side_kingdoms(battle, side)]


def side_of_kingdom(battle: Battle, kingdom: Kingdom) -> str | None:
    return next((side for side in SIDES if kingdom.pk in [k.pk for k in side_kingdoms(battle, side)]), None)


def _other(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"


def opponents_of(battle: Battle, kingdom: Kingdom) -> list[SideKingdom]:
    """The other side's kingdoms and their players, as `kingdom`'s players see them."""
    side = side_of_kingdom(battle, kingdom)
    return [] if side is None else side_players(battle, _other(side))


def _rate_limit_refusal(battle: Battle, sender: AbstractBaseUser, now: dt.datetime) -> str:
    """Why the sender may not write about this battle now (rules decision 363), or ""."""
    sent = list(
        BattleMessage.objects.filter(battle=battle, sender=sender, sent_at__gt=now - MESSAGE_WINDOW)
        .order_by("sent_at")
        .values_list("sent_at", flat=True)
    )
    if len(sent) < MESSAGE_LIMIT:
        return ""
    # The oldest message of the window leaves it first: one more may go then.
    free_at = sent[len(sent) - MESSAGE_LIMIT] + MESSAGE_WINDOW
    return (
        f"Battle in {battle.province}: you have sent {len(sent)} messages about this battle in the last hour, "
        f"the most the site sends (at most {MESSAGE_LIMIT} an hour per battle); you may write again from "
        f"{moment_text(free_at, battle.turn.campaign.time_zone)}, or answer by email."
    )


def battle_message_send(
    *,
    battle: Battle,
    sender: AbstractBaseUser,
    kingdom: Kingdom | None,
    text: str,
    now: dt.datetime | None = None,
) -> int:
    """Email `text` from a player of the battle to the other side's players (how many will get it).

    Refused whole, nothing queued: a sender who plays no kingdom of the battle, an empty or too long
    message, nobody on the other side to write to, a sender who reached the hour's limit of messages
    about this battle (MESSAGE_LIMIT, rules decision 363)."""
    now = now or timezone.now()
    side = side_of_kingdom(battle, kingdom) if kingdom is not None else None
    text = text.strip()
    errors = []
    if side is None:
        errors.append(f"Battle in {battle.province}: only the players of the battle write to their opponents here.")
    if not text:
        errors.append(f"Battle in {battle.province}: write a message.")
    elif len(text) > MESSAGE_MAX:
        errors.append(f"Battle in {battle.province}: the message is {len(text)} characters; at most {MESSAGE_MAX}.")
    if errors:
        raise DomainError(errors)
    assert side is not None and kingdom is not None
    recipients = [p.email for k in side_kingdoms(battle, _other(side)) for p in k.players.order_by("pk") if p.email]
    recipients = [address for address in recipients if address != sender.email]
    if not recipients:
        raise DomainError(f"Battle in {battle.province}: nobody on the other side has an address to write to.")
    with transaction.atomic():
        # The battle's row locked: two messages posted at once are counted one after the other.
        Battle.objects.select_for_update().filter(pk=battle.pk).first()
        if refusal := _rate_limit_refusal(battle, sender, now):
            raise DomainError(refusal)
        BattleMessage.objects.create(battle=battle, sender=sender, sent_at=now)
        _message_queue(battle=battle, sender=sender, kingdom=kingdom, recipients=recipients, text=text)
    return len(set(recipients))


def _message_queue(
    *, battle: Battle, sender: AbstractBaseUser, kingdom: Kingdom, recipients: list[str], text: str
) -> None:
    email_queue(
        template="battle-message",
        kind=Email.Kind.BATTLE_MESSAGE,
        to=recipients,
        reply_to=sender.email,
        context={
            "battle": battle,
            "campaign": battle.turn.campaign,
            "turn": battle.turn,
            "sender": display_name(sender),
            "kingdom": kingdom,
            "message": text,
            "link": site_url() + reverse("battle", args=[battle.pk]),
        },
        campaign_id=battle.turn.campaign_id,
        turn_id=battle.turn_id,
    )
