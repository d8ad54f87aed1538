"""Pick the cards once, server side: the posted board, the taps and the verdict they bring back.

Every number below is worked out by hand from docs/rules.md: K, Q, 9 count 10, A 20, 7 and 5 count 5;
a classic side needs 15 below 0, 50 from 0 to 1495, 90 from 1500 to 2995 and 120 from 3000.
"""

import html as markup
import re

import pytest

KINGS_AND_MORE = "K K K Q 7H"  # only the three kings meld: 3 x 10 = 30


def fields(page):
    """The board's state as the next tap would post it: the hidden fields and the typed total."""
    found = {
        name: markup.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page)
    }
    total = re.search(r'<input type="number" id="score" name="score" value="([^"]*)"', page)
    if total:
        found["score"] = markup.unescape(total.group(1))
    return found


def verdict(page):
    """The verdict section's text, tags stripped and spaces squeezed."""
    section = re.search(r'<section id="verdict".*?</section>', page, re.S)
    assert section, "no verdict section on the board"
    return " ".join(markup.unescape(re.sub(r"<[^>]+>", " ", section.group(0))).split())


def answer(page):
    found = re.search(r'class="answer">([^<]*)<', page)
    return found.group(1) if found else None


def tap(client, board, op, url="/check"):
    """Post one tap with the board as it stands; return the page and the board it carries."""
    response = client.post(url, data={**board, "op": op})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    return page, fields(page)


def start(client, hand, score="0", action="meld"):
    """A board with the hand tapped in, the side's total typed and the question asked."""
    page, board = tap(client, {"variant": "classic", "score": score, "action": action}, "target:hand")
    for code in hand.split():
        page, board = tap(client, board, f"add:{code}")
    assert board["hand"] == hand
    return page, board


def pick(client, board, *positions):
    page = None
    for position in positions:
        page, board = tap(client, board, f"pick:{position}")
    return page, board


# --- (1) the picked cards, exactly, are judged -------------------------------------------------


def test_the_picked_kings_alone_are_judged_short_of_fifty_at_zero(client):
    _, board = start(client, KINGS_AND_MORE, score="0")
    page, board = pick(client, board, 0, 1, 2)
    assert board["picked"] == "0 1 2"
    page, board = tap(client, board, "action:meld")
    # K-K-K = 30; at total 0 the side needs 50: refused, 20 short.
    assert answer(page) == "No"
    text = verdict(page)
    assert "counts 30" in text and "needs 50" in text
    assert board["hand"] == KINGS_AND_MORE and board["picked"] == "0 1 2"  # picked once, kept


def test_the_picked_kings_are_a_legal_opening_below_zero(client):
    _, board = start(client, KINGS_AND_MORE, score="-100")
    _, board = pick(client, board, 0, 1, 2)
    page, board = tap(client, board, "action:meld")
    # Below 0 the minimum is 15 and K-K-K counts 30: yes, and the verdict names the kings meld.
    assert answer(page) == "Yes"
    text = verdict(page)
    assert "K-K-K" in text and "counts 30" in text and "needs 15" in text
    assert "Q" not in text.replace("K-K-K", "")  # the unpicked queen is in no meld judged


def test_picking_a_card_again_unpicks_it(client):
    _, board = start(client, KINGS_AND_MORE, score="-100")
    _, board = pick(client, board, 0, 1, 2, 1)
    assert board["picked"] == "0 2"
    page, board = tap(client, board, "action:meld")
    # Two kings alone are 20 but no meld: three cards are the least.
    assert answer(page) == "No"
    assert "counts 20" in verdict(page)


def test_picked_cards_are_judged_by_the_htmx_route_too(client):
    _, board = start(client, "K K K A A A 5 9", score="0")
    _, board = pick(client, board, 3, 4, 5)
    page, board = tap(client, board, "action:meld", url="/check/verdict")
    assert "<html" not in page and 'id="board"' in page
    # A-A-A = 3 x 20 = 60, over the 50 a side at 0 needs; the kings are not picked.
    assert answer(page) == "Yes"
    assert "counts 60" in verdict(page) and "needs 50" in verdict(page)


# --- (2) nothing picked: the best melds -------------------------------------------------------


