"""The import plan: which matches of a file are new, under which ids, and which are already here."""

import csv
import io
import json

import pytest
from support import add_match

from scorepad import backups, canasta, store
from scorepad.db import connect
from scorepad.documents import MatchInfo, Side

# The first two of the seven hands in tests/test_formats.py.
CLASSIC_HANDS = [{"entries": [{"melded_points": 650}, {"melded_points": 500}]}] * 2

# --- the backup files: what a viewer sees, stamped --------------------------------------------


def test_a_backup_holds_what_its_viewer_sees(app):
    shown, hidden = add_match(app, CLASSIC_HANDS, title="Shown"), add_match(app, CLASSIC_HANDS[:1], title="Hidden")
    db = connect(app.config["DATABASE"])
    try:
        store.grant_access(db, "browser-a", shown, "opened")
        mine = store.Viewer("browser-a")
        # A backup is read as it is written: its text is read while the connection is open.
        backup = backups.all_matches_json(db, viewer=mine, exported="2025-03-01T12:00:00+00:00")
        results = backups.all_results_csv(db, viewer=mine)
        everything = backups.all_matches_json(db)
        texts = backup.text, results.text, everything.text
    finally:
        db.close()
    assert all(texts)
    document = json.loads(backup.text)
    assert backup.count == document["count"] == 1 and document["exported"] == "2025-03-01T12:00:00+00:00"
    assert [match["id"] for match in document["matches"]] == [shown]
    # Two hands of 650 to 500 each: We 1,300, They 1,000; nobody has won yet.
    [row] = csv.DictReader(io.StringIO(results.text))
    assert results.count == 1 and (row["title"], row["side 1 total"], row["side 2 total"]) == ("Shown", "1300", "1000")
    assert everything.count == 2 and hidden in everything.text and json.loads(everything.text)["exported"]


# --- the import id rule ------------------------------------------------------------------
WELL_FORMED = "0123456789abcdef" * 2
FRESH = "f" * 32


def imported(match_id, title="Friday"):
    match = canasta.score_match("classic", CLASSIC_HANDS[:2])
    return match, MatchInfo(match_id, (Side("We"), Side("They")), created="2025-01-04T20:00:00+00:00", title=title)


def plan(pairs, stored=()):
    """Plan with ``stored`` as what the database holds, looked up by id or by origin."""

    def find(file_id):
        return [pair for pair in stored if file_id in (pair[1].id, pair[1].origin)]

    return backups.plan_matches(pairs, find, new_id=lambda: FRESH)


def test_a_well_formed_free_id_is_kept_so_old_links_work():
    [(_, info)] = plan([imported(WELL_FORMED)]).new
    assert (info.id, info.origin) == (WELL_FORMED, WELL_FORMED)


@pytest.mark.parametrize(
    "file_id",
    [
        "0000000000000000",  # the example: sixteen zeros would become a match URL
        "0123456789ABCDEF" * 2,  # upper case: not what store.new_token() makes
        "0123456789abcdef",  # 64 bits, not 128
        "0123456789abcdef" * 2 + "0",  # 33 digits
        "g123456789abcdef" * 2,  # not hex
    ],
)
def test_any_other_id_is_replaced_and_remembered_as_the_origin(file_id):
    [(_, info)] = plan([imported(file_id)]).new
    assert (info.id, info.origin) == (FRESH, file_id)


def test_a_taken_id_is_replaced_and_nothing_stored_is_overwritten():
    here = imported(WELL_FORMED, title="Played here")
    result = plan([imported(WELL_FORMED, title="Played elsewhere")], stored=[here])
    [(_, info)] = result.new
    assert (info.id, info.origin, info.title) == (FRESH, WELL_FORMED, "Played elsewhere") and result.already == []


def test_a_re_import_is_recognised_whether_its_id_was_kept_or_replaced():
    kept = imported(WELL_FORMED)
    match, info = imported("0000000000000000")
    replaced = (match, MatchInfo(FRESH, info.sides, info.created, title=info.title, origin="0000000000000000"))
    result = plan([imported(WELL_FORMED), imported("0000000000000000")], stored=[kept, replaced])
    assert result.new == [] and [pair[1].id for pair in result.already] == [WELL_FORMED, FRESH]
