"""A mail's body as the text of a sheet (inbox/mail_text.py): HTML-only mail read as text, charsets
decoded (a broken one too), attachments named for the answer, quotes and signatures dropped, and a
sheet edited inside the quote of a reply un-quoted."""

from __future__ import annotations

import textwrap
from email import policy
from email.parser import BytesParser

from inbox.mail_text import message_text, reply_sheet_text

from .messages import mail


def parsed(raw: bytes):  # type: ignore[no-untyped-def]
    return BytesParser(policy=policy.default).parsebytes(raw)


def test_an_html_only_mail_is_read_as_its_visible_text():
    html = (
        "<html><head><style>p{color:red}</style></head><body>"
        "<p>Campaign: Test Campaign</p><div>Turn: 1<br>Kingdom: Ostland</div>"
        "<p>Move into Province #:&nbsp;12</p><script>alert(1)</script></body></html>"
    )
    text, notes = message_text(parsed(mail(to="o@x", text=None, html=html)))
    assert [line for line in text.splitlines() if line] == [
        "Campaign: Test Campaign",
        "Turn: 1",
        "Kingdom: Ostland",
        "Move into Province #: 12",
    ]
    assert "color" not in text and "alert" not in text
    assert notes == []


def test_a_plain_part_is_preferred_to_the_html_one():
    text, _ = message_text(parsed(mail(to="o@x", text="Campaign: plain\n", html="<p>Campaign: html</p>")))
    assert text == "Campaign: plain\n"


def test_an_empty_plain_part_gives_way_to_the_html_one():
    """A client that sends the sheet in HTML beside an empty plain part: the HTML part is read."""
    text, _ = message_text(parsed(mail(to="o@x", text="\n", html="<p>Campaign: html</p>")))
    assert text.strip() == "Campaign: html"


def test_a_latin_1_mail_is_decoded():
    raw = (
        "From: p1@example.org\r\nTo: o@x\r\nSubject: ordres\r\nMIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        "Kingdom: Bretonnia\r\nArmy name / number: Arm\xe9e du Roi\r\n"
    ).encode("latin-1")
    text, _ = message_text(parsed(raw))
    assert "Army name / number: Armée du Roi" in text


def test_a_charset_python_does_not_know_is_read_rather_than_refused():
    raw = (
        b"From: p1@example.org\r\nTo: o@x\r\nSubject: x\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: text/plain; charset=x-no-such-charset\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        b"Campaign: Test\r\nArmy name / number: Arm\xc3\xa9e\r\n"
    )
    text, _ = message_text(parsed(raw))
    assert "Army name / number: Armée" in text
    raw_cp1252 = raw.replace(b"Arm\xc3\xa9e", b"Arm\xe9e")
    text, _ = message_text(parsed(raw_cp1252))
    assert "Army name / number: Armée" in text


def test_attachments_are_ignored_and_named_for_the_answer():
    raw = mail(
        to="o@x",
        text="Campaign: Test\n",
        attachments=(("orders.pdf", b"%PDF-1.4", "application/pdf"), ("sheet.txt", b"Campaign: other", "text/plain")),
    )
    text, notes = message_text(parsed(raw))
    assert text == "Campaign: Test\n"
    assert notes == [
        "The attachment orders.pdf was ignored: write the sheet in the mail itself.",
        "The attachment sheet.txt was ignored: write the sheet in the mail itself.",
    ]


SHEET = "Campaign: Test Campaign\nTurn: 1\nKingdom: Ostland\n\nArmy name / number: 1st Army\nMove into Province #: 12\n"


def test_the_players_own_sheet_is_kept_and_the_quote_and_signature_dropped():
    text = (
        SHEET
        + "\n-- \nHans, Ostland\n\nOn Sun, 6 Dec 2026 at 10:00, Briternia <organizer@x> wrote:\n"
        + "".join(f"> {line}\n" for line in SHEET.replace("12", "7").splitlines())
    )
    assert reply_sheet_text(text) == SHEET


