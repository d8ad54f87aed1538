"""Watching a night: the standings on a phone and on a projector, and the season table."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from flask import Response, abort, render_template, request

from ... import conditional
from ...db import get_db
from ...store import club as clubstore
from ..core import (
    Standings,
    night_points,
    season_table,
    standings,
)
from .night import (
    Night,
    bp,
    clock,
    load_night,
    now,
)


# --- watching -------------------------------------------------------------------------------
def _watched(token: str) -> Night:
    try:
        return load_night(clubstore.watched_event(get_db(), token))
    except clubstore.NotFoundError:
        abort(404)


def standings_context(night: Night, version: int) -> dict[str, Any]:
    moment = now()
    return {
        "night": night,
        "version": version,
        "clock": clock(night, night.playing, moment),
        "announcements": clubstore.announcements(get_db(), night.event.id)[:1],
        "round_numbers": [r.number for r in night.rounds if r.started],
        "final": night.standings.top(night.settings.final_table) if night.settings.final_table else (),
    }


def _unchanged_or(token: str, template: str, render: Any) -> Response:
    """A standings page or poll: 204 or 304 from the night's one version, else rendered (conditional.unchanged_or)."""
    try:
        version = clubstore.night_version(get_db(), standings_token=token)
    except clubstore.NotFoundError:
        abort(404)
    return conditional.unchanged_or(token, version, template, lambda: render(version))


@bp.get("/standings/<token>")
def standings_page(token: str) -> Response:
    """The standings on a phone: every entrant's rounds, the tables of the round, the results table used."""

    def render(version: int) -> str:
        night = _watched(token)
        corrections = clubstore.corrections(get_db(), night.event.id)
        return render_template("nights/standings.html", corrections=corrections, **standings_context(night, version))

    return _unchanged_or(token, "nights/standings.html", render)


@bp.get("/standings/<token>/screen")
def standings_screen(token: str) -> Response:
    """The standings for a projector: large type, fits or scrolls itself, shows the next round's seats."""
    template = "nights/screen.html"
    return _unchanged_or(token, template, lambda v: render_template(template, **screen_context(_watched(token), v)))


@bp.get("/standings/<token>/live")
def standings_live(token: str) -> Response:
    """The standings' table alone, for the phones' htmx poll."""
    template = "nights/_standings.html"
    return _unchanged_or(token, template, lambda v: render_template(template, **standings_context(_watched(token), v)))


@bp.get("/standings/<token>/screen/live")
def screen_live(token: str) -> Response:
    """The projector's part that changes, for its htmx poll."""
    template = "nights/_standings.html"
    return _unchanged_or(
        token,
        f"{template}:screen",
        lambda v: render_template(template, screen=True, **screen_context(_watched(token), v)),
    )


def screen_context(night: Night, version: int) -> dict[str, Any]:
    """The standings' context, with the next round's seating while it waits to start."""
    upcoming = night.current if night.current is not None and not night.current.started else None
    return {**standings_context(night, version), "upcoming": upcoming}


# --- the season and the exports ------------------------------------------------------------
@bp.get("/nights/season")
def season() -> str:
    """One season's table (``?name=``; the latest night's season by default), by its latest night's rules.

    Nights count toward the season named in their settings (or their year): a club's autumn and
    spring, or two clubs on one server, each add up alone.
    """
    events = list(reversed(clubstore.list_events(get_db())))
    seasons = list(dict.fromkeys(event.settings.season_name for event in reversed(events)))  # newest first
    chosen = request.args.get("name") or (seasons[0] if seasons else "")
    events = [event for event in events if event.settings.season_name == chosen and event.in_season]
    nights = [night for night in map(load_night, events) if played_names(night)]
    rules = events[-1].settings.season if events else None
    points = [
        night_points(f"{n.settings.date} {n.event.name}", season_standings(n), n.settings.season, n.season_players)
        for n in nights
    ]
    lines = season_table(points, rules) if rules else ()
    return render_template("nights/season.html", lines=lines, rules=rules, seasons=seasons, chosen=chosen)


def played_names(night: Night) -> list[str]:
    """The entrants who sat at a table (or had the bye) of a round that started, in the order entered."""
    seated = {name for r in night.rounds if r.started for name in r.seating.entrants}
    return [entrant.name for entrant in night.entrants if entrant.name in seated]


def season_standings(night: Night) -> Standings:
    """The night's standings as the season counts them: among the entrants who played.

    A pair entered and withdrawn before the first round started (a typo, a pair that never
    came) earns nothing, and takes no place that would lower anyone else's placement points.
    """
    names = played_names(night)
    if len(names) == len(night.entrants):
        return night.standings
    adjustments = [a for a in night.adjustments if a.entrant in names]
    return standings(names, clubstore.results(night.rounds), night.settings, adjustments)


@bp.app_template_filter("fraction")
def fraction(value: Fraction) -> str:
    """Season points as a club writes them: 7, 3½, 2⅓.

    >>> fraction(Fraction(7, 2)), fraction(Fraction(4)), fraction(Fraction(7, 3))
    ('3½', '4', '2⅓')
    """
    whole, part = divmod(value, 1)
    marks = {Fraction(1, 2): "½", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}
    if not part:
        return str(int(whole))
    return f"{int(whole) or ''}{marks.get(part, f' {part.numerator}/{part.denominator}')}"
