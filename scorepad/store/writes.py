"""Versioned writes: a new match, and adding, correcting, undoing and putting back hands.

Every write is one transaction and starts by bumping the match's ``version`` only if it still is
the version the writer's page was rendered from; otherwise :class:`StaleError` says what changed.

A club night's table plays an ordinary match, and the night's rule on it is kept here, in the one
statement every write starts with: once the table's round is closed only the organiser writes the
match, and only the organiser deletes a table's match at all; anyone else's write raises
:class:`LockedError` (the writer says whether they are the organiser: ``organiser=True``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from sqlite_utils import Database

from .. import canasta
from ..canasta.match import Standing, play_hand, standing
from ..records import Side
from .access import grant_access
from .figures import (
    add_to_sides,
    correct,
    ends_early,
    hand_scores,
    insert_hand_figures,
    recount_sides,
    rescore_match,
    sync_summary_version,
    update_summary,
    write_figures,
)
from .reads import MatchHead, hand_figures
from .rows import (
    AlreadySavedError,
    Change,
    LockedError,
    NotFoundError,
    StaleError,
    as_stored,
    hand_json,
    hand_of,
    live_hands,
    match_row,
    new_token,
    now,
    numbers,
    select_rows,
    standing_of,
    starting_of,
    variant_of,
    writing,
)


# --- writing ----------------------------------------------------------------------------
def create_match(
    db: Database,
    variant: canasta.Variant,
    sides: Sequence[Side],
    starting_totals: Sequence[int] | None = None,
    title: str = "",
    browser: str | None = None,
) -> str:
    """Store a new match with every option value frozen; returns its id.

    With ``browser``, the match joins that browser's list in the same transaction.

    :raises InvalidError: for starting totals the core refuses.
    """
    canasta.Match.validated(variant, (), starting_totals)
    match_id = new_token()
    stamp = now()
    with writing(db):
        db.table("matches").insert(
            {
                "id": match_id,
                "watch_token": new_token(),
                "variant": variant.key,
                "options": json.dumps(variant.option_values()),
                "sides": json.dumps([side.to_dict() for side in sides]),
                "starting_totals": json.dumps(list(starting_totals)) if starting_totals else None,
                "title": title,
                "created": stamp,
                "updated": stamp,
                "version": 1,
            }
        )
        # A match made just now is nobody's import: its row is read as it was written.
        row = match_row(db, match_id, pending_too=True)
        write_figures(db, row, canasta.Match(variant, (), _starting_or_none(starting_totals)), [])
        if browser:
            grant_access(db, browser, match_id, "created")
    return match_id


def _starting_or_none(totals: Sequence[int] | None) -> tuple[int, ...] | None:
    return tuple(totals) if totals else None


def add_hand(
    db: Database,
    match_id: str,
    hand: canasta.Hand,
    version: int,
    submission: str | None = None,
    played: str | None = None,
    *,
    organiser: bool = False,
    rules: canasta.Variant | None = None,
    names: Sequence[str] | None = None,
    confirm: Callable[[canasta.HandResult], bool] | None = None,
) -> int | None:
    """Append a hand, checked and scored against the stored totals before it; returns the match's
    new version.

    ``played`` is when the phone saved it (a hand queued offline arrives later), kept never later
    than now: a club night's time rule judges by it.

    ``submission`` is the key of the form that sent it, stored with the hand: sent again, it is
    recognised before the version is looked at (inside the write lock, so two copies sent at
    once store one hand).

    This is the one check of a saved hand. ``rules`` are the match's rules as the caller already
    read them (its head's ``variant``), so they are not made again; ``names`` are the sides'
    names a refusal words its problems with (the page's, by default the preset's). ``confirm``
    is asked with the scored hand before anything is written: False writes nothing and returns
    None (the form's low-meld question).

    :raises AlreadySavedError: when a hand was already saved with this ``submission``.
    :raises LockedError: when the match is a closed round's table and the writer not the ``organiser``.
    :raises InvalidError: when the match with this hand cannot be scored (fields ``hands[i]``),
        before the version is looked at, as is the answer to ``confirm``.
    :raises StaleError: when ``version`` is not the match's current version.
    """
    try:
        with writing(db):
            submission = _refuse_a_second_copy(db, match_id, submission)
            row, stale = _claim(db, match_id, version, organiser)
            variant = _rules(row, rules)
            hand = as_stored(hand)
            summary = _summary(db, match_id)
            result = _scored_new(db, match_id, variant, starting_of(row), summary, hand, names)
            _confirmed(confirm, result, stale)
            position = _next_position(db, match_id)
            stamp = now()
            hand_id = _append(db, row, variant, summary, hand, result, position, stamp)
            # A new hand takes the place of every hand undone before it: they leave the stack for good,
            # so undoing the new hand never brings them back to Put back (nor into an export's stack).
            db.execute("update hands set undone = null where match_id = ? and deleted is not null", [match_id])
            if played is not None:
                db.execute("update hands set played = ? where id = ?", [min(played, stamp), hand_id])
            _revise(db, hand_id, "add", hand, version + 1, submission)
    except _Declined:
        return None
    return version + 1


def saved_submission(db: Database, match_id: str, submission: str | None) -> int | None:
    """The hand (1-based; 0 if it has been undone since) saved in this match by ``submission``, if any."""
    if not submission:
        return None
    rows = list(
        select_rows(
            db,
            "select h.deleted, (select count(*) from hands l where l.match_id = h.match_id "
            "and l.deleted is null and l.position <= h.position) as number "
            "from hand_revisions r join hands h on h.id = r.hand_id where r.submission = ? and h.match_id = ?",
            [submission, match_id],
        )
    )
    if not rows:
        return None
    return 0 if rows[0]["deleted"] else rows[0]["number"]


def _refuse_a_second_copy(db: Database, match_id: str, submission: str | None) -> str | None:
    """Refuse a form sent again to this match; returns the key to store with the hand.

    A key a hand of another match already holds is dropped where the revision is written
    (:func:`_unused`).
    """
    number = saved_submission(db, match_id, submission)
    if number is not None:
        raise AlreadySavedError(number)
    return submission or None


def _append(
    db: Database,
    row: dict[str, Any],
    variant: canasta.Variant,
    summary: Standing,
    hand: canasta.Hand,
    result: canasta.HandResult,
    position: int,
    created: str,
) -> int:
    """Store one more hand, scored from the stored summary, with its figures; returns its id."""
    after = standing(variant, result.totals, result.number)
    _set_finished(db, row, after)
    hand_id = (
        db.table("hands")
        .insert({"match_id": row["id"], "position": position, "data": hand_json(hand), "created": created})
        .last_pk
    )
    insert_hand_figures(db, row["id"], [(hand_id, result)])
    update_summary(db, row, variant, after, created)
    add_to_sides(db, row["id"], after, result)
    return hand_id


def replace_hand(
    db: Database,
    match_id: str,
    number: int,
    hand: canasta.Hand,
    version: int,
    submission: str | None = None,
    *,
    organiser: bool = False,
    rules: canasta.Variant | None = None,
    names: Sequence[str] | None = None,
    confirm: Callable[[canasta.HandResult], bool] | None = None,
) -> int | None:
    """Correct hand ``number``; later totals, minimums and game end follow. Returns the new version.

    The corrected hand is checked and scored from the stored totals before it; later hands keep
    their stored scores and only their totals and minimums move (arithmetic, no rescoring).

    :raises AlreadySavedError, InvalidError, LockedError, StaleError, NotFoundError: as :func:`add_hand`, or
        for no such hand; ``rules``, ``names`` and ``confirm`` are as there.
    """
    try:
        with writing(db):
            submission = _refuse_a_second_copy(db, match_id, submission)
            row, stale = _claim(db, match_id, version, organiser)
            figures = _figure_rows(db, match_id)
            if not 1 <= number <= len(figures):
                raise stale or NotFoundError(f"{match_id} hand {number}")
            variant = _rules(row, rules)
            before = numbers(figures[number - 2]["totals"]) if number > 1 else _start(row, variant)
            later = [numbers(f["scores"]) for f in figures[number:]]
            hand = as_stored(hand)
            result, carried = _corrected(db, match_id, variant, starting_of(row), number, hand, before, later, names)
            _confirmed(confirm, result, stale)
            after = standing(variant, carried[-1][1] if carried else result.totals, len(figures))
            _set_finished(db, row, after)
            hand_id = figures[number - 1]["hand_id"]
            db.table("hands").update(hand_id, {"data": hand_json(hand)})
            db.execute("delete from hand_figures where hand_id = ?", [hand_id])
            insert_hand_figures(db, match_id, [(hand_id, result)])
            for figure, (minimums, totals) in zip(figures[number:], carried, strict=True):
                if (numbers(figure["minimums"]), numbers(figure["totals"])) != (minimums, totals):
                    db.execute(
                        "update hand_figures set minimums = ?, totals = ? where hand_id = ?",
                        [json.dumps(minimums), json.dumps(totals), figure["hand_id"]],
                    )
            update_summary(db, row, variant, after, figures[-1]["created"])
            recount_sides(db, match_id, after)
            _revise(db, hand_id, "edit", hand, version + 1, submission)
    except _Declined:
        return None
    return version + 1


def _scored_new(
    db: Database,
    match_id: str,
    variant: canasta.Variant,
    starting: tuple[int, ...] | None,
    summary: Standing,
    hand: canasta.Hand,
    names: Sequence[str] | None,
) -> canasta.HandResult:
    """One more hand checked and scored from the stored summary (only this hand: the hands
    before it are summed up in the summary); refused as the core words it over the whole match."""
    if summary.is_finished or canasta.check_hand(hand, variant):
        _refuse(db, match_id, variant, starting, [*(hand_of(h) for h in live_hands(db, match_id)), hand], names)
    return play_hand(variant, summary.played + 1, summary.totals, hand)


def _corrected(
    db: Database,
    match_id: str,
    variant: canasta.Variant,
    starting: tuple[int, ...] | None,
    number: int,
    hand: canasta.Hand,
    before: Sequence[int],
    later: Sequence[tuple[int, ...]],
    names: Sequence[str] | None,
) -> tuple[canasta.HandResult, list[tuple[tuple[int, ...], tuple[int, ...]]]]:
    """Hand ``number`` checked and scored from the totals ``before`` it, and the later hands'
    (minimums, totals); refused as the core words it when the hand breaks a rule or the game
    would end before the last hand."""
    if not canasta.check_hand(hand, variant):
        result, carried = correct(variant, before, number, hand, list(later))
        if not ends_early(variant, number, result, carried):
            return result, carried
    hands = [hand_of(h) for h in live_hands(db, match_id)]
    hands[number - 1] = hand
    _refuse(db, match_id, variant, starting, hands, names)


def check_save(db: Database, head: MatchHead, number: int | None, hand: canasta.Hand, names: Sequence[str]) -> None:
    """Refuse ``hand`` exactly as saving it would (a new hand, or a correction of hand ``number``),
    writing nothing: the live preview's check, from the stored figures.

    :raises InvalidError: with every problem, worded with ``names`` as :func:`add_hand` words them.
    """
    variant, starting = head.variant, head.starting_totals
    if number is None:
        _scored_new(db, head.id, variant, starting, head.summary, hand, names)
        return
    figures = hand_figures(db, head.id)
    before = figures[number - 2].totals if number > 1 else starting or (0,) * len(head.summary.totals)
    _corrected(db, head.id, variant, starting, number, hand, before, [f.scores for f in figures[number:]], names)


def undo_last_hand(db: Database, match_id: str, version: int, *, organiser: bool = False) -> int:
    """Remove the last hand (its revisions stay, and :func:`restore_last_hand` puts it back).

    Returns the number of the hand removed.

    :raises StaleError: when ``version`` is stale. :raises NotFoundError: when there is no hand.
    :raises LockedError: as :func:`add_hand`.
    """
    with writing(db):
        row = _begin_write(db, match_id, version, organiser)
        figures = _figure_rows(db, match_id)
        if not figures:
            raise NotFoundError(f"{match_id} has no hands")
        variant = variant_of(row)
        last = figures[-1]
        totals = numbers(figures[-2]["totals"]) if len(figures) > 1 else _start(row, variant)
        after = standing(variant, totals, len(figures) - 1)
        _set_finished(db, row, after)
        db.execute("delete from hand_figures where hand_id = ?", [last["hand_id"]])
        db.table("hands").update(last["hand_id"], {"deleted": now(), "undone": version + 1})
        update_summary(db, row, variant, after, figures[-2]["created"] if len(figures) > 1 else row["created"])
        recount_sides(db, match_id, after)
        _revise(db, last["hand_id"], "delete", None, version + 1)
    return len(figures)


def undone_hand(db: Database, match_id: str) -> int | None:
    """The number the hand undone last would take back, if it can be put back (not once the game is over)."""
    row = _last_undone(db, match_id)
    summary = _summary(db, match_id)
    return summary.played + 1 if row and not summary.is_finished else None


def _last_undone(db: Database, match_id: str) -> dict[str, Any] | None:
    """The top of the match's stack of undone hands: the one undone last.

    Only hands undone since the last hand was added count (a new hand takes their place, so they
    lie after every hand on the sheet); of those, the one with the latest ``undone`` version.
    """
    rows = list(
        select_rows(
            db,
            "select * from hands where match_id = ? and deleted is not null and undone is not null and position > "
            "coalesce((select max(position) from hands where match_id = ? and deleted is null), -1) "
            "order by undone desc, position limit 1",
            [match_id, match_id],
        )
    )
    return rows[0] if rows else None


def restore_last_hand(db: Database, match_id: str, version: int, *, organiser: bool = False) -> int:
    """Put back the hand undone last; returns its number.

    :raises NotFoundError: when there is none. :raises LockedError, StaleError, InvalidError: as :func:`add_hand`.
    """
    with writing(db):
        row = _begin_write(db, match_id, version, organiser)
        undone = _last_undone(db, match_id)
        if undone is None:
            raise NotFoundError(f"{match_id} has no undone hand")
        summary = _summary(db, match_id)
        variant = variant_of(row)
        hand = hand_of(undone)
        result = _scored_new(db, match_id, variant, starting_of(row), summary, hand, None)
        after = standing(variant, result.totals, result.number)
        _set_finished(db, row, after)
        db.table("hands").update(undone["id"], {"deleted": None, "undone": None})
        insert_hand_figures(db, match_id, [(undone["id"], result)])
        update_summary(db, row, variant, after, undone["created"])
        add_to_sides(db, match_id, after, result)
        _revise(db, undone["id"], "restore", hand, version + 1)
    return result.number


def delete_match(db: Database, match_id: str, version: int, *, organiser: bool = False) -> None:
    """Mark a match deleted; it stays restorable and nothing in it is removed.

    :raises LockedError: for a club night table's match, unless the writer is the ``organiser``.
    :raises StaleError: as :func:`add_hand`.
    """
    with writing(db):
        _begin_write(db, match_id, version, organiser, deleting=True)
        db.table("matches").update(match_id, {"deleted": now()})
        sync_summary_version(db, match_id)


def restore_match(db: Database, match_id: str, *, organiser: bool = False) -> None:
    """Bring a deleted match back.

    :raises NotFoundError: for an unknown id. :raises LockedError: as :func:`add_hand`.
    """
    with writing(db):
        match_row(db, match_id)
        if not organiser and _locked(db, match_id, deleting=False):
            raise LockedError(match_id)
        db.execute(
            "update matches set deleted = null, version = version + 1, updated = ? where id = ?", [now(), match_id]
        )
        sync_summary_version(db, match_id)


# --- helpers for writes ---------------------------------------------------------------------
# A match the organiser alone writes: a club night table's once its round is closed, or (to delete
# it) a table's at all. Written into the statement that claims the version, so the rule costs a
# write nothing more than an indexed lookup inside that statement (club_tables.match_id).
CLOSED_TABLE = (
    "exists (select 1 from club_tables t join club_rounds r on r.event_id = t.event_id and r.number = t.round"
    " where t.match_id = {match} and r.closed is not null)"
)
A_TABLE = "exists (select 1 from club_tables t where t.match_id = {match})"


def _locked(db: Database, match_id: str, deleting: bool) -> bool:
    """Whether only the organiser may make this write (a delete when ``deleting``) to the match."""
    rule = (A_TABLE if deleting else CLOSED_TABLE).format(match="?")
    return bool(db.execute(f"select {rule}", [match_id]).fetchone()[0])


def _begin_write(
    db: Database, match_id: str, version: int, organiser: bool = False, deleting: bool = False
) -> dict[str, Any]:
    """Claim the next version of the match, or explain why this writer is stale or may not write it."""
    row, stale = _claim(db, match_id, version, organiser, deleting)
    if stale is not None:
        raise stale
    return row


def _claim(
    db: Database, match_id: str, version: int, organiser: bool = False, deleting: bool = False
) -> tuple[dict[str, Any], StaleError | None]:
    """Claim the next version of the match; or, for a stale writer, the match's row and the error
    that says what changed, raised once the hand is checked (a hand's problems are said first).

    :raises LockedError: at once, when the match is the organiser's alone (a closed round's table,
        or a table's to delete) and the writer is not the ``organiser``: no hand changes that.
    """
    rule = "" if organiser else " and not " + (A_TABLE if deleting else CLOSED_TABLE).format(match="matches.id")
    cursor = db.execute(
        "update matches set version = version + 1, updated = ? "
        f"where id = ? and version = ? and deleted is null and pending is null{rule}",
        [now(), match_id, version],
    )
    if cursor.rowcount == 1:
        row = match_row(db, match_id)
        cached = list(select_rows(db, "select version from match_summaries where match_id = ?", [match_id]))
        if not cached or cached[0]["version"] != version:
            rescore_match(db, match_id)  # figures not written at this version: rebuild before building on them
        return row, None
    row = match_row(db, match_id)
    if rule and _locked(db, match_id, deleting):
        raise LockedError(match_id, deleting)
    if row["deleted"]:
        return row, StaleError([], row["version"], deleted=True)
    return row, StaleError(changes_since(db, row, version), row["version"])


def _rules(row: dict[str, Any], rules: canasta.Variant | None) -> canasta.Variant:
    """The match's rules: as the caller already read them from this match, or made from its row."""
    if rules is None:
        return variant_of(row)
    if rules.key != row["variant"]:
        raise ValueError(f"Match {row['id']} is played by {row['variant']}, not {rules.key}.")
    return rules


class _Declined(Exception):
    """The caller's ``confirm`` said no: the transaction is rolled back and nothing is written."""


def _confirmed(
    confirm: Callable[[canasta.HandResult], bool] | None, result: canasta.HandResult, stale: StaleError | None
) -> None:
    """Ask the caller about the checked, scored hand, then refuse a stale writer."""
    if confirm is not None and not confirm(result):
        raise _Declined
    if stale is not None:
        raise stale


def _summary(db: Database, match_id: str) -> Standing:
    rows = list(select_rows(db, "select * from match_summaries where match_id = ?", [match_id]))
    if not rows:
        raise NotFoundError(match_id)
    return standing_of(rows[0])


def _figure_rows(db: Database, match_id: str) -> list[dict[str, Any]]:
    return list(
        select_rows(
            db,
            "select f.hand_id, f.number, f.scores, f.minimums, f.totals, h.created from hand_figures f "
            "join hands h on h.id = f.hand_id where f.match_id = ? order by f.number",
            [match_id],
        )
    )


def _start(row: dict[str, Any], variant: canasta.Variant) -> tuple[int, ...]:
    return starting_of(row) or (0,) * variant.sides


def _refuse(
    db: Database,
    match_id: str,
    variant: canasta.Variant,
    starting: tuple[int, ...] | None,
    hands: list[canasta.Hand],
    names: Sequence[str] | None,
) -> NoReturn:
    """Check the whole match as it would be: raises the core's InvalidError with every problem.

    Reached only when the quick check from stored figures found a problem, so a refusal reads
    exactly as it always has; ``names`` (the sides' names as the page shows them) word it.
    """
    if names is not None:
        variant = dataclasses.replace(variant, side_names=tuple(names))
    canasta.Match.validated(variant, hands, starting)
    raise RuntimeError(f"Match {match_id}: the stored figures and the rules disagree; run `scorepad rescore`.")


def _set_finished(db: Database, row: dict[str, Any], after: Standing) -> None:
    """Record when the match finished (or that a correction reopened it)."""
    finished = (row["finished"] or now()) if after.is_finished else None
    if finished != row["finished"]:
        db.table("matches").update(row["id"], {"finished": finished})


def _next_position(db: Database, match_id: str) -> int:
    rows = list(
        select_rows(db, "select coalesce(max(position), 0) + 1 as next from hands where match_id = ?", [match_id])
    )
    return rows[0]["next"]


def _revise(
    db: Database,
    hand_id: int,
    action: str,
    hand: canasta.Hand | None,
    match_version: int,
    submission: str | None = None,
) -> None:
    rows = list(
        select_rows(
            db, "select coalesce(max(revision), 0) + 1 as next from hand_revisions where hand_id = ?", [hand_id]
        )
    )
    db.table("hand_revisions").insert(
        {
            "hand_id": hand_id,
            "revision": rows[0]["next"],
            "action": action,
            "data": hand_json(hand) if hand else None,
            "match_version": match_version,
            "created": now(),
            "submission": _unused(db, submission),
        }
    )


def _unused(db: Database, submission: str | None) -> str | None:
    """The save's key, unless another match's hand holds it (this match's were refused before):
    a key is the sender's choice, and one sent to two matches is kept by the first only."""
    if not submission:
        return None
    taken = db.execute("select 1 from hand_revisions where submission = ?", [submission]).fetchone()
    return None if taken else submission


# --- what changed meanwhile ----------------------------------------------------------------
def changes_since(db: Database, row: dict[str, Any], version: int) -> list[Change]:
    """Each hand written after ``version``, with its scores before and after, in the order written."""
    variant = variant_of(row)
    names = tuple(side["name"] for side in json.loads(row["sides"]))
    revisions = select_rows(
        db,
        "select r.*, h.position, (select count(*) from hands l where l.match_id = h.match_id "
        "and l.deleted is null and l.position < h.position) as before "
        "from hand_revisions r join hands h on h.id = r.hand_id "
        "where h.match_id = ? and r.match_version > ? order by r.match_version, r.id",
        [row["id"], version],
    )
    changes = []
    for revision in list(revisions):
        previous = list(
            select_rows(
                db,
                "select data from hand_revisions where hand_id = ? and revision < ? and data is not null "
                "order by revision desc limit 1",
                [revision["hand_id"], revision["revision"]],
            )
        )
        before = _revision_scores(variant, previous[0]["data"]) if previous else None
        after = _revision_scores(variant, revision["data"])
        changes.append(Change(revision["action"], revision["before"] + 1, names, before, after))
    return changes


def _revision_scores(variant: canasta.Variant, data: str | None) -> tuple[int, ...] | None:
    return hand_scores(canasta.Hand.from_dict(json.loads(data)), variant) if data else None
