"""Fuzzing every HTML form and every API route with Hypothesis.

For any body a phone or a script can send: no 5xx, ever; every refusal is a 4xx or a form shown
again (status 200) with a message; and nothing is stored from a refused request (the rows of
every table are counted before and after). CSRF is off here; tests/test_security.py covers it.

CI runs a few dozen examples per route (well under a minute). The long run sends more than
10,000 requests:

    SCOREPAD_FUZZ_EXAMPLES=1000 python -m pytest tests/test_fuzz.py -q -s

(``-s`` shows the count of requests sent, printed at the end of the module.)
"""

import json
import os
import re
import sqlite3
from collections import Counter
from html.parser import HTMLParser

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from scorepad import canasta, create_app, store
from scorepad.db import connect
from scorepad.documents import Side
from scorepad.forms import version_number

EXAMPLES = int(os.environ.get("SCOREPAD_FUZZ_EXAMPLES", "30"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,  # every run explores afresh; a failure prints its example
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
SENT: Counter = Counter()
pytestmark = pytest.mark.slow  # a large generated fuzz run: CI runs it, the quick command does not
VARIANTS = sorted(canasta.VARIANTS)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    return create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "fuzz", "WTF_CSRF_ENABLED": False})


@pytest.fixture(scope="module", autouse=True)
def report(request):
    yield
    total = sum(SENT.values())
    print(f"\nfuzz: {total} requests ({EXAMPLES} examples per test): " + ", ".join(f"{k} {v}" for k, v in SENT.items()))


# --- what is sent ------------------------------------------------------------------------------
WORDS = [
    "",
    " ",
    "0",
    "-0",
    "-1",
    "5",
    "120",
    "1e5",
    "1.5",
    "NaN",
    "inf",
    "-inf",
    "0x10",
    "1_000",
    "１２",
    "٣",
    "9" * 19,
    "9" * 310,
    "-" + "9" * 400,
    "1" + "0" * 5000,
    "null",
    "true",
    "y",
    "on",
    "[]",
    "{}",
    "\x00",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "😀" * 40,
    "a" * 61,
    "A" * 3000,
    # Hostile text: control characters, and house rules (the checker's JSON field) that are deep,
    # hold a lone surrogate, or a control character.
    "We\nThey",
    "\x1b[31mred",
    "\u0085",
    "K" + " " * 3000,
    '{"a":' * 5000 + "1" + "}" * 5000,
    "[" * 990 + "]" * 990,
    '{"target": "\\ud800"}',
    '{"\\udfff": 1}',
    '{"target": "1\\u0000"}',
]
TEXT_VALUE = st.one_of(
    st.sampled_from(WORDS),
    st.integers().map(str),
    st.integers(min_value=-(10**400), max_value=10**400).map(str),
    st.floats().map(str),
    st.text(max_size=40),
)
# Text no one types: lone surrogates (json.dumps writes them as \ud800, which JSON allows) and
# control characters, alone or around a card or an id.
HOSTILE_TEXT = st.one_of(
    st.text(st.characters(categories=["Cs", "Cc"]), min_size=1, max_size=4),
    st.builds(
        lambda a, b: a + b,
        st.sampled_from(["K", "3H", "classic", "natural", "meld", ""]),
        st.sampled_from(["\ud800", "\udfff", "\x00", "\n", "\t", "\x7f", "\x9b"]),
    ),
    st.sampled_from(["K" * 101, " " * 5000 + "K"]),
)
JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**400), max_value=10**400),
    st.floats(),
    st.text(max_size=20),
    HOSTILE_TEXT,
    st.sampled_from(["K", "JK", "2C", "3H", "3S", "10", "classic", "natural", "meld", "pickup", "go_out", "discard"]),
)
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12) | HOSTILE_TEXT, children, max_size=5)
    ),
    max_leaves=20,
)


def nested(depth: int, inner: object = 1) -> str:
    """JSON text of ``depth`` objects and lists inside one another (json.dumps would recurse)."""
    opening = "".join('{"a": ' if i % 2 else "[" for i in range(depth))
    closing = "".join("}" if i % 2 else "]" for i in reversed(range(depth)))
    return opening + json.dumps(inner) + closing


DEEP = st.builds(nested, st.integers(1, 5000), JSON_LEAF)


