"""Messages the players can read in their own language, and read as English until asked.

The rules core speaks through :class:`Text`: a ``str`` whose value is the English sentence, so
every caller, JSON answer and test keeps working with plain strings, which also carries the
message id and parameters needed to say it again in another language. The web layer calls
:meth:`Text.render` with the request's translations (any object with the standard library's
``gettext.NullTranslations`` API; Flask-Babel's ``get_translations()`` is one).

Messages are whole sentences with named ``%(name)s`` placeholders (Python's ``%``-formatting,
the web layer's and the templates' syntax too), so a translator can reorder them; a parameter
that is itself a :class:`Text` (a card name, a list of cards) is translated with the same
catalogue first. Three functions make messages, and their names are the extraction keywords:
``pybabel extract -k t -k tn:1,2 -k tp:1c,2 -c Translators:``.

>>> import gettext
>>> class Spanish(gettext.NullTranslations):  # a catalogue of two messages
...     def gettext(self, message):
...         return {"two": "dos"}.get(message, message)
...     def ngettext(self, singular, plural, n):
...         return "Para bajarse, %(side)s necesita %(count)s canastas." if n != 1 else singular
>>> message = tn("%(side)s needs %(count)s canasta to go out.", "%(side)s needs %(count)s canastas to go out.", 2,
...              side="Them", count=t("two"))
>>> message, message.render(Spanish())
('Them needs two canastas to go out.', 'Para bajarse, Them necesita dos canastas.')

Every message is a format pattern, even one without parameters: a literal percent sign is
written twice (``100%%``), as ``%``-formatting and the ``python-format`` flag expect (Jinja's
``_()`` treats its messages the same way).
Messages used over and over are made once, at import, as module constants.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol


class Translations(Protocol):
    """What :meth:`Text.render` needs: the standard library's ``gettext.NullTranslations`` API."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


class Text(str):
    """A message whose ``str`` value is its English rendering; :meth:`render` says it in another language.

    It is made from the message id (the singular for a plural message), the plural id or None,
    the number that picks the form, the gettext context or None, and the values for the
    placeholders; the properties of the same names read them back.
    """

    __slots__ = ("_source",)  # one attribute, made per message: no instance dict

    def __new__(
        cls,
        message: str,
        params: dict[str, Any] | None = None,
        plural: str | None = None,
        n: int | None = None,
        context: str | None = None,
    ) -> Text:
        # Made per reason the checker gives, so kept to one format and one attribute; ``params``
        # is taken over (t and tn pass their own fresh keyword dict).
        if params is None:
            params = {}
        if plural is None:
            self = str.__new__(cls, message % params)
        else:
            params["n"] = n
            # English plural forms, as gettext.NullTranslations picks them.
            self = str.__new__(cls, (message if n == 1 else plural) % params)
        self._source = (message, plural, n, context, params)
        return self

    @property
    def message(self) -> str:
        """The message id: the English pattern, or its singular for a plural message."""
        return self._source[0]

    @property
    def plural(self) -> str | None:
        """The plural message id, or None."""
        return self._source[1]

    @property
    def n(self) -> int | None:
        """The number that picks the plural form, or None."""
        return self._source[2]

    @property
    def context(self) -> str | None:
        """The gettext context, or None."""
        return self._source[3]

    @property
    def params(self) -> Mapping[str, Any]:
        """The values for the placeholders (``n`` among them for a plural message)."""
        return self._source[4]

    def render(self, translations: Translations) -> str:
        """This message in the language of ``translations``, its ``Text`` parameters rendered first.

        A translation whose placeholders do not fit (a catalogue mistake) falls back to the
        English pattern, with the parameters still translated, rather than failing the page.
        """
        message, plural, n, context, params = self._source
        pattern = _pattern(translations, message, plural, n, context)
        values = {
            name: value.render(translations) if isinstance(value, Text) else value for name, value in params.items()
        }
        try:
            return pattern % values
        except (KeyError, TypeError, ValueError):
            return (message if plural is None or n == 1 else plural) % values

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled and copied as the message it is, not as its English text alone.
        message, plural, n, context, params = self._source
        return (Text, (message, dict(params), plural, n, context))


def _pattern(translations: Translations, message: str, plural: str | None, n: int | None, context: str | None) -> str:
    if context is None:
        if plural is None:
            return translations.gettext(message)
        return translations.ngettext(message, plural, n)
    # pgettext / npgettext are part of NullTranslations since Python 3.8; a translations
    # object without them gets the message without its context.
    if plural is None:
        get = getattr(translations, "pgettext", None)
        return get(context, message) if get else translations.gettext(message)
    get = getattr(translations, "npgettext", None)
    return get(context, message, plural, n) if get else translations.ngettext(message, plural, n)


def t(message: str, /, **params: Any) -> Text:
    """A message with named parameters: ``t("%(side)s needs %(minimum)s to open.", side=..., minimum=50)``.

    >>> t("%(side)s needs %(minimum)s to open.", side="They", minimum=90)
    'They needs 90 to open.'
    """
    return Text(message, params)


