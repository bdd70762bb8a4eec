"""The import's first half: the document read into a plan of unsaved rows, every problem of a
malformed document collected rather than stopping at the first, so whoever fixes the file sees
them all at once. Reads the database (existing accounts), never writes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from orders import entries as codec
from rulebook.tables import ArmyType

from .campaign_models import (
    Army,
    Character,
    ExperienceEntry,
    Kingdom,
    User,
)
from .kinds import is_int, of_version
from .layout import (
    ARMIES,
    CAMPAIGN,
    CAMPAIGN_CHILDREN,
    DICE_ROLLS,
    EMAILS,
    EXPERIENCE_LEDGER,
    KINGDOMS,
    PREFERENCES,
    PROVINCES,
    TURNS,
    USERS,
    field_kind,
)
from .older import OlderDocuments
from .reading import label
from .references import (
    PROVINCE,
    STREAM_ID,
    STREAM_REFERENCES,
    stream_ids,
)
from .schema import (
    ENTRIES_KEYS,
    ENTRY_OPTIONAL_KEYS,
    ENTRY_REFERENCES,
    ENTRY_SECTIONS,
    FORMAT,
    READABLE_VERSIONS,
    STREAM_KEYS,
    TOP_ADDED,
    TOP_KEYS,
    TOP_OPTIONAL_KEYS,
)

# A stream written as text must fit its column (a stream of ids, written again on import, does: its
# prefix and numbers are short).
STREAM_TEXT = field_kind(DICE_ROLLS.model._meta.get_field(STREAM_ID))

# The document's parts (layout.DOCUMENT; None: the adjacency) in the order they are read: each after
# those it names. The accounts before whatever names one (the campaign its organizer), the campaign's
# own lists (an alliance, an effect, a captive) before the turns that name them by place, the turns
# before the emails whose keys name their rows.
READ_ORDER = (USERS, CAMPAIGN, PROVINCES, None, KINGDOMS, DICE_ROLLS, *CAMPAIGN_CHILDREN, TURNS, EMAILS)


class Reader(OlderDocuments):
    """Reads the document into a Plan, every part after those it can refer to, collecting every
    problem. Reads the database (existing accounts), never writes."""

    # -- the campaign's world --------------------------------------------------------------------

    def document(self, document: Any) -> None:
        if not isinstance(document, dict):
            self.problem("The document", f"expected an object, found {document!r:.40}.")
            return
        # Nothing else is worth reading in a file that is not a campaign export of this version.
        if document.get("format") != FORMAT:
            found = f"is {document['format']!r}" if "format" in document else "is missing"
            self.problem("", f"The document's format {found}: it should be {FORMAT!r} (a Briternia campaign export).")
            return
        version = document.get("version")
        if not (is_int(version) and version in READABLE_VERSIONS):
            found = f"is {version!r}" if "version" in document else "is missing"
            *earlier, last = (str(v) for v in READABLE_VERSIONS)
            readable = f"{', '.join(earlier)} and {last}"
            self.problem("", f"The document's version {found}: this site reads versions {readable}.")
            return
        self.version = version
        top = self.keys(document, "The document", of_version(TOP_KEYS, TOP_ADDED, version), optional=TOP_OPTIONAL_KEYS)
        assert top is not None  # a dict, checked above
        # What each part's rows need once read, beyond their fields (its rows by place, its values).
        after_read: dict[int, Callable[[dict[int, Any], Any], None]] = {
            id(USERS): self.users,
            id(CAMPAIGN): self.campaign,
            id(PROVINCES): self.provinces,
            id(KINGDOMS): self.kingdoms,
            id(DICE_ROLLS): self.dice_rolls,
            id(TURNS): lambda read, rows: self.older_scenario_streams(),
        }
        for layout in READ_ORDER:
            if layout is None:
                self.adjacency(top.get("adjacency", []))
            elif layout is EMAILS and self.version < 4:
                self.report_emails_v3(top.get(layout.key, []))
            else:
                # A campaign without its object: its keys are reported missing.
                rows = top.get(layout.key, {} if layout is CAMPAIGN else layout.empty())
                within = {"campaign": self.plan.campaign} if layout.parent == "campaign" else {}
                read = self.layout_rows(layout, rows, "", **within)
                self.at[layout.key] = [read.get(i) for i in range(len(rows) if isinstance(rows, list) else 0)]
                if id(layout) in after_read:
                    after_read[id(layout)](read, rows)
        self.unreferenced_users()

    def users(self, read: dict[int, Any], rows: list[Any]) -> None:
        """The accounts (transfer/layout.py USERS) by username: an existing account is reused as it is
        (the same person on this site, with the report preferences they set here); a new one gets an
        unusable password and the document's report preferences."""
        for index, user in read.items():
            username = user.username
            if not isinstance(username, str) or "username" not in rows[index]:
                continue  # reported
            if username in self.plan.users:
                self.problem(label(f"users[{index}]", rows[index], "username"), "the username appears twice.")
                continue
            existing = User.objects.filter(username=username).first()
            if existing is not None:
                self.plan.users[username] = existing
                continue
            user.set_unusable_password()
            self.plan.users[username] = user
            self.plan.preferences.extend(self.listed[id(user), PREFERENCES.key].values())

    def campaign(self, read: dict[int, Any], data: Any) -> None:
        """The campaign's own row (transfer/layout.py CAMPAIGN), its organizer named by username."""
        if 0 in read:
            self.plan.campaign = read[0]
            self.plan.organizer = data.get("organizer")

    def provinces(self, read: dict[int, Any], rows: list[Any]) -> None:
        """The map's provinces (transfer/layout.py PROVINCES), kept by number: what names a province
        finds it; a province without a number cannot be named (reported)."""
        for index, province in read.items():
            if not is_int(province.number) or province.number in self.plan.provinces:
                continue  # reported
            self.plan.provinces[province.number] = province
            controller = rows[index].get("controller")
            if controller is not None:
                self.plan.controllers[province.number] = controller

    def adjacency(self, rows: list[Any]) -> None:
        for index, pair in enumerate(rows):
            where = f"adjacency[{index}]"
            if not (isinstance(pair, list) and len(pair) == 2 and all(is_int(n) for n in pair)):
                self.problem(where, f"expected a pair of province numbers, found {pair!r:.40}.")
                continue
            a, b = sorted(pair)
            if a == b:
                self.problem(where, f"province {a} cannot be its own neighbour.")
            elif (a, b) in self.plan.adjacency:
                self.problem(where, f"provinces {a} and {b} are listed as neighbours twice.")
            elif self.province(a, where) is not None and self.province(b, where) is not None:
                self.plan.adjacency.add((a, b))

    def kingdoms(self, read: dict[int, Any], rows: list[Any]) -> None:
        """The kingdoms (transfer/layout.py KINGDOMS) by name, then the references read late."""
        for index, kingdom in read.items():
            self.kingdom_read(kingdom, rows[index], label(f"{KINGDOMS.key}[{index}]", rows[index], "name"))
        ancient_dead = [k for k in self.plan.kingdoms.values() if k.army_type == ArmyType.ANCIENT_DEAD]
        if len(ancient_dead) > 1:
            self.problem("kingdoms", f"a campaign has one Ancient Dead kingdom, not {len(ancient_dead)}.")
        living_warlords: dict[str, int] = {}
        for where, row, field_name, how, value in self.late:
            named = self.named(how, value, where)
            if named is None:
                continue  # reported
            setattr(row, field_name, named)
            if isinstance(row, Character) and row.role == Character.Role.WARLORD and row.alive is True:
                living_warlords[value] = living_warlords.get(value, 0) + 1
        for name, count in sorted(living_warlords.items()):
            if count > 1:
                self.problem(f'kingdom "{name}"', f"a kingdom has one living Warlord, not {count}.")

    def kingdom_read(self, kingdom: Kingdom, values: dict[str, Any], where: str) -> None:
        """What a kingdom read by the engine (transfer/layout.py KINGDOMS) needs beyond its fields and
        lists: its place in the plan (the document names it by name), its armies' (army_read)."""
        if not isinstance(kingdom.name, str) or kingdom.name in self.plan.kingdoms:
            return  # reported
        players = values.get("players", [])
        players = players if isinstance(players, list) else []  # reported
        if len(set(players)) != len(players):
            self.problem(f"{where} / players", "a player is listed twice.")
        self.plan.kingdoms[kingdom.name] = kingdom
        self.plan.players.update(players)
        for index, army in self.listed[id(kingdom), ARMIES.key].items():
            data = values[ARMIES.key][index]
            self.army_read(kingdom, army, data, label(f"{where} / {ARMIES.key}[{index}]", data, "name"))
        if values.get("tomb_raiders") is not None and kingdom.army_type == "ancient-dead":
            self.problem(f"{where} / tomb_raiders", "the Ancient Dead keep no Tomb Raiders.")

    def army_read(self, kingdom: Kingdom, army: Army, values: dict[str, Any], where: str) -> None:
        """What an army read by the engine (transfer/layout.py ARMIES) needs beyond its fields: its
        place in its kingdom's plan (an army key names it), what a document written before a key
        meant, its ledger's total."""
        if not isinstance(army.name, str) or (kingdom.name, army.name) in self.plan.armies:
            return  # reported
        self.plan.armies[kingdom.name, army.name] = army
        province = army.province
        if (
            "fortified_in" not in values
            and province is not None
            and province.fortified is True
            and self.plan.controllers.get(province.number) == kingdom.name
            and values.get("kind") == Army.Kind.FIELD
            and values.get("status") == Army.Status.ACTIVE
            and values.get("co_occupying") is not True
        ):
            # A document written before the key: the province's own army there had fortified it.
            army.fortified_in = province
        self.experience_ledger(army, list(self.listed[id(army), EXPERIENCE_LEDGER.key].values()), values, where)
        # `pending_losses` (retired with issue 13) read as migration kingdoms/0006 read the column: an
        # army with a list drops them (the list is what counts); one without keeps them as the points
        # its list, when entered, leaves out.
        if values.get("pending_losses") and not values.get("units") and "losses_before_list" not in values:
            army.losses_before_list = values["pending_losses"]

    def experience_ledger(self, army: Army, ledger: list[ExperienceEntry], values: dict[str, Any], where: str) -> None:
        """The army's experience ledger (read with its other lists), which must add up to its
        experience; a document written before the ledger carries the balance alone, read as one
        carried-over row."""
        if "experience_ledger" not in values:
            if isinstance(army.experience, int) and army.experience > 0:
                self.plan.rows.setdefault(ExperienceEntry._meta.label, []).append(
                    ExperienceEntry(
                        army=army,
                        turn=0,
                        amount=army.experience,
                        reason=ExperienceEntry.CARRIED_OVER,
                        note="Experience before the ledger was kept",
                    )
                )
            return
        total = sum(e.amount for e in ledger if isinstance(e.amount, int))
        if isinstance(army.experience, int) and total != army.experience:
            self.problem(
                f"{where} / experience_ledger",
                f"the rows add up to {total} experience, but the army has {army.experience}.",
            )

    def stream(self, data: Any, where: str) -> str | tuple[str, tuple[Any, ...]] | None:
        """A roll's stream, checked: a string, or for one that holds ids (references.STREAM_REFERENCES),
        since version 5, the object that names them by natural key (schema.STREAM_KEYS), read as its
        prefix and parts (a province's number, the rows named; None: reported)."""
        if isinstance(data, str):
            if not STREAM_TEXT.accepts(data):
                self.problem(where, f"the stream should be {STREAM_TEXT.label}, not {data!r:.60}.")
                return None
            parts = stream_ids(data)
            if parts is not None and self.version >= 5:
                keys = ", ".join(f'"{key}"' for key in STREAM_KEYS[parts[0]])
                self.problem(where, f"{data!r:.60} holds ids: write it as an object with {keys}.")
            return data
        if self.version < 5:
            self.problem(where, f"a version {self.version} document's stream is a string, not {data!r:.60}.")
            return None
        prefix = data.get("prefix")
        if prefix not in STREAM_KEYS:
            self.problem(where, f'"prefix" should be one of {", ".join(STREAM_KEYS)}, not {prefix!r:.40}.')
            return None
        found = self.keys(data, where, STREAM_KEYS[prefix])
        if found is None or len(found) != len(STREAM_KEYS[prefix]):
            return None  # reported
        # A province by number (kept), a kingdom by name, an army by key.
        named = [self.named(reference, found[reference], where) for reference in STREAM_REFERENCES[prefix]]
        return prefix, tuple(
            found[reference] if reference == PROVINCE else row
            for reference, row in zip(STREAM_REFERENCES[prefix], named, strict=True)
        )

    # -- the orders app: the sheets' entries -------------------------------------------------

    def entries(self, data: Any, where: str) -> dict[str, Any]:
        """Sheet entries as orders/entries.py writes them, every army key naming an army of the
        document. Province numbers are not checked: a draft may hold any, as the site allows."""
        if data is None:
            return {}  # missing: reported already
        values = self.keys(data, where, ENTRIES_KEYS, optional=ENTRIES_KEYS)
        if values is None:
            return {}
        resolved: dict[str, Any] = {section: [] for section in values}
        for section, spec in ENTRY_SECTIONS.items():
            for index, item in enumerate(values.get(section, [])):
                item_where = f"{where} / {section}[{index}]"
                item_values = self.keys(item, item_where, spec, optional=ENTRY_OPTIONAL_KEYS.get(section, ()))
                if item_values is None:
                    continue
                rows = {
                    key: self.named(ENTRY_REFERENCES[key], value, item_where)
                    for key, value in item_values.items()
                    if key in ENTRY_REFERENCES and value is not None
                }
                # The rows named in place of their names: written as their ids once they exist.
                resolved[section].append({key: rows.get(key, value) for key, value in item.items()})
                # The values the codec allows (an order's kind, a purchase's...), as it says them.
                for key, choices in ((f.name, f.choices) for f in codec.SECTIONS[section].fields if f.choices):
                    if key in item_values and item_values[key] not in choices:
                        value = item_values[key]
                        self.problem(item_where, f'"{key}" should be one of {", ".join(choices)}, not {value!r:.40}.')
        return resolved  # written only when nothing was reported: then all of `data`

    # -- what the reports made of each turn, and every email of the campaign ---------------------

    def unreferenced_users(self) -> None:
        used = {self.plan.organizer} | self.plan.players
        for username in sorted(set(self.plan.users) - used - self.plan.actors):
            # Importing them would only create stray accounts.
            self.problem(
                f'users "{username}"',
                "neither the organizer nor a player of any kingdom, nor named by a turn.",
            )