def form_body(names, valid):
    """A form body: a valid one with fields changed, dropped, repeated (arrays) or made up (nesting)."""
    known = st.sampled_from(sorted(names)) if names else st.text(max_size=10)
    made_up = st.one_of(
        st.text(max_size=20),
        st.builds(lambda n, i: re.sub(r"-\d+-", f"-{i}-", n, count=1), known, st.integers(-3, 99)),
        st.builds(lambda n, s: n + s, known, st.sampled_from(["[]", "[0]", ".x", "-0", "-0-x", "__class__"])),
    )
    changes = st.dictionaries(known | made_up, st.lists(TEXT_VALUE, min_size=1, max_size=3), max_size=8)
    dropped = st.sets(st.sampled_from(sorted(valid)), max_size=4) if valid else st.just(set())

    def build(changes, dropped):
        body = MultiDict({k: v for k, v in valid.items() if k not in dropped})
        for key, values in changes.items():
            body.setlist(key, values)
        return body

    return st.builds(build, changes, dropped)


# --- the oracle --------------------------------------------------------------------------------
def rows(app):
    """How many rows each table holds (table names come from the database, not the tests)."""
    with sqlite3.connect(app.config["DATABASE"]) as db:
        names = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        counts = {name: db.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in names}
    db.close()
    return counts


def send(app, kind, method, url, **kwargs):
    SENT[kind] += 1
    client = app.test_client()
    response = client.open(url, method=method, **kwargs)
    response.close()
    assert response.status_code < 500, (url, response.status_code, response.get_data(as_text=True)[:2000])
    return response


class Messages(HTMLParser):
    """The words inside error elements (``class="error"``) and alerts (``role="alert"``)."""

    VOID = {"input", "br", "img", "meta", "link", "hr"}

    def __init__(self):
        super().__init__()
        self.depth = 0  # how deep inside a message element we are (0: outside)
        self.words = []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        attrs = dict(attrs)
        if self.depth or "error" in (attrs.get("class") or "").split() or attrs.get("role") == "alert":
            self.depth += 1

    def handle_endtag(self, tag):
        if self.depth and tag not in self.VOID:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth and data.strip():
            self.words.append(data.strip())


def messages(html):
    parser = Messages()
    parser.feed(html)
    return parser.words


def refused_with_a_message(response):
    """A refusal: 4xx with a message, or the form again (200) with at least one error on it."""
    body = response.get_data(as_text=True)
    if response.status_code == 200:
        return bool(messages(body))
    if response.is_json:
        errors = response.get_json()["errors"]
        return bool(errors) and all(isinstance(e["message"], str) and e["message"] for e in errors)
    return 400 <= response.status_code < 500 and bool(body.strip())


def post_form(app, kind, url, body, may_store):
    """Post a form: success is a 303 (and may store); anything else is a refusal that stores nothing."""
    before = rows(app)
    response = send(app, kind, "POST", url, data=body)
    if response.status_code == 303 and may_store:
        return response
    assert refused_with_a_message(response), (url, body, response.status_code, response.get_data(as_text=True)[:3000])
    assert rows(app) == before, (url, body, "a refused request stored something")
    return response


def new_stored_match(app, variant="classic", hands=0):
    rules = canasta.rules_for(variant)
    names = [Side(name) for name in rules.side_names]
    db = connect(app.config["DATABASE"])
    try:
        match_id = store.create_match(db, rules, names)
        entries = [{"melded_points": 50}] + [{}] * (rules.sides - 1)
        for number in range(hands):
            store.add_hand(db, match_id, canasta.Hand.from_dict({"entries": entries}), number + 1)
        return match_id, store.get_match(db, match_id).version
    finally:
        db.close()


NAMES: dict[object, set[str]] = {}


def field_names(app, url, key=None):
    """The names of the boxes a page's form has (cached per ``key``: the same for every match of a variant)."""
    key = key or url
    if key not in NAMES:
        html = app.test_client().get(url).get_data(as_text=True)
        NAMES[key] = set(re.findall(r'name="([^"]+)"', html)) - {
            "viewport",
            "color-scheme",
            "theme-color",
            "htmx-config",
        }
    return NAMES[key]


# --- the HTML forms ------------------------------------------------------------------------------
VALID_MATCH = {"side_0": "We", "side_1": "They", "option_target": "5000"}


@FUZZ
@given(data=st.data(), variant=st.sampled_from(VARIANTS))
def test_new_match_form(app, data, variant):
    names = field_names(app, f"/matches/new/{variant}")
    body = data.draw(form_body(names, VALID_MATCH))
    post_form(app, "new match", f"/matches/new/{variant}", body, may_store=True)


VALID_HAND = {"sides-0-melded_points": "120", "sides-1-melded_points": "90", "sides-1-hand_points": "5"}


