"""A rule selected away costs nothing: the deck-wide passes (shadowing, mentions, overlap,
hosts) run only for the rules in force, off in the config or left out by ``select``
(what ``check --select / --ignore`` reports), and "did you mean" scores each distinct
unknown name once."""

from __future__ import annotations

from pathlib import Path

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.deck._deck import DECK_PASSES, deck_report, host_findings, passes_in_force
from skilldeck.engine.filesystem._fs_provider import DeckScan, scan_deck
from skilldeck.engine.filesystem._roots import SkillRoot
from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.rules._rules import RULES

SHARED = (
    "Use this skill when writing new features, fixing bugs, or refactoring code. Enforces "
    "test-driven development with 80%+ coverage including unit, integration, and E2E tests."
)
ALL = frozenset(rule.code for rule in RULES)


def _write(root: Path, name: str, description: str, body: str) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {description}\n---\n{body}\n"
    )


def _scan(tmp_path: Path, **config: object) -> DeckScan:
    skills = tmp_path / "skills"
    _write(skills, "tdd-workflow", SHARED, "Run /reviw first, then /reviw again.")
    _write(skills, "tdd-guide", SHARED, "Ask /reviw then /nothing-like-it now.")
    _write(skills, "review", "Review a change before it is merged.", "Plain.")
    root = SkillRoot(400, "custom", str(skills), True, frozenset())
    settings = SkilldeckConfig(include_default_roots=False, **config)  # type: ignore[arg-type]
    return scan_deck(settings, None, roots=[root])


def _codes(found: dict[str, list[object]]) -> dict[str, list[str]]:
    return {
        Path(path).parent.name: sorted(f.code for f in items)  # type: ignore[attr-defined]
        for path, items in found.items()
    }


def test_every_pass_runs_with_every_rule_and_each_unknown_name_is_scored_once(
    tmp_path: Path,
) -> None:
    report = deck_report(_scan(tmp_path))
    assert report.passes == {"shadowing", "mentions", "overlap"}
    codes = _codes(report.findings)  # type: ignore[arg-type]
    assert codes["tdd-workflow"].count("SD704") == 2
    assert codes["tdd-guide"].count("SD704") == 2
    assert "SD802" in codes["tdd-workflow"] and "SD802" in codes["tdd-guide"]
    # Four unknown mentions of two distinct names: two lookups.
    assert report.name_lookups == 2
    messages = [f.message for f in report.findings[str(tmp_path / "skills/tdd-guide/SKILL.md")]]
    assert "'/reviw' names no skill in this deck; did you mean /review?" in messages


def test_an_unselected_rule_s_pass_does_not_run_and_the_rest_is_unchanged(
    tmp_path: Path,
) -> None:
    scan = _scan(tmp_path)
    full = _codes(deck_report(scan).findings)  # type: ignore[arg-type]
    no_overlap = deck_report(scan, select=ALL - {"SD801", "SD802"})
    assert "overlap" not in no_overlap.passes
    assert _codes(no_overlap.findings) == {  # type: ignore[arg-type]
        name: [c for c in codes if c not in ("SD801", "SD802")] for name, codes in full.items()
    }
    no_mentions = deck_report(scan, select=ALL - {"SD704", "SD705"})
    assert "mentions" not in no_mentions.passes
    assert no_mentions.name_lookups == 0
    assert _codes(no_mentions.findings) == {  # type: ignore[arg-type]
        name: [c for c in codes if c not in ("SD704", "SD705")] for name, codes in full.items()
    }
    only_per_file = deck_report(scan, select=frozenset({"SD101"}))
    assert only_per_file.passes == frozenset()


def test_rules_off_in_the_config_skip_their_pass(tmp_path: Path) -> None:
    off = {"SD801": None, "SD802": None, "SD705": None}
    report = deck_report(_scan(tmp_path, rule_overrides=off))
    assert report.passes == {"shadowing", "mentions"}
    # SD705 off, SD704 on: the pass runs; SD704 off too: "did you mean" is never scored.
    assert report.name_lookups == 2
    quiet = deck_report(_scan(tmp_path / "2", rule_overrides={**off, "SD704": None}))
    assert quiet.passes == {"shadowing"}
    assert quiet.name_lookups == 0
    assert "SD704" not in {f.code for items in quiet.findings.values() for f in items}


def test_the_hosts_pass_needs_one_of_its_rules(tmp_path: Path) -> None:
    assert passes_in_force(RuleSettings()) == set(DECK_PASSES)
    overlap_only = RuleSettings().narrowed(frozenset({"SD801"}))
    assert passes_in_force(overlap_only) == {"overlap", "hosts"}
    assert passes_in_force(RuleSettings().narrowed(frozenset({"SD204"}))) == frozenset()
    # With no host rule in force no agent's view is built (the project has no folder of
    # claude-code's either way: the answer is the same, the cost is not paid).
    scan = _scan(tmp_path)
    config = SkilldeckConfig(include_default_roots=False, hosts=("dsh", "claude-code"))
    assert host_findings(scan, config, str(tmp_path), select=frozenset({"SD204"})) == {}


def test_narrowed_settings_keep_severities_and_switch_the_rest_off() -> None:
    settings = RuleSettings(overrides={"SD801": Severity.ERROR, "SD704": None})
    narrowed = settings.narrowed(frozenset({"SD801", "SD802"}))
    assert narrowed.severity_for("SD801", None) is not None  # type: ignore[arg-type]
    assert narrowed.overrides["SD801"].value == "error"  # type: ignore[union-attr]
    assert narrowed.in_force("SD802") and not narrowed.in_force("SD705")
    assert not narrowed.in_force("SD704")
    assert settings.narrowed(None) is settings
    assert settings.narrowed(ALL) is settings
