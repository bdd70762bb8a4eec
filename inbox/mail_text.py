"""A received mail as the text of a sheet (issue 36): pure helpers over Python's `email` package, no
database.

- `message_text`: the body a person wrote. The plain-text part when there is one; an HTML-only mail
  is read as text with Beautiful Soup (its visible text, one line per block); the part's charset
  decoded (latin-1, windows-1252 ...), and a charset Python does not know read as UTF-8, else as
  windows-1252, rather than refused; a format=flowed text (RFC 3676: Thunderbird's and many mail
  programs' default) has its soft line breaks joined, so a long line the player typed is one line.
  Attachments are not read: each is named in a note for the answer.
- `reply_sheet_text`: the sheet in a reply, from its first header line ("Campaign:"; a greeting above
  it is dropped). Mail programs quote what is answered ("> " lines, "On ... wrote:", Outlook's
  "-----Original Message-----") and add signatures ("-- "); those are dropped.
  But the sheet is often the quoted part (the player edits the sheet quoted from the email that
  carried it): when the player's own text holds no sheet header and the quoted text does, the
  quoted sheet is un-quoted (one level of "> " removed, the player's lines written between the
  quoted ones kept, and the sheet's lines they typed above the quote added after it: read, never
  dropped). A sign-off the player wrote below their own sheet without "-- " ("Thanks,\nHans") is left
  out (decision 611), and a sheet line a mail client hard-wrapped is joined again where the break is
  sure (decision 612); any other broken line is left for the reader to refuse, naming it.

A small function of our own rather than a reply-parsing library (mail-parser-reply,
email-reply-parser): those throw the quoted part away, and here it is often the sheet.
"""

from __future__ import annotations

import re
from email.message import EmailMessage, Message
from email.utils import parseaddr

from bs4 import BeautifulSoup

# A line that begins a sheet (orders/sheet_text.py's header: "Campaign: ...", or a summary's
# "Turn summary sheet: ...").
SHEET_HEADER = re.compile(r"^\s*(campaign|turn summary sheet)\s*:", re.IGNORECASE)
# "On Mon, 7 Dec 2026 at 10:00, Organizer <o@example.org> wrote:" (Gmail, Apple Mail, Thunderbird),
# sometimes folded over two lines; "Le ... a écrit :" and such are not recognised (a quote marked
# with "> " is, whatever its heading says).
_WROTE = re.compile(r"^\s*On\b.*\bwrote:\s*$", re.IGNORECASE)
_WROTE_START = re.compile(r"^\s*On\b.*\d", re.IGNORECASE)
_ORIGINAL = re.compile(r"^\s*-{2,}\s*Original Message\s*-{2,}\s*$", re.IGNORECASE)
_OUTLOOK_RULE = re.compile(r"^\s*_{20,}\s*$")  # Outlook's line above the quoted "From: ..." block
_SIGNATURE = re.compile(r"^-- ?$")  # the signature delimiter ("-- "; some clients drop its space)
_QUOTE = re.compile(r"^\s*>")
_SHEET_LINE = re.compile(r"^[^:>]{1,60}:\s*\S")  # "Move into Province #: 12"
_STORY = re.compile(r"^\s*story\s*:", re.IGNORECASE)  # a summary's battle report: every line after it
# The narrowest width at which mail clients hard-wrap a plain-text mail (Thunderbird 72, Outlook 76,
# Gmail 78; README "Orders by email"): a line and the next one's first word that fit in it together
# were not one line broken by the client.
WRAP_WIDTH = 72
_MAIL_HEADER = re.compile(r"^\s*(from|sent|to|cc|subject|date)\s*:", re.IGNORECASE)  # a quoted mail's heading


