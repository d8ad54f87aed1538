"""The records a match is told by beyond its rules and hands, shared by every layer above the core.

:class:`Side` and :class:`MatchInfo` are what a stored match knows of its sides, title and
history; :class:`FiguredMatch` is a stored match as its figures were kept (the store reads it,
``documents`` writes it as a JSON document). Plain values: no database, no Flask, no JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import canasta
from .canasta.match import Standing


@dataclass(frozen=True)
class Side:
    """A side of a match as the score sheet heads it: a name and its players."""

    name: str
    players: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "players": list(self.players)}


@dataclass(frozen=True)
class MatchInfo:
    """What a stored match knows beyond its rules and hands."""

    id: str
    sides: tuple[Side, ...]
    created: str = ""
    finished: str | None = None
    title: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    origin: str | None = None  # the id the match had in the file it was imported from
    # The hands undone and not yet put back, the one undone last first (the order Put back
    # brings them back), each as the core's hand object: a document's optional "undone".
    undone: tuple[Mapping[str, Any], ...] = ()
    # Every version of each hand on the sheet, oldest first ({"action", "created", "hand"}): a
    # document's optional "history" of a hand that has more than one.
    history: tuple[tuple[Mapping[str, Any], ...], ...] = ()


@dataclass(frozen=True)
class FiguredHand:
    """One stored hand with the figures kept with it: its entries, scores, the totals after it, the
    minimums in force, each side's breakdown (as the document writes it) and its warnings."""

    hand: canasta.Hand
    number: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    minimums: tuple[int, ...]
    breakdown: list[dict[str, Any]]
    warnings: list[canasta.Violation]


@dataclass(frozen=True)
class FiguredMatch:
    """A stored match as its figures were kept: what a backup writes without rescoring a hand."""

    info: MatchInfo
    variant: canasta.Variant
    starting_totals: tuple[int, ...] | None
    summary: Standing
    hands: list[FiguredHand]


def team_name(players: Sequence[str]) -> str:
    """A team named by its players, the same whatever order they were entered in.

    >>> team_name(["Bob", "ann"])
    'ann & Bob'
    """
    return " & ".join(sorted(players, key=str.casefold))
