"""Forms: only the boxes a variant uses, hands out of boxes, core violations onto boxes."""

import pytest
from werkzeug.datastructures import MultiDict

from scorepad import canasta
from scorepad.forms import counter_counts, hand_form, match_form


def form_for(key, data, app, names=None):
    variant = canasta.VARIANTS[key]
    names = names or variant.side_names
    with app.test_request_context("/", method="POST", data=data):
        form = hand_form(variant, names, variant.players_per_side, formdata=MultiDict(data))
        form.validate()
        return form


@pytest.fixture
def ctx(app):
    with app.test_request_context("/"):
        yield app


def test_classic_shows_only_classic_boxes(ctx):
    form = form_for("classic", {"version": "1"}, ctx)
    side = form.sides[0].form
    assert "canasta_natural" in side._fields and "concealed" in side._fields
    assert not {"special_hand", "black_threes", "incomplete_sevens", "held_sevens"} & set(side._fields)
    assert "partnership" not in form._fields


def test_american_shows_its_extras(ctx):
    side = form_for("american", {"version": "1"}, ctx).sides[0].form
    assert {"special_hand", "black_threes", "incomplete_sevens", "held_aces", "canasta_twos"} <= set(side._fields)
    assert "concealed" not in side._fields  # American has no concealed bonus


def test_three_players_choose_partners(ctx):
    form = form_for("classic-3p", {"version": "1", "partnership": "0-2"}, ctx)
    assert form.to_hand().partnership == (0, 2)


def test_empty_boxes_mean_zero(ctx):
    form = form_for("classic", {"version": "1", "sides-0-melded_points": "120"}, ctx)
    assert not form.errors
    hand = form.to_hand()
    assert hand.entries[0].melded_points == 120 and hand.entries[1] == canasta.Entry()


def test_numbers_render_for_the_numeric_keypad(ctx):
    form = form_for("classic", {"version": "1"}, ctx)
    html = str(form.sides[0].form.melded_points())
    assert 'inputmode="numeric"' in html and 'type="number"' in html


def test_card_counts_replace_points(ctx):
    data = {"version": "1", "sides-0-melded_points": "5", "sides-0-melded_joker": "1", "sides-0-melded_high": "10"}
    hand = form_for("classic", data, ctx).to_hand()
    assert hand.entries[0].melded_points == 150
    # docs/api.md: cards counted K-8 are kept as the group, never as kings and queens.
    assert dict(hand.entries[0].melded_cards) == {"joker": 1, "K-8": 10}


def test_counter_counts_keep_the_groups():
    assert counter_counts({"high": 5, "low": 33}) == {"K-8": 5, "7-4": 33}


def test_violations_land_on_their_boxes(ctx):
    form = form_for("classic", {"version": "1"}, ctx)
    form.attach(
        [
            canasta.Violation("x", "red", "entries[1].red_threes"),
            canasta.Violation("x", "natural", "hands[3].entries[0].canastas.natural"),
            canasta.Violation("x", "cards", "entries[0].hand_cards.K"),
            canasta.Violation("x", "group", "entries[1].melded_cards.K-8"),
            canasta.Violation("x", "red3", "entries[1].hand_cards.red3"),
            canasta.Violation("x", "side", "entries[1]"),
            canasta.Violation("x", "table", "entries"),
            canasta.Violation("x", "later", "hands[5]"),
        ],
        hand_index=3,
    )
    assert form.sides[1].form.red_threes.errors == ["red"]
    assert form.sides[0].form.canasta_natural.errors == ["natural"]
    # A count's message sits under the counter box it is about (a king is counted with K-8).
    assert form.sides[0].form.hand_high.errors == ["cards"]
    assert form.sides[1].form.melded_high.errors == ["group"]
    assert form.sides[1].form.hand_points.errors == ["red3"]  # no box of its own: the pile's
    assert form.side_problems[1] == ["side"]
    assert form.problems == ["table", "Hand 6: later"]


def test_fill_shows_a_stored_hand(ctx):
    form = form_for("classic", {}, ctx)
    hand = canasta.Hand.from_dict(
        {"entries": [{"melded_cards": {"joker": 2}, "canastas": {"mixed": 1}, "went_out": True}, {"hand_points": 5}]}
    )
    form.fill(hand, 7)
    side = form.sides[0].form
    assert form.version.data == "7" and side.melded_joker.data == 2 and side.canasta_mixed.data == 1
    assert side.went_out.data is True and form.sides[1].form.hand_points.data == 5


def test_fill_adds_ranks_into_their_group_box(ctx):
    # A count given rank by rank (the API, an import) shows in the counter's group boxes.
    form = form_for("classic", {}, ctx)
    counts = {"K-8": 2, "K": 8, "Q": 2, "7": 1, "4": 3, "A": 1}
    form.fill(canasta.Hand.from_dict({"entries": [{"melded_cards": counts}, {}]}), 1)
    side = form.sides[0].form
    assert (side.melded_high.data, side.melded_low.data, side.melded_ace.data) == (12, 4, 1)


def test_match_form_options_and_starting_totals(ctx):
    variant = canasta.VARIANTS["classic"]
    data = {"side_0": "Us", "side_1": "Them", "start_0": "1500", "option_target": "3000", "option_decks": "2"}
    with ctx.test_request_context("/", method="POST", data=data):
        form = match_form(variant, formdata=MultiDict(data))
        assert form.starting_totals() == (1500, 0)
        assert [side.name for side in form.sides()] == ["Us", "Them"]
        rules = form.to_variant()
        assert rules.target == 3000 and rules.pickup_with_wild is False  # unticked box
        form.attach([canasta.Violation("bad-option-value", "no", "options.target")])
        assert form.option_target.errors == ["no"]
