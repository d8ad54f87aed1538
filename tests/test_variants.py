"""Variants: every preset's numbers (docs/rules.md "Presets") and the house-rule options ("House rules").

Expected values are docs/rules.md's tables, read by hand, never the code's own output.
"""

import pytest

from scorepad.canasta import (
    DEFAULT_VARIANT,
    OPTIONS,
    VARIANTS,
    OptionError,
    UnknownVariantError,
    find_variant,
    rules_for,
)

CLASSIC_FAMILY = ("classic", "classic-2p", "classic-3p", "classic-5p", "classic-6p-3x2", "classic-6p-2x3")


def test_every_required_variant_exists():
    # docs/api.md "Variants": the preset ids every request may name
    assert set(VARIANTS) >= {
        "classic",
        "classic-2p",
        "classic-3p",
        "classic-5p",
        "classic-6p-3x2",
        "classic-6p-2x3",
        "american",
        "samba",
        "bolivia",
        "chile",
    }


def test_the_default_variant_is_classic_as_the_api_documents():
    # docs/api.md: a check's `variant` is "`classic` when left out"; the checker's page starts there too.
    assert DEFAULT_VARIANT == "classic" and VARIANTS[DEFAULT_VARIANT].name == "Classic canasta"


@pytest.mark.parametrize(
    ("key", "players", "sides", "decks", "deal", "draw", "target", "to_go_out", "going_out", "concealed_total"),
    [
        # docs/rules.md "Presets" preset table, column by column; "go out / concealed" is the total paid for
        # going out concealed (100 + an extra 100 = 200, pagat "making 200 for going out").
        ("classic", 4, 2, 2, 11, 1, 5000, 1, 100, 200),
        ("classic-2p", 2, 2, 2, 15, 2, 5000, 2, 100, 200),
        ("classic-3p", 3, 3, 2, 13, 2, 7500, 1, 100, 200),
        ("classic-5p", 5, 2, 2, 11, 1, 5000, 1, 100, 200),
        ("classic-6p-3x2", 6, 3, 3, 13, 1, 7500, 2, 100, 200),
        ("classic-6p-2x3", 6, 2, 3, 13, 1, 10000, 2, 100, 200),
        ("american", 4, 2, 2, 13, 1, 8500, 2, 100, None),
        ("samba", 4, 2, 3, 15, 2, 10000, 2, 200, None),
        ("bolivia", 4, 2, 3, 15, 2, 15000, 2, 200, None),
        ("chile", 4, 2, 3, 15, 2, 15000, 2, 200, None),
    ],
)
def test_preset_numbers(key, players, sides, decks, deal, draw, target, to_go_out, going_out, concealed_total):
    variant = VARIANTS[key]
    assert (variant.players, variant.sides, variant.decks, variant.deal, variant.draw) == (
        players,
        sides,
        decks,
        deal,
        draw,
    )
    assert (variant.target, variant.canastas_to_go_out, variant.going_out) == (target, to_go_out, going_out)
    total = None if variant.concealed is None else variant.going_out + variant.concealed
    assert total == concealed_total


@pytest.mark.parametrize(
    ("key", "per_side"),
    [
        ("classic", (2, 2)),  # two partnerships
        ("classic-2p", (1, 1)),  # each alone
        ("classic-3p", (1, 1, 1)),  # each keeps a column
        ("classic-5p", (2, 3)),  # a pair against a trio
        ("classic-6p-3x2", (2, 2, 2)),  # three partnerships
        ("classic-6p-2x3", (3, 3)),  # two teams of three
        ("american", (2, 2)),
        ("samba", (2, 2)),
        ("bolivia", (2, 2)),
        ("chile", (2, 2)),
    ],
)
def test_sides(key, per_side):
    # docs/rules.md "Presets": the "players / sides" column, and who plays with whom
    variant = VARIANTS[key]
    assert variant.players_per_side == per_side
    assert sum(per_side) == variant.players
    assert len(variant.side_names) == variant.sides == len(per_side)