@FUZZ
@given(data=st.data(), variant=st.sampled_from(VARIANTS), edit=st.booleans())
def test_hand_form_add_and_edit(app, data, variant, edit):
    match_id, version = new_stored_match(app, variant, hands=1 if edit else 0)
    url = f"/matches/{match_id}/hands/1" if edit else f"/matches/{match_id}/hands"
    names = field_names(app, f"{url}/edit" if edit else f"/matches/{match_id}/hands/new", key=(variant, edit))
    body = data.draw(form_body(names, {**VALID_HAND, "version": str(version)}))
    post_form(app, "hand form", url, body, may_store=True)


@FUZZ
@given(
    data=st.data(), variant=st.sampled_from(VARIANTS), number=st.sampled_from(["", "1", "0", "2", "-1", "x", "9" * 30])
)
def test_hand_preview(app, data, variant, number):
    match_id, _version = new_stored_match(app, variant, hands=1)
    names = field_names(app, f"/matches/{match_id}/hands/new", key=(variant, False))
    body = data.draw(form_body(names, VALID_HAND))
    before = rows(app)
    url = f"/matches/{match_id}/hands/preview" + (f"?number={number}" if number else "")
    response = send(app, "preview", "POST", url, data=body)
    # 413: a form over the 64 KB a hand form may take (security.py), refused before it is read.
    assert response.status_code in (200, 404, 413)
    assert rows(app) == before, "the preview never stores"


@FUZZ
@given(
    action=st.sampled_from(["hands/undo", "hands/restore", "delete", "restore"]),
    body=form_body({"version"}, {}),
    prepare=st.sampled_from(["plain", "undone", "deleted"]),
)
def test_one_button_forms(app, action, body, prepare):
    """Undo, put back, delete and restore change something only for the version the page showed."""
    match_id, version = new_stored_match(app, hands=2)
    db = connect(app.config["DATABASE"])
    try:
        if prepare == "undone":
            version = store.get_match(db, match_id).version
            store.undo_last_hand(db, match_id, version)
        elif prepare == "deleted":
            store.delete_match(db, match_id, version)
        version = store.get_match(db, match_id).version
    finally:
        db.close()
    before = rows(app)
    response = send(app, "one-button", "POST", f"/matches/{match_id}/{action}", data=body)
    assert response.status_code in (303, 404, 413)  # 413: a body over the 64 KB a form takes
    sent_version = version_number(body.get("version"))
    if action != "restore" and sent_version != version:
        assert rows(app) == before, (action, body, "a stale or malformed version changed the match")


@FUZZ
@given(
    content=st.one_of(
        st.binary(max_size=200),
        JSON_VALUE.map(lambda value: json.dumps(value).encode()),
        st.builds(
            lambda fmt, matches: json.dumps({"format": fmt, "matches": matches}).encode(),
            st.sampled_from(["scorepad-matches/1", "scorepad-match/1", "x"]) | JSON_VALUE,
            st.lists(JSON_VALUE, max_size=3) | JSON_VALUE,
        ),
    ),
    filename=st.text(max_size=20),
)
def test_import(app, content, filename):
    from io import BytesIO

    body = {"file": (BytesIO(content), filename or "x")}
    before = rows(app)
    response = send(app, "import", "POST", "/import", data=body, content_type="multipart/form-data")
    if response.status_code != 303:
        assert refused_with_a_message(response)
        assert rows(app) == before


CHECKER_FIELDS = {
    "variant",
    "options",
    "match",
    "side",
    "score",
    "action",
    "target",
    "suit",
    "hand",
    "melds",
    "table",
    "top",
    "discard",
    "frozen",
    "one_card_pile",
    "took_pile",
    "op",
    "house_rules_for",
    "opt.max_wilds",
    "opt.decks",
    "opt.canastas_to_go_out",
    "opt.sequences",
    "opt.pickup_with_wild",
}
CHECKER_VALID = {"variant": "classic", "house_rules_for": "classic", "hand": "K K Q", "melds": "K K K"}


@FUZZ
@given(data=st.data(), url=st.sampled_from(["/check", "/check/verdict"]))
def test_checker_page(app, data, url):
    body = data.draw(form_body(CHECKER_FIELDS | field_names(app, "/check"), CHECKER_VALID))
    before = rows(app)
    assert send(app, "checker", "POST", url, data=body).status_code in (200, 413)  # 413: over the 64 KB a form takes
    assert rows(app) == before


