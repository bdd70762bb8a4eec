"""An order sheet filed from text (a mail's): read (orders.sheet_text), then saved or submitted by the
same service as the page and the API (`order_sheet_save`), so the same check runs; the answer is the
site's receipt, or every problem on the line of the text it is about."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser

from briternia.errors import DomainError
from kingdoms.models import Campaign, Kingdom
from outbox.models import Email
from rulebook.campaign_schedule import deadline_text
from turns.models import Turn

from ..sheet_text import SheetText, SheetTextError, normalized, sheet_text_read, whole_number
from .emails import RECEIPT_KEY_PREFIX, orders_receipt_render, sheet_answer_queue
from .sheet_text import sheet_names
from .sheets import order_sheet_context_load, order_sheet_problems_data, order_sheet_save

# A mail's subject that says the sheet is a draft (saved, not submitted).
DRAFT_SUBJECT = re.compile(r"\bdraft\b", re.IGNORECASE)


def subject_says_draft(subject: str, *names: str) -> bool:
    """Whether the mail's subject asks for a draft ("DRAFT" in it), the names it repeats from the
    email answered left out: a reply's subject quotes the campaign's (and the kingdom's, the
    province's) name, and a campaign called "The Draft League" must not make every reply a draft."""
    for name in sorted(filter(None, names), key=len, reverse=True):
        subject = re.sub(re.escape(name), " ", subject, flags=re.IGNORECASE)
    return bool(DRAFT_SUBJECT.search(subject))


FILED_BY_EMAIL = "This sheet was filed by email."  # the receipt's first line for a sheet filed by email


@dataclass(frozen=True)
class TextFiling:
    """What became of a sheet filed from text: saved (submitted, or a draft) or refused, and the
    answer's subject and lines; `email` the outbox email queued as the answer (the receipt of a
    submission; for a draft or a refusal, an answer to the user's registered address)."""

    accepted: bool
    subject: str
    lines: list[str]
    email: Email | None


def sheet_text_subject(campaign: str, what: str) -> str:
    return f"{campaign}: {what}" if campaign else what


def order_sheet_text_file(
    *,
    user: AbstractBaseUser,
    header: dict[str, str],
    text: str,
    arrived_at: dt.datetime,
    subject: str = "",
    notes: Sequence[str] = (),
) -> TextFiling:
    """File an order sheet from text for the user's kingdom: the campaign, turn and kingdom its
    `header` names (sheet_text_header); a draft when the sheet says "Draft: yes" or the mail's
    `subject` says draft. Nothing is saved unless the whole sheet is (a submission the check refuses
    changes nothing; the standing submission stands). Every refusal is an answer, never an error."""
    try:
        campaign, turn, kingdom = _sheet_target(user=user, header=header)
    except DomainError as exc:
        title = sheet_text_subject(header.get("campaign", ""), "order sheet refused")
        return _answer(user=user, subject=title, lines=[*exc.messages, *notes])
    title = f"turn {turn.number}, {kingdom.name}"
    read: SheetText | None = None
    ids = {"campaign_id": campaign.pk, "turn_id": turn.pk}
    try:
        ctx = order_sheet_context_load(kingdom=kingdom, turn=turn)
        read = sheet_text_read(text, sheet_names(ctx))
        draft = read.draft or subject_says_draft(subject, campaign.name, kingdom.name)
        result = order_sheet_save(
            kingdom=kingdom,
            turn=turn,
            entries=read.entries,
            submitted_by=user,
            submit=not draft,
            arrived_at=arrived_at,
            receipt_notes=[FILED_BY_EMAIL, *notes],
        )
    except SheetTextError as exc:
        lines = [
            "Your order sheet could not be read, and nothing was saved. Mend these lines and send it again:",
            *exc.messages,
            *notes,
        ]
        return _answer(
            user=user, subject=sheet_text_subject(campaign.name, f"{title}: sheet not read"), lines=lines, **ids
        )
    except DomainError as exc:
        lines = [
            "Your orders were refused, and nothing was saved: your earlier submission, if any, stands. "
            "Mend these and send the sheet again:",
            *_placed(exc, read),
            *_open_turn_note(campaign, turn),
            *notes,
        ]
        return _answer(
            user=user, subject=sheet_text_subject(campaign.name, f"{title}: orders refused"), lines=lines, **ids
        )
    if draft:
        problems = [
            _on_line(p, read) for p in order_sheet_problems_data(result.check.error_problems, result.check.names)
        ]
        lines = [
            f"{kingdom.name}'s sheet for turn {turn.number} is saved as a draft: it is NOT submitted"
            + (" (your earlier submission stands)." if result.sheet.submitted_at else "."),
            *(["To mend before you submit it:", *problems] if problems else ["The sheet check found no error."]),
            *result.check.warnings,
            "To submit it, send the sheet again without the draft keyword (Draft: no).",
            *notes,
        ]
        return _answer(
            user=user,
            subject=sheet_text_subject(campaign.name, f"{title}: draft saved"),
            lines=lines,
            accepted=True,
            **ids,
        )
    # Submitted: the answer is the receipt the site sends too (to the kingdom's players), not a second email.
    # A submission that met the running orders phase is kept for the record (decision 520): its receipt
    # says so, and is the answer as well.
    submission = result.submission or result.record
    receipt = Email.objects.filter(key=f"{RECEIPT_KEY_PREFIX}{submission.pk}").first() if submission else None
    rendered = orders_receipt_render(receipt) if receipt is not None else None
    if receipt is None or rendered is None:  # nobody to write to: the answer is said, not sent
        return TextFiling(
            accepted=True,
            subject=sheet_text_subject(campaign.name, f"{title}: submitted"),
            lines=[f"{kingdom.name}'s orders for turn {turn.number} are submitted.", *notes],
            email=None,
        )
    return TextFiling(accepted=True, subject=rendered[1].subject, lines=rendered[1].text.splitlines(), email=receipt)


def _sheet_target(*, user: AbstractBaseUser, header: dict[str, str]) -> tuple[Campaign, Turn, Kingdom]:
    """The campaign, turn and kingdom the sheet's header names, of the user's own (a player's)."""
    mine = Kingdom.objects.filter(players=user).select_related("campaign")
    if not header.get("campaign"):
        raise DomainError(
            'The sheet does not say which campaign it is for: begin it with the lines "Campaign: <name>", '
            '"Turn: <number>" and "Kingdom: <name>", as the sheet in the turn\'s email does.'
        )
    named = [k for k in mine if normalized(k.campaign.name) == normalized(header["campaign"])]
    if not named:
        raise DomainError(f'You play in no campaign named "{header["campaign"][:100]}": nothing was saved.')
    campaign = named[0].campaign
    if header.get("kingdom"):
        kingdom = next((k for k in named if normalized(k.name) == normalized(header["kingdom"])), None)
        if kingdom is None:
            own = ", ".join(k.name for k in named)
            raise DomainError(
                f'You are not a player of "{header["kingdom"][:100]}" in {campaign.name}: you file the sheet of '
                f"{own} only. Nothing was saved."
            )
    else:
        kingdom = named[0]
    number = whole_number(normalized(header.get("turn", "")))
    if number is None:
        raise DomainError('The sheet does not say which turn it is for: write "Turn: <number>".')
    turn = Turn.objects.select_related("campaign").filter(campaign=campaign, number=number).first()
    if turn is None:
        raise DomainError(f"{campaign.name} has no turn {number}: nothing was saved.")
    return campaign, turn, kingdom


def _open_turn_note(campaign: Campaign, turn: Turn) -> list[str]:
    """For a sheet of a turn whose orders are closed while a later turn's are open (a reply to an old
    turn's email): which turn takes orders now, and where its sheet is."""
    if turn.status == Turn.Status.ORDERS_OPEN:
        return []
    current = campaign.turns.filter(number__gt=turn.number, status=Turn.Status.ORDERS_OPEN).order_by("number").last()
    if current is None:
        return []
    due = deadline_text(current.orders_deadline, campaign.time_zone)
    return [
        f"This sheet is for turn {turn.number}; turn {current.number} is open for orders now (due {due}). "
        f"Reply to an email that carries turn {current.number}'s sheet (your turn {current.number - 1} report, or "
        "the orders reminder), or file it on the site."
    ]


def _placed(exc: DomainError, read: SheetText | None) -> list[str]:
    """The refusal's messages, each on the line of the text it is about."""
    if not exc.problems:
        return list(exc.messages)
    return [_on_line(p, read) for p in exc.problems]


def _on_line(problem: dict, read: SheetText | None) -> str:
    line = read.line_of(problem) if read is not None else None
    return f"Line {line}: {problem['message']}" if line is not None else problem["message"]


def _answer(
    *,
    user: AbstractBaseUser,
    subject: str,
    lines: list[str],
    accepted: bool = False,
    campaign_id: int | None = None,
    turn_id: int | None = None,
) -> TextFiling:
    """A draft's or a refusal's answer, to the user's registered address (never to the mail's sender)."""
    email = sheet_answer_queue(user=user, subject=subject, lines=lines, campaign_id=campaign_id, turn_id=turn_id)
    return TextFiling(accepted=accepted, subject=subject, lines=lines, email=email)