@pytest.mark.parametrize(("key", "kind"), [("bolivia", "sequence"), ("chile", "sequence"), ("samba", None)])
def test_going_out_needs_an_escalera(key, kind):
    # docs/rules.md "Presets": bolivia and chile need one of the two canastas to be an escalera; samba any two.
    assert VARIANTS[key].going_out_needs_kind == kind


BOUNDARIES = (-5, 0, 1495, 1500, 2995, 3000, 4995, 5000, 6995, 7000)
CLASSIC_LADDER = (15, 50, 50, 90, 90, 120, 120, 120, 120, 120)  # docs/rules.md "Presets": 15 / 50 / 90 / 120


@pytest.mark.parametrize(
    ("key", "options", "minimums"),
    [
        *[(key, {}, CLASSIC_LADDER) for key in ("classic", "classic-2p", "classic-3p", "classic-5p", "classic-6p-3x2")],
        # docs/rules.md "Presets": classic-6p-2x3 adds 150 from 7000
        # (pagat: "7000 or more points requires at least 150")
        ("classic-6p-2x3", {}, (15, 50, 50, 90, 90, 120, 120, 120, 120, 150)),
        # docs/rules.md "Presets": samba 160 from 7000
        ("samba", {}, (15, 50, 50, 90, 90, 120, 120, 120, 120, 160)),
        # docs/rules.md "Presets": bolivia and chile 150 from 7000
        ("bolivia", {}, (15, 50, 50, 90, 90, 120, 120, 120, 120, 150)),
        ("chile", {}, (15, 50, 50, 90, 90, 120, 120, 120, 120, 150)),
        # docs/rules.md "Presets" / pagat American: 125 below 3000 (negative too), 155 for 3000-4995, 180 from 5000
        ("american", {}, (125, 125, 125, 125, 125, 155, 155, 180, 180, 180)),
        # docs/rules.md "House rules" harder_first_meld (Palace): 50 / 90 / 120 / 150, for every classic preset
        *[
            (key, {"harder_first_meld": True}, (50, 90, 90, 120, 120, 150, 150, 150, 150, 150))
            for key in CLASSIC_FAMILY
        ],
    ],
)
def test_minimum_ladders(key, options, minimums):
    variant = rules_for(key, options)
    assert tuple(variant.minimum_for(total) for total in BOUNDARIES) == minimums


@pytest.mark.parametrize(("total", "minimum"), [(-1, 15), (-100_000, 15), (1_000_000, 120)])
def test_classic_ladder_extremes(total, minimum):
    # docs/rules.md "Presets": "below 0" is 15 however far below; "3000 and up" has no further step in classic.
    assert VARIANTS["classic"].minimum_for(total) == minimum


@pytest.mark.parametrize(
    ("key", "options", "bonuses"),
    [
        # docs/rules.md "Presets": the canasta bonuses column
        *[(key, {}, {"natural": 500, "mixed": 300}) for key in CLASSIC_FAMILY],
        # docs/rules.md "House rules" wild_canasta 1000 (Hoyle program): kind `wild` worth 1000
        ("classic", {"wild_canasta": "1000"}, {"natural": 500, "mixed": 300, "wild": 1000}),
        ("classic-2p", {"wild_canasta": "1000"}, {"natural": 500, "mixed": 300, "wild": 1000}),
        # docs/rules.md "House rules" wild_canasta palace: wild_big 2000, wild_small 1000
        (
            "classic",
            {"wild_canasta": "palace"},
            {"natural": 500, "mixed": 300, "wild_big": 2000, "wild_small": 1000},
        ),
        # docs/rules.md "House rules" sequences: kind `sequence` worth 1500
        ("classic", {"sequences": True}, {"natural": 500, "mixed": 300, "sequence": 1500}),
        (
            "classic-6p-2x3",
            {"sequences": True, "wild_canasta": "1000"},
            {"natural": 500, "mixed": 300, "sequence": 1500, "wild": 1000},
        ),
        # docs/rules.md "Presets" american: sevens, aces 2500, wild 2000, jokers 2500, twos 3000
        (
            "american",
            {},
            {
                "natural": 500,
                "mixed": 300,
                "sevens": 2500,
                "aces": 2500,
                "wild": 2000,
                "jokers": 2500,
                "twos": 3000,
            },
        ),
        # docs/rules.md "Presets" samba: a samba (sequence) 1500
        ("samba", {}, {"natural": 500, "mixed": 300, "sequence": 1500}),
        # docs/rules.md "Presets" bolivia, chile: escalera 1500, bolivia (wild) 2500
        ("bolivia", {}, {"natural": 500, "mixed": 300, "sequence": 1500, "wild": 2500}),
        ("chile", {}, {"natural": 500, "mixed": 300, "sequence": 1500, "wild": 2500}),
    ],
)
def test_canasta_bonuses(key, options, bonuses):
    kinds = rules_for(key, options).canasta_kinds
    assert {kind: spec.bonus for kind, spec in kinds.items()} == bonuses


