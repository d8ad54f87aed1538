"""The real ``scorepad serve`` process: behind a TLS proxy it sees the client's scheme and host
(cookies that grant access are Secure), and slow or silent clients cannot lock phones out."""

from __future__ import annotations

import re
import socket
import time
import urllib.parse

import pytest
from served import Server

HTTPS_PROXY = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example.org", "X-Forwarded-For": "203.0.113.7"}


@pytest.fixture
def serve(tmp_path):
    started = []

    def start(*options: str) -> Server:
        started.append(Server(tmp_path, *options))
        return started[-1]

    yield start
    for server in started:
        server.stop()


def cookies(response) -> dict[str, str]:
    """Each cookie the response sets, by name, with its attributes."""
    return {line.split("=", 1)[0]: line for line in response.headers.get_all("Set-Cookie") or ()}


def create_match(server: Server, headers: dict[str, str]):
    """Open the new-match form and create a classic match, as a phone through ``headers``'s proxy."""
    response, page = server.request("GET", "/matches/new/classic", headers)
    session = cookies(response)["scorepad_session"].split(";")[0]
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)[1]
    form = {"csrf_token": token, "side_0": "We", "side_1": "They", "option_target": "5000"}
    form |= {"option_canastas_to_go_out": "1", "option_restore_pile_penalty": "0"}
    created, _ = server.request(
        "POST",
        "/matches/new/classic",
        headers | {"Cookie": session, "Content-Type": "application/x-www-form-urlencoded"},
        urllib.parse.urlencode(form),
    )
    return response, created, session


def test_behind_an_https_proxy_cookies_are_secure_and_links_name_the_public_address(serve):
    server = serve("--proxy-hops", "1")
    assert any(line.startswith("The database is ") for line in server.output)
    form, created, session = create_match(server, HTTPS_PROXY)
    assert "Secure" in cookies(form)["scorepad_session"]
    assert created.status == 303
    assert "Secure" in cookies(created)["scorepad_browser"], "the cookie that unlocks the phone's list"
    match_path = urllib.parse.urlsplit(created.headers["Location"]).path
    _, share = server.request("GET", f"{match_path}/share", HTTPS_PROXY | {"Cookie": session})
    assert f"https://scores.example.org{match_path}" in share
    assert "127.0.0.1" not in share
    direct, _ = server.request("GET", "/matches/new/classic")
    assert "Secure" not in cookies(direct)["scorepad_session"], "plain HTTP from the proxy's own network: not Secure"


def test_without_proxy_hops_forwarded_headers_are_ignored(serve):
    server = serve()
    form, created, session = create_match(server, HTTPS_PROXY)
    assert "Secure" not in cookies(form)["scorepad_session"] and "Secure" not in cookies(created)["scorepad_browser"]
    match_path = urllib.parse.urlsplit(created.headers["Location"]).path
    _, share = server.request("GET", f"{match_path}/share", HTTPS_PROXY | {"Cookie": session})
    assert "scores.example.org" not in share and f"http://127.0.0.1:{server.port}{match_path}" in share


def trickle(port: int) -> socket.socket:
    """A client that starts a request and then sends it a byte at a time."""
    client = socket.create_connection(("127.0.0.1", port), timeout=5)
    client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    return client


def test_slow_clients_below_the_connection_limit_leave_room_for_phones(serve):
    server = serve("--connection-limit", "40", "--channel-timeout", "2")
    slow = [trickle(server.port) for _ in range(30)]
    try:
        for _ in range(3):  # they keep trickling while a phone asks for pages
            for client in slow:
                client.sendall(b"a")
            started = time.monotonic()
            response, _ = server.request("GET", "/", timeout=5)
            assert response.status == 200 and time.monotonic() - started < 2
            time.sleep(0.5)
    finally:
        for client in slow:
            client.close()


def test_silent_connections_are_closed_after_the_channel_timeout(serve):
    server = serve("--connection-limit", "10", "--channel-timeout", "2")
    silent = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(10)]
    try:
        started = time.monotonic()
        response, _ = server.request("GET", "/", timeout=15)  # waits to be accepted: the limit is full
        waited = time.monotonic() - started
        assert response.status == 200 and waited < 8, f"answered after {waited:.1f} s"
        assert all(client.recv(1) == b"" for client in silent), "the server closed every silent connection"
    finally:
        for client in silent:
            client.close()


def test_a_body_larger_than_any_view_takes_is_refused_before_it_is_received(serve):
    """waitress would otherwise take up to a gigabyte of body per request into a temporary file
    before the app's 413; it answers 413 as soon as the headers announce such a body."""
    server = serve()
    client = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    try:
        head = "POST /api/v1/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        client.sendall((head + "Content-Length: 500000000\r\n\r\n").encode())  # and not one byte of it
        assert client.recv(100).startswith(b"HTTP/1.1 413")
    finally:
        client.close()


def test_an_import_at_its_allowance_still_reaches_the_app(serve):
    server = serve()
    body = b"x" * (16 * 1024 * 1024)  # the import's 16 MiB: the app answers it, not waitress
    response, page = server.request("POST", "/import", {"Content-Type": "multipart/form-data; boundary=b"}, body)
    assert response.status in (400, 413) and "waitress" not in page  # the app's own answer


def test_restore_waits_for_the_server_to_stop(serve, tmp_path, capsys):
    from scorepad.cli import main as scorepad_command

    server = serve()
    database, copy = str(tmp_path / "served.db"), str(tmp_path / "copy.db")
    assert scorepad_command(["backup", copy, "--database", database]) == 0
    assert scorepad_command(["restore", copy, "--database", database]) == 1
    assert "stop it first" in capsys.readouterr().err
    server.stop()
    assert scorepad_command(["restore", copy, "--database", database]) == 0
