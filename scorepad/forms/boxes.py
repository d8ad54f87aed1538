"""What every form shares: number boxes that name themselves in their messages, and a refused
form token shown as a problem above the boxes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import Domain
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms import IntegerField, widgets
from wtforms.i18n import messages_path
from wtforms.validators import NumberRange, StopValidation
from wtforms.widgets.core import clean_key

from ..i18n import gettext as _
from ..i18n import lazy_gettext, text

NUMERIC = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}
MAX_POINTS = 10_000
# Beyond any number a Canasta box takes, and far inside what a range check can compare
# (WTForms' NumberRange turns a 310-digit number into a float and fails with OverflowError).
LARGEST = 10**9
TOKEN_REFUSED = lazy_gettext(
    "Not saved yet: this page's security check did not pass (it was opened in another browser, "
    "or the browser dropped its session). Everything you typed is still here: check it and save again."
)


def in_range(label: str, low: int | None, high: int | None) -> NumberRange:
    """A range check whose message names the box and the rule, e.g. "Red threes: 0 to 12"."""
    return NumberRange(low, high, message=range_message(label, low, high))


def range_message(label: str, low: int | None, high: int | None) -> str:
    """What a box says when its number is outside its range (or it holds none and counts cards)."""
    box = text(label)
    if low is not None and high is not None:
        return _("%(box)s must be a whole number from %(low)s to %(high)s.", box=box, low=low, high=high)
    if low is not None:
        return _("%(box)s must be a whole number of at least %(low)s.", box=box, low=low)
    return _("%(box)s must be a whole number of at most %(high)s.", box=box, high=high)


def not_whole_message(label: str) -> str:
    """What a points box that holds no whole number says ("abc", "12.5")."""
    return _("%(box)s must be a whole number, like 120 (no letters or decimals).", box=text(label))


def read_count(typed: str | None, label: str, high: int, step: int) -> tuple[int | None, str | None]:
    """A count box as typed: ``(number, None)``, or ``(None, what the box says)``.

    The one reading of a hand's number boxes: the form's :class:`CountField` and the live
    preview's :class:`~scorepad.forms.posted.PostedHand` both read through it. An empty box is
    0, as on the paper sheet; a number of a thousand digits is refused as typed, never converted.
    """
    if typed is None or not str(typed).strip():
        return 0, None
    if len(str(typed).strip().lstrip("+-")) > len(str(LARGEST)):
        return None, range_message(label, 0, high)
    try:
        number = int(typed)
    except ValueError:
        return None, range_message(label, 0, high) if step == 1 else not_whole_message(label)
    if not 0 <= number <= high:
        return None, range_message(label, 0, high)
    return number, None


def html_params(**kwargs: Any) -> Markup:
    """WTForms' ``html_params``, the same attributes in the same order, written with plain strings.

    WTForms formats each attribute through ``Markup.format`` (a pure-Python formatter that escapes
    every part again); a hand form has ~40 boxes of ~10 attributes, which made that formatting
    most of the cost of a score sheet. Keys and values are escaped exactly as there.
    """
    params = []
    for key, value in sorted(kwargs.items()):
        if value is True:
            params.append(str(escape(clean_key(key))))
        elif value is not False:
            params.append(f'{escape(clean_key(key))}="{str(escape(value)).replace(chr(34), "&quot;")}"')
    return Markup(" ".join(params))


class NumberInput(widgets.NumberInput):
    """WTForms' number box, its attributes written by the plain-string ``html_params`` above."""

    html_params = staticmethod(html_params)


class WholeNumberField(IntegerField):
    """A whole number box whose messages say which box and what it takes, and say it once.

    WTForms would say "Not a valid integer value." and then run the range check on nothing;
    a player reading that at the table does not know which box or what to type instead.
    """

    widget = NumberInput()

    def process_formdata(self, valuelist: list[str]) -> None:
        if valuelist and not str(valuelist[0]).strip():
            self.data = None  # an empty box: Optional or InputRequired decides what that means
            return
        if valuelist and len(str(valuelist[0]).strip().lstrip("+-")) > len(str(LARGEST)):
            self.data = None  # refused as typed: a number of a thousand digits is never converted
            raise ValueError(self.too_large())
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(self.not_whole()) from None
        if self.data is not None and abs(self.data) > LARGEST:
            self.data = None
            raise ValueError(self.too_large())

    def not_whole(self) -> str:
        """What a box that holds no whole number says ("abc", "12.5")."""
        return not_whole_message(self.label.text)

    def too_large(self) -> str:
        """The box's own range message, or a plain one when it has no range."""
        ranges = [v.message for v in self.validators if isinstance(v, NumberRange) and v.message]
        return (
            ranges[0]
            if ranges
            else _("%(box)s is far too large: type a whole number, like 120.", box=text(self.label.text))
        )

    def pre_validate(self, form: Any) -> None:
        if self.process_errors:
            raise StopValidation()  # the box could not be read: the range says nothing more


class CountField(WholeNumberField):
    """A whole number of points or cards where an empty box means 0, as on the paper sheet."""

    def __init__(self, label: str, validators: Sequence[Any] = (), step: int = 1, high: int = MAX_POINTS, **kwargs):
        render_kw = {**NUMERIC, "min": 0, "step": step, "placeholder": "0", **kwargs.pop("render_kw", {})}
        kwargs.setdefault("default", 0)
        # The range check stays for the box's own min and max attributes; read_count applies it.
        super().__init__(label, [in_range(label, 0, high), *validators], render_kw=render_kw, **kwargs)
        self.step = step
        self.high = high

    def process_formdata(self, valuelist: list[str]) -> None:
        """The box read by :func:`read_count` (a count of cards or canastas says its range when it
        holds no whole number: "like 120" is a points box's example)."""
        self.data, problem = read_count(valuelist[0] if valuelist else None, self.label.text, self.high, self.step)
        if problem is not None:
            raise ValueError(problem)

    def _value(self) -> str:
        if not self.raw_data and not self.data:
            return ""  # a zero shows as the placeholder, so typing never starts with "0"
        return super()._value()


# WTForms' own messages ("Not a valid choice."), its catalogue kept by Flask-Babel as ours is: loaded
# once per language, where Flask-WTF's i18n reads the file from disk again on every request.
WTFORMS_MESSAGES = Domain(translation_directories=[messages_path()], domain="wtforms")


class WTFormsMessages:
    """The translations object WTForms asks for its messages, in the request's language."""

    def gettext(self, string: str) -> str:
        return WTFORMS_MESSAGES.get_translations().ugettext(string)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return WTFORMS_MESSAGES.get_translations().ungettext(singular, plural, n)


class PageForm(FlaskForm):
    """Every form of the app: Flask-WTF's, with WTForms' messages from the catalogue loaded once."""

    class Meta:
        def get_translations(self, form: Any) -> WTFormsMessages:
            return WTFormsMessages()


class TableForm(PageForm):
    """A form whose refused token is a message above the boxes, like any other problem.

    Its view checks the token through the form (``security.form_checks_token``), so a page left
    open in another browser, or one whose session cookie is gone, comes back filled in with this
    message and a fresh token instead of a bare error page.
    """

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.problems: list[str] = []

    @property
    def token_refused(self) -> bool:
        return bool(self.meta.csrf and self.csrf_token.errors)

    def validate(self, extra_validators: Mapping[str, Sequence[Any]] | None = None) -> bool:
        valid = super().validate(extra_validators)
        if self.token_refused and TOKEN_REFUSED not in self.problems:
            self.problems.insert(0, TOKEN_REFUSED)
        return valid
