"""Storage: matches, hands and their revisions; scores always come back from the core."""

import json
import re
import sqlite3

import pytest

from scorepad import backups, canasta, meanwhile, store
from scorepad.db import connect, migrate
from scorepad.documents import MatchInfo, Side, match_document

CLASSIC = canasta.VARIANTS["classic"]
WE_THEY = (Side("We", ("Ann", "Bob")), Side("They", ("Cy", "Di")))


def hand(we_melded=620, they_melded=260, they_hand=95, natural=1):
    return canasta.Hand.from_dict(
        {
            "entries": [
                {"melded_points": we_melded, "canastas": {"natural": natural}, "went_out": True},
                {"melded_points": they_melded, "hand_points": they_hand},
            ]
        }
    )


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "store.db")
    migrate(path)
    database = connect(path)
    yield database
    database.close()


@pytest.fixture
def match_id(db):
    return store.create_match(db, CLASSIC, WE_THEY, title="Friday")


def test_ids_are_unguessable(db, match_id):
    stored = store.get_match(db, match_id)
    assert len(match_id) == 32 and int(match_id, 16) >= 0
    assert len(stored.watch_token) == 32 and stored.watch_token != match_id


def test_options_are_frozen_whole(db):
    variant = CLASSIC.with_options({"target": 3000})
    match_id = store.create_match(db, variant, WE_THEY)
    row = db.table("matches").get(match_id)
    assert '"pickup_with_wild": true' in row["options"] and '"target": 3000' in row["options"]
    assert store.get_match(db, match_id).match.variant == variant


def test_hands_are_scored_by_the_core(db, match_id):
    version = store.add_hand(db, match_id, hand(), 1)
    stored = store.get_match(db, match_id)
    assert version == stored.version == 2
    assert stored.match.totals == (1220, 165)
    assert stored.info.sides == WE_THEY and stored.info.title == "Friday"
    assert "score" not in db.table("hands").columns_dict


def test_stale_write_is_refused_and_says_what_changed(db, match_id):
    store.add_hand(db, match_id, hand(), 1)
    with pytest.raises(store.StaleError) as error:
        store.add_hand(db, match_id, hand(), 1)
    assert error.value.version == 2
    assert meanwhile.sentences(error.value) == ["Someone else saved hand 1 meanwhile: We 1220, They 165."]
    assert len(store.get_match(db, match_id).match.hands) == 1


def test_stale_edit_shows_old_and_new_scores(db, match_id):
    store.add_hand(db, match_id, hand(), 1)
    store.replace_hand(db, match_id, 1, hand(we_melded=720), 2)
    with pytest.raises(store.StaleError) as error:
        store.replace_hand(db, match_id, 1, hand(we_melded=820), 2)
    assert meanwhile.sentences(error.value) == [
        "Someone else changed hand 1 meanwhile: We 1220 → 1320, They 165 → 165."
    ]


def test_stale_write_after_an_undo_says_what_the_hand_scored(db, match_id):
    store.add_hand(db, match_id, hand(), 1)
    store.undo_last_hand(db, match_id, 2)
    with pytest.raises(store.StaleError) as error:
        store.add_hand(db, match_id, hand(), 2)
    (change,) = meanwhile.sentences(error.value)
    assert change.startswith("Someone else ") and change.endswith("hand 1 meanwhile: it scored We 1220, They 165.")


def test_edit_keeps_every_revision(db, match_id):
    store.add_hand(db, match_id, hand(), 1)
    store.replace_hand(db, match_id, 1, hand(we_melded=720), 2)
    revisions = store.hand_revisions(db, match_id, 1)
    assert [r.action for r in revisions] == ["add", "edit"]
    assert revisions[0].hand == hand() and revisions[1].hand == hand(we_melded=720)
    assert store.get_match(db, match_id).match.totals == (1320, 165)


def test_invalid_hand_is_refused_whole(db, match_id):
    bad = canasta.Hand.from_dict({"entries": [{"went_out": True}, {"went_out": True}]})
    with pytest.raises(canasta.InvalidError) as error:
        store.add_hand(db, match_id, bad, 1)
    assert any(v.field.startswith("hands[0]") for v in error.value.violations)
    stored = store.get_match(db, match_id)
    assert stored.version == 1 and not stored.match.hands


BOTH_OUT = canasta.Hand.from_dict({"entries": [{"went_out": True}, {"went_out": True}]})


