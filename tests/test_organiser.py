"""Organiser mode: off without a passphrase, a sign-in that says what went wrong, a bounded
rate of guesses, and a sign-out."""

import re

import pytest

from scorepad import access, create_app

PASSPHRASE = "meld seventy-five"


@pytest.fixture
def app(make_app):
    return make_app(ORGANISER_PASSPHRASE=PASSPHRASE)


@pytest.fixture
def client(app):
    return app.test_client()


def signed_in(client):
    return 'id="organiser-note"' in client.get("/").get_data(as_text=True)


def test_without_a_passphrase_organiser_mode_is_off_and_says_so(make_app):
    client = make_app().test_client()
    page = client.get("/organiser").get_data(as_text=True)
    assert "Organiser mode is off" in page and "FLASK_ORGANISER_PASSPHRASE" in page and "<form" not in page
    refused = client.post("/organiser", data={"passphrase": ""})
    assert refused.status_code == 403 and "Organiser mode is off" in refused.get_data(as_text=True)
    assert not signed_in(client)


def test_the_sign_in_page_is_a_form_with_a_password_box(client):
    page = client.get("/organiser").get_data(as_text=True)
    assert 'type="password"' in page and 'name="passphrase"' in page and 'autocomplete="current-password"' in page


def test_a_wrong_passphrase_is_refused_with_a_clear_message(client):
    response = client.post("/organiser", data={"passphrase": "meld seventy-four"})
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and "That is not the organiser passphrase." in page
    assert 'id="passphrase-error"' in page and not signed_in(client)
    empty = client.post("/organiser", data={"passphrase": ""}).get_data(as_text=True)
    assert "Type the organiser passphrase." in empty


def test_the_right_passphrase_signs_in_and_sign_out_signs_out(client):
    response = client.post("/organiser", data={"passphrase": PASSPHRASE})
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert signed_in(client)
    assert "This phone is signed in as the organiser" in client.get("/organiser").get_data(as_text=True)
    assert client.post("/organiser/sign-out").status_code == 303
    assert not signed_in(client)


def test_changing_the_passphrase_signs_every_organiser_out(app, client):
    client.post("/organiser", data={"passphrase": PASSPHRASE})
    app.config["ORGANISER_PASSPHRASE"] = "a new one"
    assert not signed_in(client)
    app.config["ORGANISER_PASSPHRASE"] = None
    assert not signed_in(client), "and no passphrase: nobody is the organiser"


class Clock:
    """The sign-in's clock, moved by hand."""

    def __init__(self, monkeypatch, start=1_000_000.0):
        self.now = start
        monkeypatch.setattr(access.time, "time", lambda: self.now)


def guess(client, passphrase, address="10.0.0.1"):
    return client.post("/organiser", data={"passphrase": passphrase}, environ_base={"REMOTE_ADDR": address}).get_data(
        as_text=True
    )


WAIT = re.compile(r"Too many wrong passphrases were tried: try again in (\d+) (second|minute)s?\.")


def test_each_wrong_guess_doubles_the_wait_from_that_source(app, monkeypatch):
    clock = Clock(monkeypatch)
    stranger, other_browser = app.test_client(), app.test_client()
    assert "That is not" in guess(stranger, "guess 1", "10.0.0.1")  # 1st wrong: the next waits 1 s
    clock.now += 0.5
    assert WAIT.search(guess(other_browser, "guess 2", "10.0.0.1")).groups() == ("1", "second"), "same address"
    clock.now += 0.5
    assert "That is not" in guess(stranger, "guess 2", "10.0.0.1")  # 2nd wrong: 2 s
    clock.now += 1
    assert WAIT.search(guess(stranger, "guess 3", "10.0.0.1")).groups() == ("1", "second")
    clock.now += 1
    assert "That is not" in guess(stranger, "guess 3", "10.0.0.1")  # 3rd wrong: 4 s
    clock.now += 0.5
    assert WAIT.search(guess(stranger, "guess 4", "10.0.0.1")).groups() == ("4", "second"), "3.5 s, rounded up"
    clock.now += 3.5
    assert guess(stranger, PASSPHRASE, "10.0.0.1") and signed_in(stranger), "never a lockout: after the wait it works"
    assert "That is not" in guess(other_browser, "guess 4", "10.0.0.1")  # the right one cleared the count: 1 s again
    clock.now += 0.5
    assert WAIT.search(guess(other_browser, "guess 5", "10.0.0.1")).groups() == ("1", "second")


def test_a_strangers_guesses_never_keep_the_right_passphrase_out_on_another_phone(app, monkeypatch):
    """On main before issue 34 one wait held every address: a stranger guessing each time the wait
    ended kept a new phone with the right passphrase out ("try again in 2 minutes")."""
    clock = Clock(monkeypatch)
    stranger, organiser = app.test_client(), app.test_client()
    for number in range(12):  # a wrong guess each time the wait ends: the wait is at five minutes
        assert "That is not" in guess(stranger, f"guess {number}", "10.0.0.66")
        clock.now += access.delay_after(number + 1)
    clock.now -= 1
    assert WAIT.search(guess(stranger, PASSPHRASE, "10.0.0.66")), "the stranger waits"
    guess(organiser, PASSPHRASE, "10.0.0.7")
    assert signed_in(organiser), "a new phone at another address is checked at once"


