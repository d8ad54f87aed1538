"""Hostile imports cost nothing (issue 18): caps, flat problems, text that is not text, privacy,
and matches that stay out of sight until their import ends."""

import json
import re
import time
import tracemalloc

import pytest

from scorepad import backups, canasta, cli, formats, store
from scorepad.canasta import InvalidError
from scorepad.db import connect
from scorepad.documents import ALL_FORMAT, MatchInfo, Side, match_document

HANDS = [{"entries": [{"melded_points": 650}, {"melded_points": 500}]}] * 2
MALFORMED_ID = "0000000000000000"  # kept by no import: the file's id is replaced and remembered


def backup(*documents) -> str:
    return json.dumps({"format": ALL_FORMAT, "format_version": 1, "matches": list(documents)})


def a_match(**changes) -> dict:
    """A small match's document, with ``changes`` to its fields."""
    match = canasta.score_match("classic", HANDS)
    info = MatchInfo(store.new_token(), (Side("We", ("Ann",)), Side("They", ("Cy",))), "2025-01-04T20:00:00+00:00")
    return match_document(match, info) | changes


def upload(client, text: str):
    """Post ``text`` as the Import page's file; the body is made here, as werkzeug's test client
    would spool a large one to a temporary file it leaves open."""
    boundary = "scorepad-test-boundary"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="backup.json"\r\n'
            "Content-Type: application/json\r\n\r\n"
        ).encode()
        + text.encode("utf-8", "surrogatepass")
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return client.post("/import", data=body, content_type=f"multipart/form-data; boundary={boundary}")


def flashed(client) -> str:
    page = client.get("/import").data.decode()
    return re.search(r'<p class="import-done" role="status">(.*?)</p>', page, re.S)[1].strip()


