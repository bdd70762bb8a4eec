"""What the import reads of documents written before the current version only: version 3's emails
(the reports' alone) and, before version 5, the dice rolls' streams as written (with the ids of the
site they came from). The reader (reader.py) is one of these; the current version's path never
calls them."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from reports.services.deliveries import EMAIL_KINDS

from .campaign_models import Battle, DiceRoll, ReportEmail, TurnReport
from .plan import EmailPlan
from .reading import Reading, label
from .references import stream_ids
from .schema import EMAIL_V3_KEYS


class OlderDocuments(Reading):
    """The reading of what only older documents hold."""

    def __init__(self) -> None:
        super().__init__()
        # The scenario streams of a document before version 5, with their turn and province numbers:
        # translated once the battles are read (older_stream).
        self.older_scenarios: list[tuple[DiceRoll, Any, int]] = []

    def dice_rolls(self, read: dict[int, Any], rows: list[Any]) -> None:
        """The dice rolls (transfer/layout.py DICE_ROLLS): a document's before version 5 with their
        streams as written (older_stream)."""
        for index, roll in read.items():
            if self.version < 5 and isinstance(rows[index].get("stream"), str):
                self.older_stream(roll, rows[index])

    def older_stream(self, roll: DiceRoll, values: dict[str, Any]) -> None:
        """A stream of a document written before version 5, as written: with the ids of the site
        it came from. Named by natural key when the document itself says what they named: a Warlord's
        free roll rolls for its one kingdom (the roll's "kingdoms"); a battle's scenario, once the
        turns are read, for the attacker of the one battle of its turn in its province. Otherwise kept
        as written (naming the original's ids)."""
        parts = stream_ids(values["stream"])
        if parts is None or parts[1] is None:
            return
        prefix, numbers = parts
        kingdoms = values.get("kingdoms")
        if prefix == "warlord-free-roll":
            if isinstance(kingdoms, list) and len(kingdoms) == 1 and kingdoms[0] in self.plan.kingdoms:
                self.restream(roll, (prefix, (self.plan.kingdoms[kingdoms[0]],)))
        elif prefix == "scenario" and "turn" in values:
            self.older_scenarios.append((roll, values["turn"], numbers[0]))

    def older_scenario_streams(self) -> None:
        """The scenario streams of a document before version 5 (older_stream), now that its turns
        and their battles are read."""
        for roll, number, province in self.older_scenarios:
            attackers = {
                id(battle.attacker_army): battle.attacker_army
                for battle in self.plan.rows.get(Battle._meta.label, [])
                if battle.turn.number == number and battle.province is not None and battle.province.number == province
            }
            if len(attackers) == 1 and None not in attackers.values():
                (army,) = attackers.values()
                self.restream(roll, ("scenario", (province, army)))

    def restream(self, roll: DiceRoll, stream: tuple[str, tuple[Any, ...]]) -> None:
        """Write an older document's stream as a version 5 document names it (its ids the copy's)."""
        self.plan.translated = [
            (row, name, reference, stream if row is roll and name == "stream" else data)
            for row, name, reference, data in self.plan.translated
        ]

    def report_emails_v3(self, rows: list[Any]) -> None:
        """Version 3's emails: the reports' alone, each to one address, nothing rendered kept. Read
        as the site carried such rows into the outbox (reports migration 0002): an email of its
        report's kind and turn, keyed report:<report>:<address>, with no subject, text or
        attachment; a ready report with an email not sent yet is left for the deadline sweep to
        render it (its emails_queued_at cleared), as the migration left it."""
        sent: set[tuple[int, Any]] = set()
        for index, row in enumerate(rows):
            where = label(f"emails[{index}]", row, "to")
            values = self.keys(row, where, EMAIL_V3_KEYS)
            if values is None:
                continue
            report = self.keyed_row("report", values["report"], f"{where} / report") if "report" in values else None
            to = values.get("to")
            if to is not None:
                try:
                    validate_email(to)
                except ValidationError as error:
                    for message in error.messages:
                        self.problem(where, f'"to": {message}')
            email = self.instance(
                ReportEmail,
                values,
                ["attach_pdf", "status", "attempts", "last_error"],  # the rest named, or times
                where,
                campaign=self.plan.campaign,
                turn=None if report is None else report.turn,
                report=report,
                user=self.actor(values.get("user"), f"{where} / user"),
                kind=EMAIL_KINDS.get(getattr(report, "kind", None), ""),
                to=[] if to is None else [to],
                subject="",
                text="",
                html="",
            )
            if report is None:
                continue
            if (id(report), to) in sent:
                self.problem(where, f"the report is sent to {to} twice.")
            sent.add((id(report), to))
            if email.status != ReportEmail.Status.SENT and report.status == TurnReport.Status.READY:
                report.emails_queued_at = None
            self.plan.emails.append(EmailPlan(email=email, key=("report", report, f":{to}")))
