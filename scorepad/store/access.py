"""Who sees what: a browser's list of matches, and the organiser's sign-in.

A browser sees the matches it created, opened with the write link, or imported: one ``access``
row each. The organiser and the command line see every match (:data:`EVERY_MATCH`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from .rows import now, select_rows, writing


@dataclass(frozen=True)
class Viewer:
    """Whose matches a list covers: one browser's (see the access section), or every match.

    A browser with no id yet (``browser=None``) sees nothing; ``every_match`` is for the
    organiser's signed-in browser and for the command line run by the server's owner.
    """

    browser: str | None = None
    every_match: bool = False


EVERY_MATCH = Viewer(every_match=True)


# --- who sees what --------------------------------------------------------------------------
# A browser sees the matches it created, opened with the write link, or imported: one `access`
# row each. The organiser and the command line see every match (EVERY_MATCH).
def visible_to(viewer: Viewer, column: str = "id") -> tuple[str, list[Any]]:
    """A WHERE condition on the match id ``column`` keeping what ``viewer`` sees, with its parameters.

    Nobody sees a match whose import has not finished (:func:`save_import`).
    """
    held = f"{column.removesuffix('id')}pending is null"
    if viewer.every_match:
        return held, []
    if viewer.browser is None:
        return "0", []
    return f"{held} and {column} in (select match_id from access where browser = ?)", [viewer.browser]


def has_access(db: Database, browser: str, match_id: str) -> bool:
    """Whether ``browser`` already lists this match."""
    return bool(list(select_rows(db, "select 1 from access where browser = ? and match_id = ?", [browser, match_id])))


def grant_access(db: Database, browser: str, match_id: str, how: str) -> None:
    """Add a match to a browser's list (``how``: created, opened, imported); nothing for an unknown id.

    An opened match's line is not worth waiting for the disk: every first visit to a match
    writes one, and a power cut that lost it loses nothing the link cannot give back by being
    opened again. Created and imported matches are part of their own durable writes.
    """
    with writing(db, durable=how != "opened"):
        db.execute(
            "insert or ignore into access (browser, match_id, how, created) "
            "select ?, id, ?, ? from matches where id = ?",
            [browser, how, now(), match_id],
        )


def count_unlisted(db: Database) -> int:
    """Matches no browser lists yet: stored before ownership existed, or imported on the command line."""
    rows = select_rows(
        db,
        "select count(*) as n from matches m where m.deleted is null and m.pending is null "
        "and not exists (select 1 from access a where a.match_id = m.id)",
    )
    return next(iter(rows))["n"]


# --- the organiser's sign-in ------------------------------------------------------------------
@dataclass(frozen=True)
class SignInState:
    """Wrong passphrases in a row, when the next guess may be checked (epoch seconds), the
    generation of organiser sign-ins in force and that of known organiser devices."""

    failures: int
    next_try: float
    generation: int
    device_generation: int


def sign_in_state(db: Database) -> SignInState:
    row = db.execute(
        "select failures, next_try, generation, device_generation from organiser_sign_in where id = 1"
    ).fetchone()
    return SignInState(*row) if row else SignInState(0, 0.0, 1, 1)


def record_sign_in(db: Database, failures: int, next_try: float) -> None:
    """Keep the count of wrong passphrases in a row and when the next may be checked."""
    db.execute("update organiser_sign_in set failures = ?, next_try = ? where id = 1", [failures, next_try])


def forget_known_devices(db: Database) -> None:
    """Every device known to the organiser's sign-in waits like any other from now on."""
    db.execute("update organiser_sign_in set device_generation = device_generation + 1 where id = 1")


def end_organiser_sign_ins(db: Database) -> int:
    """Start a new generation of organiser sign-ins: every earlier one ends; returns the new one."""
    with writing(db):
        db.execute("update organiser_sign_in set generation = generation + 1 where id = 1")
        return sign_in_state(db).generation


# --- each organiser sign-in, and wrong guesses by source ---------------------------------------
# Rows of wrong guesses are forgotten a day after their wait ended, and never more are kept
# than this (the oldest go first), so guesses from ever new addresses cannot fill the disk.
GUESS_MEMORY = 24 * 3600.0
MOST_GUESSERS = 10_000


def add_organiser_session(db: Database, session_id: str, created: float, older_than: float) -> None:
    """Remember one organiser sign-in; forget those begun before ``older_than`` (their cookies expired)."""
    with writing(db):
        db.execute("delete from organiser_sessions where created < ?", [older_than])
        db.execute("insert into organiser_sessions (id, created) values (?, ?)", [session_id, created])


def has_organiser_session(db: Database, session_id: str) -> bool:
    """Whether the sign-in ``session_id`` has not been signed out."""
    return bool(db.execute("select 1 from organiser_sessions where id = ?", [session_id]).fetchone())


def end_organiser_session(db: Database, session_id: str) -> None:
    """End one sign-in (and so every copy of its cookie); every other sign-in goes on."""
    with writing(db):
        db.execute("delete from organiser_sessions where id = ?", [session_id])


def guess_wait(db: Database, keys: list[str]) -> tuple[int, float]:
    """The most wrong guesses in a row among ``keys`` and the latest time any of them may guess again."""
    marks = ", ".join("?" for _ in keys)
    row = db.execute(
        f"select max(failures), max(next_try) from organiser_guesses where key in ({marks})", keys
    ).fetchone()
    return row[0] or 0, row[1] or 0.0


def record_wrong_guess(db: Database, keys: list[str], failures: int, next_try: float, clock: float) -> None:
    """Count a wrong guess against each of ``keys`` (inside the caller's transaction)."""
    db.execute("delete from organiser_guesses where next_try < ?", [clock - GUESS_MEMORY])
    for key in keys:
        db.execute(
            "insert into organiser_guesses (key, failures, next_try) values (?, ?, ?) "
            "on conflict (key) do update set failures = excluded.failures, next_try = excluded.next_try",
            [key, failures, next_try],
        )
    db.execute(
        "delete from organiser_guesses where key in (select key from organiser_guesses "
        "order by next_try desc limit -1 offset ?)",
        [MOST_GUESSERS],
    )


def forget_wrong_guesses(db: Database, keys: list[str]) -> None:
    """The right passphrase from these keys: their count starts again (inside the caller's transaction)."""
    marks = ", ".join("?" for _ in keys)
    db.execute(f"delete from organiser_guesses where key in ({marks})", keys)
