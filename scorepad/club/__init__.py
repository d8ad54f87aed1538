"""Club nights (docs/clubnight.md): one name for the feature, in three parts that import one way.

- :mod:`.core`: the pure parts of a night of many tables (settings, seating, scoring a round,
  standings, the season), the standard library and :mod:`scorepad.canasta` only;
- :mod:`.reading`: a night's JSON export read back, pure, over the core and a match's document;
- :mod:`.web`: the blueprint (``nights``) and its pages.

Its rows are :mod:`scorepad.store.club`'s and its forms :mod:`scorepad.forms.club`'s. This file
imports nothing, so importing the pure parts never brings the web with them.
"""
