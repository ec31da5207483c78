"""The machine format: a JSON list of LSP-style diagnostics.

Each item is ``{path, range: {start: {line, character}, end: {...}}, code, severity,
message, dropsSkill}``. Lines are 0-based; ``character`` counts UTF-16 code units, like
LSP's default position encoding, so a range can be handed to an editor as is. ``path``
is relative to the working directory when inside it, otherwise absolute.

The text is exactly ``json.dumps(items, indent=2, ensure_ascii=False)``, written from a
template: the standard library's C encoder does not indent, and its pure-Python indenter
took a third of a 10,000-file ``check`` after the scan (a test holds the two equal).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from skilldeck.cli.color import Palette
from skilldeck.cli.display import display_path
from skilldeck.cli.report import CheckReport
from skilldeck.engine.text import Encoding, to_client_character

_ITEM = """  {{
    "path": {path},
    "range": {{
      "start": {{
        "line": {start_line},
        "character": {start_character}
      }},
      "end": {{
        "line": {end_line},
        "character": {end_character}
      }}
    }},
    "code": {code},
    "severity": {severity},
    "message": {message},
    "dropsSkill": {drops}
  }}"""


#: Findings rendered into one piece of :func:`render`.
_PIECE_ITEMS = 512


def render(report: CheckReport, palette: Palette) -> Iterator[str]:
    """Serialize ``report.findings`` in pieces that concatenate to the text (``palette`` is
    ignored: JSON is never coloured), made as they are asked for: the caller writes each
    and drops it, so a large output (11 MB for the ~23,000 findings of a 10,000-skill
    deck) is never held whole."""
    del palette
    if not report.findings:
        yield "[]\n"
        return
    text = json.encoder.encode_basestring
    shown: dict[str, str] = {}
    batch: list[str] = []
    opening = "[\n"
    for item in report.findings:
        finding = item.finding
        start, end = finding.span.start, finding.span.end
        path = shown.get(item.path)
        if path is None:
            path = shown[item.path] = text(display_path(item.path, report.cwd))
        batch.append(opening)
        opening = ",\n"
        batch.append(
            _ITEM.format(
                path=path,
                start_line=start.line,
                start_character=_utf16(report, item.path, start.line, start.character),
                end_line=end.line,
                end_character=_utf16(report, item.path, end.line, end.character),
                code=text(finding.code),
                severity=text(finding.severity.value),
                message=text(finding.message),
                drops="true" if finding.drops_skill else "false",
            )
        )
        if len(batch) >= 2 * _PIECE_ITEMS:
            yield "".join(batch)
            batch.clear()
    batch.append("\n]\n")
    yield "".join(batch)


def _utf16(report: CheckReport, path: str, line: int, character: int) -> int:
    return to_client_character(report.line_text(path, line), character, Encoding.UTF16)
