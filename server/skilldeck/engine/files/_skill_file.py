"""One skill file in, one :class:`SkillFileAnalysis` out.

The file is read and decoded by :mod:`skilldeck.engine.files._skill_read` (size cap, never
opening FIFOs or devices) and parsed by :mod:`skilldeck.engine.frontmatter`; every
per-file rule is checked here. The result holds the
fields the engine uses (name, description, ``whenToUse``, metadata, invocation policy)
and every finding, with severities adjusted by :class:`RuleSettings`.

Switching off a rule (override ``None``) only hides its findings: a finding that drops
the skill still drops it, so configuration can never make the engine load a skill it
would refuse. :attr:`SkillFileAnalysis.suppressed_drops` records such hidden drops.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import PurePath
from types import MappingProxyType
from typing import Any

from skilldeck.engine.config import RuleSettings
from skilldeck.engine.files._analysis_json import (
    finding_from_json,
    finding_to_json,
    json_bool,
    json_int,
    json_opt_str,
    json_str,
    span_from_json,
    span_to_json,
)
from skilldeck.engine.files._near_misses import near_miss_key
from skilldeck.engine.files._placeholders import DESCRIPTION_PLACEHOLDER, is_placeholder_description
from skilldeck.engine.files._skill_names import (
    kebab_case,
    name_problem,
    standard_form,
    standard_name_problem,
)
from skilldeck.engine.files._skill_read import (
    MAX_SKILL_FILE_BYTES,
    SkillReadError,
    decode_skill_bytes,
    format_size,
    read_skill_bytes,
)
from skilldeck.engine.frontmatter import (
    REMOVED,
    FixCheck,
    Frontmatter,
    FrontmatterEntry,
    FrontmatterParse,
    LineIndex,
    describe_value,
    display_text,
    first_line_span,
    has_properties,
    parse_frontmatter,
    replace_scalar,
    resolve_plain,
)
from skilldeck.engine.model_view import find_skill_mentions
from skilldeck.engine.registry import InvocationPolicy, is_skill_name
from skilldeck.engine.rules import (
    ALL_PROFILE_KEYS,
    DEFERRED_EFFECTS,
    Finding,
    Fix,
    Severity,
    TextEdit,
    get_profile,
    rule,
)
from skilldeck.engine.safety import (
    BundleFindings,
    bundle_findings,
    bundle_summary,
    is_bundle_finding,
    safety_findings,
)
from skilldeck.engine.text import (
    FILE_START,
    LINE_BREAK,
    Position,
    Span,
    catalog_kept,
    collapse_whitespace,
)

_JSON_VERSION = 3
_INVOCATION_KEYS = ("disable-model-invocation", "user-invocable")
_LEGACY_KEYS = {
    "disableModelInvocation": "disable-model-invocation",
    "modelInvocable": "disable-model-invocation",
    "userInvocable": "user-invocable",
}
_TRUE_SPELLINGS = frozenset({"true", "yes", "on", "1"})
_FALSE_SPELLINGS = frozenset({"false", "no", "off", "0"})
_DSH_INTERPRETED = frozenset({"disable-model-invocation", "user-invocable", "whenToUse"})


@dataclass(frozen=True)
class SkillFileAnalysis:
    """Everything the engine and the tools learn from one skill file.

    ``name`` / ``description`` are the frontmatter strings when they are non-empty
    strings (check :attr:`accepted` before using them as a skill). ``when_to_use`` and
    ``metadata`` are ``None`` when absent or dropped for a wrong type. ``wide_lines``
    are the non-ASCII lines (number, text without its line break) among those positions
    can point into: the frontmatter with its closing line and every line a finding
    touches. They are what converting a position to UTF-16 or UTF-8 columns needs, so
    no tool reads the file again for it; every other line converts as ASCII.
    """

    path: str
    name: str | None
    description: str | None
    when_to_use: str | None
    metadata: Mapping[str, object] | None
    invocation: InvocationPolicy
    findings: tuple[Finding, ...]
    frontmatter: Frontmatter | None
    body_start_line: int | None
    suppressed_drops: tuple[str, ...] = ()
    wide_lines: tuple[tuple[int, str], ...] = ()
    #: The body's ``/name`` mentions (the gesture's grammar): name and span of ``/name``.
    #: The deck judges them against the names it holds (SD704/SD705).
    mentions: tuple[tuple[str, Span], ...] = ()
    #: The safety findings of the bundle's other files, each at its place: ``(path of
    #: the file, finding)`` (settings applied; ``SKILL.md`` carries their SD1035 summary).
    #: Set where the file is read from disk (:func:`with_bundle_findings`); never cached.
    bundle_located: tuple[tuple[str, Finding], ...] = ()
    #: The non-ASCII lines those findings point into: ``(path, line, text)``.
    bundle_lines: tuple[tuple[str, int, str], ...] = ()

    @cached_property
    def accepted(self) -> bool:
        """True when the engine loads this skill: valid name and description, no drop."""
        return (
            self.name is not None
            and is_skill_name(self.name)
            and self.description is not None
            and bool(self.description.strip())
            and not self.suppressed_drops
            and not any(f.drops_skill for f in self.findings)
        )

    def without_frontmatter(self) -> SkillFileAnalysis:
        """This analysis as an index keeps it: without the parsed frontmatter (entries,
        values and spans, ~2 KB a file), as the cache's JSON form holds it. A scan keeps
        these (a fresh and a cached analysis then weigh the same); an editor re-parses
        the one file it works on."""
        if self.frontmatter is None:
            return self
        return replace(self, frontmatter=None)

    def to_json(self) -> dict[str, object]:
        """A JSON-compatible dict for the on-disk cache (the frontmatter is left out)."""
        return {
            "version": _JSON_VERSION,
            "path": self.path,
            "name": self.name,
            "description": self.description,
            "when_to_use": self.when_to_use,
            "metadata": None if self.metadata is None else dict(self.metadata),
            "invocation": {
                "model_invocable": self.invocation.model_invocable,
                "user_invocable": self.invocation.user_invocable,
            },
            "findings": [finding_to_json(f) for f in self.findings],
            "body_start_line": self.body_start_line,
            "suppressed_drops": list(self.suppressed_drops),
            "wide_lines": [[number, text] for number, text in self.wide_lines],
            "mentions": [[name, span_to_json(span)] for name, span in self.mentions],
        }

    @classmethod
    def from_json(cls, data: object) -> SkillFileAnalysis:
        """Rebuild an analysis from :meth:`to_json` output; ``ValueError`` on garbage."""
        try:
            return _analysis_from_json(data)
        except (KeyError, TypeError, AttributeError, IndexError) as error:
            raise ValueError(f"not a skill file analysis: {error}") from None


# --- decoding and reading ------------------------------------------------------------


# --- analysis --------------------------------------------------------------------------


def analyze_skill_file(
    path: str | os.PathLike[str],
    *,
    expected_name: str | None,
    settings: RuleSettings | None = None,
) -> SkillFileAnalysis:
    """Read and analyze one file; I/O and decoding problems become findings."""
    try:
        data = read_skill_bytes(path)
    except SkillReadError as error:
        return _failed(os.fspath(path), error.finding, settings or RuleSettings())
    analysis = analyze_skill_bytes(
        data, path=os.fspath(path), expected_name=expected_name, settings=settings
    )
    return with_bundle_findings(analysis, settings or RuleSettings())


def with_bundle_findings(analysis: SkillFileAnalysis, settings: RuleSettings) -> SkillFileAnalysis:
    """``analysis`` with the safety findings of its bundle's other files, fresh
    (:func:`skilldeck.engine.safety.bundle_findings`, memoised by the files'
    identities). Idempotent: earlier bundle findings are replaced."""
    return keep_bundle_findings(
        analysis, bundle_verdict(analysis.path, bundle_findings(analysis.path), settings)
    )


def bundle_verdict(path: str, found: BundleFindings, settings: RuleSettings) -> BundleFindings:
    """The bundle scan ``found`` of the skill file ``path`` under ``settings``: each
    finding's severity as configured (a rule switched off is gone), and ``SKILL.md``'s
    SD1035 summary of what is left."""
    located: list[tuple[str, Finding]] = []
    for file, finding in found.located:
        kept, _ = _apply_settings((finding,), settings, file)
        located += ((file, f) for f in kept)
    own = list(_apply_settings(found.own, settings, path)[0])
    summary = bundle_summary(path, located)
    if summary is not None:
        own += _apply_settings((summary,), settings, path)[0]
    kept_lines = {file for file, _f in located}
    lines = tuple(line for line in found.lines if line[0] in kept_lines)
    return BundleFindings(tuple(located), tuple(own), lines)


def keep_bundle_findings(analysis: SkillFileAnalysis, bundle: BundleFindings) -> SkillFileAnalysis:
    """``analysis`` with ``bundle`` as what its bundle's other files found (the editor
    keeps it across edits of its buffer: it comes from the other files)."""
    if bundle == bundle_findings_of(analysis):
        return analysis
    path = analysis.path
    own = [f for f in analysis.findings if not is_bundle_finding(f, path)]
    added = [f for f in bundle.own if is_bundle_finding(f, path)]
    merged = sorted(own + added, key=lambda f: (f.span.start, f.span.end, f.code))
    return replace(
        analysis,
        findings=tuple(merged),
        bundle_located=bundle.located,
        bundle_lines=bundle.lines,
    )


def bundle_findings_of(analysis: SkillFileAnalysis) -> BundleFindings:
    """What ``analysis`` holds from its bundle's other files: their findings at their
    places, and those ``SKILL.md`` carries (SD1035, SD1016 about the whole bundle)."""
    own = tuple(f for f in analysis.findings if is_bundle_finding(f, analysis.path))
    return BundleFindings(analysis.bundle_located, own, analysis.bundle_lines)


def analyze_skill_bytes(
    data: bytes,
    *,
    path: str,
    expected_name: str | None,
    settings: RuleSettings | None = None,
) -> SkillFileAnalysis:
    """Decode and analyze file content; never raises for bad content."""
    settings = settings or RuleSettings()
    if len(data) > MAX_SKILL_FILE_BYTES:
        finding = rule("SD005").finding(FILE_START, cap=format_size(MAX_SKILL_FILE_BYTES))
        return _failed(path, finding, settings)
    try:
        text = decode_skill_bytes(data)
    except SkillReadError as error:
        return _failed(path, error.finding, settings)
    return analyze_skill_text(text, path=path, expected_name=expected_name, settings=settings)


def analyze_skill_text(
    text: str,
    *,
    path: str,
    expected_name: str | None,
    settings: RuleSettings | None = None,
) -> SkillFileAnalysis:
    """Analyze decoded text (e.g. an editor buffer); never raises for bad content."""
    settings = settings or RuleSettings()
    if len(text) > MAX_SKILL_FILE_BYTES or (
        len(text) * 4 > MAX_SKILL_FILE_BYTES
        and len(text.encode("utf-8", "surrogatepass")) > MAX_SKILL_FILE_BYTES
    ):
        finding = rule("SD005").finding(FILE_START, cap=format_size(MAX_SKILL_FILE_BYTES))
        return _failed(path, finding, settings)
    nul = text.find("\x00")
    if nul >= 0:
        position = LineIndex(text, nul).position(nul)
        span = Span(position, Position(position.line, position.character + 1))
        finding = rule("SD004").finding(span, line=position.line + 1, column=position.character + 1)
        return _failed(path, finding, settings, text)
    parsed = parse_frontmatter(text)
    checker = _Checker(text, path, expected_name, settings, parsed)
    checker.findings.extend(parsed.findings)
    if parsed.frontmatter is not None:
        checker.check()
    return checker.result()


def lines_needed(body_start_line: int | None, findings: Iterable[Finding]) -> int:
    """How many leading lines positions can point into: the frontmatter (with its
    closing line) and every line a finding touches."""
    last = body_start_line or 0
    for finding in findings:
        last = max(last, finding.span.end.line + 1)
    return max(last, 1)


def body_mentions(text: str, start: int) -> tuple[tuple[str, Span], ...]:
    """Every ``/name`` mention in the body of ``text``, which starts at offset ``start``
    (after the frontmatter), by the gesture's grammar
    (:func:`skilldeck.engine.model_view.find_skill_mentions`)."""
    if text.find("/", start) < 0:
        return ()
    found = find_skill_mentions(text[start:])
    if not found:
        return ()
    index = LineIndex(text)
    return tuple((m.name, index.span(start + m.start, start + m.end)) for m in found)


def wide_lines(text: str, upto: int) -> tuple[tuple[int, str], ...]:
    """The non-ASCII lines among the first ``upto`` of ``text`` (the one line model,
    :data:`~skilldeck.engine.text.LINE_BREAK`, as editors split them)."""
    if text.isascii():
        return ()
    # Without a carriage return the one line model is a split at "\n" (~5x faster).
    head = (LINE_BREAK.split(text, upto) if "\r" in text else text.split("\n", upto))[:upto]
    return tuple((n, line) for n, line in enumerate(head) if not line.isascii())


def _failed(
    path: str, finding: Finding, settings: RuleSettings, text: str = ""
) -> SkillFileAnalysis:
    findings, suppressed = _apply_settings((finding,), settings, path)
    return SkillFileAnalysis(
        path=path,
        name=None,
        description=None,
        when_to_use=None,
        metadata=None,
        invocation=InvocationPolicy(),
        findings=findings,
        frontmatter=None,
        body_start_line=None,
        suppressed_drops=suppressed,
        wide_lines=wide_lines(text, lines_needed(None, findings)) if text else (),
    )


def _apply_settings(
    findings: Iterable[Finding], settings: RuleSettings, path: str
) -> tuple[tuple[Finding, ...], tuple[str, ...]]:
    kept: list[Finding] = []
    suppressed: list[str] = []
    for original in findings:
        if not rule(original.code).applies_to(settings.profile):
            continue
        severity = settings.severity_for(original.code, original.severity)
        if severity is None:
            if original.drops_skill:
                suppressed.append(original.code)
            continue
        related = tuple(r if r.path else replace(r, path=path) for r in original.related)
        kept.append(replace(original, severity=severity, related=related))
    kept.sort(key=lambda f: (f.span.start, f.span.end, f.code))
    return tuple(kept), tuple(suppressed)


class _Checker:
    """Runs the per-file rules over one parsed frontmatter."""

    def __init__(
        self,
        text: str,
        path: str,
        expected_name: str | None,
        settings: RuleSettings,
        parsed: FrontmatterParse,
    ) -> None:
        self.text = text
        self.path = path
        self.expected_name = expected_name
        self.settings = settings
        #: The document's parse: the frontmatter, where the body starts, and the state
        #: before any fix (:class:`FixCheck` need not parse it again).
        self.parsed = parsed
        self.frontmatter = parsed.frontmatter
        self.findings: list[Finding] = []
        self.name: str | None = None
        self.description: str | None = None
        self.when_to_use: str | None = None
        self.metadata: Mapping[str, object] | None = None
        self.invocation = InvocationPolicy()
        self._lines: list[str] | None = None
        self._fix_check: FixCheck | None = None

    def result(self) -> SkillFileAnalysis:
        findings, suppressed = _apply_settings(self.findings, self.settings, self.path)
        fm = self.frontmatter
        body_start = None if fm is None else fm.body_start_line
        body_offset = self.parsed.body_start
        mentions = body_mentions(self.text, body_offset) if body_offset is not None else ()
        upto = lines_needed(body_start, findings)
        if mentions:
            upto = max(upto, mentions[-1][1].end.line + 1)
        return SkillFileAnalysis(
            path=self.path,
            name=self.name,
            description=self.description,
            when_to_use=self.when_to_use,
            metadata=self.metadata,
            invocation=self.invocation,
            findings=findings,
            frontmatter=fm,
            body_start_line=body_start,
            suppressed_drops=suppressed,
            wide_lines=wide_lines(self.text, upto),
            mentions=mentions,
        )

    # helpers -------------------------------------------------------------------------

    @property
    def newline(self) -> str:
        """The document's line break, judged by its first line (for inserted lines)."""
        first = self.text.find("\n")
        return "\r\n" if first > 0 and self.text[first - 1] == "\r" else "\n"

    def line(self, number: int) -> str:
        """Line ``number`` of the frontmatter region (``""`` past it)."""
        if self._lines is None:
            end = self.parsed.body_start or 0
            self._lines = LINE_BREAK.split(self.text[:end])
        return self._lines[number] if number < len(self._lines) else ""

    def source(self, span: Span) -> str | None:
        """The text of a one-line span."""
        if span.start.line != span.end.line:
            return None
        return self.line(span.start.line)[span.start.character : span.end.character]

    def value_or_key_span(self, entry: FrontmatterEntry) -> Span:
        span = entry.value_span
        return span if span.start != span.end else entry.key_span

    @staticmethod
    def one_line_scalar(entry: FrontmatterEntry) -> bool:
        return (
            entry.style in ("plain", "single", "double")
            and entry.value_span.start.line == entry.value_span.end.line
            and entry.key_span.start.line == entry.value_span.start.line
        )

    def past_visible(self, entry: FrontmatterEntry, visible: int) -> Span:
        """From the source of the value's character after its first ``visible``
        non-whitespace characters to the value's end (the whole value when the source
        runs out first). A quote's escape (``\\x``, ``''``) counts as one character."""
        span = entry.value_span
        line, start = span.start.line, span.start.character
        if entry.style in ("literal", "folded"):
            line, start = line + 1, 0  # past the block header (`>`, `|-`, a comment)
        elif entry.style in ("single", "double"):
            start += 1
        seen = 0
        for number in range(line, span.end.line + 1):
            text = self.line(number)
            index = start if number == line else 0
            end = span.end.character if number == span.end.line else len(text)
            while index < end:
                char = text[index]
                if not char.isspace():
                    if seen == visible:
                        return Span(Position(number, index), span.end)
                    seen += 1
                    if (entry.style == "double" and char == "\\") or (
                        entry.style == "single" and text[index : index + 2] == "''"
                    ):
                        index += 1
                index += 1
        return span

    def insert_line_after(self, entry: FrontmatterEntry | None) -> Position:
        assert self.frontmatter is not None
        if entry is None:
            return self.frontmatter.yaml_span.start
        end = entry.value_span.end
        return Position(end.line if end.character == 0 else end.line + 1, 0)

    # fixes ---------------------------------------------------------------------------

    def offer(
        self,
        title: str,
        edits: tuple[TextEdit, ...],
        changes: Mapping[str, object],
        *,
        unsafe: bool = False,
    ) -> tuple[Fix, ...]:
        """``(Fix(title, edits, unsafe),)`` when the edits make exactly ``changes`` to the
        top-level mapping and leave valid YAML (:meth:`FixCheck.exact`); else ``()``.
        ``unsafe``: the fix changes what the skill means (see :class:`Fix`)."""
        if self._fix_check is None:
            self._fix_check = FixCheck(self.text, parsed=self.parsed)
        if not edits or not self._fix_check.exact(edits, changes):
            return ()
        return (Fix(title, edits, unsafe),)

    def replace_value(self, entry: FrontmatterEntry, new_text: str) -> tuple[TextEdit, ...]:
        """Replace a one-line scalar value, keeping its anchor (an alias may use it)."""
        source = self.source(entry.value_span)
        if source is None:
            return ()
        return (TextEdit(entry.value_span, replace_scalar(source, new_text)),)

    def root_is_flow(self, fm: Frontmatter) -> bool:
        """True when the top-level mapping is written ``{...}`` (its first key follows ``{``)."""
        start = fm.yaml_span.start
        end = fm.entries[0].key_span.start if fm.entries else fm.yaml_span.end
        head: list[str] = []
        for number in range(start.line, end.line + 1):
            line = self.line(number)
            if number == end.line:
                line = line[: end.character]
            if number == start.line:
                line = line[start.character :]
            head.append(re.sub(r"(^|\s)#.*", "", line))
        return "{" in "".join(head)

    def add_entry(
        self, fm: Frontmatter, key: str, value: str, *, after: FrontmatterEntry | None
    ) -> tuple[TextEdit, ...]:
        """Edits adding ``key: value`` (plain text) to the top-level mapping: after
        ``after`` when given, else first; in the mapping's own style and indentation."""
        entries = fm.entries
        if self.root_is_flow(fm):
            if after is not None:
                at = after.value_span.end
                return (TextEdit(Span(at, at), f", {key}: {value}"),)
            if not entries:
                return ()
            at = entries[0].key_span.start
            return (TextEdit(Span(at, at), f"{key}: {value}, "),)
        indent = entries[0].key_span.start.character if entries else 0
        if entries and self.line(entries[0].key_span.start.line)[:indent].strip():
            return ()
        if after is not None:
            at = self.insert_line_after(after)
        elif entries and indent:
            at = Position(entries[0].key_span.start.line, 0)
        else:
            at = fm.yaml_span.start
        return (TextEdit(Span(at, at), f"{' ' * indent}{key}: {value}{self.newline}"),)

    # rules ---------------------------------------------------------------------------

    def check(self) -> None:
        fm = self.frontmatter
        assert fm is not None
        self.check_name(fm)
        self.check_description(fm)
        self.check_invocation(fm)
        self.check_optional(fm)
        if self.settings.profile == "agentskills":
            self.check_agentskills(fm)
        self.check_near_miss_keys(fm)
        self.check_safety(fm)

    def check_safety(self, fm: Frontmatter) -> None:
        """SD1001-SD1015 (:mod:`skilldeck.engine.safety`)."""
        body_start = self.parsed.body_start
        if body_start is None:
            return
        entry = fm.get("name")
        # A name another rule already refuses (SD203 names its look-alike or invisible
        # character) is not reported twice.
        refused = entry is not None and any(
            f.severity is Severity.ERROR and f.span.start.line == entry.value_span.start.line
            for f in self.findings
        )
        self.findings.extend(
            safety_findings(
                self.text,
                fm,
                body_start,
                name=self.name,
                description=self.description,
                offer=self.offer,
                name_refused=refused,
            )
        )

    def check_name(self, fm: Frontmatter) -> None:
        entry = fm.get("name")
        if entry is None:
            fixes: tuple[Fix, ...] = ()
            expected = self.expected_name
            if expected is not None and is_skill_name(expected):
                fixes = self.offer(
                    f"Add 'name: {expected}'",
                    self.add_entry(fm, "name", expected, after=None),
                    {"name": expected},
                )
            self.findings.append(rule("SD201").finding(fm.span, fixes=fixes))
            return
        value = entry.value
        if not isinstance(value, str) or not value:
            hint, fixes = self.misread(entry)
            self.findings.append(
                rule("SD202").finding(
                    self.value_or_key_span(entry),
                    fixes=fixes,
                    found=describe_value(value),
                    hint=hint,
                )
            )
            return
        self.name = value
        agentskills = self.settings.profile == "agentskills"
        if not is_skill_name(value) and agentskills and standard_name_problem(value) is None:
            # Valid under the standard; skilldeck's runtime keeps SPEC's ASCII names.
            self.findings.append(rule("SD606").finding(entry.value_span, name=display_text(value)))
        elif not is_skill_name(value):
            fixes = ()
            suggestion = kebab_case(value)
            if suggestion and suggestion != value and self.one_line_scalar(entry):
                fixes = self.offer(
                    f"Rename to '{suggestion}'",
                    self.replace_value(entry, suggestion),
                    {"name": suggestion},
                    unsafe=True,
                )
            self.findings.append(
                rule("SD203").finding(
                    entry.value_span,
                    fixes=fixes,
                    name=display_text(value),
                    reason=(agentskills and standard_name_problem(value)) or name_problem(value),
                )
            )
            return
        expected = self.expected_name
        if agentskills and expected is not None and standard_form(value) == standard_form(expected):
            return
        if expected is not None and value != expected:
            fixes = ()
            if is_skill_name(expected) and self.one_line_scalar(entry):
                fixes = self.offer(
                    f"Rename to '{expected}'",
                    self.replace_value(entry, expected),
                    {"name": expected},
                    unsafe=True,
                )
            container = "folder" if PurePath(self.path).name == "SKILL.md" else "file name"
            mismatch = rule("SD206").finding(
                entry.value_span,
                fixes=fixes,
                name=display_text(value),
                container=container,
                expected=display_text(expected),
            )
            # The standard says *must*: an error under its profile, a warning elsewhere.
            self.findings.append(
                replace(mismatch, severity=Severity.ERROR) if agentskills else mismatch
            )

    def check_description(self, fm: Frontmatter) -> None:
        entry = fm.get("description")
        if entry is None:
            # A misspelt key (`descripton:`, SD404) is most likely the description: its
            # rename comes first, then the placeholder.
            fixes = self.near_miss_renames(fm, "description") + self.offer(
                "Add a description",
                self.add_entry(fm, "description", DESCRIPTION_PLACEHOLDER, after=fm.get("name")),
                {"description": DESCRIPTION_PLACEHOLDER},
                unsafe=True,  # a placeholder would reach the catalog
            )
            # On the opening `---` line only: across the whole frontmatter it started
            # every hover and quick-fix list there (#31).
            opening = first_line_span(self.text)
            self.findings.append(rule("SD204").finding(opening, fixes=fixes))
            return
        value = entry.value
        if not isinstance(value, str) or not value.strip():
            hint, fixes = self.misread(entry)
            self.findings.append(
                rule("SD205").finding(
                    self.value_or_key_span(entry),
                    fixes=fixes,
                    found=describe_value(value),
                    hint=hint,
                )
            )
            return
        self.description = value
        if is_placeholder_description(value):
            self.findings.append(
                rule("SD207").finding(entry.value_span, shown=display_text(value.strip(), 40))
            )
        cap = self.settings.catalog_max_description_length
        kept = catalog_kept(value, cap)
        if kept is not None:
            visible = len(kept) - kept.count(" ")  # collapsed: one space between words
            self.findings.append(
                rule("SD501").finding(
                    self.past_visible(entry, visible),
                    length=len(collapse_whitespace(value)),
                    cap=cap,
                    tail=_last_words(kept),
                )
            )
        limit = self.max_length("description")
        if self.settings.profile == "agentskills" and limit is not None and len(value) > limit:
            self.findings.append(rule("SD602").finding(entry.value_span, length=len(value)))

    def check_invocation(self, fm: Frontmatter) -> None:
        for entry in fm.entries:
            canonical = _LEGACY_KEYS.get(entry.key)
            if canonical is None:
                continue
            inverted = entry.key == "modelInvocable"
            fixes: tuple[Fix, ...] = ()
            if fm.get(canonical) is None:
                if not inverted:
                    key_source = self.source(entry.key_span) or entry.key
                    fixes = self.offer(
                        f"Rename to '{canonical}'",
                        (TextEdit(entry.key_span, replace_scalar(key_source, canonical)),),
                        {entry.key: REMOVED, canonical: entry.value},
                        unsafe=True,
                    )
                else:
                    flag = invocation_boolean(entry.value)
                    if flag is not None and self.one_line_scalar(entry):
                        new = f"{canonical}: {'false' if flag else 'true'}"
                        fixes = self.offer(
                            f"Replace with '{new}'",
                            (TextEdit(entry.span, new),),
                            {entry.key: REMOVED, canonical: not flag},
                            unsafe=True,
                        )
            note = " with the opposite value" if inverted else ""
            self.findings.append(
                rule("SD301").finding(
                    entry.key_span, fixes=fixes, key=entry.key, canonical=canonical, note=note
                )
            )
        values: dict[str, bool] = {}
        for key in _INVOCATION_KEYS:
            option = fm.get(key)
            if option is None:
                continue
            flag = invocation_boolean(option.value)
            if flag is None:
                choices: tuple[Fix, ...] = ()
                if self.one_line_scalar(option):
                    choices = tuple(
                        fix
                        for word in ("true", "false")
                        for fix in self.offer(
                            f"Replace with '{word}'",
                            self.replace_value(option, word),
                            {key: word == "true"},
                            unsafe=True,  # the author's intent is a guess
                        )
                    )
                self.findings.append(
                    rule("SD302").finding(
                        self.value_or_key_span(option),
                        fixes=choices,
                        key=key,
                        found=describe_value(option.value),
                    )
                )
            else:
                values[key] = flag
                self.check_canonical_boolean(option, flag)
        self.invocation = InvocationPolicy(
            model_invocable=not values.get("disable-model-invocation", False),
            user_invocable=values.get("user-invocable", True),
        )

    def check_canonical_boolean(self, entry: FrontmatterEntry, flag: bool) -> None:
        """SD303: an accepted invocation value that is not a YAML boolean."""
        if isinstance(entry.value, bool):
            return
        canonical = "true" if flag else "false"
        raw = self.source(entry.value_span)
        fixes: tuple[Fix, ...] = ()
        if raw and entry.style in ("plain", "single", "double"):
            fixes = self.offer(
                f"Replace with '{canonical}'",
                (TextEdit(entry.value_span, replace_scalar(raw, canonical)),),
                {entry.key: flag},
            )
        self.findings.append(
            rule("SD303").finding(
                self.value_or_key_span(entry),
                fixes=fixes,
                key=entry.key,
                raw=display_text(raw) if raw else describe_value(entry.value),
                canonical=canonical,
            )
        )

    def misread(self, entry: FrontmatterEntry) -> tuple[str, tuple[Fix, ...]]:
        """For text YAML resolved to a bool, number or null: message hint and quote fix.

        Only an unquoted, untagged one-line scalar qualifies; the fix wraps its source
        text, exactly as written, in double quotes.
        """
        if entry.style not in ("plain", "null") or isinstance(entry.value, str):
            return "", ()
        raw = self.source(entry.value_span)
        if not raw or isinstance(resolve_plain(raw), str):
            return "", ()  # empty, tagged or an alias: not a misread plain scalar
        value = entry.value
        kind = "null" if value is None else "a boolean" if isinstance(value, bool) else "a number"
        hint = (
            f" (YAML read the unquoted '{display_text(raw)}' as {kind}; quote it to keep the text)"
        )
        quoted = '"' + raw.replace("\\", "\\\\").replace('"', '\\"') + '"'
        edits = (TextEdit(entry.value_span, quoted),)
        return hint, self.offer("Quote the value", edits, {entry.key: raw})

    def check_optional(self, fm: Frontmatter) -> None:
        entry = fm.get("whenToUse")
        if entry is not None:
            if isinstance(entry.value, str) and entry.value:
                self.when_to_use = entry.value
            else:
                hint, fixes = self.misread(entry)
                self.findings.append(
                    rule("SD401").finding(
                        self.value_or_key_span(entry),
                        fixes=fixes,
                        found=describe_value(entry.value),
                        hint=hint,
                    )
                )
        entry = fm.get("metadata")
        if entry is not None:
            if isinstance(entry.value, dict):
                self.metadata = MappingProxyType(entry.value)
            else:
                self.findings.append(
                    rule("SD402").finding(
                        self.value_or_key_span(entry), found=describe_value(entry.value)
                    )
                )
        for entry in fm.entries:
            effect = DEFERRED_EFFECTS.get(entry.key)
            if effect is not None:
                self.findings.append(
                    rule("SD403").finding(entry.key_span, key=entry.key, effect=effect)
                )

    def max_length(self, key: str) -> int | None:
        """The active profile's length limit for ``key`` (``KeyInfo.max_length``)."""
        info = get_profile(self.settings.profile).key(key)
        return info.max_length if info is not None else None

    def check_agentskills(self, fm: Frontmatter) -> None:
        name_limit = self.max_length("name")
        length = len(standard_form(self.name)) if self.name is not None else 0
        if name_limit is not None and length > name_limit:
            entry = fm.get("name")
            assert entry is not None
            self.findings.append(rule("SD601").finding(entry.value_span, length=length))
        entry = fm.get("compatibility")
        if entry is not None:
            value = entry.value
            limit = self.max_length("compatibility")
            if not isinstance(value, str) or (limit is not None and len(value) > limit):
                found = (
                    f"{len(value)} characters" if isinstance(value, str) else describe_value(value)
                )
                self.findings.append(
                    rule("SD603").finding(self.value_or_key_span(entry), found=found)
                )
        entry = fm.get("metadata")
        if entry is not None and isinstance(entry.value, dict):
            for key, value in entry.value.items():
                if not isinstance(value, str):
                    self.findings.append(
                        rule("SD604").finding(
                            self.nested_key_span(entry, key),
                            key=display_text(key),
                            found=describe_value(value),
                        )
                    )
        standard = get_profile(self.settings.profile).key_names  # the profile's keys, once
        for entry in fm.entries:
            if entry.key not in standard:
                self.findings.append(
                    rule("SD605").finding(
                        entry.key_span,
                        fixes=self.move_to_metadata(fm, entry),
                        key=display_text(entry.key),
                    )
                )

    def near_miss_renames(self, fm: Frontmatter, intended: str) -> tuple[Fix, ...]:
        """ "Rename to '<intended>'" for each key spelt like ``intended`` (SD404's fix), when
        ``intended`` is not set."""
        if fm.get(intended) is not None:
            return ()
        known = [info.key for info in get_profile(self.settings.profile).keys]
        fixes: tuple[Fix, ...] = ()
        for entry in fm.entries:
            if entry.key in ALL_PROFILE_KEYS or entry.key in _LEGACY_KEYS:
                continue
            if near_miss_key(entry.key, known) != intended:
                continue
            key_source = self.source(entry.key_span) or entry.key
            fixes += self.offer(
                f"Rename to '{intended}'",
                (TextEdit(entry.key_span, replace_scalar(key_source, intended)),),
                {entry.key: REMOVED, intended: entry.value},
                unsafe=True,
            )
        return fixes

    def check_near_miss_keys(self, fm: Frontmatter) -> None:
        """SD404: a key the profile does not know, spelt like one it does; SD405 (open
        profiles): a key no profile documents and nothing reads."""
        profile = get_profile(self.settings.profile)
        known = [info.key for info in profile.keys]
        for entry in fm.entries:
            if entry.key in ALL_PROFILE_KEYS or entry.key in _LEGACY_KEYS:
                continue
            intended = near_miss_key(entry.key, known)
            if intended is None:
                if not profile.closed:
                    self.findings.append(
                        rule("SD405").finding(
                            entry.key_span,
                            fixes=self.move_to_metadata(fm, entry),
                            key=display_text(entry.key),
                            profile=profile.name,
                        )
                    )
                continue
            info = profile.key(intended)
            assert info is not None
            fixes: tuple[Fix, ...] = ()
            if fm.get(intended) is None:
                key_source = self.source(entry.key_span) or entry.key
                fixes = self.offer(
                    f"Rename to '{intended}'",
                    (TextEdit(entry.key_span, replace_scalar(key_source, intended)),),
                    {entry.key: REMOVED, intended: entry.value},
                    unsafe=True,
                )
            self.findings.append(
                rule("SD404").finding(
                    entry.key_span,
                    fixes=fixes,
                    key=display_text(entry.key),
                    profile=profile.name,
                    intended=intended,
                    effect=info.ignored,
                )
            )

    def nested_key_span(self, entry: FrontmatterEntry, key: str) -> Span:
        """Best-effort span of ``key`` inside a block mapping value; else the value."""
        pattern = re.compile(r"^(\s*)(['\"]?)" + re.escape(key) + r"\2\s*:")
        for number in range(entry.value_span.start.line, entry.value_span.end.line + 1):
            match = pattern.match(self.line(number))
            if match:
                start = match.end(1)
                return Span.at(number, start, start + len(key) + 2 * len(match.group(2)))
        return entry.value_span

    def move_to_metadata(self, fm: Frontmatter, entry: FrontmatterEntry) -> tuple[Fix, ...]:
        """Move a one-line ``key: value`` line under ``metadata`` (made when missing).

        Its trailing comment moves with it; a value that is not text is quoted. Not
        offered for an anchored or tagged value, an alias of a value that is not text,
        a key ``metadata`` already has, or a ``metadata`` that is not a plain block or
        flow mapping; and never unless the result is exactly the move.
        """
        if entry.key in _DSH_INTERPRETED or not self.one_line_scalar(entry):
            return ()
        line = entry.key_span.start.line
        source = self.source(entry.value_span)
        if entry.key_span.start.character != 0 or not source or has_properties(source):
            return ()
        tail = self.line(line)[entry.value_span.end.character :]
        if tail.strip() and not tail.lstrip().startswith("#"):
            return ()
        is_text = isinstance(entry.value, str)
        if not is_text and source.startswith("*"):
            return ()  # an alias of a number or boolean: quoting it would keep "*a"
        raw = source if is_text else json.dumps(source, ensure_ascii=False)
        moved = entry.value if is_text else source
        key_text = self.source(entry.key_span) or entry.key
        delete = TextEdit(Span(Position(line, 0), Position(line + 1, 0)), "")
        nl = self.newline
        metadata = fm.get("metadata")
        if metadata is None:
            at = self.insert_line_after(fm.entries[-1])
            insert = TextEdit(Span(at, at), f"metadata:{nl}  {key_text}: {raw}{tail}{nl}")
            new_metadata: dict[str, object] = {entry.key: moved}
        else:
            if not isinstance(metadata.value, dict) or entry.key in metadata.value:
                return ()
            new_metadata = {entry.key: moved, **metadata.value}
            first = self.line(metadata.value_span.start.line)[metadata.value_span.start.character :]
            if first.startswith("{"):
                if tail.strip():
                    return ()  # a comment cannot follow the key inside the braces
                at = Position(
                    metadata.value_span.start.line, metadata.value_span.start.character + 1
                )
                insert = TextEdit(Span(at, at), f"{key_text}: {raw}, ")
            elif (
                metadata.style == "mapping"
                and metadata.value_span.start.line > metadata.key_span.start.line
            ):
                indent = metadata.value_span.start.character
                at = Position(metadata.key_span.start.line + 1, 0)
                insert = TextEdit(Span(at, at), f"{' ' * indent}{key_text}: {raw}{tail}{nl}")
            else:
                return ()
        if delete.span.start < insert.span.start < delete.span.end:
            return ()
        edits = (delete, insert) if delete.span.start < insert.span.start else (insert, delete)
        changes = {entry.key: REMOVED, "metadata": new_metadata}
        return self.offer(f"Move '{entry.key}' under metadata", edits, changes, unsafe=True)


