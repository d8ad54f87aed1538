"""Entries: reading an API ENTRY, and refusing impossible hands (docs/rules.md "Impossible hands").

Every refused hand names the code and the field (docs/api.md: "`field` points at the offending
value"); the expected sets are worked out by hand from docs/rules.md, so an extra or a missing
violation fails the test.
"""

import pytest

from scorepad.canasta import VARIANTS, Entry, Hand, InvalidError, check_hand, hand_warnings, rules_for, score_match

KINGS = {"melded_points": 70, "canastas": {"natural": 1}}  # pagat: a natural canasta of seven kings
TWO_CANASTAS = {"melded_points": 120, "canastas": {"natural": 1, "mixed": 1}}  # 70 kings + 50 or more mixed


def refusals(variant, entries, options=None, partnership=None):
    """Every (code, field) score_match answers for a one-hand match."""
    hand = {"entries": entries}
    if partnership is not None:
        hand["partnership"] = partnership
    with pytest.raises(InvalidError) as caught:
        score_match(variant, [hand], options)
    return {(v.code, v.field) for v in caught.value.violations}


def at(field):
    return f"hands[0].{field}"


REFUSED = [
    # --- docs/rules.md "Impossible hands": more red threes, jokers, canastas or card points than the decks hold -----
    pytest.param(
        "classic",
        None,
        [{"red_threes": 5, "melded_points": 50}, {"melded_points": 50}],
        {("too-many-red-threes", at("entries[0].red_threes"))},
        id="five-red-threes-in-two-decks",
    ),
    pytest.param(
        "classic",
        None,
        # Spread over both sides: reported on the entry that passes the limit (docs/api.md's example).
        [{"red_threes": 3, "melded_points": 50}, {"red_threes": 2, "melded_points": 50}],
        {("too-many-red-threes", at("entries[1].red_threes"))},
        id="red-threes-across-sides",
    ),
    pytest.param(
        "classic-6p-3x2",
        None,
        [{"red_threes": 3, "melded_points": 50}, {"red_threes": 3, "melded_points": 50}, {"red_threes": 1}],
        {("too-many-red-threes", at("entries[2].red_threes"))},  # docs/rules.md "Cards": three decks hold 6 red threes
        id="seven-red-threes-in-three-decks",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_cards": {"joker": 3, "K": 4}}, {"hand_cards": {"joker": 2}}],
        {("too-many-cards", at("entries[1].hand_cards.joker"))},  # docs/rules.md "Cards": two decks hold 4 jokers
        id="five-jokers-counted",
    ),
    pytest.param(
        "classic",
        None,
        # docs/api.md "Cards": a group holds its ranks' cards together; docs/rules.md "Cards": 2 decks
        # hold 8 of each rank, so 6 ranks (K Q J 10 9 8) x 8 = 48 cards K-8, and kings counted one by
        # one come out of the same 48: 38 + 8 + 3 = 49.
        [{"melded_cards": {"K-8": 38}}, {"hand_cards": {"K": 8, "K-8": 3}}],
        {("too-many-cards", at("entries[1].hand_cards.K-8"))},
        id="forty-nine-cards-king-to-eight",
    ),
    pytest.param(
        "classic",
        None,
        # 2 decks hold 4 ranks x 8 = 32 cards 7-4; 20 + 13 = 33.
        [{"melded_cards": {"7-4": 20}}, {"hand_cards": {"7-4": 13}}],
        {("too-many-cards", at("entries[1].hand_cards.7-4"))},
        id="thirty-three-cards-seven-to-four",
    ),
    pytest.param(
        "classic-6p-3x2",
        None,
        # docs/rules.md "Cards": three decks hold 12 of each rank, so 6 x 12 = 72 cards K-8; 40 + 33 = 73.
        [{"melded_cards": {"K-8": 40}}, {"melded_cards": {"K-8": 33}}, {"hand_points": 5}],
        {("too-many-cards", at("entries[1].melded_cards.K-8"))},
        id="seventy-three-cards-king-to-eight-in-three-decks",
    ),
    pytest.param(
        "american",
        None,
        # docs/rules.md "Presets": a jokers canasta holds all four jokers, so two of them need eight.
        [{"canastas": {"jokers": 1}, "melded_points": 260}, {"canastas": {"jokers": 1}, "melded_points": 260}],
        {("too-many-canastas", at("entries[1].canastas"))},
        id="two-jokers-canastas",
    ),
    pytest.param(
        "classic",
        None,
        # 14 natural canastas need 98 natural cards; two decks hold 11 ranks x 8 = 88.
        [{"canastas": {"natural": 7}, "melded_points": 245}, {"canastas": {"natural": 7}, "melded_points": 245}],
        {("too-many-canastas", at("entries[1].canastas"))},
        id="more-natural-canastas-than-cards",
    ),
    pytest.param(
        "american",
        None,
        # Two canastas of sevens need 14 sevens; two decks hold 8.
        [{"canastas": {"sevens": 1}, "melded_points": 35}, {"canastas": {"sevens": 1}, "melded_points": 35}],
        {("too-many-canastas", at("entries[1].canastas"))},
        id="two-sevens-canastas",
    ),
    pytest.param(
        "classic",
        None,
        # One meld per rank (pagat), and there are 11 natural ranks.
        [{"canastas": {"natural": 12}, "melded_points": 420}, {}],
        {("too-many-canastas", at("entries[0].canastas"))},
        id="twelve-canastas-on-one-side",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 1000}, {"hand_points": 185}],
        {("too-many-points", at("entries[1].hand_points"))},  # docs/rules.md "Cards": 2 decks hold 1180; 1185 entered
        id="1185-points-in-two-decks",
    ),
    pytest.param(
        "classic",
        {"decks": 3},
        [{"melded_points": 1500}, {"hand_points": 275}],
        {("too-many-points", at("entries[1].hand_points"))},  # docs/rules.md "Cards": 3 decks hold 1770; 1775
        id="1775-points-in-three-decks",
    ),
    pytest.param(
        "american",
        None,
        # American threes left in hand count 5 (docs/rules.md, "Choices where the rulebooks are silent"),
        # so 1180 + 4 x 5 = 1200 is the most.
        [{"melded_points": 1000}, {"hand_points": 205}],
        {("too-many-points", at("entries[1].hand_points"))},
        id="1205-points-american",
    ),
    pytest.param(
        "classic",
        None,
        [{"hand_points": 15, "black_threes_in_hand": 3}, {"hand_points": 10, "black_threes_in_hand": 2}],
        {("too-many-black-threes", at("entries[1].black_threes_in_hand"))},  # two decks hold 4 black threes
        id="five-black-threes",
    ),
    # --- docs/rules.md "Impossible hands": two sides going out ------------------------------------------------
    pytest.param(
        "classic",
        None,
        [{**KINGS, "went_out": True}, {**KINGS, "went_out": True}],
        {("two-sides-went-out", at("entries[1].went_out"))},
        id="two-sides-went-out",
    ),
    pytest.param(
        "american",
        None,
        [{**TWO_CANASTAS, "went_out": True}, {"special_hand": "garbage"}],
        {("two-sides-went-out", at("entries[1].special_hand"))},  # a special hand is itself going out
        id="went-out-and-special-hand",
    ),
    # --- docs/rules.md "Impossible hands": concealed without went_out, or with no concealed bonus ---------------------
    pytest.param(
        "classic",
        None,
        [{"concealed": True, "melded_points": 50}, {}],
        {("concealed-without-going-out", at("entries[0].concealed"))},
        id="concealed-without-going-out",
    ),
    pytest.param(
        "american",
        None,
        [{**TWO_CANASTAS, "went_out": True, "concealed": True}, {}],
        {("no-concealed-bonus", at("entries[0].concealed"))},  # docs/rules.md "Presets": american go out 100 / none
        id="american-has-no-concealed-bonus",
    ),
    pytest.param(
        "samba",
        None,
        [{**TWO_CANASTAS, "went_out": True, "concealed": True}, {}],
        {("no-concealed-bonus", at("entries[0].concealed"))},  # docs/rules.md "Presets": samba 200 / none
        id="samba-has-no-concealed-bonus",
    ),
    pytest.param(
        "classic",
        {"sequences": True},
        [{**KINGS, "went_out": True, "concealed": True}, {}],
        {("no-concealed-bonus", at("entries[0].concealed"))},  # docs/rules.md "House rules", sequences: out always 200
        id="sequences-have-no-concealed-bonus",
    ),
    # --- docs/rules.md "Impossible hands": going out short of the required canastas -----------------------------------
    pytest.param(
        "classic",
        None,
        [{"melded_points": 100, "went_out": True}, {}],
        {("went-out-without-canastas", at("entries[0].went_out"))},  # classic needs 1
        id="classic-out-without-a-canasta",
    ),
    pytest.param(
        "classic-2p",
        None,
        [{**KINGS, "went_out": True}, {}],
        {("went-out-without-canastas", at("entries[0].went_out"))},  # docs/rules.md "Presets": classic-2p needs 2
        id="classic-2p-out-with-one",
    ),
    pytest.param(
        "classic",
        {"canastas_to_go_out": 2},
        [{**KINGS, "went_out": True}, {}],
        {("went-out-without-canastas", at("entries[0].went_out"))},
        id="option-two-canastas",
    ),
    pytest.param(
        "classic-6p-3x2",
        None,
        [{**KINGS, "went_out": True}, {}, {}],
        {("went-out-without-canastas", at("entries[0].went_out"))},  # docs/rules.md "Presets": six players need 2
        id="classic-6p-out-with-one",
    ),
    pytest.param(
        "american",
        None,
        [{**KINGS, "went_out": True}, {}],
        {("went-out-without-canastas", at("entries[0].went_out"))},
        id="american-out-with-one",
    ),
    pytest.param(
        "samba",
        None,
        [{**KINGS, "went_out": True}, {}],
        {("went-out-without-canastas", at("entries[0].went_out"))},
        id="samba-out-with-one",
    ),
    pytest.param(
        "bolivia",
        None,
        [{**TWO_CANASTAS, "went_out": True}, {}],
        {("went-out-without-kind", at("entries[0].went_out"))},  # docs/rules.md "Presets": one an escalera
        id="bolivia-out-without-escalera",
    ),
    pytest.param(
        "classic",
        {"tough_end": True},
        [{"melded_points": 50, "canastas": {"mixed": 1}, "went_out": True}, {}],
        {("tough-end", at("entries[0].went_out"))},  # docs/rules.md "House rules": two canastas or one natural canasta
        id="tough-end-one-mixed",
    ),
    pytest.param(
        "classic",
        {"tough_end": True, "sequences": True},
        [{**KINGS, "went_out": True}, {}],
        {("tough-end", at("entries[0].went_out"))},  # Palace: with Sequences, always two canastas
        id="tough-end-with-sequences-one-natural",
    ),
    # --- docs/rules.md "Impossible hands": a canasta kind or special hand the variant does not have -----------
    pytest.param(
        "classic",
        None,
        [{"canastas": {"wild": 1}, "melded_points": 140}, {}],
        {("unknown-canasta-kind", at("entries[0].canastas.wild"))},  # wild canastas need the option
        id="classic-wild-canasta",
    ),
    pytest.param(
        "classic",
        {"wild_canasta": "1000"},
        [{"canastas": {"wild_big": 1}, "melded_points": 260}, {}],
        {("unknown-canasta-kind", at("entries[0].canastas.wild_big"))},  # wild_big is palace's
        id="wild-big-without-palace",
    ),
    pytest.param(
        "classic",
        None,
        [{"canastas": {"sequence": 1}, "melded_points": 50}, {}],
        {("unknown-canasta-kind", at("entries[0].canastas.sequence"))},
        id="classic-sequence",
    ),
    pytest.param(
        "samba",
        None,
        [{"canastas": {"wild": 1}, "melded_points": 140}, {}],
        {("unknown-canasta-kind", at("entries[0].canastas.wild"))},  # samba has no bolivias
        id="samba-wild",
    ),
    pytest.param(
        "american",
        None,
        [{"canastas": {"sequence": 1}, "melded_points": 50}, {}],
        {("unknown-canasta-kind", at("entries[0].canastas.sequence"))},
        id="american-sequence",
    ),
    pytest.param(
        "classic",
        None,
        [{"special_hand": "pairs"}, {}],
        {("unknown-special-hand", at("entries[0].special_hand"))},  # special hands are american only
        id="classic-special-hand",
    ),
    pytest.param(
        "american",
        None,
        [{"special_hand": "flush"}, {}],
        {("unknown-special-hand", at("entries[0].special_hand"))},
        id="american-unknown-special-hand",
    ),
    # --- docs/rules.md "Impossible hands": negative or non-multiple-of-5 points ---------------------------------------
    pytest.param(
        "classic", None, [{"melded_points": -5}, {}], {("negative", at("entries[0].melded_points"))}, id="negative"
    ),
    pytest.param(
        "classic",
        None,
        [{}, {"hand_points": 52}],
        {("not-multiple-of-5", at("entries[1].hand_points"))},
        id="hand-points-52",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 50, "penalty_points": 3}, {}],
        {("not-multiple-of-5", at("entries[0].penalty_points"))},
        id="penalty-3",
    ),
    pytest.param(
        "classic", None, [{"red_threes": -1}, {}], {("negative", at("entries[0].red_threes"))}, id="negative-threes"
    ),
    pytest.param(
        "classic",
        None,
        [{"canastas": {"natural": -1}}, {}],
        {("negative", at("entries[0].canastas.natural"))},
        id="negative-canastas",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 50.5}, {}],
        {("not-a-number", at("entries[0].melded_points"))},
        id="fractional-points",
    ),
    # --- docs/rules.md "Impossible hands": melded_points below what the canastas need -------------------------
    pytest.param(
        "classic",
        None,
        [{"melded_points": 30, "canastas": {"natural": 1}}, {}],
        {("melded-points-too-low", at("entries[0].melded_points"))},  # a natural canasta holds 35+
        id="natural-canasta-30",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 45, "canastas": {"mixed": 1}}, {}],
        {("melded-points-too-low", at("entries[0].melded_points"))},  # a mixed canasta holds 50+
        id="mixed-canasta-45",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 80, "canastas": {"natural": 1, "mixed": 1}}, {}],
        {("melded-points-too-low", at("entries[0].melded_points"))},  # 35 + 50 = 85
        id="both-canastas-80",
    ),
    pytest.param(
        "classic",
        None,
        # Going out with seven fours and three black threes: 35 + 15 = 50 at least.
        [{"melded_points": 45, "canastas": {"natural": 1}, "black_threes": 3, "went_out": True}, {}],
        {("melded-points-too-low", at("entries[0].melded_points"))},
        id="black-threes-need-their-5s",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 135, "canastas": {"aces": 1}}, {}],
        {("melded-points-too-low", at("entries[0].melded_points"))},  # seven aces are 140
        id="aces-canasta-135",
    ),
    pytest.param(
        "bolivia",
        None,
        [{"melded_points": 135, "canastas": {"wild": 1}}, {}],
        {("melded-points-too-low", at("entries[0].melded_points"))},  # seven twos are 140
        id="bolivia-135",
    ),
    pytest.param(
        "classic",
        {"wild_canasta": "palace"},
        [{"melded_points": 255, "canastas": {"wild_big": 1}}, {}],
        {("melded-points-too-low", at("entries[0].melded_points"))},  # 4 jokers + 3 twos = 260
        id="wild-big-255",
    ),
    pytest.param(
        "samba",
        None,
        [{"melded_points": 45, "canastas": {"sequence": 1}}, {}],
        {("melded-points-too-low", at("entries[0].melded_points"))},  # 4-5-6-7-8-9-10 = 50
        id="samba-sequence-45",
    ),
    # --- black threes (docs/rules.md "Cards": melded only going out, pagat: three or four of them) ----------
    pytest.param(
        "classic",
        None,
        [{"melded_points": 80, "canastas": {"natural": 1}, "black_threes": 2, "went_out": True}, {}],
        {("black-three-meld-size", at("entries[0].black_threes"))},
        id="two-black-threes-melded",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 85, "canastas": {"natural": 1}, "black_threes": 3}, {}],
        {("black-threes-without-going-out", at("entries[0].black_threes"))},
        id="black-threes-without-going-out",
    ),
    pytest.param(
        "bolivia",
        None,
        [{"melded_points": 50}, {"hand_points": 5, "black_threes_in_hand": 2}],
        {("black-threes-exceed-hand", at("entries[1].black_threes_in_hand"))},  # two are 10 in hand_points
        id="black-threes-in-hand-exceed-hand-points",
    ),
    pytest.param(
        "bolivia",
        None,
        [{"melded_points": 50}, {"hand_cards": {"K": 1}, "black_threes_in_hand": 1}],
        {("black-threes-not-counted", at("entries[1].black_threes_in_hand"))},
        id="black-three-missing-from-counted-cards",
    ),
    # --- american penalties entered where they cannot be ---------------------------------------
    pytest.param(
        "american",
        None,
        [{"melded_points": 130, "hand_points": 45, "held_sets": {"sevens": 3}}, {}],
        {("too-many-held-sets", at("entries[0].held_sets.sevens"))},  # a partnership has two players
        id="three-players-holding-sevens",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 130, "hand_points": 40, "held_sets": {"aces": 1}}, {}],
        {("held-sets-exceed-hand", at("entries[0].held_sets"))},  # three aces are 60
        id="held-aces-worth-more-than-the-hand",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 130, "hand_points": 60, "held_sets": {"aces": 1}}, {}],
        {("unknown-held-set", at("entries[0].held_sets.aces"))},
        id="classic-held-sets",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 130, "incomplete": ["wild"]}, {}],
        {("unknown-incomplete-kind", at("entries[0].incomplete[0]"))},  # only palace penalises it
        id="classic-incomplete-wild",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 50, "canastas": {"sevens": 1}, "incomplete": ["sevens"]}, {}],
        {("one-meld-per-rank", at("entries[0].canastas.sevens"))},  # pagat: one meld of a rank per team
        id="sevens-canasta-and-unfinished-sevens",
    ),
    pytest.param(
        "american",
        None,
        [{"special_hand": "straight", "melded_points": 50}, {}],
        {("special-hand-with-melds", at("entries[0].special_hand"))},  # pagat: "the first and only meld"
        id="special-hand-with-melds",
    ),
    pytest.param(
        "classic-2p",
        None,
        [{**TWO_CANASTAS, "went_out": True, "hand_points": 10}, {}],
        {("went-out-with-cards", at("entries[0].hand_points"))},  # a lone player who went out holds nothing
        id="lone-player-out-with-cards",
    ),
    # --- shape of a hand -------------------------------------------------------------------------
    pytest.param(
        "classic",
        None,
        [{}, {}, {}],
        {("wrong-number-of-entries", at("entries"))},
        id="three-entries-in-classic",
    ),
    pytest.param(
        "classic-3p",
        None,
        [{}, {}],
        {("wrong-number-of-entries", at("entries"))},
        id="two-entries-in-classic-3p",
    ),
    pytest.param(
        "classic",
        None,
        [{"foo": 1}, {}],
        {("unknown-field", at("entries[0].foo"))},
        id="unknown-entry-field",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 100, "melded_cards": {"K": 10}}, {}],
        {("points-and-cards", at("entries[0].melded_cards"))},  # API: both forms for one pile is a 422
        id="points-and-cards",
    ),
    pytest.param(
        "classic",
        None,
        [{"hand_cards": {"red3": 1}}, {}],
        {("unknown-card-class", at("entries[0].hand_cards.red3"))},
        id="red-three-among-counted-cards",
    ),
    pytest.param(
        "classic", None, [{"went_out": "yes"}, {}], {("not-a-flag", at("entries[0].went_out"))}, id="flag-as-text"
    ),
    pytest.param(
        "classic", None, [{"canastas": ["natural"]}, {}], {("not-object", at("entries[0].canastas"))}, id="canastas"
    ),
    pytest.param(
        "american",
        None,
        [{"incomplete": "sevens"}, {}],
        {("not-list", at("entries[0].incomplete"))},
        id="incomplete-not-a-list",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 30, "incomplete": ["sevens", "sevens"]}, {}],
        {("repeated-incomplete", at("entries[0].incomplete"))},
        id="incomplete-repeated",
    ),
    pytest.param(
        "american", None, [{"special_hand": 5}, {}], {("not-text", at("entries[0].special_hand"))}, id="special-5"
    ),
    pytest.param(
        "classic", None, ["not an entry", {}], {("entry-not-object", at("entries[0]"))}, id="entry-not-object"
    ),
]


