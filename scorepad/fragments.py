"""The one cache of rendered markup: pieces that depend on nothing in the request.

A long match's hand rows and its chart, and the lines of the match list, are most of those
pages' work, and they are the same for every browser that reads the same version of a match in
the same language under the same URL root. They are rendered once per key and kept here.

The key names everything the piece depends on (the kind of piece, the match, its version, the
language, the URL root, writer or watcher); every part of it is a normalised, bounded value,
never text a client sent as it came (else any client could fill the cache). A version is
never changed once written, so a kept piece is never stale: a write makes a new version and so a new key, and the
old piece ages out. Whatever is read from the request (the form token, the page's own address,
the viewer, a one-off message) is rendered around the kept pieces on every request, never
inside them. docs/architecture.md lists this cache with the measurement behind it.

>>> kept = Fragments(budget=40)
>>> kept.get(("row", 1), lambda: "<tr>1</tr>"), kept.get(("row", 1), lambda: "never drawn")
(Markup('<tr>1</tr>'), Markup('<tr>1</tr>'))
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import Flask, current_app
from markupsafe import Markup

# Characters kept in all: a 100-hand sheet's rows and chart are ~45,000, a list line ~600, so
# this holds about 80 long sheets and every line of several pages of the list (~20 MB at most).
BUDGET = 4_000_000
ENTRY_COST = 200  # characters charged for an entry's key and bookkeeping, so tiny pieces count too


class Fragments:
    """Markup by key, the least recently used going first once ``budget`` characters are kept."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self.size = 0
        self._kept: OrderedDict[Hashable, Markup] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, render: Callable[[], str]) -> Markup:
        """The markup kept under ``key``, rendered by ``render()`` and kept if it is not there yet.

        ``render`` must depend on nothing but what ``key`` names. A piece larger than the
        whole budget is rendered and not kept.
        """
        with self._lock:
            markup = self._kept.get(key)
            if markup is not None:
                self._kept.move_to_end(key)
                return markup
        markup = Markup(render())
        cost = len(markup) + ENTRY_COST
        if cost > self.budget:
            return markup
        with self._lock:
            if key not in self._kept:
                self._kept[key] = markup
                self.size += cost
            while self.size > self.budget:
                self.size -= len(self._kept.popitem(last=False)[1]) + ENTRY_COST
        return markup

    def __len__(self) -> int:
        return len(self._kept)


def fragments() -> Fragments:
    """This app's cache."""
    return current_app.extensions["scorepad.fragments"]


def init_app(app: Flask) -> None:
    app.extensions["scorepad.fragments"] = Fragments(app.config.get("FRAGMENT_BUDGET", BUDGET))
