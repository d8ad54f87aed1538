"""What changed meanwhile, in the players' words: the sentences a stale write shows.

The store says which hands were written since a page was rendered (``store.StaleError``);
this module words them, one whole sentence per kind of write so a translator never gets an
English verb to fit in. The sentences are core-style messages (``Text``: English as a ``str``),
rendered in the page's language by the web layer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .canasta.text import fold, t

if TYPE_CHECKING:
    from .store import Change, StaleError

DELETED_MEANWHILE = t("This match was deleted meanwhile; restore it from the start page.")
CHANGED_MEANWHILE = t("Someone else changed this match meanwhile.")
WRITTEN_MEANWHILE: dict[str, Callable[..., Any]] = {
    "add": lambda **values: t("Someone else saved hand %(number)s meanwhile: %(scores)s.", **values),
    "edit": lambda **values: t("Someone else changed hand %(number)s meanwhile: %(scores)s.", **values),
    "restore": lambda **values: t("Someone else put back hand %(number)s meanwhile: %(scores)s.", **values),
    "import": lambda **values: t("Someone else imported hand %(number)s meanwhile: %(scores)s.", **values),
    "delete": lambda **values: t("Someone else removed hand %(number)s meanwhile: it scored %(scores)s.", **values),
}


def sentences(error: StaleError) -> list[Any]:
    """A sentence for each hand written since the writer's page, or one for the whole match."""
    if error.deleted:
        return [DELETED_MEANWHILE]
    return [sentence(change) for change in error.changes] or [CHANGED_MEANWHILE]


def sentence(change: Change) -> Any:
    """One hand written meanwhile, with its scores before and after (``We 1220 → 1320``)."""
    new, old = change.after, change.before
    if new and old and change.action == "edit":
        scores = [
            t("%(side)s %(before)s → %(after)s", side=name, before=a, after=b)
            for name, a, b in zip(change.sides, old, new, strict=False)
        ]
    else:
        scores = [
            t("%(side)s %(score)s", side=name, score=score)
            for name, score in zip(change.sides, new or old or (), strict=False)
        ]
    if not scores:
        return t("Someone else changed hand %(number)s meanwhile.", number=change.number)
    # A hand that reads back (saved, changed, put back) says its scores now; a removed one (or
    # one that no longer scores) says what it scored.
    action = change.action if new else "delete"
    say = WRITTEN_MEANWHILE.get(action, WRITTEN_MEANWHILE["edit"])
    return say(number=change.number, scores=_score_list(scores))


def _score_list(items: list[Any]) -> Any:
    """Each side's figure (``We 1220, They 165``), joined by the list's comma pattern."""
    # Translators: the items of a list before its last two: %(second)s is the rest of the list.
    return fold(items, lambda first, rest: t("%(first)s, %(second)s", first=first, second=rest))
