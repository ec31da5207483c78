"""What ``skilldeck check`` hands to its output formats: findings with their files.

The report only carries what the engine decided; formats render it and never judge.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from skilldeck.engine.rules import Finding, Severity

#: Severity words for counts in the summary line (singular, plural).
_SEVERITY_WORDS = {
    Severity.ERROR: ("error", "errors"),
    Severity.WARNING: ("warning", "warnings"),
    Severity.INFORMATION: ("info", "infos"),
    Severity.HINT: ("hint", "hints"),
}


@dataclass(frozen=True, slots=True)
class ReportedFinding:
    """One engine finding and the absolute path of the file it is about."""

    path: str
    finding: Finding


@dataclass(frozen=True, slots=True)
class CheckReport:
    """Everything one ``check`` run found.

    ``findings`` are sorted by path, position and code. ``files_checked`` counts the
    skill files analysed; ``skills_dropped`` counts those the profile's target does not
    load: the engine (SPEC §2), or the agent of a host profile (a finding with
    ``drops_skill``); ``bundle_files`` the files of their bundles that have safety
    findings (reported at those files). ``cwd`` is the directory paths are shown
    relative to.
    ``wide_lines`` holds, per file, the non-ASCII lines findings can point into (from
    the analyses), so formats convert columns without reading any file.
    """

    cwd: str
    findings: tuple[ReportedFinding, ...]
    files_checked: int
    skills_dropped: int
    wide_lines: Mapping[str, Mapping[int, str]] = field(default_factory=dict)
    bundle_files: int = 0

    def line_text(self, path: str, line: int) -> str | None:
        """The text of a non-ASCII ``line`` of ``path`` that a finding points into;
        ``None`` for an ASCII line (columns in any encoding are then the same)."""
        lines = self.wide_lines.get(path)
        return None if lines is None else lines.get(line)

    @staticmethod
    def build(
        cwd: str,
        findings: Iterable[ReportedFinding],
        *,
        files_checked: int,
        skills_dropped: int,
        wide_lines: Mapping[str, Mapping[int, str]] | None = None,
        bundle_files: int = 0,
    ) -> CheckReport:
        """Sort ``findings`` into a report."""
        ordered = tuple(
            sorted(
                findings,
                key=lambda item: (
                    item.path,
                    item.finding.span.start.line,
                    item.finding.span.start.character,
                    item.finding.code,
                    item.finding.message,
                ),
            )
        )
        return CheckReport(
            cwd=cwd,
            findings=ordered,
            files_checked=files_checked,
            skills_dropped=skills_dropped,
            wide_lines=wide_lines or {},
            bundle_files=bundle_files,
        )

    def counts(self) -> Counter[Severity]:
        """How many findings of each severity."""
        return Counter(item.finding.severity for item in self.findings)

    def fails(self, fail_on: Severity) -> bool:
        """True when a finding is at least as severe as ``fail_on``."""
        return any(item.finding.severity.rank <= fail_on.rank for item in self.findings)

    def summary(self) -> str:
        """One line, e.g. ``Found 3 problems (1 error, 2 warnings) in 12 skill files; ...``."""
        files = _plural(self.files_checked, "skill file", "skill files")
        if self.bundle_files:
            files += " and " + _plural(self.bundle_files, "bundle file", "bundle files")
        dropped = _plural(self.skills_dropped, "skill", "skills")
        if not self.findings:
            return f"No problems found in {files}."
        counts = self.counts()
        parts = [
            _plural(counts[severity], *_SEVERITY_WORDS[severity])
            for severity in Severity
            if counts[severity]
        ]
        problems = _plural(len(self.findings), "problem", "problems")
        return f"Found {problems} ({', '.join(parts)}) in {files}; {dropped} dropped."


def _plural(count: int, singular: str, plural: str) -> str:
    return f"{count} {singular if count == 1 else plural}"