def html_to_text(html: str) -> str:
    """The visible text of an HTML mail, one line per block (paragraph, line break, table row)."""
    soup = BeautifulSoup(html, "html.parser")
    for hidden in soup(["script", "style", "head", "title"]):
        hidden.decompose()
    for br in soup.find_all("br"):
        br.replace_with("\n")
    for block in soup.find_all(["p", "div", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre"]):
        block.insert_before("\n")
        block.insert_after("\n")
    # A blockquote is what HTML mail programs quote with: it is marked as quoted text is in plain text.
    for quote in soup.find_all("blockquote"):
        inner = quote.get_text()
        quote.replace_with("\n".join(f"> {line}" for line in inner.splitlines()))
    lines = [line.replace("\xa0", " ").rstrip() for line in soup.get_text().splitlines()]
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def part_text(part: Message) -> str:
    """A text part decoded by its charset; a charset Python does not know (or bytes that are not in
    it) read as UTF-8, else as windows-1252: a word may come out wrong, never the whole mail refused."""
    try:
        content = part.get_content()  # type: ignore[attr-defined]
        if isinstance(content, str):
            return content
    except (LookupError, UnicodeError, AssertionError, ValueError):
        pass
    payload = part.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else str(part.get_payload()).encode("utf-8", "replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def message_text(message: EmailMessage) -> tuple[str, list[str]]:
    """The body of `message` as text, and the notes for the answer (each attachment ignored)."""
    notes: list[str] = []
    body = message.get_body(preferencelist=("plain", "html"))
    if body is not None and body.get_content_type() == "text/plain" and not part_text(body).strip():
        # Some clients send the sheet in the HTML part with an empty plain one beside it.
        body = message.get_body(preferencelist=("html",)) or body
    if body is None:
        text = ""
    elif body.get_content_type() == "text/html":
        text = html_to_text(part_text(body))
    else:
        text = part_text(body)
        if str(body.get_param("format", "") or "").lower() == "flowed":
            text = unflowed(text, delsp=str(body.get_param("delsp", "") or "").lower() == "yes")
    for attachment in message.iter_attachments():
        if attachment is body:
            continue
        name = attachment.get_filename() or attachment.get_content_type()
        notes.append(f"The attachment {name} was ignored: write the sheet in the mail itself.")
    return text.replace("\r\n", "\n").replace("\r", "\n"), notes


def unflowed(text: str, *, delsp: bool = False) -> str:
    """A format=flowed text (RFC 3676) with its soft line breaks joined: a line ending in a space
    (not the signature's "-- ") goes on in the next line of the same quote depth; with delsp=yes
    that space is the break's and is dropped. Each joined line is written back with its depth as
    "> " marks, space-stuffing undone."""
    out: list[str] = []
    pending: tuple[int, str] | None = None  # the depth and text of a line still flowing
    for raw in text.replace("\r\n", "\n").split("\n"):
        stripped = raw.lstrip(">")
        depth = len(raw) - len(stripped)
        stripped = stripped.removeprefix(" ")  # space-stuffing (and the space after the quote marks)
        if pending is not None and pending[0] != depth:  # a flowed line ends where the depth changes
            out.append(_with_depth(*pending))
            pending = None
        flows = stripped.endswith(" ") and stripped != "-- "
        joined = (pending[1] if pending is not None else "") + (stripped[:-1] if flows and delsp else stripped)
        if flows:
            pending = (depth, joined)
        else:
            out.append(_with_depth(depth, joined))
            pending = None
    if pending is not None:
        out.append(_with_depth(*pending))
    return "\n".join(out)


def _with_depth(depth: int, line: str) -> str:
    return f"{'>' * depth} {line}" if depth else line


def _unquote(line: str) -> str:
    """One level of quoting removed ("> x" and ">x" become "x")."""
    stripped = line.lstrip()
    if stripped.startswith(">"):
        stripped = stripped[1:]
        return stripped[1:] if stripped.startswith(" ") else stripped
    return line


def _has_sheet(lines: list[str]) -> bool:
    return any(SHEET_HEADER.match(line) for line in lines)


def _key(line: str) -> str:
    """A sheet line's key as the readers compare it: before the colon, lower case, spaces collapsed."""
    return " ".join(line.partition(":")[0].lower().split())


def _typed_above(above: list[str], sheet: list[str]) -> list[str]:
    """The sheet's lines ("Key: value") the player typed above the quoted `sheet` (an order written
    there instead of in the quote), up to their signature: added after the quoted sheet, so that they
    are read with it, never dropped unread while the quoted sheet is filed as it came (an army's
    block given twice is refused, naming both lines). A line is the sheet's when its key is one the
    quoted sheet writes, in a line or its help ("# Create army: ..."): a note such as "Note: the 2nd
    army stays put" is the player's words, not a line of the sheet."""
    keys = {_key(line.removeprefix("#").strip()) for line in sheet if ":" in line}
    typed = []
    for line in above:
        if _SIGNATURE.match(line):
            break
        heading = line.rstrip().endswith(":") or _MAIL_HEADER.match(line)  # "Le ... 10:00, X a écrit :"
        if not _QUOTE.match(line) and _SHEET_LINE.match(line) and not heading and _key(line) in keys:
            typed.append(line)
    return ["", *typed] if typed else []


def _is_sheet_line(line: str) -> bool:
    """A line the sheet readers read as "key: value" (not blank, not help)."""
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#") and ":" in stripped


def _without_sign_off(sheet: list[str]) -> list[str]:
    """The player's own sheet without the sign-off they wrote below it without the "-- " delimiter
    ("Thanks,\nHans"; decision 611): the lines after its last "key: value" line, when none of them is
    a "key: value" line. They are kept (and refused by the reader, naming them) when they could be
    the sheet's own: after a "Story:" line (a summary's battle report runs to the end of the mail),
    when one of them (help lines aside) holds "=" or ";" (an entry's words), or when the first of them could be the end
    of the last sheet line broken by a mail client (right below it, and the two would not have fit in
    WRAP_WIDTH characters, decision 612). A line without a colon in the middle of the sheet is never
    left out."""
    sheet = broken_lines_joined(sheet)  # a broken line's end is joined first, never taken for a sign-off
    last = max((i for i, line in enumerate(sheet) if _is_sheet_line(line)), default=None)
    if last is None or any(_STORY.match(line) for line in sheet[: last + 1]):
        return sheet
    trailing = sheet[last + 1 :]
    words = [line.strip() for line in trailing if line.strip() and not line.strip().startswith("#")]
    if not words or any("=" in line or ";" in line for line in words):
        return sheet
    if sheet[last].rstrip().endswith((";", "=", ",")):
        return sheet  # the last line is unfinished: what follows may be its end
    below = trailing[0].strip()
    if below and not below.startswith("#") and _broken(sheet[last], below):
        return sheet  # perhaps the last line's end, broken off by the mail client: refused, never dropped
    return sheet[: last + 1]


def _cannot_be_a_sheet_line(line: str) -> bool:
    """Not blank, not help, and no "key: value" line: no colon, or "=" or ";" before the first one (a
    key has neither: "desired = character-bio; target character = Tor Anlec: the Warlord")."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return False
    key, colon, _ = stripped.partition(":")
    return not colon or "=" in key or ";" in key


def _broken(line: str, below: str) -> bool:
    """Whether a mail client wrapping at WRAP_WIDTH or wider may have broken `line` before `below`:
    they do not fit in it together."""
    return len(line.rstrip()) + 1 + len(below.split()[0]) > WRAP_WIDTH


def broken_lines_joined(lines: list[str]) -> list[str]:
    """The sheet's lines a mail client hard-wrapped (Gmail at 78 characters, Outlook at 76 by default)
    joined again where the break cannot be read otherwise (decision 612): a line that cannot be a
    "key: value" line (`_cannot_be_a_sheet_line`) right below a sheet line is the rest of it when the
    line above ends in ";" or "=" (its entry unfinished), or the line itself holds "=" or ";" (an
    entry's words: no sign-off or note) and the two would not fit in WRAP_WIDTH (`_broken`). Any
    other break ("... Tor Anlec: the" above "Warlord") is not guessed at: the line is left for the
    reader to refuse, naming it. Nothing after a summary's "Story:" line (its battle report, as
    written) is joined."""
    out: list[str] = []
    story = False
    for line in lines:
        previous = out[-1].rstrip() if out else ""
        stripped = line.strip()
        entry_words = ("=" in stripped or ";" in stripped) and _broken(previous, stripped)
        rest = _cannot_be_a_sheet_line(line) and (previous.endswith((";", "=")) or entry_words)
        if not story and _is_sheet_line(previous) and rest:
            out[-1] = f"{previous} {stripped}"
        else:
            out.append(line)
            story = story or _STORY.match(line) is not None
    return out


def reply_sheet_text(text: str) -> str:
    """The sheet in a mail's text (module docstring): the player's own text without what it quotes
    and its signature; or, when only the quoted text holds a sheet, that sheet un-quoted; lines a
    mail client broke joined where that is sure (`broken_lines_joined`)."""
    return "\n".join(broken_lines_joined(_reply_sheet_text(text).split("\n")))


def _reply_sheet_text(text: str) -> str:
    lines = text.splitlines()
    # Where the quoted message begins, when it is not marked line by line (Outlook, "On ... wrote:").
    cut = len(lines)
    for index, line in enumerate(lines):
        folded_wrote = _WROTE_START.match(line) and index + 1 < len(lines) and lines[index + 1].strip() == "wrote:"
        if _WROTE.match(line) or folded_wrote or _ORIGINAL.match(line) or _OUTLOOK_RULE.match(line):
            cut = index
            break
    own: list[str] = []
    for line in lines[:cut]:
        if _SIGNATURE.match(line):
            break
        if not _QUOTE.match(line):
            own.append(line)
    if _has_sheet(own):
        # From the sheet's first line: a greeting written above it is not part of it.
        first = next(i for i, line in enumerate(own) if SHEET_HEADER.match(line))
        return "\n".join(_without_sign_off(own[first:])).strip() + "\n"
    # The sheet in the quoted text: from its first header line to the last quoted line, un-quoted,
    # with the player's own lines between them (an order typed into the quote) kept.
    start = next((i for i, line in enumerate(lines) if _QUOTE.match(line) and SHEET_HEADER.match(_unquote(line))), None)
    if start is not None:
        end = max(i for i, line in enumerate(lines) if _QUOTE.match(line))
        # Lines typed below the quote that read as the sheet's ("Key: value") belong to it.
        while end + 1 < len(lines) and _SHEET_LINE.match(lines[end + 1]):
            end += 1
        sheet = []
        for line in lines[start : end + 1]:
            plain = _unquote(line)
            if _SIGNATURE.match(plain):
                break
            if not _WROTE.match(plain):
                sheet.append(plain)
        return "\n".join([*sheet, *_typed_above(lines[: min(cut, start)], sheet)]).strip() + "\n"
    # A sheet below an Outlook-style heading, not marked line by line.
    rest = [line for line in lines[cut:] if not _QUOTE.match(line)]
    if _has_sheet(rest):
        first = next(i for i, line in enumerate(rest) if SHEET_HEADER.match(line))
        sheet = []
        for line in rest[first:]:
            if _SIGNATURE.match(line):
                break
            sheet.append(line)
        return "\n".join(sheet).strip() + "\n"
    return "\n".join(own).strip() + "\n"


def auto_reply_reason(message: Message, *, own_addresses: set[str]) -> str | None:
    """Why `message` must never be answered (an auto-reply, a bounce, a list's mail, our own mail come
    back: answering would start a loop), or None."""
    auto = str(message.get("Auto-Submitted", "") or "").strip().lower()
    if auto and auto != "no":
        return f"an automatic message (Auto-Submitted: {auto[:40]})"
    precedence = str(message.get("Precedence", "") or "").strip().lower()
    if precedence in {"bulk", "junk", "list"}:
        return f"a bulk message (Precedence: {precedence})"
    for header in ("X-Autoreply", "X-Autorespond", "X-Autoresponder"):
        if message.get(header) is not None:
            return f"an automatic reply ({header})"
    if message.get("List-Id") is not None:
        return "a mailing list's message (List-Id)"
    return_path = message.get("Return-Path")
    if return_path is not None and str(return_path).strip() in {"<>", ""}:
        return "a bounce (empty Return-Path)"
    if message.get_content_type() == "multipart/report":
        return "a delivery report"
    sender = address_of(str(message.get("From", "") or ""))
    local, _, domain = sender.partition("@")
    if local in {"mailer-daemon", "postmaster"}:
        return f"a mail server's message ({sender})"
    if sender in own_addresses or f"{local.partition('+')[0]}@{domain}" in own_addresses:
        return f"from our own address ({sender})"
    return None


def address_of(header: str) -> str:
    """The bare address of a From/To header value, lowercased ("" when there is none)."""
    return parseaddr(header)[1].strip().lower()