def test_a_sheet_edited_inside_the_quote_is_unquoted_with_the_lines_typed_into_it():
    quoted = "".join(f"> {line}\n" if line else ">\n" for line in SHEET.splitlines())
    quoted = quoted.replace("> Move into Province #: 12\n", "Move into Province #: 14\n")  # typed over the quote
    text = "Here are my orders.\n\nThanks\n-- \nHans\n\nOn Sun, 6 Dec 2026, Briternia <o@x> wrote:\n" + quoted
    assert reply_sheet_text(text) == SHEET.replace("12", "14")


def test_a_folded_on_wrote_heading_and_nested_quotes():
    quoted = "".join(f"> {line}\n" for line in SHEET.splitlines()) + ">> an older mail\n"
    text = "ok\n\nOn Sun, 6 Dec 2026 at 10:00, Briternia Organizer\n<organizer@example.org>\nwrote:\n" + quoted
    sheet = reply_sheet_text(text)
    assert sheet.startswith("Campaign: Test Campaign\n")
    assert "> an older mail" in sheet  # one level of quoting removed, no more


def test_an_outlook_reply_below_original_message():
    text = "Done.\n\n-----Original Message-----\nFrom: Briternia\nSent: Sunday\n\n" + SHEET
    assert reply_sheet_text(text) == SHEET


def test_a_mail_with_no_sheet_gives_the_players_text_without_quotes():
    assert reply_sheet_text("Hello\n> quoted\n-- \nsig\n") == "Hello\n"


def test_sheet_lines_typed_above_the_quoted_sheet_are_read_after_it_never_dropped():
    """An order typed above the quote instead of in it is read with the quoted sheet (after it), so
    the sheet check sees it; a greeting, the signature, and a foreign "... a écrit :" heading are not
    sheet lines."""
    quoted = "".join(f"> {line}\n" if line else ">\n" for line in SHEET.splitlines())
    typed = "Hello,\nMove into Province #: 14\nThanks\n-- \nHans: Ostland\n\n"
    for heading in (
        "On Sun, 6 Dec 2026 at 10:00, Briternia <o@x> wrote:\n",
        "Le 6 déc. 2026 à 10:00, B <o@x> a écrit :\n",
    ):
        sheet = reply_sheet_text(typed + heading + quoted)
        assert sheet == SHEET + "\nMove into Province #: 14\n", sheet


def test_a_note_typed_above_the_quoted_sheet_is_the_player_s_words_not_a_line_of_the_sheet():
    """Only lines whose key the quoted sheet writes are read with it: a note above the quote ("Note:
    ...", "PS: ...") is left out, so the quoted sheet is filed as it came rather than refused for a
    line that is no line of an order sheet; an order typed there is still read."""
    quoted = "".join(f"> {line}\n" if line else ">\n" for line in SHEET.splitlines())
    heading = "On Sun, 6 Dec 2026 at 10:00, Briternia <o@x> wrote:\n"
    note = "Note: the 1st Army stays put this week\nPS: see you Sunday\n\n"
    assert reply_sheet_text(note + heading + quoted) == SHEET
    typed = note + "Move into Province #: 14\n\n"
    assert reply_sheet_text(typed + heading + quoted) == SHEET + "\nMove into Province #: 14\n"


def test_a_sign_off_below_the_players_own_sheet_is_left_out():
    """Decision 611: "Thanks,\nHans" written below the player's own sheet without the "-- " delimiter
    is their sign-off, not lines of the sheet (README, "Orders by email"); with or without a blank
    line above it, and a summary sheet's too."""
    assert reply_sheet_text(SHEET + "\nThanks,\nHans\n") == SHEET
    assert reply_sheet_text(SHEET + "Thanks, see you Tuesday!\nHans\n\nSent from my phone\n") == SHEET
    summary = "Turn summary sheet: Battle 3\nCampaign: Test Campaign\nResult: won\n"
    assert reply_sheet_text(summary + "\nCheers\nHans\n") == summary