@pytest.mark.parametrize(("variant", "options", "entries", "expected"), REFUSED)
def test_impossible_hands_are_refused(variant, options, entries, expected):
    assert refusals(variant, entries, options) == expected


ACCEPTED = [
    # The same rules at their boundaries: each of these is possible and must be scored.
    pytest.param("classic", None, [{"red_threes": 4, "melded_points": 50}, {"melded_points": 50}], id="four-red"),
    pytest.param("classic-6p-3x2", None, [{"red_threes": 6, "melded_points": 50}, {}, {"hand_points": 5}], id="six"),
    pytest.param("classic", None, [{"melded_points": 1000}, {"hand_points": 180}], id="1180-points"),
    # Issue 20's hand: 5 cards K-8 and 6 cards 7-4 melded, 3 and 3 in They's hand: 8 and 9 of
    # 40 and 32, not 9 "sevens" of 8.
    pytest.param(
        "classic",
        None,
        [{"melded_cards": {"joker": 1, "2": 2, "K-8": 5, "7-4": 6}}, {"hand_cards": {"A": 1, "K-8": 3, "7-4": 3}}],
        id="groups-as-groups",
    ),
    # Every card of both groups in 2 decks: 40 K-8 (kings among them) and 32 7-4.
    pytest.param(
        "classic",
        None,
        [{"melded_cards": {"K-8": 30, "7-4": 20}}, {"hand_cards": {"K": 8, "K-8": 2, "7": 8, "7-4": 4}}],
        id="forty-and-thirty-two",
    ),
    pytest.param("classic-6p-3x2", None, [{"melded_cards": {"K-8": 40}}, {"melded_cards": {"K-8": 32}}, {}], id="72"),
    pytest.param("classic", {"decks": 3}, [{"melded_points": 1500}, {"hand_points": 270}], id="1770-points"),
    pytest.param("american", None, [{"melded_points": 1000}, {"hand_points": 200}], id="american-1200"),
    pytest.param("classic", None, [{"melded_points": 35, "canastas": {"natural": 1}}, {"hand_points": 5}], id="35"),
    pytest.param("classic", None, [{"melded_points": 50, "canastas": {"mixed": 1}}, {"hand_points": 5}], id="50"),
    pytest.param("classic", None, [{"melded_points": 85, **{"canastas": {"natural": 1, "mixed": 1}}}, {}], id="85"),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 50, "canastas": {"natural": 1}, "black_threes": 3, "went_out": True}, {}],
        id="black-threes-going-out",
    ),
    pytest.param(
        "classic",
        None,
        [{"melded_points": 55, "canastas": {"natural": 1}, "black_threes": 4, "went_out": True}, {}],
        id="four-black-threes-going-out",
    ),
    pytest.param("classic", None, [{**KINGS, "went_out": True}, {"hand_points": 45}], id="classic-out-with-one"),
    pytest.param(
        "classic", None, [{**KINGS, "went_out": True, "hand_points": 20}, {}], id="partner-holds-cards-after-going-out"
    ),
    pytest.param("classic-2p", None, [{**TWO_CANASTAS, "went_out": True}, {}], id="classic-2p-out-with-two"),
    pytest.param(
        "classic-2p", {"canastas_to_go_out": 1}, [{**KINGS, "went_out": True}, {}], id="classic-2p-option-one"
    ),
    pytest.param("american", None, [{"special_hand": "pairs"}, {"melded_points": 60}], id="special-hand-no-canastas"),
    pytest.param(
        "bolivia",
        None,
        [{"melded_points": 120, "canastas": {"sequence": 1, "mixed": 1}, "went_out": True}, {}],
        id="bolivia-out-with-escalera",
    ),
    pytest.param("classic", {"tough_end": True}, [{**KINGS, "went_out": True}, {}], id="tough-end-one-natural"),
    pytest.param(
        "classic",
        {"tough_end": True},
        [{"melded_points": 100, "canastas": {"mixed": 2}, "went_out": True}, {}],
        id="tough-end-two-mixed",
    ),
    pytest.param(
        "american",
        None,
        [{"melded_points": 130, "hand_points": 45, "held_sets": {"sevens": 2}}, {}],
        id="both-partners-hold-sevens",
    ),
    pytest.param(
        "american",
        None,
        # seven sevens (35) and at least three aces (60) melded
        [{"melded_points": 95, "canastas": {"sevens": 1}, "incomplete": ["aces"]}, {}],
        id="sevens-canasta-and-unfinished-aces",
    ),
]


