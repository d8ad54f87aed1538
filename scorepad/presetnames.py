"""A side's stored name read back as its preset's own name for that side, in any shipped language.

Names are stored as typed, and the new-match form offers the preset's names in the page's
language: a classic match started at a Spanish table has sides "Nosotros" and "Ellos", one started
in English "We" and "They". :func:`preset_side_name` finds the preset's message behind such a
name (side 0 of a classic match: We, Nosotros, Nós, Wir), so that a page says it in the language
of whoever reads it; a side a family named "Du" or "Nord" keeps its name. The table of every
preset's side names in every shipped catalogue is read once per process (the catalogues ship
with the code). No Flask: the page's language is the caller's (``i18n.side_name``).
"""

from __future__ import annotations

from functools import lru_cache
from gettext import NullTranslations
from pathlib import Path

from babel import support

from .canasta import VARIANTS
from .canasta.text import Text

CATALOGUES = Path(__file__).parent / "translations"


def preset_side_name(variant_key: str | None, index: int | None, name: str) -> Text | None:
    """The preset's message for side ``index`` of ``variant_key`` when ``name`` is it in a shipped
    language (its English or a catalogue's words); None for any other name."""
    return _side_names().get((variant_key, index, name))


def shipped_languages() -> list[str]:
    """The languages with a compiled catalogue, besides English (the messages' own language)."""
    return sorted(path.name for path in CATALOGUES.iterdir() if (path / "LC_MESSAGES" / "messages.mo").is_file())


@lru_cache(maxsize=1)
def _side_names() -> dict[tuple[str, int, str], Text]:
    """Each preset's name for each side, in every shipped language: (preset, side, words) to the message."""
    catalogues = [NullTranslations()] + [
        support.Translations.load(str(CATALOGUES), [code]) for code in shipped_languages()
    ]
    return {
        (key, index, message.render(catalogue)): message
        for key, variant in VARIANTS.items()
        for index, message in enumerate(variant.side_names)
        for catalogue in catalogues
    }
