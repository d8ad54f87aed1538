"""Every message club night shows an organiser or a player is a translatable whole (issue 12's check)."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest
import test_translatable

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
