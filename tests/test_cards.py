"""Cards: notation (docs/api.md "Cards"), point values (docs/rules.md "Cards") and what the decks hold.

Every expected number here is worked out from docs/rules.md "Cards" and the rulebooks, not copied
from the code.
"""

import pytest

from scorepad.canasta import Card, CardError, Decks, parse_card, parse_cards
from scorepad.canasta.cards import card_class_name, cards_value, counts_value, overdrawn


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("K", "K", None),  # API Cards: the suit of a card other than a three is optional
        ("KS", "K", "S"),
        ("ks", "K", "S"),  # API Cards: case-insensitive
        (" qh ", "Q", "H"),  # surrounding spaces do not matter
        ("10", "10", None),
        ("10H", "10", "H"),
        ("T", "10", None),  # API Cards: T is accepted for 10
        ("td", "10", "D"),
        ("A", "A", None),
        ("4c", "4", "C"),
        ("2", "2", None),
        ("2C", "2", "C"),
        ("JK", "JK", None),  # API Cards: JK is a joker
        ("jk", "JK", None),
        ("*", "JK", None),  # API Cards: * is also a joker
        ("J", "J", None),  # a jack, not a joker
        ("JS", "J", "S"),
        ("3H", "3", "H"),  # API Cards: a three must carry its suit
        ("3d", "3", "D"),
        ("3S", "3", "S"),
        ("3c", "3", "C"),
    ],
)
def test_card_notation(text, rank, suit):
    assert parse_card(text) == Card(rank, suit)


@pytest.mark.parametrize(
    "text",
    [
        "3",  # API Cards: "3 alone is an error"
        " 3 ",
        "1",
        "11",
        "",
        "X",
        "3X",
        "KK",
        "JKS",  # a joker has no suit
        "S",  # a suit without a rank
        "14",
    ],
)
def test_not_a_card(text):
    with pytest.raises(CardError):
        parse_card(text)


@pytest.mark.parametrize("value", [10, None, ["K"]])
def test_only_text_is_a_card(value):
    with pytest.raises(CardError):
        parse_card(value)


def test_card_error_is_a_value_error():
    # Callers that only know ValueError (form code) still catch a bad card.
    assert issubclass(CardError, ValueError)


@pytest.mark.parametrize(
    ("text", "value", "wild", "natural"),
    [
        ("JK", 50, True, False),  # docs/rules.md "Cards": joker 50, wild
        ("2S", 20, True, False),  # docs/rules.md "Cards": 2 is 20, wild
        ("A", 20, False, True),  # docs/rules.md "Cards": ace 20, natural
        ("K", 10, False, True),  # docs/rules.md "Cards": K Q J 10 9 8 are 10
        ("Q", 10, False, True),
        ("J", 10, False, True),
        ("10", 10, False, True),
        ("9", 10, False, True),
        ("8", 10, False, True),
        ("7", 5, False, True),  # docs/rules.md "Cards": 7 6 5 4 are 5
        ("6", 5, False, True),
        ("5", 5, False, True),
        ("4", 5, False, True),
        ("3S", 5, False, False),  # docs/rules.md "Cards": a black three is 5, a stop card, not a natural
        ("3C", 5, False, False),
        ("3H", 0, False, False),  # docs/rules.md "Cards": a red three is a bonus only, worth nothing as a card
        ("3D", 0, False, False),
    ],
)
def test_card_values_and_roles(text, value, wild, natural):
    card = parse_card(text)
    assert (card.value, card.is_wild, card.is_natural) == (value, wild, natural)


@pytest.mark.parametrize(
    ("text", "red", "black"),
    [("3H", True, False), ("3D", True, False), ("3S", False, True), ("3C", False, True), ("KH", False, False)],
)
def test_red_and_black_threes(text, red, black):
    # docs/rules.md "Cards": 3H 3D are red threes, 3S 3C black threes; a red king is no three at all.
    card = parse_card(text)
    assert (card.is_red_three, card.is_black_three) == (red, black)


@pytest.mark.parametrize(
    ("cards", "total"),
    [
        (["K"] * 7, 70),  # pagat: "a natural canasta of seven kings ... 70 for the kings"
        (["K", "K", "2C", "JK"], 90),  # 10 + 10 + 20 + 50
        (["A", "A", "A"], 60),
        (["7", "7", "7", "2"], 35),  # 3 x 5 + 20
        (["3S", "3C", "3S"], 15),  # pagat: black threes melded going out are 5 each
        (["3H", "3D"], 0),  # red threes never count as cards
        (["K", "K", "K", "Q", "Q", "2"], 70),  # pagat's initial-meld example K-K-K, Q-Q-2 "for 70 points"
        ([], 0),
    ],
)
def test_cards_value(cards, total):
    assert cards_value(parse_cards(cards)) == total


