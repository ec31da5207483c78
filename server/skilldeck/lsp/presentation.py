"""What the editor shows of a file's findings: the engine's verdict, with two documented
differences of presentation (and none other; the parity suite encodes both):

- **Routing overlap at information level shows on open files only.** An SD801 finding
  ("`a` and `b` describe overlapping tasks") relates a skill to the rest of the deck; at
  500 real skills it was 637 of the 760 entries of VS Code's Problems view (issue #41).
  As the best servers keep workspace-wide checks to open files by default, the editor
  publishes SD801 at information level for the files open in it; ``check``,
  ``skilldeck overlap`` and the description's hover list every pair, and raising the
  rule (``[rules] SD801 = "warning"``) shows it on every file (docs/overlap.md).
- **The new-skill placeholder is reported once saved.** The new-skill snippet and the
  SD204 quick fix insert ``description: Describe what this skill does and when to use
  it.`` for the author to type over (selected, in a client that takes snippets); SD207
  on that text waits while the buffer holds unsaved changes, and shows once the file is
  saved with it (as ``check`` reads it; docs/rules.md, SD207).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from skilldeck.engine.checks import DESCRIPTION_PLACEHOLDER
from skilldeck.engine.rules import Finding, Severity
from skilldeck.engine.text import split_lines

if TYPE_CHECKING:
    from skilldeck.lsp.open_documents import OpenDocument

#: The rule whose information-level findings show on open files only.
OVERLAP = "SD801"
#: The rule held back on the new-skill placeholder in an unsaved buffer.
PLACEHOLDER = "SD207"


def shown_findings(findings: Sequence[Finding], document: OpenDocument | None) -> Sequence[Finding]:
    """The findings of one file the editor shows (``document``: its open buffer, if
    any); the same sequence when nothing is held back (nearly always)."""
    if document is None:
        if not any(f.code == OVERLAP for f in findings):
            return findings
        return [f for f in findings if not _overlap_note(f)]
    if not document.unsaved or not any(f.code == PLACEHOLDER for f in findings):
        return findings
    lines = split_lines(document.source)
    return [f for f in findings if not _fresh_placeholder(f, lines)]


def _overlap_note(finding: Finding) -> bool:
    return finding.code == OVERLAP and finding.severity is Severity.INFORMATION


def _fresh_placeholder(finding: Finding, lines: Sequence[str]) -> bool:
    """SD207 on the snippet's own placeholder text (in an unsaved buffer)."""
    if finding.code != PLACEHOLDER:
        return False
    span = finding.span
    if span.start.line != span.end.line or span.start.line >= len(lines):
        return False
    text = lines[span.start.line][span.start.character : span.end.character]
    return text.strip().strip("'\"") == DESCRIPTION_PLACEHOLDER
