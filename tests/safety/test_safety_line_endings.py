"""Line endings never matter to the safety rules (issue #40): every case of the evaluation
set (``tests/safety/eval/``), written with LF, CRLF and CR line endings, gets the same
SD10xx findings at the same lines, in ``SKILL.md`` and in every file of its bundle.

Before this held, a CRLF file broke a clause at every line end (an instruction wrapped
over two lines was two clauses), and shell blocks, scripts and references saved with CRLF
or CR lost or gained findings (a decoded payload run in a CRLF block was not reported).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import safety_eval

from skilldeck.engine.config import RuleSettings
from skilldeck.engine.files._skill_file import analyze_skill_file

CASES = safety_eval.load_cases()
#: A frontmatter is delimited by LF or CRLF lines only; with CR the body alone uses it.
_ENDINGS = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}


def _written(text: str, newline: str, *, skill_file: bool) -> str:
    text = text.replace("\r\n", "\n")
    if skill_file and newline == "\r":
        head_end = text.index("\n---\n", 4) + len("\n---\n")
        return text[:head_end] + text[head_end:].replace("\n", newline)
    return text.replace("\n", newline)


def _findings(case: safety_eval.Case, folder: Path, newline: str) -> list[tuple[str, str, int]]:
    for relative, text in case.files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_written(text, newline, skill_file=relative == "SKILL.md").encode())
    settings = RuleSettings(profile=case.profile) if case.profile != "dsh" else None
    analysis = analyze_skill_file(folder / "SKILL.md", expected_name=case.name, settings=settings)
    found = [
        ("SKILL.md", f.code, f.span.start.line)
        for f in analysis.findings
        if f.code.startswith("SD10") and len(f.code) == 6
    ]
    found += (
        (Path(path).relative_to(folder).as_posix(), f.code, f.span.start.line)
        for path, f in analysis.bundle_located
    )
    return sorted(found)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_the_same_findings_whatever_the_line_endings(
    tmp_path: Path, case: safety_eval.Case
) -> None:
    found = {
        name: _findings(case, tmp_path / name / case.name, newline)
        for name, newline in _ENDINGS.items()
    }
    assert found["crlf"] == found["lf"]
    assert found["cr"] == found["lf"]
