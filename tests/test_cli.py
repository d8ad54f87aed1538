"""The scorepad command: serve with waitress, announce what a phone can open, fail in one line."""

import io
import json
import socket

import pytest
import waitress.server

from scorepad import cli
from scorepad.cli import serving


@pytest.fixture
def env(monkeypatch, tmp_path):
    """A secret and a database in the test's own folder, as the environment gives them."""
    monkeypatch.setenv("FLASK_DATABASE", str(tmp_path / "serve.db"))
    monkeypatch.setenv("FLASK_SECRET_KEY", "cli-test")
    return tmp_path


@pytest.fixture
def served(monkeypatch):
    """Servers ``serve`` started, each returning at once instead of serving (as after Ctrl+C)."""
    started = []
    monkeypatch.setattr(waitress.server.BaseWSGIServer, "run", lambda server: started.append(server))
    return started


def one_line(text):
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def test_lan_address_is_an_ipv4_address():
    parts = cli.lan_address().split(".")
    assert len(parts) == 4 and all(part.isdigit() for part in parts)


def test_announce_prints_address_and_qr():
    out = io.StringIO()
    cli.announce("http://192.168.1.20:8000/", out)
    text = out.getvalue()
    assert "http://192.168.1.20:8000/" in text and "phone on the same network" in text
    assert any(block in text for block in "█▀▄")
    # Plain HTTP to a LAN address is not a secure context: say what needs HTTPS (issue #32).
    assert "installing the app need HTTPS (docs/deploy.md)" in text


def test_announce_for_this_computer_only_has_no_qr():
    out = io.StringIO()
    cli.announce("http://127.0.0.1:8000/", out, reachable=False)
    text = out.getvalue()
    assert "http://127.0.0.1:8000/" in text and "Only this computer" in text and "--host 0.0.0.0" in text
    assert "phone on the same network" not in text and not any(block in text for block in "█▀▄")


@pytest.mark.parametrize(
    ("host", "url", "reachable"),
    [
        ("0.0.0.0", "http://192.168.1.20:8000/", True),  # every interface: the LAN address
        ("", "http://192.168.1.20:8000/", True),
        ("192.168.1.5", "http://192.168.1.5:8000/", True),
        ("scorepad.example", "http://scorepad.example:8000/", True),
        ("127.0.0.1", "http://127.0.0.1:8000/", False),
        ("127.0.1.1", "http://127.0.1.1:8000/", False),
        ("localhost", "http://localhost:8000/", False),
        ("::1", "http://[::1]:8000/", False),
    ],
)
def test_address_for(monkeypatch, host, url, reachable):
    monkeypatch.setattr(serving, "lan_address", lambda: "192.168.1.20")
    assert cli.address_for(host, 8000) == (url, reachable)


def test_every_interface_without_a_network_is_not_offered_to_phones(monkeypatch):
    monkeypatch.setattr(serving, "lan_address", lambda: "127.0.0.1")
    assert cli.address_for("0.0.0.0", 8000) == ("http://127.0.0.1:8000/", False)


def test_serve_on_loopback_binds_then_announces_without_qr(env, served, capsys):
    assert cli.main(["serve", "--host", "127.0.0.1", "--port", "0", "--threads", "2"]) == 0
    (server,) = served
    assert server.adj.ident == "scorepad" and server.adj.threads == 2
    port = server.effective_port
    assert port != 0
    out = capsys.readouterr().out
    assert f"scorepad is at http://127.0.0.1:{port}/" in out and "Only this computer" in out
    assert "same network" not in out and not any(block in out for block in "█▀▄")
    assert (env / "serve.db").exists()


def test_serve_on_every_interface_shows_the_lan_address_and_qr(env, served, monkeypatch, capsys):
    monkeypatch.setattr(serving, "lan_address", lambda: "192.168.1.20")
    bind = cli.listen
    monkeypatch.setattr(serving, "listen", lambda host, port: bind("127.0.0.1", port))  # tests stay on loopback
    assert cli.main(["serve", "--port", "0"]) == 0
    (server,) = served
    out = capsys.readouterr().out
    assert f"http://192.168.1.20:{server.effective_port}/" in out and "phone on the same network" in out
    assert any(block in out for block in "█▀▄")


