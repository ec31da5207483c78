"""Fixes that never break a skill: applying edits, checking a fix's effect, fix-all.

A :class:`~skilldeck.engine.rules.Fix` is a list of text edits against the original
text, applied as an LSP client applies one ``TextEdit[]``: sorted by range (an insert
before a replacement starting at the same place, equal ranges in list order), never
overlapping, lines broken at ``\\n``, ``\\r\\n`` and ``\\r`` only.

The engine offers a fix only when :meth:`FixCheck.exact` holds for it: the edited
frontmatter is still valid YAML with no new parse finding (a duplicate key, ...), the
text outside the YAML (delimiters and body) is untouched, and the top-level mapping
differs from the original in exactly the keys the fix means to change. So an alias
left dangling, a duplicate key or an edit that lands outside the YAML document is
never offered. Checking parses the frontmatter once per fix, within a budget per file
(:data:`CHECK_BUDGET`). :func:`fix_all` combines the first fix of every finding the same
way, skipping a fix that overlaps or changes a key an earlier one already changed.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from skilldeck.engine.frontmatter._frontmatter import (
    MAX_FRONTMATTER_BYTES,
    FrontmatterBounds,
    FrontmatterParse,
    find_frontmatter,
    parse_frontmatter,
)
from skilldeck.engine.rules import Finding, TextEdit
from skilldeck.engine.text import Position, line_starts

# The node properties (anchor ``&a``, tag ``!t``) in front of a one-line scalar.
_PROPERTIES = re.compile(r"(?:([&!])(\S*)[ \t]+)*")
_PROPERTY = re.compile(r"([&!])(\S*)[ \t]+")


class _Removed:
    """The marker of a key a fix removes (see :data:`REMOVED`)."""

    def __repr__(self) -> str:
        return "REMOVED"


#: The value in a change set of a top-level key the fix removes.
REMOVED: object = _Removed()


@dataclass(frozen=True, slots=True)
class FixAll:
    """What fix-all applies: the findings it fixes and their edits, in text order."""

    findings: tuple[Finding, ...]
    edits: tuple[TextEdit, ...]


@dataclass(frozen=True, slots=True)
class _State:
    """What a fix may and may not change in one text."""

    mapping: Mapping[str, object]
    outside: tuple[str, str]
    problems: Counter[str]


def _offset(text: str, starts: Sequence[int], position: Position) -> int:
    """The offset of ``position``; a character past its line's end means the end."""
    if position.line >= len(starts):
        return len(text)
    start = starts[position.line]
    end = starts[position.line + 1] if position.line + 1 < len(starts) else len(text)
    line_end = start + len(text[start:end].rstrip("\r\n"))
    return min(start + position.character, line_end)


def edits_overlap(a: TextEdit, b: TextEdit) -> bool:
    """True when two edits touch the same text (two inserts at one point count)."""
    if a.span.start == a.span.end == b.span.start == b.span.end:
        return True
    return a.span.start < b.span.end and b.span.start < a.span.end


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """``text`` with ``edits`` applied as one LSP ``TextEdit[]`` (all against ``text``).

    Inserts at one place go in list order. Raises ``ValueError`` when an edit starts
    before the previous one ends (VS Code refuses such a list).
    """
    ordered = sorted(edits, key=lambda edit: (edit.span.start, edit.span.end))
    starts = line_starts(text)
    pieces: list[str] = []
    done = 0
    for edit in ordered:
        start = _offset(text, starts, edit.span.start)
        if start < done:
            raise ValueError("overlapping edits")
        end = max(start, _offset(text, starts, edit.span.end))
        pieces += [text[done:start], edit.new_text]
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def scalar_properties(source: str) -> tuple[str, str]:
    """Split one-line scalar source into its anchors (``"&a "``) and its content.

    Tags are dropped: a fix writes a value of the type it means.
    """
    match = _PROPERTIES.match(source)
    assert match is not None  # the pattern matches the empty string
    anchors = "".join(
        f"&{prop.group(2)} "
        for prop in _PROPERTY.finditer(source, 0, match.end())
        if prop.group(1) == "&"
    )
    return anchors, source[match.end() :]


def has_properties(source: str) -> bool:
    """True when one-line scalar source starts with an anchor or a tag."""
    match = _PROPERTIES.match(source)
    return match is not None and match.end() > 0


def replace_scalar(source: str, new_text: str) -> str:
    """The text that replaces a one-line scalar written as ``source``: its anchors kept."""
    anchors, _ = scalar_properties(source)
    return anchors + new_text


#: How much frontmatter text (characters) checking the fixes of one file may parse: as
#: much as the largest frontmatter, so checking at most doubles what a hostile file
#: costs, while a typical frontmatter of 500 characters has room for 130 checks. A fix
#: past the budget is not offered.
CHECK_BUDGET = MAX_FRONTMATTER_BYTES


def _state(head: str) -> _State | None:
    """The frontmatter mapping, the text around the YAML and the parse findings of
    ``head`` (a document cut after its closing line)."""
    bounds = find_frontmatter(head)
    if not isinstance(bounds, FrontmatterBounds):
        return None
    return _state_of(parse_frontmatter(head), head, bounds)


