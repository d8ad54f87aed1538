"""Violations: one broken rule, worded for the players at the table.

Checks return a list of these rather than stopping at the first problem, so a form or an API
answer can show everything that is wrong at once.

>>> Violation("two-sides-went-out", "Only one side can go out in a hand.", "entries").code
'two-sides-went-out'
"""

from __future__ import annotations

from dataclasses import dataclass

from .text import clause_list


@dataclass(frozen=True)
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
    """Input that cannot be scored or judged; carries every violation found."""

    def __init__(self, violations: list[Violation]):
        super().__init__(clause_list([v.message for v in violations]) if violations else "")
        self.violations = list(violations)
