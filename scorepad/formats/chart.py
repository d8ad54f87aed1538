"""The progress chart: each side's total after every hand against the target, as plain SVG."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from ..canasta import Match
from ..records import MatchInfo
from .common import ENGLISH, rendered, thousands

CHART_WIDTH, CHART_HEIGHT = 360, 250
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 46, 12, 40, 30
# Distinct in colour and in dash pattern, so the lines part on a grey printout too; mid tones
# that read on a light and a dark page. Text and axes use the page's own colour.
SIDE_STYLES = (
    ("#2563eb", ""),
    ("#dc2626", "7 4"),
    ("#059669", "2 3"),
)
# The legend: the key's room before a label, the room between labels, a row's height, and a
# generous width per letter of a bold 12 px label (DejaVu Sans, the widest common phone font).
LEGEND_KEY, LEGEND_GAP, LEGEND_ROW, LEGEND_CHAR = 28, 12, 18, 7.8
TICK_STEPS = (100, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000)


@dataclass(frozen=True)
class Chart:
    """A drawn progression chart (``svg``, safe markup) and the target line it shows."""

    svg: str
    target: int


def _tick_step(span: int) -> int:
    return next((step for step in TICK_STEPS if span / step <= 6), TICK_STEPS[-1])


def progress_svg(
    match: Match, info: MatchInfo, translations: Any = ENGLISH, thousands: Callable[[int], str] = thousands
) -> str:
    """Each side's total after every hand against the target line, as a self-contained SVG.

    Plain markup for the server to send: a ``viewBox`` that scales to a phone's width, one
    polyline per side, a dashed target line, text escaped, and a ``<title>``/``<desc>`` that
    say the same thing in words.
    """
    return progress_chart(
        match.variant.name,
        match.variant.target,
        match.start,
        [r.totals for r in match.results],
        info,
        translations,
        thousands,
    )


def progress_chart(
    variant_name: str,
    target: int,
    start: Sequence[int],
    totals: Sequence[Sequence[int]],
    info: MatchInfo,
    translations: Any = ENGLISH,
    thousands: Callable[[int], str] = thousands,
) -> str:
    """:func:`progress_svg` from figures alone: the starting totals and the totals after each hand.

    ``translations`` (the ``gettext`` API) and ``thousands`` word the title, description and
    labels in the page's language, as :func:`share_text` does; the default is English.
    """
    tr = translations
    series = [[start[i]] + [after[i] for after in totals] for i in range(len(info.sides))]
    names = [side.name for side in info.sides]
    legend, rows = _legend(names, series, thousands)
    extra = (rows - 1) * LEGEND_ROW  # the legend's further rows push the plot down
    plot = _Plot.around([v for line in series for v in line], target, max(len(totals), 1), extra)
    title = tr.gettext("Score progression: %(variant)s, target %(target)s") % {
        "variant": rendered(variant_name, tr),
        "target": thousands(target),
    }
    about = tr.gettext("Totals from the start and after each hand.")
    axis = tr.gettext("hand")  # Translators: under the chart's axis of hand numbers
    target_label = tr.gettext("Target %(target)s") % {"target": thousands(target)}
    desc = "; ".join(
        f"{name}: {', '.join(thousands(v) for v in line)}" for name, line in zip(names, series, strict=True)
    )
    return "\n".join(
        [
            *_chart_heading(info.id, title, f"{about} {desc}", plot.height),
            *legend,
            *_total_grid(plot, thousands),
            *_hand_axis(plot, axis),
            _target_line(plot, target, target_label),
            *_side_lines(plot, names, series, thousands),
            "</svg>",
        ]
    )


@dataclass(frozen=True)
class _Plot:
    """Where a hand number and a total fall on the chart: its scale, from low to high in steps."""

    low: int
    high: int
    step: int
    hands: int
    top: int = CHART_TOP  # where the plot starts: lower when the legend takes more than one row
    height: int = CHART_HEIGHT

    @classmethod
    def around(cls, values: list[int], target: int, hands: int, extra: int = 0) -> _Plot:
        step = _tick_step(max(max(values + [target]) - min(values + [0]), 1))
        low = min(min(values), 0) // step * step
        high = -(-max(max(values), target) // step) * step
        return cls(low, high, step, hands, CHART_TOP + extra, CHART_HEIGHT + extra)

    def x(self, hand: int) -> float:
        return round(CHART_LEFT + (CHART_WIDTH - CHART_LEFT - CHART_RIGHT) * hand / self.hands, 1)

    def y(self, total: int) -> float:
        plot_h = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM
        return round(self.top + plot_h * (self.high - total) / (self.high - self.low), 1)


def _chart_heading(match_id: str, title: str, description: str, height: int = CHART_HEIGHT) -> list[str]:
    """The ``<svg>`` element with its title and description, for screen readers."""
    # Element ids must not carry the match id: the chart is also shown to read-only watchers,
    # and the match id is what lets a phone write to the match.
    key = hashlib.blake2s(match_id.encode(), digest_size=4).hexdigest()
    return [
        f'<svg class="progress" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CHART_WIDTH} {height}" '
        f'width="100%" role="img" aria-labelledby="progress-title-{key} progress-desc-{key}" '
        f'font-family="system-ui, sans-serif" font-size="12" fill="currentColor">',
        f'<title id="progress-title-{key}">{escape(title)}</title>',
        f'<desc id="progress-desc-{key}">{escape(description)}.</desc>',
    ]


def _total_grid(plot: _Plot, thousands: Callable[[int], str]) -> list[str]:
    """A faint line and its total at each step, the zero line stronger."""
    y = plot.y
    return [
        f'<line x1="{CHART_LEFT}" x2="{CHART_WIDTH - CHART_RIGHT}" y1="{y(tick)}" y2="{y(tick)}" '
        f'stroke="currentColor" stroke-opacity="0.25" stroke-width="{1.5 if tick == 0 else 0.75}"/>'
        f'<text x="{CHART_LEFT - 4}" y="{y(tick) + 4}" text-anchor="end">{thousands(tick)}</text>'
        for tick in range(plot.low, plot.high + 1, plot.step)
    ]


def _hand_axis(plot: _Plot, axis: str) -> list[str]:
    """Hand numbers along the bottom (at most about eight of them) and the axis's name."""
    hands = plot.hands
    labels = sorted({0, hands, *range(0, hands + 1, max(1, -(-hands // 8)))})
    return [
        *(
            f'<text x="{plot.x(hand)}" y="{plot.height - CHART_BOTTOM + 16}" text-anchor="middle" '
            f'fill="currentColor">{hand}</text>'
            for hand in labels
        ),
        f'<text x="{CHART_WIDTH - CHART_RIGHT}" y="{plot.height - 2}" text-anchor="end">{escape(axis)}</text>',
    ]


def _target_line(plot: _Plot, target: int, label: str) -> str:
    """The game's target, dashed across the chart."""
    y = plot.y(target)
    return (
        f'<line x1="{CHART_LEFT}" x2="{CHART_WIDTH - CHART_RIGHT}" y1="{y}" y2="{y}" '
        f'stroke="currentColor" stroke-opacity="0.8" stroke-width="1.5" stroke-dasharray="4 3"/>'
        f'<text x="{CHART_LEFT + 4}" y="{y - 4}">{escape(label)}</text>'
    )


def _side_lines(plot: _Plot, names: list[str], series: list[list[int]], thousands: Callable[[int], str]) -> list[str]:
    """Each side's totals as a line in its own colour and dash (the legend is :func:`_legend`)."""
    out = []
    for index, line in enumerate(series):
        colour, dash = SIDE_STYLES[index % len(SIDE_STYLES)]
        points = " ".join(f"{plot.x(hand)},{plot.y(total)}" for hand, total in enumerate(line))
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<polyline class="side-{index}" fill="none" stroke="{colour}" stroke-width="2.5" '
            f'stroke-linejoin="round"{dashes} points="{points}"/>'
        )
    return out


def _legend_rows(labels: list[str]) -> list[list[int]]:
    """Which sides' labels share a row of the legend: all on one if they fit, else one row each."""
    widths = [LEGEND_KEY + _text_width(label) + LEGEND_GAP for label in labels]
    return [list(range(len(labels)))] if sum(widths) <= CHART_WIDTH - 16 else [[i] for i in range(len(labels))]


def _text_width(label: str) -> float:
    """A generous guess at a bold label's width in the chart's 12 px type (no font is measured)."""
    return len(label) * LEGEND_CHAR


def _fitted(name: str, total: str) -> str:
    """A side's legend label, its name shortened with an ellipsis where a whole row would not hold it."""
    room = int((CHART_WIDTH - 16 - LEGEND_KEY) / LEGEND_CHAR) - len(total) - 1
    if len(name) > room:
        name = name[: max(room - 1, 1)].rstrip() + "…"
    return f"{name} {total}"


def _legend(names: list[str], series: list[list[int]], thousands: Callable[[int], str]) -> tuple[list[str], int]:
    """Each side's key (its colour and dash) with its name and total, and how many rows they take.

    The labels share one row where they fit and take a row each where they do not (three sides,
    long names), so no label runs into another or off the chart, on a phone or on paper; a name
    too long for a row of its own is shortened (the chart's description has it whole).
    """
    labels = [_fitted(name, thousands(line[-1])) for name, line in zip(names, series, strict=True)]
    rows = _legend_rows(labels)
    out = []
    for row_number, row in enumerate(rows):
        x = 8
        y = 14 + row_number * LEGEND_ROW
        for index in row:
            colour, dash = SIDE_STYLES[index % len(SIDE_STYLES)]
            dashes = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(
                f'<line x1="{x}" x2="{x + 22}" y1="{y}" y2="{y}" stroke="{colour}" stroke-width="2.5"{dashes}/>'
                f'<text class="legend" x="{x + 28}" y="{y + 4}" font-weight="600">{escape(labels[index])}</text>'
            )
            x += round(LEGEND_KEY + _text_width(labels[index]) + LEGEND_GAP)
    return out, len(rows)
