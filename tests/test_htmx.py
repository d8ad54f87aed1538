"""wants_fragment(): only real partial swaps get a fragment."""

import pytest
from flask import Flask

from scorepad.htmx import wants_fragment

DEFAULTS = {"option_target": "5000", "option_canastas_to_go_out": "1", "option_restore_pile_penalty": "0"}


@pytest.mark.parametrize(
    ("headers", "fragment"),
    [
        ({}, False),
        ({"HX-Request": "true"}, True),
        ({"HX-Request": "true", "HX-Boosted": "true"}, False),
        ({"HX-Request": "true", "HX-History-Restore-Request": "true"}, False),
        ({"HX-Request": "true", "HX-Request-Type": "full"}, False),
        ({"HX-Request": "true", "HX-Request-Type": "partial"}, True),
    ],
)
def test_wants_fragment(headers, fragment):
    app = Flask(__name__)
    with app.test_request_context("/", headers=headers):
        assert wants_fragment() is fragment


def test_the_sheet_is_a_page_or_a_fragment(client):
    created = client.post("/matches/new/classic", data={"side_0": "We", "side_1": "They", **DEFAULTS})
    url = created.headers["Location"]
    page = client.get(f"{url}/sheet")
    assert b"<html" in page.data and "HX-Request" in page.headers["Vary"]
    fragment = client.get(f"{url}/sheet", headers={"HX-Request": "true"})
    assert b"<html" not in fragment.data and b'id="sheet"' in fragment.data
    assert "HX-Request" in fragment.headers["Vary"]
    boosted = client.get(f"{url}/sheet", headers={"HX-Request": "true", "HX-Boosted": "true"})
    assert b"<html" in boosted.data
