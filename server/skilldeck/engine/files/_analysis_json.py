"""The JSON form of findings and spans, as the index cache stores them.

Decoding validates every field (``TypeError``/``KeyError``/``ValueError`` on garbage), so a
corrupt cache file is a miss, never a wrong finding.
"""

from __future__ import annotations

from typing import Any

from skilldeck.engine.rules import Finding, Fix, RelatedLocation, Severity, TextEdit, rule
from skilldeck.engine.text import Position, Span


def span_to_json(span: Span) -> list[int]:
    """``[start line, start character, end line, end character]``."""
    return [span.start.line, span.start.character, span.end.line, span.end.character]


def span_from_json(data: Any) -> Span:
    """The inverse of :func:`span_to_json`; ``TypeError`` on anything else."""
    if not isinstance(data, list) or len(data) != 4:
        raise TypeError(f"bad span {data!r}")
    numbers = [json_int(x) for x in data]
    return Span(Position(numbers[0], numbers[1]), Position(numbers[2], numbers[3]))


def json_int(value: Any) -> int:
    """``value`` if it is a non-negative int (not a bool); else ``TypeError``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TypeError(f"bad integer {value!r}")
    return value


def json_str(value: Any) -> str:
    """``value`` if it is a str; else ``TypeError``."""
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def json_opt_str(value: Any) -> str | None:
    """``None`` or a str; else ``TypeError``."""
    return None if value is None else json_str(value)


def json_bool(value: Any) -> bool:
    """``value`` if it is a bool; else ``TypeError``."""
    if not isinstance(value, bool):
        raise TypeError(f"expected a boolean, got {value!r}")
    return value


def finding_to_json(finding: Finding) -> dict[str, object]:
    """A finding as plain JSON data (fixes and related locations included)."""
    return {
        "code": finding.code,
        "severity": finding.severity.value,
        "message": finding.message,
        "span": span_to_json(finding.span),
        "drops_skill": finding.drops_skill,
        "related": [
            {"path": r.path, "span": span_to_json(r.span), "message": r.message}
            for r in finding.related
        ],
        "fixes": [
            {
                "title": fix.title,
                "edits": [
                    {"span": span_to_json(e.span), "new_text": e.new_text} for e in fix.edits
                ],
                "unsafe": fix.unsafe,
            }
            for fix in finding.fixes
        ],
    }


def finding_from_json(data: Any) -> Finding:
    """The inverse of :func:`finding_to_json`; the rule code must exist."""
    code = json_str(data["code"])
    rule(code)
    return Finding(
        code=code,
        severity=Severity(json_str(data["severity"])),
        message=json_str(data["message"]),
        span=span_from_json(data["span"]),
        drops_skill=json_bool(data["drops_skill"]),
        related=tuple(
            RelatedLocation(json_str(r["path"]), span_from_json(r["span"]), json_str(r["message"]))
            for r in data["related"]
        ),
        fixes=tuple(
            Fix(
                json_str(f["title"]),
                tuple(
                    TextEdit(span_from_json(e["span"]), json_str(e["new_text"])) for e in f["edits"]
                ),
                unsafe=json_bool(f.get("unsafe", False)),
            )
            for f in data["fixes"]
        ),
    )
