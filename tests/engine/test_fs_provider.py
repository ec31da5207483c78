from __future__ import annotations

import os
from pathlib import Path

import pytest

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.deck._deck import deck_findings
from skilldeck.engine.filesystem._fs_provider import (
    DeckScan,
    FilesystemProvider,
    classify_path,
    scan_deck,
    scan_root,
)
from skilldeck.engine.filesystem._roots import SkillRoot, resolve_roots
from skilldeck.engine.registry._model import DirectoryResourceBase, InvocationPolicy
from skilldeck.engine.registry._provider import LookupOptions, ProviderObservation
from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.text._positions import Position, Span

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "workspace"


def skill(path: Path, name: str, description: str = "Does things.", extra: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"---\nname: {name}\ndescription: {description}\n{extra}---\n\nBody of {name}.\n"
    )
    return path


def bundle(root: Path, name: str, **kw: str) -> Path:
    return skill(root / name / "SKILL.md", name, **kw)


def flat(root: Path, name: str, **kw: str) -> Path:
    return skill(root / f"{name}.md", name, **kw)


@pytest.fixture
def deck(tmp_path: Path) -> tuple[SkilldeckConfig, Path]:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    config = SkilldeckConfig(
        dsh_home=str(tmp_path / "home" / ".dsh"),
        agents_home=str(tmp_path / "home" / ".agents"),
        custom_skill_dirs=(str(tmp_path / "custom-a"), str(tmp_path / "custom-b")),
        bundled_skill_dir=str(tmp_path / "bundled"),
    )
    return config, project


def _root(path: Path, rank: int = 300, skip: frozenset[str] = frozenset()) -> SkillRoot:
    return SkillRoot(rank, "custom", str(path), path.is_dir(), skip)


def test_every_root_and_rank(tmp_path: Path, deck: tuple[SkilldeckConfig, Path]) -> None:
    config, project = deck
    bundle(project / ".dsh" / "skills", "p-dsh")
    flat(project / ".agents" / "skills", "p-agents")
    bundle(tmp_path / "custom-a", "c-a")
    flat(tmp_path / "custom-b", "c-b")
    bundle(tmp_path / "home" / ".dsh" / "skills", "u-dsh")
    bundle(tmp_path / "home" / ".dsh" / "skills" / ".system", "system-skill")
    flat(tmp_path / "home" / ".dsh" / "skills" / ".system", "system-flat")
    bundle(tmp_path / "home" / ".agents" / "skills", "u-agents")
    bundle(tmp_path / "bundled", "b")
    scan = scan_deck(config, project / "sub" / "dir")
    assert scan.complete
    assert [(c.name, c.source, c.rank, c.provider) for c in scan.candidates()] == [
        ("p-dsh", "project-dsh", 100, "filesystem"),
        ("p-agents", "project-agents", 200, "filesystem"),
        ("c-a", "custom", 300, "filesystem"),
        ("c-b", "custom", 300, "filesystem"),
        ("u-dsh", "user-dsh", 400, "filesystem"),
        ("u-agents", "user-agents", 500, "filesystem"),
        ("b", "bundled", 600, "filesystem"),
    ]


