"""The export pages and downloads: each format served, imports that write all or nothing."""

import csv
import html
import io
import json
import os
import re

import pytest
import support
from flask import render_template_string

from scorepad import backups, canasta, create_app, store
from scorepad.db import connect
from scorepad.documents import ALL_FORMAT, FORMAT, MatchInfo, Side, match_document

# Seven hands that end Classic canasta at We 5,120 – They 3,870 (as in tests/test_formats.py).
CLASSIC_HANDS = [{"entries": [{"melded_points": 650}, {"melded_points": 500}]}] * 6 + [
    {
        "entries": [
            {"melded_points": 520, "canastas": {"natural": 1}, "went_out": True, "red_threes": 1},
            {"melded_points": 570, "red_threes": 3},
        ]
    }
]
# Five hands of 1,200 each way (600 melded, a natural canasta 500, then going out 100 against
# 500 melded, a natural canasta 500 and two red threes 200): a tie at 6,000, past the 5,000 target.
TIE_HANDS = [
    {
        "entries": [
            {"melded_points": 600, "canastas": {"natural": 1}, "went_out": True},
            {"melded_points": 500, "canastas": {"natural": 1}, "red_threes": 2},
        ]
    }
] * 5


def add_match(app, hands=CLASSIC_HANDS, **details):
    """Store a match (the classic hands unless told otherwise); returns its id."""
    return support.add_match(app, hands, **details)


def stored(app):
    db = connect(app.config["DATABASE"])
    try:
        return [store.load_match(db, match_id) for match_id in store.all_match_ids(db)]
    finally:
        db.close()


def match_count(app):
    db = connect(app.config["DATABASE"])
    try:
        return db.execute("select count(*) from matches").fetchone()[0]
    finally:
        db.close()


def upload(client, content, name="backup.json"):
    data = {"file": (io.BytesIO(content if isinstance(content, bytes) else content.encode()), name)}
    return client.post("/import", data=data, content_type="multipart/form-data")


@pytest.fixture
def match_id(app):
    return add_match(app)


@pytest.fixture
def other_app(make_app):
    """A second scorepad on its own database, to import into."""
    return make_app()


# --- one match ---------------------------------------------------------------------------


