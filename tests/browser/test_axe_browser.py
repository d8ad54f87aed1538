"""Accessibility: axe-core (npm's current release, 4.14 or later) finds no violation with its
default rules on the pages players use, in light and dark mode.

axe-core is installed by ``.ci/run`` with npm into a folder outside the test tool, as Chromium
is installed, and never at test time; ``AXE_CORE_JS`` names another copy of ``axe.min.js``.
"""

import json
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect
from support import matrix

from browser.test_frictions_browser import settled
from browser.test_pages_browser import pages  # noqa: F401  (the seeded pages, a fixture)

# Where .ci/run installs it (npm install --prefix ~/.cache/scorepad-axe axe-core).
INSTALLED = Path.home() / ".cache" / "scorepad-axe" / "node_modules" / "axe-core"
AXE = Path(os.environ.get("AXE_CORE_JS") or INSTALLED / "axe.min.js")
CHECKED = ["home", "choose", "new", "hand", "sheet", "share", "check"]


@pytest.fixture(scope="module")
def axe_script():
    if not AXE.exists():
        pytest.skip(f"axe-core is not installed at {AXE}: .ci/run installs it (npm install axe-core)")
    package = AXE.parent / "package.json"
    if package.exists():
        major, minor = (int(part) for part in json.loads(package.read_text())["version"].split(".")[:2])
        assert (major, minor) >= (4, 14), "axe-core 4.14 or later checks label-content-name-mismatch as issue 20 needs"
    return AXE


@pytest.mark.parametrize("scheme", matrix(["light", "dark"], quick=["dark"]))
def test_no_axe_violations_on_the_pages_players_use(browser, live_server, pages, axe_script, scheme):  # noqa: F811
    # The pages' policy allows no inline script; axe is injected as one, so this context bypasses it.
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    found = {}
    for name in CHECKED:
        page.goto(live_server + pages[name])
        if name == "sheet":
            expect(page.locator("#next-hand #preview")).to_be_attached()  # the hand form in place too
        settled(page)
        result = axe_violations(page, axe_script)
        if result:
            found[name] = result
    context.close()
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)


def axe_violations(page, axe_script):
    """What axe-core finds wrong on the page as it stands: each rule's id and the nodes breaking it."""
    page.add_script_tag(path=str(axe_script))
    return page.evaluate(
        "axe.run(document).then(r => r.violations.map(v => ({id: v.id, "
        "nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary)})))"
    )