def test_bundle_and_flat_layouts_and_resource_bases(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    path_b = bundle(root, "beta", extra="user-invocable: false\nwhenToUse: later\n")
    path_a = flat(root, "alpha", extra="disable-model-invocation: yes\nmetadata:\n  k: v\n")
    (root / "beta" / "references").mkdir()
    bundle(root / "beta" / "references", "too-deep")  # never discovered
    (root / "notes.txt").write_text("ignored")
    (root / "empty-folder").mkdir()  # a folder without SKILL.md is not a skill
    scan = scan_root(_root(root), RuleSettings())
    assert scan.complete and scan.problems == ()
    assert [(e.layout, e.path, e.folder, e.expected_name) for e in scan.entries] == [
        ("flat", str(path_a), None, "alpha"),
        ("bundle", str(path_b), str(root / "beta"), "beta"),
    ]
    deck = DeckScan(roots=(scan.root,), scans=(scan,), complete=True)
    alpha, beta = deck.candidates()
    assert alpha.resource_base == DirectoryResourceBase(str(root))
    assert alpha.invocation == InvocationPolicy(model_invocable=False, user_invocable=True)
    assert alpha.metadata == {"k": "v"}
    assert beta.resource_base == DirectoryResourceBase(str(root / "beta"))
    assert beta.invocation == InvocationPolicy(model_invocable=True, user_invocable=False)
    assert beta.when_to_use == "later"
    assert beta.path == str(path_b)


def test_shadowing_findings_on_both_sides(deck: tuple[SkilldeckConfig, Path]) -> None:
    config, project = deck
    winner = bundle(project / ".dsh" / "skills", "shared")
    loser = flat(project / ".agents" / "skills", "shared")
    scan = scan_deck(config, project)
    assert [c.path for c in scan.candidates()] == [str(winner), str(loser)]  # both exposed
    assert scan.groups()["shared"][0].path == str(winner)
    found = deck_findings(scan)
    name_span = Span(Position(1, 6), Position(1, 12))
    (shadows,) = found[str(winner)]
    assert shadows.code == "SD702"
    assert shadows.severity is Severity.INFORMATION
    assert shadows.span == name_span
    # The other file is named relative to the project, as in the editor and check.
    assert (
        shadows.message == "shadows the project-agents skill at .agents/skills/shared.md (rank 200)"
    )
    assert [(r.path, r.span) for r in shadows.related] == [(str(loser), name_span)]
    (shadowed,) = found[str(loser)]
    assert shadowed.code == "SD701"
    assert shadowed.message == (
        "shadowed by project-dsh skill at .dsh/skills/shared/SKILL.md (rank 100)"
    )
    assert [(r.path, r.span) for r in shadowed.related] == [(str(winner), name_span)]
    assert not shadowed.drops_skill


def test_duplicate_name_in_one_root(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    as_bundle = bundle(root, "foo")
    as_flat = flat(root, "foo")
    scan = scan_deck(SkilldeckConfig(include_default_roots=False), None, roots=[_root(root)])
    assert scan.groups()["foo"][0].path == str(as_bundle)  # "foo" sorts before "foo.md"
    found = deck_findings(scan)
    assert [(f.code, f.severity, f.message) for f in found[str(as_bundle)]] == [
        ("SD703", Severity.WARNING, f"another skill in this root is also named 'foo': {as_flat}")
    ]
    assert [(f.code, f.message) for f in found[str(as_flat)]] == [
        ("SD703", f"another skill in this root is also named 'foo': {as_bundle}")
    ]


def test_rule_overrides_apply_to_deck_findings(deck: tuple[SkilldeckConfig, Path]) -> None:
    config, project = deck
    winner = bundle(project / ".dsh" / "skills", "shared")
    loser = bundle(project / ".agents" / "skills", "shared")
    config = SkilldeckConfig(
        dsh_home=config.dsh_home,
        agents_home=config.agents_home,
        rule_overrides={"SD701": None, "SD702": Severity.WARNING},
    )
    found = deck_findings(scan_deck(config, project))
    assert found[str(loser)] == []
    assert [(f.code, f.severity) for f in found[str(winner)]] == [("SD702", Severity.WARNING)]


def test_invalid_files_have_findings_and_hide_no_sibling(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    good = bundle(root, "good")
    bad = root / "bad.md"
    bad.write_text("---\nname: bad\ndescription: [unclosed\n---\n")
    legacy = flat(root, "legacy", extra="userInvocable: false\n")
    scan = scan_deck(SkilldeckConfig(include_default_roots=False), None, roots=[_root(root)])
    assert [c.path for c in scan.candidates()] == [str(good)]
    found = deck_findings(scan)
    assert found[str(good)] == []
    assert found[str(bad)] and all(f.drops_skill for f in found[str(bad)][:1])
    assert [f.message for f in found[str(legacy)]] == [
        "unsupported key 'userInvocable': use 'user-invocable' (skill not loaded)"
    ]
    assert scan.complete


def test_crlf_and_bom_through_the_file_path(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    root.mkdir()
    (root / "crlf.md").write_bytes(
        b"---\r\nname: crlf\r\ndescription: CRLF skill\r\n---\r\nbody\r\n"
    )
    (root / "bom").mkdir()
    (root / "bom" / "SKILL.md").write_bytes(
        "\ufeff---\nname: bom\ndescription: BOM skill\n---\nbody\n".encode()
    )
    scan = scan_deck(SkilldeckConfig(), None, roots=[_root(root)])
    assert [(c.name, c.description) for c in scan.candidates()] == [
        ("bom", "BOM skill"),
        ("crlf", "CRLF skill"),
    ]


def test_overlay_judges_unsaved_text_and_new_files(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    on_disk = bundle(root, "edited")
    new_file = root / "brand-new" / "SKILL.md"
    outside = tmp_path / "elsewhere" / "x.md"
    overlay = {
        str(on_disk): "---\nname: edited\ndescription: From the buffer\n---\n",
        str(new_file): "---\nname: brand-new\ndescription: Not saved yet\n---\n",
        str(outside): "---\nname: x\ndescription: y\n---\n",
    }
    scan = scan_deck(SkilldeckConfig(), None, roots=[_root(root)], overlay=overlay)
    assert [(c.name, c.description, c.path) for c in scan.candidates()] == [
        ("brand-new", "Not saved yet", str(new_file)),
        ("edited", "From the buffer", str(on_disk)),
    ]


def test_classify_path(tmp_path: Path) -> None:
    project = _root(tmp_path / "p", 100)
    user = _root(tmp_path / "u", 400, frozenset({".system"}))
    roots = (project, user)
    assert classify_path(str(tmp_path / "p" / "a" / "SKILL.md"), roots) == (project, "bundle", "a")
    assert classify_path(str(tmp_path / "u" / "b.md"), roots) == (user, "flat", "b")
    assert classify_path(str(tmp_path / "u" / ".system" / "SKILL.md"), roots) is None
    assert classify_path(str(tmp_path / "u" / "a" / "notes.md"), roots) is None
    assert classify_path(str(tmp_path / "u" / "a" / "b" / "SKILL.md"), roots) is None
    assert classify_path(str(tmp_path / "u.md"), roots) is None


def test_missing_root_is_empty_and_complete(tmp_path: Path) -> None:
    scan = scan_root(_root(tmp_path / "nope"), RuleSettings())
    assert (scan.entries, scan.complete, scan.problems) == ((), True, ())


def test_example_workspace(tmp_path: Path) -> None:
    config = SkilldeckConfig(dsh_home=str(tmp_path / "h"), agents_home=str(tmp_path / "a"))
    scan = scan_deck(config, EXAMPLE)
    assert scan.complete
    groups = scan.groups()
    assert sorted(groups) == [
        "changelog-style",
        "code-review",
        "commit-message",
        "deploy-checklist",
        "release-notes",
    ]
    assert [e.root.source for e in groups["code-review"]] == ["project-dsh", "project-agents"]
    codes = {
        os.path.relpath(path, EXAMPLE): [f.code for f in findings]
        for path, findings in deck_findings(scan).items()
        if findings
    }
    assert codes == {
        ".dsh/skills/code-review/SKILL.md": ["SD702"],
        ".agents/skills/code-review/SKILL.md": ["SD701"],
        ".agents/skills/legacy-helper.md": ["SD301"],
    }


async def test_provider_list_and_get(tmp_path: Path, deck: tuple[SkilldeckConfig, Path]) -> None:
    config, project = deck
    path = bundle(project / ".dsh" / "skills", "live")
    provider = FilesystemProvider(config)
    assert provider.name == "filesystem"
    listed = await provider.list(LookupOptions(cwd=str(project)))
    assert isinstance(listed, list)
    (candidate,) = listed
    loaded = await provider.get(candidate, LookupOptions(cwd=str(project)))
    assert loaded is not None
    assert (loaded.name, loaded.content, loaded.path) == ("live", "Body of live.", str(path))
    path.write_text("---\nname: live\ndescription: New\n---\nFresh body.\n")
    reloaded = await provider.get(candidate, LookupOptions(cwd=str(project)))
    assert reloaded is not None and (reloaded.description, reloaded.content) == (
        "New",
        "Fresh body.",
    )
    path.write_text("---\nname: live\ndescription: New\nuserInvocable: false\n---\n")
    assert await provider.get(candidate, LookupOptions(cwd=str(project))) is None
    path.unlink()
    assert await provider.get(candidate, LookupOptions(cwd=str(project))) is None


async def test_provider_reports_an_unlistable_root_incomplete(tmp_path: Path) -> None:
    # A root whose parent is a file: listing fails with ENOTDIR -> missing, complete.
    # A root we may not list needs a non-root user; see test_hostile_trees for that.
    (tmp_path / "file").write_text("x")
    config = SkilldeckConfig(
        include_default_roots=False,
        custom_skill_dirs=(str(tmp_path / "file" / "skills"), str(tmp_path / "ok")),
    )
    bundle(tmp_path / "ok", "fine")
    listed = await FilesystemProvider(config).list(LookupOptions(cwd=str(tmp_path)))
    assert not isinstance(listed, ProviderObservation)
    assert [c.name for c in listed] == ["fine"]


def test_roots_resolve_like_scan(deck: tuple[SkilldeckConfig, Path]) -> None:
    config, project = deck
    assert scan_deck(config, project).roots == resolve_roots(config, project)
