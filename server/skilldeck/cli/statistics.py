"""``check --statistics``: how many findings each rule has, like ``ruff --statistics``."""

from __future__ import annotations

import json
from collections import Counter

from skilldeck.cli.report import CheckReport
from skilldeck.engine.rules import rule


def rule_statistics(report: CheckReport, output_format: str, *, unsafe: bool) -> str:
    """One row per rule, most frequent first: count, code, ``[*]`` when ``--fix`` (with
    ``--unsafe-fixes`` when given) can fix some of them, and the rule's name. JSON for
    ``--format json``."""
    counts: Counter[str] = Counter(item.finding.code for item in report.findings)
    fixable = {
        item.finding.code
        for item in report.findings
        if any(unsafe or not fix.unsafe for fix in item.finding.fixes)
    }
    rows = sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))
    if output_format == "json":
        data = [
            {"code": code, "name": rule(code).name, "count": count, "fixable": code in fixable}
            for code, count in rows
        ]
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    width = max((len(str(count)) for _, count in rows), default=1)
    lines = [
        f"{count:>{width}}\t{code}\t{'[*]' if code in fixable else '   '} {rule(code).name}"
        for code, count in rows
    ]
    return "".join(line + "\n" for line in lines)
