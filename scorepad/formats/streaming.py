"""Files written as they are read: JSON and CSV as pieces of text, a batch at a time.

A download of every match must not hold every match: its document is built with the long list
marked :class:`Streamed`, and :func:`json_pieces` writes it item by item, in exactly the text
:func:`~.jsonfile.json_file` writes for the whole document, so a file streamed and a file
written at once are the same bytes. :func:`csv_pieces` does the same for rows, and
:func:`batched` joins small pieces into pieces worth a write.

>>> document = {"format": "x", "items": Streamed(iter([{"a": 1}, [2]]))}
>>> "".join(json_pieces(document)) == json_file({"format": "x", "items": [{"a": 1}, [2]]})
True
>>> "".join(csv_pieces([["a", "b,c"], [1, 2]]))
'a,"b,c"\\r\\n1,2\\r\\n'
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

# Pieces are joined until they reach this many characters: big enough that a download is a few
# writes per hundred matches, small enough that its memory does not depend on its size.
BATCH = 64 * 1024
INDENT = 1  # as every scorepad JSON file is written (``json_file``)


class Streamed:
    """A list in a document whose items are made as they are written, one at a time."""

    def __init__(self, items: Iterable[Any]) -> None:
        self.items = items


def json_file(document: Any) -> str:
    """A document as every scorepad JSON file is written: UTF-8 text, one-space indents, a last newline."""
    return json.dumps(document, ensure_ascii=False, indent=INDENT) + "\n"


def json_pieces(document: Any) -> Iterator[str]:
    """``json_file(document)`` a piece at a time, each :class:`Streamed` list an item at a time."""
    yield from _value(document, 0)
    yield "\n"


def _value(value: Any, level: int) -> Iterator[str]:
    if isinstance(value, Streamed):
        yield from _list(value.items, level)
    elif isinstance(value, Mapping) and _streams(value):
        yield from _object(value, level)
    else:
        text = json.dumps(value, ensure_ascii=False, indent=INDENT)
        # A string never holds a raw line break (JSON escapes it), so every line break here
        # is the dump's own: indenting them puts the value at its depth in the document.
        yield text.replace("\n", "\n" + " " * (INDENT * level)) if level else text


def _streams(value: Mapping[str, Any]) -> bool:
    return any(isinstance(item, Streamed) or (isinstance(item, Mapping) and _streams(item)) for item in value.values())


def _object(value: Mapping[str, Any], level: int) -> Iterator[str]:
    inner = " " * (INDENT * (level + 1))
    for index, (key, item) in enumerate(value.items()):
        yield ("{\n" if index == 0 else ",\n") + inner + json.dumps(key, ensure_ascii=False) + ": "
        yield from _value(item, level + 1)
    yield "\n" + " " * (INDENT * level) + "}"


def _list(items: Iterable[Any], level: int) -> Iterator[str]:
    inner = " " * (INDENT * (level + 1))
    empty = True
    for item in items:
        yield ("[\n" if empty else ",\n") + inner
        yield from _value(item, level + 1)
        empty = False
    yield "[]" if empty else "\n" + " " * (INDENT * level) + "]"


def csv_pieces(rows: Iterable[Sequence[Any]]) -> Iterator[str]:
    """Rows as the csv module writes them, a row at a time."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow(row)
        yield out.getvalue()
        out.seek(0)
        out.truncate()


def batched(pieces: Iterable[str], size: int = BATCH) -> Iterator[str]:
    """The pieces joined into pieces of about ``size`` characters (the last may be shorter).

    >>> list(batched(["ab", "c", "de", "f"], size=3))
    ['abc', 'def']
    """
    held: list[str] = []
    length = 0
    for piece in pieces:
        held.append(piece)
        length += len(piece)
        if length >= size:
            yield "".join(held)
            held, length = [], 0
    if held:
        yield "".join(held)
