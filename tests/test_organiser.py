"""Organiser mode: off without a passphrase, a sign-in that says what went wrong, a bounded
rate of guesses, and a sign-out."""

import re

import pytest

from scorepad import access, create_app

PASSPHRASE = "meld seventy-five"


def make_app(tmp_path, **config):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "organiser.db"),
            "SECRET_KEY": "test-only",
            "WTF_CSRF_ENABLED": False,
            **config,
        }
    )


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path, ORGANISER_PASSPHRASE=PASSPHRASE)


@pytest.fixture
def client(app):
    return app.test_client()


def signed_in(client):
    return 'id="organiser-note"' in client.get("/").get_data(as_text=True)


def test_without_a_passphrase_organiser_mode_is_off_and_says_so(tmp_path):
    client = make_app(tmp_path).test_client()
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


def test_guessing_is_slowed_after_five_wrong_passphrases(client):
    for _ in range(access.MAX_FAILURES):
        assert "That is not" in client.post("/organiser", data={"passphrase": "guess"}).get_data(as_text=True)
    page = client.post("/organiser", data={"passphrase": PASSPHRASE}).get_data(as_text=True)
    assert re.search(r"Too many wrong passphrases from here: try again in \d+ minutes?\.", page)
    assert not signed_in(client), "not even the right passphrase gets in while waiting"


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
