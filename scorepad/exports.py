"""Pages and downloads that take results away: CSV, JSON, print, share, import, history and stats.

Thin views over ``formats`` (the file formats) and ``store`` (the matches): they load, call one
function, and respond.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import chain

from flask import Blueprint, Response, current_app, flash, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.datastructures import FileStorage

from . import access, backups, formats, i18n, store
from .assets import streamed
from .canasta import InvalidError, Match, Violation
from .db import connect, get_db
from .documents import match_document
from .forms.hand import counted_in_words
from .i18n import gettext as _
from .i18n import ngettext, translations
from .records import MatchInfo
from .security import large_body

bp = Blueprint("exports", __name__)

CSV_TYPE = "text/csv"  # Werkzeug adds "; charset=utf-8" to every text type
# Excel opens UTF-8 CSV correctly only when it starts with a byte order mark; other
# spreadsheets and the csv module (encoding="utf-8-sig") skip it.
BOM = "\ufeff"


@bp.app_template_global("progress_chart")
def chart_for(match: Match, info: MatchInfo) -> formats.Chart | None:
    """The score progression chart, for any page that includes ``exports/_progress.html``.

    The score sheet hands the template a chart drawn from stored figures instead.
    """
    if not match.results:
        return None
    svg = formats.progress_svg(match, i18n.shown_sides(info, match.variant.key), translations(), i18n.number)
    return formats.Chart(Markup(svg), match.variant.target)  # escaped in formats.py


def _share_text(match: Match, info: MatchInfo) -> str:
    """The share line in the page's language, its figures written as the language writes them."""
    return formats.share_text(match, i18n.shown_sides(info, match.variant.key), translations(), i18n.number)


def download(body: str, mimetype: str, filename: str) -> Response:
    """A response the browser saves as ``filename`` rather than shows."""
    return Response(body, mimetype=mimetype, headers=_attachment(filename))