def _state_of(parsed: FrontmatterParse, head: str, bounds: FrontmatterBounds) -> _State | None:
    """:func:`_state` of ``head`` from its parse (of ``head`` or of the whole document:
    only the text between the delimiters is parsed)."""
    if parsed.frontmatter is None:
        return None
    mapping: dict[str, object] = {}
    for entry in parsed.frontmatter.entries:
        mapping[entry.key] = entry.value
    outside = (head[: bounds.yaml_start], head[bounds.yaml_end :])
    return _State(mapping, outside, Counter(f.code for f in parsed.findings))


class FixCheck:
    """Checks fixes of one document, parsing at most ``budget`` characters in all.

    Only the frontmatter is ever copied or parsed: an edit reaching past the start of
    the closing line is refused, so the body cannot change.
    """

    def __init__(
        self, text: str, budget: int = CHECK_BUDGET, parsed: FrontmatterParse | None = None
    ) -> None:
        """``parsed``: the document's own parse, when the caller has it (the state
        before any fix is then read from it, not parsed again)."""
        self._budget = budget
        bounds = find_frontmatter(text)
        self._head = text[: bounds.body_start] if isinstance(bounds, FrontmatterBounds) else None
        self._limit = Position(0, 0)
        if isinstance(bounds, FrontmatterBounds):
            self._limit = Position(len(line_starts(text[: bounds.yaml_end])) - 1, 0)
        self._before: _State | None = None
        self._before_read = False
        if parsed is not None and isinstance(bounds, FrontmatterBounds) and self._head is not None:
            self._before = _state_of(parsed, self._head, bounds)
            self._before_read = True

    def _parse(self, head: str) -> _State | None:
        if len(head) > self._budget:
            self._budget = 0
            return None
        self._budget -= len(head)
        return _state(head)

    @property
    def before(self) -> _State | None:
        """The document as it is (``None`` without valid frontmatter or budget)."""
        if not self._before_read and self._head is not None:
            self._before_read = True
            self._before = self._parse(self._head)
        return self._before

    def after(self, edits: Sequence[TextEdit]) -> _State | None:
        """The document after ``edits`` (``None`` when they break or reach past the YAML)."""
        head = self._head
        if head is None or len(head) > self._budget:
            return None
        if any(edit.span.end > self._limit for edit in edits):
            return None
        try:
            edited = apply_edits(head, edits)
        except ValueError:
            return None
        return self._parse(edited)

    def exact(self, edits: Sequence[TextEdit], changes: Mapping[str, object]) -> bool:
        """True when ``edits`` leave valid frontmatter whose top-level mapping is the
        original with ``changes`` applied (``REMOVED`` removes a key) and nothing else:
        no new parse finding, the delimiters and the body untouched."""
        before = self.before
        if before is None:
            return False
        return _holds(before, self.after(edits), _changed(before.mapping, changes))


def _canonical(value: object) -> object:
    """A comparable form that tells ``1``, ``1.0`` and ``true`` apart and equates NaNs."""
    if isinstance(value, dict):
        return ("map", tuple(sorted((str(k), _canonical(v)) for k, v in value.items())))
    if isinstance(value, list):
        return ("seq", tuple(_canonical(item) for item in value))
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def _changed(before: Mapping[str, object], changes: Mapping[str, object]) -> dict[str, object]:
    result = dict(before)
    for key, value in changes.items():
        if value is REMOVED:
            result.pop(key, None)
        else:
            result[key] = value
    return result


def _holds(before: _State, after: _State | None, expected: Mapping[str, object]) -> bool:
    return (
        after is not None
        and after.outside == before.outside
        and after.problems <= before.problems
        and _canonical(dict(after.mapping)) == _canonical(dict(expected))
    )


def _delta(before: Mapping[str, object], after: Mapping[str, object]) -> dict[str, object]:
    delta: dict[str, object] = {key: REMOVED for key in before if key not in after}
    for key, value in after.items():
        if key not in before or _canonical(before[key]) != _canonical(value):
            delta[key] = value
    return delta


def fix_all(text: str, findings: Iterable[Finding], budget: int = 2 * CHECK_BUDGET) -> FixAll:
    """The first fix of every finding that combines safely with the ones before it.

    A fix is skipped when its edits overlap an earlier fix's, when it changes a
    top-level key an earlier fix changed (two fixes adding ``disable-model-invocation``),
    or when the combination is not exactly the sum of the fixes' changes; checking
    stops when ``budget`` characters of frontmatter have been parsed.
    """
    check = FixCheck(text, budget)
    before = check.before
    if before is None:
        return FixAll((), ())
    chosen: list[TextEdit] = []
    fixed: list[Finding] = []
    expected = dict(before.mapping)
    touched: set[str] = set()
    for finding in findings:
        if not finding.fixes:
            continue
        edits = finding.fixes[0].edits
        if any(edits_overlap(a, b) for a in edits for b in chosen):
            continue
        alone = check.after(edits)
        if alone is None:
            continue
        delta = _delta(before.mapping, alone.mapping)
        if touched.intersection(delta):
            continue
        trial = _changed(expected, delta)
        if not chosen:
            combined: _State | None = alone
        else:
            combined = check.after([*chosen, *edits])
        if not _holds(before, combined, trial):
            continue
        chosen.extend(edits)
        fixed.append(finding)
        expected = trial
        touched.update(delta)
    ordered = sorted(chosen, key=lambda edit: (edit.span.start, edit.span.end))
    return FixAll(tuple(fixed), tuple(ordered))