# --- the API -------------------------------------------------------------------------------------
ENTRY_FIELDS = [
    "melded_points",
    "hand_points",
    "melded_cards",
    "hand_cards",
    "canastas",
    "red_threes",
    "black_threes",
    "black_threes_in_hand",
    "went_out",
    "concealed",
    "special_hand",
    "penalty_points",
    "restored_piles",
    "held_sets",
    "incomplete",
]
ENTRY = st.dictionaries(st.sampled_from(ENTRY_FIELDS) | st.text(max_size=8), JSON_VALUE, max_size=5)
HAND_DOC = st.one_of(
    st.fixed_dictionaries({"entries": st.lists(ENTRY, max_size=5)}, optional={"partnership": JSON_VALUE}),
    JSON_VALUE,
)
SCORE_REQUEST = st.fixed_dictionaries(
    {},
    optional={
        "variant": st.sampled_from(VARIANTS) | JSON_VALUE,
        "options": st.dictionaries(st.sampled_from(["target", "max_wilds", "decks"]) | st.text(max_size=8), JSON_VALUE)
        | JSON_VALUE,
        "hands": st.lists(HAND_DOC, max_size=4) | JSON_VALUE,
        "starting_totals": st.lists(JSON_LEAF, max_size=4) | JSON_VALUE,
        "extra": JSON_VALUE,
    },
)
CARDS = st.lists(st.sampled_from(["K", "Q", "2C", "JK", "3H", "3S", "7H", "10", "A"]) | JSON_LEAF, max_size=8)
CHECK_REQUEST = st.fixed_dictionaries(
    {},
    optional={
        "variant": st.sampled_from(VARIANTS) | JSON_VALUE,
        "options": JSON_VALUE,
        "action": st.sampled_from(["meld", "pickup", "go_out", "discard"]) | JSON_VALUE,
        "hand": CARDS | JSON_VALUE,
        "table": st.lists(CARDS, max_size=3) | JSON_VALUE,
        "melds": st.lists(CARDS, max_size=3) | JSON_VALUE,
        "initial_meld_done": JSON_VALUE,
        "score": JSON_LEAF,
        "pile": st.fixed_dictionaries({}, optional={"top": JSON_LEAF, "frozen": JSON_LEAF, "size": JSON_LEAF})
        | JSON_VALUE,
        "discard": JSON_LEAF,
        "stock_empty": JSON_VALUE,
        "took_pile": JSON_VALUE,
    },
)


def api_body(structured):
    return st.one_of(
        structured.map(lambda value: json.dumps(value).encode()),
        JSON_VALUE.map(lambda value: json.dumps(value).encode()),
        st.binary(max_size=100),
        st.sampled_from([b"", b"[" * 5000, b"{" * 100000, b"1" * 5000, b'{"variant": "classic"', b"\xff\xfe"]),
        # A field of a likely request nested deep (options 5,000 deep was a RecursionError).
        st.builds(
            lambda field, deep: (
                f'{{"variant": "classic", "action": "meld", "hand": ["K"], "{field}": {deep}}}'.encode()
            ),
            st.sampled_from(["options", "hand", "hands", "melds", "table", "pile"]),
            DEEP,
        ),
    )


def post_api(app, kind, url, body, content_type):
    before = rows(app)
    response = send(app, kind, "POST", url, data=body, content_type=content_type)
    assert response.is_json
    if content_type != "application/json":  # refused before the body is read
        assert response.status_code == 415, response.status_code
    if response.status_code != 200:
        assert response.status_code in (400, 413, 415, 422), response.status_code
        assert refused_with_a_message(response)
    assert rows(app) == before


@FUZZ
@given(body=api_body(SCORE_REQUEST), content_type=st.sampled_from(["application/json", "text/plain", "x/y"]))
def test_api_score(app, body, content_type):
    post_api(app, "api score", "/api/v1/score", body, content_type)


@FUZZ
@given(body=api_body(CHECK_REQUEST), content_type=st.sampled_from(["application/json", "text/plain"]))
def test_api_check(app, body, content_type):
    post_api(app, "api check", "/api/v1/check", body, content_type)


@FUZZ
@given(match_id=st.text(min_size=1, max_size=40), method=st.sampled_from(["GET", "POST", "DELETE"]))
def test_api_match_and_variants(app, match_id, method):
    from urllib.parse import quote

    response = send(app, "api match", method, f"/api/v1/matches/{quote(match_id, safe='')}")
    if response.status_code != 308:  # 308: "//" in the path (an id of "/0"), routing merges the slashes
        assert response.is_json and response.status_code in (200, 404, 405)
        if response.status_code != 200:
            assert refused_with_a_message(response)
    variants = send(app, "api variants", "GET", "/api/v1/variants", query_string={"q": match_id})
    assert variants.status_code == 200 and variants.get_json()["variants"]
