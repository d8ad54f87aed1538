"""The browser harness itself: the app answers a real Chromium at phone size."""


def test_api_answers_in_chromium(page, live_server):
    response = page.goto(f"{live_server}/api/v1/variants")
    assert response.status == 200
    assert '"classic"' in page.content()