def test_a_refusal_names_the_sides_as_the_caller_shows_them(db, match_id):
    """The store alone checks a saved hand: its refusal is the form's message, in the page's names."""
    with pytest.raises(canasta.InvalidError) as preset:
        store.add_hand(db, match_id, BOTH_OUT, 1)
    with pytest.raises(canasta.InvalidError) as named:
        store.add_hand(db, match_id, BOTH_OUT, 1, names=("Ann and Bob", "Cy and Di"))
    with pytest.raises(canasta.InvalidError) as previewed:
        store.check_save(db, store.match_head(db, match_id), None, BOTH_OUT, ("Ann and Bob", "Cy and Di"))
    two_out = "two sides say they went out: {} and {}."
    assert any(v.message.endswith(two_out.format("We", "They")) for v in preset.value.violations)
    assert any(v.message.endswith(two_out.format("Ann and Bob", "Cy and Di")) for v in named.value.violations)
    assert previewed.value.violations == named.value.violations
    assert store.get_match(db, match_id).version == 1


def test_a_correction_is_refused_in_the_callers_names_too(db, match_id):
    store.add_hand(db, match_id, hand(), 1)
    with pytest.raises(canasta.InvalidError) as error:
        store.replace_hand(db, match_id, 1, BOTH_OUT, 2, names=("Ann and Bob", "Cy and Di"))
    named = [v for v in error.value.violations if "Ann and Bob and Cy and Di" in v.message]
    assert named and all(v.field.startswith("hands[0]") for v in named)
    assert store.get_match(db, match_id).match.hands == (hand(),)


def test_a_declined_save_writes_nothing(db, match_id):
    """``confirm`` (the form's low-meld question) sees the scored hand; no means nothing is written."""
    seen = []
    assert store.add_hand(db, match_id, hand(), 1, confirm=lambda result: seen.append(result) or False) is None
    # Classic at 0 to 0: 50 to open each; the hand scores We 1220, They 165 (as above).
    assert [(r.minimums, tuple(s.score for s in r.sides)) for r in seen] == [((50, 50), (1220, 165))]
    stored = store.get_match(db, match_id)
    assert stored.version == 1 and not stored.match.hands
    assert not db.execute("select count(*) from hand_revisions").fetchone()[0]
    assert store.add_hand(db, match_id, hand(), 1, confirm=lambda result: True) == 2
    assert store.replace_hand(db, match_id, 1, hand(we_melded=720), 2, confirm=lambda result: False) is None
    assert store.get_match(db, match_id).match.totals == (1220, 165)


def test_a_stale_writer_hears_of_the_hands_problems_and_the_question_first(db, match_id):
    """As the form always answered: what is wrong with the hand, then the low-meld question, then
    that someone saved meanwhile."""
    store.add_hand(db, match_id, hand(), 1)
    with pytest.raises(canasta.InvalidError):
        store.add_hand(db, match_id, BOTH_OUT, 1)
    assert store.add_hand(db, match_id, hand(), 1, confirm=lambda result: False) is None
    with pytest.raises(store.StaleError):
        store.add_hand(db, match_id, hand(), 1, confirm=lambda result: True)
    with pytest.raises(canasta.InvalidError):
        store.replace_hand(db, match_id, 1, BOTH_OUT, 1)
    assert store.get_match(db, match_id).version == 2


def test_rules_of_another_variant_are_not_taken(db, match_id):
    with pytest.raises(ValueError):
        store.add_hand(db, match_id, hand(), 1, rules=canasta.VARIANTS["samba"])
    assert store.get_match(db, match_id).version == 1


def test_game_end_is_recorded_and_reopened_by_a_correction(db):
    match_id = store.create_match(db, CLASSIC, WE_THEY, starting_totals=(4000, 0))
    store.add_hand(db, match_id, hand(), 1)
    assert store.get_match(db, match_id).info.finished
    with pytest.raises(canasta.InvalidError):
        store.add_hand(db, match_id, hand(), 2)  # no hand after the game is over
    small = canasta.Hand.from_dict({"entries": [{"melded_points": 50}, {"melded_points": 50}]})
    store.replace_hand(db, match_id, 1, small, 2)
    stored = store.get_match(db, match_id)
    assert stored.info.finished is None and not stored.match.is_finished


def test_undo_and_put_back(db, match_id):
    store.add_hand(db, match_id, hand(), 1)
    store.add_hand(db, match_id, hand(we_melded=720), 2)
    assert store.undo_last_hand(db, match_id, 3) == 2
    assert store.get_match(db, match_id).match.totals == (1220, 165)
    assert store.undone_hand(db, match_id) == 2
    assert store.restore_last_hand(db, match_id, 4) == 2
    assert store.get_match(db, match_id).match.totals == (2540, 330)
    assert store.undone_hand(db, match_id) is None
    assert [r.action for r in store.hand_revisions(db, match_id, 2)] == ["add", "delete", "restore"]


def test_undo_without_hands(db, match_id):
    with pytest.raises(store.NotFoundError):
        store.undo_last_hand(db, match_id, 1)


