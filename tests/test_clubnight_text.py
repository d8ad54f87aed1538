"""Every message club night shows an organiser or a player is a translatable whole (issue 12's check)."""

from __future__ import annotations

import gettext
import html
import re
from pathlib import Path

import pytest
import test_translatable
from babel.messages.pofile import read_po
from club import PASSPHRASE, signed_in

from scorepad.canasta import InvalidError
from scorepad.canasta.text import Text
from scorepad.club.core import EventSettings
from scorepad.club.core.settings import CHOICE_LABELS

CLUB_NIGHT = Path(__file__).parents[1] / "scorepad" / "club" / "core"  # was scorepad/clubnight
TRANSLATIONS = Path(__file__).parents[1] / "scorepad" / "translations"


@pytest.mark.parametrize("path", sorted(CLUB_NIGHT.glob("*.py")), ids=lambda path: path.name)
def test_every_message_in_the_module_is_translatable(path, monkeypatch):
    # The package's own makers of violations take their message second, as Violation does.
    for maker in ("problem", "MovementError"):
        monkeypatch.setitem(test_translatable.MESSAGE_ARGUMENTS, maker, ((1, "message"),))
    assert test_translatable.message_problems(path.read_text(), path.name) == []


def test_the_modules_checked_are_there():
    assert len(sorted(CLUB_NIGHT.glob("*.py"))) >= 5  # an empty list would check nothing and pass


def test_the_check_catches_an_english_only_problem(monkeypatch):
    monkeypatch.setitem(test_translatable.MESSAGE_ARGUMENTS, "problem", ((1, "message"),))
    assert test_translatable.message_problems('problem("bad", "Rounds are wrong.", "rounds")\n')


@pytest.mark.parametrize("language", ["de", "es", "pt_BR"])
def test_refusals_and_choices_read_in_each_language(language):
    catalogue = gettext.translation("messages", TRANSLATIONS, languages=[language])
    with pytest.raises(InvalidError) as raised:
        EventSettings.from_dict({"name": "Club", "date": "26/11/2026", "rounds": 0, "movement": "howell"})
    messages = [violation.message for violation in raised.value.violations] + list(CHOICE_LABELS.values())
    for message in messages:
        assert isinstance(message, Text)
        assert message.render(catalogue) != str(message), f"{message!r} has no {language} translation"


@pytest.fixture
def app(make_app):
    return make_app(ORGANISER_PASSPHRASE=PASSPHRASE)


@pytest.fixture
def organiser(app):
    return signed_in(app)


NUMBERS = {"number", "num", "n", "count", "ended", "hand", "first", "last", "most", "minimum"}


def german_hand_messages():
    """Every German message whose English speaks of a hand and of no club round, as a whole-text pattern
    (a number's placeholder stands for digits, any other for some text)."""
    with open(TRANSLATIONS / "de" / "LC_MESSAGES" / "messages.po", "rb") as file:
        catalogue = read_po(file)
    patterns = []
    for message in catalogue:
        english = " ".join(message.id if isinstance(message.id, tuple) else (message.id,))
        if not re.search(r"\bhands?\b", english, re.I) or re.search(r"\brounds?\b", english, re.I):
            continue
        for string in message.string if isinstance(message.string, tuple) else (message.string,):
            parts = re.split(r"%\((\w+)\)s", string)  # text, name, text, name, …, text
            pattern = "".join(
                re.escape(part) if index % 2 == 0 else (r"\d[\d.]*" if part in NUMBERS else ".+?")
                for index, part in enumerate(parts)
            )
            patterns.append(re.compile(pattern))
    return patterns


def pieces_saying_runde(page):
    """Each piece of text (between tags, or an attribute's value) on the page that says "Runde"."""
    pieces = re.findall(r">([^<]*)<", page) + re.findall(r'="([^"]*)"', page)
    return {" ".join(html.unescape(piece).split()) for piece in pieces if re.search(r"\bRunden?\b", piece)}


def test_a_german_club_table_says_durchgang_for_the_round_and_runde_only_for_a_hand(app, organiser, started_night):
    """Issue 30: a club table's sheet read "Runde 1 von 2" (the night's round) over "Runde 1 eintragen"
    (the hand). The round is "Durchgang"; "Runde" is left to the hand, on the sheet and the dashboard."""
    night = started_night("A", "B", "C", "D")
    german = {"Accept-Language": "de"}
    table = app.test_client()
    sheet = table.get(f"/tables/{night.cards[1]}", headers=german, follow_redirects=True).get_data(as_text=True)
    banner = table.get(f"/tables/{night.cards[1]}/banner", headers=german).get_data(as_text=True)
    board = organiser.get(f"/nights/{night.event_id}", headers=german).get_data(as_text=True)
    assert "Durchgang 1 von 2" in sheet and "Runde 1 eintragen" in sheet
    assert "Durchgang 1 abschließen" in board and "Durchgang 1" in board
    hands = german_hand_messages()
    for page in (sheet, banner, board):
        runde = pieces_saying_runde(page)
        assert all(any(hand.fullmatch(piece) for hand in hands) for piece in runde), runde
    assert "Runde 1 eintragen" in pieces_saying_runde(sheet)  # the check sees the hand's words
