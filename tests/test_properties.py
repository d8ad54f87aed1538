"""Properties of scoring that hold for every hand, checked with hypothesis.

Scores are compared with an independent oracle: docs/rules.md "Scoring a hand"'s formulas written out
again here, so a property fails when the core and the rules part ways, not only when the core
disagrees with itself.
"""

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorepad.canasta import (
    OPTIONS,
    VARIANTS,
    Entry,
    Hand,
    InvalidError,
    check_hand,
    score_hand,
    score_match,
)
from scorepad.canasta.entries import ENTRY_FIELDS

FAST = settings(max_examples=60, deadline=None)
SCORED = ("classic", "classic-2p", "classic-5p", "classic-6p-3x2", "classic-6p-2x3", "american", "samba", "bolivia")
TWO_SIDED = tuple(key for key in SCORED if VARIANTS[key].sides == 2)

# docs/rules.md "Presets", the initial-meld minimum written out again: (from this total, the minimum) past 3000.
FURTHER_STEP = {"classic-6p-2x3": (7000, 150), "samba": (7000, 160), "bolivia": (7000, 150), "chile": (7000, 150)}


def minimum_oracle(key, total):
    """The minimum a side with ``total`` needs to open, read off docs/rules.md's table."""
    if key == "american":
        return 125 if total < 3000 else 155 if total < 5000 else 180
    if key in FURTHER_STEP and total >= FURTHER_STEP[key][0]:
        return FURTHER_STEP[key][1]
    return 15 if total < 0 else 50 if total < 1500 else 90 if total < 3000 else 120


# docs/rules.md "Presets" tables, written out again for the oracle.
BONUS = {
    "classic": {"natural": 500, "mixed": 300},
    "american": {"natural": 500, "mixed": 300},
    "samba": {"natural": 500, "mixed": 300, "sequence": 1500},
    "bolivia": {"natural": 500, "mixed": 300, "sequence": 1500, "wild": 2500},
}
# docs/rules.md "Impossible hands": the least points a canasta holds.
LEAST = {"natural": 35, "mixed": 50, "sequence": 50, "wild": 140}


def family(key):
    return key if key in BONUS else "classic"


def red_threes(key, count):
    """docs/rules.md "Presets" red-three values, before their sign."""
    if key.startswith("classic-6p"):
        return {4: 400, 5: 1000, 6: 1200}.get(count, 100 * count)
    if key == "american":
        return {0: 0, 1: 100, 2: 300, 3: 500, 4: 1000}[count]
    if key in ("samba", "bolivia"):
        return 1000 if count == 6 else 100 * count
    return 800 if count == 4 else 100 * count


def oracle(key, entry):
    """One side's score by docs/rules.md "Scoring a hand", for the presets with their default options."""
    canastas = sum(entry["canastas"].values())
    bonuses = sum(BONUS[family(key)][kind] * count for kind, count in entry["canastas"].items())
    going_out = {"classic": 100, "american": 100}.get(family(key), 200) if entry["went_out"] else 0
    going_out += 100 if entry["concealed"] else 0
    threes = red_threes(key, entry["red_threes"])
    black_in_hand = 95 * entry["black_threes_in_hand"] if key == "bolivia" else 0
    minus = entry["hand_points"] + entry["penalty_points"] + black_in_hand
    if key == "american":
        threes += red_threes(key, entry["black_threes"])
        if canastas == 0:
            return -threes - entry["melded_points"] - minus
        return bonuses + going_out + (threes if canastas >= 2 else 0) + entry["melded_points"] - minus
    if key in ("samba", "bolivia"):
        earned = canastas >= 2
    else:
        earned = entry["melded_points"] > 0 or canastas > 0
    return bonuses + going_out + (threes if earned else -threes) + entry["melded_points"] - minus