def test_new_hand_after_undo_cannot_be_put_back_over(db, match_id):
    store.add_hand(db, match_id, hand(), 1)
    store.undo_last_hand(db, match_id, 2)
    store.add_hand(db, match_id, hand(we_melded=720), 3)
    assert store.undone_hand(db, match_id) is None


def test_delete_and_restore_match(db, match_id):
    store.delete_match(db, match_id, 1)
    assert [s.id for s in store.match_page(db).items] == []
    assert [s.id for s in store.recently_deleted(db)] == [match_id]
    with pytest.raises(store.NotFoundError):
        store.load_match(db, match_id)
    with pytest.raises(store.StaleError, match="deleted") as error:
        store.add_hand(db, match_id, hand(), 2)
    assert meanwhile.sentences(error.value) == ["This match was deleted meanwhile; restore it from the start page."]
    store.restore_match(db, match_id)
    assert [s.id for s in store.match_page(db).items] == [match_id]


def test_unknown_match(db):
    with pytest.raises(store.NotFoundError):
        store.get_match(db, "0" * 32)
    with pytest.raises(store.NotFoundError):
        store.get_watched_match(db, "0" * 32)


def test_watch_token_finds_the_match(db, match_id):
    token = store.get_match(db, match_id).watch_token
    assert store.get_watched_match(db, token).id == match_id


def test_match_page_summaries(db, match_id):
    store.add_hand(db, match_id, hand(), 1)
    (summary,) = store.match_page(db).items
    assert summary.side_names == ("We", "They")
    assert summary.totals == (1220, 165) and summary.hands == 1
    assert summary.variant_name == "Classic canasta" and not summary.is_finished


def test_import_round_trip(db, match_id):
    store.add_hand(db, match_id, hand(), 1)
    match, info = store.load_match(db, match_id)
    assert store.save_imported_match(db, match, info) is False
    copy = MatchInfo(id="a" * 32, sides=info.sides, created=info.created, title="Copy")
    assert store.save_imported_match(db, match, copy) is True
    again, again_info = store.load_match(db, "a" * 32)
    assert again.totals == match.totals and again_info.title == "Copy"
    assert sorted(store.all_match_ids(db)) == sorted([match_id, "a" * 32])


def test_concurrent_writers_one_wins(tmp_path):
    """Two connections (two phones) write from the same version: exactly one succeeds."""
    path = str(tmp_path / "two.db")
    migrate(path)
    first, second = connect(path), connect(path)
    try:
        match_id = store.create_match(first, CLASSIC, WE_THEY)
        store.add_hand(first, match_id, hand(), 1)
        with pytest.raises(store.StaleError) as error:
            store.add_hand(second, match_id, hand(we_melded=720), 1)
        assert "hand 1" in meanwhile.sentences(error.value)[0]
        assert store.get_match(second, match_id).match.totals == (1220, 165)
    finally:
        first.close()
        second.close()


# --- who sees what ---------------------------------------------------------------------------
BROWSER, OTHER = "b" * 32, "c" * 32


def test_lists_cover_what_the_viewer_sees(db, match_id):
    mine = store.create_match(db, CLASSIC, WE_THEY, title="Mine", browser=BROWSER)
    deleted = store.create_match(db, CLASSIC, WE_THEY, title="Gone", browser=BROWSER)
    store.delete_match(db, deleted, 1)
    me, nobody = store.Viewer(BROWSER), store.Viewer()
    assert [s.id for s in store.match_page(db, viewer=me).items] == [mine]
    assert [s.id for s in store.recently_deleted(db, viewer=me)] == [deleted]
    assert store.all_match_ids(db, viewer=me) == [mine]
    assert store.match_page(db, viewer=nobody).items == [] and store.all_match_ids(db, viewer=store.Viewer(OTHER)) == []
    assert sorted(store.all_match_ids(db)) == sorted([match_id, mine]), "the command line sees every match"
    assert {s.id for s in store.match_page(db, include_deleted=True, viewer=me).items} == {mine, deleted}


def test_access_is_granted_once_and_only_to_a_real_match(db, match_id):
    assert not store.has_access(db, BROWSER, match_id)
    store.grant_access(db, BROWSER, match_id, "opened")
    store.grant_access(db, BROWSER, match_id, "opened")
    store.grant_access(db, BROWSER, "0" * 32, "opened")
    assert store.has_access(db, BROWSER, match_id)
    assert [row["match_id"] for row in db.query("select match_id from access")] == [match_id]


def test_count_unlisted_counts_live_matches_no_browser_lists(db, match_id):
    assert store.count_unlisted(db) == 1
    store.create_match(db, CLASSIC, WE_THEY, browser=BROWSER)
    assert store.count_unlisted(db) == 1
    store.grant_access(db, OTHER, match_id, "opened")
    assert store.count_unlisted(db) == 0


