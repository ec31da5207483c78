"""The machine format: a JSON list of LSP-style diagnostics.

Each item is ``{path, range: {start: {line, character}, end: {...}}, code, severity,
message, dropsSkill}``. Lines are 0-based; ``character`` counts UTF-16 code units, like
LSP's default position encoding, so a range can be handed to an editor as is. ``path``
is relative to the working directory when inside it, otherwise absolute.
"""

from __future__ import annotations

import json

from skilldeck.cli.color import Palette
from skilldeck.cli.display import display_path
from skilldeck.cli.report import CheckReport
from skilldeck.cli.source_lines import SourceLines


def render(report: CheckReport, palette: Palette) -> str:
    """Serialize ``report.findings``; ``palette`` is ignored (JSON is never coloured)."""
    del palette
    lines = SourceLines()
    items: list[dict[str, object]] = []
    for item in report.findings:
        finding = item.finding
        start, end = finding.span.start, finding.span.end
        items.append(
            {
                "path": display_path(item.path, report.cwd),
                "range": {
                    "start": {
                        "line": start.line,
                        "character": lines.utf16_character(item.path, start.line, start.character),
                    },
                    "end": {
                        "line": end.line,
                        "character": lines.utf16_character(item.path, end.line, end.character),
                    },
                },
                "code": finding.code,
                "severity": finding.severity.value,
                "message": finding.message,
                "dropsSkill": finding.drops_skill,
            }
        )
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"
