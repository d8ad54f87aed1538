"""A match as a sequence of actions (a workflow is a state machine): the real app against a plain model.

Hypothesis drives the pages through the Flask test client, as a phone would, in any order: add
a hand, correct any hand, undo, put back, delete and restore the match, export it and import it
elsewhere, replay a save the offline queue sent before (same submission key), and write from a
second phone that still shows an older version. After every step the sheet must show what the
model says: every row (score, minimum, running total), each total and minimum, the winner, and
which undo, put back and next hand are offered.

The model is a list of hands and a stack of undone ones, nothing more. Its scores come from
docs/rules.md's numbers for simple classic hands (melded points, natural 500, mixed 300, going out
100, red threes 100 each, minus cards in hand), never from the code under test.
"""

from __future__ import annotations

import io
import itertools
import json
import re
import secrets
import tempfile
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from support import DEFAULTS

from scorepad import create_app

TARGET = 3000  # a short game, so that sequences often finish, and corrections reopen them


# --- the model: docs/rules.md's numbers for simple classic hands --------------------------------
@dataclass(frozen=True)
class Entry:
    """One side's report: melded points, natural and mixed canastas, went out, cards in hand, red threes."""

    melded: int
    natural: int
    mixed: int
    out: bool
    in_hand: int
    red_threes: int

    def score(self) -> int:
        # docs/rules.md "Presets" and "Scoring a hand", classic: natural 500, mixed 300, going out 100, red
        # threes 100 each
        # (positive once the side melded anything, else negative), melded points less cards in hand.
        threes = 100 * self.red_threes * (1 if self.melded else -1)
        return 500 * self.natural + 300 * self.mixed + (100 if self.out else 0) + self.melded - self.in_hand + threes

    def fields(self, side: int) -> dict[str, str]:
        prefix = f"sides-{side}-"
        values = {
            "melded_points": self.melded,
            "canasta_natural": self.natural,
            "canasta_mixed": self.mixed,
            "hand_points": self.in_hand,
            "red_threes": self.red_threes,
        }
        # Every box is sent, the empty ones empty, as a browser sends the form.
        fields = {prefix + name: str(value) if value else "" for name, value in values.items()}
        if self.out:
            fields[prefix + "went_out"] = "y"
        return fields


@dataclass(frozen=True)
class Hand:
    """A hand as the model keeps it: its entries and an identity (a correction keeps the identity)."""

    uid: int
    entries: tuple[Entry, Entry]

    def scores(self) -> tuple[int, int]:
        return (self.entries[0].score(), self.entries[1].score())

    def fields(self) -> dict[str, str]:
        # A side may meld less than its minimum (the model scores what is reported): the form asks
        # once more (issue 29) and the player says "Save anyway".
        return {**self.entries[0].fields(0), **self.entries[1].fields(1), "low_melds_confirmed": "1"}


def minimum(total: int) -> int:
    """docs/rules.md "Presets", the initial-meld minimum, classic: below 0 15, to 1495 50, to 2995 90, then 120."""
    if total < 0:
        return 15
    if total < 1500:
        return 50
    if total < 3000:
        return 90
    return 120


@dataclass(frozen=True)
class Row:
    number: int
    scores: tuple[int, ...]
    minimums: tuple[int, ...]
    totals: tuple[int, ...]


def rows_of(hands: list[Hand]) -> list[Row]:
    totals = (0, 0)
    rows = []
    for number, hand in enumerate(hands, start=1):
        minimums = tuple(minimum(total) for total in totals)
        totals = tuple(total + score for total, score in zip(totals, hand.scores(), strict=True))
        rows.append(Row(number, hand.scores(), minimums, totals))
    return rows


def finished_at(rows: list[Row]) -> int | None:
    """The hand after which the game ended (a total reached the target), if any."""
    return next((row.number for row in rows if max(row.totals) >= TARGET), None)


