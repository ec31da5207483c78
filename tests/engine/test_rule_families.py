"""Rules beside their checks: each per-file family's check module (``engine/checks``)
reports exactly the codes its declarations module (``engine/rules``, same name) declares,
and the registry is the families' declarations in code order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skilldeck.engine.checks._run import FAMILIES as CHECK_FAMILIES
from skilldeck.engine.rules import RULES
from skilldeck.engine.rules._rules import FAMILIES

ENGINE = Path(__file__).resolve().parents[2] / "server" / "skilldeck" / "engine"


def _short(module: object) -> str:
    return str(getattr(module, "__name__", "")).rsplit(".", 1)[-1]


@pytest.mark.parametrize("family", [_short(m) for m in CHECK_FAMILIES if m.CHECKS])
def test_a_check_module_reports_what_its_family_declares(family: str) -> None:
    [declared] = [m for m in FAMILIES if _short(m) == family]
    codes = {item.code for item in declared.RULES}
    source = (ENGINE / "checks" / f"{family}.py").read_text(encoding="utf-8")
    reported = set(re.findall(r'rule\("(SD[0-9]+)"\)', source))
    assert reported <= codes  # a check reports only what its family declares
    if family in (
        "_sd2_name_description",
        "_sd3_invocation",
        "_sd4_keys",
        "_sd5_catalog",
        "_sd6_agentskills",
    ):
        assert reported == codes  # and these families are checked here alone


def test_the_registry_is_the_families_in_code_order() -> None:
    assert tuple(item for family in FAMILIES for item in family.RULES) == RULES
    numbers = [int(item.code[2:]) for item in RULES]
    assert numbers == sorted(numbers)
    assert {_short(m) for m in FAMILIES} == {p.stem for p in (ENGINE / "rules").glob("_sd*.py")}


def test_every_rule_documents_what_it_does_and_why() -> None:
    for item in RULES:
        assert item.summary.endswith("."), item.code
        assert item.why.strip(), item.code
        assert "**Fix:**" not in item.why and "**Example:**" not in item.why, item.code
