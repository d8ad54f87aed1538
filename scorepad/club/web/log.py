"""The night's log in the organiser's words: what a laptop with an older page is told happened meanwhile."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...i18n import gettext as _
from ...store import club as clubstore

# Each kind of change has its own whole sentence, for translators; ``d`` is the change's details.
SAID: dict[str, Callable[[dict[str, Any]], Any]] = {
    "joined": lambda d: _("%(name)s joined the night.", name=d.get("name", "")),
    "withdrew": lambda d: _("%(name)s has left the night.", name=d.get("name", "")),
    "back": lambda d: _("%(name)s is back in the night.", name=d.get("name", "")),
    "renamed": lambda d: _("%(old)s is now called %(new)s.", old=d.get("old", ""), new=d.get("new", "")),
    "removed": lambda d: _("%(name)s was removed from the night.", name=d.get("name", "")),
    "seated": lambda d: _("Round %(number)s was seated.", number=d.get("round", "")),
    "swapped": lambda d: _(
        "Round %(number)s: %(first)s and %(second)s changed seats.",
        number=d.get("round", ""),
        first=d.get("first", ""),
        second=d.get("second", ""),
    ),  # fmt: skip
    "started": lambda d: _("Round %(number)s has started.", number=d.get("round", "")),
    "closed": lambda d: _("Round %(number)s is closed.", number=d.get("round", "")),
    "no_show": lambda d: (
        _("%(entrant)s did not come: they score nothing this round.", entrant=d["entrant"])
        if d.get("entrant")
        else _("Round %(round)s, table %(table)s: both came after all.", round=d.get("round"), table=d.get("table"))
    ),
    "accepted": lambda d: _(
        "Round %(round)s, table %(table)s: the result stands.", round=d.get("round"), table=d.get("table")
    ),
    "cut": lambda d: _(
        "Round %(round)s, table %(table)s: every hand saved counts (%(reason)s).",
        round=d.get("round"),
        table=d.get("table"),
        reason=d.get("reason", ""),
    ),  # fmt: skip
    "adjustment": lambda d: _(
        "Adjustment recorded: %(entrant)s, %(amount)s.", entrant=d.get("entrant"), amount=d.get("amount")
    ),
    "season": lambda d: (
        _("The night counts toward its season.") if d.get("counted") else _("The night is left out of its season.")
    ),
    "correction": lambda d: _("The correction's reason is recorded."),
    "announced": lambda d: _("Announced on every table."),
    "plan": lambda d: _("The rest of the night is changed."),
}


def said(change: clubstore.NightChange) -> Any:
    """One change of the night as a sentence."""
    say = SAID.get(change.what)
    return say(change.detail) if say else _("The night was changed.")


def meanwhile(error: clubstore.StaleNightError) -> list[Any]:
    """What the stale laptop is told: what happened, one sentence a change, and that nothing was done."""
    return [
        _("Meanwhile, on another device:"),
        *(said(change) for change in error.changes),
        _("Nothing was done: here is the night as it is now."),
    ]
