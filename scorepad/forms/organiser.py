"""The organiser's sign-in form."""

from __future__ import annotations

from wtforms.fields.simple import PasswordField
from wtforms.validators import InputRequired, Length

from ..i18n import lazy_gettext
from .boxes import PageForm


class OrganiserForm(PageForm):
    """The organiser's sign-in: the passphrase the server's owner set."""

    passphrase = PasswordField(
        lazy_gettext("Organiser passphrase"),
        [InputRequired(message=lazy_gettext("Type the organiser passphrase.")), Length(max=1000)],
        render_kw={"autocomplete": "current-password"},
    )
