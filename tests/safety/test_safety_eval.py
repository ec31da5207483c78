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

from pathlib import Path

import pytest
import safety_eval
import set_harness
from safety_eval import Verdict

CASES = safety_eval.load_cases()
RATCHET = safety_eval.load_ratchet()


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Verdict]:
    """Each case's verdict from one ``check`` run per profile root."""
    return set_harness.evaluate(CASES, tmp_path_factory.mktemp("safety-eval"))


@pytest.mark.parametrize("case_id", set_harness.verdict_params(CASES, RATCHET, "eval/ratchet.toml"))
def test_case_verdict(evaluated: dict[str, Verdict], case_id: str) -> None:
    set_harness.assert_verdict(evaluated[case_id])


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
    set_harness.assert_ids_and_names(CASES, "H", "B")


def test_every_case_cites_a_known_source_or_says_it_has_none() -> None:
    set_harness.assert_sources(safety_eval.EVAL, CASES, hostile_cited=False)


def test_the_ratchet_names_existing_cases_of_the_right_kind() -> None:
    set_harness.assert_ratchet_kinds(CASES, RATCHET)


@pytest.mark.parametrize(
    "path",
    [safety_eval.HOSTILE_FILE, safety_eval.BENIGN_FILE, safety_eval.SOURCES_FILE],
    ids=lambda p: p.name,
)
def test_the_data_files_show_every_character(path: Path) -> None:
    """A reviewer reads the data files as text: no character in them is invisible (those
    are written as escapes or macros), and no line ends in CR."""
    assert set_harness.hidden_characters(path) == []


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
    set_harness.assert_every_case_loads(CASES, evaluated, tmp_path)