@st.composite
def valid_hands(draw, key):
    """A hand that the rules allow under preset ``key``, as the API's dict."""
    variant = VARIANTS[key]
    out = draw(st.sampled_from([None, *range(variant.sides)]))
    reds_left = variant.deck.red_threes
    blacks_left = variant.deck.black_threes
    entries = []
    for side in range(variant.sides):
        canastas = {"natural": draw(st.integers(0, 2)), "mixed": draw(st.integers(0, 1))}
        if family(key) in ("samba", "bolivia") and draw(st.booleans()):
            canastas["sequence"] = 1
        if side == out:
            canastas["natural"] = max(canastas["natural"], 1)
            canastas["mixed"] = max(canastas["mixed"], variant.canastas_to_go_out - canastas["natural"])
            if variant.going_out_needs_kind:
                canastas[variant.going_out_needs_kind] = 1
        canastas = {kind: count for kind, count in canastas.items() if count}
        melded = sum(LEAST[kind] * count for kind, count in canastas.items()) + 5 * draw(st.integers(0, 30))
        alone = variant.players_per_side[side] == 1
        hand_points = 0 if side == out and alone else 5 * draw(st.integers(0, 25))
        reds = draw(st.integers(0, reds_left))
        reds_left -= reds
        black_in_hand = draw(st.integers(0, min(blacks_left, hand_points // 5, 2)))
        blacks_left -= black_in_hand
        black = 0
        if key == "american":
            black = draw(st.integers(0, blacks_left))
            blacks_left -= black
        entries.append(
            {
                "melded_points": melded,
                "hand_points": hand_points,
                "canastas": canastas,
                "red_threes": reds,
                "black_threes": black,
                "black_threes_in_hand": black_in_hand,
                "went_out": side == out,
                "concealed": side == out and variant.concealed is not None and draw(st.booleans()),
                "penalty_points": 5 * draw(st.integers(0, 4)),
            }
        )
    hand = {"entries": entries}
    assume(not check_hand(Hand.from_dict(hand), variant))
    return hand


@st.composite
def preset_and_hands(draw, keys=SCORED, most=4):
    key = draw(st.sampled_from(keys))
    return key, draw(st.lists(valid_hands(key), max_size=most))


@FAST
@given(preset_and_hands(most=1).filter(lambda drawn: drawn[1]))
def test_scores_follow_the_rules_formula(drawn):
    # docs/rules.md "Scoring a hand" for every side of any possible hand, and the breakdown adds up to it.
    key, [hand] = drawn
    sides = score_hand(Hand.from_dict(hand), VARIANTS[key])
    assert [oracle(key, entry) for entry in hand["entries"]] == [side.score for side in sides]
    for side in sides:
        assert sum(part.points for part in side.parts) == side.to_dict()["score"]
        assert all(part.label and part.id for part in side.parts)


@FAST
@given(preset_and_hands(), st.data())
def test_totals_are_starting_totals_plus_hand_scores(drawn, data):
    key, hands = drawn
    sides = VARIANTS[key].sides
    start = data.draw(st.lists(st.integers(-400, 1000).map(lambda n: 5 * n), min_size=sides, max_size=sides))
    match = score_match(key, hands, {"target": 100_000}, start)
    expected = list(start)
    for hand, result in zip(hands, match.results, strict=True):
        expected = [total + oracle(key, entry) for total, entry in zip(expected, hand["entries"], strict=True)]
        assert list(result.totals) == expected
    assert list(match.totals) == expected
    assert match.next_minimums == tuple(minimum_oracle(key, total) for total in expected)
    assert not match.is_finished


@FAST
@given(preset_and_hands(keys=TWO_SIDED, most=3))
def test_swapping_sides_swaps_scores(drawn):
    key, hands = drawn
    swapped = [{"entries": hand["entries"][::-1]} for hand in hands]
    options = {"target": 100_000}
    forward = score_match(key, hands, options)
    backward = score_match(key, swapped, options)
    assert [r.scores[::-1] for r in forward.results] == [r.scores for r in backward.results]
    assert forward.totals[::-1] == backward.totals


@FAST
@given(valid_hands("classic-6p-3x2"))
def test_rotating_three_sides_rotates_scores(hand):
    rotated = {"entries": hand["entries"][1:] + hand["entries"][:1]}
    forward = score_match("classic-6p-3x2", [hand]).results[0].scores
    assert score_match("classic-6p-3x2", [rotated]).results[0].scores == forward[1:] + forward[:1]


# --- anything at all in, only InvalidError out ------------------------------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
PLAUSIBLE = st.integers(-2, 12) | st.integers(-2, 300).map(lambda n: 5 * n) | st.booleans()
KIND_COUNTS = st.dictionaries(
    st.sampled_from(["natural", "mixed", "wild", "sevens", "aces", "sequence", "jokers", "twos", "joker", "K", "x"]),
    st.integers(-1, 12),
    max_size=3,
)
FIELD_VALUE = PLAUSIBLE | KIND_COUNTS | JSON | st.sampled_from(["pairs", "straight", "flush", ["sevens"], ["wild"]])
ENTRIES = st.dictionaries(st.sampled_from([*ENTRY_FIELDS, "bogus"]), FIELD_VALUE, max_size=6)
HANDS = st.fixed_dictionaries(
    {"entries": st.lists(ENTRIES, min_size=0, max_size=4) | JSON},
    optional={"partnership": st.lists(st.integers(-1, 3), max_size=3) | JSON},
)
OPTION_VALUES = st.dictionaries(
    st.sampled_from([*OPTIONS, "bogus"]), PLAUSIBLE | st.sampled_from(["none", "1000", "palace", None]) | JSON
)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([*VARIANTS, "nope"]),
    st.lists(HANDS, max_size=3) | JSON,
    OPTION_VALUES | JSON,
    st.none() | st.lists(st.integers(-100, 100).map(lambda n: 50 * n), max_size=3) | JSON,
)
def test_any_input_scores_or_raises_invalid_error(variant, hands, options, starting_totals):
    try:
        match = score_match(variant, hands, options, starting_totals)
    except InvalidError as error:
        assert error.violations
        assert all(v.code and v.message for v in error.violations)
        return
    # Whatever was accepted can be read back whole.
    assert len(match.totals) == match.variant.sides
    for result in match.results:
        assert sum(part.points for side in result.sides for part in side.parts) == sum(result.scores)
    match.winner, match.is_tie, match.settlement, match.next_minimums  # noqa: B018


@settings(max_examples=200, deadline=None)
@given(ENTRIES)
def test_entry_round_trip(data):
    try:
        entry = Entry.from_dict(data)
    except InvalidError:
        return
    assert Entry.from_dict(entry.to_dict()) == entry
    assert Entry.from_dict(entry.to_dict()).to_dict() == entry.to_dict()


@FAST
@given(preset_and_hands(most=1).filter(lambda drawn: drawn[1]))
def test_hand_round_trip_scores_the_same(drawn):
    key, [data] = drawn
    hand = Hand.from_dict(data)
    again = Hand.from_dict(hand.to_dict())
    assert again == hand
    assert score_hand(again, VARIANTS[key]) == score_hand(hand, VARIANTS[key])
