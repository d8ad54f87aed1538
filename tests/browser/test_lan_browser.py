"""On a home network without HTTPS, in Chromium: what works at ``http://<LAN address>:8000/``.

``scorepad serve`` prints the machine's LAN address. Plain HTTP to any host but this machine is
not a secure context, so a phone gets no service worker there (no pages kept offline, no "install
the app"). The save queue keeps its hands in ``localStorage``, which needs no secure context: a
hand saved while the Wi-Fi drops waits on the phone and is sent when it returns.

Chromium's ``--host-resolver-rules`` makes the name ``lan.test`` reach this machine's loopback
port, so the page's origin is a LAN-style plain-HTTP one, not the loopback that browsers treat
as secure.
"""

import pytest
from playwright.sync_api import expect
from support import add_match

from browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from browser.test_offline_browser import REPLAY, WAITING, settled, stored_hands, totals, type_hand
from browser.waiting import wait_until


@pytest.fixture
def lan_phone(browser):
    """A phone whose browser reaches this machine by the name lan.test, over plain HTTP."""
    resolving = browser.browser_type.launch(
        executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP lan.test 127.0.0.1"]
    )
    context = resolving.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    yield context
    context.close()
    resolving.close()


def test_the_save_queue_works_on_a_plain_http_lan_address(lan_phone, live_server, live_app):
    match_id = add_match(live_app, [])
    page = lan_phone.new_page()
    page.goto(live_server.replace("127.0.0.1", "lan.test") + f"/matches/{match_id}")
    # Not a secure context: no service worker, so no page kept for offline and no install.
    assert page.evaluate("[window.isSecureContext, 'serviceWorker' in navigator]") == [False, False]

    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("main > .hand-form #preview")).to_be_attached()
    settled(page)
    lan_phone.set_offline(True)
    wait_until(page, "!navigator.onLine")
    type_hand(page)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#queue-status")).to_contain_text(WAITING)
    assert stored_hands(live_app, match_id) == ()

    lan_phone.set_offline(False)
    expect(page.locator("#queue-status")).to_contain_text("has been sent: it is on the sheet", timeout=REPLAY)
    # type_hand's hand, worked out there from the rulebook: We 1620, They 565.
    assert totals(page) == [1620, 565]
    assert len(stored_hands(live_app, match_id)) == 1
