"""The stored figures (summaries, per-hand scores, side figures) stay equal to the core's scoring.

docs/architecture.md, the store: the figures are written with the facts, in the same transaction.
After any sequence of writes, each stored match's figures must equal a full recomputation by
``canasta.Match`` from its hands, and a refused write must say exactly what the whole-match check
says.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad import backups, canasta, documents, store
from scorepad.db import connect, migrate
from scorepad.documents import MatchInfo, Side, match_document

SIDES = [Side("We", ("Ann", "Bob")), Side("They", ("Cy", "Di"))]
# Low targets and a hand limit, so sequences finish matches, and corrections reopen them.
RULES = [
    canasta.rules_for("classic", {"target": 3000}),
    canasta.rules_for("classic", {"target": 5000, "max_hands": 5}),
    canasta.rules_for("samba", {"target": 4000}),
]

entries = st.fixed_dictionaries(
    {
        "melded_points": st.integers(0, 100).map(lambda n: n * 5),
        "hand_points": st.integers(0, 20).map(lambda n: n * 5),
        "canastas": st.fixed_dictionaries({"natural": st.integers(0, 2), "mixed": st.integers(0, 1)}),
        "red_threes": st.integers(0, 2),
    }
)


def going_out(pair: list[dict], side: int | None, anyway: bool) -> dict:
    """The hand with ``side`` going out; a side without a canasta goes out only when ``anyway``."""
    if side is not None and (anyway or pair[side]["canastas"]["natural"] + pair[side]["canastas"]["mixed"]):
        pair[side] = {**pair[side], "went_out": True, "hand_points": 0}
    return {"entries": pair}


# Mostly hands the core accepts, some it refuses (going out without a canasta).
hands = st.builds(
    going_out,
    st.lists(entries, min_size=2, max_size=2),
    st.one_of(st.none(), st.integers(0, 1)),
    st.sampled_from([False, False, False, True]),
)
pick = st.integers(0, 2)  # which of the matches so far a write goes to
operations = st.one_of(
    st.tuples(st.just("add"), hands, pick),
    st.tuples(st.just("add"), hands, pick),
    st.tuples(st.just("add"), hands, pick),
    st.tuples(st.just("edit"), st.integers(0, 9), hands, pick),
    st.tuples(st.just("edit"), st.integers(0, 9), hands, pick),
    st.tuples(st.just("undo"), pick),
    st.tuples(st.just("put back"), pick),
    st.tuples(st.just("put back"), pick),
    st.tuples(st.just("delete"), pick),
    st.tuples(st.just("restore"), pick),
    st.tuples(st.just("import"), pick),
    st.tuples(st.just("new"), st.integers(0, len(RULES) - 1)),
)


@pytest.fixture
def database(tmp_path):
    path = str(tmp_path / "figures.db")
    migrate(path)
    db = connect(path)
    yield db
    db.close()


def expected_sides(match: canasta.Match) -> list[dict]:
    """Each side's figures worked out from the core's results, the way the stats count them."""
    out = []
    for index in range(match.variant.sides):
        scores = [result.scores[index] for result in match.results]
        if not match.is_finished:
            outcome = "playing"
        elif match.is_tie and match.totals[index] == max(match.totals):
            outcome = "tie"
        else:
            outcome = "won" if match.winner == index else "lost"
        out.append(
            {
                "total": match.totals[index],
                "outcome": outcome,
                "hands": len(scores),
                "points": sum(scores),
                "best_hand": max(scores) if scores else None,
                "canastas": sum(r.hand.entries[index].canasta_count for r in match.results),
                "red_threes": sum(r.hand.entries[index].red_threes for r in match.results),
            }
        )
    return out


def assert_figures_match_the_core(db) -> None:
    """Every stored figure equals a full recomputation from the stored hands."""
    for (match_id,) in db.execute("select id from matches").fetchall():
        stored = store.get_match(db, match_id)  # the facts, scored whole by the core
        match = stored.match
        assert not match.problems()
        head = store.match_head(db, match_id)
        summary = head.summary
        assert summary.totals == match.totals
        assert summary.played == len(match.hands)
        assert summary.next_minimums == match.next_minimums
        assert summary.is_finished == match.is_finished
        assert summary.winner == match.winner
        assert summary.is_tie == match.is_tie
        assert summary.margin == match.margin
        assert head.variant_name == match.variant.name
        version = db.execute("select version from match_summaries where match_id = ?", [match_id]).fetchone()[0]
        assert version == stored.version
        assert bool(stored.info.finished) == match.is_finished
        figures = store.hand_figures(db, match_id)
        assert [(f.number, f.scores, f.minimums, f.totals) for f in figures] == [
            (r.number, r.scores, r.minimums, r.totals) for r in match.results
        ]
        details = [
            json.loads(row[0])["breakdown"]
            for row in db.execute("select detail from hand_figures where match_id = ? order by number", [match_id])
        ]
        assert details == json.loads(json.dumps([[side.to_dict() for side in r.sides] for r in match.results]))
        sides = [
            dict(zip(("total", "outcome", "hands", "points", "best_hand", "canastas", "red_threes"), row, strict=True))
            for row in db.execute(
                "select total, outcome, hands, points, best_hand, canastas, red_threes from side_figures "
                "where match_id = ? order by side",
                [match_id],
            )
        ]
        assert sides == expected_sides(match)
    # The backup is assembled from stored entries and figures: it must read as the core's documents.
    live = [store.get_match(db, match_id) for match_id in store.all_match_ids(db)]
    figured = [documents.figured_document(match) for match in store.figured_matches(db)]
    assert json.loads(json.dumps(figured)) == json.loads(json.dumps([match_document(s.match, s.info) for s in live]))


def hand_list(db, match_id: str) -> list[canasta.Hand]:
    return list(store.get_match(db, match_id).match.hands)


def refusal(variant, hands_after, starting=None) -> list:
    """What the whole-match check says about the match as a write would leave it."""
    try:
        canasta.Match.validated(variant, hands_after, starting)
    except canasta.InvalidError as error:
        return error.violations
    return []


def apply(db, ids: list[str], operation: tuple) -> None:
    """Do one write the way the pages do; a refused write must refuse with the core's words."""
    kind = operation[0]
    if kind == "new":
        ids.append(store.create_match(db, RULES[operation[1]], SIDES, title="Club night"))
        return
    match_id = ids[operation[-1] % len(ids)]
    stored = store.get_match(db, match_id)
    version, variant, before = stored.version, stored.match.variant, list(stored.match.hands)
    if kind in ("add", "edit") and not stored.deleted:
        hand = canasta.Hand.from_dict(operation[-2])
        after = [*before, hand]
        if kind == "edit":
            if not before:
                return
            number = operation[1] % len(before) + 1
            after = [*before[: number - 1], hand, *before[number:]]
        expected = refusal(variant, after)
        try:
            if kind == "add":
                store.add_hand(db, match_id, hand, version)
            else:
                store.replace_hand(db, match_id, number, hand, version)
        except canasta.InvalidError as error:
            assert error.violations == expected
            assert hand_list(db, match_id) == before  # nothing written
        else:
            assert expected == []
    elif kind == "undo" and before and not stored.deleted:
        store.undo_last_hand(db, match_id, version)
    elif kind == "put back" and store.undone_hand(db, match_id) and not stored.deleted:
        try:
            store.restore_last_hand(db, match_id, version)
        except canasta.InvalidError:
            assert hand_list(db, match_id) == before
    elif kind == "delete" and not stored.deleted:
        store.delete_match(db, match_id, version)
    elif kind == "restore" and stored.deleted:
        store.restore_match(db, match_id)
    elif kind == "import":
        document = match_document(stored.match, stored.info)
        document["id"] = store.new_token()
        plan = backups.plan_import(db, json.dumps(document).encode())
        assert backups.save_import(db, plan) == 1
        ids.append(document["id"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.integers(0, len(RULES) - 1), first=st.lists(hands, max_size=6), steps=st.lists(operations, max_size=25))
def test_stored_figures_equal_a_full_recomputation_after_any_writes(database, start, first, steps):
    database.execute("delete from hand_revisions")
    for table in ("hand_figures", "side_figures", "match_players", "match_summaries", "hands", "matches"):
        database.execute(f"delete from {table}")
    ids = [store.create_match(database, RULES[start], SIDES)]
    for operation in [*(("add", hand, 0) for hand in first), *steps]:
        apply(database, ids, operation)
        assert_figures_match_the_core(database)


def test_correction_that_finishes_the_match_early_is_refused_as_the_core_says(database):
    """Target 1500: hand 1 corrected to 1620 would end the game with hand 2 still after it."""
    match_id = store.create_match(database, canasta.rules_for("classic", {"target": 1500}), SIDES)
    small = canasta.Hand.from_dict({"entries": [{"melded_points": 200}, {"melded_points": 100}]})
    big = canasta.Hand.from_dict(
        {"entries": [{"melded_points": 520, "canastas": {"natural": 2}, "went_out": True}, {"melded_points": 0}]}
    )
    # 520 + 2 x 500 + 100 for going out = 1620 >= 1500: the game would end after hand 1.
    version = store.add_hand(database, match_id, small, 1)
    version = store.add_hand(database, match_id, small, version)
    with pytest.raises(canasta.InvalidError) as refused:
        store.replace_hand(database, match_id, 1, big, version)
    assert [v.code for v in refused.value.violations] == ["hand-after-game-over"]
    assert refused.value.violations[0].message == "The game ended after hand 1; hand 2 cannot be added."
    # Correcting the last hand instead finishes the match: 200 + 1620 = 1820 against 100 + 0.
    store.replace_hand(database, match_id, 2, big, version)
    head = store.match_head(database, match_id)
    assert head.summary.totals == (1820, 100) and head.summary.is_finished and head.summary.winner == 0
    # And correcting it back reopens it.
    store.replace_hand(database, match_id, 2, small, version + 1)
    head = store.match_head(database, match_id)
    assert head.summary.totals == (400, 200) and not head.summary.is_finished
    assert store.get_match(database, match_id).info.finished is None
    assert_figures_match_the_core(database)


def test_out_of_date_figures_are_rebuilt_before_a_write_builds_on_them(database):
    match_id = store.create_match(database, RULES[0], SIDES)
    hand = canasta.Hand.from_dict({"entries": [{"melded_points": 200}, {"melded_points": 100}]})
    version = store.add_hand(database, match_id, hand, 1)
    # As if a crash or an older scorepad had left the summary behind the facts.
    database.execute("update match_summaries set totals = '[0, 0]', hands = 0, version = 1")
    store.add_hand(database, match_id, hand, version)
    assert store.match_head(database, match_id).summary.totals == (400, 200)
    assert_figures_match_the_core(database)


def test_rescore_rebuilds_every_figure_from_the_facts(database):
    match_id = store.create_match(database, RULES[0], SIDES)
    hand = canasta.Hand.from_dict({"entries": [{"melded_points": 200}, {"melded_points": 100}]})
    store.add_hand(database, match_id, hand, 1)
    database.execute("update hand_figures set scores = '[5, 5]', totals = '[5, 5]'")
    database.execute("update match_summaries set totals = '[5, 5]'")
    database.execute("update side_figures set points = 5")
    assert store.rescore(database) == (1, [])
    assert_figures_match_the_core(database)


def test_imported_match_gets_its_figures(database):
    match = canasta.Match.validated(
        RULES[0], [canasta.Hand.from_dict({"entries": [{"melded_points": 300}, {"melded_points": 50}]})]
    )
    info = MatchInfo(id="b" * 32, sides=tuple(SIDES), created="2025-01-04T20:00:00+00:00")
    assert store.save_imported_match(database, match, info)
    assert store.match_head(database, "b" * 32).summary.totals == (300, 50)
    assert_figures_match_the_core(database)


def test_a_tie_is_stored_as_a_tie_for_both_sides(database):
    """Target 1500: We 520 + two naturals 1000 + going out 100 = 1620; They 620 + 1000 = 1620."""
    match_id = store.create_match(database, canasta.rules_for("classic", {"target": 1500}), SIDES)
    hand = canasta.Hand.from_dict(
        {
            "entries": [
                {"melded_points": 520, "canastas": {"natural": 2}, "went_out": True},
                {"melded_points": 620, "canastas": {"natural": 2}},
            ]
        }
    )
    store.add_hand(database, match_id, hand, 1)
    summary = store.match_head(database, match_id).summary
    assert summary.totals == (1620, 1620) and summary.is_finished and summary.is_tie and summary.winner is None
    outcomes = database.execute("select outcome from side_figures where match_id = ? order by side", [match_id])
    assert [row[0] for row in outcomes] == ["tie", "tie"]
    ann = next(r for r in store.player_records(database) if r["key"] == "ann")
    assert (ann["wins"], ann["losses"], ann["ties"]) == (0, 0, 1)
    assert_figures_match_the_core(database)
