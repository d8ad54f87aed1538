"""A club night as a model (issue 30 item 2): a Hypothesis state machine drives the organiser's and the
tables' actions through the pages and, after every step, compares the night's standings with those the
pure core (``scorepad.club.core.standings``) computes from the model's own facts.

The model keeps what people did: who entered (and was renamed, removed, withdrawn), each started
table's hands as saved (support.HAND: 1220 to 165 for North-South; HAND_EW the other way round)
and which sides confirmed them (the standings are provisional until every table is confirmed, its
round closed, or it is a no-show or a bye), no-shows, penalties. Seating is the movement's
business (tested on its own in test_clubnight_movements.py): the model reads each round's seats
from the night after it is seated and holds them to the invariants (every active entrant once,
nobody twice). Export and import go through the files: the night is exported, deleted, and
imported again, and play goes on with the imported night.
"""

from __future__ import annotations

import io
import re

import club
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from support import HAND

from scorepad.club.core import Adjustment, EventSettings, TableResult, standings
from scorepad.db import connect
from scorepad.store import club as clubstore

HAND_EW = {
    "sides-1-melded_points": "620", "sides-1-canasta_natural": "1", "sides-1-went_out": "y",
    "sides-0-melded_points": "260", "sides-0-hand_points": "95",
}  # fmt: skip
WON, LOST = 1220, 165
# A Swiss night of three rounds: any number of entrants can play it.
SETTINGS = {**club.SETTINGS, "name": "Model night", "rounds": "3", "movement": "swiss"}
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return club.club_app(tmp_path_factory.mktemp("model"))


