"""One skill file in, one :class:`SkillFileAnalysis` out.

The file is read and decoded by :mod:`skilldeck.engine.files._skill_read` (size cap, never
opening FIFOs or devices), parsed by :mod:`skilldeck.engine.frontmatter` and checked by
:mod:`skilldeck.engine.checks` (one module per rule family). The result holds the
fields the engine uses (name, description, ``whenToUse``, metadata, invocation policy)
and every finding, with severities adjusted by :class:`RuleSettings`.

Switching off a rule (override ``None``) only hides its findings: a finding that drops
the skill still drops it, so configuration can never make the engine load a skill it
would refuse. :attr:`SkillFileAnalysis.suppressed_drops` records such hidden drops.

Under a host profile (``claude-code``, ``codex``) the findings say what that agent's
observed release does with the file (:mod:`skilldeck.engine.files._host_reading`); the
engine's own verdict stays SPEC's (:attr:`SkillFileAnalysis.engine_drops`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any

from skilldeck.engine.checks import CheckContext, run_checks
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
from skilldeck.engine.files._host_reading import judge_findings
from skilldeck.engine.files._skill_read import (
    MAX_SKILL_FILE_BYTES,
    UTF8_BOM,
    SkillReadError,
    decode_skill_bytes,
    format_size,
    read_skill_bytes,
)
from skilldeck.engine.frontmatter import (
    Frontmatter,
    LineIndex,
    parse_frontmatter,
)
from skilldeck.engine.model_view import find_skill_mentions
from skilldeck.engine.registry import InvocationPolicy, is_skill_name
from skilldeck.engine.rules import (
    Finding,
    get_profile,
    rule,
)
from skilldeck.engine.safety import (
    BundleFindings,
    bundle_findings,
    bundle_summary,
    is_bundle_finding,
)
from skilldeck.engine.text import (
    FILE_START,
    LINE_BREAK,
    Position,
    Span,
)

_JSON_VERSION = 4


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
    #: The codes of the findings for which skilldeck's engine refuses the skill (SPEC
    #: §2), whatever the profile makes of them and whether or not they are switched off.
    engine_drops: tuple[str, ...] = ()
    #: The host whose observed reading judged the findings (the profile's, e.g.
    #: ``claude-code``): their ``drops_skill`` is that agent's verdict. ``None``: the
    #: engine's own (``dsh``, ``agentskills``).
    judged_for: str | None = None
    #: The file starts with a UTF-8 byte order mark (the engine skips it; some agents
    #: do not: SD110).
    bom: bool = False

    @cached_property
    def accepted(self) -> bool:
        """True when the engine loads this skill: valid name and description, no
        refusal (:attr:`engine_drops`), whatever the profile."""
        return (
            self.name is not None
            and is_skill_name(self.name)
            and self.description is not None
            and bool(self.description.strip())
            and not self.engine_drops
        )

    @cached_property
    def loads_for_profile(self) -> bool:
        """Whether the profile's target loads the skill: the agent of a host profile
        (no finding drops it, none is switched off), else the engine (:attr:`accepted`)."""
        if self.judged_for is None:
            return self.accepted
        return not self.suppressed_drops and not any(f.drops_skill for f in self.findings)

    @property
    def refusals(self) -> tuple[Finding, ...]:
        """The shown findings the engine refuses the skill for (under a host profile
        they may say that agent loads it), in file order."""
        return tuple(f for f in self.findings if f.code in self.engine_drops)

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
            "engine_drops": list(self.engine_drops),
            "judged_for": self.judged_for,
            "bom": self.bom,
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
    return analyze_skill_text(
        text,
        path=path,
        expected_name=expected_name,
        settings=settings,
        bom=data.startswith(UTF8_BOM),
    )


def analyze_skill_text(
    text: str,
    *,
    path: str,
    expected_name: str | None,
    settings: RuleSettings | None = None,
    bom: bool | None = None,
) -> SkillFileAnalysis:
    """Analyze decoded text (e.g. an editor buffer); never raises for bad content.

    ``bom``: the file starts with a UTF-8 byte order mark (``None``: when ``text``
    starts with U+FEFF; an editor's buffer hides the mark, so its caller says)."""
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
    if bom is None:
        bom = text.startswith("\ufeff")
    ctx = CheckContext(text, path, expected_name, settings, parsed)
    ctx.findings.extend(parsed.findings)
    if parsed.frontmatter is not None:
        run_checks(ctx)
    return _analysis(ctx, bom=bom)


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
    profile = get_profile(settings.profile)
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
        engine_drops=(finding.code,) if finding.drops_skill else (),
        judged_for=profile.host,
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


def _analysis(ctx: CheckContext, *, bom: bool = False) -> SkillFileAnalysis:
    """The analysis of a checked file: its fields, findings with the settings applied
    (and, under a host profile, judged by that agent's reading), the lines positions can
    point into, and the body's mentions."""
    profile = ctx.settings.profile
    refused = {f.code for f in ctx.findings if f.drops_skill}
    engine = tuple(sorted(code for code in refused if rule(code).applies_to(profile)))
    name_entry = ctx.frontmatter.get("name") if ctx.frontmatter is not None else None
    judged = judge_findings(
        ctx.findings,
        profile=profile,
        path=ctx.path,
        expected_name=ctx.expected_name,
        text=ctx.text.removeprefix("\ufeff"),
        bom=bom,
        frontmatter=ctx.frontmatter,
        name_span=name_entry.value_span if name_entry is not None else None,
    )
    findings, suppressed = _apply_settings(judged.findings, ctx.settings, ctx.path)
    fm = ctx.frontmatter
    body_start = None if fm is None else fm.body_start_line
    body_offset = ctx.parsed.body_start
    mentions = body_mentions(ctx.text, body_offset) if body_offset is not None else ()
    upto = lines_needed(body_start, findings)
    if mentions:
        upto = max(upto, mentions[-1][1].end.line + 1)
    return SkillFileAnalysis(
        path=ctx.path,
        name=ctx.name,
        description=ctx.description,
        when_to_use=ctx.when_to_use,
        metadata=ctx.metadata,
        invocation=ctx.invocation,
        findings=findings,
        frontmatter=fm,
        body_start_line=body_start,
        suppressed_drops=suppressed,
        wide_lines=wide_lines(ctx.text, upto),
        mentions=mentions,
        engine_drops=engine,
        judged_for=judged.host,
        bom=bom,
    )


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
        engine_drops=tuple(json_str(code) for code in data["engine_drops"]),
        judged_for=json_opt_str(data["judged_for"]),
        bom=json_bool(data["bom"]),
    )
