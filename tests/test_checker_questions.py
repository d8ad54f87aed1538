"""The "Can I?" page asks about the cards shown (issue 20 item 3), lets a player tap the meld a wild
card sent alone goes on, and offers American special hands (issue 21). Plain form posts, no JavaScript."""

import re

from tests.test_checker import hidden


def answer(html):
    return re.search(r'<p class="answer">([^<]*)</p>', html).group(1)


def reasons(html):
    return re.findall(r"<li>([^<]*)</li>", html)


def test_a_meld_question_leaves_the_rest_of_the_hand_unknown(client):
    # Issue 20: 7, 7, joker tapped, "Meld these?": 5 + 5 + 50 = 60 >= 50 for a side below 1500.
    html = client.post("/check", data={"action": "meld", "hand": "7 7 JK", "score": "0", "op": "check"})
    html = html.get_data(as_text=True)
    assert answer(html) == "Yes"
    assert "Initial meld counts <b>60</b>; your side needs <b>50</b>." in html
    assert not any("going out" in reason for reason in reasons(html))


def test_all_my_cards_makes_it_a_going_out_question(client):
    # The same three cards as the whole hand: melding them all is going out, and classic needs a
    # canasta to go out (docs/rules.md "Going out"); the side has none.
    data = {"action": "meld", "hand": "7 7 JK", "score": "0"}
    html = client.post("/check", data={**data, "op": "toggle:all_cards"}).get_data(as_text=True)
    assert hidden(html, "all_cards") == "1"
    assert answer(html) == "No"
    assert any("which is going out" in reason for reason in reasons(html))
    html = client.post("/check", data={**data, "all_cards": "1", "op": "toggle:all_cards"}).get_data(as_text=True)
    assert hidden(html, "all_cards") == "" and answer(html) == "Yes"


def test_tapping_the_meld_a_wild_card_goes_on(client):
    # Issue 21's classic example: a joker alone, tens and six queens on the table. On the queens it
    # completes a mixed canasta (7 cards), so going out with 5-5-5 is legal; on the tens it is not.
    data = {
        "action": "go_out",
        "hand": "JK 5S 5H 5D",
        "melds": "JK|5S 5H 5D",
        "table": "10S 10H 10D|QS QH QD QC QS QH",
        "score": "0",
    }
    html = client.post("/check", data={**data, "op": "check"}).get_data(as_text=True)
    assert answer(html) == "Yes"
    assert "You choose the meld JK goes on: on your QS-QH-QD-QC-QS-QH the play is allowed." in reasons(html)
    assert 'value="onto:0:table:0"' in html and 'value="onto:0:table:1"' in html
    html = client.post("/check", data={**data, "op": "onto:0:table:0"}).get_data(as_text=True)
    assert hidden(html, "onto") == "0:table:0"
    assert answer(html) == "No"
    assert any("not-enough" in r or "needs one canasta" in r for r in reasons(html))
    html = client.post("/check", data={**data, "onto": "0:table:0", "op": "onto:0:auto"}).get_data(as_text=True)
    assert hidden(html, "onto") == "" and answer(html) == "Yes"


def test_the_special_hand_is_offered_in_american_only(client):
    straight = "A 2C 3S 4 5 6 7 8 9 10 J Q K JK"
    data = {"variant": "american", "action": "go_out", "hand": straight, "score": "0"}
    html = client.post("/check", data={**data, "op": "check"}).get_data(as_text=True)
    assert 'value="toggle:special"' in html
    html = client.post("/check", data={**data, "op": "toggle:special"}).get_data(as_text=True)
    assert answer(html) == "Yes"
    assert any("special hand: Straight" in r and "3000" in r for r in reasons(html))
    classic = client.post("/check", data={**data, "variant": "classic", "op": "check"}).get_data(as_text=True)
    assert 'value="toggle:special"' not in classic


def test_digits_that_are_not_ascii_change_nothing_and_never_fail(client):
    # "²" and "١" pass str.isdigit() but are no place on the board: the tap is ignored, as a
    # tap naming no such card or meld is.
    data = {"action": "go_out", "hand": "JK 5S 5H 5D", "melds": "JK|5S 5H 5D", "table": "10S 10H 10D|QS QH QD QC QS QH"}
    for extra in ({"op": "onto:²:auto"}, {"op": "pick:²"}, {"onto": "²:table:0"}, {"op": "onto:0:table:١"}):
        response = client.post("/check", data={**data, **extra})
        assert response.status_code == 200, extra
        html = response.get_data(as_text=True)
        assert hidden(html, "onto") == "" and hidden(html, "picked") == ""
        assert answer(html) == "Yes"


