"""Engine findings as LSP diagnostics: ranges, codes, docs links, related information.

``Diagnostic.data`` is ``{"code": "SD101", "dropsSkill": false}``. Fixes are not copied
into it: code actions analyse the document's current text anyway (fix-all needs every
finding of the file, not just the diagnostics a client sends back), so they take the
fixes from that analysis.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable
from urllib.parse import quote_from_bytes, unquote_to_bytes, urlsplit

from lsprotocol import types

from skilldeck.engine.findings import Finding, Severity
from skilldeck.engine.positions import Encoding
from skilldeck.lsp.positions import LineSource, to_lsp_range

SOURCE = "skilldeck"

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


@functools.lru_cache(maxsize=1 << 15)
def uri_of(path: str) -> str:
    """The ``file:`` URI of an absolute path, percent-encoding the path's bytes.

    Built from ``os.fsencode(path)``, so a name that is not valid UTF-8 (held as
    surrogate escapes, ``caf\\udce9``) becomes ``caf%E9`` instead of raising; for
    every valid path this is the URI pygls' ``from_fs_path`` gives.
    """
    raw = os.fsencode(path)
    if not raw.startswith(b"/"):
        raw = b"/" + raw
    return "file://" + quote_from_bytes(raw, safe="/")


def path_of(uri: str) -> str | None:
    """The filesystem path of a ``file:`` URI (the inverse of :func:`uri_of`).

    Percent-escapes are decoded to bytes, then to a path with ``os.fsdecode``, so
    ``caf%E9`` is the folder ``caf\\udce9`` again. None for any other scheme or a
    URI naming a remote host.
    """
    try:
        parts = urlsplit(uri)
    except ValueError:
        return None
    if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = os.fsdecode(unquote_to_bytes(parts.path))
    return path or None


def to_diagnostic(
    finding: Finding, lines: LineSource, encoding: Encoding, lines_for: LinesFor
) -> types.Diagnostic:
    """One finding as a diagnostic (``lines`` is the finding's own file)."""
    href = docs_url(finding.code)
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(
                uri=uri_of(item.path), range=to_lsp_range(item.span, lines_for(item.path), encoding)
            ),
            message=item.message,
        )
        for item in finding.related
    ]
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
    findings: Iterable[Finding], lines: LineSource, encoding: Encoding, lines_for: LinesFor
) -> list[types.Diagnostic]:
    """Every finding of one file, in the engine's order."""
    return [to_diagnostic(f, lines, encoding, lines_for) for f in findings]
