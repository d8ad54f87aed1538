"""Storage: the only package that knows table names; rows in, ``canasta`` objects out.

A match row holds what was fixed at creation (variant, every option value, sides, starting
totals); hand rows hold each hand's entries as they were entered, and ``hand_revisions`` keeps
every version of every hand, so an edit or a deletion never loses what a player typed. Those are
the facts. What the rules core derives from them (each hand's scores, totals and minimums, each
match's totals and state, each side's figures for the stats) is written in the same transaction
as the facts that change it, so lists and pages read figures instead of rescoring.

One module per concern; callers use ``from . import store`` and the names re-exported here:

- :mod:`.rows`: errors, transactions (:func:`writing`) and reading rows;
- :mod:`.access`: who sees what (a browser's list, the organiser's sign-in);
- :mod:`.reads`: matches as the pages read them (scored whole, or their head from stored figures);
- :mod:`.writes`: versioned writes of matches and hands;
- :mod:`.figures`: the derived figures, written with the facts and rebuilt by :func:`rescore`;
- :mod:`.stats`: players' and teams' sums over the stored figures;
- :mod:`.imports`: writing a checked import, a short transaction at a time;
- :mod:`.exported`: every match as its figures were kept, for a backup (``documents`` writes it).
"""

from . import (
    club,  # noqa: F401  (club nights: events, entrants, rounds, tables)
    imports,  # noqa: F401  (the module itself: tests shorten its batches)
)
from .access import (
    EVERY_MATCH,
    SignInState,
    Viewer,
    add_organiser_session,
    count_unlisted,
    end_organiser_session,
    end_organiser_sign_ins,
    forget_known_devices,
    forget_wrong_guesses,
    grant_access,
    guess_wait,
    has_access,
    has_organiser_session,
    record_sign_in,
    record_wrong_guess,
    sign_in_state,
)
from .exported import figured_matches
from .figures import fill_missing_figures, hand_scores, rescore, rescore_match
from .imports import lookalikes, matches_from, remove_abandoned_imports, save_import, save_imported_match
from .reads import (
    HandFigures,
    MatchHead,
    MatchSummary,
    Page,
    ResultRow,
    Revision,
    StoredMatch,
    all_match_ids,
    current_version,
    each_result_row,
    get_match,
    get_watched_match,
    hand_figures,
    hand_revisions,
    load_match,
    match_head,
    match_page,
    most_sides,
    recently_deleted,
    result_rows,
    totals_before,
    watched_head,
)
from .rows import (
    RESTORE_DAYS,
    SYNCHRONOUS,
    AlreadySavedError,
    Change,
    LockedError,
    NotFoundError,
    Progress,
    StaleError,
    holds_matches,
    new_token,
    now,
    read_snapshot,
    search_key,
    writing,
)
from .stats import count_matches, player_records, player_stats
from .writes import (
    add_hand,
    check_save,
    create_match,
    delete_match,
    replace_hand,
    restore_last_hand,
    restore_match,
    saved_submission,
    undo_last_hand,
    undone_hand,
)

__all__ = [
    "AlreadySavedError",
    "Change",
    "EVERY_MATCH",
    "HandFigures",
    "LockedError",
    "MatchHead",
    "MatchSummary",
    "NotFoundError",
    "Page",
    "Progress",
    "RESTORE_DAYS",
    "SYNCHRONOUS",
    "ResultRow",
    "Revision",
    "SignInState",
    "StaleError",
    "StoredMatch",
    "Viewer",
    "add_hand",
    "check_save",
    "all_match_ids",
    "count_matches",
    "count_unlisted",
    "create_match",
    "current_version",
    "delete_match",
    "end_organiser_sign_ins",
    "add_organiser_session",
    "end_organiser_session",
    "forget_wrong_guesses",
    "guess_wait",
    "has_organiser_session",
    "record_wrong_guess",
    "figured_matches",
    "fill_missing_figures",
    "forget_known_devices",
    "get_match",
    "get_watched_match",
    "grant_access",
    "hand_figures",
    "hand_revisions",
    "hand_scores",
    "has_access",
    "holds_matches",
    "load_match",
    "lookalikes",
    "match_head",
    "match_page",
    "matches_from",
    "new_token",
    "now",
    "player_records",
    "player_stats",
    "recently_deleted",
    "record_sign_in",
    "replace_hand",
    "rescore",
    "rescore_match",
    "restore_last_hand",
    "restore_match",
    "result_rows",
    "each_result_row",
    "most_sides",
    "read_snapshot",
    "save_import",
    "remove_abandoned_imports",
    "save_imported_match",
    "saved_submission",
    "search_key",
    "sign_in_state",
    "totals_before",
    "undo_last_hand",
    "undone_hand",
    "watched_head",
    "writing",
]