# --- caps: named, and refused before anything is read -------------------------------------
def test_two_hundred_thousand_empty_entries_are_refused_at_once_naming_the_cap(client):
    """The issue's 600 KB file that got the server killed: a 200 and one line, in bounded memory."""
    text = '{"format": "scorepad-matches", "format_version": 1, "matches": [' + ",".join(["{}"] * 200_000) + "]}"
    tracemalloc.start()
    started = time.process_time()
    try:
        response = upload(client, text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    page = response.data.decode()
    assert response.status_code == 200 and "1 problem." in page
    assert "The Import page takes at most 2,000 matches at once; this file has 200,000." in page
    # The parsed list itself is about 13 MB under tracemalloc; nothing is read match by match.
    assert peak < 40_000_000 and time.process_time() - started < 10


def test_a_match_of_more_than_a_thousand_hands_is_refused_before_it_is_scored():
    document = a_match(hands=[HANDS[0]] * 1001)
    with pytest.raises(InvalidError) as refused:
        formats.read_all_matches_document(json.loads(backup(document)))
    [problem] = refused.value.violations
    assert (problem.code, problem.field) == ("too-many-hands", "matches[0].hands")
    assert problem.message == "A match can hold at most 1,000 hands; this one has 1,001."


def test_the_command_line_takes_more_matches_than_the_page(tmp_path, capsys):
    many = {"format": ALL_FORMAT, "format_version": 1, "matches": [a_match(id=store.new_token()) for _ in range(3)]}
    with pytest.raises(InvalidError):
        formats.read_all_matches_document(many, limits=formats.Limits(matches=2))
    assert len(formats.read_all_matches_document(many, limits=formats.Limits(matches=None))) == 3
    assert formats.COMMAND_LIMITS.matches is None and formats.WEB_LIMITS.matches == 2_000
    assert formats.COMMAND_LIMITS.all_hands is None and formats.WEB_LIMITS.all_hands == 10_000


def test_a_file_of_long_matches_is_refused_at_ten_thousand_hands_before_any_is_scored(client):
    """The work of an import is its hands as much as its matches: 10,002 hands (each of 10 matches
    at the 1,000 a match may hold, and one more with an undone hand) are refused naming the cap
    and the command that takes any size, in the CPU time of reading the file, not of scoring it
    (about 2.5 s here)."""
    nothing = {"entries": [{}, {}]}  # a hand where nobody melded: a thousand of them leave a match at 0 to 0
    documents = [a_match(id=store.new_token(), hands=[nothing] * 1000) for _ in range(10)]
    documents.append(a_match(id=store.new_token(), hands=[nothing], undone=[nothing]))
    started = time.process_time()
    response = upload(client, backup(*documents))
    spent = time.process_time() - started
    page = response.data.decode()
    assert response.status_code == 200 and "1 problem." in page
    assert "The Import page takes at most 10,000 hands at once" in page and "this file has 10,002." in page
    assert "&#39;scorepad import&#39; on the server&#39;s computer" in page
    assert spent < 1.0 and support_count(client) == 0


def test_undone_hands_and_each_version_of_a_corrected_hand_count_as_hands():
    corrected = HANDS[0] | {"history": [{"action": "add"}, {"action": "edit"}]}
    document = a_match(hands=[corrected, HANDS[0]], undone=[HANDS[0]])  # 2 played, 2 versions, 1 undone
    [problem] = refusal(json.loads(backup(document)), formats.Limits(all_hands=4)).violations
    assert (problem.code, problem.field) == ("too-many-hands-in-all", "matches")
    assert problem.message.startswith("The Import page takes at most 4 hands at once") and "has 5." in problem.message
    at_the_cap = refusal(json.loads(backup(document)), formats.Limits(all_hands=5))  # read: its versions are bad
    assert "too-many-hands-in-all" not in {problem.code for problem in at_the_cap.violations}


@pytest.mark.slow
def test_an_import_through_the_page_costs_in_proportion_to_its_matches(app):
    """Four times the matches cost about four times the memory and CPU through the whole page
    (read, checked, planned, written); the square would be sixteen."""

    def cost(count: int) -> tuple[int, float]:
        text = backup(*[a_match(id=store.new_token()) for _ in range(count)])
        tracemalloc.start()
        started = time.process_time()
        try:
            response = upload(app.test_client(), text)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert response.status_code == 303
        return peak, time.process_time() - started

    cost(20)  # warm the caches of the first call
    small, large = cost(100), cost(400)
    assert large[0] < 6 * small[0], (small, large)
    assert large[1] < 6 * small[1] + 0.3, (small, large)


# --- problems are collected flat: the first fifty, then a count ------------------------------
def empty_entries(count: int) -> dict:
    return {"format": ALL_FORMAT, "format_version": 1, "matches": [{} for _ in range(count)]}


def refusal(data, limits=formats.WEB_LIMITS) -> InvalidError:
    with pytest.raises(InvalidError) as refused:
        formats.read_all_matches_document(data, limits=limits)
    return refused.value


def test_only_the_first_fifty_problems_are_listed_and_the_rest_counted():
    # Each {} lacks an id, its sides and its hands: 3 problems, 3,000 for a thousand of them.
    error = refusal(empty_entries(1000))
    assert len(error.violations) == 51 and error.total == 3000
    assert [v.field for v in error.violations[:3]] == ["matches[0].id", "matches[0].sides", "matches[0].hands"]
    assert error.violations[-1].code == "more-problems"
    assert error.violations[-1].message == "…and 2,950 more problems."


def test_refusing_grows_in_proportion_to_the_file_never_its_square():
    """Four times the entries cost about four times the memory and time; the square would be 16."""

    def cost(count: int) -> tuple[int, float]:
        """The peak memory and the fastest of three runs (the machine is shared)."""
        data = empty_entries(count)
        peaks, times = [], []
        for _ in range(3):
            tracemalloc.start()
            started = time.process_time()
            try:
                refusal(data, formats.COMMAND_LIMITS)  # more than the page's 2,000 matches: every one is read
                peaks.append(tracemalloc.get_traced_memory()[1])
            finally:
                tracemalloc.stop()
            times.append(time.process_time() - started)
        return max(peaks), min(times)

    cost(500)  # warm the caches of the first call
    small, large = cost(2_000), cost(8_000)
    assert large[0] < 8 * small[0] and large[0] < 20_000_000, (small, large)
    assert large[1] < 10 * small[1] + 0.5, (small, large)


def test_the_page_counts_every_problem_and_lists_fifty(client):
    response = upload(client, json.dumps(empty_entries(100)))
    page = response.data.decode()
    assert response.status_code == 200 and "300 problems." in page
    assert page.count("<li><code>") == 51 and "…and 250 more problems." in page


# --- text that is not text -----------------------------------------------------------------
BROKEN = [
    ("sides", [{"name": "\ud800", "players": []}, {"name": "They", "players": []}], "matches[0].sides[0].name"),
    ("sides", [{"name": "We", "players": ["Ann", "C\udfffy"]}, {"name": "They"}], "matches[0].sides[0].players[1]"),
    ("sides", [{"name": "We", "players": []}, {"name": "They\x07", "players": []}], "matches[0].sides[1].name"),
    ("title", "Friday\ud83d", "matches[0].title"),
    ("title", "Friday\u2028night", "matches[0].title"),
    ("created", "2025-01-04\x00", "matches[0].created"),
]


@pytest.mark.parametrize(("key", "value", "field"), BROKEN)
def test_a_broken_name_or_title_is_refused_naming_the_match_and_field(client, key, value, field):
    response = upload(client, backup(a_match(**{key: value})))
    page = response.data.decode()
    assert response.status_code == 200 and "was not imported" in page
    assert f"<li><code>{field}</code>" in page and "1 problem." in page
    assert 'name="file"' in page, "the form comes back"
    assert support_count(client) == 0


def support_count(client) -> int:
    db = connect(client.application.config["DATABASE"])
    try:
        return db.execute("select count(*) from matches").fetchone()[0]
    finally:
        db.close()


def test_emoji_and_accents_are_text(client):
    response = upload(client, backup(a_match(title="Café 👩‍👩‍👧", sides=[{"name": "Nós"}, {"name": "Ellos ♠"}])))
    assert response.status_code == 303 and flashed(client) == "Imported 1 match."


def test_the_command_line_says_so_in_one_line_per_problem(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_bytes(backup(a_match(title="\ud800")).encode("utf-8", "surrogatepass"))
    database = tmp_path / "typo.db"
    assert cli.main(["import", str(bad), "--database", str(database)]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [
        f"{bad} was not imported; nothing was written: matches[0].title: This holds a control character "
        "or a broken character (a lone surrogate); type it again as plain text."
    ]
    assert not database.exists(), "a refused file creates no database"


def test_a_value_quoted_in_a_message_is_short_and_readable():
    error = refusal({"format": "x\ud800" * 1000, "matches": []})
    [problem, broken] = error.violations
    assert "\ud800" not in problem.message and len(problem.message) < 200
    assert problem.message.startswith("This is not a scorepad export: 'format' is 'x\ufffdx\ufffd")
    assert (broken.code, broken.field) == ("unreadable-text", "format")


# Every text of a file is checked before any match is read: the core's messages quote what they
# refuse (an unknown variant, card or field), and a page or a terminal cannot show a lone surrogate.
ANYWHERE = [
    ({"variant": "\ud800"}, "matches[0].variant"),
    ({"options": {"\ud800": 1}}, "matches[0].options.\ufffd"),
    ({"hands": [{"entries": [{"\ud800": 1}, {}]}]}, "matches[0].hands[0].entries[0].\ufffd"),
    (
        {"hands": [{"entries": [{"melded_cards": {"K\ud800": 1}}, {}]}]},
        "matches[0].hands[0].entries[0].melded_cards.K\ufffd",
    ),
    ({"hands": [{"entries": [{"special_hand": "\x1b[2J"}, {}]}]}, "matches[0].hands[0].entries[0].special_hand"),
    ({"hands": [{"entries": [{"incomplete": ["\ud800"]}, {}]}]}, "matches[0].hands[0].entries[0].incomplete[0]"),
]


@pytest.mark.parametrize(("changes", "field"), ANYWHERE)
def test_text_that_is_not_text_is_refused_wherever_it_is(client, changes, field):
    response = upload(client, backup(a_match(**changes)))
    page = response.data.decode()
    assert response.status_code == 200 and "1 problem." in page
    assert f"<li><code>{field}</code>" in page


def test_export_and_rescore_of_a_missing_default_database_create_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("FLASK_DATABASE", raising=False)
    monkeypatch.setattr(cli.common, "default_database", lambda: str(tmp_path / "instance" / "scorepad.db"))
    assert cli.main(["export", str(tmp_path / "out.json")]) == 1
    assert cli.main(["rescore"]) == 1
    assert "there is no database at" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


# --- another browser's match is never handed out ---------------------------------------------
def test_a_stranger_with_the_same_file_gets_a_copy_and_learns_nothing(app):
    """The issue's case: a match imported from a file whose id was not well formed."""
    owner, stranger = app.test_client(), app.test_client()
    text = backup(a_match(id=MALFORMED_ID))
    assert upload(owner, text).status_code == 303 and flashed(owner) == "Imported 1 match."
    [mine] = listed(owner)
    assert upload(owner, text).status_code == 303
    assert flashed(owner) == "Nothing new to import; 1 match was already here and was left as it is."
    # The stranger is told exactly what a first import says: no "already here", no lookalike.
    assert upload(stranger, text).status_code == 303 and flashed(stranger) == "Imported 1 match."
    [theirs] = listed(stranger)
    assert theirs != mine and listed(owner) == [mine]
    assert upload(stranger, text).status_code == 303
    assert flashed(stranger) == "Nothing new to import; 1 match was already here and was left as it is."


def test_the_lookalike_hint_compares_only_the_importers_own_matches(app):
    owner, stranger = app.test_client(), app.test_client()
    first = a_match(id=store.new_token())
    assert upload(owner, backup(first)).status_code == 303 and flashed(owner) == "Imported 1 match."
    edited = first | {"id": store.new_token()}  # same start and sides under another id
    assert upload(stranger, backup(edited)).status_code == 303 and flashed(stranger) == "Imported 1 match."
    again = first | {"id": store.new_token()}
    assert upload(owner, backup(again)).status_code == 303
    assert "looks like a match already here" in flashed(owner)


def test_the_holder_of_a_kept_id_has_its_write_link_and_lists_it(app):
    owner, holder = app.test_client(), app.test_client()
    text = backup(a_match(id="0123456789abcdef" * 2))
    assert upload(owner, text).status_code == 303
    assert upload(holder, text).status_code == 303
    assert flashed(holder) == "Nothing new to import; 1 match was already here and was left as it is."
    assert listed(holder) == ["0123456789abcdef" * 2]


def listed(client) -> list[str]:
    document = json.loads(client.get("/export/matches.json").data)
    return [match["id"] for match in document["matches"]]


# --- out of sight until the last batch commits ---------------------------------------------
def test_matches_of_an_unfinished_import_are_nowhere_to_be_seen(app, monkeypatch):
    """Batches of one match: while the second is written, the first (committed) is hidden."""
    monkeypatch.setattr(store.imports, "IMPORT_BATCH_MATCHES", 1)
    pairs = formats.read_all_matches_document(json.loads(backup(a_match(), a_match())))
    first = pairs[0][1].id
    seen = []

    def look(done: int, count: int) -> None:
        if done == 2:  # inside the second batch's transaction, the first one committed
            other = connect(app.config["DATABASE"])
            try:
                assert other.execute("select count(*) from matches where pending is not null").fetchone()[0] == 1
                seen.append(store.count_matches(other))
                seen.append(len(store.match_page(other).items))
                seen.append(len(store.result_rows(other)))
                seen.append(store.count_unlisted(other))
                for lookup in (store.match_head, store.get_match, store.current_version):
                    with pytest.raises(store.NotFoundError):
                        lookup(other, first)
            finally:
                other.close()

    db = connect(app.config["DATABASE"])
    try:
        assert backups.save_import(db, backups.plan_import(db, pairs), look, browser="b" * 32) == 2
        assert store.count_matches(db) == 2 and store.count_matches(db, store.Viewer("b" * 32)) == 2
        assert db.execute("select count(*) from matches where pending is not null").fetchone()[0] == 0
    finally:
        db.close()
    assert seen == [0, 0, 0, 0]


def test_an_abandoned_import_is_removed_a_day_later(app):
    db = connect(app.config["DATABASE"])
    try:
        match, info = formats.read_all_matches_document(json.loads(backup(a_match())))[0]
        store.save_imported_match(db, match, info, pending="2020-01-01T00:00:00+00:00 killed")
        fresh = MatchInfo(store.new_token(), info.sides, info.created)
        store.save_imported_match(db, match, fresh, pending=f"{store.now()} still running")
        backups.save_import(db, backups.ImportPlan([], []))
        left = [row[0] for row in db.execute("select id from matches")]
        hands = db.execute("select count(*) from hands where match_id = ?", [info.id]).fetchone()[0]
    finally:
        db.close()
    assert left == [fresh.id] and hands == 0


def test_a_problem_after_a_written_batch_refuses_the_file_and_leaves_no_row(client, monkeypatch):
    """The page reads and writes a batch at a time: the first two matches are written (out of
    sight) before the fifth's problem is read; the refusal removes them."""
    monkeypatch.setattr(store.imports, "IMPORT_BATCH_MATCHES", 2)
    monkeypatch.setattr(store.imports, "IMPORT_PAUSE_SECONDS", 0)
    written = []
    save = store.imports.save_imported_match
    monkeypatch.setattr(store.imports, "save_imported_match", lambda *a, **k: written.append(1) or save(*a, **k))
    good = [a_match(id=store.new_token()) for _ in range(4)]
    response = upload(client, backup(*good, a_match(id=store.new_token(), variant="no such rules")))
    page = response.data.decode()
    assert response.status_code == 200 and "<li><code>matches[4].variant</code>" in page and "1 problem." in page
    assert len(written) == 4, "the batches before the problem were written"
    db = connect(client.application.config["DATABASE"])
    try:
        assert [db.execute(f"select count(*) from {table}").fetchone()[0] for table in ("matches", "hands")] == [0, 0]
    finally:
        db.close()
