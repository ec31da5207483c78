"""SARIF 2.1.0: one run whose driver lists every rule of the table.

Regions are 1-based and ``run.columnKind`` is ``unicodeCodePoints`` (the engine's
columns); a finding's related locations (the other skill of SD701-703, SD801-802) are its
``relatedLocations``. Files inside the working directory are relative URIs against the
``%SRCROOT%`` base (the working directory); others are absolute ``file:`` URIs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

import skilldeck
from skilldeck.cli.color import Palette
from skilldeck.cli.report import CheckReport
from skilldeck.engine.rules import RULES, Rule, Severity
from skilldeck.engine.text import Span

SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
TOOL_URI = "https://github.com/skilldeck/skilldeck"

_LEVEL = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "note",
    Severity.HINT: "note",
}


def render(report: CheckReport, palette: Palette) -> str:
    """The SARIF log as indented JSON."""
    del palette
    return json.dumps(sarif_log(report), indent=2, ensure_ascii=False) + "\n"


def sarif_log(report: CheckReport) -> dict[str, object]:
    """The SARIF log object for ``report``."""
    rules = list(RULES)
    index = {rule.code: position for position, rule in enumerate(rules)}
    results: list[dict[str, object]] = []
    for item in report.findings:
        finding = item.finding
        result: dict[str, object] = {
            "ruleId": finding.code,
            "level": _LEVEL[finding.severity],
            "message": {"text": finding.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": _artifact(item.path, report.cwd),
                        "region": _region(finding.span),
                    }
                }
            ],
            "properties": {"dropsSkill": finding.drops_skill},
        }
        if finding.related:
            result["relatedLocations"] = [
                {
                    "id": number,
                    "physicalLocation": {
                        "artifactLocation": _artifact(related.path, report.cwd),
                        "region": _region(related.span),
                    },
                    "message": {"text": related.message},
                }
                for number, related in enumerate(finding.related)
            ]
        if finding.code in index:
            result["ruleIndex"] = index[finding.code]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "skilldeck",
                        "version": skilldeck.__version__,
                        "informationUri": TOOL_URI,
                        "rules": [_rule_descriptor(rule) for rule in rules],
                    }
                },
                "originalUriBaseIds": {
                    "%SRCROOT%": {"uri": Path(os.path.abspath(report.cwd)).as_uri() + "/"}
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def _region(span: Span) -> dict[str, int]:
    return {
        "startLine": span.start.line + 1,
        "startColumn": span.start.character + 1,
        "endLine": span.end.line + 1,
        "endColumn": span.end.character + 1,
    }


def _rule_descriptor(rule: Rule) -> dict[str, object]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.docs},
        "helpUri": rule.docs_url,
        "help": {"text": rule.docs, "markdown": rule.docs},
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {"dropsSkill": rule.drops_skill, "fixable": rule.fixable},
    }


def _artifact(path: str, cwd: str) -> dict[str, str]:
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(os.path.abspath(cwd))
    except ValueError:
        return {"uri": absolute.as_uri()}
    # The file name's own bytes, percent-encoded (a name that is not UTF-8 keeps them).
    return {"uri": quote(os.fsencode(relative.as_posix())), "uriBaseId": "%SRCROOT%"}
