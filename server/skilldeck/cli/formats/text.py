"""The human format: ``path:line:col: CODE severity message`` a line, then a summary.

Lines and columns are 1-based; columns count Unicode code points (characters), like
the engine. Paths are relative to the working directory when inside it.
"""

from __future__ import annotations

from skilldeck.cli.color import Palette
from skilldeck.cli.display import display_path, printable
from skilldeck.cli.report import CheckReport
from skilldeck.engine.rules import Severity


def render(report: CheckReport, palette: Palette) -> str:
    """One line per finding, then the summary line."""
    lines: list[str] = []
    for item in report.findings:
        finding = item.finding
        start = finding.span.start
        path = printable(display_path(item.path, report.cwd))
        location = f"{path}:{start.line + 1}:{start.character + 1}:"
        lines.append(
            f"{palette.bold(location)} {_styled_code(finding.code, finding.severity, palette)} "
            f"{_styled_severity(finding.severity, palette)} {printable(finding.message)}"
        )
    summary = report.summary()
    if report.findings:
        lines.append(palette.bold(summary))
    else:
        lines.append(palette.green(summary))
    return "\n".join(lines) + "\n"


def _styled_code(code: str, severity: Severity, palette: Palette) -> str:
    if severity is Severity.ERROR:
        return palette.red(palette.bold(code))
    if severity is Severity.WARNING:
        return palette.yellow(palette.bold(code))
    return palette.cyan(palette.bold(code))


def _styled_severity(severity: Severity, palette: Palette) -> str:
    if severity is Severity.ERROR:
        return palette.red(severity.value)
    if severity is Severity.WARNING:
        return palette.yellow(severity.value)
    return palette.cyan(severity.value)
