"""Taking results away: CSV, the all-matches JSON document, share text, the progress chart, stats.

Pure functions over scored matches (``canasta.Match``) and what storage knows about them
(``records.MatchInfo``): no Flask, no database. One module per format (``csvfile``,
``jsonfile``, ``share``, ``chart``, ``records``); callers use the names gathered here. The
blueprint in ``exports.py`` and the ``scorepad export`` / ``scorepad import`` commands (through
``backups.py``) only call these.

>>> from scorepad import canasta
>>> from scorepad.records import MatchInfo, Side
>>> match = canasta.score_match("classic", [{"entries": [
...     {"melded_points": 620, "canastas": {"natural": 1}, "went_out": True},
...     {"melded_points": 260, "hand_points": 95}]}])
>>> info = MatchInfo("a" * 16, (Side("We"), Side("They")))
>>> share_text(match, info)
'Classic canasta, 1 hand so far: We 1,220 – They 165. We lead by 1,055.'
"""

from .chart import Chart, progress_chart, progress_svg
from .common import ENGLISH, Pair, safe_text, thousands
from .csvfile import card_counts_text, match_csv, summary_csv, summary_csv_pieces
from .jsonfile import (
    ALL_FORMAT_VERSION,
    COMMAND_LIMITS,
    WEB_LIMITS,
    Limits,
    all_matches_document,
    backup_json,
    backup_json_pieces,
    each_match_read,
    is_single_match,
    json_file,
    matches_document,
    parse_json,
    read_all_matches_document,
)
from .records import Record, Stats, stats_from_rows
from .share import share_text
from .streaming import batched, csv_pieces

__all__ = [
    "ALL_FORMAT_VERSION",
    "COMMAND_LIMITS",
    "ENGLISH",
    "WEB_LIMITS",
    "Chart",
    "Limits",
    "Pair",
    "Record",
    "Stats",
    "all_matches_document",
    "backup_json",
    "backup_json_pieces",
    "batched",
    "csv_pieces",
    "card_counts_text",
    "each_match_read",
    "is_single_match",
    "json_file",
    "match_csv",
    "matches_document",
    "parse_json",
    "progress_chart",
    "progress_svg",
    "read_all_matches_document",
    "safe_text",
    "share_text",
    "stats_from_rows",
    "summary_csv",
    "summary_csv_pieces",
    "thousands",
]
