"""Storage: the only module that knows table names; rows in, ``canasta`` objects out.

A match row holds what was fixed at creation (variant, every option value, sides, starting
totals); hand rows hold each hand's entries as they were entered, and ``hand_revisions`` keeps
every version of every hand, so an edit or a deletion never loses what a player typed. Scores
are never stored: they are derived by the rules core whenever a match is loaded.

Every write is one transaction and starts by bumping the match's ``version`` only if it still is
the version the writer's page was rendered from; otherwise :class:`StaleError` says what changed.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlite_utils import Database

from . import canasta, export
from .documents import MatchInfo, Side

RESTORE_DAYS = 30  # a deleted match is offered for restoring this long
Progress = Callable[[int, int], None]  # (done, of) for long imports


class NotFoundError(LookupError):
    """No match (or hand) at this id; the pages answer 404."""


class StaleError(Exception):
    """The match changed since the page was rendered; ``changes`` says how, in sentences."""

    def __init__(self, changes: list[str], version: int):
        super().__init__(" ".join(changes))
        self.changes = changes
        self.version = version


@dataclass(frozen=True)
class StoredMatch:
    """A match as the pages need it: the scored match, its info, and what guards writes."""

    match: canasta.Match
    info: MatchInfo
    version: int
    watch_token: str
    updated: str
    deleted: str | None = None

    @property
    def id(self) -> str:
        return self.info.id


@dataclass(frozen=True)
class MatchSummary:
    """A line of the match list: who, which variant, the totals and the state."""

    id: str
    title: str
    variant_name: str
    side_names: tuple[str, ...]
    totals: tuple[int, ...]
    hands: int
    is_finished: bool
    winner: int | None
    created: str
    updated: str
    deleted: str | None


@dataclass(frozen=True)
class Revision:
    """One stored version of a hand: ``hand`` is None for a deletion."""

    revision: int
    action: str
    hand: canasta.Hand | None
    created: str


@dataclass(frozen=True)
class Viewer:
    """Whose matches a list covers: one browser's (see the access section), or every match.

    A browser with no id yet (``browser=None``) sees nothing; ``every_match`` is for the
    organiser's signed-in browser and for the command line run by the server's owner.
    """

    browser: str | None = None
    every_match: bool = False


EVERY_MATCH = Viewer(every_match=True)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_token() -> str:
    """128 random bits as 32 hex digits: match ids and watch tokens are never guessable."""
    return secrets.token_hex(16)


@contextmanager
def writing(db: Database) -> Iterator[Database]:
    """One write transaction that holds the write lock from its first statement.

    A transaction that reads first and writes later (SQLite's default ``BEGIN DEFERRED``) fails
    at once with "database is locked" when another writer got in between, because its snapshot
    can no longer be upgraded; ``BEGIN IMMEDIATE`` takes the lock up front, so concurrent writers
    wait their turn (``busy_timeout``) instead. Nested use becomes a savepoint.
    """
    if db.conn.in_transaction:
        with db.atomic():
            yield db
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.rollback()
        raise
    try:
        db.execute("COMMIT")
    except BaseException:
        db.conn.rollback()
        raise


# --- reading ----------------------------------------------------------------------------
def _match_row(db: Database, match_id: str) -> dict[str, Any]:
    rows = list(db.query("select * from matches where id = ?", [match_id]))
    if not rows:
        raise NotFoundError(match_id)
    return rows[0]


def _live_hands(db: Database, match_id: str) -> list[dict[str, Any]]:
    return list(db.query("select * from hands where match_id = ? and deleted is null order by position", [match_id]))


def _variant(row: dict[str, Any]) -> canasta.Variant:
    return canasta.rules_for(row["variant"], json.loads(row["options"]))


def _stored(db: Database, row: dict[str, Any]) -> StoredMatch:
    hands = tuple(canasta.Hand.from_dict(json.loads(hand["data"])) for hand in _live_hands(db, row["id"]))
    starting = json.loads(row["starting_totals"]) if row["starting_totals"] else None
    match = canasta.Match(_variant(row), hands, tuple(starting) if starting else None)
    info = MatchInfo(
        id=row["id"],
        sides=tuple(Side(side["name"], tuple(side["players"])) for side in json.loads(row["sides"])),
        created=row["created"],
        finished=row["finished"],
        title=row["title"] or "",
    )
    return StoredMatch(match, info, row["version"], row["watch_token"], row["updated"], row["deleted"])


def get_match(db: Database, match_id: str) -> StoredMatch:
    """A match, deleted or not.

    :raises NotFoundError: for an id that was never stored.
    """
    return _stored(db, _match_row(db, match_id))


def get_watched_match(db: Database, watch_token: str) -> StoredMatch:
    """The match a read-only link shows.

    :raises NotFoundError: for an unknown token or a deleted match.
    """
    rows = list(db.query("select * from matches where watch_token = ? and deleted is null", [watch_token]))
    if not rows:
        raise NotFoundError(watch_token)
    return _stored(db, rows[0])


def load_match(db: Database, match_id: str) -> tuple[canasta.Match, MatchInfo]:
    """The scored match and its info, for export and the JSON API.

    :raises NotFoundError: for an unknown or deleted match.
    """
    stored = get_match(db, match_id)
    if stored.deleted:
        raise NotFoundError(match_id)
    return stored.match, stored.info


def all_match_ids(db: Database, viewer: Viewer = EVERY_MATCH) -> list[str]:
    """Every match that is not deleted and ``viewer`` sees, oldest first."""
    seen, params = _visible_to(viewer)
    rows = db.query(f"select id from matches where deleted is null and {seen} order by created, id", params)
    return [row["id"] for row in rows]


def list_matches(db: Database, include_deleted: bool = False, viewer: Viewer = EVERY_MATCH) -> list[MatchSummary]:
    """Matches ``viewer`` sees, for the home page, most recently played first."""
    seen, params = _visible_to(viewer)
    where = f"where {seen}" if include_deleted else f"where deleted is null and {seen}"
    rows = db.query(f"select * from matches {where} order by updated desc, created desc", params)
    return [_summary(_stored(db, row)) for row in rows]


def recently_deleted(db: Database, days: int = RESTORE_DAYS, viewer: Viewer = EVERY_MATCH) -> list[MatchSummary]:
    """Matches ``viewer`` sees deleted within ``days``, which can still be restored from the home page."""
    since = (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="seconds")
    seen, params = _visible_to(viewer)
    rows = db.query(f"select * from matches where deleted >= ? and {seen} order by deleted desc", [since, *params])
    return [_summary(_stored(db, row)) for row in rows]


def _summary(stored: StoredMatch) -> MatchSummary:
    match = stored.match
    return MatchSummary(
        id=stored.id,
        title=stored.info.title,
        variant_name=match.variant.name,
        side_names=tuple(side.name for side in stored.info.sides),
        totals=match.totals,
        hands=len(match.hands),
        is_finished=match.is_finished,
        winner=match.winner,
        created=stored.info.created,
        updated=stored.updated,
        deleted=stored.deleted,
    )


def hand_revisions(db: Database, match_id: str, number: int) -> list[Revision]:
    """Every stored version of hand ``number`` (1-based), oldest first.

    :raises NotFoundError: when the match has no such hand.
    """
    hand_id = _hand_row(db, match_id, number)["id"]
    rows = db.query("select * from hand_revisions where hand_id = ? order by revision", [hand_id])
    return [
        Revision(
            row["revision"],
            row["action"],
            canasta.Hand.from_dict(json.loads(row["data"])) if row["data"] else None,
            row["created"],
        )
        for row in rows
    ]


def _hand_row(db: Database, match_id: str, number: int) -> dict[str, Any]:
    hands = _live_hands(db, match_id)
    if not 1 <= number <= len(hands):
        raise NotFoundError(f"{match_id} hand {number}")
    return hands[number - 1]


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
        if browser:
            grant_access(db, browser, match_id, "created")
    return match_id


def add_hand(db: Database, match_id: str, hand: canasta.Hand, version: int) -> int:
    """Append a hand; returns the match's new version.

    :raises StaleError: when ``version`` is not the match's current version.
    :raises InvalidError: when the match with this hand cannot be scored (fields ``hands[i]``).
    """
    with writing(db):
        row = _begin_write(db, match_id, version)
        live = _live_hands(db, match_id)
        _settle(db, row, [*(_hand(h) for h in live), hand])
        position = _next_position(db, match_id)
        hand_id = (
            db.table("hands")
            .insert({"match_id": match_id, "position": position, "data": _json(hand), "created": now()})
            .last_pk
        )
        _revise(db, hand_id, "add", hand, version + 1)
    return version + 1


def replace_hand(db: Database, match_id: str, number: int, hand: canasta.Hand, version: int) -> int:
    """Correct hand ``number``; later totals, minimums and game end follow. Returns the new version.

    :raises StaleError, InvalidError, NotFoundError: as :func:`add_hand`, or for no such hand.
    """
    with writing(db):
        row = _begin_write(db, match_id, version)
        live = _live_hands(db, match_id)
        if not 1 <= number <= len(live):
            raise NotFoundError(f"{match_id} hand {number}")
        hands = [_hand(h) for h in live]
        hands[number - 1] = hand
        _settle(db, row, hands)
        hand_id = live[number - 1]["id"]
        db.table("hands").update(hand_id, {"data": _json(hand)})
        _revise(db, hand_id, "edit", hand, version + 1)
    return version + 1


def undo_last_hand(db: Database, match_id: str, version: int) -> int:
    """Remove the last hand (its revisions stay, and :func:`restore_last_hand` puts it back).

    Returns the number of the hand removed.

    :raises StaleError: when ``version`` is stale. :raises NotFoundError: when there is no hand.
    """
    with writing(db):
        row = _begin_write(db, match_id, version)
        live = _live_hands(db, match_id)
        if not live:
            raise NotFoundError(f"{match_id} has no hands")
        _settle(db, row, [_hand(h) for h in live[:-1]])
        db.table("hands").update(live[-1]["id"], {"deleted": now()})
        _revise(db, live[-1]["id"], "delete", None, version + 1)
    return len(live)


def undone_hand(db: Database, match_id: str) -> int | None:
    """The number the last undone hand would take back, if it can be put back."""
    row = _last_undone(db, match_id)
    return len(_live_hands(db, match_id)) + 1 if row else None


def _last_undone(db: Database, match_id: str) -> dict[str, Any] | None:
    rows = list(
        db.query(
            "select * from hands where match_id = ? and deleted is not null and position > "
            "coalesce((select max(position) from hands where match_id = ? and deleted is null), -1) "
            "order by position desc limit 1",
            [match_id, match_id],
        )
    )
    return rows[0] if rows else None


def restore_last_hand(db: Database, match_id: str, version: int) -> int:
    """Put back the hand undone last; returns its number.

    :raises NotFoundError: when there is none. :raises StaleError, InvalidError: as :func:`add_hand`.
    """
    with writing(db):
        row = _begin_write(db, match_id, version)
        undone = _last_undone(db, match_id)
        if undone is None:
            raise NotFoundError(f"{match_id} has no undone hand")
        live = _live_hands(db, match_id)
        _settle(db, row, [*(_hand(h) for h in live), _hand(undone)])
        db.table("hands").update(undone["id"], {"deleted": None})
        _revise(db, undone["id"], "restore", _hand(undone), version + 1)
    return len(live) + 1


def delete_match(db: Database, match_id: str, version: int) -> None:
    """Mark a match deleted; it stays restorable and nothing in it is removed."""
    with writing(db):
        _begin_write(db, match_id, version)
        db.table("matches").update(match_id, {"deleted": now()})


def restore_match(db: Database, match_id: str) -> None:
    """Bring a deleted match back.

    :raises NotFoundError: for an unknown id.
    """
    with writing(db):
        _match_row(db, match_id)
        db.execute(
            "update matches set deleted = null, version = version + 1, updated = ? where id = ?", [now(), match_id]
        )


def save_imported_match(db: Database, match: canasta.Match, info: MatchInfo) -> bool:
    """Store a match read from a document under ``info.id``; False when that id exists already.

    ``info.origin`` (the id the match had in the file) is kept, so a re-import is recognised
    even when the id was replaced (see :func:`export.plan_import`).
    """
    with writing(db):
        if list(db.query("select 1 from matches where id = ?", [info.id])):
            return False
        stamp = now()
        finished = info.finished or (stamp if match.is_finished else None)
        db.table("matches").insert(
            {
                "id": info.id,
                "watch_token": new_token(),
                "variant": match.variant.key,
                "options": json.dumps(match.variant.option_values()),
                "sides": json.dumps([side.to_dict() for side in info.sides]),
                "starting_totals": json.dumps(list(match.starting_totals)) if match.starting_totals else None,
                "title": info.title,
                "created": info.created or stamp,
                "updated": stamp,
                "finished": finished if match.is_finished else None,
                "version": 1,
                "origin": info.origin,
            }
        )
        for position, hand in enumerate(match.hands, start=1):
            hand_id = (
                db.table("hands")
                .insert({"match_id": info.id, "position": position, "data": _json(hand), "created": stamp})
                .last_pk
            )
            _revise(db, hand_id, "import", hand, 1)
    return True


def find_match(db: Database, match_id: str) -> tuple[canasta.Match, MatchInfo] | None:
    """A stored match (deleted ones too) with its info, or None when the id is free."""
    try:
        stored = get_match(db, match_id)
    except NotFoundError:
        return None
    return stored.match, stored.info


def matches_from(db: Database, file_id: str) -> list[tuple[canasta.Match, MatchInfo]]:
    """Stored matches (deleted ones too) a file's match id may refer to: the match with that id,
    and every match imported from a file where it had that id."""
    rows = db.query("select * from matches where id = ? or origin = ? order by id = ? desc", [file_id] * 3)
    return [(stored.match, stored.info) for stored in (_stored(db, row) for row in rows)]


def plan_import(db: Database, raw: bytes, progress: Progress | None = None) -> export.ImportPlan:
    """Read and check a whole export file against what is stored; nothing is written.

    :raises canasta.InvalidError: with every problem, each with its path in the file.
    """
    data = export.parse_json(raw)
    pairs = export.read_all_matches_document(data, progress)
    return export.plan_import(pairs, lambda file_id: matches_from(db, file_id), new_id=new_token)


def save_import(
    db: Database, plan: export.ImportPlan, progress: Progress | None = None, browser: str | None = None
) -> int:
    """Write every new match of a checked import in one transaction; returns how many were added.

    With ``browser``, every match of the file (new or already here) joins that browser's list.
    """
    added = 0
    with writing(db):
        for done, (match, info) in enumerate(plan.new, start=1):
            added += save_imported_match(db, match, info)
            if progress:
                progress(done, len(plan.new))
        if browser:
            for _, info in [*plan.new, *plan.already]:
                grant_access(db, browser, info.id, "imported")
    return added


# --- who sees what --------------------------------------------------------------------------
# A browser sees the matches it created, opened with the write link, or imported: one `access`
# row each. The organiser and the command line see every match (EVERY_MATCH).
def _visible_to(viewer: Viewer) -> tuple[str, list[str]]:
    """A WHERE condition on ``matches`` keeping what ``viewer`` sees, with its parameters."""
    if viewer.every_match:
        return "1", []
    if viewer.browser is None:
        return "0", []
    return "id in (select match_id from access where browser = ?)", [viewer.browser]


def has_access(db: Database, browser: str, match_id: str) -> bool:
    """Whether ``browser`` already lists this match."""
    return bool(list(db.query("select 1 from access where browser = ? and match_id = ?", [browser, match_id])))


def grant_access(db: Database, browser: str, match_id: str, how: str) -> None:
    """Add a match to a browser's list (``how``: created, opened, imported); nothing for an unknown id."""
    with writing(db):
        db.execute(
            "insert or ignore into access (browser, match_id, how, created) "
            "select ?, id, ?, ? from matches where id = ?",
            [browser, how, now(), match_id],
        )


def count_unlisted(db: Database) -> int:
    """Matches no browser lists yet: stored before ownership existed, or imported on the command line."""
    rows = db.query(
        "select count(*) as n from matches m where m.deleted is null "
        "and not exists (select 1 from access a where a.match_id = m.id)"
    )
    return next(iter(rows))["n"]


# --- helpers for writes ---------------------------------------------------------------------
def _begin_write(db: Database, match_id: str, version: int) -> dict[str, Any]:
    """Claim the next version of the match, or explain why this writer is stale."""
    cursor = db.execute(
        "update matches set version = version + 1, updated = ? where id = ? and version = ? and deleted is null",
        [now(), match_id, version],
    )
    if cursor.rowcount == 1:
        return _match_row(db, match_id)
    row = _match_row(db, match_id)
    if row["deleted"]:
        raise StaleError(["This match was deleted meanwhile; restore it from the start page."], row["version"])
    raise StaleError(changes_since(db, row, version), row["version"])


def _settle(db: Database, row: dict[str, Any], hands: list[canasta.Hand]) -> canasta.Match:
    """Check the match as it will be, and record when it finished (or that a fix reopened it)."""
    starting = json.loads(row["starting_totals"]) if row["starting_totals"] else None
    match = canasta.Match.validated(_variant(row), hands, starting)
    finished = (row["finished"] or now()) if match.is_finished else None
    db.table("matches").update(row["id"], {"finished": finished})
    return match


def _next_position(db: Database, match_id: str) -> int:
    rows = list(db.query("select coalesce(max(position), 0) + 1 as next from hands where match_id = ?", [match_id]))
    return rows[0]["next"]


def _revise(db: Database, hand_id: int, action: str, hand: canasta.Hand | None, match_version: int) -> None:
    rows = list(
        db.query("select coalesce(max(revision), 0) + 1 as next from hand_revisions where hand_id = ?", [hand_id])
    )
    db.table("hand_revisions").insert(
        {
            "hand_id": hand_id,
            "revision": rows[0]["next"],
            "action": action,
            "data": _json(hand) if hand else None,
            "match_version": match_version,
            "created": now(),
        }
    )


def _hand(row: dict[str, Any]) -> canasta.Hand:
    return canasta.Hand.from_dict(json.loads(row["data"]))


def _json(hand: canasta.Hand) -> str:
    return json.dumps(hand.to_dict(), sort_keys=True)


# --- what changed meanwhile ----------------------------------------------------------------
VERBS = {"add": "saved", "edit": "changed", "delete": "removed", "restore": "put back", "import": "imported"}


def changes_since(db: Database, row: dict[str, Any], version: int) -> list[str]:
    """Sentences naming each hand written after ``version``, with its scores before and after."""
    variant = _variant(row)
    names = [side["name"] for side in json.loads(row["sides"])]
    revisions = list(
        db.query(
            "select r.*, h.position, (select count(*) from hands l where l.match_id = h.match_id "
            "and l.deleted is null and l.position < h.position) as before "
            "from hand_revisions r join hands h on h.id = r.hand_id "
            "where h.match_id = ? and r.match_version > ? order by r.match_version, r.id",
            [row["id"], version],
        )
    )
    changes = []
    for revision in revisions:
        number = revision["before"] + 1
        verb = VERBS.get(revision["action"], revision["action"])
        new = _scores(variant, revision["data"])
        previous = list(
            db.query(
                "select data from hand_revisions where hand_id = ? and revision < ? and data is not null "
                "order by revision desc limit 1",
                [revision["hand_id"], revision["revision"]],
            )
        )
        old = _scores(variant, previous[0]["data"]) if previous else None
        if new and old and revision["action"] == "edit":
            detail = ", ".join(f"{name} {a} → {b}" for name, a, b in zip(names, old, new, strict=False))
        elif new:
            detail = ", ".join(f"{name} {score}" for name, score in zip(names, new, strict=False))
        else:
            detail = "it scored " + ", ".join(f"{name} {score}" for name, score in zip(names, old or (), strict=False))
        changes.append(f"Someone else {verb} hand {number} meanwhile: {detail}.")
    return changes or ["Someone else changed this match meanwhile."]


def _scores(variant: canasta.Variant, data: str | None) -> tuple[int, ...] | None:
    if not data:
        return None
    hand = canasta.Hand.from_dict(json.loads(data))
    if canasta.check_hand(hand, variant):
        return None
    return tuple(side.score for side in canasta.score_hand(hand, variant))
