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