def test_an_import_stores_its_origin_and_joins_the_browsers_list(db, match_id):
    store.add_hand(db, match_id, hand(), 1)
    document = json.dumps(match_document(*store.load_match(db, match_id)) | {"id": "0000000000000000"})
    plan = backups.plan_import(db, document.encode())
    [(_, info)] = plan.new
    assert backups.save_import(db, plan, browser=BROWSER) == 1
    assert info.id != "0000000000000000" and re.fullmatch(r"[0-9a-f]{32}", info.id)
    assert store.all_match_ids(db, viewer=store.Viewer(BROWSER)) == [info.id]
    assert [pair[1].id for pair in store.matches_from(db, "0000000000000000")] == [info.id]
    again = backups.plan_import(db, document.encode(), viewer=store.Viewer(BROWSER))
    assert again.new == [] and [pair[1].id for pair in again.already] == [info.id], "a re-import is recognised"
    assert backups.save_import(db, again, browser=BROWSER) == 0
    # Another browser with the same file never gets that match (its id, the write link, is not in
    # the file): it gets a copy of its own, and the first browser's list is as it was.
    other = backups.plan_import(db, document.encode(), viewer=store.Viewer(OTHER))
    [(_, copy)] = other.new
    assert other.already == [] and copy.id not in (info.id, "0000000000000000")
    assert backups.save_import(db, other, browser=OTHER) == 1
    assert store.all_match_ids(db, viewer=store.Viewer(OTHER)) == [copy.id]
    assert store.all_match_ids(db, viewer=store.Viewer(BROWSER)) == [info.id]


def test_an_opened_match_joins_the_list_without_waiting_for_the_disk(db, match_id, monkeypatch):
    said = []
    execute = db.execute
    monkeypatch.setattr(db, "execute", lambda sql, *args: said.append(sql) or execute(sql, *args))
    store.grant_access(db, "b" * 32, match_id, "opened")
    assert said[0] == "PRAGMA synchronous = NORMAL" and said[-1] == "PRAGMA synchronous = FULL"
    assert store.has_access(db, "b" * 32, match_id)
    said.clear()
    store.grant_access(db, "c" * 32, match_id, "imported")  # as part of an import: waits as ever
    assert store.has_access(db, "c" * 32, match_id) and not any("synchronous" in sql for sql in said)
    assert execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL again for every later write


def test_a_head_follows_every_change(db, match_id):
    first = store.match_head(db, match_id)
    assert store.match_head(db, match_id) == first  # nothing written: the same head
    store.add_hand(db, match_id, hand(), first.version)
    after = store.match_head(db, match_id)
    assert after.version == first.version + 1 and after.summary.played == 1
    assert after.summary.totals == (1220, 165) and after.variant == CLASSIC
    assert store.watched_head(db, after.watch_token) == after
    store.delete_match(db, match_id, after.version)
    assert store.match_head(db, match_id).deleted
    with pytest.raises(store.NotFoundError):
        store.watched_head(db, after.watch_token)


def test_a_failed_rollback_still_leaves_the_connection_waiting_for_the_disk(db, match_id):
    real = db.conn

    class FirstRollbackFails:
        """The connection, except that its first rollback fails (a disk error, say)."""

        failed = False

        def __getattr__(self, name):
            return getattr(real, name)

        def rollback(self):
            if not FirstRollbackFails.failed:
                FirstRollbackFails.failed = True
                raise sqlite3.OperationalError("disk I/O error")
            real.rollback()

    db.conn = FirstRollbackFails()
    try:
        with pytest.raises(sqlite3.OperationalError), store.writing(db, durable=False):
            db.execute(
                "insert into access (browser, match_id, how, created) values (?, ?, 'opened', '')", ["d" * 32, match_id]
            )
            raise ValueError("the body fails")
    finally:
        db.conn = real
    assert not real.in_transaction
    assert real.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: the next hand waits for the disk
    assert not store.has_access(db, "d" * 32, match_id)  # what the failed write did is gone


def test_a_whole_match_and_its_head_answer_alike(db):
    """The pages ask either read model the same questions: the scored match agrees with the stored summary."""
    variant = CLASSIC.with_options({"target": 2000})
    match_id = store.create_match(db, variant, WE_THEY)
    store.add_hand(db, match_id, hand(), 1)
    store.add_hand(db, match_id, hand(), 2)  # docs/rules.md: We 1220 a hand, so 2440 passes 2000: the game ends
    whole, head = store.get_match(db, match_id), store.match_head(db, match_id)
    for read in (whole, head):
        assert (read.id, read.version, read.variant_key, read.variant) == (match_id, 3, "classic", variant)
        assert read.summary.totals == (2440, 330) and read.summary.is_finished and read.summary.winner == 0
    assert whole.summary == head.summary and whole.info == head.info