@pytest.mark.parametrize(("variant", "options", "entries"), ACCEPTED)
def test_possible_hands_are_accepted(variant, options, entries):
    hand = Hand.from_dict({"entries": entries})
    assert check_hand(hand, rules_for(variant, options)) == []


def test_cross_side_limit_points_at_the_entry_that_passes_it():
    # docs/api.md's sample error: 5 red threes over two sides in a 2-deck game is reported on
    # hands[0].entries[1].red_threes, with the message docs/api.md shows.
    hand = Hand.from_dict({"entries": [{"red_threes": 2, "melded_points": 50}, {"red_threes": 3}]})
    (violation,) = check_hand(hand, rules_for("classic"))
    assert violation.field == "entries[1].red_threes"
    assert violation.message == "Only 4 red threes exist in a 2-deck game; 5 entered across both sides."


def test_every_problem_is_reported_at_once():
    # As python-chess's status() does: all problems of a hand together, each naming its field.
    entries = [
        {"red_threes": 5, "concealed": True, "canastas": {"wild": 1}, "melded_points": 140},
        {"melded_points": 30, "canastas": {"natural": 1}, "went_out": True},
    ]
    assert refusals("classic", entries) == {
        ("too-many-red-threes", at("entries[0].red_threes")),
        ("concealed-without-going-out", at("entries[0].concealed")),
        ("unknown-canasta-kind", at("entries[0].canastas.wild")),
        ("melded-points-too-low", at("entries[1].melded_points")),
    }


