"""GitHub Actions workflow commands: one ``::error``/``::warning``/``::notice`` a finding.

``::error file=PATH,line=L,col=C,endLine=L,endColumn=C,title=CODE::message``; lines and
columns are 1-based (columns in code points); values are escaped as the runner expects.
"""

from __future__ import annotations

from skilldeck.cli.color import Palette
from skilldeck.cli.display import display_path
from skilldeck.cli.report import CheckReport
from skilldeck.engine.rules import Severity

_COMMAND = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "notice",
    Severity.HINT: "notice",
}


def render(report: CheckReport, palette: Palette) -> str:
    """One workflow command per finding (nothing at all when the report is clean)."""
    del palette
    lines: list[str] = []
    for item in report.findings:
        finding = item.finding
        start, end = finding.span.start, finding.span.end
        properties = {
            "file": display_path(item.path, report.cwd),
            "line": str(start.line + 1),
            "col": str(start.character + 1),
            "endLine": str(end.line + 1),
            "endColumn": str(end.character + 1),
            "title": finding.code,
        }
        rendered = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
        lines.append(f"::{_COMMAND[finding.severity]} {rendered}::{escape_data(finding.message)}")
    return "".join(line + "\n" for line in lines)


def escape_data(value: str) -> str:
    """Escape a command's message (``%``, CR, LF)."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """Escape a command property value (message escapes plus ``:`` and ``,``)."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")