def _attachment(filename: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{filename}"'}


def file_name(match: Match, info: MatchInfo, extension: str) -> str:
    """``scorepad-classic-2025-01-04-3f9a1c2e.csv``: sortable, and never the whole id."""
    day = re.sub(r"[^0-9-]", "", info.created[:10]) or "undated"
    return f"scorepad-{match.variant.key}-{day}-{info.id[:8]}.{extension}"


def today() -> str:
    return datetime.now(UTC).date().isoformat()


def writer_match(match_id: str) -> formats.Pair:
    """A match opened with its write link; it joins this browser's list."""
    pair = store.load_match(get_db(), match_id)
    access.record(match_id)
    return pair


# --- one match ---------------------------------------------------------------------------


@bp.get("/matches/<match_id>/export.csv")
def download_match_csv(match_id: str) -> Response:
    """One row per hand, for a spreadsheet."""
    match, info = writer_match(match_id)
    return download(BOM + formats.match_csv(match, info), CSV_TYPE, file_name(match, info, "csv"))


@bp.get("/matches/<match_id>/export.json")
def download_match_json(match_id: str) -> Response:
    """The match document, the same one the API returns and the import reads."""
    match, info = writer_match(match_id)
    return download(formats.json_file(match_document(match, info)), "application/json", file_name(match, info, "json"))


@bp.get("/matches/<match_id>/print")
def print_sheet(match_id: str) -> str:
    """The score sheet laid out for paper: We/They columns, a page per thirty-odd hands."""
    match, info = writer_match(match_id)
    return render_template(
        "exports/print.html", match=match, info=info, share=_share_text(match, info), counts=counted_in_words
    )


@bp.get("/matches/<match_id>/result")
def result(match_id: str) -> str:
    """The result as one line for the group chat, with every download.

    (``/matches/<id>/share`` is the match pages' link-and-QR page; this one shares the result.)
    """
    match, info = writer_match(match_id)
    return render_template("exports/result.html", match=match, info=info, share=_share_text(match, info))


# --- all matches -------------------------------------------------------------------------


@bp.get("/export/matches.json")
def download_backup() -> Response:
    """Every match in one versioned document: the backup, written as it is read."""
    return _streamed_backup(backups.all_matches_json, "application/json", f"scorepad-matches-{today()}.json")


@bp.get("/export/results.csv")
def download_results() -> Response:
    """A row per match: date, variant, sides, players, totals, winner, hands (from stored summaries)."""
    return _streamed_backup(backups.all_results_csv, CSV_TYPE, f"scorepad-results-{today()}.csv", start=BOM)


def _streamed_backup(write: Callable[..., backups.Backup], mimetype: str, filename: str, start: str = "") -> Response:
    """A backup of everything this browser sees, sent as it is read from a connection of its own
    (closed when the download ends), so its memory is one batch, however many matches it holds."""
    viewer = access.viewer()
    db = connect(current_app.config["DATABASE"])
    try:
        backup = write(db, viewer=viewer)
    except BaseException:
        db.close()
        raise
    response = streamed(chain([start], backup.pieces), mimetype, _attachment(filename))
    response.call_on_close(db.close)
    return response


@bp.get("/import")
def import_form() -> str:
    """Backups: download everything, or bring a file back in."""
    return render_template("exports/import.html", problems=[])


@bp.post("/import")
@large_body()
def import_file() -> Response | str:
    """Read the file, refuse it with its problems, or add its new matches all at once.

    The matches are read and written a batch at a time (:func:`backups.import_file`), each batch
    a short transaction, so saves go on meanwhile, and appear together when the last one commits
    (:func:`store.save_import`); a problem anywhere removes what was written.
    """
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        problems = [Violation("no-file", _("Choose a scorepad .json export to import."))]
        return render_template("exports/import.html", problems=problems, count=1)
    if not _ONE_IMPORT.acquire(blocking=False):
        busy = _("Another file is being imported on this server: try again in a minute. Nothing was imported.")
        return render_template("exports/import.html", problems=[Violation("import-busy", busy)], count=1)
    try:
        return _import_upload(upload)
    finally:
        _ONE_IMPORT.release()


# A file costs a few seconds of a core and ~70 MB at the page's caps (formats.WEB_LIMITS), and
# ~100 MB to parse a 16 MB file: one at a time per server process, so that several people
# importing at once cost what one does.
_ONE_IMPORT = threading.Lock()


def _import_upload(upload: FileStorage) -> Response | str:
    """Read one uploaded file, refuse it with its problems, or add its new matches."""
    db = get_db()
    viewer = access.viewer()  # only what this browser (or the organiser) sees is "already here"
    try:
        # The file's bytes are held by the import alone, which drops them once parsed.
        imported = backups.import_file(db, _bytes_of(upload), viewer, browser=access.ensure_browser_id)
    except InvalidError as error:
        count = getattr(error, "total", len(error.violations))
        return render_template("exports/import.html", problems=error.violations, count=count, filename=upload.filename)
    flash(import_message(imported.added, imported.already, imported.similar), "import")
    return redirect(url_for(".import_form"), 303)


def _bytes_of(upload: FileStorage) -> bytes:
    with upload.stream:  # a large upload is spooled to a temporary file: close it once read
        return upload.read()


def import_message(added: int, already: int, similar: int = 0) -> str:
    """What an import did, in a sentence; a match added that looks like one already here is named.

    >>> import_message(2, 1)
    'Imported 2 matches; 1 match was already here and was left as it is.'
    >>> "1 imported match looks like a match already here" in import_message(1, 0, 1)
    True
    """

    if added:
        message = ngettext("Imported %(num)s match", "Imported %(num)s matches", added)
    else:
        message = _("Nothing new to import")
    if already:
        left = ngettext(
            "%(num)s match was already here and was left as it is",
            "%(num)s matches were already here and were left as they are",
            already,
        )
        message = _("%(done)s; %(left)s", done=message, left=left)
    message = _("%(message)s.", message=message)
    if similar:
        look = ngettext(
            "%(num)s imported match looks like a match already here (same start and sides) under another id: "
            "delete it if it is a copy.",
            "%(num)s imported matches look like a match already here (same start and sides) under another id: "
            "delete it if it is a copy.",
            similar,
        )
        message = _("%(message)s %(look)s", message=message, look=look)
    return message


# --- history and stats -------------------------------------------------------------------


@bp.get("/stats")
def stats_page() -> str:
    """Wins, losses and hand records by player and team; ``?player=`` lists one's matches a page at a time.

    Everything comes from stored figures: SQL sums over each side's figures, and summary rows.
    """
    db = get_db()
    name = request.args.get("player", "").strip()
    viewer = access.viewer()
    page = store.match_page(db, before=request.args.get("before") or None, player=name, viewer=viewer) if name else None
    records = formats.stats_from_rows(*store.player_stats(db, viewer))
    return render_template("exports/stats.html", stats=records, name=name, page=page)
