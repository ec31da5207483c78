"""Routing overlap (SD801 / SD802) on real skill files: what ``check`` and the editor report."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from skilldeck.engine.config._distinct import declare_distinct
from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.config._skilldeck_config import ConfigError, SkilldeckConfig, load_config_file
from skilldeck.engine.deck._deck import ProvidedSkill, deck_findings
from skilldeck.engine.files._skill_file import analyze_skill_text
from skilldeck.engine.filesystem._fs_provider import SkillFileEntry, name_span, scan_deck
from skilldeck.engine.filesystem._roots import SkillRoot
from skilldeck.engine.overlap._deck_overlap import DeckOverlap
from skilldeck.engine.overlap._index import OverlapIndex, OverlapSkill
from skilldeck.engine.registry._model import SkillCandidate
from skilldeck.engine.rules._findings import Finding, Severity
from skilldeck.engine.text._positions import Position, Span

TDD_WORKFLOW = (
    "Use this skill when writing new features, fixing bugs, or refactoring code. Enforces "
    "test-driven development with 80%+ coverage including unit, integration, and E2E tests."
)
TEST_DRIVEN = "Use when implementing any feature or bugfix, before writing implementation code"
REVIEWER = (
    "Expert {lang} code reviewer specializing in idiomatic {lang}, concurrency patterns, "
    "error handling, and performance. Use for all {lang} code changes."
)


def write(root: Path, name: str, description: str, extra: str = "") -> Path:
    path = root / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: {description}\n{extra}---\n\nBody.\n")
    return path


def findings(
    root: Path, settings: RuleSettings | None = None, rank_roots: list[Path] | None = None
) -> dict[str, list[Finding]]:
    roots = [SkillRoot(300 + i, "custom", str(r), True) for i, r in enumerate(rank_roots or [root])]
    config = SkilldeckConfig(include_default_roots=False)
    if settings is not None:
        config = SkilldeckConfig(
            include_default_roots=False,
            overlap_threshold=settings.overlap_threshold,
            near_duplicate_threshold=settings.near_duplicate_threshold,
            rule_overrides=dict(settings.overrides),
        )
    return deck_findings(scan_deck(config, None, roots=roots))


def overlap_of(found: dict[str, list[Finding]], path: Path) -> list[Finding]:
    return [f for f in found[str(path)] if f.code.startswith("SD8")]


def test_overlapping_skills_are_told_on_both_files_pointing_at_each_other(tmp_path: Path) -> None:
    tdd = write(tmp_path, "tdd-workflow", TDD_WORKFLOW)
    driven = write(tmp_path, "test-driven-development", TEST_DRIVEN)
    write(tmp_path, "release-notes", "Draft release notes from the merged pull requests.")
    found = findings(tmp_path)
    name_span = Span(Position(1, 6), Position(1, 18))
    (on_tdd,) = overlap_of(found, tdd)
    assert on_tdd.code == "SD801"
    assert on_tdd.severity is Severity.INFORMATION
    assert on_tdd.span == name_span
    assert on_tdd.message.startswith(
        "`tdd-workflow` and `test-driven-development` describe overlapping tasks (score 0."
    )
    assert "tdd" in on_tdd.message.split("shared: ")[1]  # the name's acronym counts
    ((related_path, related_span),) = [(r.path, r.span) for r in on_tdd.related]
    assert related_path == str(driven)
    assert related_span == Span(Position(1, 6), Position(1, 29))
    (on_driven,) = overlap_of(found, driven)
    assert on_driven.message.startswith("`test-driven-development` and `tdd-workflow`")
    assert [r.path for r in on_driven.related] == [str(tdd)]
    assert overlap_of(found, tmp_path / "release-notes" / "SKILL.md") == []


def test_skills_that_differ_only_in_the_language_or_vendor_do_not_overlap(tmp_path: Path) -> None:
    write(tmp_path, "go-reviewer", REVIEWER.format(lang="Go"))
    write(tmp_path, "rust-reviewer", REVIEWER.format(lang="Rust"))
    deploy = "Deploy a containerised service to {cloud} with a blue-green rollout and rollback."
    write(tmp_path, "aws-deploy", deploy.format(cloud="AWS"))
    write(tmp_path, "azure-deploy", deploy.format(cloud="Azure"))
    checkout = (
        "Integrate {vendor} payment processing for checkout, subscriptions, refunds and "
        "webhooks. Use when implementing {vendor} payments or building checkout flows."
    )
    write(tmp_path, "stripe-checkout", checkout.format(vendor="Stripe"))
    write(tmp_path, "paypal-checkout", checkout.format(vendor="PayPal"))
    found = findings(tmp_path)
    assert {path: overlap_of(found, Path(path)) for path in found} == {path: [] for path in found}


SECURE_CODER = (
    "Expert in secure {platform} coding practices specializing in input validation, "
    "authentication, and {platform}-specific security patterns. Use PROACTIVELY for "
    "{platform} security implementations or {platform} security code reviews."
)


def test_skills_whose_names_say_different_platforms_do_not_overlap(tmp_path: Path) -> None:
    backend = write(tmp_path, "backend-security-coder", SECURE_CODER.format(platform="backend"))
    write(tmp_path, "mobile-security-coder", SECURE_CODER.format(platform="mobile"))
    write(tmp_path, "frontend-security-coder", SECURE_CODER.format(platform="frontend"))
    found = findings(tmp_path)
    assert {path: overlap_of(found, Path(path)) for path in found} == {path: [] for path in found}
    # The same platform in other words (``ios`` is mobile) still competes.
    write(tmp_path, "ios-security-coder", SECURE_CODER.format(platform="mobile"))
    found = findings(tmp_path)
    assert overlap_of(found, backend) == []
    (finding,) = overlap_of(found, tmp_path / "ios-security-coder" / "SKILL.md")
    assert finding.message.startswith(
        "2 skills have the same description: `ios-security-coder`, `mobile-security-coder`"
    )


def test_the_same_template_and_the_same_language_do_overlap(tmp_path: Path) -> None:
    first = write(tmp_path, "go-reviewer", REVIEWER.format(lang="Go"))
    second = write(tmp_path, "golang-review", REVIEWER.format(lang="Go") + " Go only.")
    found = findings(tmp_path)
    (finding,) = overlap_of(found, first)
    assert finding.code == "SD802"  # nearly word for word: a warning
    assert finding.severity is Severity.WARNING
    assert finding.message == (
        "2 skills have nearly the same description: `go-reviewer`, `golang-review`; "
        "the model cannot tell them apart"
    )
    (related,) = finding.related
    assert (related.path, related.message) == (
        str(second),
        "`golang-review`: nearly the same description",
    )
    assert [f.code for f in overlap_of(found, second)] == ["SD802"]


C4_COMPONENT = (
    "Expert C4 Component-level documentation specialist. Synthesizes C4 Code-level "
    "documentation into Component-level architecture, defining component boundaries, "
    "interfaces, and relationships. Creates component diagrams and documentation."
)
C4_CONTAINER = (
    "Expert C4 Container-level documentation specialist. Synthesizes Component-level "
    "documentation into Container-level architecture, mapping components to deployment "
    "units, documenting container interfaces as APIs, and creating container diagrams."
)


def test_members_that_divide_a_family_do_not_compete_but_its_generalist_does(
    tmp_path: Path,
) -> None:
    """`c4-component` and `c4-container` begin alike and each name its own part of the
    work: the model reads which does what from the names. The same texts under names
    that do not divide a family compete, and so does a member adding only a role."""
    component = write(tmp_path, "c4-component", C4_COMPONENT)
    write(tmp_path, "c4-container", C4_CONTAINER)
    assert overlap_of(findings(tmp_path), component) == []

    other = tmp_path / "other"
    renamed = write(other, "component-docs", C4_COMPONENT)
    write(other, "container-docs", C4_CONTAINER)
    (finding,) = overlap_of(findings(other), renamed)
    assert finding.message.startswith("`component-docs` and `container-docs` describe overlap")

    generalist = tmp_path / "generalist"
    member = write(generalist, "c4-component", C4_COMPONENT)
    write(generalist, "c4-architect", C4_CONTAINER)  # adds a role word only
    (finding,) = overlap_of(findings(generalist), member)
    assert finding.message.startswith("`c4-component` and `c4-architect` describe overlap")


def test_a_task_the_name_says_brings_generic_and_specialised_skills_together() -> None:
    """Many skills mention tests in passing; few are named for testing. A generic test
    skill's nearest skills are the specialised ones whose names say testing, ahead of
    skills that only mention it, and the hover lists them so."""
    fillers = {
        "release-notes": "Draft release notes from the merged pull requests once the tests pass.",
        "sprint-plan": "Plan the sprint backlog, estimate the stories, testing too.",
        "sql-migrations": "Write SQL migrations for schema changes, test them and roll them back.",
        "rest-design": "Design REST API endpoints with pagination, errors and contract tests.",
        "docker-images": "Set up Docker images with multi-stage builds and a test stage.",
        "pr-style": "Review pull requests for style and missing tests before merging.",
        "perf-profile": "Profile slow endpoints and load test the fixes.",
        "i18n-strings": "Translate the user interface strings and test every locale.",
        "onboarding-guide": "Write the onboarding guide for new engineers, with a test checklist.",
        "dependency-audit": "Audit dependencies for licences and test the upgrades.",
    }
    automator = OverlapSkill(
        "automator",
        "test-automator",
        "Master AI-powered test automation with modern frameworks, self-healing tests, and "
        "comprehensive quality engineering. Build scalable testing strategies with CI/CD "
        "integration. Use PROACTIVELY for testing automation or quality assurance.",
    )
    skills = [
        automator,
        OverlapSkill(
            "pytest",
            "python-testing",
            "Python testing strategies using pytest, TDD methodology, fixtures, mocking, "
            "parametrization, and coverage requirements.",
        ),
        OverlapSkill(
            "gotest",
            "golang-testing",
            "Go testing patterns including table-driven tests, subtests, benchmarks, fuzzing, "
            "and test coverage. Follows TDD methodology with idiomatic Go practices.",
        ),
        *(OverlapSkill(name, name, text) for name, text in fillers.items()),
    ]
    index = OverlapIndex(skills, threshold=0.05)
    nearest = [n.skill.name for n in index.neighbours(automator, limit=2)]
    assert nearest == ["python-testing", "golang-testing"]


# Two real pairs (benchmarks/overlap_labels.json, every annotator: overlapping) whose
# descriptions share little: a generic reviewer and one for a language.
REVIEW = (
    "PR Reviewer agent. Reviews implemented code using a 3-tier taxonomy (Critical / Should "
    "Fix / Consider). Auto-resolves minor issues, pauses on critical ones. Applies security "
    "guardrails. Outputs review-report.md."
)
FSHARP_REVIEWER = (
    "Expert F# code reviewer specializing in functional idioms, type safety, pattern "
    "matching, computation expressions, and performance. Use for all F# code changes. MUST "
    "BE USED for F# projects."
)
REVIEW_EXCELLENCE = (
    "Master effective code review practices to provide constructive feedback, catch bugs "
    "early, and foster knowledge sharing while maintaining team morale. Use when reviewing "
    "pull requests, establishing review standards, or mentoring developers."
)
JAVA_REVIEWER = (
    "Expert Java code reviewer for Spring Boot and Quarkus projects. Automatically detects "
    "the framework and applies the appropriate review rules. Covers layered architecture, "
    "JPA/Panache, MongoDB, security, and concurrency. MUST BE USED for all Java code changes."
)


def _reviewers(
    generalists: tuple[str, str] = ("review", "code-review-excellence"),
) -> list[OverlapSkill]:
    general, excellence = generalists
    return [
        OverlapSkill("review", general, REVIEW),
        OverlapSkill("fsharp", "fsharp-reviewer", FSHARP_REVIEWER),
        OverlapSkill("excellence", excellence, REVIEW_EXCELLENCE),
        OverlapSkill("java", "java-reviewer", JAVA_REVIEWER),
        OverlapSkill("go", "go-reviewer", REVIEWER.format(lang="Go")),
        OverlapSkill("rust", "rust-reviewer", REVIEWER.format(lang="Rust")),
        OverlapSkill("notes", "release-notes", "Draft release notes from merged pull requests."),
        OverlapSkill("plan", "sprint-plan", "Plan the sprint backlog and estimate the stories."),
    ]


def _scores(index: OverlapIndex, threshold: float) -> dict[frozenset[str], float]:
    return {frozenset((p.a.key, p.b.key)): p.score for p in index.pairs(threshold)}


def test_a_generalist_competes_with_every_skill_named_for_its_task_and_a_thing() -> None:
    """`review` or `code-review-excellence` catches a request for F# or Java review as
    readily as `fsharp-reviewer` does, whatever their descriptions say: such a pair
    scores at least 0.30. Two specialists of one task do not meet so, and names that
    say more than the task make no generalist."""
    scores = _scores(OverlapIndex(_reviewers(), threshold=0.22), 0.22)
    for pair in (("review", "fsharp"), ("excellence", "java"), ("review", "go")):
        assert scores[frozenset(pair)] >= 0.3, pair
    assert frozenset(("go", "rust")) not in scores
    assert frozenset(("fsharp", "java")) not in scores
    # The same texts under names that are no generalist's: the pairs are far apart.
    named = OverlapIndex(_reviewers(("pr-triage", "team-morale")), threshold=0.0)
    low = _scores(named, 0.0)
    assert low.get(frozenset(("review", "fsharp")), 0.0) < 0.22
    assert low.get(frozenset(("excellence", "java")), 0.0) < 0.22
    # A threshold above the generalist score leaves to the words what they decide.
    assert frozenset(("review", "fsharp")) not in _scores(OverlapIndex(_reviewers()), 0.35)


def test_generalist_pairs_follow_edits_and_match_a_fresh_build() -> None:
    skills = _reviewers()
    index = OverlapIndex(skills, threshold=0.22)
    renamed = OverlapSkill("fsharp", "fsharp-style-guide", FSHARP_REVIEWER)
    index.replace(renamed)
    assert frozenset(("review", "fsharp")) not in _scores(index, 0.22)
    assert [p.other("review").name for p in index.pairs_of(skills[0])] == [
        p.other("review").name
        for p in OverlapIndex([s if s.key != "fsharp" else renamed for s in skills]).pairs()
        if "review" in (p.a.key, p.b.key)
    ]
    index.replace(skills[1])
    assert frozenset(("review", "fsharp")) in _scores(index, 0.22)
    index.remove("review")
    rest = [s for s in skills if s.key != "review"]
    assert _scores(index, 0.22) == _scores(OverlapIndex(rest), 0.22)
    nearest = index.neighbours(skills[0], limit=2)  # an edited buffer not in the index
    assert {n.skill.name for n in nearest} <= {
        "fsharp-reviewer",
        "go-reviewer",
        "rust-reviewer",
        "java-reviewer",
    }
    assert all(n.score >= 0.3 for n in nearest)


def test_end_to_end_tests_and_other_tests_are_told_apart_by_the_name() -> None:
    """A skill named for end-to-end tests (or a browser driver) answers other requests
    than a unit or language test skill with much the same words; two e2e skills compete."""
    text = (
        "Write {what} tests for the checkout flow with fixtures, retries for flaky steps, "
        "and reports in CI."
    )
    fillers = [
        OverlapSkill(name, name, f"{name.replace('-', ' ')} for the team, weekly.")
        for name in ("release-notes", "sprint-plan", "incident-review", "api-docs")
    ]

    def score(first: str, second: str) -> float:
        index = OverlapIndex(
            [
                OverlapSkill("a", first, text.format(what="browser")),
                OverlapSkill("b", second, text.format(what="browser")),
                *fillers,
            ],
            threshold=0.0,
        )
        return _scores(index, 0.0)[frozenset(("a", "b"))]

    assert score("e2e-testing", "python-testing") == pytest.approx(
        score("kiwi-testing", "python-testing") / 2, abs=0.001
    )
    # A browser driver in the name says end-to-end too: no kind of work sets them apart.
    assert score("e2e-testing", "playwright-checkout") == pytest.approx(
        score("e2e-testing", "kiwi-checkout") * 2, abs=0.001
    )
    assert score("e2e-testing", "playwright-checkout") >= 0.22


def test_the_same_task_in_other_words_competes(tmp_path: Path) -> None:
    # "diagnose" / "troubleshoot" and "visual layout" / "aesthetic, UX" share no word:
    # the task-concept table (engine/overlap/_concepts.py) lets each pair meet.
    diagnostics = write(
        tmp_path,
        "crash-diagnostics",
        "Diagnose why a program crashes from its stack traces and logs.",
    )
    write(tmp_path, "troubleshooter", "Troubleshoot a crashing program until the fault is found.")
    polish = write(tmp_path, "ui-polish", "Polish the visual layout and typography of a web page.")
    write(
        tmp_path,
        "frontend-look",
        "Improve the aesthetic of a web page, its spacing, colours and UX details.",
    )
    write(tmp_path, "release-notes", "Draft release notes from the merged pull requests.")
    found = findings(tmp_path)
    (on_diagnostics,) = overlap_of(found, diagnostics)
    assert on_diagnostics.message.startswith(
        "`crash-diagnostics` and `troubleshooter` describe overlapping tasks (score 0."
    )
    # The concept is no word of either description: the message shows the words.
    assert on_diagnostics.message.endswith("shared: crashes, program)")
    (on_polish,) = overlap_of(found, polish)
    assert on_polish.message.startswith("`ui-polish` and `frontend-look` describe overlapping")
    assert overlap_of(found, tmp_path / "release-notes" / "SKILL.md") == []


def _boilerplate_deck(root: Path, count: int) -> None:
    topics = [
        "invoice", "sitemap", "kernel", "playlist", "recipe", "payroll", "glacier",
        "orchard", "violin", "telescope", "harbor", "lantern", "meadow", "quarry",
        "saddle", "tundra", "volcano", "walrus", "yacht", "zeppelin", "anchor", "bamboo",
        "canyon", "dolphin", "ember", "falcon", "geyser", "hammock", "iceberg", "jasmine",
        "kayak", "lagoon", "mango", "nectar", "oasis", "pebble", "quiver", "raven",
        "sapphire", "tulip", "umbrella", "velvet", "willow", "xylophone", "yogurt",
        "zenith", "acorn", "biscuit", "cobalt", "dune", "eclipse", "fjord", "granite",
        "hazel", "ivory",
    ]  # fmt: skip
    for topic in topics[:count]:
        write(
            root,
            f"{topic}-helper",
            "This skill should be used when the user asks for structured, step-by-step "
            "review notes with a checklist, a risk summary and follow-up actions about "
            f"the {topic}.",
        )


def test_template_boilerplate_shared_by_many_skills_is_discounted(tmp_path: Path) -> None:
    # Two skills alone: the deck gives no evidence that the shared text is a template.
    _boilerplate_deck(tmp_path / "two", 2)
    found = findings(tmp_path / "two")
    assert [f.code for f in overlap_of(found, tmp_path / "two" / "invoice-helper" / "SKILL.md")]
    # Fifty-five skills share it: it is boilerplate, and only the topic is left to compare.
    _boilerplate_deck(tmp_path / "many", 55)
    found = findings(tmp_path / "many")
    assert all(overlap_of(found, Path(path)) == [] for path in found)


def test_rules_are_configurable_and_can_be_switched_off(tmp_path: Path) -> None:
    tdd = write(tmp_path, "tdd-workflow", TDD_WORKFLOW)
    write(tmp_path, "test-driven-development", TEST_DRIVEN)
    assert overlap_of(findings(tmp_path, RuleSettings(overlap_threshold=0.95)), tdd) == []
    off = RuleSettings(overrides={"SD801": None})
    assert overlap_of(findings(tmp_path, off), tdd) == []
    raised = RuleSettings(overrides={"overlapping-skills": "warning"})
    assert [f.severity for f in overlap_of(findings(tmp_path, raised), tdd)] == [Severity.WARNING]


def test_only_the_skills_the_model_can_choose_compete(tmp_path: Path) -> None:
    project, user = tmp_path / "project", tmp_path / "user"
    tdd = write(project, "tdd-workflow", TDD_WORKFLOW)
    write(project, "test-driven-development", TEST_DRIVEN, "disable-model-invocation: true\n")
    # A shadowed skill is never listed: it does not compete either.
    write(user, "tdd-workflow", "Plan the weekly roadmap review.")
    write(user, "write-tests-first", TDD_WORKFLOW.replace("Enforces", "Always does"))
    found = findings(project, rank_roots=[project, user])
    (finding,) = overlap_of(found, tdd)
    assert "`write-tests-first`" in finding.message
    assert overlap_of(found, user / "tdd-workflow" / "SKILL.md") == []


def test_overlap_thresholds_come_from_the_overlap_table(tmp_path: Path) -> None:
    file = tmp_path / "skilldeck.toml"
    file.write_text("[overlap]\nthreshold = 0.5\nnear-duplicate-threshold = 0.9\n")
    settings = SkilldeckConfig().merged(load_config_file(file)).rule_settings()
    assert (settings.overlap_threshold, settings.near_duplicate_threshold) == (0.5, 0.9)
    file.write_text("[overlap]\nthreshold = 2\n")
    with pytest.raises(ConfigError, match=r"'overlap.threshold' must be a number greater than 0"):
        load_config_file(file)
    file.write_text("[overlap]\nthreshhold = 0.5\n")
    with pytest.raises(ConfigError, match=r"unknown key 'overlap.threshhold'"):
        load_config_file(file)


def test_an_edit_updates_the_pairs_of_both_skills(tmp_path: Path) -> None:
    tdd = write(tmp_path, "tdd-workflow", TDD_WORKFLOW)
    driven = write(tmp_path, "test-driven-development", TEST_DRIVEN)
    config = SkilldeckConfig(include_default_roots=False)
    scan = scan_deck(config, None, roots=[SkillRoot(300, "custom", str(tmp_path), True)])
    entries = {e.path: e for e in scan.entries()}
    overlap = DeckOverlap(entries.values(), scan.settings)
    assert [f.code for f in overlap.findings_of(str(driven))] == ["SD801"]
    write(
        tmp_path,
        "tdd-workflow",
        "Plan the weekly roadmap review with the team, collect open questions from every "
        "squad, book the room and send the agenda a day ahead.",
    )
    edited = scan_deck(config, None, roots=[SkillRoot(300, "custom", str(tmp_path), True)])
    (entry,) = [e for e in edited.entries() if e.path == str(tdd)]
    assert overlap.update(str(tdd), entry) == {str(tdd), str(driven)}
    assert overlap.findings_of(str(driven)) == ()
    assert overlap.findings_of(str(tdd)) == ()
    nearest = overlap.nearest(entries[str(driven)])
    assert [n.skill.name for n in nearest] in ([], ["tdd-workflow"])


_WORDS = st.sampled_from(
    [
        "review",
        "deploy",
        "test",
        "python",
        "rust",
        "cloud",
        "schema",
        "docs",
        "release",
        "api",
        "lint",
        "debug",
        "bug",
        "go",
        "aws",
        "azure",
        "report",
        "migrate",
        "audit",
        "the",
        "when",
        "this",
    ]
)


#: Names: plain ones, generalists of a task and skills named for a task and a thing.
_NAMES = st.sampled_from(
    ["s", "notes", "code-reviewer", "review", "go-reviewer", "rust-reviewer", "tdd-guide",
     "python-testing", "e2e-testing", "debugger", "aws-debug"]
)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(_NAMES, st.lists(_WORDS, min_size=1, max_size=8)), min_size=2, max_size=12),
    st.sampled_from([0.2, 0.3, 0.5, 0.8]),
)
def test_prefix_filtering_finds_every_pair_a_full_comparison_finds(
    texts: list[tuple[str, list[str]]], threshold: float
) -> None:
    skills = [
        OverlapSkill(f"k{i}", f"{name}{i}" if name == "s" else name, " ".join(words))
        for i, (name, words) in enumerate(texts)
    ]
    pruned = OverlapIndex(skills, threshold=threshold)
    full = OverlapIndex(skills, threshold=1e-9)  # every feature indexed
    expected = [(p.a.key, p.b.key, p.score) for p in full.pairs(threshold)]
    assert [(p.a.key, p.b.key, p.score) for p in pruned.pairs()] == expected
    for skill in skills:
        assert [p.other(skill.key).key for p in pruned.pairs_of(skill)] == [
            p.other(skill.key).key for p in full.pairs(threshold) if skill.key in (p.a.key, p.b.key)
        ]


def test_seven_copies_are_one_family_and_seven_findings_each_naming_the_others(
    tmp_path: Path,
) -> None:
    """Seven skills with one description: one SD802 on each file naming the family (the
    first six names, then how many more), pointing at the six others; no pair findings
    among them (21 before)."""
    paths = [write(tmp_path, f"copy-{n}", REVIEWER.format(lang="Go")) for n in range(7)]
    found = findings(tmp_path)
    for path in paths:
        (finding,) = overlap_of(found, path)
        assert (finding.code, finding.severity) == ("SD802", Severity.WARNING)
        assert finding.message == (
            "7 skills have the same description: `copy-0`, `copy-1`, `copy-2`, `copy-3`, "
            "`copy-4`, `copy-5` and 1 more; the model cannot tell them apart"
        )
        assert finding.span == Span(Position(1, 6), Position(1, 12))
        others = [other for other in paths if other != path]
        assert [(r.path, r.span, r.message) for r in finding.related] == [
            (str(other), Span(Position(1, 6), Position(1, 12)),
             f"`{other.parent.name}`: the same description")
            for other in others
        ]  # fmt: skip
    # Case and punctuation do not make a copy another description.
    write(tmp_path, "copy", REVIEWER.format(lang="Go").upper().replace(",", " ;"))
    assert len(overlap_of(findings(tmp_path), paths[0])) == 1
    assert (
        "8 skills have the same description" in overlap_of(findings(tmp_path), paths[0])[0].message
    )


def test_a_near_duplicate_joins_the_copies_and_an_outsider_is_told_once(tmp_path: Path) -> None:
    """Three copies and a near-identical variant are one family ("nearly the same"); a
    skill that overlaps them gets one SD801 for the whole family, naming one member."""
    copies = [write(tmp_path, f"go-review-{n}", REVIEWER.format(lang="Go")) for n in range(3)]
    variant = write(tmp_path, "golang-review", REVIEWER.format(lang="Go") + " Go only.")
    tdd = write(tmp_path, "tdd-workflow", TDD_WORKFLOW)
    driven = write(tmp_path, "test-driven-development", TEST_DRIVEN)
    found = findings(tmp_path)
    for path in [*copies, variant]:
        (finding,) = overlap_of(found, path)
        assert finding.message == (
            "4 skills have nearly the same description: `go-review-0`, `go-review-1`, "
            "`go-review-2`, `golang-review`; the model cannot tell them apart"
        )
        assert len(finding.related) == 3
    assert [f.code for f in overlap_of(found, tdd)] == ["SD801"]
    assert [f.code for f in overlap_of(found, driven)] == ["SD801"]


def test_a_skill_is_told_about_its_three_nearest_competitors_only(tmp_path: Path) -> None:
    """Five distinct skills on one task: each file names three of the others (SD801)."""
    for lang in ("Go", "Golang", "Go1", "Go2", "Go3"):
        write(tmp_path, f"{lang.lower()}-reviewer", REVIEWER.format(lang="Go") + f" {lang} first.")
    scan_found = findings(tmp_path, RuleSettings(near_duplicate_threshold=1.0))
    for path in scan_found:
        told = overlap_of(scan_found, Path(path))
        assert [f.code for f in told] == ["SD801"] * 3


def test_a_provided_skill_competes_and_the_file_is_told(tmp_path: Path) -> None:
    tdd = write(tmp_path, "tdd-workflow", TDD_WORKFLOW)
    candidate = SkillCandidate(
        name="test-driven-development",
        description=TEST_DRIVEN,
        source="runtime",
        provider="runtime",
        rank=0,
    )
    config = SkilldeckConfig(include_default_roots=False)
    scan = scan_deck(config, None, roots=[SkillRoot(300, "custom", str(tmp_path), True)])
    found = deck_findings(scan, [ProvidedSkill(candidate, "runtime")])
    (finding,) = overlap_of(found, tdd)
    assert finding.message.startswith("`tdd-workflow` and `test-driven-development` describe")
    assert finding.related == ()  # the provided skill has no file to point at


def test_a_provided_skill_whose_file_moves_stays_one_competitor(tmp_path: Path) -> None:
    """A git source's new commit is a new checkout folder: the same provided skill at a
    new path replaces itself (no pair with its old copy) and the file is told the new
    path."""
    from skilldeck.engine.overlap._deck_overlap import DeckOverlap  # noqa: PLC0415

    tdd = write(tmp_path, "tdd-workflow", TDD_WORKFLOW)
    config = SkilldeckConfig(include_default_roots=False)
    scan = scan_deck(config, None, roots=[SkillRoot(300, "custom", str(tmp_path), True)])

    def provided(rev: str) -> ProvidedSkill:
        path = tmp_path / "cache" / rev / "test-driven-development" / "SKILL.md"
        candidate = SkillCandidate(
            name="test-driven-development",
            description=TEST_DRIVEN,
            source="git:team",
            provider="git:team",
            rank=350,
            path=str(path),
        )
        return ProvidedSkill(candidate, "git:team")

    first, second = provided("rev-1"), provided("rev-2")
    (entry,) = scan.entries()
    overlap = DeckOverlap([entry, first], RuleSettings())
    assert overlap.update("git:team:test-driven-development", second) == {str(tdd)}
    assert [p.other(str(tdd)).name for p in overlap.pairs()] == ["test-driven-development"]
    (finding,) = overlap.findings_of(str(tdd))
    assert [r.path for r in finding.related] == [second.path]


def test_when_a_skill_name_moves_its_partners_are_told_again(tmp_path: Path) -> None:
    tdd = write(tmp_path, "tdd-workflow", TDD_WORKFLOW)
    driven = write(tmp_path, "test-driven-development", TEST_DRIVEN)
    root = SkillRoot(300, "custom", str(tmp_path), True)
    config = SkilldeckConfig(include_default_roots=False)
    overlap = DeckOverlap(scan_deck(config, None, roots=[root]).entries(), None)
    tdd.write_text(f"---\nlicense: MIT\nname: tdd-workflow\ndescription: {TDD_WORKFLOW}\n---\n")
    (moved,) = [e for e in scan_deck(config, None, roots=[root]).entries() if e.path == str(tdd)]
    assert overlap.update(str(tdd), moved) == {str(driven)}
    (finding,) = overlap.findings_of(str(driven))
    assert finding.related[0].span == Span(Position(2, 6), Position(2, 18))


def test_when_a_copy_s_name_moves_its_family_is_pointed_at_the_new_place(
    tmp_path: Path,
) -> None:
    """A family's related locations are made once and shared by its findings: a name that
    moves (same text) must not leave the others pointing at its old place."""
    first = write(tmp_path, "tdd-workflow", TDD_WORKFLOW)
    copy = write(tmp_path, "tdd-workflow-copy", TDD_WORKFLOW)
    root = SkillRoot(300, "custom", str(tmp_path), True)
    config = SkilldeckConfig(include_default_roots=False)
    overlap = DeckOverlap(scan_deck(config, None, roots=[root]).entries(), None)
    (before,) = [f for f in overlap.findings_of(str(copy)) if f.code == "SD802"]
    assert [r.span for r in before.related] == [Span(Position(1, 6), Position(1, 18))]
    first.write_text(f"---\nlicense: MIT\nname: tdd-workflow\ndescription: {TDD_WORKFLOW}\n---\n")
    (moved,) = [e for e in scan_deck(config, None, roots=[root]).entries() if e.path == str(first)]
    assert overlap.update(str(first), moved) == {str(copy)}
    (after,) = [f for f in overlap.findings_of(str(copy)) if f.code == "SD802"]
    assert [r.span for r in after.related] == [Span(Position(2, 6), Position(2, 18))]


def test_only_what_the_catalog_shows_of_a_description_competes(tmp_path: Path) -> None:
    tail = " " + REVIEWER.format(lang="Go") * 3  # beyond the catalog's 80 characters
    first = write(
        tmp_path,
        "invoice-helper",
        "Draft the monthly invoices for every customer, with totals and tax lines." + tail,
    )
    write(
        tmp_path,
        "sitemap-helper",
        "Rebuild the sitemap of the public website after pages move or disappear." + tail,
    )
    capped = SkilldeckConfig(include_default_roots=False, catalog_max_description_length=80)
    scan = scan_deck(capped, None, roots=[SkillRoot(300, "custom", str(tmp_path), True)])
    assert overlap_of(deck_findings(scan), first) == []
    uncapped = SkilldeckConfig(include_default_roots=False)
    scan = scan_deck(uncapped, None, roots=[SkillRoot(300, "custom", str(tmp_path), True)])
    assert [f.code for f in overlap_of(deck_findings(scan), first)] == ["SD801"]


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200), st.text(max_size=200))
def test_any_text_scores_between_0_and_1_and_a_skill_never_pairs_with_itself(
    first: str, second: str
) -> None:
    skills = [OverlapSkill("a", "alpha-skill", first), OverlapSkill("b", "beta-skill", second)]
    index = OverlapIndex(skills, threshold=1e-9)
    for pair in index.pairs():
        assert 0 < pair.score <= 1
        assert pair.a.key != pair.b.key
        assert all(isinstance(word, str) and word for word in pair.shared)
    assert all(n.skill.key == "b" for n in index.neighbours(skills[0]))


def test_rules_off_skip_the_overlap_pass(tmp_path: Path) -> None:
    """With SD801 and SD802 both off nothing is compared (no findings, no neighbours)."""
    from skilldeck.engine.config._rule_settings import RuleSettings  # noqa: PLC0415
    from skilldeck.engine.overlap._deck_overlap import DeckOverlap  # noqa: PLC0415

    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    for name in ("pdf-forms", "pdf-fill"):
        folder = project / ".dsh" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Fill PDF forms from a spreadsheet of values.\n---\n"
        )
    config = SkilldeckConfig(include_user_roots=False)
    scan = scan_deck(config, project)
    winners = [entry for entry in scan.entries() if entry.analysis.accepted]
    on = DeckOverlap(winners, config.rule_settings())
    assert on.enabled and on.paths()
    off = DeckOverlap(winners, RuleSettings(overrides={"SD801": None, "SD802": None}))
    assert not off.enabled and off.paths() == [] and off.nearest(winners[0]) == []


def test_a_replaced_overlap_lets_go_of_everything_a_slice_at_a_time(tmp_path: Path) -> None:
    """The editor drops an overlap it has replaced in steps (yielding between them); at
    the end nothing of it is left."""
    tdd = write(tmp_path, "tdd-workflow", TDD_WORKFLOW)
    write(tmp_path, "test-driven-development", TEST_DRIVEN)
    scan = scan_deck(
        SkilldeckConfig(include_default_roots=False),
        None,
        roots=[SkillRoot(300, "custom", str(tmp_path), True)],
    )
    overlap = DeckOverlap(scan.entries(), scan.settings)
    assert [f.code for f in overlap.findings_of(str(tdd))] == ["SD801"]
    for _ in overlap.dismantle():
        pass
    assert (overlap.pairs(), overlap.paths(), overlap.findings_of(str(tdd))) == ([], [], ())
    assert overlap.path_of(str(tdd)) is None


@pytest.mark.parametrize(
    ("before", "pyproject", "after", "groups"),
    [
        ("", False, '[overlap]\ndistinct = [["a", "b"]]\n', (("a", "b"),)),
        (
            "# team\n[overlap]\nthreshold = 0.3  # tuned\n",
            False,
            '# team\n[overlap]\nthreshold = 0.3  # tuned\ndistinct = [["a", "b"]]\n',
            (("a", "b"),),
        ),
        (
            '[overlap]\ndistinct = [["c4-*"]]\n',
            False,
            '[overlap]\ndistinct = [["c4-*"], ["a", "b"]]\n',
            (("c4-*",), ("a", "b")),
        ),
        (
            '[project]\nname = "x"\n\n[tool.skilldeck]\nprofile = "dsh"\n',
            True,
            '[project]\nname = "x"\n\n[tool.skilldeck]\nprofile = "dsh"\n\n'
            '[tool.skilldeck.overlap]\ndistinct = [["a", "b"]]\n',
            (("a", "b"),),
        ),
    ],
)
def test_declaring_a_pair_distinct_keeps_the_config_file_as_written(
    tmp_path: Path, before: str, pyproject: bool, after: str, groups: tuple[tuple[str, ...]]
) -> None:
    written = declare_distinct(before, ("a", "b"), pyproject=pyproject)
    assert written == after
    file = tmp_path / ("pyproject.toml" if pyproject else "skilldeck.toml")
    file.write_text(written)
    assert load_config_file(file).overlap_distinct == groups


def test_declaring_distinct_refuses_a_config_file_it_cannot_read() -> None:
    with pytest.raises(ValueError, match="not valid TOML"):
        declare_distinct("[overlap\n", ("a", "b"), pyproject=False)
    with pytest.raises(ValueError, match="'overlap' in the config file is not a table"):
        declare_distinct("overlap = 3\n", ("a", "b"), pyproject=False)


# -- what the editor is told after each keystroke ---------------------------------------

_ROOT = SkillRoot(300, "custom", "/deck", True)
_KEYS = [f"/deck/skill-{n}/SKILL.md" for n in range(7)]
_NAMES = ["tdd-workflow", "tdd-guide", "go-reviewer", "rust-reviewer", "copy", "copy-too"]
_DESCRIPTIONS = [
    TDD_WORKFLOW,
    TDD_WORKFLOW + " Writes the tests first.",  # nearly the same: one family, not copies
    TEST_DRIVEN,
    TEST_DRIVEN + ", and when a bug report needs a failing unit test first",  # scores move
    REVIEWER.format(lang="Go"),
    REVIEWER.format(lang="Go").upper(),  # the same words: a copy
    REVIEWER.format(lang="Rust"),
    "Plan the weekly roadmap review with the team and send the agenda a day ahead.",
]


def _entry(key: str, name: str, description: int, shift: bool, invocable: bool) -> SkillFileEntry:
    """The skill file ``key`` as the editor's index judges a buffer (``shift``: a comment
    line above ``name``, which moves where its findings point)."""
    lines = ["---", *(["# moved"] if shift else []), f"name: {name}"]
    lines.append(f"description: {_DESCRIPTIONS[description]}")
    if not invocable:
        lines.append("disable-model-invocation: true")
    text = "\n".join([*lines, "---", "", "Body.", ""])
    folder = key.rsplit("/", 1)[0]
    analysis = analyze_skill_text(text, path=key, expected_name=folder.rsplit("/", 1)[1])
    return SkillFileEntry(_ROOT, "bundle", key, folder, name, analysis, name_span(analysis))


_EDIT = st.tuples(
    st.integers(0, len(_KEYS) - 1),
    st.sampled_from(_NAMES),
    st.integers(0, len(_DESCRIPTIONS) - 1),
    st.booleans(),
    st.booleans() | st.just(True),
)


def _edited(
    fields: tuple[str, int, bool, bool], edit: tuple[int, str, int, bool, bool] | None
) -> tuple[str, int, bool, bool]:
    """A skill's fields after ``edit``: a new skill, or (``None``) a comment line added
    or removed above its name (the same text, the name moved)."""
    if edit is None:
        name, text, shift, invocable = fields
        return (name, text, not shift, invocable)
    return edit[1:]


def _shown_now(overlap: DeckOverlap) -> dict[str, tuple[Finding, ...]]:
    """What every file would show if it were published now."""
    return {key: overlap.findings_of(key) for key in _KEYS}


@settings(max_examples=100, deadline=None)
@given(
    st.lists(_EDIT, min_size=len(_KEYS), max_size=len(_KEYS)),
    st.lists(st.tuples(st.integers(0, len(_KEYS) - 1), st.none() | _EDIT), max_size=12),
)
def test_after_every_update_the_files_told_again_are_all_whose_findings_moved(
    start: list[tuple[int, str, int, bool, bool]],
    edits: list[tuple[int, tuple[int, str, int, bool, bool] | None]],
) -> None:
    """An editor publishes the edited file and the files an update returns (of the
    edited skill's family and competitors, those whose findings' inputs moved: not
    every copy of a family on every keystroke). Whatever
    the edits (copies leaving and joining a family, a description nearly the same, a
    name moving, a skill the model cannot choose; ``None``: a comment line added or
    removed above the name, which moves where every finding naming it points), every
    file then shows the findings the overlap gives it now."""
    state = {key: fields[1:] for key, fields in zip(_KEYS, start, strict=True)}
    overlap = DeckOverlap([_entry(key, *fields) for key, fields in state.items()], RuleSettings())
    shown = _shown_now(overlap)
    for number, edit in edits:
        key = _KEYS[number]
        state[key] = _edited(state[key], edit)
        told = overlap.update(key, _entry(key, *state[key]))
        for path in told | {key}:  # the edited file is published whatever it returns
            shown[path] = overlap.findings_of(path)
        assert shown == _shown_now(overlap)


def test_the_nearest_skills_follow_an_edit_of_another_skill(tmp_path: Path) -> None:
    """A hover asks for the nearest skills of the same document again and again: what it
    is told stands until the deck changes, and then follows the change."""
    tdd = write(tmp_path, "tdd-workflow", TDD_WORKFLOW)
    write(tmp_path, "test-driven-development", TEST_DRIVEN)
    config = SkilldeckConfig(include_default_roots=False)
    roots = [SkillRoot(300, "custom", str(tmp_path), True)]
    scan = scan_deck(config, None, roots=roots)
    entries = {e.path: e for e in scan.entries()}
    overlap = DeckOverlap(entries.values(), scan.settings)
    (before,) = overlap.nearest(entries[str(tdd)])
    assert before.skill.name == "test-driven-development"
    assert overlap.nearest(entries[str(tdd)]) == [before]
    driven = write(
        tmp_path,
        "test-driven-development",
        "Plan the weekly roadmap review with the team, collect open questions from every "
        "squad, book the room and send the agenda a day ahead.",
    )
    (entry,) = [e for e in scan_deck(config, None, roots=roots).entries() if e.path == str(driven)]
    overlap.update(str(driven), entry)
    # Its name still shares words with the description; the description no longer does.
    (after,) = overlap.nearest(entries[str(tdd)])
    assert after.skill == overlap.skill(str(driven))
    assert after.score < before.score


@settings(max_examples=80, deadline=None)
@given(
    st.lists(_EDIT, min_size=len(_KEYS), max_size=len(_KEYS)),
    st.lists(st.tuples(_EDIT, st.booleans()), max_size=12),
)
@example(  # a file published while unsettled, then settled back as it was last told
    start=[
        (0, "tdd-workflow", 0, False, True),
        (0, "tdd-workflow", 0, False, True),
        (0, "tdd-guide", 2, True, True),
        (0, "tdd-workflow", 0, False, False),
        (0, "tdd-workflow", 1, False, True),
        (0, "tdd-workflow", 0, False, False),
        (0, "tdd-workflow", 1, False, True),
    ],
    edits=[
        ((0, "tdd-workflow", 0, False, False), True),
        ((0, "tdd-workflow", 0, False, True), False),
        ((2, "tdd-guide", 2, True, True), False),
        ((0, "tdd-workflow", 0, False, False), False),
    ],
)
def test_files_left_to_settle_are_told_when_the_editor_settles(
    start: list[tuple[int, str, int, bool, bool]],
    edits: list[tuple[tuple[int, str, int, bool, bool], bool]],
) -> None:
    """The editor's keystroke path: ``update(..., settle=False)`` returns the edited file
    alone and :meth:`DeckOverlap.settle` the others whose findings moved, when the typist
    pauses (here: after any edit, and at the end). Whenever it has settled, every file
    shows the findings the overlap gives it now."""
    members = {
        key: _entry(key, name, text, shift, invocable)
        for key, (_n, name, text, shift, invocable) in zip(_KEYS, start, strict=True)
    }
    overlap = DeckOverlap(members.values(), RuleSettings())
    shown = _shown_now(overlap)

    def pause() -> None:
        for path in overlap.settle():
            shown[path] = overlap.findings_of(path)
        assert shown == _shown_now(overlap)

    for (number, name, text, shift, invocable), pauses in edits:
        key = _KEYS[number]
        told = overlap.update(key, _entry(key, name, text, shift, invocable), settle=False)
        assert told <= {key}
        shown[key] = overlap.findings_of(key)
        if pauses:
            pause()
    pause()


def test_an_edited_file_shown_before_the_editor_settles_is_told_again_when_it_settles() -> None:
    """The edited file is published after every update, settled or not. Here a copy of
    `tdd-workflow` leaves and joins again: its competitor `tdd-guide` points at the other
    copy, then at the one that joined (published so: it is typed in, its own text the
    same, before the pause), then at the other copy again when it leaves once more. What
    it was told at the last pause is what it is told now, but not what it shows: settle
    must tell it again (it kept a related location at the copy that had left)."""
    workflow, copy, guide = _KEYS[:3]
    fields = {workflow: ("tdd-workflow", 0, False, True), copy: ("tdd-workflow", 0, False, True)}
    fields[guide] = ("tdd-guide", 2, True, True)
    for key in _KEYS[3:]:
        fields[key] = ("roadmap", 7, False, False)  # the model cannot choose them
    overlap = DeckOverlap([_entry(key, *f) for key, f in fields.items()], RuleSettings())
    shown = _shown_now(overlap)
    edits = [
        (workflow, ("tdd-workflow", 0, False, False), True),  # leaves; the editor pauses
        (workflow, ("tdd-workflow", 0, False, True), False),  # joins again
        (guide, fields[guide], False),  # typed in, the same text: published as it is now
        (workflow, ("tdd-workflow", 0, False, False), True),  # leaves again; a pause
    ]
    for key, edit, pauses in edits:
        assert overlap.update(key, _entry(key, *edit), settle=False) <= {key}
        shown[key] = overlap.findings_of(key)
        if pauses:
            for path in overlap.settle():
                shown[path] = overlap.findings_of(path)
            assert shown[guide] == overlap.findings_of(guide)
            assert shown == _shown_now(overlap)
    (finding,) = shown[guide]
    assert [location.path for location in finding.related] == [copy]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(_EDIT, min_size=len(_KEYS), max_size=len(_KEYS)),
    st.lists(
        st.tuples(st.integers(0, len(_KEYS) - 1), st.none() | _EDIT, st.booleans()), max_size=12
    ),
)
def test_an_editor_that_updates_the_overlap_when_the_typist_pauses_shows_it_then(
    start: list[tuple[int, str, int, bool, bool]],
    edits: list[tuple[int, tuple[int, str, int, bool, bool] | None, bool]],
) -> None:
    """The language server's keystroke path: each edit only :meth:`DeckOverlap.relocate`s
    the edited file (its findings point at its places now; the edited file is published
    with them) and the overlap update waits for the typist's pause, when the latest member
    of every edited file is applied and :meth:`DeckOverlap.settle` names the others.
    After every pause, every file shows the findings the overlap gives it now. An edit
    is a new skill, or (``None``) a comment line added or removed above the name: the
    same text, its name moved, and the files pointing at it are told."""
    state = {key: fields[1:] for key, fields in zip(_KEYS, start, strict=True)}
    members = {key: _entry(key, *fields) for key, fields in state.items()}
    overlap = DeckOverlap(members.values(), RuleSettings())
    shown = _shown_now(overlap)
    pending: dict[str, SkillFileEntry] = {}

    def pause() -> None:
        changed: set[str] = set()
        for key, member in pending.items():
            changed |= overlap.update(key, member, settle=False)
        pending.clear()
        for path in changed | overlap.settle():
            shown[path] = overlap.findings_of(path)
        assert shown == _shown_now(overlap)

    for number, edit, pauses in edits:
        key = _KEYS[number]
        state[key] = _edited(state[key], edit)
        member = _entry(key, *state[key])
        overlap.relocate(key, member)
        pending[key] = member
        shown[key] = overlap.findings_of(key)
        if pauses:
            pause()
    pause()
