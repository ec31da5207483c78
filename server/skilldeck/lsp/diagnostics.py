"""Engine findings as LSP diagnostics: ranges, codes, docs links, related information.

``Diagnostic.data`` is ``{"code": "SD101", "dropsSkill": false}``. Fixes are not copied
into it: code actions analyse the document's current text anyway (fix-all needs every
finding of the file, not just the diagnostics a client sends back), so they take the
fixes from that analysis.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from lsprotocol import types

from skilldeck.engine.rules import Finding, RelatedLocation, Severity
from skilldeck.engine.text import Encoding
from skilldeck.lsp.file_uris import path_of, uri_of
from skilldeck.lsp.positions import LineSource, to_lsp_range

SOURCE = "skilldeck"

__all__ = ["SOURCE", "docs_url", "path_of", "to_diagnostic", "uri_of"]

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFORMATION: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}

#: ``path -> LineSource`` for the files a finding's related locations point at.
LinesFor = Callable[[str], LineSource]


def docs_url(code: str) -> str | None:
    """The rule's documentation URL, when the rules table knows the code."""
    try:
        from skilldeck.engine.rules import rule  # noqa: PLC0415

        url = rule(code).docs_url
    except Exception:  # an unknown code (or a rules table mid-edit) gets no link
        return None
    return str(url) if url else None


#: Related locations already converted, by value (see :func:`to_diagnostics`).
RelatedMemo = dict[RelatedLocation, types.DiagnosticRelatedInformation]


def to_diagnostic(
    finding: Finding,
    lines: LineSource,
    encoding: Encoding,
    lines_for: LinesFor,
    memo: RelatedMemo | None = None,
) -> types.Diagnostic:
    """One finding as a diagnostic (``lines`` is the finding's own file)."""
    href = docs_url(finding.code)
    related: list[types.DiagnosticRelatedInformation] = []
    for item in finding.related:
        converted = memo.get(item) if memo is not None else None
        if converted is None:
            converted = types.DiagnosticRelatedInformation(
                location=types.Location(
                    uri=uri_of(item.path),
                    range=to_lsp_range(item.span, lines_for(item.path), encoding),
                ),
                message=item.message,
            )
            if memo is not None:
                memo[item] = converted
        related.append(converted)
    return types.Diagnostic(
        range=to_lsp_range(finding.span, lines, encoding),
        message=finding.message,
        severity=_SEVERITY[finding.severity],
        code=finding.code,
        code_description=types.CodeDescription(href=href) if href else None,
        source=SOURCE,
        related_information=related or None,
        data={"code": finding.code, "dropsSkill": finding.drops_skill},
    )


def to_diagnostics(
    findings: Iterable[Finding],
    lines: LineSource,
    encoding: Encoding,
    lines_for: LinesFor,
    memo: RelatedMemo | None = None,
) -> list[types.Diagnostic]:
    """Every finding of one file, in the engine's order. ``memo`` keeps the related
    locations converted for files published together (the members of a family of copies
    all point at the same ones); valid while no text changes."""
    return [to_diagnostic(f, lines, encoding, lines_for, memo) for f in findings]