def test_with_nothing_picked_the_best_melds_are_judged(client):
    page, board = start(client, "K K K A A A 5 9", score="0")
    page, board = tap(client, board, "action:meld")
    assert board["picked"] == ""
    # K-K-K (30) + A-A-A (60) = 90, over 50; the 5 and 9 make no meld.
    assert answer(page) == "Yes"
    text = verdict(page)
    assert "counts 90" in text and "needs 50" in text


def test_picking_narrows_the_best_melds_to_the_picked_ones(client):
    _, board = start(client, "K K K A A A 5 9", score="0")
    page, board = tap(client, board, "action:meld")
    assert "counts 90" in verdict(page)
    page, board = pick(client, board, 0, 1, 2)
    # Only K-K-K now: 30, short of 50 -- the aces are no longer laid down.
    assert answer(page) == "No"
    assert "counts 30" in verdict(page)


def test_with_nothing_picked_short_best_melds_are_refused(client):
    _, board = start(client, "K K K 7 7 7 9", score="0")
    page, _ = tap(client, board, "action:meld")
    # The best the hand makes: K-K-K (30) + 7-7-7 (15) = 45, short of 50.
    assert answer(page) == "No"
    assert "counts 45" in verdict(page) and "needs 50" in verdict(page)


# --- (3) the "Last card" key -------------------------------------------------------------------


def test_last_card_takes_back_the_last_card_of_the_hand_only(client):
    _, board = start(client, KINGS_AND_MORE, score="0")
    _, board = pick(client, board, 0, 1, 2)
    page, after = tap(client, board, "back")
    assert after["hand"] == "K K K Q"  # 7H, the last added, is gone; the rest in order
    assert after["picked"] == "0 1 2"  # the kings stay picked
    assert after["score"] == "0" and after["action"] == "meld"
    assert "Last card" in page  # the key is on the board


def test_last_card_unpicks_the_card_it_takes_back(client):
    _, board = start(client, KINGS_AND_MORE, score="0")
    _, board = pick(client, board, 0, 4)
    _, after = tap(client, board, "back")
    assert after["hand"] == "K K K Q" and after["picked"] == "0"


def test_last_card_in_a_meld_leaves_the_hand_and_other_melds(client):
    board = {"variant": "classic", "action": "meld", "hand": "K Q", "melds": "K K K|Q Q", "target": "melds"}
    _, after = tap(client, board, "back")
    assert after["melds"] == "K K K|Q" and after["hand"] == "K Q"


def test_last_card_on_an_empty_board_changes_nothing(client):
    page, after = tap(client, {"variant": "classic", "action": "meld"}, "back")
    assert after["hand"] == "" and after["melds"] == ""
    assert "Tap the cards in your hand." in page


# --- (4) the typed total sets the minimum ------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "needs", "legal"),
    [
        ("-5", 15, "Yes"),  # below 0: 15, and K-K-K's 30 is enough
        ("0", 50, "No"),
        ("1495", 50, "No"),  # the top of 0-1495
        ("1500", 90, "No"),
        ("2995", 90, "No"),
        ("3000", 120, "No"),
    ],
)
def test_the_typed_total_changes_the_minimum(client, total, needs, legal):
    _, board = start(client, KINGS_AND_MORE, score="0")
    _, board = pick(client, board, 0, 1, 2)
    page, after = tap(client, {**board, "score": total}, "check", url="/check/verdict")
    assert after["score"] == total
    assert answer(page) == legal
    text = verdict(page)
    assert "counts 30" in text and f"needs {needs}" in text
    assert f"needs {needs} to open" in page  # the box's own label agrees


# --- (5) a bad total is refused, naming the box ------------------------------------------------


@pytest.mark.parametrize("total", ["abc", "12x", "99999999999"])
def test_a_bad_total_is_refused_naming_the_box(client, total):
    _, board = start(client, KINGS_AND_MORE, score="0")
    _, board = pick(client, board, 0, 1, 2)
    response = client.post("/check", data={**board, "score": total, "op": "check"})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert answer(page) == "Check the cards"
    errors = " ".join(re.findall(r'<li class="error">(.*?)</li>', page, re.S))
    assert "total" in errors.lower()  # the message names the side's total box
    after = fields(page)
    assert after["hand"] == KINGS_AND_MORE and after["picked"] == "0 1 2"  # the board is kept
