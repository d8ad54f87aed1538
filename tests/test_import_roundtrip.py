"""Export then import reproduces every match exactly (a Hypothesis property), and re-imports add nothing."""

import json
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlite_utils import Database

from scorepad import backups, canasta, formats, store
from scorepad.canasta import InvalidError
from scorepad.documents import Side, match_document
from scorepad.migrations import migrations

VARIANTS = ["classic", "classic-2p", "classic-3p", "classic-6p-3x2", "american", "samba", "bolivia"]

names = (
    st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=20)
    .map(str.strip)
    .filter(bool)
)

points = st.integers(0, 60).map(lambda n: n * 5)


@st.composite
def entries(draw, variant, goes_out):
    """One side's report, shaped so that the rules core mostly accepts it."""
    canastas = draw(st.dictionaries(st.sampled_from(["natural", "mixed"]), st.integers(1, 2), max_size=2))
    if goes_out:
        canastas["natural"] = max(canastas.get("natural", 0), variant.canastas_to_go_out)
    entry = {"canastas": canastas, "red_threes": draw(st.integers(0, 1)), "went_out": goes_out}
    if not canastas and draw(st.booleans()):
        entry["melded_cards"] = draw(
            st.dictionaries(st.sampled_from(["joker", "2", "A", "K", "7", "K-8", "7-4"]), st.integers(1, 3))
        )
    else:
        entry["melded_points"] = 50 * sum(canastas.values()) + draw(points)
    if not goes_out:
        entry["hand_points"] = draw(st.integers(0, 20).map(lambda n: n * 5))
    entry["penalty_points"] = draw(st.sampled_from([0, 0, 50]))
    return {key: value for key, value in entry.items() if value}


@st.composite
def matches(draw):
    """A valid match: candidate hands are kept only where the rules core accepts them."""
    key = draw(st.sampled_from(VARIANTS))
    choices = [{}, {"target": 3000}, {"harder_first_meld": True}, {"max_hands": 6}]
    choices += [{"strict_wild_cards": True, "wild_canasta": "2000"}, {"strict_discard_pile": True}]  # issue #31
    choices += [{"no_pickup_on_initial_meld": True}]
    base = canasta.find_variant(key)
    options = draw(st.sampled_from([c for c in choices if set(c) <= set(base.option_ids)]))
    variant = canasta.rules_for(key, options)
    starting = draw(
        st.none()
        | st.lists(st.integers(-100, 400).map(lambda n: n * 5), min_size=variant.sides, max_size=variant.sides)
    )
    hands = []
    for _ in range(draw(st.integers(0, 10))):
        out = draw(st.none() | st.integers(0, variant.sides - 1))
        candidate = {"entries": [draw(entries(variant, side == out)) for side in range(variant.sides)]}
        if variant.temporary_partnerships and draw(st.booleans()):
            candidate["partnership"] = draw(st.sampled_from([[0, 1], [0, 2], [1, 2]]))
        try:
            canasta.score_match(key, [*hands, candidate], options, starting)
        except InvalidError:
            continue
        hands.append(candidate)
    sides = [Side(draw(names), tuple(draw(st.lists(names, max_size=3)))) for _ in range(variant.sides)]
    title = draw(st.just("") | names)
    return variant, sides, starting, title, hands


@contextmanager
def database():
    db = Database(memory=True)
    try:
        migrations.apply(db)
        yield db
    finally:
        db.close()


def play(db, variant, sides, starting, title, hands):
    """Store a match as the pages do: created, then hand by hand."""
    match_id = store.create_match(db, variant, sides, starting, title)
    version = 1
    for hand in hands:
        version = store.add_hand(db, match_id, canasta.Hand.from_dict(hand), version)
    return match_id


def everything(db):
    return [store.load_match(db, match_id) for match_id in store.all_match_ids(db)]


def import_text(db, text):
    """What the import page and command do: check it all, then write it all."""
    plan = backups.plan_import(db, text)
    return backups.save_import(db, plan), len(plan.already)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(matches(), min_size=1, max_size=4))
def test_export_then_import_reproduces_every_match(played):
    reproduces_every_match(played)


@pytest.mark.slow
@settings(max_examples=90, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(matches(), min_size=1, max_size=4))
def test_export_then_import_reproduces_every_match_over_many_more_files(played):
    reproduces_every_match(played)


def reproduces_every_match(played):
    with database() as source, database() as target:
        for match in played:
            play(source, *match)
        before = everything(source)
        text = json.dumps(formats.all_matches_document(before, exported="2025-01-01T00:00:00+00:00"))
        assert import_text(target, text) == (len(played), 0)
        after = everything(target)
        assert sorted(map(_facts, after)) == sorted(map(_facts, before))
        assert sorted(json.dumps(match_document(*pair)) for pair in after) == sorted(
            json.dumps(match_document(*pair)) for pair in before
        )
        # A second import of the same file is recognised match by match and adds nothing.
        assert import_text(target, text) == (0, len(played))
        assert len(everything(target)) == len(played)


@settings(max_examples=30, deadline=None)
@given(matches())
def test_one_match_file_round_trips(played):
    with database() as source, database() as target:
        match_id = play(source, *played)
        original = store.load_match(source, match_id)
        assert import_text(target, json.dumps(match_document(*original))) == (1, 0)
        assert store.load_match(target, match_id) == original


def _facts(pair):
    match, info = pair
    return repr((match.variant, match.hands, match.starting_totals, info))
