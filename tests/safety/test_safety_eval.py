"""The safety evaluation set as a ratchet (issue #40).

Every case of ``tests/safety/eval/`` is materialised into real skill folders and judged by
``skilldeck check --select SD10 --format json`` run as a subprocess, once per profile: a
hostile case must get a warning or an error somewhere in its folder, a look-alike none.
The cases skilldeck gets wrong today are listed in ``eval/ratchet.toml`` and marked as
strict xfails, so the suite is green on today's tree, a newly caught case fails as an
unexpected pass (take it off the list), and a case that regresses fails outright.

The peers are measured by ``benchmarks/bench_safety_eval.py``; nothing here needs them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
import safety_eval
from safety_eval import Verdict

CASES = safety_eval.load_cases()
RATCHET = safety_eval.load_ratchet()
BY_ID = {case.id: case for case in CASES}


def _environment(scratch: Path) -> dict[str, str]:
    """This environment without skilldeck's variables: a fake home with empty user roots
    and a cache of its own, so only the evaluation roots are judged."""
    environ = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DSH_", "SKILLDECK_"))
    }
    environ.update(
        {
            "HOME": str(scratch / "home"),
            "DSH_HOME": str(scratch / "home" / ".dsh"),
            "DSH_AGENTS_HOME": str(scratch / "home" / ".agents"),
            "SKILLDECK_CACHE_DIR": str(scratch / "cache"),
            "NO_COLOR": "1",
        }
    )
    return environ


def _check(scratch: Path, arguments: list[str]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "skilldeck", *arguments],
        cwd=scratch,
        env=_environment(scratch),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Verdict]:
    """Each case's verdict from one ``check`` run per profile root."""
    scratch = tmp_path_factory.mktemp("safety-eval")
    folders = safety_eval.materialise(CASES, scratch / "set")
    reports = [
        _check(scratch, safety_eval.check_arguments(profile, scratch / "set" / profile))
        for profile in safety_eval.profiles(CASES)
    ]
    return {
        verdict.case.id: verdict
        for verdict in safety_eval.verdicts(CASES, folders, reports, scratch)
    }


def _params() -> Iterator[object]:
    for case in CASES:
        wrong = RATCHET.missed if case.expect == "hostile" else RATCHET.false_alarms
        marks = (
            [pytest.mark.xfail(strict=True, reason="recorded in eval/ratchet.toml")]
            if case.id in wrong
            else []
        )
        yield pytest.param(case.id, marks=marks, id=f"{case.id}-{case.technique}")


@pytest.mark.parametrize("case_id", list(_params()))
def test_case_verdict(evaluated: dict[str, Verdict], case_id: str) -> None:
    verdict = evaluated[case_id]
    case = verdict.case
    shown = [f"{severity} {code} {path}:{line}" for severity, code, path, line in verdict.findings]
    if case.expect == "hostile":
        assert verdict.flagged, f"{case.id} ({case.summary}) got no warning or error: {shown}"
    else:
        assert not verdict.flagged, f"{case.id} ({case.summary}) was flagged: {shown}"


# ---------------------------------------------------------------- the set itself


def test_the_set_is_large_and_covers_every_technique() -> None:
    hostile = [case for case in CASES if case.expect == "hostile"]
    benign = [case for case in CASES if case.expect == "benign"]
    assert len(hostile) >= 60
    assert len(benign) >= 40
    techniques = safety_eval.techniques()
    assert {case.technique for case in hostile} == set(techniques)
    unknown = {case.id: case.technique for case in benign if case.technique not in techniques}
    assert unknown == {}


def test_ids_and_names_are_unique_and_names_match_the_files() -> None:
    assert len({case.id for case in CASES}) == len(CASES)
    assert len({case.name for case in CASES}) == len(CASES)
    for case in CASES:
        skill_md = case.files["SKILL.md"]
        assert f"\nname: {case.name}\n" in skill_md.replace("\r\n", "\n"), case.id
        assert case.id[0] == ("H" if case.expect == "hostile" else "B"), case.id


def test_every_case_cites_a_known_source_or_says_it_has_none() -> None:
    known = safety_eval.sources()
    for entry in known.values():
        assert entry["url"].startswith(("https://", "http://")), entry
    unresolved = {
        case.id: case.source
        for case in CASES
        if case.source not in known and not case.source.startswith("none: ")
    }
    assert unresolved == {}


def test_the_ratchet_names_existing_cases_of_the_right_kind() -> None:
    assert {BY_ID[i].expect for i in RATCHET.missed} <= {"hostile"}
    assert {BY_ID[i].expect for i in RATCHET.false_alarms} <= {"benign"}


@pytest.mark.parametrize(
    "path",
    [safety_eval.HOSTILE_FILE, safety_eval.BENIGN_FILE, safety_eval.SOURCES_FILE],
    ids=lambda p: p.name,
)
def test_the_data_files_show_every_character(path: Path) -> None:
    """A reviewer reads the data files as text: no character in them is invisible (those
    are written as escapes or macros), and no line ends in CR."""
    text = path.read_bytes().decode("utf-8")
    hidden = [
        f"line {text.count(chr(10), 0, index) + 1}: U+{ord(char):04X}"
        for index, char in enumerate(text)
        if (unicodedata.category(char) in {"Cf", "Co", "Cc"} and char != "\n")
        or 0xFE00 <= ord(char) <= 0xFE0F
        or 0xE0100 <= ord(char) <= 0xE01EF
    ]
    assert hidden == []


def test_macros_expand_to_the_characters_they_name() -> None:
    assert safety_eval.expand("a⟦tags:Hi⟧b") == "a\U000e0048\U000e0069b"
    assert safety_eval.expand('"⟦yaml-tags:Hi⟧"') == '"\\U000E0048\\U000E0069"'
    # é is the bytes C3 A9, ! is 21: all three at or above 16, so from U+E0100
    expected = "x" + "".join(chr(0xE0100 + byte - 16) for byte in (0xC3, 0xA9, 0x21))
    assert safety_eval.expand("x⟦vs:é!⟧") == expected
    assert safety_eval.expand("⟦vs:\x05⟧") == "\ufe05"


def test_crlf_cases_are_written_with_crlf_only(tmp_path: Path) -> None:
    crlf = [case for case in CASES if "\r\n" in case.files["SKILL.md"]]
    assert {case.technique for case in crlf} >= {"html-comment-crlf", "refdef-comment-crlf"}
    folders = safety_eval.materialise(crlf, tmp_path)
    for case in crlf:
        data = (folders[case.id] / "SKILL.md").read_bytes()
        assert data.count(b"\n") == data.count(b"\r\n") > 0, case.id


def test_every_case_is_a_skill_that_loads(evaluated: dict[str, Verdict], tmp_path: Path) -> None:
    """A miss is a miss of the safety rules, not a broken case: under its profile, no case
    has an error outside SD10xx (the YAML parses, the name and description are valid)."""
    folders = safety_eval.materialise(CASES, tmp_path / "set")
    errors = []
    for profile in safety_eval.profiles(CASES):
        arguments = ["check", "--format", "json", "--no-cache", "--ignore", "SD10,SD8"]
        if profile != safety_eval.DEFAULT_PROFILE:
            arguments += ["--profile", profile]
        findings = json.loads(_check(tmp_path, [*arguments, str(tmp_path / "set" / profile)]))
        errors += [
            f"{f['path']}: {f['code']} {f['message']}" for f in findings if f["severity"] == "error"
        ]
    assert errors == []
    assert set(folders) == set(evaluated)