@pytest.mark.parametrize(
    ("key", "options", "penalties"),
    [
        ("classic", {}, {}),
        ("classic", {"wild_canasta": "1000"}, {}),
        # docs/rules.md "House rules": palace, an unfinished wild meld -1000; "Presets": american's penalties
        ("classic", {"wild_canasta": "palace"}, {"wild": 1000}),
        ("american", {}, {"sevens": 2500, "aces": 2500, "wild": 2000}),
        ("samba", {}, {}),
        ("bolivia", {}, {}),
    ],
)
def test_incomplete_meld_penalties(key, options, penalties):
    assert rules_for(key, options).incomplete_penalties == penalties


@pytest.mark.parametrize(
    ("key", "values"),
    [
        # docs/rules.md "Presets" red threes: classic 100 each, all four 800 (pagat: "an extra 400, making 800")
        *[(key, {1: 100, 2: 200, 3: 300, 4: 800}) for key in ("classic", "classic-2p", "classic-3p", "classic-5p")],
        # docs/rules.md "Presets": six-player 100 each up to four (four = 400), five 1000, six 1200
        *[(key, {1: 100, 2: 200, 3: 300, 4: 400, 5: 1000, 6: 1200}) for key in ("classic-6p-3x2", "classic-6p-2x3")],
        # docs/rules.md "Presets" / pagat American: 1 -> 100, 2 -> 300, 3 -> 500, 4 -> 1000
        ("american", {1: 100, 2: 300, 3: 500, 4: 1000}),
        # docs/rules.md "Presets" samba family: 100 each, all six 1000
        *[(key, {1: 100, 2: 200, 3: 300, 4: 400, 5: 500, 6: 1000}) for key in ("samba", "bolivia", "chile")],
    ],
)
def test_red_three_values(key, values):
    variant = VARIANTS[key]
    assert {count: variant.red_three_value(count) for count in values} == values
    assert variant.red_three_value(0) == 0


@pytest.mark.parametrize(
    ("key", "positive_with", "void_with", "black_scored"),
    [
        ("classic", 0, None, False),  # docs/rules.md "Presets": positive when the side has melded anything
        ("classic-6p-3x2", 0, None, False),
        ("american", 2, 1, True),  # 2+ canastas plus, one canasta 0, black threes scored too
        ("samba", 2, None, False),  # samba family: plus only with 2+ canastas
        ("bolivia", 2, None, False),
        ("chile", 2, None, False),
    ],
)
def test_when_threes_count_plus(key, positive_with, void_with, black_scored):
    variant = VARIANTS[key]
    assert (variant.threes_positive_with, variant.threes_void_with, variant.black_threes_scored) == (
        positive_with,
        void_with,
        black_scored,
    )


def test_option_ids_are_the_fixed_ones():
    # docs/rules.md "House rules": the options' fixed ids
    assert set(OPTIONS) == {
        "target",
        "decks",
        "jokers_per_deck",
        "canastas_to_go_out",
        "harder_first_meld",
        "tough_end",
        "canasta_required_for_positive",
        "wild_canasta",
        "sequences",
        "black_three_in_hand",
        "pile_always_frozen",
        "pickup_with_wild",
        "pickup_onto_canasta",
        "max_wilds",
        "wilds_not_more_than_naturals",
        "black_three_freezes",
        "top_counts_for_minimum",
        "restore_pile_penalty",
        "max_hands",
        # issue #31: Palace's two strict rules whole, and pagat's Modern American variation
        "strict_wild_cards",
        "strict_discard_pile",
        "no_pickup_on_initial_meld",
    }


