"""Static files and responses sent small: versioned asset URLs, long caching, gzip.

The score sheet must load in under 40 KB on a phone; htmx alone is ~52 KB raw and ~16 KB
gzipped, so every text response is compressed and every asset is cached for a year under a
URL that carries a hash of its content (a new file gets a new URL).

Static files are compressed once, at the best level, and kept; pages and JSON differ on every
request, so they are compressed at the fastest level (level 1 makes the 100-hand sheet about a
tenth larger than level 6 in a third of the time). A page made of markup kept for every browser
with this browser's form token between the pieces (the score sheet, see
``security.render_for_everyone``) is the exception: each piece is compressed once, at zlib's
default level, and a request only adds its token and the gzip trailer (:func:`kept_gzip`).
Asset URLs are worked out once per file and kept, except in debug mode, where an edited file
gets its new hash on the next page.
"""

from __future__ import annotations

import gzip
import hashlib
import posixpath
import struct
import zlib
from functools import lru_cache
from pathlib import Path

from flask import Flask, Response, current_app, g, request, url_for

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
    "manifest.webmanifest",
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
DYNAMIC_LEVEL = 1  # compressed on every request
KEPT_LEVEL = 6  # the pieces of kept markup: compressed once per match version and language
KEPT_PIECES = 128  # kept markup whose compressed pieces are kept (64 sheets, a page and a fragment each)
KEPT_BODIES = 256  # gzipped kept pages with one browser's token in them (~6 KB each for the long sheet)
# A page longer than this is encoded and compressed per request, not kept: the caches above are
# bounded by size as well as by count (a 900-hand sheet is ~400,000 characters).
KEPT_CHARACTERS = 200_000
# RFC 1952: deflate, no file name, no modification time, no level hint, unknown system.
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
# RFC 1951 3.2.4: an empty stored block marked last, which ends the deflate stream.
LAST_BLOCK = b"\x01\x00\x00\xff\xff"


@lru_cache(maxsize=64)
def _digest(path: str, mtime: float) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:10]


def asset_version(filename: str) -> str:
    """The hash of a static file's content, or "0" for a file that is not there.

    Kept per file of the static folder only: a name spelled another way (``./scorepad.css``,
    asked for by a client in a static URL) or missing is worked out and not kept, so the
    table never grows past the folder's own files.
    """
    versions = current_app.extensions["scorepad.asset_versions"]
    version = None if current_app.debug else versions.get(filename)
    if version is None:
        name = posixpath.normpath(filename)  # the file's own name, so _digest keys only the folder's files
        path = Path(current_app.static_folder) / name
        version = _digest(str(path), path.stat().st_mtime) if path.is_file() else "0"
        if version != "0" and name == filename and not filename.startswith("/"):
            versions[filename] = version
    return version


def asset_url(filename: str) -> str:
    """The URL of a static file with its content hash, so it can be cached for good.

    What is kept is the URL below the script root, per file; the request's script root (a
    proxy's ``X-Forwarded-Prefix``) is put in front on each call, so no prefix a client sends
    is ever kept.
    """
    urls = current_app.extensions["scorepad.asset_urls"]
    below = None if current_app.debug else urls.get(filename)
    if below is None:
        url = url_for("static", filename=filename, v=asset_version(filename))
        root = request.script_root
        if not url.startswith(root):
            return url
        below = url[len(root) :]
        if filename in current_app.extensions["scorepad.asset_versions"]:
            urls[filename] = below
    return request.script_root + below


@lru_cache(maxsize=64)
def _gzipped(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=STATIC_LEVEL, mtime=0)


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


def keep_body(parts: tuple[str, ...], filler: str) -> None:
    """Say that this request's page is ``filler.join(parts)``, with ``parts`` kept for many requests.

    :func:`compress` then sends the parts compressed once, if the body turns out to be exactly
    that text; anything else (a page rendered afresh around it, say) is compressed as usual.
    """
    if sum(map(len, parts)) <= KEPT_CHARACTERS:
        g.scorepad_kept_body = (parts, filler)


def kept_body(parts: tuple[str, ...], filler: str) -> bytes:
    """The page ``filler.join(parts)`` as UTF-8, from the parts encoded once, kept as by :func:`keep_body`.

    A view that returns it spares Flask encoding the whole page on every request (~50 µs for
    the 100-hand sheet: an ellipsis or a typographic apostrophe makes it more than ASCII).
    """
    if sum(map(len, parts)) > KEPT_CHARACTERS:
        return filler.join(parts).encode()
    keep_body(parts, filler)
    return filler.encode().join(_encoded(parts))


@lru_cache(maxsize=KEPT_PIECES)
def _encoded(parts: tuple[str, ...]) -> tuple[bytes, ...]:
    return tuple(part.encode() for part in parts)


@lru_cache(maxsize=KEPT_PIECES)
def _deflated(parts: tuple[str, ...]) -> tuple[bytes, ...]:
    """Each part as raw deflate ending on a byte boundary, ready to be joined.

    Each part has a compressor of its own, flushed with ``Z_SYNC_FLUSH``: its blocks refer to
    nothing before them, none is marked last, and the flush ends them on a whole byte, so the
    pieces and anything put between them as stored blocks read as one deflate stream.
    """
    deflated = []
    for data in _encoded(parts):
        compressor = zlib.compressobj(KEPT_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
        deflated.append(compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH))
    return tuple(deflated)


def kept_gzip(data: bytes, parts: tuple[str, ...], filler: str) -> bytes | None:
    """``data`` gzipped from the parts compressed once, or None when it is not ``filler.join(parts)``.

    The filler (a form token, a few dozen bytes) goes between the parts as a stored block; the
    trailer's CRC-32 and length are those of ``data``, checked to be exactly the joined parts.
    """
    between = filler.encode()
    if len(between) > 0xFFFF or data != between.join(_encoded(parts)):
        return None
    return _gzipped_with(parts, filler)


@lru_cache(maxsize=KEPT_BODIES)
def _gzipped_with(parts: tuple[str, ...], filler: str) -> bytes:
    """The gzip of ``filler.join(parts)``, kept: a phone's token stays the same page after page.

    Looked up only for a request whose own body is exactly that text, so a browser is only
    ever sent the page with its own token in it.
    """
    between = filler.encode()
    data = between.join(_encoded(parts))
    stored = struct.pack("<BHH", 0, len(between), len(between) ^ 0xFFFF) + between
    trailer = struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)
    return b"".join((GZIP_HEADER, stored.join(_deflated(parts)), LAST_BLOCK, trailer))


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
        or "gzip" not in request.headers.get("Accept-Encoding", "")
    ):
        return response
    response.direct_passthrough = False
    data = response.get_data()
    if len(data) < MIN_SIZE:
        return response
    kept = g.pop("scorepad_kept_body", None)
    if request.endpoint == "static":
        body = _gzipped(data)
    else:
        body = (kept and kept_gzip(data, *kept)) or gzip.compress(data, DYNAMIC_LEVEL, mtime=0)
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    vary(response, "Accept-Encoding")
    etag, weak = response.get_etag()
    if etag:
        response.set_etag(f"{etag}-gzip", weak)
    return response


def _is_current(version: str | None) -> bool:
    """True when a static URL's ``v`` is the file's current hash (an old one is not cached for good)."""
    filename = (request.view_args or {}).get("filename", "")
    return bool(version) and version == asset_version(filename)


def init_app(app: Flask) -> None:
    app.extensions["scorepad.asset_versions"] = {}
    app.extensions["scorepad.asset_urls"] = {}
    app.after_request(compress)
    app.add_template_global(asset_url)
