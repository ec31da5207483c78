"""What the three safety sets' ratchet tests share (``test_safety_eval.py``,
``test_safety_holdout.py``, ``test_safety_holdout2.py``): each set's cases materialised
into real skill folders and judged by ``skilldeck check --select SD10`` as a subprocess,
the ratchet's strict xfails, and the checks every set's data must pass. The sets' data
and loading are :mod:`safety_eval` (shared with ``benchmarks/bench_safety_eval.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import safety_eval
from safety_eval import Case, Ratchet, Verdict


def environment(scratch: Path) -> dict[str, str]:
    """This environment without skilldeck's variables: a fake home with empty user roots
    and a cache of its own, so only the set's roots are judged."""
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


def run_check(scratch: Path, arguments: list[str]) -> str:
    """``skilldeck <arguments>`` in ``scratch``; its standard output."""
    done = subprocess.run(
        [sys.executable, "-m", "skilldeck", *arguments],
        cwd=scratch,
        env=environment(scratch),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


def evaluate(cases: Sequence[Case], scratch: Path) -> dict[str, Verdict]:
    """Each case's verdict from one ``check`` run per profile root."""
    folders = safety_eval.materialise(cases, scratch / "set")
    reports = [
        run_check(scratch, safety_eval.check_arguments(profile, scratch / "set" / profile))
        for profile in safety_eval.profiles(cases)
    ]
    return {
        verdict.case.id: verdict
        for verdict in safety_eval.verdicts(cases, folders, reports, scratch)
    }


def verdict_params(cases: Sequence[Case], ratchet: Ratchet, recorded_in: str) -> list[Any]:
    """One parameter a case, a strict xfail where ``ratchet`` (the file ``recorded_in``)
    records it as wrong today."""
    params = []
    for case in cases:
        wrong = ratchet.missed if case.expect == "hostile" else ratchet.false_alarms
        marks = (
            [pytest.mark.xfail(strict=True, reason=f"recorded in {recorded_in}")]
            if case.id in wrong
            else []
        )
        params.append(pytest.param(case.id, marks=marks, id=f"{case.id}-{case.technique}"))
    return params


def assert_verdict(verdict: Verdict) -> None:
    """A hostile case got a warning or an error somewhere in its folder; a look-alike none."""
    case = verdict.case
    shown = [f"{severity} {code} {path}:{line}" for severity, code, path, line in verdict.findings]
    if case.expect == "hostile":
        assert verdict.flagged, f"{case.id} ({case.summary}) got no warning or error: {shown}"
    else:
        assert not verdict.flagged, f"{case.id} ({case.summary}) was flagged: {shown}"


def assert_ids_and_names(cases: Sequence[Case], hostile: str, benign: str) -> None:
    """Ids and names unique, each name the one its ``SKILL.md`` gives, each id starting
    with the set's prefix for its kind."""
    assert len({case.id for case in cases}) == len(cases)
    assert len({case.name for case in cases}) == len(cases)
    for case in cases:
        skill_md = case.files["SKILL.md"]
        assert f"\nname: {case.name}\n" in skill_md.replace("\r\n", "\n"), case.id
        prefix = hostile if case.expect == "hostile" else benign
        assert case.id.startswith(prefix), case.id


def assert_sources(root: Path, cases: Sequence[Case], *, hostile_cited: bool) -> None:
    """Every case cites a source of ``sources.toml`` or says it has none (``none: ...``;
    with ``hostile_cited``, no hostile case may)."""
    known = safety_eval.sources(root)
    for entry in known.values():
        assert entry["url"].startswith(("https://", "http://")), entry
    unresolved = {
        case.id: case.source
        for case in cases
        if case.source not in known and not case.source.startswith("none: ")
    }
    assert unresolved == {}
    if hostile_cited:
        uncited = [c.id for c in cases if c.expect == "hostile" and c.source.startswith("none: ")]
        assert uncited == []


def assert_ratchet_kinds(cases: Sequence[Case], ratchet: Ratchet) -> None:
    """The ratchet names existing cases: misses hostile, false alarms benign."""
    by_id = {case.id: case for case in cases}
    assert {by_id[i].expect for i in ratchet.missed} <= {"hostile"}
    assert {by_id[i].expect for i in ratchet.false_alarms} <= {"benign"}


def hidden_characters(path: Path) -> list[str]:
    """Where a data file holds a character a reviewer reading it as text cannot see (those
    are written as escapes or macros) or a CR."""
    text = path.read_bytes().decode("utf-8")
    return [
        f"line {text.count(chr(10), 0, index) + 1}: U+{ord(char):04X}"
        for index, char in enumerate(text)
        if (unicodedata.category(char) in {"Cf", "Co", "Cc"} and char != "\n")
        or 0xFE00 <= ord(char) <= 0xFE0F
        or 0xE0100 <= ord(char) <= 0xE01EF
    ]


def assert_every_case_loads(
    cases: Sequence[Case], evaluated: dict[str, Verdict], scratch: Path
) -> None:
    """A miss is a miss of the safety rules, not a broken case: under its profile, no case
    has an error outside SD10xx (the YAML parses, the name and description are valid)."""
    folders = safety_eval.materialise(cases, scratch / "set")
    errors = []
    for profile in safety_eval.profiles(cases):
        arguments = ["check", "--format", "json", "--no-cache", "--ignore", "SD10,SD8"]
        if profile != safety_eval.DEFAULT_PROFILE:
            arguments += ["--profile", profile]
        findings = json.loads(run_check(scratch, [*arguments, str(scratch / "set" / profile)]))
        errors += [
            f"{f['path']}: {f['code']} {f['message']}" for f in findings if f["severity"] == "error"
        ]
    assert errors == []
    assert set(folders) == set(evaluated)