def _last_words(kept: str, limit: int = 30) -> str:
    """``…`` and the last words of ``kept`` (at most ``limit`` characters): where the
    catalog's cut falls, without quoting the whole description."""
    words: list[str] = []
    kept = kept.rstrip()
    for word in reversed(kept.split(" ")):
        if words and sum(len(w) + 1 for w in words) + len(word) > limit:
            break
        words.insert(0, word)
    tail = " ".join(words)
    tail = tail if len(tail) <= limit else tail[-limit:]
    return "\u2026" + display_text(tail) if len(tail) < len(kept) else display_text(tail)


def invocation_boolean(value: object) -> bool | None:
    """The boolean an invocation value spells, or ``None`` when it is not one."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return {1: True, 0: False}.get(value)
    if isinstance(value, str):
        lowered = value.lower()
        if lowered in _TRUE_SPELLINGS:
            return True
        if lowered in _FALSE_SPELLINGS:
            return False
    return None


# --- JSON (the cache format; the codec of findings lives in analysis_json) ----------


def _check_plain(value: Any, depth: int = 0) -> None:
    if depth > 100:
        raise TypeError("metadata nests too deeply")
    if value is None or isinstance(value, str | bool | int | float):
        return
    if isinstance(value, list):
        for item in value:
            _check_plain(item, depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            json_str(key)
            _check_plain(item, depth + 1)
        return
    raise TypeError(f"metadata holds {type(value).__name__}")


def _analysis_from_json(data: Any) -> SkillFileAnalysis:
    if not isinstance(data, dict) or data.get("version") != _JSON_VERSION:
        raise ValueError("not a skill file analysis (missing or unknown version)")
    metadata = data["metadata"]
    if metadata is not None:
        if not isinstance(metadata, dict):
            raise TypeError("metadata must be a mapping")
        _check_plain(metadata)
        metadata = MappingProxyType(metadata)
    invocation = data["invocation"]
    body_start = data["body_start_line"]
    suppressed = data["suppressed_drops"]
    if not isinstance(suppressed, list):
        raise TypeError("suppressed_drops must be a list")
    findings = data["findings"]
    if not isinstance(findings, list):
        raise TypeError("findings must be a list")
    return SkillFileAnalysis(
        path=json_str(data["path"]),
        name=json_opt_str(data["name"]),
        description=json_opt_str(data["description"]),
        when_to_use=json_opt_str(data["when_to_use"]),
        metadata=metadata,
        invocation=InvocationPolicy(
            model_invocable=json_bool(invocation["model_invocable"]),
            user_invocable=json_bool(invocation["user_invocable"]),
        ),
        findings=tuple(finding_from_json(f) for f in findings),
        frontmatter=None,
        body_start_line=None if body_start is None else json_int(body_start),
        suppressed_drops=tuple(json_str(code) for code in suppressed),
        wide_lines=tuple((json_int(number), json_str(text)) for number, text in data["wide_lines"]),
        mentions=tuple((json_str(name), span_from_json(span)) for name, span in data["mentions"]),
    )
