"""Exports in a real Chromium: each download arrives and reads back, imports work, the sheet prints."""

import csv
import io
import json
import re

import pytest
from support import add_match

from browser.waiting import wait_until
from scorepad.db import connect
from scorepad.documents import ALL_FORMAT, FORMAT

# Seven hands that end Classic canasta at We 5,120 – They 3,870.
CLASSIC_HANDS = [{"entries": [{"melded_points": 650}, {"melded_points": 500}]}] * 6 + [
    {
        "entries": [
            {"melded_points": 520, "canastas": {"natural": 1}, "went_out": True, "red_threes": 1},
            {"melded_points": 570, "red_threes": 3},
        ]
    }
]
# Sixty small hands, still short of the target: two printed pages of hands.
LONG_HANDS = [{"entries": [{"melded_points": 50}, {"melded_points": 40}]}] * 60

PAGE_OBJECT = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")


def count_matches(app):
    db = connect(app.config["DATABASE"])
    try:
        return db.execute("select count(*) from matches").fetchone()[0]
    finally:
        db.close()


def fetch(page, link_text):
    """Click a download link and return what was saved, with its suggested name."""
    with page.expect_download() as caught:
        page.get_by_role("link", name=link_text).click()
    download = caught.value
    with open(download.path(), "rb") as saved:
        return download.suggested_filename, saved.read()


@pytest.fixture
def match_id(live_app):
    return add_match(live_app, CLASSIC_HANDS)


def test_download_each_export_of_a_match(page, live_server, match_id):
    page.goto(f"{live_server}/matches/{match_id}/result")
    name, body = fetch(page, "Spreadsheet (CSV)")
    assert name.endswith(f"{match_id[:8]}.csv")
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[-1]["hand"] == "total" and rows[-1]["We total"] == "5120"
    name, body = fetch(page, "Backup (JSON)")
    document = json.loads(body)
    assert name.endswith(".json") and document["format"] == FORMAT and document["totals"] == [5120, 3870]
    assert page.url.endswith("/result"), "downloading leaves the page where it was"


def test_download_everything(page, live_app, live_server, match_id):
    second = add_match(live_app, CLASSIC_HANDS[:2], title="Unfinished")
    for opened in (match_id, second):  # this phone opens both match links, so it lists both
        page.goto(f"{live_server}/matches/{opened}")
    page.goto(f"{live_server}/import")
    name, body = fetch(page, "All matches (JSON backup)")
    document = json.loads(body)
    assert name.startswith("scorepad-matches-") and document["format"] == ALL_FORMAT and document["count"] == 2
    name, body = fetch(page, "Results of all matches (CSV)")
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))
    assert sorted(row["title"] for row in rows) == ["Friday", "Unfinished"]


def test_import_a_backup_through_the_form(page, live_app, live_server, match_id, tmp_path):
    page.goto(f"{live_server}/matches/{match_id}")
    page.goto(f"{live_server}/import")
    _, backup = fetch(page, "All matches (JSON backup)")
    path = tmp_path / "backup.json"
    path.write_bytes(backup)
    page.set_input_files("#import-file", str(path))
    page.get_by_role("button", name="Import").click()
    page.wait_for_selector(".import-done")
    assert "1 match was already here" in page.inner_text(".import-done")
    assert count_matches(live_app) == 1


def test_a_broken_file_lists_its_problems_and_writes_nothing(page, live_app, live_server, match_id, tmp_path):
    page.goto(f"{live_server}/matches/{match_id}/result")
    _, body = fetch(page, "Backup (JSON)")
    document = json.loads(body)
    document["id"] = "f" * 32
    document["hands"][1]["entries"][1]["red_threes"] = 7
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(document))
    page.goto(f"{live_server}/import")
    page.set_input_files("#import-file", str(path))
    page.get_by_role("button", name="Import").click()
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert "hands[1].entries[1].red_threes" in alert.inner_text()
    assert page.locator("#import-file").is_visible(), "the form comes back"
    assert count_matches(live_app) == 1


def test_copy_button_copies_the_result(page, context, live_server, match_id):
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page.goto(f"{live_server}/matches/{match_id}/result")
    copy = page.get_by_role("button", name="Copy")
    box = copy.bounding_box()
    assert box["height"] >= 44, "a thumb-sized button"
    copy.click()
    wait_until(page, "document.querySelector('.share-status').textContent === 'Copied.'")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == "Classic canasta, 7 hands: We 5,120 – They 3,870. We win by 1,250."


def test_the_result_page_reached_by_a_boosted_link_shows_its_buttons(page, live_server, match_id):
    # The page arrives by an htmx swap, not a load: scorepad.js reveals the buttons after the swap.
    page.goto(f"{live_server}/matches/{match_id}")
    page.get_by_role("link", name="Result to share").click()
    page.wait_for_url(f"**/matches/{match_id}/result")
    page.get_by_role("button", name="Copy").wait_for(state="visible")


def test_the_share_pages_copy_button_uses_the_same_handler(page, context, live_server, match_id):
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page.goto(f"{live_server}/matches/{match_id}/share")
    watch_link = page.input_value("#watch-link")
    page.locator("[data-copy=watch-link]").click()
    wait_until(page, "document.querySelector('[data-copy=watch-link]').textContent === 'Copied.'")
    assert page.evaluate("navigator.clipboard.readText()") == watch_link and "/watch/" in watch_link


def test_without_javascript_the_text_is_there_to_select(no_js_page, live_server, match_id):
    no_js_page.goto(f"{live_server}/matches/{match_id}/result")
    assert no_js_page.input_value("#share-text").startswith("Classic canasta, 7 hands")
    assert not no_js_page.get_by_role("button", name="Copy").is_visible()
    assert no_js_page.locator("svg.progress").is_visible()


def test_the_chart_fits_a_phone(page, live_server, match_id):
    page.goto(f"{live_server}/matches/{match_id}/result")
    chart = page.locator("svg.progress").bounding_box()
    assert chart["width"] <= 390 and chart["height"] > 150
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "nothing scrolls sideways"


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_printable_sheet_prints_a_page_per_thirty_hands(page, live_app, live_server, match_id, paper):
    page.goto(f"{live_server}/matches/{match_id}/print")
    short = page.pdf(format=paper, print_background=True)
    assert short.startswith(b"%PDF") and len(PAGE_OBJECT.findall(short)) == 1
    long_id = add_match(live_app, LONG_HANDS, title="Long evening")
    page.goto(f"{live_server}/matches/{long_id}/print")
    page.emulate_media(media="print")
    rows = page.locator(".paper-table tbody tr")
    assert rows.count() == 60
    assert not page.get_by_role("link", name="Share and download").is_visible(), "screen-only parts stay off paper"
    pages = len(PAGE_OBJECT.findall(page.pdf(format=paper)))
    assert 2 <= pages <= 3, f"60 hands and the chart took {pages} pages"