def test_a_line_without_a_colon_inside_the_sheet_or_that_may_be_the_sheets_is_kept_to_be_refused():
    """Decision 611: only the end of the player's own text is a sign-off. A stray line in the middle
    of the sheet is kept (the reader refuses it, naming it); so are lines after a summary's "Story:"
    (its battle report), lines holding "=" or ";" (an entry's words), and the player's signature
    below a quote is still cut at "-- " as before."""
    middle = SHEET.replace("\nArmy name", "\nThanks, see you Tuesday!\nArmy name")
    assert reply_sheet_text(middle + "\nHans\n") == middle
    story = "Turn summary sheet: Battle 3\nResult: won\nStory:\nWe held the ford.\n\nThanks,\nHans\n"
    assert reply_sheet_text(story) == story
    entry = SHEET + "Recruit: unit = Swordsmen\narmy = 1st Army\n"
    assert reply_sheet_text(entry) == entry


def test_the_broken_off_end_of_a_long_last_line_is_never_dropped_as_a_sign_off():
    """Decision 612: a mail client that hard-wraps at 72 to 78 characters may break the sheet's last
    line; its end (no colon) right below it is kept, so the sheet is refused naming it rather than
    read without it. A short last line cannot have been broken: a line below it is a sign-off."""
    long_line = "Create army: name = The Grand Army of the Silver Lion of Ostland and the"
    assert len(long_line) == 72
    wrapped = SHEET + long_line + "\nNorth\n"
    assert reply_sheet_text(wrapped) == wrapped
    assert reply_sheet_text(SHEET + long_line + "\n\nHans\n") == SHEET + long_line + "\n"


def test_a_sheet_line_a_mail_client_broke_after_a_semicolon_or_equals_sign_is_joined():
    """Decision 612: Gmail hard-wraps a plain-text mail at 78 characters, Outlook at 76 by default. A
    line that cannot be a "key: value" line right below one ending in ";" or "=" (an entry
    unfinished), or holding "=" or ";" below one too long to have fit with it, is its end, joined; a
    break anywhere else is left for the reader to refuse, naming the line; and the battle report
    after a summary's "Story:" line is never joined."""
    line = "Tomb Raider mission: kind = reconnaissance; target kingdom = Norsca; desired = army list"
    for broken in (
        "Tomb Raider mission: kind = reconnaissance; target kingdom = Norsca;\ndesired = army list",
        "Tomb Raider mission: kind = reconnaissance; target kingdom =\nNorsca; desired = army list",
    ):
        assert reply_sheet_text(SHEET + broken + "\n") == SHEET + line + "\n"
    elsewhere = "Tomb Raider mission: kind = reconnaissance; target kingdom = Norsca; desired = army\nlist\n"
    assert reply_sheet_text(SHEET + elsewhere) == SHEET + elsewhere  # refused by the reader, naming "list"
    # The rest holds a colon of a value ("Tor Anlec: the Warlord"), but "=" before it: no key.
    character = "Tomb Raider mission: kind = reconnaissance; target kingdom = Tor Anlec;"
    rest = "desired = character-bio; target character = Tor Anlec: the Warlord"
    assert reply_sheet_text(SHEET + character + "\n" + rest + "\n") == SHEET + character + " " + rest + "\n"
    # Broken inside a value, its rest holding "=": joined when the two could not fit in 72 characters.
    whole = "Tomb Raider mission: kind = reconnaissance; desired = army list; target kingdom = Tor Anlec"
    broken = "\n".join(textwrap.wrap(whole, 78))  # Gmail: "...; target" above "kingdom = Tor Anlec"
    assert reply_sheet_text(SHEET + broken + "\n") == SHEET + whole + "\n"
    short = SHEET + "Recruit: unit = Swordsmen\narmy = 1st Army\n"  # typed so: no client broke so short a line
    assert reply_sheet_text(short) == short
    help_below = SHEET + "Recruit: unit = Swordsmen;\n# help\n"
    assert reply_sheet_text(help_below) == help_below
    story = "Turn summary sheet: Battle 3\nResult: won\nStory: we held the ford;\nthen we ran\n"
    assert reply_sheet_text(story) == story