def test_every_badly_typed_value_is_reported_at_once():
    entries = [{"melded_points": 52, "hand_points": -5, "went_out": "yes"}, {"red_threes": "x"}]
    assert refusals("classic", entries) == {
        ("not-multiple-of-5", at("entries[0].melded_points")),
        ("negative", at("entries[0].hand_points")),
        ("not-a-flag", at("entries[0].went_out")),
        ("not-a-number", at("entries[1].red_threes")),
    }


def test_problems_in_several_hands_are_all_reported():
    bad = {"entries": [{"melded_points": 52}, {}]}
    with pytest.raises(InvalidError) as caught:
        score_match("classic", [bad, {"entries": [{"concealed": True}, {}]}, bad])
    assert [v.field for v in caught.value.violations] == [
        "hands[0].entries[0].melded_points",
        "hands[2].entries[0].melded_points",
    ]
    # The second hand reads fine and is checked once the others can be read.
    with pytest.raises(InvalidError) as caught:
        score_match("classic", [{"entries": [{"concealed": True}, {}]}])
    assert [v.field for v in caught.value.violations] == ["hands[0].entries[0].concealed"]


@pytest.mark.parametrize(
    ("variant", "partnership", "expected"),
    [
        ("classic", [0, 1], {("partnership-not-in-variant", "hands[0].partnership")}),  # fixed sides
        ("classic-3p", [0, 0], {("bad-partnership", "hands[0].partnership")}),
        ("classic-3p", [0, 3], {("bad-partnership", "hands[0].partnership")}),
        ("classic-3p", [0], {("bad-partnership", "hands[0].partnership")}),
        ("classic-3p", "0,1", {("bad-partnership", "hands[0].partnership")}),
    ],
)
def test_partnership_refused(variant, partnership, expected):
    entries = [{"melded_points": 50}] * VARIANTS[variant].sides
    assert refusals(variant, entries, partnership=partnership) == expected


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        ({"entries": []}, "hands[0].entries"),
        ({}, "hands[0].entries"),
        ({"entries": [{}, {}], "bonus": 1}, "hands[0].bonus"),
        ("hand", "hands[0]"),
    ],
)
def test_badly_shaped_hands(hand, field):
    with pytest.raises(InvalidError) as caught:
        score_match("classic", [hand])
    assert [v.field for v in caught.value.violations] == [field]


