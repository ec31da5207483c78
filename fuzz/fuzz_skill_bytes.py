"""Coverage-guided fuzzing of the skill-file reader with atheris.

Target: :func:`skilldeck.engine.skill_file.analyze_skill_bytes`, which takes the raw
bytes of a ``SKILL.md`` (BOM sniffing, UTF-8 decoding, frontmatter split, safe YAML
composition, every rule). For each input the harness checks the contract the rest of
skilldeck relies on and crashes (so atheris saves the input) when it breaks:

1. it never raises;
2. the verdict is a skill or a reason: ``accepted``, or a finding that drops the skill,
   or a suppressed drop;
3. every finding's span lies inside the decoded document and starts before it ends;
4. an accepted skill's catalog line cannot open or close a tag (no ``<`` or ``>`` after
   escaping).

Half of the inputs get a ``---`` frontmatter opener prepended so the fuzzer spends its
time in the YAML composer rather than in "no frontmatter". Run it as described in
``fuzz/README.md``; atheris is installed by hand, it is not a project dependency.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports(include=["skilldeck", "ruamel"]):
    from skilldeck.engine.catalog_text import catalog_description, escape_text
    from skilldeck.engine.skill_file import SkillFileAnalysis, analyze_skill_bytes

PATH = "/fuzz/skill/SKILL.md"


def _lines(data: bytes) -> list[str]:
    """The document's lines as the engine counts them (``\\n``, ``\\r\\n``, ``\\r``)."""
    text = data.decode("utf-8", "replace")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def check(data: bytes, analysis: SkillFileAnalysis) -> None:
    """Raise ``AssertionError`` when ``analysis`` breaks the reader's contract."""
    assert (
        analysis.accepted
        or any(f.drops_skill for f in analysis.findings)
        or analysis.suppressed_drops
    ), ("neither a skill nor a reason", analysis.findings)
    lines = _lines(data)
    for finding in analysis.findings:
        span = finding.span
        assert span.start <= span.end, ("inverted span", finding)
        for position in (span.start, span.end):
            assert 0 <= position.line < len(lines), ("line outside", finding, len(lines))
            assert 0 <= position.character <= len(lines[position.line]) + 1, (
                "character outside",
                finding,
            )
    if analysis.accepted and analysis.description is not None:
        line = escape_text(catalog_description(analysis.description))
        assert "<" not in line and ">" not in line, ("unescaped catalog text", line)


def test_one_input(raw: bytes) -> None:
    """The atheris entry point."""
    if not raw:
        return
    data = b"---\n" + raw[1:] if raw[0] & 1 else raw[1:]
    check(data, analyze_skill_bytes(data, path=PATH, expected_name="skill"))


def main() -> None:
    """Run the fuzzer with atheris's libFuzzer command line (``-max_total_time=N``...)."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
