"""The scorepad command: serve with waitress, announce the address and a QR code."""

import io

import pytest

from scorepad import cli


def test_lan_address_is_an_ipv4_address():
    parts = cli.lan_address().split(".")
    assert len(parts) == 4 and all(part.isdigit() for part in parts)


def test_announce_prints_address_and_qr():
    out = io.StringIO()
    cli.announce("http://192.168.1.20:8000/", out)
    text = out.getvalue()
    assert "http://192.168.1.20:8000/" in text
    assert any(block in text for block in "█▀▄")


def test_serve_uses_waitress(monkeypatch, tmp_path, capsys):
    calls = {}

    def fake_serve(app, **kwargs):
        calls.update(kwargs, app=app)

    monkeypatch.setattr("waitress.serve", fake_serve)
    monkeypatch.setenv("FLASK_DATABASE", str(tmp_path / "serve.db"))
    monkeypatch.setenv("FLASK_SECRET_KEY", "cli-test")
    monkeypatch.setattr(cli, "lan_address", lambda: "192.168.1.20")
    assert cli.main(["serve", "--port", "8123"]) == 0
    assert calls["host"] == "0.0.0.0" and calls["port"] == 8123
    assert calls["app"].name == "scorepad"
    assert "http://192.168.1.20:8123/" in capsys.readouterr().out


def test_a_subcommand_is_required(capsys):
    with pytest.raises(SystemExit):
        cli.main([])


def test_commands_are_extensible():
    names = cli.build_parser()._subparsers._group_actions[0].choices
    assert "serve" in names


# --- who sees what: the owner's command line sees everything; imports follow the id rule ----
def test_import_keeps_well_formed_ids_replaces_others_and_recognises_a_re_import(tmp_path, capsys):
    import json

    from scorepad import store
    from scorepad.db import connect

    hands = [{"entries": [{"melded_points": 650}, {"melded_points": 500}]}]
    base = {"variant": "classic", "sides": [{"name": "We"}, {"name": "They"}], "created": "2025-01-04", "hands": hands}
    kept, zeros = "0123456789abcdef" * 2, "0" * 16
    document = {
        "format": "scorepad-matches",
        "format_version": 1,
        "matches": [base | {"id": kept, "title": "Kept"}, base | {"id": zeros, "title": "Zeros"}],
    }
    backup, database = tmp_path / "backup.json", str(tmp_path / "target.db")
    backup.write_text(json.dumps(document))
    assert cli.main(["import", str(backup), "--database", database]) == 0
    assert "Imported 2 matches; 0 already here." in capsys.readouterr().err
    db = connect(database)
    try:
        titles = {store.load_match(db, i)[1].title: i for i in store.all_match_ids(db)}
    finally:
        db.close()
    assert titles["Kept"] == kept and titles["Zeros"] != zeros and len(titles["Zeros"]) == 32
    assert cli.main(["import", str(backup), "--database", database]) == 0
    assert "Imported 0 matches; 2 already here." in capsys.readouterr().err
    exported = tmp_path / "everything.json"
    assert cli.main(["export", str(exported), "--database", database]) == 0
    assert sorted(m["id"] for m in json.loads(exported.read_text())["matches"]) == sorted(titles.values())


def test_export_covers_every_match_whoever_lists_it(tmp_path, capsys):
    import json

    from scorepad import canasta, store
    from scorepad.db import connect, migrate
    from scorepad.documents import Side

    database = str(tmp_path / "owned.db")
    migrate(database)
    db = connect(database)
    try:
        sides = [Side("We"), Side("They")]
        ids = {store.create_match(db, canasta.rules_for("classic"), sides, browser=b * 32) for b in "ab"}
        ids.add(store.create_match(db, canasta.rules_for("classic"), sides))  # nobody's
    finally:
        db.close()
    assert cli.main(["export", "-", "--database", database]) == 0
    assert {m["id"] for m in json.loads(capsys.readouterr().out)["matches"]} == ids


def test_unlisted_notice_counts_matches_and_names_the_setting(tmp_path):
    from scorepad import canasta, create_app, store
    from scorepad.db import connect
    from scorepad.documents import Side

    app = create_app({"DATABASE": str(tmp_path / "n.db"), "SECRET_KEY": "t"})
    assert cli.unlisted_notice(app) is None, "nothing stored, nothing to say"
    db = connect(app.config["DATABASE"])
    try:
        store.create_match(db, canasta.rules_for("classic"), [Side("We"), Side("They")])
    finally:
        db.close()
    notice = cli.unlisted_notice(app)
    assert notice.startswith("1 match is on no phone's list yet") and "FLASK_ORGANISER_PASSPHRASE" in notice
    app.config["ORGANISER_PASSPHRASE"] = "set"
    assert cli.unlisted_notice(app) is None, "the organiser can see it"