def test_pooled_partnership_is_checked_as_one_side():
    # docs/rules.md "Scoring a hand" three-player: the partners' canastas are pooled for going out, so the player who
    # went out may rely on a canasta the partner melded.
    entries = [{"melded_points": 50, "went_out": True}, {"hand_points": 40}, KINGS]
    assert check_hand(Hand.from_dict({"entries": entries, "partnership": [0, 2]}), VARIANTS["classic-3p"]) == []
    # ...but without the partnership that player went out without a canasta.
    assert refusals("classic-3p", entries) == {("went-out-without-canastas", at("entries[0].went_out"))}


@pytest.mark.parametrize(
    ("entries", "warned"),
    [
        ([{"melded_points": 50}, {}], ["entries[1]"]),  # docs/rules.md "Impossible hands": a warning
        ([{"melded_points": 50}, {"red_threes": 1}], ["entries[1]"]),  # red threes are not melds
        ([{"melded_points": 50}, {"hand_points": 5}], []),
        ([{**KINGS, "went_out": True}, {"melded_points": 50}], []),
    ],
)
def test_unlikely_hands_warn_without_refusing(entries, warned):
    hand = Hand.from_dict({"entries": entries})
    assert check_hand(hand, VARIANTS["classic"]) == []
    assert [w.field for w in hand_warnings(hand, VARIANTS["classic"])] == warned
    match = score_match("classic", [{"entries": entries}])
    assert [w.field for w in match.results[0].warnings] == warned