def test_a_browser_that_guessed_wrong_waits_at_any_address(app, monkeypatch):
    Clock(monkeypatch)
    stranger = app.test_client()
    stranger.set_cookie(access.COOKIE, "0123456789abcdef" * 2)  # a browser scorepad gave an id
    assert "That is not" in guess(stranger, "guess 1", "10.0.0.1")
    assert WAIT.search(guess(stranger, "guess 2", "10.0.0.2")), "moving to another address does not help"
    assert WAIT.search(guess(app.test_client(), "guess 2", "10.0.0.1")), "nor dropping the cookie"


def test_a_stranger_cannot_sign_the_organiser_out(app):
    """On main before issue 34, POST /organiser/sign-out with the stranger's own form token ended
    the organiser's sign-in everywhere."""
    organiser, stranger, tablet = app.test_client(), app.test_client(), app.test_client()
    guess(organiser, PASSPHRASE, "10.0.0.1")
    guess(tablet, PASSPHRASE, "10.0.0.2")
    assert stranger.post("/organiser/sign-out").status_code == 303
    assert signed_in(organiser) and signed_in(tablet)
    organiser.post("/organiser/sign-out")
    assert not signed_in(organiser) and signed_in(tablet), "signing out ends the session that asks, only"


def test_the_wait_grows_to_five_minutes_and_no_further(app, monkeypatch):
    clock = Clock(monkeypatch)
    client = app.test_client()
    for failures in range(1, 12):
        assert "That is not" in guess(client, f"guess {failures}")
        clock.now += access.delay_after(failures)
    clock.now -= access.delay_after(11)  # just after the 11th wrong guess: 2 ** 10 s, capped at 300
    assert WAIT.search(guess(client, PASSPHRASE)).groups() == ("5", "minute")


def test_the_wait_is_shared_by_every_server_process(make_app, tmp_path, monkeypatch):
    Clock(monkeypatch)
    shared = str(tmp_path / "one-database.db")
    first, second = (make_app(DATABASE=shared, ORGANISER_PASSPHRASE=PASSPHRASE).test_client() for _ in range(2))
    assert "That is not" in guess(first, "guess")
    assert WAIT.search(guess(second, PASSPHRASE)), "another process on the same database waits too"


def test_a_phone_the_organiser_signed_in_from_is_never_held_up(app, monkeypatch):
    clock = Clock(monkeypatch)
    organiser, stranger = app.test_client(), app.test_client()
    guess(organiser, PASSPHRASE)
    organiser.post("/organiser/sign-out")
    for _ in range(5):
        guess(stranger, "guess")
        clock.now += 0.1
    assert WAIT.search(guess(stranger, PASSPHRASE)), "a stranger's browser waits"
    guess(organiser, PASSPHRASE)
    assert signed_in(organiser), "the organiser's own phone signs in at once"


def test_a_copied_organiser_cookie_buys_one_free_guess_at_most(app, monkeypatch):
    clock = Clock(monkeypatch)
    organiser, thief = app.test_client(), app.test_client()
    guess(organiser, PASSPHRASE)
    thief.set_cookie("scorepad_session", organiser.get_cookie("scorepad_session").value)
    organiser.post("/organiser/sign-out")
    copied = organiser.get_cookie("scorepad_session").value  # signed out, but still a known device
    thief.set_cookie("scorepad_session", copied)
    assert "That is not" in guess(thief, "guess 1"), "a known device is checked at once"
    clock.now += 0.1
    thief.set_cookie("scorepad_session", copied)  # replaying the cookie does not help
    assert WAIT.search(guess(thief, "guess 2")), "its wrong guess ended the exemption of every copy"
    clock.now += 1
    guess(organiser, PASSPHRASE)
    assert signed_in(organiser), "after the wait the organiser signs in, and is a known device again"


def test_signing_out_ends_every_copy_of_the_organiser_cookie(app):
    phone, copy = app.test_client(), app.test_client()
    guess(phone, PASSPHRASE)
    cookie = phone.get_cookie("scorepad_session")
    copy.set_cookie("scorepad_session", cookie.value)
    assert signed_in(copy), "a copied cookie is the organiser's while the sign-in lasts"
    phone.post("/organiser/sign-out")
    assert not signed_in(copy) and not signed_in(phone)
    guess(phone, PASSPHRASE)
    assert signed_in(phone) and not signed_in(copy), "a new sign-in does not bring the old cookie back"


def test_the_passphrase_is_compared_in_constant_time(app, monkeypatch):
    calls = []
    real = access.hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(access.hmac, "compare_digest", spy)
    with app.test_request_context():
        assert access.is_passphrase(PASSPHRASE) and not access.is_passphrase("x")
    assert len(calls) == 2 and all(len(a) == len(b) == 64 for a, b in calls), "fixed-length digests, compared whole"


def test_signing_in_needs_the_csrf_token(tmp_path):
    client = create_app(
        {"DATABASE": str(tmp_path / "csrf.db"), "SECRET_KEY": "t", "ORGANISER_PASSPHRASE": PASSPHRASE}
    ).test_client()
    refused = client.post("/organiser", data={"passphrase": PASSPHRASE})
    assert (refused.status_code, refused.headers["Location"]) == (303, "/organiser")  # back, with a flash
    assert 'id="organiser-on"' not in client.get("/organiser").get_data(as_text=True)
    token = re.search(
        r'name="csrf_token" type="hidden" value="([^"]+)"', client.get("/organiser").get_data(as_text=True)
    )
    response = client.post("/organiser", data={"passphrase": PASSPHRASE, "csrf_token": token[1]})
    assert response.status_code == 303


def test_the_home_page_links_to_the_organiser_page(client):
    assert 'href="/organiser"' in client.get("/").get_data(as_text=True)