def test_serve_on_a_busy_port_says_so_before_announcing(env, served, capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert cli.main(["serve", "--host", "127.0.0.1", "--port", str(port)]) == 1
    assert served == []
    captured = capsys.readouterr()
    assert captured.out == ""  # no address, no QR code
    line = one_line(captured.err)
    assert f"port {port}" in line and "already in use" in line and "--port" in line
    assert list(env.iterdir()) == [], "no database (nor secret key) was created"


def test_serve_on_an_unknown_host_is_one_line(env, served, capsys):
    assert cli.main(["serve", "--host", "no-such-host.invalid", "--port", "0"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "no-such-host.invalid" in one_line(captured.err)
    assert list(env.iterdir()) == [], "no database was created"


def test_serve_with_a_database_in_a_missing_folder_is_one_line(env, served, monkeypatch, capsys):
    missing = env / "no-such-folder" / "scores.db"
    monkeypatch.setenv("FLASK_DATABASE", str(missing))
    assert cli.main(["serve", "--host", "127.0.0.1", "--port", "0"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and served == []
    line = one_line(captured.err)
    assert str(missing) in line and "does not exist" in line
    assert not missing.parent.exists()


def test_a_port_out_of_range_is_refused(capsys):
    with pytest.raises(SystemExit):
        cli.main(["serve", "--port", "70000"])
    assert "not a port" in capsys.readouterr().err


def test_export_from_a_mistyped_database_creates_nothing(env, capsys):
    typo = env / "typo.db"
    backup = env / "backup.json"
    assert cli.main(["export", str(backup), "--database", str(typo)]) == 1
    captured = capsys.readouterr()
    line = one_line(captured.err)
    assert str(typo) in line and "no database" in line
    assert captured.out == "" and not typo.exists() and not backup.exists()


def test_export_from_a_mistyped_environment_database_creates_nothing(env, monkeypatch, capsys):
    typo = env / "typo.db"
    monkeypatch.setenv("FLASK_DATABASE", str(typo))
    assert cli.main(["export"]) == 1
    assert str(typo) in one_line(capsys.readouterr().err) and not typo.exists()


def test_export_from_a_missing_folder_is_one_line(env, capsys):
    missing = env / "no-such-folder" / "scores.db"
    assert cli.main(["export", "--database", str(missing)]) == 1
    assert str(missing) in one_line(capsys.readouterr().err) and not missing.parent.exists()


def test_export_from_a_file_that_is_not_a_database_is_one_line(env, capsys):
    notes = env / "notes.txt"
    notes.write_text("not a database, just some notes\n" * 100)
    assert cli.main(["export", "--database", str(notes)]) == 1
    assert str(notes) in one_line(capsys.readouterr().err)


def test_export_into_a_missing_folder_is_one_line(env, capsys):
    target = env / "no-such-folder" / "backup.json"
    cli.checked_database(str(env / "scores.db"), must_exist=False)  # an empty database
    assert cli.main(["export", str(target), "--database", str(env / "scores.db")]) == 1
    assert str(target) in one_line(capsys.readouterr().err) and not target.parent.exists()


def test_import_into_a_missing_folder_is_one_line(env, capsys):
    backup = env / "backup.json"
    backup.write_text('{"format": "scorepad-matches", "format_version": 1, "matches": []}')
    missing = env / "no-such-folder" / "scores.db"
    assert cli.main(["import", str(backup), "--database", str(missing)]) == 1
    line = one_line(capsys.readouterr().err)
    assert str(missing) in line and "does not exist" in line
    assert not missing.parent.exists()


def test_import_into_a_new_database_creates_it(env, capsys):
    backup = env / "backup.json"
    backup.write_text('{"format": "scorepad-matches", "format_version": 1, "matches": []}')
    fresh = env / "fresh.db"
    assert cli.main(["import", str(backup), "--database", str(fresh)]) == 0
    assert fresh.exists() and "Imported 0 matches" in capsys.readouterr().err


def test_import_of_one_match_says_match_in_the_singular(env, capsys):
    sides = [{"name": "We"}, {"name": "They"}]
    match = {"id": "1" * 32, "variant": "classic", "sides": sides, "created": "2025-01-04", "hands": []}
    backup = env / "one.json"
    backup.write_text('{"format": "scorepad-matches", "format_version": 1, "matches": [' + json.dumps(match) + "]}")
    assert cli.main(["import", str(backup), "--database", str(env / "one.db")]) == 0
    assert "Imported 1 match; 0 already here." in capsys.readouterr().err


def test_every_database_option_says_what_it_defaults_to():
    """--database's help on each command names FLASK_DATABASE and the data folder, never "the app's"."""
    commands = cli.build_parser()._subparsers._group_actions[0].choices
    helps = {
        name: action.help
        for name, parser in commands.items()
        for action in parser._actions
        if "--database" in action.option_strings
    }
    assert {"serve", "export", "import", "rescore", "backup", "restore"} <= set(helps)
    for name, text in helps.items():
        assert "FLASK_DATABASE" in text and "data folder" in text, (name, text)


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


# --- serve's options, help and version (issues 18 and 22) -----------------------------------
@pytest.mark.parametrize("threads", ["0", "-1", "many"])
def test_serve_needs_at_least_one_thread(threads, capsys):
    with pytest.raises(SystemExit):
        cli.main(["serve", "--threads", threads])
    assert "at least 1" in capsys.readouterr().err


def test_serve_takes_database_and_prints_where_it_is(env, served, capsys):
    chosen = env / "club.db"
    assert cli.main(["serve", "--host", "127.0.0.1", "--port", "0", "--database", str(chosen)]) == 0
    out = capsys.readouterr().out
    assert f"The database is {chosen}" in out
    assert chosen.exists() and not (env / "serve.db").exists(), "--database wins over FLASK_DATABASE"


def test_serve_sets_waitress_connection_bounds_and_proxy_trust(env, served, monkeypatch):
    monkeypatch.setenv("FLASK_PROXY_HOPS", "1")
    argv = ["serve", "--host", "127.0.0.1", "--port", "0", "--connection-limit", "50", "--channel-timeout", "4"]
    assert cli.main(argv) == 0
    (server,) = served
    adj = server.adj
    assert (adj.connection_limit, adj.channel_timeout, adj.cleanup_interval) == (50, 4, 2)
    assert (adj.trusted_proxy, adj.trusted_proxy_count) == ("*", 1)
    assert adj.trusted_proxy_headers == {"x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port"}
    assert adj.clear_untrusted_proxy_headers
    assert cli.main(["serve", "--host", "127.0.0.1", "--port", "0", "--proxy-hops", "0"]) == 0
    assert served[1].adj.trusted_proxy is None, "--proxy-hops wins over FLASK_PROXY_HOPS"


def test_a_bad_proxy_hops_in_the_environment_is_one_line(env, served, monkeypatch, capsys):
    monkeypatch.setenv("FLASK_PROXY_HOPS", "one")
    assert cli.main(["serve", "--host", "127.0.0.1", "--port", "0"]) == 1
    assert "FLASK_PROXY_HOPS" in one_line(capsys.readouterr().err) and served == []


def test_version_and_help_say_what_each_command_does_reads_and_where_the_data_is(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--version"])
    assert capsys.readouterr().out.startswith("scorepad ")
    for command in ("serve", "export", "import", "rescore", "backup", "restore"):
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        text = capsys.readouterr().out
        assert "FLASK_DATABASE" in text and "The database is" in text, command
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    text = capsys.readouterr().out
    assert all(name in text for name in ("FLASK_PROXY_HOPS", "FLASK_SECRET_KEY", "FLASK_ORGANISER_PASSPHRASE"))


def test_export_counts_in_words(tmp_path, capsys):
    from scorepad import canasta, store
    from scorepad.db import connect, migrate
    from scorepad.documents import Side

    database = str(tmp_path / "one.db")
    migrate(database)
    db = connect(database)
    try:
        store.create_match(db, canasta.rules_for("classic"), [Side("We"), Side("They")])
    finally:
        db.close()
    assert cli.main(["export", str(tmp_path / "b.json"), "--database", database]) == 0
    assert "Exported 1 match to" in capsys.readouterr().err


def test_an_installed_scorepad_keeps_its_data_in_the_users_data_folder(monkeypatch, tmp_path):
    import scorepad

    assert scorepad.data_folder().name == "instance", "a checkout keeps instance/ beside the code"
    site = tmp_path / "venv" / "lib" / "site-packages" / "scorepad"
    monkeypatch.setattr(scorepad, "__file__", str(site / "__init__.py"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert scorepad.default_database() == tmp_path / "data" / "scorepad" / "scorepad.db"
