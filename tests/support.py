"""Helpers several test modules share (not a test module itself)."""

from scorepad import canasta, create_app, store
from scorepad.db import connect
from scorepad.documents import Side


def fresh_app(folder, **config):
    """The app the web tests use: testing, CSRF off, on a fresh database in ``folder``.

    ``config`` changes what a test needs changed (say ``ORGANISER_PASSPHRASE``, or
    ``TESTING=False, WTF_CSRF_ENABLED=True`` for the app as a phone meets it).
    """
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / "test.db"),
            "SECRET_KEY": "test-only",
            "WTF_CSRF_ENABLED": False,
            **config,
        }
    )


# The app as a server runs it for a phone (``make_app(**AS_SERVED)``): form tokens checked, and a
# view's error answered as the server would answer it, not raised into the test.
AS_SERVED = {"TESTING": False, "WTF_CSRF_ENABLED": True, "SECRET_KEY": "browser-tests"}

# The new-match form's house rules left at the classic defaults.
DEFAULTS = {"option_target": "5000", "option_canastas_to_go_out": "1", "option_restore_pile_penalty": "0"}
# A classic hand through the form. docs/rules.md: We 620 + natural canasta 500 + going out 100 = 1220;
# They 260 - 95 in hand = 165.
HAND = {
    "sides-0-melded_points": "620",
    "sides-0-canasta_natural": "1",
    "sides-0-went_out": "y",
    "sides-1-melded_points": "260",
    "sides-1-hand_points": "95",
}


def add_match(app, hands, variant="classic", sides=None, title="Friday"):
    """Store a match the way the pages do, hand by hand; returns its id."""
    sides = sides or [Side("We", ("Ann", "Bob")), Side("They", ("Cy", "Di"))]
    db = connect(app.config["DATABASE"])
    try:
        match_id = store.create_match(db, canasta.rules_for(variant), sides, title=title)
        version = 1
        for hand in hands:
            version = store.add_hand(db, match_id, canasta.Hand.from_dict(hand), version)
    finally:
        db.close()
    return match_id


def open_links(client, *match_ids):
    """Open each match's write link in this test client's browser, which lists it from then on."""
    for match_id in match_ids:
        assert client.get(f"/matches/{match_id}").status_code == 200


def matrix(values, quick, ids=None):
    """Parameters for a test repeated over a matrix (languages, colour schemes, widths, sizes).

    The quick run tries the ``quick`` ones, chosen as the hardest case of the matrix (German's long
    words, the narrowest phone, the largest field); the others are marked ``slow``, so CI's slow part
    tries every one. ``ids`` names each value as ``pytest.mark.parametrize``'s ``ids`` would.
    """
    import pytest

    names = list(ids) if ids is not None else [None] * len(values)
    unknown = [value for value in quick if value not in values]
    assert not unknown, f"{unknown} is not in the matrix {values}"
    return [
        pytest.param(
            *(value if isinstance(value, tuple) else (value,)),
            id=name,
            marks=() if value in quick else pytest.mark.slow,
        )
        for value, name in zip(values, names, strict=True)
    ]
