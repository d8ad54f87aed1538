"""What the score sheet and the match list show: their view model, from stored figures only.

``_sheet.html`` and ``_match_line.html`` call no core function and do no arithmetic: every figure
they print is here, read from the figures stored with the facts (docs/architecture.md). The
pieces that are the same for every browser (a sheet's hand rows and chart, a line of the list)
come from the one markup cache (:mod:`scorepad.fragments`), keyed by everything they depend on;
the rest of each page, and everything read from the request, is rendered per request around them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from typing import Any

from flask import render_template, request
from markupsafe import Markup

from . import formats, i18n, store
from .db import get_db
from .fragments import fragments
from .store import club as clubstore


@dataclass(frozen=True)
class Sheet:
    """What the score sheet shows of one version of a match."""

    totals: tuple[int, ...]
    next_minimums: tuple[int, ...]
    opening: tuple[int, ...]  # the distinct minimums to open, for a sheet with no hands yet
    is_finished: bool
    hands: int
    next_hand: int  # the number of the hand to enter next
    starting_totals: tuple[int, ...] | None
    top: Markup = Markup()  # matches/_sheet_top.html, from the cache
    table: Markup = Markup()  # matches/_sheet_table.html (hand rows and chart), from the cache


def piece_key(kind: str, match_id: str, version: int, *more: Hashable) -> tuple[Hashable, ...]:
    """The cache key of a piece of one version of a match: with the page's language and URL root.

    The one place that says what, besides the match and its version, changes kept markup: the
    language (its words, numbers and dates) and the URL root the app answers under (its links;
    bounded by ``security.LONGEST_ROOT``).
    """
    return (kind, match_id, version, i18n.language(), request.script_root, *more)


def score_sheet(head: store.MatchHead, outcome: Callable[[store.MatchHead], Any], watching: bool) -> Sheet:
    """The sheet of this version of the match, for a writer (links to each hand) or a watcher.

    ``outcome(head)`` (how a finished match ended) and the variant's name are asked for only
    when the top is drawn, not on each request that finds it kept.
    """
    summary = head.summary
    figures = Sheet(
        totals=summary.totals,
        next_minimums=summary.next_minimums,
        opening=tuple(dict.fromkeys(summary.next_minimums)),
        is_finished=summary.is_finished,
        hands=summary.played,
        next_hand=summary.played + 1,
        starting_totals=head.starting_totals,
    )
    context = {"stored": head, "sheet": figures, "sides": head.info.sides, "watching": watching}
    top = fragments().get(
        piece_key("top", head.id, head.version, watching),
        lambda: render_template(
            "matches/_sheet_top.html",
            # the variant's own name, a core message: in the page's language
            variant_name=head.variant.name,
            outcome=outcome(head),
            **context,
        ),
    )
    table = fragments().get(
        piece_key("table", head.id, head.version, watching),
        lambda: _table(head, context),
    )
    return replace(figures, top=top, table=table)


def _table(head: store.MatchHead, context: dict[str, Any]) -> str:
    """The table of hands, from the stored figures of each hand, and the chart."""
    rows = store.hand_figures(get_db(), head.id) if head.summary.played else []
    chart = fragments().get(piece_key("chart", head.id, head.version), lambda: _chart(head, rows))
    return render_template(
        "matches/_sheet_table.html",
        rows=rows,
        match_id=head.id,
        is_finished=head.summary.is_finished,
        chart=chart,
        **context,
    )


def _chart(head: store.MatchHead, rows: list[store.HandFigures]) -> str:
    """The progress chart with its caption; nothing before the first hand."""
    if not rows:
        return ""
    summary = head.summary
    target = head.variant.target
    svg = formats.progress_chart(
        head.variant.name,
        target,
        head.starting_totals or (0,) * len(summary.totals),
        [row.totals for row in rows],
        i18n.shown_sides(head.info, head.variant_key),
        i18n.translations(),
        i18n.number,
    )
    chart = formats.Chart(Markup(svg), target)  # built from escaped text in formats.py
    return render_template("exports/_progress.html", chart=chart, info=head.info)


def match_lines(summaries: list[store.MatchSummary]) -> Markup:
    """The lines of the match list, each from the cache (written with its version), joined."""
    kept = fragments()
    # What piece_key adds to every line (the language, the URL root), read from the request once.
    page = piece_key("line", "", 0)[3:]
    return Markup("").join(
        kept.get(
            ("line", summary.id, summary.version, *page),
            lambda summary=summary: render_template("matches/_match_line.html", summary=summary),
        )
        for summary in summaries
    )


def export_links(head: store.MatchHead) -> Markup:
    """The ways to take the match away (``exports/_links.html``): the same for every version."""
    return fragments().get(
        ("links", head.id, i18n.language(), request.script_root),
        lambda: render_template("exports/_links.html", info=head.info),
    )


def page_title(head: store.MatchHead) -> Markup:
    """The score sheet page's title (``matches/_show_title.html``): the match's title or its sides."""
    return fragments().get(
        piece_key("title", head.id, head.version),
        lambda: render_template("matches/_show_title.html", stored=head).strip(),
    )


def page_bar(head: store.MatchHead) -> Markup:
    """The score sheet page's links in the bar (``matches/_show_bar.html``): the same for every version."""
    return fragments().get(
        ("bar", head.id, i18n.language(), request.script_root),
        lambda: render_template("matches/_show_bar.html", stored=head).strip(),
    )


def context(
    head: store.MatchHead, outcome: Callable[[store.MatchHead], Any], *, fragment: bool = False, **extra: Any
) -> dict[str, Any]:
    """What ``_sheet.html`` (and the pages that include it) reads: the view model and the request's own parts.

    The writer's page (not a ``fragment`` of it: the sheet alone, as its poll fetches it) says
    above the sheet where a club night's table plays the match (``banner``; None for any other).
    """
    watching = bool(extra.get("watching"))
    return {
        "stored": head,
        "sheet": score_sheet(head, outcome, watching),
        "banner": None if watching or fragment else clubstore.table_of_match(get_db(), head.id),
        "links": Markup("") if watching else export_links(head),
        "page_title": Markup("") if watching else page_title(head),
        "page_bar": Markup("") if watching else page_bar(head),
        "sides": head.info.sides,
        "watching": watching,
        **extra,
    }