def test_match_csv_download(client, match_id):
    response = client.get(f"/matches/{match_id}/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    disposition = response.headers["Content-Disposition"]
    assert re.fullmatch(rf'attachment; filename="scorepad-classic-\d{{4}}-\d\d-\d\d-{match_id[:8]}\.csv"', disposition)
    rows = list(csv.DictReader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert [row["hand"] for row in rows] == [*map(str, range(1, 8)), "total"]
    assert rows[-1]["We total"] == "5120" and rows[-1]["They total"] == "3870"


def test_match_json_download_is_the_match_document(app, client, match_id):
    response = client.get(f"/matches/{match_id}/export.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.headers["Content-Disposition"].endswith('.json"')
    document = json.loads(response.data)
    [pair] = stored(app)
    assert document == match_document(*pair)
    assert (document["format"], document["format_version"], document["id"]) == (FORMAT, 1, match_id)
    assert document["totals"] == [5120, 3870] and document["winner"] == 0
    assert document["hands"][6]["entries"][0] == {
        "melded_points": 520,
        "canastas": {"natural": 1},
        "red_threes": 1,
        "went_out": True,
    }


def test_print_sheet(client, match_id):
    page = client.get(f"/matches/{match_id}/print").data.decode()
    assert re.search(r'href="/static/print.css(\?v=\w+)?"', page)
    assert page.count('<th colspan="2" scope="colgroup">') == 2 and "We</th>" in page and "They</th>" in page
    assert len(re.findall(r'<th scope="row">\d+</th>', page)) == 7
    assert "5,120" in page and "Classic canasta, 7 hands: We 5,120 – They 3,870. We win by 1,250." in page
    assert "Settled to the hundred" in page and "<svg" in page


def test_counted_groups_export_and_print_as_counted_and_import_back(app, client, other_app):
    # Issue 20: 1 joker, 2 twos, 5 cards K-8, 6 cards 7-4 melded (170); They hold an ace, 3 K-8
    # and 3 7-4 (65). Every export shows the groups as counted, never as kings and sevens.
    counted = [{"melded_cards": {"joker": 1, "2": 2, "K-8": 5, "7-4": 6}}, {"hand_cards": {"A": 1, "K-8": 3, "7-4": 3}}]
    match_id = add_match(app, [{"entries": counted}])
    page = client.get(f"/matches/{match_id}/print").data.decode()
    # The printed sheet says them as the hand form's counter does, in the reader's language.
    assert "Melded cards: Jokers (50) × 1, Twos (20) × 2, K Q J 10 9 8 (10) × 5, 7 6 5 4 (5) × 6" in page
    assert "Cards in hand: Aces (20) × 1, K Q J 10 9 8 (10) × 3, 7 6 5 4 (5) × 3" in page and "K-8:" not in page
    client.set_cookie("scorepad_language", "de")
    german = client.get(f"/matches/{match_id}/print").data.decode()
    assert "Ausgelegte Karten: Joker (50) × 1, Zweien (20) × 2, K D B 10 9 8 (10) × 5, 7 6 5 4 (5) × 6" in german
    client.delete_cookie("scorepad_language")
    rows = list(csv.DictReader(io.StringIO(client.get(f"/matches/{match_id}/export.csv").data.decode())))
    assert rows[0]["We melded_cards"] == "joker:1 2:2 K-8:5 7-4:6" and rows[0]["They hand score"] == "-65"
    document = client.get(f"/matches/{match_id}/export.json").get_json()
    assert document["hands"][0]["entries"][0]["melded_cards"] == {"joker": 1, "2": 2, "K-8": 5, "7-4": 6}
    assert upload(other_app.test_client(), json.dumps(document)).status_code == 303  # saved, then the match
    (imported,) = stored(other_app)
    assert imported[0].hands[0].entries[1].hand_cards == {"A": 1, "K-8": 3, "7-4": 3}
    assert imported[0].totals == (170, -65)


def test_result_page_shows_the_text_to_copy_and_the_chart(client, match_id):
    page = client.get(f"/matches/{match_id}/result").data.decode()
    assert re.search(r"<textarea[^>]*readonly>Classic canasta, 7 hands: We 5,120 – They 3,870", page)
    assert re.search(r"<p class=\"share-actions\" hidden>\s*<button[^>]*data-copy=", page), "buttons need JavaScript"
    assert "<svg" in page and "<title" in page
    for suffix in ("export.csv", "export.json", "print"):
        assert f"/matches/{match_id}/{suffix}" in page


@pytest.mark.parametrize("suffix", ["export.csv", "export.json", "print", "result"])
def test_unknown_or_deleted_matches_are_404(app, client, match_id, suffix):
    assert client.get(f"/matches/{'0' * 32}/{suffix}").status_code == 404
    db = connect(app.config["DATABASE"])
    try:
        store.delete_match(db, match_id, store.get_match(db, match_id).version)
    finally:
        db.close()
    assert client.get(f"/matches/{match_id}/{suffix}").status_code == 404


def test_match_ids_in_links_are_unguessable_tokens(client, match_id):
    assert re.fullmatch(r"[0-9a-f]{32}", match_id)


# --- all matches -------------------------------------------------------------------------


def test_all_matches_json(app, client, match_id):
    support.open_links(client, match_id, add_match(app, hands=CLASSIC_HANDS[:2], title="Unfinished"))
    response = client.get("/export/matches.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert re.search(r'filename="scorepad-matches-\d{4}-\d\d-\d\d\.json"', response.headers["Content-Disposition"])
    document = json.loads(response.data)
    assert (document["format"], document["format_version"], document["count"]) == (ALL_FORMAT, 1, 2)
    assert document["exported"]
    assert document["matches"] == [match_document(*pair) for pair in stored(app)]


def test_results_csv(app, client, match_id):
    support.open_links(client, match_id, add_match(app, hands=CLASSIC_HANDS[:2], title="Unfinished"))
    response = client.get("/export/results.csv")
    assert response.mimetype == "text/csv" and response.data.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert sorted((r["title"], r["winner"], r["hands"], r["side 1 total"]) for r in rows) == [
        ("Friday", "We", "7", "5120"),
        ("Unfinished", "", "2", "1300"),
    ]
    assert {r["side 2 players"] for r in rows} == {"Cy, Di"} and {r["variant"] for r in rows} == {"classic"}


def results_rows(client):
    """The results CSV as served: its heading row and a dict per match, by title."""
    text = client.get("/export/results.csv").data.decode("utf-8-sig")
    return next(csv.reader(io.StringIO(text))), {r["title"]: r for r in csv.DictReader(io.StringIO(text))}


def test_results_csv_columns_a_formula_title_three_sides_and_a_tie(app, client, match_id):
    three = [{"entries": [{"melded_points": 50}, {"melded_points": 50}, {}]}]
    sides = [Side("N", ("Ann",)), Side("E", ("Bo",)), Side("W", ("Cy",))]
    support.open_links(
        client,
        match_id,
        add_match(app, hands=CLASSIC_HANDS[:2], title="@home"),
        add_match(app, hands=three, variant="classic-3p", sides=sides, title="Three"),
        add_match(app, hands=TIE_HANDS, title="Tie"),
    )
    header, rows = results_rows(client)
    assert header[:10] == ["id", "created", "finished", "title", "variant", "variant name", "hands", "status",
                           "winner", "margin"]  # fmt: skip
    assert header[-3:] == ["side 3", "side 3 players", "side 3 total"], "as many sides as the widest match"
    won, going, third, tie = rows["Friday"], rows["'@home"], rows["Three"], rows["Tie"]
    # 6 x 650 + (520 + 500 natural canasta + 100 going out + 100 red three) = 5,120; the margin over 3,870.
    assert (won["winner"], won["margin"], won["status"], won["hands"]) == ("We", "1250", "finished", "7")
    assert (won["side 1 players"], won["side 2 total"], won["side 3"]) == ("Ann, Bob", "3870", "")
    assert won["created"] and won["finished"] and not going["finished"]
    assert (going["winner"], going["margin"], going["status"], going["side 1 total"]) == ("", "", "playing", "1300")
    assert (third["variant"], third["side 3"], third["side 3 players"], third["side 3 total"]) == (
        "classic-3p",
        "W",
        "Cy",
        "0",
    )
    assert (tie["winner"], tie["margin"], tie["status"], tie["side 1 total"], tie["side 2 total"]) == (
        "tie",
        "0",
        "finished",
        "6000",
        "6000",
    )


def test_results_csv_of_nothing_is_just_the_header(client):
    header, rows = results_rows(client)
    assert rows == {} and header[-3:] == ["side 2", "side 2 players", "side 2 total"]


# --- import ------------------------------------------------------------------------------


def test_import_page_offers_both_downloads_and_a_form(client):
    page = client.get("/import").data.decode()
    assert "/export/matches.json" in page and "/export/results.csv" in page
    assert 'enctype="multipart/form-data"' in page and 'type="file"' in page


def test_import_needs_the_csrf_token(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db"), "SECRET_KEY": "t"})
    client = app.test_client()
    page = client.get("/import").data.decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    refused = upload(client, "{}")
    assert refused.status_code == 303 and refused.headers["Location"] == "/import"
    assert "Nothing was changed" in client.get("/import").data.decode()
    data = {"csrf_token": token, "file": (io.BytesIO(b"{}"), "x.json")}
    assert client.post("/import", data=data, content_type="multipart/form-data").status_code == 200


def test_export_then_import_elsewhere_then_again(app, client, other_app, match_id):
    support.open_links(client, match_id, add_match(app, hands=CLASSIC_HANDS[:3], variant="classic", title="Second"))
    backup = client.get("/export/matches.json").data
    target = other_app.test_client()
    response = upload(target, backup)
    assert response.status_code == 303 and response.headers["Location"] == "/import"
    said = target.get("/import").data.decode()
    assert said.count("Imported 2 matches.") == 1, "the message is said once, where the import form is"
    assert '<p class="import-done" role="status">Imported 2 matches.</p>' in said
    assert [match_document(*pair) for pair in stored(other_app)] == [match_document(*pair) for pair in stored(app)]
    again = upload(target, backup)
    assert again.status_code == 303
    assert "Nothing new to import; 2 matches were already here" in target.get("/import").data.decode()
    assert match_count(other_app) == 2


def test_one_match_file_imports_and_is_recognised(app, client, other_app, match_id):
    single = client.get(f"/matches/{match_id}/export.json").data
    target = other_app.test_client()
    upload(target, single)
    assert "Imported 1 match." in target.get("/import").data.decode()
    upload(target, single)
    assert "1 match was already here" in target.get("/import").data.decode()
    assert match_count(other_app) == 1
    assert target.get(f"/matches/{match_id}/export.json").data == single


def bad_backup(client):
    document = json.loads(client.get("/export/matches.json").data)
    document["matches"][1]["hands"][2]["entries"][0]["red_threes"] = 9
    return json.dumps(document)


@pytest.mark.parametrize(
    ("content", "shown"),
    [
        (b"{not json", "line 1, column 2"),
        (b'{"format": "a-spreadsheet"}', "<code>format</code>"),
        (b"[1, 2]", "the whole file"),
        (bad_backup, "<code>matches[1].hands[2].entries[0].red_threes</code>"),
        (b'{"matches": [' + b"9" * 5000 + b"]}", "a number too long to be a score"),  # was a 500
    ],
)
def test_a_bad_file_writes_nothing_and_lists_its_problems(app, client, other_app, match_id, content, shown):
    support.open_links(client, match_id, add_match(app, hands=CLASSIC_HANDS[:3], title="Second"))
    content = content(client) if callable(content) else content
    target = other_app.test_client()
    response = upload(target, content)
    page = response.data.decode()
    assert response.status_code == 200 and 'role="alert"' in page and shown in page
    assert "backup.json</strong> was not imported" in page
    assert 'type="file"' in page, "the form comes back"
    assert match_count(other_app) == 0


def test_a_different_match_under_an_existing_id_gets_a_new_id(app, client, match_id):
    document = json.loads(client.get(f"/matches/{match_id}/export.json").data)
    document["title"] = "Changed elsewhere"
    response = upload(client, json.dumps(document))
    assert response.status_code == 303 and "Imported 1 match." in client.get("/import").data.decode()
    titles = {info.id: info.title for _, info in stored(app)}
    assert titles[match_id] == "Friday", "an import never overwrites a match"
    [(new_id, title)] = [(i, t) for i, t in titles.items() if i != match_id]
    assert title == "Changed elsewhere" and re.fullmatch(r"[0-9a-f]{32}", new_id)


def test_no_file_chosen(client):
    response = client.post("/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 200 and "Choose a scorepad .json export" in response.data.decode()


def test_a_failed_import_leaves_nothing_though_it_commits_in_batches(app, monkeypatch):
    """Batches of one match: two commit, the third fails; every row of the first two goes again."""
    match = canasta.score_match("classic", CLASSIC_HANDS[:1])
    infos = [MatchInfo(c * 32, (Side("We"), Side("They")), created="2025-01-01") for c in "abc"]
    calls, save = [], store.save_imported_match

    def flaky(db, match, info, pending=None):
        calls.append(info.id)
        if len(calls) == 3:
            assert db.execute("select count(*) from matches where pending is not null").fetchone()[0] == 2
            raise RuntimeError("disk full")
        return save(db, match, info, pending)

    monkeypatch.setattr(store.imports, "IMPORT_BATCH_MATCHES", 1)
    monkeypatch.setattr(store.imports, "save_imported_match", flaky)
    db = connect(app.config["DATABASE"])
    try:
        with pytest.raises(RuntimeError):
            backups.save_import(db, backups.ImportPlan([(match, info) for info in infos], []), browser="b" * 32)
        left = {
            table: db.execute(f"select count(*) from {table}").fetchone()[0] for table in store.imports.MATCH_TABLES
        }
        left |= {
            table: db.execute(f"select count(*) from {table}").fetchone()[0] for table in ("hands", "hand_revisions")
        }
    finally:
        db.close()
    assert match_count(app) == 0 and set(left.values()) == {0}, left


# --- history and stats, partials ---------------------------------------------------------


def test_stats_page(app, client, match_id):
    second = add_match(app, hands=CLASSIC_HANDS[:2], sides=[Side("We", ("Ann", "Eve")), Side("They", ("Cy", "Di"))])
    support.open_links(client, match_id, second)
    page = client.get("/stats").data.decode()
    assert "2 matches in this phone’s list" in page and "By player" in page and "By team" in page
    row = re.search(r'<th scope="row"><a href="/stats\?player=Ann">Ann</a></th>(.*?)</tr>', page, re.S).group(1)
    assert [cell.strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)] == [
        "2",
        "1",
        "0",
        "715",
        "1,220",
        "1",
        "1",
    ]
    one = client.get("/stats?player=eve").data.decode()
    assert "Matches with eve" in one and one.count('<ul class="history">') == 1 and "playing" in one


def stats_tables(page):
    """Each table of the stats page by its caption: a row of cells per name."""
    tables = {}
    for caption, body in re.findall(r"<caption>(.*?)</caption>.*?<tbody>(.*?)</tbody>", page, re.S):
        rows = re.findall(r'<th scope="row"><a [^>]*>(.*?)</a></th>(.*?)</tr>', body, re.S)
        tables[caption] = {
            html.unescape(name): [
                re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip()
                for cell in re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)
            ]
            for name, cells in rows
        }
    return tables


def test_stats_by_player_and_team(app, client, match_id):
    # Ann plays Friday and again (with cy, whose name differs only in case), both won by her side,
    # and a match of one hand still playing: three matches, two won, none lost.
    again = add_match(app, sides=[Side("We", ("cy", "Ann")), Side("They", ("Bob", "Di"))], title="Again")
    playing = add_match(app, hands=CLASSIC_HANDS[:1], title="Playing")
    support.open_links(client, match_id, again, playing)
    tables = stats_tables(client.get("/stats").data.decode())
    players, teams = tables["By player"], tables["By team"]
    # Played, won, lost, average hand, best hand, canastas, red threes. Ann's 15 hands score
    # 2 x 5,120 + 650 = 10,890: 726 a hand, 725 to the nearest 5; her best is the last hand's 1,220
    # (520 + 500 + 100 + 100), with a natural canasta and a red three in each finished match.
    assert players["Ann"] == ["3", "2", "0", "725", "1,220", "2", "2"]
    assert list(players)[0] == "Ann", "most wins first"
    (cy,) = [name for name in players if name.casefold() == "cy"]  # one player, whichever spelling came first
    # Cy loses Friday (3,870 in 7 hands: 6 x 500 + 870) and wins again with Ann: 5,120 + 3,870 + 500.
    assert players[cy] == ["3", "1", "1", "635", "1,220", "1", "4"]
    assert {name.casefold(): cells[:3] for name, cells in teams.items()} == {
        "ann & bob": ["2", "1", "0"],
        "cy & di": ["2", "0", "1"],
        "ann & cy": ["1", "1", "0"],
        "bob & di": ["1", "0", "1"],
    }


def test_stats_count_ties_and_skip_unnamed_sides(app, client):
    tie = add_match(app, hands=TIE_HANDS, title="Tie")
    unnamed = add_match(app, hands=TIE_HANDS, sides=[Side("We", ()), Side("They", ())], title="Nobody")
    support.open_links(client, tie, unnamed)
    page = client.get("/stats").data.decode()
    assert "2 matches in this phone’s list" in page
    players = stats_tables(page)["By player"]
    # Five hands of 1,200 for every side: each player one match, no win, one tie, no loss.
    assert {name: cells[:5] for name, cells in players.items()} == {
        name: ["1", "0 (1 tied)", "0", "1,200", "1,200"] for name in ("Ann", "Bob", "Cy", "Di")
    }


def test_stats_of_players_with_no_hands_yet(app, client):
    support.open_links(client, add_match(app, hands=[], title="Empty"))
    players = stats_tables(client.get("/stats").data.decode())["By player"]
    assert players["Ann"] == ["1", "0", "0", "–", "–", "0", "0"]


def test_a_player_or_team_lists_their_matches(app, client, match_id):
    other = add_match(app, hands=[], sides=[Side("We", ("Eve",)), Side("They", ("Fay",))], title="Other")
    support.open_links(client, match_id, other)

    def listed(name):
        page = client.get("/stats", query_string={"player": name}).data.decode()
        return re.findall(r'<li>\s*<a href="/matches/([^"]+)"', page)

    assert listed("ann") == [match_id]
    assert listed("Ann & Bob") == [match_id], "a team by its name"
    assert listed("Bob & Ann") == [], "a team is named with its players in order"
    assert listed("fay") == [other]


def test_stats_with_nothing_stored(client):
    page = client.get("/stats").data.decode()
    assert "0 matches in this phone’s list" in page and "Name the players" in page


def test_partials_work_with_the_match_pages_context(app, match_id):
    db = connect(app.config["DATABASE"])
    try:
        stored_match = store.get_match(db, match_id)
    finally:
        db.close()
    with app.test_request_context():
        html = render_template_string(
            '{% include "exports/_progress.html" %}{% include "exports/_links.html" %}',
            match=stored_match.match,
            stored=stored_match,
        )
    assert "<svg" in html and f"/matches/{match_id}/export.csv" in html
    with app.test_request_context():
        chart = render_template_string(
            '{% include "exports/_progress.html" %}', match=stored_match.match, stored=stored_match
        )
    assert "<svg" in chart and match_id not in chart, "the chart can go on the read-only watch page"


# --- the command: scorepad export / scorepad import ---------------------------------------


def test_command_backs_up_and_restores(app, match_id, tmp_path, capsys):
    from scorepad import cli

    add_match(app, hands=CLASSIC_HANDS[:2], title="Second")
    backup = tmp_path / "backup.json"
    assert cli.main(["export", str(backup), "--database", app.config["DATABASE"]]) == 0
    err = capsys.readouterr().err
    assert "Exported 2 matches" in err
    assert json.loads(backup.read_text())["count"] == 2
    restored = str(tmp_path / "restored.db")
    assert cli.main(["import", str(backup), "--database", restored]) == 0
    err = capsys.readouterr().err
    assert "Checked 2/2" in err and "Saved 2/2" in err and "Imported 2 matches; 0 already here." in err
    assert cli.main(["import", str(backup), "--database", restored]) == 0
    assert "Imported 0 matches; 2 already here." in capsys.readouterr().err
    db = connect(restored)
    try:
        again = [store.load_match(db, i) for i in store.all_match_ids(db)]
    finally:
        db.close()
    assert [match_document(*pair) for pair in again] == [match_document(*pair) for pair in stored(app)]


def test_command_exports_results_csv_to_standard_output(app, match_id, capsys):
    from scorepad import cli

    assert cli.main(["export", "--format", "csv", "--database", app.config["DATABASE"]]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rows[0]["winner"] == "We" and rows[0]["side 1 total"] == "5120"


def test_the_downloads_and_the_command_write_the_same_files(app, client, match_id, tmp_path, capsys):
    from scorepad import cli

    second = add_match(app, hands=CLASSIC_HANDS[:2], title="Second")
    support.open_links(client, match_id, second)  # this browser lists both: it sees what the command sees
    database = app.config["DATABASE"]
    assert cli.main(["export", str(tmp_path / "backup.json"), "--database", database]) == 0
    assert cli.main(["export", str(tmp_path / "results.csv"), "--format", "csv", "--database", database]) == 0
    capsys.readouterr()
    downloaded = json.loads(client.get("/export/matches.json").data)
    written = json.loads((tmp_path / "backup.json").read_text())
    assert downloaded.pop("exported") and written.pop("exported")
    assert downloaded == written and written["count"] == 2
    results = client.get("/export/results.csv").data.decode("utf-8")
    assert results == "\ufeff" + (tmp_path / "results.csv").read_bytes().decode(), "the download adds only a BOM"
    assert sorted(row["title"] for row in csv.DictReader(io.StringIO(results[1:]))) == ["Friday", "Second"]


def test_command_refuses_a_bad_file_and_writes_nothing(client, match_id, tmp_path, capsys):
    from scorepad import cli

    support.open_links(client, match_id)
    bad = tmp_path / "bad.json"
    bad.write_text(bad_backup_with_one(client))
    target = str(tmp_path / "target.db")
    assert cli.main(["import", str(bad), "--database", target]) == 1
    err = capsys.readouterr().err
    assert "nothing was written" in err and "matches[0].hands[2].entries[0].red_threes:" in err
    assert not os.path.exists(target), "a refused file creates no database (issue 18)"
    assert cli.main(["import", str(tmp_path / "missing.json"), "--database", target]) == 1
    assert "Cannot read" in capsys.readouterr().err


def bad_backup_with_one(client):
    document = json.loads(client.get("/export/matches.json").data)
    document["matches"][0]["hands"][2]["entries"][0]["red_threes"] = 9
    return json.dumps(document)


def test_progress_on_a_terminal_and_in_a_log():
    from scorepad import cli

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal, log = Terminal(), io.StringIO()
    for out in (terminal, log):
        report = cli.progress("Checked", out)
        for done in range(1, 101):
            report(done, 100)
    assert terminal.getvalue().count("\r") == 100 and terminal.getvalue().endswith("Checked 100/100\n")
    assert log.getvalue().splitlines() == [f"Checked {n}/100" for n in (1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100)]
