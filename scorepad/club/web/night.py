"""What every page of a night reads: the blueprint, the night as loaded, a table's state and the round's clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_time
from flask import Blueprint, abort, current_app

from ... import i18n
from ...db import get_db
from ...store import club as clubstore
from ..core import (
    Adjustment,
    EventSettings,
    Standings,
    standings,
    time_rule,
)

bp = Blueprint("nights", __name__)

# Pages anyone with the address may open; every other page of this blueprint is the organiser's.
PUBLIC = {
    "nights.table_card",
    "nights.table_result",
    "nights.confirm_result",
    "nights.dispute_result",
    "nights.table_banner",
    "nights.standings_page",
    "nights.standings_screen",
    "nights.standings_live",
    "nights.pair_phone",
    "nights.screen_live",
}
PLAYING, WAITING, FINISHED, DISPUTED, LATE, BYE, SEATED = (
    "playing", "waiting", "finished", "disputed", "late", "bye", "seated",
)  # fmt: skip


# --- what a page shows of a night ----------------------------------------------------------
@dataclass(frozen=True)
class Night:
    """A night as its pages need it: the event, entrants, rounds and the standings now."""

    event: clubstore.Event
    entrants: list[clubstore.Entrant]
    rounds: list[clubstore.Round]
    standings: Standings
    adjustments: list[Adjustment]

    @property
    def settings(self) -> EventSettings:
        return self.event.settings

    @property
    def current(self) -> clubstore.Round | None:
        """The last round seated (started or not)."""
        return self.rounds[-1] if self.rounds else None

    @property
    def playing(self) -> clubstore.Round | None:
        """The round being played now: started and not closed."""
        return next((r for r in reversed(self.rounds) if r.started and not r.closed), None)

    @property
    def active_names(self) -> list[str]:
        return [entrant.name for entrant in self.entrants if not entrant.withdrawn]

    @property
    def players(self) -> dict[str, tuple[str, ...]]:
        """Each entrant's players as entered (none for a player entered by name alone)."""
        return {entrant.name: entrant.players for entrant in self.entrants}

    @property
    def season_players(self) -> dict[str, tuple[str, ...]]:
        """Whose season an entrant's points go to: a pair's two players, or the entrant named alone."""
        return {name: players or (name,) for name, players in self.players.items()}

    @property
    def hands_per_round(self) -> int | None:
        """The round's number of hands when rounds are played by hands, else None."""
        length = self.settings.round_length
        return length.value if length.kind == "hands" else None

    def time_sentence(self) -> Any:
        return time_rule(self.settings)


def load_night(event: clubstore.Event, with_standings: bool = True) -> Night:
    """Everything a page of this night reads, in a few queries (the sheet's banner needs no standings)."""
    db = get_db()
    entrants = clubstore.entrants(db, event.id)
    rounds = clubstore.rounds(db, event.id, event.settings.at_time)
    if not with_standings:
        return Night(event, entrants, rounds, Standings((), provisional=False), [])
    adjustments = clubstore.adjustments(db, event.id)
    names = [entrant.name for entrant in entrants]
    table = standings(names, clubstore.results(rounds), event.settings, adjustments)
    return Night(event, entrants, rounds, table, adjustments)


def table_state(table: clubstore.ClubTable, played: clubstore.Round, moment: datetime, hands: int | None = None) -> str:
    """What the dashboard says of a table: playing, waiting for confirmation, finished, disputed or late.

    ``hands`` is the round's number of hands when rounds are played by hands: a table that has
    played them waits for its confirmation.
    """
    if table.is_bye:
        return BYE
    if played.started is None:
        return SEATED
    if table.disputed:
        return DISPUTED
    if table.is_confirmed or played.closed or table.no_show:
        return FINISHED
    if table.is_finished or any(table.confirmed) or (hands is not None and table.hands >= hands):
        return WAITING
    if played.ends and moment >= datetime.fromisoformat(played.ends):
        return LATE
    return PLAYING


@dataclass(frozen=True)
class Clock:
    """A round's clock as a page shows it: minutes left, and whether the warning or the time has come."""

    ends: str
    minutes_left: int
    is_warning: bool
    is_over: bool


def clock(night: Night, played: clubstore.Round | None, moment: datetime) -> Clock | None:
    """The clock of a started round that has an end time, else None."""
    if played is None or not played.ends or played.closed:
        return None
    left = datetime.fromisoformat(played.ends) - moment
    minutes = max(0, -(-int(left.total_seconds()) // 60))
    warning = night.settings.round_length.warning or 0
    return Clock(played.ends, minutes, 0 < minutes <= warning, left.total_seconds() <= 0)


def now() -> datetime:
    return datetime.now(UTC)


@bp.app_template_filter("club_time")
def club_time(stamp: str) -> str:
    """A stored UTC time as the club's wall clock shows it: ``20:50`` (the server's time zone, or
    ``TIME_ZONE`` in the settings), never a bare UTC time that nobody at the tables reads."""
    try:
        when = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return str(stamp)
    when = when if when.tzinfo else when.replace(tzinfo=UTC)
    zone_name = current_app.config.get("TIME_ZONE")
    try:
        zone = ZoneInfo(zone_name) if zone_name else None
    except (ValueError, KeyError, ZoneInfoNotFoundError):
        zone = None
    local = when.astimezone(zone)
    return local.strftime("%H:%M") if i18n.is_english() else format_time(local, "short", locale=i18n.language())


def event_or_404(event_id: str) -> clubstore.Event:
    try:
        return clubstore.get_event(get_db(), event_id)
    except clubstore.NotFoundError:
        abort(404)


def card_night(token: str, with_standings: bool = True) -> tuple[Night, int]:
    try:
        event_id, number = clubstore.card(get_db(), token)
    except clubstore.NotFoundError:
        abort(404)
    return load_night(clubstore.get_event(get_db(), event_id), with_standings), number


def table_in(played: clubstore.Round | None, number: int) -> clubstore.ClubTable | None:
    if played is None:
        return None
    return next((table for table in played.tables if table.number == number), None)