@pytest.mark.parametrize(
    ("data", "melded", "hand"),
    [
        ({"melded_cards": {"joker": 1, "A": 3, "K": 7}}, 180, 0),  # API example: the server values counts
        ({"hand_cards": {"black3": 2, "4": 1}}, 0, 15),
        ({"melded_cards": {"jk": 1, "t": 3}, "hand_cards": {"2": 1}}, 80, 20),
        # Issue 20's count: 50 + 2x20 + 5x10 + 6x5 = 170 melded; 20 + 3x10 + 3x5 = 65 in hand.
        (
            {"melded_cards": {"joker": 1, "2": 2, "K-8": 5, "7-4": 6}, "hand_cards": {"A": 1, "k-8": 3, "7–4": 3}},
            170,
            65,
        ),
        ({"melded_points": 5.0}, 5, 0),  # a whole number written as a float is still that number
    ],
)
def test_card_counts_are_valued(data, melded, hand):
    entry = Entry.from_dict(data)
    assert (entry.melded_points, entry.hand_points) == (melded, hand)


@pytest.mark.parametrize(
    ("data", "canastas", "melded", "gone_out"),
    [
        ({}, 0, False, False),
        ({"melded_points": 5}, 0, True, False),
        ({"canastas": {"natural": 1, "mixed": 2}, "melded_points": 135}, 3, True, False),
        ({"special_hand": "straight"}, 0, False, True),  # docs/rules.md "Going out": a special hand goes out
        ({"went_out": True, **KINGS}, 1, True, True),
        ({"red_threes": 2}, 0, False, False),  # red threes are not a meld (pagat)
    ],
)
def test_entry_facts(data, canastas, melded, gone_out):
    entry = Entry.from_dict(data)
    assert (entry.canasta_count, entry.has_melded, entry.has_gone_out) == (canastas, melded, gone_out)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"melded_points": 620, "canastas": {"natural": 1}, "went_out": True, "concealed": True, "red_threes": 2},
        {"melded_cards": {"K": 7, "joker": 1}, "hand_cards": {"black3": 1}, "black_threes_in_hand": 1},
        {"special_hand": "pairs", "held_sets": {"sevens": 1}, "hand_points": 15, "penalty_points": 50},
        {"incomplete": ["sevens", "wild"], "melded_points": 75, "black_threes": 2},
    ],
)
def test_entry_round_trip(data):
    entry = Entry.from_dict(data)
    assert entry.to_dict() == data
    assert Entry.from_dict(entry.to_dict()) == entry


def test_zero_counts_are_left_out():
    entry = Entry.from_dict({"canastas": {"natural": 0, "mixed": 1}, "melded_points": 0, "went_out": False})
    assert entry.to_dict() == {"canastas": {"mixed": 1}}


def test_hand_round_trip_and_units():
    data = {"entries": [{"melded_points": 50}, {"hand_points": 5}, {"red_threes": 1}], "partnership": [2, 0]}
    hand = Hand.from_dict(data)
    assert hand.to_dict() == data
    # docs/rules.md "Scoring a hand": the partnership scores together, the lone player alone.
    assert hand.units() == [(0, 2), (1,)]
    pooled = hand.pooled((0, 2))
    assert (pooled.melded_points, pooled.red_threes) == (50, 1)
