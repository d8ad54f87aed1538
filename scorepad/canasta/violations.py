"""Violations: one broken rule, worded for the players at the table.

Checks return a list of these rather than stopping at the first problem, so a form or an API
answer can show everything that is wrong at once.

>>> Violation("two-sides-went-out", "Only one side can go out in a hand.", "entries").code
'two-sides-went-out'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: a stable kebab-case ``code``, a sentence, and the field it is about."""

    code: str
    message: str
    field: str = ""

    def under(self, prefix: str) -> Violation:
        """The same violation with its field placed under ``prefix`` (``hands[2]``, ...)."""
        if not prefix:
            return self
        joined = f"{prefix}.{self.field}" if self.field and not self.field.startswith("[") else prefix + self.field
        return Violation(self.code, self.message, joined)


class InvalidError(ValueError):
    """Input that cannot be scored or judged; carries every violation found.

    The violations are held as a flat list, each worded once. Nothing joins them into one
    message when the error is made: a request with thousands of problems costs memory in
    proportion to them, never to their square (nesting each message in the next did). ``str``
    of the error, for a log or a traceback, lists them one a line.

    >>> str(InvalidError([Violation("a", "One."), Violation("b", "Two.", "hands[1]")]))
    'One.\\nhands[1]: Two.'
    """

    def __init__(self, violations: list[Violation]):
        super().__init__()
        self.violations = list(violations)

    def __str__(self) -> str:
        return "\n".join(f"{v.field}: {v.message}" if v.field else str(v.message) for v in self.violations)
