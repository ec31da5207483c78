"""The held-out safety set as a ratchet (issue #40).

``tests/safety/holdout/`` holds hostile skills and look-alikes written blind to the rules and
to the evaluation set (``tests/safety/eval/``), in other file types, hiding places, languages
and obfuscations. Each case is materialised into a real skill folder and judged by
``skilldeck check --select SD10 --format json`` run as a subprocess, once per profile: a
hostile case must get a warning or an error somewhere in its folder, a look-alike none.

The cases skilldeck gets wrong today are listed in ``holdout/ratchet.toml`` and are strict
xfails: a rule change that starts catching one fails here as an unexpected pass (take its id
off the list), and a case that regresses fails outright. The peers are measured by
``benchmarks/bench_safety_eval.py --set holdout``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import safety_eval
import set_harness
from safety_eval import Verdict

ROOT = safety_eval.HOLDOUT
CASES = safety_eval.load_cases(ROOT)
RATCHET = safety_eval.load_ratchet(ROOT)
BY_ID = {case.id: case for case in CASES}


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Verdict]:
    """Each case's verdict from one ``check`` run per profile root."""
    return set_harness.evaluate(CASES, tmp_path_factory.mktemp("safety-holdout"))


@pytest.mark.parametrize(
    "case_id", set_harness.verdict_params(CASES, RATCHET, "holdout/ratchet.toml")
)
def test_case_verdict(evaluated: dict[str, Verdict], case_id: str) -> None:
    set_harness.assert_verdict(evaluated[case_id])


# ---------------------------------------------------------------- the set itself


def test_the_set_is_as_built_and_covers_every_technique() -> None:
    hostile = [case for case in CASES if case.expect == "hostile"]
    benign = [case for case in CASES if case.expect == "benign"]
    assert (len(hostile), len(benign)) == (40, 30)
    techniques = safety_eval.techniques(ROOT)
    assert {case.technique for case in hostile} == set(techniques)
    unknown = {case.id: case.technique for case in benign if case.technique not in techniques}
    assert unknown == {}


def test_the_set_shares_no_skill_with_the_evaluation_set() -> None:
    """Held out means apart: no name (nor id) of the evaluation set is reused."""
    evaluation = safety_eval.load_cases()
    assert {case.name for case in CASES} & {case.name for case in evaluation} == set()
    assert {case.id for case in CASES} & {case.id for case in evaluation} == set()


def test_ids_and_names_are_unique_and_names_match_the_files() -> None:
    set_harness.assert_ids_and_names(CASES, "XH", "XB")


def test_every_case_cites_a_known_source_or_says_it_has_none() -> None:
    set_harness.assert_sources(ROOT, CASES, hostile_cited=True)


def test_the_ratchet_names_existing_cases_of_the_right_kind() -> None:
    set_harness.assert_ratchet_kinds(CASES, RATCHET)


@pytest.mark.parametrize(
    "name", ["hostile.toml", "benign.toml", "sources.toml", "ratchet.toml"], ids=str
)
def test_the_data_files_show_every_character(name: str) -> None:
    """A reviewer reads the data files as text: no character in them is invisible (those
    are written as escapes or macros), and no line ends in CR."""
    assert set_harness.hidden_characters(ROOT / name) == []


def test_the_invisible_cases_carry_the_characters_they_name(tmp_path: Path) -> None:
    """The escapes and macros land on disk as the characters the summaries promise."""
    folders = safety_eval.materialise(
        [BY_ID[i] for i in ("XH12", "XH13", "XH14", "XH15", "XB09", "XB11", "XB24")], tmp_path
    )

    def text(case_id: str, relative: str) -> str:
        return (folders[case_id] / relative).read_text(encoding="utf-8")

    assert any(0xE0000 <= ord(c) <= 0xE007F for c in text("XH12", "rules/html.mdc"))
    assert sum(0xE0100 <= ord(c) <= 0xE01EF for c in text("XH13", "SKILL.md")) > 40
    assert {"\u202e", "\u2066", "\u2069"} <= set(text("XH14", "lib/flags.js"))
    assert "registry.npmj\u0455.org" in text("XH15", "scripts/setup.sh")
    assert {"\u2067", "\u2069"} <= set(text("XB09", "SKILL.md"))
    assert "\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f" in text(
        "XB11", "SKILL.md"
    )
    assert {"\u200c", "\u200d"} <= set(text("XB24", "SKILL.md"))


def test_every_case_is_a_skill_that_loads(evaluated: dict[str, Verdict], tmp_path: Path) -> None:
    set_harness.assert_every_case_loads(CASES, evaluated, tmp_path)
