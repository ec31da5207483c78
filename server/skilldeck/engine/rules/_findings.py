"""What a rule reports: severity, finding, related locations and machine-applicable fixes."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from skilldeck.engine.text import Span


class Severity(str, enum.Enum):
    """Finding severity, in LSP order (error is the most severe)."""

    ERROR = "error"
    WARNING = "warning"
    INFORMATION = "information"
    HINT = "hint"

    @property
    def rank(self) -> int:
        """0 for error ... 3 for hint (lower is more severe)."""
        return _SEVERITY_RANK[self]


_SEVERITY_RANK = {
    Severity.ERROR: 0,
    Severity.WARNING: 1,
    Severity.INFORMATION: 2,
    Severity.HINT: 3,
}


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace ``span`` of one file's text with ``new_text``."""

    span: Span
    new_text: str


@dataclass(frozen=True, slots=True)
class Fix:
    """A machine-applicable fix for one finding, confined to the finding's file.

    ``edits`` apply together against the original text, as one LSP ``TextEdit[]``
    (:func:`skilldeck.engine.frontmatter.apply_edits`). The engine offers a fix only when
    the result is valid frontmatter whose values differ from the original in exactly
    the change the title names (:meth:`skilldeck.engine.frontmatter.FixCheck.exact`).

    ``unsafe`` marks a fix that changes what the skill means (a new name, a renamed or
    moved key, a placeholder text, another skill mentioned): ``check --fix`` applies it
    only with ``--unsafe-fixes``; the editor offers every fix, the user picks. A safe fix
    keeps what the author wrote, spelt the way every reader understands it.
    """

    title: str
    edits: tuple[TextEdit, ...]
    unsafe: bool = False


@dataclass(frozen=True, slots=True)
class RelatedLocation:
    """Another place that explains a finding (e.g. the skill that shadows this one)."""

    path: str
    span: Span
    message: str


@dataclass(frozen=True, slots=True)
class Finding:
    """One rule violation at one span of one file.

    ``drops_skill`` is True when the engine refuses the whole skill because of this
    finding (fail closed); False when the skill is still loaded (possibly with a field
    dropped, which the message says).
    """

    code: str
    severity: Severity
    message: str
    span: Span
    drops_skill: bool = False
    related: tuple[RelatedLocation, ...] = ()
    fixes: tuple[Fix, ...] = ()

    def __hash__(self) -> int:
        # Equal findings have equal codes, messages and starts: hashing those spreads them
        # as well, without walking every related location and fix (an SD802 with eight
        # related locations was 37 dataclass hashes; ``check`` hashes each finding once
        # to drop repeats, 0.8 million hashes at 10,000 skills).
        start = self.span.start
        return hash((self.code, self.message, start.line, start.character))
