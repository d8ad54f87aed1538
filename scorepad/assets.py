"""Static files and responses sent small: versioned asset URLs, long caching, gzip.

The score sheet must load in under 45 KB on a phone; htmx alone is ~52 KB raw and ~16 KB
gzipped, so every text response is compressed and every asset is cached for a year under a
URL that carries a hash of its content (a new file gets a new URL).

Pages and JSON differ on every request, so they are compressed per request at the fastest
level (level 1 makes the 100-hand sheet about a tenth larger than level 6 in a third of the
time). Static files are the same for every request: each file of the static folder has one
entry in :class:`StaticFiles` (its hash, its URL below the script root, its body gzipped at the
best level), worked out on first use and kept, except in debug mode, where an edited file gets
its new hash on the next page.
"""

from __future__ import annotations

import gzip
import hashlib
import posixpath
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, current_app, has_request_context, request, url_for

HTMX = "htmx-2.0.11.min.js"
# The app shell the service worker keeps, so the pages open even when the network drops.
SHELL = (
    "scorepad.css",
    "words.js",
    "scorepad.js",
    "offline.js",
    "offline-page.js",
    HTMX,
    "icons/icon.svg",
)
COMPRESSIBLE = {
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
}
MIN_SIZE = 512  # smaller bodies gain nothing from gzip
YEAR = 365 * 24 * 3600
STATIC_LEVEL = 9  # compressed once per file and kept
# Compressed on every request by the standard library's zlib at its fastest level: a 45 KB sheet
# in about 0.1 ms. (ISA-L was about 0.08 ms faster, but it is compiled and has no wheel for a
# Raspberry Pi's 32-bit ARM: pip would need a C compiler there.) Static files get level 9, once.
DYNAMIC_LEVEL = 1


@dataclass
class StaticFile:
    """What is kept of one file of the static folder: its content hash, URL and gzipped body."""

    version: str
    below_root: str  # the URL below the script root, with ``?v=<version>``
    gzipped: bytes | None = None  # filled when the file is first sent gzipped


class StaticFiles:
    """One entry per file of the static folder, made on first use; bounded by the folder itself.

    Only a file's own name in the folder is kept: a name spelled another way (``./scorepad.css``,
    asked for by a client in a static URL) or missing is worked out and not kept. The script
    root (a proxy's ``X-Forwarded-Prefix``) is put in front of the URL on each call, never kept.
    """

    def __init__(self) -> None:
        self._files: dict[str, StaticFile] = {}

    def get(self, filename: str) -> StaticFile | None:
        """The file's entry, made and kept if the name is the folder's own; None for a file not there."""
        found = None if current_app.debug else self._files.get(filename)
        if found is not None:
            return found
        name = posixpath.normpath(filename)
        path = Path(current_app.static_folder) / name
        if not path.is_file():
            return None
        version = hashlib.sha256(path.read_bytes()).hexdigest()[:10]
        url = url_for("static", filename=filename, v=version)
        root = request.script_root if has_request_context() else ""
        found = StaticFile(version, url[len(root) :] if url.startswith(root) else url)
        if name == filename and not filename.startswith("/") and not current_app.debug:
            self._files[filename] = found  # a plain assignment: another thread may make the same entry
        return found

    def __len__(self) -> int:
        return len(self._files)


def static_files() -> StaticFiles:
    return current_app.extensions["scorepad.static_files"]


def asset_version(filename: str) -> str:
    """The hash of a static file's content, or "0" for a file that is not there."""
    found = static_files().get(filename)
    return "0" if found is None else found.version


def asset_url(filename: str) -> str:
    """The URL of a static file with its content hash, so it can be cached for good."""
    found = static_files().get(filename)
    if found is None:
        return url_for("static", filename=filename, v="0")
    return request.script_root + found.below_root


def cookie_path() -> str:
    """The path every cookie of scorepad's is scoped to: its URL root (``/canasta`` under a path).

    RFC 6265 §5.1.4: ``Path=/canasta`` is sent to ``/canasta`` and ``/canasta/...`` only, so the
    rest of a club's site never sees scorepad's cookies (nor scorepad the site's).
    """
    return request.script_root or "/"


def vary(response: Response, *names: str) -> None:
    """Add ``names`` to the response's ``Vary`` header, each once, in one write.

    What ``response.vary.add`` does, for the hooks every page passes through: Werkzeug parses
    and rewrites the header on each call (~5 µs apiece, four or more a page).
    """
    current = response.headers.get("Vary")
    present = {name.strip().lower() for name in current.split(",")} if current else set()
    added = [name for name in dict.fromkeys(names) if name.lower() not in present]
    if added:
        response.headers["Vary"] = ", ".join(([current] if current else []) + added)


class Streamed(Response):
    """A response written as its pieces are made: a download of any size, in bounded memory."""


def streamed(pieces: Iterable[str], mimetype: str, headers: Mapping[str, str]) -> Streamed:
    """A response whose body is ``pieces`` sent as they come (UTF-8), gzipped a piece at a time
    for clients that accept it; a download of every match is never whole in memory."""
    return Streamed((piece.encode() for piece in pieces), mimetype=mimetype, headers=dict(headers))


def _gzip_pieces(pieces: Iterable[bytes]) -> Iterator[bytes]:
    packer = zlib.compressobj(DYNAMIC_LEVEL, zlib.DEFLATED, 31)  # 31: gzip's header and trailer
    for piece in pieces:
        packed = packer.compress(piece)
        if packed:
            yield packed
    yield packer.flush()


def compress(response: Response) -> Response:
    """Gzip text responses for clients that accept it (after every request)."""
    if request.endpoint == "static" and response.status_code == 200 and _is_current(request.args.get("v")):
        # This URL names this content for good: no revalidation (Flask's default no-cache) at all.
        response.cache_control.no_cache = None
        response.cache_control.public = True
        response.cache_control.max_age = YEAR
        response.cache_control.immutable = True
    if (
        response.status_code != 200
        or response.mimetype not in COMPRESSIBLE
        or "Content-Encoding" in response.headers
        or request.accept_encodings["gzip"] <= 0  # not asked for, or refused: ``gzip;q=0``
    ):
        return response
    if isinstance(response, Streamed):
        response.response = _gzip_pieces(response.response)
        response.headers["Content-Encoding"] = "gzip"
        vary(response, "Accept-Encoding")
        return response
    response.direct_passthrough = False
    data = response.get_data()
    if len(data) < MIN_SIZE:
        return response
    body = _static_gzip(data) if request.endpoint == "static" else gzip.compress(data, DYNAMIC_LEVEL, mtime=0)
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    vary(response, "Accept-Encoding")
    etag, weak = response.get_etag()
    if etag:
        response.set_etag(f"{etag}-gzip", weak)
    return response


def _static_gzip(data: bytes) -> bytes:
    """A static file's body gzipped at the best level: once per file of the folder, then kept."""
    found = static_files().get((request.view_args or {}).get("filename", ""))
    if found is None:
        return gzip.compress(data, STATIC_LEVEL, mtime=0)
    if found.gzipped is None:
        found.gzipped = gzip.compress(data, STATIC_LEVEL, mtime=0)
    return found.gzipped


def _is_current(version: str | None) -> bool:
    """True when a static URL's ``v`` is the file's current hash (an old one is not cached for good)."""
    filename = (request.view_args or {}).get("filename", "")
    return bool(version) and version == asset_version(filename)


def init_app(app: Flask) -> None:
    app.extensions["scorepad.static_files"] = StaticFiles()
    app.after_request(compress)
    app.add_template_global(asset_url)