def playable(hands: list[Hand]) -> bool:
    """A sequence of hands is a match when the game ends, if at all, with its last hand."""
    end = finished_at(rows_of(hands))
    return end is None or end == len(hands)


def entries() -> st.SearchStrategy[Entry]:
    @st.composite
    def entry(draw: st.DrawFn, out: bool) -> Entry:
        natural = draw(st.integers(0, 1))
        mixed = draw(st.integers(0, 1 if not out or natural else 1))
        if out and not natural and not mixed:
            mixed = 1  # going out takes a canasta (classic: one)
        least = 35 * natural + 50 * mixed  # RULES: the canastas' own cards count in melded points
        melded = 5 * draw(st.integers(least // 5 + (least % 5 > 0), 80))
        in_hand = 0 if out else 5 * draw(st.integers(0, 20))
        return Entry(melded, natural, mixed, out, in_hand, draw(st.integers(0, 2)))

    return entry


@st.composite
def hand_entries(draw: st.DrawFn) -> tuple[Entry, Entry]:
    went_out = draw(st.sampled_from([None, 0, 1]))
    make = entries()
    pair = (draw(make(went_out == 0)), draw(make(went_out == 1)))
    if not any(e.melded or e.in_hand or e.red_threes for e in pair):
        pair = (Entry(50, 0, 0, False, 0, 0), pair[1])  # a hand of nothing at all is refused as empty
    return pair


# --- reading what the player sees ---------------------------------------------------------
NUMBER = r"(-?[\d,]+)"  # as English writes a score: 1,220
ROW = re.compile(
    r'<tr>\s*<th scope="row">.*?>(\d+)</a></th>(.*?)</tr>',
    re.S,
)
CELL = re.compile(
    r'<td class="score">(?:<span class="need">need ' + NUMBER + r"</span>)?" + NUMBER + r"</td>\s*"
    r'<td class="running">' + NUMBER + r"</td>"
)


@dataclass(frozen=True)
class Seen:
    """What the sheet shows, read from its HTML."""

    version: int
    totals: tuple[int, ...]
    needs: tuple[int, ...]
    rows: list[Row]
    winner: str | None
    undo: int | None
    put_back: int | None
    enter: int | None


def whole(text: str) -> int:
    return int(text.replace(",", ""))


def read_sheet(html: str) -> Seen:
    version = int(re.search(r'id="sheet"[^>]*data-version="(\d+)"', html).group(1))
    totals = tuple(whole(n) for n in re.findall(r'<span class="total" data-total>' + NUMBER + "</span>", html))
    needs = tuple(whole(n) for n in re.findall(r'<span class="need">to open: <b>' + NUMBER + "</b></span>", html))
    rows = []
    for number, cells in ROW.findall(html):
        found = CELL.findall(cells)
        rows.append(
            Row(
                int(number),
                tuple(whole(score) for _, score, _ in found),
                tuple(whole(need) for need, _, _ in found if need),
                tuple(whole(total) for _, _, total in found),
            )
        )
    winner = re.search(r'<p class="winner-line">(.*?)</p>', html, re.S)
    undo = re.search(r"Undo hand (\d+)</button>", html)
    put_back = re.search(r"Put hand (\d+) back</button>", html)
    enter = re.search(r">Enter hand (\d+)</a>", html)
    return Seen(
        version,
        totals,
        needs,
        rows,
        re.sub(r"<[^>]+>", "", winner.group(1)).strip() if winner else None,
        int(undo.group(1)) if undo else None,
        int(put_back.group(1)) if put_back else None,
        int(enter.group(1)) if enter else None,
    )


def flash_of(html: str) -> str:
    return " ".join(
        re.sub(r"<[^>]+>", "", part).strip() for part in re.findall(r'<p class="flash">(.*?)</p>', html, re.S)
    )


_APP = None


def shared_app():
    """One app (and database) for every example: each example plays a match of its own in it."""
    global _APP
    if _APP is None:
        folder = tempfile.mkdtemp(prefix="scorepad-lifecycle-")
        _APP = create_app(
            {"TESTING": True, "DATABASE": f"{folder}/test.db", "SECRET_KEY": "test-only", "WTF_CSRF_ENABLED": False}
        )
    return _APP


# --- the machine ----------------------------------------------------------------------------
class MatchLifecycle(RuleBasedStateMachine):
    """One match on one phone (and a second phone that may hold an older page), against the model."""

    def __init__(self) -> None:
        super().__init__()
        self.app = shared_app()
        self.phone = self.app.test_client()
        self.other = self.app.test_client()  # the second phone at the table
        self.uids = itertools.count(1)
        self.hands: list[Hand] = []
        self.undone: list[Hand] = []  # a stack: the hand undone last is on top
        self.deleted = False
        self.sent: list[tuple[dict[str, str], str, Hand]] = []  # saves the queue sent: form, address, hand
        self.other_saw: int | None = None  # the version the second phone's page shows
        self.shown: str | None = None  # the sheet the phone's last step landed on, if it did

    # --- helpers ---
    def url(self, tail: str = "") -> str:
        return f"/matches/{self.match_id}{tail}"

    def sheet(self) -> Seen:
        response = self.phone.get(self.url())
        assert response.status_code == 200
        return read_sheet(response.get_data(as_text=True))

    def version(self) -> int:
        """The version the phone's page shows: the sheet as it was after the last step."""
        return self.page_version

    def finished(self) -> bool:
        return finished_at(rows_of(self.hands)) is not None

    def post(self, tail: str, data: dict[str, str], client=None) -> tuple[int, str]:
        response = (client or self.phone).post(self.url(tail), data=data, follow_redirects=True)
        page = response.get_data(as_text=True)
        if client is None and response.request.path == self.url():
            self.shown = page  # the phone was sent to the sheet: the invariant reads that page
        return response.status_code, page

    # --- rules ---
    @initialize()
    def new_match(self) -> None:
        response = self.phone.post(
            "/matches/new/classic",
            data={
                "side_0": "We",
                "side_1": "They",
                "option_target": str(TARGET),
                "option_canastas_to_go_out": "1",
                "option_restore_pile_penalty": "0",
            },
        )
        assert response.status_code == 303, response.get_data(as_text=True)
        self.match_id = response.headers["Location"].rstrip("/").rsplit("/", 1)[-1]

    @rule(entries=hand_entries())
    def add_hand(self, entries: tuple[Entry, Entry]) -> None:
        hand = Hand(next(self.uids), entries)
        data = {**hand.fields(), "version": str(self.version()), "submission": f"key-{self.match_id[:8]}-{hand.uid}"}
        status, page = self.post("/hands", data)
        if self.deleted:
            assert status == 404  # a deleted match takes no hand
            return
        assert status == 200
        if self.finished():
            assert "hands" not in page or 'id="sheet"' not in page  # the form again, with the refusal
            return
        assert 'id="sheet"' in page, flash_of(page) or page[:2000]
        self.hands.append(hand)
        self.undone.clear()  # a new hand takes the place of every hand undone before it
        self.sent.append((data, "/hands", hand))

    @precondition(lambda self: self.hands and not self.deleted)
    @rule(data=st.data(), entries=hand_entries())
    def correct_hand(self, data: st.DataObject, entries: tuple[Entry, Entry]) -> None:
        number = data.draw(st.integers(1, len(self.hands)), label="number")
        old = self.hands[number - 1]
        hand = Hand(old.uid, entries)
        form = {
            **hand.fields(),
            "version": str(self.version()),
            "submission": f"fix-{self.match_id[:8]}-{next(self.uids)}",
        }
        status, page = self.post(f"/hands/{number}", form)
        assert status == 200
        after = [*self.hands[: number - 1], hand, *self.hands[number:]]
        if not playable(after):  # it would end the game before later hands: refused, nothing changes
            assert 'id="sheet"' not in page
            return
        assert f"Hand {number} corrected." in flash_of(page), flash_of(page) or page[:2000]
        self.hands = after
        self.sent.append((form, f"/hands/{number}", hand))

    @precondition(lambda self: self.hands and not self.deleted)
    @rule()
    def undo(self) -> None:
        number = len(self.hands)
        status, page = self.post("/hands/undo", {"version": str(self.version())})
        assert status == 200
        assert f"Hand {number} undone." in flash_of(page), flash_of(page)
        # Without JavaScript nothing asked first: the message offers Put back at once.
        flashes = re.search(r'<div class="flashes".*?</div>', page, re.S).group(0)
        assert f"Put hand {number} back</button>" in flashes
        self.undone.append(self.hands.pop())

    @precondition(lambda self: self.undone and not self.deleted)
    @rule()
    def put_back(self) -> None:
        status, page = self.post("/hands/restore", {"version": str(self.version())})
        assert status == 200
        if self.finished():
            assert "cannot come back" in flash_of(page), flash_of(page)
            return
        number = len(self.hands) + 1
        assert f"Hand {number} is back." in flash_of(page), flash_of(page)
        self.hands.append(self.undone.pop())

    @precondition(lambda self: not self.deleted)
    @rule()
    def delete_match(self) -> None:
        response = self.phone.post(self.url("/delete"), data={"version": str(self.version())})
        assert response.status_code == 303
        self.deleted = True

    @precondition(lambda self: self.deleted)
    @rule()
    def restore_match(self) -> None:
        response = self.phone.post(self.url("/restore"))
        assert response.status_code == 303
        self.deleted = False

    @precondition(lambda self: not self.deleted)
    @rule()
    def move_by_export_and_import(self) -> None:
        """Export the match and import it as another server would hold it (a new id); play on there.

        Importing the same file again changes nothing.
        """
        exported = self.phone.get(self.url("/export.json"))
        assert exported.status_code == 200
        document = json.loads(exported.get_data(as_text=True))
        document["id"] = secrets.token_hex(16)
        body = json.dumps(document).encode()
        for _ in range(2):  # the second import finds it already here and leaves it as it is
            response = self.phone.post(
                "/import", data={"file": (io.BytesIO(body), "match.json")}, follow_redirects=True
            )
            assert response.status_code == 200
        said = re.search(r'<p class="import-done"[^>]*>(.*?)</p>', response.get_data(as_text=True), re.S)
        assert said and "Nothing new to import; 1 match was already here" in said.group(1)
        self.match_id = document["id"]
        self.sent.clear()  # the phone's old saves were for the match on the other server
        self.other_saw = None

    @precondition(lambda self: self.sent)
    @rule(data=st.data())
    def replay_a_sent_save(self, data: st.DataObject) -> None:
        """The offline queue sends a save again (its answer was lost): the server knows its key."""
        form, tail, hand = data.draw(st.sampled_from(self.sent), label="save")
        response = self.phone.post(self.url(tail), data=form, follow_redirects=True)
        if self.deleted:
            assert response.status_code == 404
            return
        said = flash_of(response.get_data(as_text=True))
        live = [h.uid for h in self.hands]
        if hand.uid in live:
            assert f"Hand {live.index(hand.uid) + 1} was already saved." in said, said
        else:
            assert "That hand was already saved, and has been undone since." in said, said

    @precondition(lambda self: not self.deleted)
    @rule()
    def other_phone_looks(self) -> None:
        self.other_saw = self.version()

    @precondition(lambda self: self.other_saw is not None and not self.deleted)
    @rule(entries=hand_entries())
    def other_phone_saves(self, entries: tuple[Entry, Entry]) -> None:
        """The second phone saves from the page it shows: if anything was written since, it is told."""
        hand = Hand(next(self.uids), entries)
        key = f"other-{self.match_id[:8]}-{next(self.uids)}"
        data = {**hand.fields(), "version": str(self.other_saw), "submission": key}
        stale = self.other_saw != self.version()
        status, page = self.post("/hands", data, client=self.other)
        assert status == 200
        if stale:  # told what changed (or, once the game is over, that it is): never saved over it
            assert 'id="sheet"' not in page and ("meanwhile" in page or self.finished()), page[:3000]
            return
        if self.finished():
            assert 'id="sheet"' not in page
            return
        assert 'id="sheet"' in page
        self.hands.append(hand)
        self.undone.clear()
        self.other_saw = None

    @precondition(lambda self: self.other_saw is not None and not self.deleted and self.hands)
    @rule()
    def other_phone_undoes(self) -> None:
        stale = self.other_saw != self.version()
        status, page = self.post("/hands/undo", {"version": str(self.other_saw)}, client=self.other)
        assert status == 200
        if stale:
            assert "meanwhile" in flash_of(page) and "Nothing was undone." in flash_of(page), flash_of(page)
            return
        self.undone.append(self.hands.pop())
        self.other_saw = None

    # --- what the player sees, after every step ---
    @invariant()
    def sheet_matches_the_model(self) -> None:
        # The sheet the step's redirect showed the phone, or (after a step that showed none) a fresh one.
        page, self.shown = self.shown, None
        if page is None:
            response = self.phone.get(self.url())
            assert response.status_code == 200
            page = response.get_data(as_text=True)
        if self.deleted:
            assert 'id="sheet"' not in page and "/restore" in page
            return
        seen = read_sheet(page)
        self.page_version = seen.version
        rows = rows_of(self.hands)
        finished = finished_at(rows) is not None
        totals = rows[-1].totals if rows else (0, 0)
        assert seen.totals == totals
        expected_rows = [r if not finished else Row(r.number, r.scores, (), r.totals) for r in rows]
        assert seen.rows == expected_rows
        assert seen.needs == (() if finished else tuple(minimum(total) for total in totals))
        if finished:
            top = max(totals)
            winners = ["We", "They"]
            if totals[0] == totals[1]:
                assert seen.winner == "A tie at the top"
            else:
                winner = winners[totals.index(top)]
                assert seen.winner == f"{winner} won by {abs(totals[0] - totals[1]):,}"
        else:
            assert seen.winner is None
        assert seen.enter == (None if finished else len(self.hands) + 1)
        assert seen.undo == (len(self.hands) if self.hands else None)
        assert seen.put_back == (len(self.hands) + 1 if self.undone and not finished else None)


MatchLifecycle.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=15,
    deadline=None,
    report_multiple_bugs=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_match_lifecycle = MatchLifecycle.TestCase


class SlowMatchLifecycle(MatchLifecycle):
    pass


SlowMatchLifecycle.TestCase.settings = settings(
    max_examples=300,
    stateful_step_count=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_match_lifecycle_longer_run = pytest.mark.slow(SlowMatchLifecycle.TestCase)


def test_a_submission_key_used_in_another_match_saves_the_hand_without_an_error(client):
    """Keys are chosen by the phone: one sent to a second match is that match's new hand, not a 500."""
    ids = []
    for _ in range(2):
        made = client.post("/matches/new/classic", data={"side_0": "We", "side_1": "They", **DEFAULTS})
        ids.append(made.headers["Location"].rsplit("/", 1)[-1])
    # docs/rules.md: We 120 melded; They -15 in hand.
    form = {"sides-0-melded_points": "120", "sides-1-hand_points": "15", "version": "1", "submission": "same-key-1"}
    for match_id in ids:
        assert client.post(f"/matches/{match_id}/hands", data=form).status_code == 303
        assert read_sheet(client.get(f"/matches/{match_id}").get_data(as_text=True)).totals == (120, -15)
    # Sent again to the first match, it is recognised there.
    again = client.post(f"/matches/{ids[0]}/hands", data=form, follow_redirects=True)
    assert "Hand 1 was already saved." in flash_of(again.get_data(as_text=True))