@pytest.mark.parametrize(
    ("option", "default"),
    [
        # docs/rules.md "House rules": what the options start as, for the classic preset
        ("jokers_per_deck", 2),
        ("harder_first_meld", False),
        ("tough_end", False),
        ("canasta_required_for_positive", False),
        ("wild_canasta", "none"),
        ("sequences", False),
        ("black_three_in_hand", 5),
        ("pile_always_frozen", False),
        ("pickup_with_wild", True),
        ("pickup_onto_canasta", True),
        ("max_wilds", 3),
        ("wilds_not_more_than_naturals", True),
        ("black_three_freezes", False),
        ("top_counts_for_minimum", True),
        ("restore_pile_penalty", 0),
        ("max_hands", None),
    ],
)
def test_option_defaults(option, default):
    assert getattr(VARIANTS["classic"], option) == default


@pytest.mark.parametrize(
    ("key", "option", "default"),
    [
        ("american", "max_wilds", 2),  # docs/rules.md "House rules": max_wilds 3 (american, samba family 2)
        ("samba", "max_wilds", 2),
        ("bolivia", "max_wilds", 2),
        ("chile", "max_wilds", 2),
        ("bolivia", "black_three_in_hand", 100),  # docs/rules.md "Presets": a black three in hand costs 100 in bolivia
        ("chile", "black_three_in_hand", 100),
        ("samba", "black_three_in_hand", 5),
    ],
)
def test_per_preset_option_defaults(key, option, default):
    assert getattr(VARIANTS[key], option) == default


@pytest.mark.parametrize(
    ("key", "options", "field", "value"),
    [
        ("classic", {"target": 3000}, "target", 3000),
        ("classic", {"decks": 3}, "decks", 3),
        ("chile", {"decks": 4}, "decks", 4),  # docs/rules.md "House rules" decks: Chile 3 or 4
        ("classic", {"jokers_per_deck": 3}, "jokers_per_deck", 3),
        ("classic", {"wild_canasta": 1000}, "wild_canasta", "1000"),  # a JSON number names the same choice
        ("classic", {"max_hands": None}, "max_hands", None),
        ("classic", {"max_hands": 12}, "max_hands", 12),
        ("classic", {"black_three_in_hand": 100}, "black_three_in_hand", 100),
        ("classic", {"restore_pile_penalty": 50}, "restore_pile_penalty", 50),  # Hoyle program: 50
        ("american", {"target": 10000}, "target", 10000),
        ("classic-2p", {"canastas_to_go_out": 1}, "canastas_to_go_out", 1),  # Hoyle program: 1 or 2
    ],
)
def test_options_accepted(key, options, field, value):
    assert getattr(rules_for(key, options), field) == value


@pytest.mark.parametrize(
    ("decks", "jokers_per_deck", "points", "red_threes"),
    [(3, 2, 1770, 6), (4, 2, 2360, 8), (2, 3, 1280, 4)],
)
def test_decks_option_changes_every_card_limit(decks, jokers_per_deck, points, red_threes):
    # docs/rules.md "House rules" decks: "changes every card limit"; docs/rules.md "Cards" for the numbers.
    variant = rules_for("classic", {"decks": decks, "jokers_per_deck": jokers_per_deck})
    assert (variant.deck.points, variant.deck.red_threes) == (points, red_threes)


