from __future__ import annotations

from pathlib import Path

import pytest

from skilldeck.engine.rules._findings import Finding, RelatedLocation, Severity
from skilldeck.engine.rules._rules import RULES, render_rules_markdown, rule
from skilldeck.engine.text._positions import Span

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_codes_and_names_are_unique_and_well_formed():
    codes = [r.code for r in RULES]
    names = [r.name for r in RULES]
    assert len(set(codes)) == len(codes)
    assert len(set(names)) == len(names)
    # SDnnn, and SDnnnn for the four-digit families (SD10xx, supply-chain safety)
    assert all(len(c) in (5, 6) and c.startswith("SD") and c[2:].isdigit() for c in codes)
    assert codes == sorted(codes, key=lambda c: int(c[2:]))


def test_required_rules_exist_with_their_effect():
    assert rule("SD101").name == "missing-frontmatter"
    assert rule("legacy-invocation-key").drops_skill
    assert not rule("invalid-when-to-use").drops_skill
    assert rule("deferred-key").severity is Severity.INFORMATION
    assert rule("shadowed-skill").code == "SD701"
    assert rule("shadows-skill").code == "SD702"
    assert rule("duplicate-name-in-root").code == "SD703"
    assert rule("non-standard-key").profiles == frozenset({"agentskills"})


def test_lookup_is_case_insensitive_and_unknown_names_explain():
    assert rule("sd203") is rule("invalid-name") is rule("SD203")
    with pytest.raises(KeyError, match=r"unknown rule 'SD999'.*skilldeck rules"):
        rule("SD999")


def test_finding_fills_the_message_and_keeps_the_default_effect():
    span = Span.at(3, 0, 14)
    finding = rule("SD301").finding(span, key="userInvocable", canonical="user-invocable", note="")
    assert finding.message == (
        "unsupported key 'userInvocable': use 'user-invocable' (skill not loaded)"
    )
    assert finding.span == span
    assert finding.drops_skill
    assert finding.severity is Severity.ERROR
    assert rule("SD701").finding(
        span, source="project-dsh", path="/p/x/SKILL.md", rank=100
    ).message == ("shadowed by project-dsh skill at /p/x/SKILL.md (rank 100)")
    assert not rule("SD103").finding(span, drops_skill=False, problem="x").drops_skill


def test_findings_are_equal_by_every_field_and_drop_repeats_in_a_set():
    # ``check`` drops repeated findings of a file through a dict: equal findings must
    # collapse, and findings that differ anywhere (even only in a related location, which
    # the hash leaves out) must stay apart.
    span = Span.at(2, 0, 4)
    related = (RelatedLocation("b/SKILL.md", Span.at(1, 6, 9), "b is here"),)
    base = Finding("SD802", Severity.WARNING, "2 skills share this", span, related=related)
    same = Finding("SD802", Severity.WARNING, "2 skills share this", span, related=related)
    elsewhere = Finding(
        "SD802",
        Severity.WARNING,
        "2 skills share this",
        span,
        related=(RelatedLocation("c/SKILL.md", Span.at(1, 6, 9), "c is here"),),
    )
    milder = Finding("SD802", Severity.INFORMATION, "2 skills share this", span, related=related)
    assert same == base and hash(same) == hash(base)
    assert list(dict.fromkeys([base, same, elsewhere, milder, same])) == [base, elsewhere, milder]


def test_docs_url_points_at_the_generated_heading():
    item = rule("SD203")
    assert item.docs_url == (
        "https://github.com/skilldeck/skilldeck/blob/main/docs/rules.md#sd203-invalid-name"
    )
    assert "\n## SD203 invalid-name\n" in render_rules_markdown()


def test_every_rule_is_documented():
    for item in RULES:
        assert item.summary.endswith(".")
        assert len(item.docs) > 80, item.code
        assert "{" in item.message or item.message  # a template or a fixed text


def test_docs_rules_md_is_generated_from_the_table():
    assert DOCS.read_text(encoding="utf-8") == render_rules_markdown(), (
        "docs/rules.md is stale: run scripts/generate"
    )


def test_non_canonical_boolean_is_a_fixable_hint_that_keeps_the_skill():
    item = rule("non-canonical-boolean")
    assert (item.code, item.severity, item.drops_skill, item.fixable) == (
        "SD303",
        Severity.HINT,
        False,
        True,
    )
    finding = item.finding(Span.at(3, 16, 21), key="user-invocable", raw='"yes"', canonical="true")
    assert finding.message == (
        "'user-invocable' is \"yes\", which skilldeck reads as true; "
        "write true so every YAML tool reads the same boolean"
    )
    assert finding.severity is Severity.HINT and not finding.drops_skill
    row = "| [SD303](#sd303-non-canonical-boolean) | `non-canonical-boolean` | hint | no | yes |"
    assert f"\n{row}" in render_rules_markdown()


def test_rules_whose_misread_values_get_a_quote_fix_say_so():
    for code in ("SD202", "SD205", "SD401"):
        item = rule(code)
        assert item.fixable, code
        assert "{hint}" in item.message, code
        assert "quick fix quotes it" in item.docs, code
