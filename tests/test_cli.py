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


def test_rescore_rebuilds_the_stored_figures_and_says_how_many(tmp_path, capsys):
    from scorepad import canasta, store
    from scorepad.db import connect, migrate
    from scorepad.documents import Side

    path = str(tmp_path / "rescore.db")
    migrate(path)
    db = connect(path)
    try:
        sides = [Side("We"), Side("They")]
        match_id = store.create_match(db, canasta.rules_for("classic"), sides)
        store.create_match(db, canasta.rules_for("samba"), sides)
        hand = canasta.Hand.from_dict({"entries": [{"melded_points": 300}, {"melded_points": 120, "hand_points": 20}]})
        store.add_hand(db, match_id, hand, 1)
        db.execute("update match_summaries set totals = '[1, 1]'")  # as if scored by a rule since fixed
    finally:
        db.close()
    assert cli.main(["rescore", "--database", path]) == 0
    assert "Rescored 2 matches." in capsys.readouterr().err
    db = connect(path)
    try:
        assert store.match_head(db, match_id).summary.totals == (300, 100)
    finally:
        db.close()