@pytest.mark.parametrize(
    ("key", "options", "code"),
    [
        ("classic", {"bogus": 1}, "unknown-option"),  # API: an unknown option is a 422
        ("american", {"harder_first_meld": True}, "option-not-in-variant"),  # classic-family option
        ("american", {"wild_canasta": "1000"}, "option-not-in-variant"),
        ("samba", {"sequences": True}, "option-not-in-variant"),
        # docs/rules.md "Choices where the rulebooks are silent": harder_first_meld (a Palace rule) is
        # offered on the classic presets only, not the Samba family.
        ("samba", {"harder_first_meld": True}, "option-not-in-variant"),
        ("bolivia", {"wild_canasta": "1000"}, "option-not-in-variant"),
        ("classic", {"target": 99}, "bad-option-value"),
        ("classic", {"target": 100_001}, "bad-option-value"),
        ("classic", {"target": 5001}, "bad-option-value"),  # every score is a multiple of 5
        ("classic", {"target": "5000"}, "bad-option-value"),
        ("classic", {"target": True}, "bad-option-value"),
        ("classic", {"target": 5000.5}, "bad-option-value"),
        ("classic", {"target": None}, "bad-option-value"),
        ("classic", {"decks": 1}, "bad-option-value"),  # docs/rules.md "House rules" decks: 2/3/4
        ("classic", {"decks": 5}, "bad-option-value"),
        ("samba", {"decks": 4}, "bad-option-value"),  # only chile takes a fourth pack
        ("samba", {"decks": 2}, "bad-option-value"),
        ("classic", {"jokers_per_deck": 4}, "bad-option-value"),  # docs/rules.md "House rules": 2/3
        ("classic", {"jokers_per_deck": 1}, "bad-option-value"),
        ("classic", {"harder_first_meld": 1}, "bad-option-value"),  # bool options take true/false only
        ("classic", {"harder_first_meld": "true"}, "bad-option-value"),
        ("classic", {"wild_canasta": "3000"}, "bad-option-value"),  # none/1000/2000/palace
        ("classic", {"wild_canasta": True}, "bad-option-value"),
        ("classic", {"black_three_in_hand": 50}, "bad-option-value"),  # 5/100
        ("classic", {"max_wilds": 4}, "bad-option-value"),
        ("classic", {"max_wilds": 1}, "bad-option-value"),
        ("classic", {"canastas_to_go_out": 0}, "bad-option-value"),
        ("classic", {"restore_pile_penalty": -5}, "bad-option-value"),
        ("classic", {"restore_pile_penalty": 52}, "bad-option-value"),
        ("classic", {"max_hands": 0}, "bad-option-value"),
        ("classic", {"max_hands": "ten"}, "bad-option-value"),
    ],
)
def test_options_refused(key, options, code):
    with pytest.raises(OptionError) as caught:
        rules_for(key, options)
    [violation] = caught.value.violations
    [option_id] = options
    assert (violation.code, violation.field) == (code, f"options.{option_id}")
    assert violation.message


def test_every_bad_option_reported_at_once():
    # docs/rules.md "House rules": a value an option does not allow is refused, every one at once.
    with pytest.raises(OptionError) as caught:
        rules_for("classic", {"target": 1, "decks": 9, "bogus": True, "tough_end": True})
    assert sorted(v.field for v in caught.value.violations) == ["options.bogus", "options.decks", "options.target"]


@pytest.mark.parametrize("options", ["target=3000", 5, ["target"]])
def test_options_must_be_an_object(options):
    with pytest.raises(OptionError) as caught:
        rules_for("classic", options)
    assert [v.code for v in caught.value.violations] == ["options-not-object"]


@pytest.mark.parametrize("key", ["canasta", "Classic", "", None, ["classic"]])
def test_unknown_variant(key):
    # API: an unknown variant is a 422, with the field "variant".
    with pytest.raises(UnknownVariantError) as caught:
        find_variant(key)
    assert [v.field for v in caught.value.violations] == ["variant"]


def test_options_leave_the_preset_alone():
    # with_options returns new rules; the registry's preset keeps its numbers for the next match.
    changed = rules_for("classic", {"target": 3000, "harder_first_meld": True})
    assert (changed.target, changed.minimum_for(0)) == (3000, 90)
    assert (VARIANTS["classic"].target, VARIANTS["classic"].minimum_for(0)) == (5000, 50)


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_every_option_of_a_preset_is_listed(key):
    # docs/rules.md "House rules": "a preset's page lists what each option changes": every listed option is a known one
    # and its default is one of its allowed values.
    variant = VARIANTS[key]
    for option_id, value in variant.option_values().items():
        assert option_id in OPTIONS
        assert rules_for(key, {option_id: value}).option_values()[option_id] == value