def tn(singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """A message with a plural form picked by ``n``, which the text may also show as ``%(n)s``.

    >>> tn("%(n)s red three", "%(n)s red threes", 1), tn("%(n)s red three", "%(n)s red threes", 3)
    ('1 red three', '3 red threes')
    """
    return Text(singular, params, plural, n)


def tp(context: str, message: str, /, **params: Any) -> Text:
    """A message in a gettext context, for the same English words meaning different things.

    >>> tp("count", "two")  # the number, not the card
    'two'
    """
    return Text(message, params, context=context)


def N_(message: str) -> str:
    """Mark a message for the catalogue (``pybabel extract``) that its reader translates later, as it is.

    For the layers around the core that word a message with the reader's own ``gettext`` when it
    is shown (the checker's board, the share text); the core's own messages are :func:`t`'s.

    >>> N_("Tap the cards in your hand.")
    'Tap the cards in your hand.'
    """
    return message


def fold(items: Sequence[Any], join: Callable[[Any, Any], Text]) -> Any:
    """Join items from the right with ``join(first, rest)``: the shape of every list pattern.

    One item comes back as it is; none is an error (a sentence never lists nothing). Each join
    holds the whole rest of the list, so n items cost n² characters: only for the few items of
    one sentence (card ranks, a variant's choices, the sides), never for what a request sends
    as many times as it likes (a request's problems are a flat list: :class:`InvalidError`).
    """
    if not items:
        raise ValueError("nothing to join")
    result = items[-1]
    for item in reversed(items[:-1]):
        result = join(item, result)
    return result


def and_list(items: Sequence[Any], commas: bool = True) -> Any:
    """Items as a list in a sentence, in any language: "kings, queens and jacks".

    The last two are joined by the "and" pattern, the others by the "comma" pattern (CLDR's
    list patterns, which every language can fill); without ``commas`` every join is "and".

    >>> and_list(["kings", "queens", "jacks"]), and_list(["a five", "a six", "a seven"], commas=False)
    ('kings, queens and jacks', 'a five and a six and a seven')
    """

    if not items:
        raise ValueError("nothing to join")
    result = items[-1]
    for index in range(len(items) - 2, -1, -1):
        if index == len(items) - 2 or not commas:
            # Translators: the last two items of a list ("kings, queens and jacks"), or a list of two.
            result = t("%(first)s and %(second)s", first=items[index], second=result)
        else:
            # Translators: the items of a list before its last two: %(second)s is the rest of the list.
            result = t("%(first)s, %(second)s", first=items[index], second=result)
    return result


def clause_list(items: Sequence[Any]) -> Any:
    """Clauses that each say something whole, one after another: "it is frozen; you have not opened".

    >>> clause_list(["it holds a wild card", "your side has not made its initial meld"])
    'it holds a wild card; your side has not made its initial meld'
    """
    # Translators: two clauses of one sentence, each complete in itself.
    return fold(items, lambda first, rest: t("%(first)s; %(second)s", first=first, second=rest))


# Characters no box of text holds: C0 and C1 controls (line breaks, tabs, escape, NUL, DEL) and
# lone surrogates, which a JSON string can spell (\ud800) but no UTF-8 text can carry.
_UNFIT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def fit_characters(value: str) -> bool:
    """True when ``value`` holds no control character and no lone surrogate (no length check)."""
    return _UNFIT.search(value) is None


def unfit_text(value: str, name: Any, longest: int) -> Text | None:
    """Why a client's ``value`` cannot be taken as one line of text, or None when it can.

    The one test of text a client sends, for the API, the pages and the import alike: at most
    ``longest`` characters, no control character and no lone surrogate (``"\\ud800"`` in JSON,
    which cannot be written out as UTF-8 and would fail the answer that echoed it). ``name``
    says which field, as the message shows it (``hands[2].variant``, or a box's label). The
    message never repeats the text itself.

    >>> unfit_text("Los Pumas", "Side name", 60) is None
    True
    >>> unfit_text("We\\nThey", "Side name", 60)
    'Side name holds a control character (a line break, a tab or similar): keep it to one line of text.'
    >>> unfit_text("K" * 70, "hand[0]", 60)
    'hand[0] is at most 60 characters long; this one has 70.'
    """
    if len(value) > longest:
        # Translators: %(name)s is a field or box; %(longest)s and %(length)s count characters.
        return t(
            "%(name)s is at most %(longest)s characters long; this one has %(length)s.",
            name=name,
            longest=longest,
            length=len(value),
        )
    found = _UNFIT.search(value)
    if found is None:
        return None
    if "\ud800" <= found.group() <= "\udfff":
        # Translators: %(name)s is a field or box. A lone surrogate: half of a UTF-16 pair.
        return t(
            "%(name)s holds a broken character (half of a two-part character such as an emoji): type it again.",
            name=name,
        )
    # Translators: %(name)s is a field or box.
    return t(
        "%(name)s holds a control character (a line break, a tab or similar): keep it to one line of text.", name=name
    )