def test_a_card_tapped_as_the_discard_counts_in_a_special_hand(client):
    # A special hand goes out with no discard (pagat Modern American): a card the player had tapped
    # into Discard is still one of the 14, so A to K and a joker remain a straight (3000).
    data = {"variant": "american", "action": "go_out", "hand": "A 2C 3S 4 5 6 7 8 9 10 J Q K", "discard": "JK"}
    html = client.post("/check", data={**data, "special": "1", "op": "check"}).get_data(as_text=True)
    assert answer(html) == "Yes"
    assert any("special hand: Straight" in r and "3000" in r for r in reasons(html))


def test_going_out_with_a_special_hand_left_off_is_judged_as_the_special_hand(client):
    # Fourteen cards that make a straight, asked as an ordinary "Go out?" (issue 29): judged as
    # the straight they are (pagat Modern American: 3000), with no toggle to find first.
    data = {"variant": "american", "action": "go_out", "hand": "A 2C 3S 4 5 6 7 8 9 10 J Q K JK", "op": "check"}
    html = client.post("/check", data=data).get_data(as_text=True)
    assert answer(html) == "Yes"
    assert any("special hand: Straight" in r and "3000" in r for r in reasons(html))
    assert "Tap “Special hand”" not in html
    melded = client.post("/check", data={**data, "table": "Q Q Q"}).get_data(as_text=True)  # too late
    assert answer(melded) == "No" and not any("special hand: Straight" in r for r in reasons(melded))
    not_special = client.post("/check", data={**data, "hand": "A 2C 3S 4 5 6 7 8 9 10 J Q Q JK"})
    assert answer(not_special.get_data(as_text=True)) == "No"


def test_a_chosen_meld_that_is_gone_leaves_the_wild_card_to_any_meld(client):
    # The joker was put on table meld 1, then that meld was removed: the checker places it
    # itself, and the page shows "Any meld it fits" chosen rather than no choice at all.
    data = {"action": "meld", "hand": "JK 5 6", "melds": "JK", "table": "K K K", "onto": "0:table:1", "op": "check"}
    html = client.post("/check", data=data).get_data(as_text=True)
    assert answer(html) == "Yes"
    assert re.search(r'value="onto:0:auto"[^>]*aria-pressed="true"', html)


def test_the_language_switch_after_a_tap_comes_back_to_the_same_cards(client):
    # Without JavaScript every tap is a POST; the bar's language link must bring the player back
    # to the checker with the cards tapped so far, not to the start page.
    # Samba with the house rule of three wild cards a meld, and a total of 1500 (minimum 90).
    data = {"variant": "samba", "house_rules_for": "samba", "opt.max_wilds": "3", "score": "1500"}
    html = client.post("/check", data={**data, "action": "meld", "hand": "7 7", "op": "add:JK"}).get_data(as_text=True)
    link = re.search(r'<a class="language" href="([^"]+)"', html).group(1).replace("&amp;", "&")
    languages = client.get(link).get_data(as_text=True)
    german = re.search(r'href="(/language/de[^"]*)"', languages).group(1).replace("&amp;", "&")
    back = client.get(german)
    assert back.status_code == 303
    page = client.get(back.headers["Location"]).get_data(as_text=True)
    assert hidden(page, "hand") == "7 7 JK" and '<option value="samba" selected>' in page
    assert re.search(r'name="opt.max_wilds"[^>]*>\s*<option value="2">[^<]*</option><option value="3" selected>', page)
    assert "Die erste Auslage zählt <b>60</b>; deine Partei braucht <b>90</b>." in page  # 5 + 5 + 50, at 1500


def test_a_card_tapped_both_in_hand_and_as_the_discard_is_the_discard(client):
    # Issue 29: seven kings make a natural canasta, the side's one canasta to go out (docs/rules.md), and
    # 7 x 10 = 70 opens from 0 (needs 50); the nine is discarded. Tapped into Hand too, it is still
    # the discard, not a lone nine to meld; a second nine in Hand is a card of its own.
    data = {"action": "go_out", "hand": "K K K K K K K", "discard": "9", "score": "0", "op": "check"}
    assert answer(client.post("/check", data=data).get_data(as_text=True)) == "Yes"
    twice = client.post("/check", data={**data, "hand": "K K K K K K K 9"}).get_data(as_text=True)
    assert answer(twice) == "Yes" and "You end by discarding a nine." in reasons(twice)
    two_nines = client.post("/check", data={**data, "hand": "K K K K K K K 9 9"}).get_data(as_text=True)
    assert answer(two_nines) == "No" and any(r.startswith("9 is only one card") for r in reasons(two_nines))


def test_meld_these_with_no_meld_in_the_cards_says_no_and_why(client):
    # Issue 29: 7, 9, K hold no three of a rank and no wild card: no meld at all, so "No", because.
    html = client.post("/check", data={"action": "meld", "hand": "7 9 K", "score": "0", "op": "check"})
    html = html.get_data(as_text=True)
    assert answer(html) == "No" and "Check the cards" not in html
    assert any(reason.startswith("No meld can be made from these cards") for reason in reasons(html))
    assert 'class="verdict no"' in html
