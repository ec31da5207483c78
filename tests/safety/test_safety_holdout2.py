"""The second held-out safety set as a ratchet (issue #40).

``tests/safety/holdout2/`` holds hostile skills and look-alikes written blind to the rules, to
the evaluation set (``tests/safety/eval/``) and to the first held-out set
(``tests/safety/holdout/``), from other public reports: MCP schema and output poisoning,
Claude Code's ``!`command``` preprocessing, GlassWorm's invisible code, Python's NFKC
identifiers, PhantomRaven's URL dependencies, agent CLI settings that run commands, time
bombs, geofenced wipers, build scripts, launch agents, rogue CI runners and more. Each case
is materialised into a real skill folder and judged by
``skilldeck check --select SD10 --format json`` run as a subprocess, once per profile: a
hostile case must get a warning or an error somewhere in its folder, a look-alike none.

The cases skilldeck gets wrong are listed in ``holdout2/ratchet.toml`` and are strict
xfails: a rule change that starts catching one fails here as an unexpected pass, and a case
that regresses fails outright. ``benchmarks/bench_safety_eval.py --set holdout2
--skip-collection --skip-peers --write-ratchet`` re-measures and rewrites that list in one
command; without ``--skip-peers`` it measures the peers too.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
import safety_eval
import set_harness
from safety_eval import Verdict

ROOT = safety_eval.HOLDOUT2
CASES = safety_eval.load_cases(ROOT)
RATCHET = safety_eval.load_ratchet(ROOT)
BY_ID = {case.id: case for case in CASES}


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Verdict]:
    """Each case's verdict from one ``check`` run per profile root."""
    return set_harness.evaluate(CASES, tmp_path_factory.mktemp("safety-holdout2"))


@pytest.mark.parametrize(
    "case_id", set_harness.verdict_params(CASES, RATCHET, "holdout2/ratchet.toml")
)
def test_case_verdict(evaluated: dict[str, Verdict], case_id: str) -> None:
    set_harness.assert_verdict(evaluated[case_id])


# ---------------------------------------------------------------- the set itself


def test_the_set_is_as_built_and_covers_every_technique() -> None:
    hostile = [case for case in CASES if case.expect == "hostile"]
    benign = [case for case in CASES if case.expect == "benign"]
    assert (len(hostile), len(benign)) == (30, 20)
    techniques = safety_eval.techniques(ROOT)
    assert {case.technique for case in hostile} == set(techniques)
    unknown = {case.id: case.technique for case in benign if case.technique not in techniques}
    assert unknown == {}


def test_the_set_shares_no_skill_or_source_with_the_sets_before_it() -> None:
    """Held out means apart: no name (nor id) of the evaluation set or the first held-out
    set is reused, and no report the first held-out set cites is cited again."""
    for earlier in (safety_eval.EVAL, safety_eval.HOLDOUT):
        before = safety_eval.load_cases(earlier)
        assert {case.name for case in CASES} & {case.name for case in before} == set()
        assert {case.id for case in CASES} & {case.id for case in before} == set()
    first = safety_eval.sources(safety_eval.HOLDOUT)
    ours = safety_eval.sources(ROOT)
    assert set(ours) & set(first) == set()
    assert {entry["url"] for entry in ours.values()} & {e["url"] for e in first.values()} == set()


def test_ids_and_names_are_unique_and_names_match_the_files() -> None:
    set_harness.assert_ids_and_names(CASES, "ZH", "ZB")


def test_every_case_cites_a_known_source_or_says_it_has_none() -> None:
    set_harness.assert_sources(ROOT, CASES, hostile_cited=True)


def test_the_ratchet_names_existing_cases_of_the_right_kind() -> None:
    set_harness.assert_ratchet_kinds(CASES, RATCHET)


def test_the_manifest_lists_every_case_as_built() -> None:
    """``MANIFEST.md`` is the set in one line a case (technique, source, expected)."""
    rewrite = (
        ".venv/bin/python -c \"import sys; sys.path.insert(0, 'tests/safety'); "
        "import safety_eval as s; (s.HOLDOUT2 / 'MANIFEST.md').write_text("
        "s.manifest_text(s.HOLDOUT2), encoding='utf-8')\""
    )
    written = (ROOT / "MANIFEST.md").read_text(encoding="utf-8")
    assert written == safety_eval.manifest_text(ROOT), f"out of date; rewrite it with {rewrite}"


@pytest.mark.parametrize(
    "name", ["hostile.toml", "benign.toml", "sources.toml", "ratchet.toml", "MANIFEST.md"], ids=str
)
def test_the_data_files_show_every_character(name: str) -> None:
    """A reviewer reads the data files as text: no character in them is invisible (those
    are written as escapes or macros), and no line ends in CR."""
    assert set_harness.hidden_characters(ROOT / name) == []


def test_the_invisible_cases_carry_the_characters_they_name(tmp_path: Path) -> None:
    """The escapes and macros land on disk as the characters the summaries promise."""
    folders = safety_eval.materialise(
        [BY_ID[i] for i in ("ZH03", "ZH06", "ZH07", "ZH08", "ZB01", "ZB18", "ZB19")], tmp_path
    )

    def text(case_id: str, relative: str) -> str:
        return (folders[case_id] / relative).read_text(encoding="utf-8")

    style = text("ZH03", "references/style.txt")
    assert all(code in style for code in ("\x1b[8m", "\x1b[1A", "\x1b[2K"))
    assert (
        sum(
            0xFE00 <= ord(c) <= 0xFE0F or 0xE0100 <= ord(c) <= 0xE01EF
            for c in text("ZH06", "scripts/plugins.mjs")
        )
        > 100
    )
    assert text("ZH07", "templates/healthz.js").count("\u3164") == 2
    assert unicodedata.normalize("NFKC", "\U0001d41e\U0001d431\U0001d41e\U0001d41c") == "exec"
    assert "\U0001d41e\U0001d431\U0001d41e\U0001d41c(" in text("ZH08", "scripts/clean_notebooks.py")
    assert "\x1b[31m" in text("ZB01", "references/sample-output.txt")
    assert "\u200d" in text("ZB18", "SKILL.md")
    assert text("ZB19", "locales/he.json").count("\u200f") == 5


def test_every_case_is_a_skill_that_loads(evaluated: dict[str, Verdict], tmp_path: Path) -> None:
    set_harness.assert_every_case_loads(CASES, evaluated, tmp_path)