class NightModel(RuleBasedStateMachine):
    app = None

    def __init__(self):
        super().__init__()
        self.client = club.signed_in(self.app)
        answer = self.client.post("/nights/new", data=SETTINGS)
        self.event_id = answer.headers["Location"].rsplit("/", 1)[1]
        self.entrants: dict[str, bool] = {}  # name: withdrawn
        self.hands: dict[tuple[int, int], list[int]] = {}  # (round, table): 0 North-South won, 1 East-West
        self.no_shows: dict[tuple[int, int], str] = {}
        self.adjustments: list[Adjustment] = []
        self.confirmed: dict[tuple[int, int], set[int]] = {}  # the sides that confirmed the sheet as it stands
        self.disputed: set[tuple[int, int]] = set()  # tables a side disputed, not confirmed since
        self.corrections: list[tuple[int, int, str, str]] = []  # round, table, reason, who made it
        self.settings: EventSettings = self.night()[0].settings

    # --- reading the night as stored -----------------------------------------------------
    def night(self):
        db = connect(self.app.config["DATABASE"])
        try:
            return clubstore.get_event(db, self.event_id), clubstore.rounds(db, self.event_id)
        finally:
            db.close()

    def rounds(self):
        return self.night()[1]

    def playing(self):
        return next((r for r in reversed(self.rounds()) if r.started and not r.closed), None)

    def upcoming(self):
        rounds = self.rounds()
        return rounds[-1] if rounds and not rounds[-1].started else None

    def played(self, name):
        return any(name in r.seating.entrants for r in self.rounds() if r.started)

    def pair_phone(self, entrant):
        """A fresh phone that scanned the entrant's pair card (read from the organiser's printable cards)."""
        cards = self.client.get(f"/nights/{self.event_id}/pairs").get_data(as_text=True)
        pattern = rf"<figcaption>{re.escape(entrant)}</figcaption>.*?<small>http://localhost([^<]+)</small>"
        (link,) = re.findall(pattern, cards, re.S)
        phone = self.app.test_client()
        assert phone.get(link).status_code == 200
        return phone

    def post(self, path, data=None):
        answer = self.client.post(f"/nights/{self.event_id}{path}", data=data or {})
        assert answer.status_code < 500, answer.get_data(as_text=True)[-1500:]
        return answer

    # --- people ---------------------------------------------------------------------------
    @initialize(count=st.integers(2, 5))
    def first_entrants(self, count):
        for name in NAMES[:count]:
            self.enter(name)

    @precondition(lambda self: len(self.entrants) < 6)
    @rule(name=st.sampled_from(NAMES))
    def enter(self, name):
        rounds = self.rounds()
        full = rounds and rounds[-1].started and rounds[-1].number >= self.settings.rounds
        self.post("/entrants", {"name": name})
        if name not in self.entrants and not full:
            self.entrants[name] = False

    @precondition(lambda self: len(self.entrants) < 6 and self.playing() is not None)
    @rule(name=st.sampled_from(NAMES))
    def late_arrival(self, name):
        """A pair comes while a round is playing: they sit at no table of it, and are seated from the next."""
        new = name not in self.entrants
        self.enter(name)
        if new and name in self.entrants:
            assert name not in self.playing().seating.entrants

    @rule(data=st.data())
    def rename(self, data):
        fresh = [n for n in self.entrants if not self.played(n)]
        if not fresh:
            return
        old = data.draw(st.sampled_from(fresh))
        new = data.draw(st.sampled_from([n + "2" for n in NAMES]))
        self.post("/entrants/rename", {"name": old, "new_name": new})
        if new not in self.entrants:
            self.entrants = {(new if n == old else n): w for n, w in self.entrants.items()}
            self.adjustments = [Adjustment(a.round, new if a.entrant == old else a.entrant, a.amount, a.reason)
                                for a in self.adjustments]  # fmt: skip

    @rule(data=st.data())
    def remove(self, data):
        fresh = [n for n in self.entrants if not self.played(n)]
        if fresh:
            name = data.draw(st.sampled_from(fresh))
            self.post("/entrants/remove", {"name": name})
            del self.entrants[name]
            self.adjustments = [a for a in self.adjustments if a.entrant != name]

    @rule(data=st.data(), back=st.booleans())
    def withdraw_or_back(self, data, back):
        chosen = [n for n, gone in self.entrants.items() if gone == back]
        if chosen:
            name = data.draw(st.sampled_from(chosen))
            self.post("/entrants/back" if back else "/entrants/withdraw", {"name": name, "sure": "yes"})
            self.entrants[name] = not back

    # --- rounds ---------------------------------------------------------------------------
    @rule()
    def seat(self):
        self.post("/rounds", {"override": "yes"})

    @precondition(lambda self: self.upcoming() is not None)
    @rule(data=st.data())
    def swap(self, data):
        """The director swaps two entrants' seats before the round starts; every other seat stays."""
        upcoming = self.upcoming()
        seated = [name for name in upcoming.seating.entrants if name] if upcoming else []
        if len(seated) < 2:
            return
        first, second = data.draw(st.lists(st.sampled_from(seated), min_size=2, max_size=2, unique=True))
        self.post(f"/rounds/{upcoming.number}/swap", {"first": first, "second": second})
        change = {first: second, second: first}
        expected = [tuple(change.get(n, n) for n in table.entrants) for table in upcoming.tables]
        assert [table.entrants for table in self.upcoming().tables] == expected

    @rule(seat_first=st.booleans())
    def start(self, seat_first):
        if seat_first:
            self.seat()
        upcoming = self.upcoming()
        if upcoming is not None:
            self.post(f"/rounds/{upcoming.number}/start")
            for table in upcoming.tables:
                if None not in table.entrants:
                    self.hands[(upcoming.number, table.number)] = []

    @precondition(lambda self: self.playing() is not None)
    @rule()
    def close(self):
        playing = self.playing()
        if playing is not None:
            self.post(f"/rounds/{playing.number}/close")

    # --- the tables -----------------------------------------------------------------------
    @precondition(lambda self: self.playing() is not None)
    @rule(data=st.data(), north_south_wins=st.booleans(), hands=st.integers(1, 3))
    def save_hands(self, data, north_south_wins, hands):
        playing = self.playing()
        tables = [t for t in playing.tables if t.match_id and len(self.hands[(playing.number, t.number)]) < 3] \
            if playing else []  # fmt: skip
        if not tables:
            return
        table = data.draw(st.sampled_from(tables))
        saved = self.hands[(playing.number, table.number)]
        for version in range(table.version, table.version + min(hands, 3 - len(saved))):
            answer = self.client.post(
                f"/matches/{table.match_id}/hands",
                data={**(HAND if north_south_wins else HAND_EW), "version": str(version)},
            )
            assert answer.status_code == 303, answer.get_data(as_text=True)[-1500:]
            saved.append(0 if north_south_wins else 1)
            self.confirmed.pop((playing.number, table.number), None)  # a later change asks again

    def table_card(self, data, side):
        """A table of the round being played, drawn, and its card's token; None when no table has a
        match, or when that side's pair has withdrawn (their pair card is void; a phone that scanned it
        before still confirms)."""
        tables = [t for t in self.playing().tables if t.match_id]
        if not tables:
            return None
        table = data.draw(st.sampled_from(tables))
        if self.entrants.get(table.entrants[side]):
            return None
        db = connect(self.app.config["DATABASE"])
        try:
            return table, clubstore.cards(db, self.event_id)[table.number]
        finally:
            db.close()

    @precondition(lambda self: self.playing() is not None)
    @rule(data=st.data(), side=st.sampled_from([0, 1]))
    def confirm(self, data, side):
        """A side's own phone (a fresh one each time, that scanned its pair card) confirms the sheet as it stands."""
        playing = self.playing()
        drawn = self.table_card(data, side)
        if drawn is None:
            return
        table, token = drawn
        phone = self.pair_phone(table.entrants[side])
        answer = phone.post(f"/tables/{token}/confirm", data={"side": str(side), "version": str(table.version)})
        assert answer.status_code == 303
        if not self.hands[(playing.number, table.number)]:
            return  # no hand saved yet: there is no result to confirm, and nothing is recorded
        self.confirmed.setdefault((playing.number, table.number), set()).add(side)
        self.disputed.discard((playing.number, table.number))  # a confirmation settles the table's dispute

    @precondition(lambda self: self.playing() is not None)
    @rule(data=st.data(), side=st.sampled_from([0, 1]))
    def dispute(self, data, side):
        """A side's phone disputes its table's result: not finished until a side confirms again or the round closes."""
        playing = self.playing()
        drawn = self.table_card(data, side)
        if drawn is None:
            return
        table, token = drawn
        answer = self.pair_phone(table.entrants[side]).post(
            f"/tables/{token}/dispute", data={"note": "hand 2 is wrong"}
        )
        assert answer.status_code == 303
        self.disputed.add((playing.number, table.number))

    @precondition(lambda self: any(r.closed for r in self.rounds()))
    @rule(data=st.data(), by=st.sampled_from(["", "Rui"]))
    def correct(self, data, by):
        """The director corrects a hand of a closed round's table on its sheet, then notes why and who made it."""
        tables = [(r.number, t) for r in self.rounds() if r.closed for t in r.tables
                  if t.match_id and self.hands.get((r.number, t.number))]  # fmt: skip
        if not tables:
            return
        number, table = data.draw(st.sampled_from(tables))
        saved = self.hands[(number, table.number)]
        index = data.draw(st.integers(0, len(saved) - 1))
        answer = self.client.post(
            f"/matches/{table.match_id}/hands/{index + 1}",
            data={**(HAND_EW if saved[index] == 0 else HAND), "version": str(table.version)},
        )
        assert answer.status_code == 303, answer.get_data(as_text=True)[-1500:]
        saved[index] = 1 - saved[index]
        self.post("/corrections", {"correction-round": str(number), "correction-table": str(table.number),
                                   "correction-text": "wrong winner", "correction-by": by})  # fmt: skip
        self.corrections.append((number, table.number, "wrong winner", by or clubstore.ORGANISER))

    @precondition(lambda self: self.playing() is not None)
    @rule(data=st.data())
    def no_show(self, data):
        playing = self.playing()
        tables = [t for t in playing.tables if t.match_id] if playing else []
        if tables:
            table = data.draw(st.sampled_from(tables))
            entrant = data.draw(st.sampled_from([*table.entrants, ""]))
            self.post(f"/tables/{table.id}/no-show", {"entrant": entrant})
            if entrant:
                self.no_shows[(playing.number, table.number)] = entrant
            else:
                self.no_shows.pop((playing.number, table.number), None)

    @rule(data=st.data(), amount=st.integers(-3, 3))
    def penalise(self, data, amount):
        active = [n for n, gone in self.entrants.items() if not gone]
        if active and amount:
            name = data.draw(st.sampled_from(active))
            self.post("/adjustments", {"adjustment-entrant": name, "adjustment-round": "1",
                                       "adjustment-amount": str(amount), "adjustment-reason": "model"})  # fmt: skip
            self.adjustments.append(Adjustment(1, name, amount, "model"))

    @rule()
    def export_delete_import(self):
        exported = self.client.get(f"/nights/{self.event_id}/export.json").data
        self.post("/delete", {"sure": "yes"})
        answer = self.client.post("/nights/import", data={"file": (io.BytesIO(exported), "night.json")})
        assert answer.status_code == 303, answer.get_data(as_text=True)[-1500:]
        self.event_id = answer.headers["Location"].rsplit("/", 1)[1]

    # --- what must hold after every step --------------------------------------------------
    @invariant()
    def seats_hold(self):
        rounds = self.rounds()
        for each in rounds:
            seated = [n for n in each.seating.entrants]
            assert len(seated) == len(set(seated)), f"round {each.number} seats someone twice"
        if rounds and not rounds[-1].started:
            active = {n for n, gone in self.entrants.items() if not gone}
            assert set(rounds[-1].seating.entrants) == active

    @invariant()
    def standings_are_the_cores(self):
        results = []
        for each in self.rounds():
            if not each.started:
                continue
            for table in each.tables:
                key = (each.number, table.number)
                if not any(table.entrants):
                    continue
                if None in table.entrants:
                    results.append(TableResult(each.number, table.number, table.entrants))
                elif key in self.no_shows:
                    results.append(TableResult(each.number, table.number, table.entrants, no_show=self.no_shows[key]))
                else:
                    won = self.hands.get(key, [])
                    totals = (sum(WON if w == 0 else LOST for w in won), sum(LOST if w == 0 else WON for w in won))
                    settled = self.confirmed.get(key) == {0, 1} and key not in self.disputed
                    done = each.closed is not None or settled
                    results.append(TableResult(each.number, table.number, table.entrants, totals, finished=done))
        expected = standings(list(self.entrants), results, self.settings, self.adjustments)
        page = self.client.get(f"/standings/{self.night()[0].standings_token}").get_data(as_text=True)
        assert ('class="provisional"' in page) == expected.provisional
        exported = self.client.get(f"/nights/{self.event_id}/export.json").get_json()
        assert [(r["entrant"], r["score"], r["point_balance"]) for r in exported["standings"]] == [
            (r.entrant, r.score, r.point_balance) for r in expected.rows
        ]
        noted = [(c["round"], c["table"], c["text"], c["by"]) for c in exported["corrections"]]
        assert noted == self.corrections, "every correction is kept with its author"


def run_model(app, examples, steps):
    NightModel.app = app
    runner = NightModel.TestCase
    runner.settings = settings(max_examples=examples, stateful_step_count=steps, deadline=None,
                               suppress_health_check=list(HealthCheck))  # fmt: skip
    runner("runTest").runTest()


def test_a_night_behaves_as_its_model(app):
    run_model(app, examples=12, steps=25)


@pytest.mark.slow
def test_many_nights_behave_as_their_model(app):
    """The same model over many more nights and longer ones (CI runs it; a few minutes on two cores)."""
    run_model(app, examples=60, steps=40)
