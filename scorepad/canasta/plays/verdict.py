"""The checker's answer: each rule applied as a :class:`Finding`, gathered into a :class:`Verdict`.

>>> verdict = Verdict.from_findings([Finding("meld", "K-K-K is a meld."), Finding("below-minimum", "Short.", False)])
>>> verdict.legal, verdict.reasons
(False, ('Short.',))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..violations import Violation


@dataclass(frozen=True)
class Finding:
    """One rule applied to the position: obeyed (True), broken (False) or worth knowing (None)."""

    code: str
    text: str
    obeyed: bool | None = True


@dataclass(frozen=True)
class Verdict:
    """The answer: legal or not, the rules that decide it, and the initial-meld arithmetic."""

    legal: bool
    reasons: tuple[str, ...]
    count: int | None = None
    minimum: int | None = None
    how: tuple[tuple[Card, ...], ...] | None = None
    problems: tuple[Violation, ...] = ()  # the broken rules, with stable codes

    def to_dict(self) -> dict[str, Any]:
        """The verdict as ``POST /api/v1/check`` answers it."""
        return {
            "legal": self.legal,
            "reasons": list(self.reasons),
            "count": self.count,
            "minimum": self.minimum,
            "how": None if self.how is None else [[str(card) for card in meld] for meld in self.how],
            "problems": [{"code": v.code, "message": v.message} for v in self.problems],
        }

    @classmethod
    def from_findings(cls, findings: Sequence[Finding], **numbers: Any) -> Verdict:
        """The verdict these findings give: broken rules first, else the rules obeyed; notes last."""
        broken = [f for f in findings if f.obeyed is False]
        notes = [f.text for f in findings if f.obeyed is None]
        if broken:
            reasons = [f.text for f in broken] + notes
        else:
            reasons = [f.text for f in findings if f.obeyed] + notes
        return cls(
            legal=not broken,
            reasons=tuple(_dedupe(reasons)),
            problems=tuple(Violation(f.code, f.text) for f in broken),
            **numbers,
        )


def _dedupe(texts: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(texts))


def applied(checks: Iterable[Callable[..., Finding | None]], *args: Any) -> list[Finding]:
    """What each of these named checks finds, in order: every rule at once, never only the first broken."""
    return [finding for check in checks if (finding := check(*args)) is not None]


def first_applied(checks: Iterable[Callable[..., Finding | None]], *args: Any) -> list[Finding]:
    """The finding of the first check that applies, for rules that exclude one another."""
    return next(([finding] for check in checks if (finding := check(*args)) is not None), [])
