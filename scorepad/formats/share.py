"""The share text: one line for the group chat, in the reader's language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..canasta import Match
from ..canasta.text import N_
from ..records import MatchInfo
from .common import ENGLISH, rendered, thousands

# Pronouns read better than names in a sentence: "We win", not "We wins".
# A side called "We" (or "They", "You", "Me") wins or leads in the first person, as the table says it;
# any other name stands as a label ("Winner: Ann and Bob, by 250."), where no verb has to agree with it.
WIN_PHRASES = {
    "we": N_("We win by %(margin)s."),
    "they": N_("They win by %(margin)s."),
    "you": N_("You win by %(margin)s."),
    "me": N_("I win by %(margin)s."),
}
LEAD_PHRASES = {
    "we": N_("We lead by %(margin)s."),
    "they": N_("They lead by %(margin)s."),
    "you": N_("You lead by %(margin)s."),
    "me": N_("I lead by %(margin)s."),
}


def share_text(
    match: Match, info: MatchInfo, translations: Any = ENGLISH, number: Callable[[int], str] = thousands
) -> str:
    """One line for the group chat: variant, hands, totals and who won or leads by how much.

    ``translations`` is any object with the ``gettext`` API (the web layer passes the request's
    language) and ``number`` writes a figure as that language does; the default is English.

    >>> from scorepad import canasta
    >>> from scorepad.records import Side
    >>> info = MatchInfo("b" * 16, (Side("We"), Side("They")))
    >>> share_text(canasta.score_match("classic", []), info)
    'Classic canasta, no hands yet.'
    """
    tr = translations
    name = rendered(match.variant.name, tr)
    count = len(match.results)
    if not count:
        return tr.gettext("%(variant)s, no hands yet.") % {"variant": name}
    if match.is_finished:
        hands = tr.ngettext("%(n)s hand", "%(n)s hands", count) % {"n": count}
    else:
        hands = tr.ngettext("%(n)s hand so far", "%(n)s hands so far", count) % {"n": count}
    scores = " – ".join(f"{side.name} {number(total)}" for side, total in zip(info.sides, match.totals, strict=True))
    leader = max(range(len(match.totals)), key=match.totals.__getitem__)
    leader_name = info.sides[leader].name
    margin = number(match.margin or 0)
    if match.is_tie:
        verdict = tr.gettext("It's a tie.")
    elif match.is_finished:
        phrase = _personal(WIN_PHRASES, leader_name, tr)
        verdict = (tr.gettext(phrase) if phrase else tr.gettext("Winner: %(side)s, by %(margin)s.")) % {
            "side": leader_name,
            "margin": margin,
        }
    elif not match.margin:
        verdict = tr.gettext("All square.")
    else:
        phrase = _personal(LEAD_PHRASES, leader_name, tr)
        verdict = (tr.gettext(phrase) if phrase else tr.gettext("In the lead: %(side)s, by %(margin)s.")) % {
            "side": leader_name,
            "margin": margin,
        }
    return tr.gettext("%(variant)s, %(hands)s: %(scores)s. %(verdict)s") % {
        "variant": name,
        "hands": hands,
        "scores": scores,
        "verdict": verdict,
    }


def _personal(phrases: dict[str, str], name: str, translations: Any) -> str | None:
    """The phrase for a side named as the presets name it ("We", or "Nosotros" in Spanish), else None.

    "Nosotros gana" is wrong where "We wins" would be: a side called "we" in the line's own
    language gets "We win by" in that language.
    """
    folded = name.casefold()
    for key, phrase in phrases.items():
        if folded in (key, translations.pgettext("side", key.capitalize()).casefold()):
            return phrase
    return None