@pytest.mark.parametrize(
    ("counts", "total"),
    [
        ({"joker": 1, "A": 3, "K": 7}, 180),  # API example: 50 + 60 + 70
        ({"jk": 2}, 100),
        ({"*": 1, "T": 2}, 70),  # 50 + 2 x 10
        ({"black3": 4}, 20),
        ({"3": 2}, 10),  # a bare 3 among counted cards can only be a black three
        ({"4": 7}, 35),  # the cheapest natural canasta
        ({"k": 1, "Q": 1, "10": 1}, 30),
        ({"2": 7}, 140),
        ({"9": 0}, 0),
    ],
)
def test_counts_value(counts, total):
    assert counts_value(counts) == total


@pytest.mark.parametrize("name", ["red3", "3H", "3d", "red_three", "Z", "1", "eleven"])
def test_card_classes_refused(name):
    # API: classes are joker, 2, A, K..4, black3; red threes are entered under red_threes.
    with pytest.raises(CardError):
        card_class_name(name)


@pytest.mark.parametrize(
    ("decks", "jokers_per_deck", "per_rank", "jokers", "red_threes", "black_threes", "wild_cards", "points"),
    [
        # docs/rules.md "Cards": two decks hold 8 of each rank, 4 red and 4 black threes, 4 jokers and
        # 4x50 + 8x20 (twos) + 8x20 (aces) + 48x10 + 32x5 + 4x5 (black threes) = 1180 points.
        (2, 2, 8, 4, 4, 4, 12, 1180),
        # docs/rules.md "Cards": three decks hold 12 of each, 6 red threes, 6 jokers and 1770 points.
        (3, 2, 12, 6, 6, 6, 18, 1770),
        # chile's fourth pack: 16 of each, 8 jokers; 2 x 1180 = 2360.
        (4, 2, 16, 8, 8, 8, 24, 2360),
        # docs/rules.md "House rules" jokers_per_deck 3: two more jokers, 1180 + 2 x 50 = 1280.
        (2, 3, 8, 6, 4, 4, 14, 1280),
    ],
)
def test_deck_limits(decks, jokers_per_deck, per_rank, jokers, red_threes, black_threes, wild_cards, points):
    deck = Decks(decks, jokers_per_deck)
    assert (deck.per_rank, deck.jokers, deck.red_threes, deck.black_threes, deck.wild_cards, deck.points) == (
        per_rank,
        jokers,
        red_threes,
        black_threes,
        wild_cards,
        points,
    )


@pytest.mark.parametrize(
    ("cards", "decks", "problems"),
    [
        (["JK"] * 4, 2, 0),  # docs/rules.md "Cards": two decks hold 4 jokers
        (["JK"] * 5, 2, 1),
        (["JK"] * 6, 3, 0),  # three decks hold 6
        (["K"] * 8, 2, 0),  # 8 of each rank in two decks
        (["K"] * 9, 2, 1),
        (["KS"] * 2, 2, 0),  # one king of spades per deck
        (["KS"] * 3, 2, 1),
        (["KS"] * 3, 3, 0),
        (["3H", "3D", "3H", "3D"], 2, 0),  # 4 red threes in two decks
        (["3H", "3D", "3H", "3D", "3H"], 2, 2),  # 5 red threes, and a third 3H
        (["3S"] * 2 + ["3C"] * 2, 2, 0),
    ],
)
def test_overdrawn(cards, decks, problems):
    assert len(overdrawn(parse_cards(cards), Decks(decks))) == problems


def test_a_card_read_twice_is_an_equal_card_with_the_same_answers():
    # docs/rules.md "Cards": a king counts 10, a two is wild and counts 20.
    king = parse_card("K")
    assert parse_card(" k ") == king and king.value == 10 and not king.is_wild and king.is_natural
    assert king == Card("K") and hash(king) == hash(Card("K")) and repr(king) == "Card(rank='K', suit=None)"
    two = parse_card("2C")
    assert two.is_wild and two.value == 20 and not two.is_natural


@pytest.mark.parametrize("text", ["3", "Z", 5, None, ["K"]])
def test_what_is_not_a_card_is_refused_every_time(text):
    for _ in range(2):
        with pytest.raises(CardError):
            parse_card(text)
