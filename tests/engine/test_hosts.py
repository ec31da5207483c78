"""Hosts: one fixture deck, each host's expected load table and budget outcome.

Every expectation names the row of ``docs/hosts.md`` it comes from (``# hosts.md: host,
row``); that row names the host's document. The deck is real files in ``tmp_path`` with a
fake home.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.host_views._view import HostsView, build_view, host_listing
from skilldeck.engine.hosts._budget import (
    BudgetReport,
    CatalogState,
    Offer,
    budget_from_lengths,
    listed_chars,
)
from skilldeck.engine.hosts._table import HOSTS, Host, get_host, parse_hosts
from skilldeck.engine.text._catalog_text import collapse_whitespace

DOCS = Path(__file__).resolve().parents[2] / "docs" / "hosts.md"


def _skill(path: Path, name: str, description: str = "Does a thing.", extra: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"---\nname: {name}\ndescription: {description}\n{extra}---\n\nBody.\n", encoding="utf-8"
    )


@pytest.fixture
def deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    project = tmp_path / "project"
    home = tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    _skill(project / ".claude/skills/pdf-forms/SKILL.md", "pdf-forms", "Fill PDF forms.")
    _skill(project / ".claude/skills/tools/deep/SKILL.md", "deep")
    _skill(project / ".agents/skills/release-notes/SKILL.md", "release-notes")
    _skill(project / ".agents/skills/quick.md", "quick")
    _skill(project / ".agents/skills/renamed/SKILL.md", "other-name")
    _skill(
        project / ".agents/skills/hidden/SKILL.md",
        "hidden",
        extra="disable-model-invocation: true\n",
    )
    _skill(tmp_path / "shared/linked/SKILL.md", "linked")
    os.symlink(tmp_path / "shared/linked", project / ".agents/skills/linked")
    _skill(project / ".github/skills/gh-only/SKILL.md", "gh-only")
    _skill(project / ".opencode/skills/oc-only/SKILL.md", "oc-only")
    _skill(project / ".gemini/skills/release-notes/SKILL.md", "release-notes")
    _skill(project / ".kimi/skills/kimi-only/SKILL.md", "kimi-only")
    _skill(home / ".claude/skills/pdf-forms/SKILL.md", "pdf-forms", "Personal copy.")
    return project, home


def _view(project: Path, home: Path, host: str) -> HostsView:
    config = SkilldeckConfig(dsh_home=str(home / ".dsh"), agents_home=str(home / ".agents"))
    return build_view([get_host(host)], config, str(project))


def _table(view: HostsView, host: str, base: Path) -> dict[str, tuple[bool, str | None]]:
    """path relative to the tmp dir -> (loads, catalog state or reason)."""
    return {
        os.path.relpath(load.path, base): (
            load.loads,
            load.catalog if load.loads else load.reason,
        )
        for load in view.loads_of(host)
    }


def test_dsh_is_the_engine_exactly(deck: tuple[Path, Path]) -> None:
    project, home = deck
    table = _table(_view(project, home, "dsh"), "dsh", project.parent)
    # hosts.md: dsh, roots / flat files / symlinks / disable-model-invocation
    assert table == {
        "project/.agents/skills/hidden/SKILL.md": (True, "left-out"),
        "project/.agents/skills/linked/SKILL.md": (True, "full"),
        "project/.agents/skills/renamed/SKILL.md": (True, "full"),
        "project/.agents/skills/quick.md": (True, "full"),
        "project/.agents/skills/release-notes/SKILL.md": (True, "full"),
    }


def test_claude_code(deck: tuple[Path, Path]) -> None:
    project, home = deck
    table = _table(_view(project, home, "claude-code"), "claude-code", project.parent)
    assert table == {
        # hosts.md: claude-code, precedence (enterprise > personal > project)
        "home/.claude/skills/pdf-forms/SKILL.md": (True, "full"),
        "project/.claude/skills/pdf-forms/SKILL.md": (
            False,
            f"shadowed by {home}/.claude/skills/pdf-forms/SKILL.md",
        ),
        # hosts.md: claude-code, "SKILL.md deeper inside a root"
        "project/.claude/skills/tools/deep/SKILL.md": (
            False,
            "nested two levels below .claude/skills; Claude Code reads "
            ".claude/skills/<name>/SKILL.md only",
        ),
    }


def test_codex(deck: tuple[Path, Path]) -> None:
    project, home = deck
    table = _table(_view(project, home, "codex"), "codex", project.parent)
    assert table == {
        # hosts.md: codex, disable-model-invocation is not a Codex key
        "project/.agents/skills/hidden/SKILL.md": (True, "full"),
        # hosts.md: codex, symlinks followed
        "project/.agents/skills/linked/SKILL.md": (True, "full"),
        # hosts.md: codex, flat files
        "project/.agents/skills/quick.md": (
            False,
            "flat file: Codex reads bundles only (.agents/skills/<name>/SKILL.md)",
        ),
        "project/.agents/skills/release-notes/SKILL.md": (True, "full"),
        # hosts.md: codex, name: no folder rule documented
        "project/.agents/skills/renamed/SKILL.md": (True, "full"),
    }


def test_copilot(deck: tuple[Path, Path]) -> None:
    project, home = deck
    table = _table(_view(project, home, "copilot"), "copilot", project.parent)
    assert table == {
        # hosts.md: copilot, roots (.github/skills, .claude/skills, .agents/skills; no
        # ~/.claude/skills since 1.0.36)
        "project/.github/skills/gh-only/SKILL.md": (True, "full"),
        "project/.claude/skills/pdf-forms/SKILL.md": (True, "full"),
        # hosts.md: copilot, nesting (recursive since 1.0.55)
        "project/.claude/skills/tools/deep/SKILL.md": (True, "full"),
        # hosts.md: copilot, disable-model-invocation honoured
        "project/.agents/skills/hidden/SKILL.md": (True, "left-out"),
        # hosts.md: copilot, symlinks (followed, 1.0.62)
        "project/.agents/skills/linked/SKILL.md": (True, "full"),
        "project/.agents/skills/quick.md": (
            False,
            "flat file: GitHub Copilot reads bundles only (.agents/skills/<name>/SKILL.md)",
        ),
        "project/.agents/skills/release-notes/SKILL.md": (True, "full"),
        "project/.agents/skills/renamed/SKILL.md": (True, "full"),
    }


def test_copilot_no_longer_reads_the_personal_claude_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    (tmp_path / ".git").mkdir()
    _skill(home / ".claude/skills/personal/SKILL.md", "personal")
    _skill(home / ".copilot/skills/mine/SKILL.md", "mine")
    config = SkilldeckConfig(dsh_home=str(home / ".dsh"), agents_home=str(home / ".agents"))
    view = build_view([get_host("copilot")], config, str(tmp_path))
    # hosts.md: copilot, roots (changelog 1.0.36: ~/.claude/ no longer loaded)
    assert {os.path.relpath(v.path, home) for v in view.loads_of("copilot")} == {
        ".copilot/skills/mine/SKILL.md"
    }


def test_opencode(deck: tuple[Path, Path]) -> None:
    project, home = deck
    table = _table(_view(project, home, "opencode"), "opencode", project.parent)
    assert table["project/.opencode/skills/oc-only/SKILL.md"] == (True, "full")
    # hosts.md: opencode, name (only checked to be text: no folder rule in the code)
    assert table["project/.agents/skills/renamed/SKILL.md"] == (True, "full")
    # hosts.md: opencode, disable-model-invocation is not an OpenCode key
    assert table["project/.agents/skills/hidden/SKILL.md"] == (True, "full")
    # hosts.md: opencode, nesting and symlinks (skills/**/SKILL.md, symlink: true)
    assert table["project/.agents/skills/linked/SKILL.md"] == (True, "full")
    assert table["project/.claude/skills/tools/deep/SKILL.md"] == (True, "full")
    # hosts.md: opencode, precedence (the project's folders are read last and win)
    assert table["project/.claude/skills/pdf-forms/SKILL.md"] == (True, "full")
    assert table["home/.claude/skills/pdf-forms/SKILL.md"] == (
        False,
        f"shadowed by {project}/.claude/skills/pdf-forms/SKILL.md",
    )


def test_gemini_cli(deck: tuple[Path, Path]) -> None:
    project, home = deck
    table = _table(_view(project, home, "gemini-cli"), "gemini-cli", project.parent)
    # hosts.md: gemini-cli, precedence (.agents/skills is read after .gemini/skills: it wins)
    assert table["project/.agents/skills/release-notes/SKILL.md"] == (True, "full")
    assert table["project/.gemini/skills/release-notes/SKILL.md"] == (
        False,
        f"shadowed by {project}/.agents/skills/release-notes/SKILL.md",
    )
    # hosts.md: gemini-cli, symlinks (followed)
    assert table["project/.agents/skills/linked/SKILL.md"] == (True, "full")
    # hosts.md: gemini-cli, roots (no .claude/skills)
    assert not any(".claude" in path for path in table)


def test_kimi_code(deck: tuple[Path, Path]) -> None:
    project, home = deck
    table = _table(_view(project, home, "kimi-code"), "kimi-code", project.parent)
    assert table == {
        # hosts.md: kimi-code, disableModelInvocation honoured
        "project/.agents/skills/hidden/SKILL.md": (True, "left-out"),
        # hosts.md: kimi-code, symlinks (followed)
        "project/.agents/skills/linked/SKILL.md": (True, "full"),
        # hosts.md: kimi-code, flat files read
        "project/.agents/skills/quick.md": (True, "full"),
        "project/.agents/skills/release-notes/SKILL.md": (True, "full"),
        "project/.agents/skills/renamed/SKILL.md": (True, "full"),
        # hosts.md: kimi-code, roots: .kimi/skills, .claude/skills and ~/.claude/skills
        # are kimi-cli's, not Kimi Code's (absent from the table)
    }


def test_kimi_code_reads_the_folder_and_skips_the_flat_file_of_the_same_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / ".git").mkdir()
    root = tmp_path / ".agents/skills"
    _skill(root / "deploy.md", "deploy", "The flat file.")
    _skill(root / "deploy/SKILL.md", "deploy", "The folder.")
    view = build_view(
        [get_host("kimi-code")], SkilldeckConfig(include_user_roots=False), str(tmp_path)
    )
    # hosts.md: kimi-code, flat files (a skill folder of the same name wins);
    # fileSkillDiscovery.ts skips <name>.md when <name>/SKILL.md exists
    loads = {os.path.relpath(v.path, tmp_path): v.loads for v in view.loads_of("kimi-code")}
    assert loads == {".agents/skills/deploy/SKILL.md": True, ".agents/skills/deploy.md": False}
    listing = host_listing(view, get_host("kimi-code"))
    assert [(line.name, line.text) for line in listing] == [("deploy", "The folder.")]


def test_codex_lists_same_named_skills_from_the_project_and_the_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    _skill(project / ".agents/skills/deploy/SKILL.md", "deploy", "Project copy.")
    _skill(home / ".agents/skills/deploy/SKILL.md", "deploy", "Personal copy.")
    config = SkilldeckConfig(dsh_home=str(home / ".dsh"), agents_home=str(home / ".agents"))
    view = build_view([get_host("codex")], config, str(project))
    # hosts.md: codex, precedence between same-named skills (all kept: loader.rs,
    # keeps_duplicate_names_from_repo_and_user)
    project_file = str(project / ".agents/skills/deploy/SKILL.md")
    home_file = str(home / ".agents/skills/deploy/SKILL.md")
    loads = {v.path: (v.loads, v.same_name) for v in view.loads_of("codex")}
    assert loads == {project_file: (True, (home_file,)), home_file: (True, (project_file,))}
    assert [e.name for e in view.catalogs["codex"].entries] == ["deploy", "deploy"]


def test_codex_searches_six_folders_deep_and_skips_hidden_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / ".git").mkdir()
    root = tmp_path / ".agents/skills"
    _skill(root / "a/b/c/d/e/six/SKILL.md", "six")
    _skill(root / "a/b/c/d/e/f/seven/SKILL.md", "seven")
    _skill(root / ".hidden/inner/SKILL.md", "inner")
    view = build_view([get_host("codex")], SkilldeckConfig(include_user_roots=False), str(tmp_path))
    # hosts.md: codex, SKILL.md deeper inside a root (MAX_SCAN_DEPTH = 6), hidden folders
    reasons = {v.name: v.reason for v in view.loads_of("codex")}
    assert reasons == {
        "six": None,
        "seven": "nested seven levels below .agents/skills; Codex looks at most 6 folders deep",
        "inner": "in a hidden folder: Codex skips folders whose name starts with '.'",
    }


def test_kimi_code_does_not_search_inside_a_skill_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / ".git").mkdir()
    root = tmp_path / ".agents/skills"
    _skill(root / "parent/SKILL.md", "parent")
    _skill(root / "parent/child/SKILL.md", "child")
    _skill(root / "group/grouped/SKILL.md", "grouped")
    hosts = [get_host("kimi-code"), get_host("codex")]
    view = build_view(hosts, SkilldeckConfig(include_user_roots=False), str(tmp_path))
    # hosts.md: kimi-code, nesting (a skill's own folder is not searched)
    kimi = {v.name: v.reason for v in view.loads_of("kimi-code")}
    assert kimi == {
        "parent": None,
        "grouped": None,
        "child": "inside the skill folder .agents/skills/parent: Kimi Code does not search "
        "a skill's own folder",
    }
    # hosts.md: codex, nesting (every folder is searched)
    assert all(v.loads for v in view.loads_of("codex"))


def test_agentskills(deck: tuple[Path, Path]) -> None:
    project, home = deck
    table = _table(_view(project, home, "agentskills"), "agentskills", project.parent)
    # hosts.md: agentskills, name equal to the folder; flat files not loaded
    assert table["project/.agents/skills/renamed/SKILL.md"][0] is False
    assert table["project/.agents/skills/quick.md"][0] is False
    assert table["project/.agents/skills/release-notes/SKILL.md"] == (True, "full")


def test_a_name_longer_than_the_host_allows_is_not_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / ".git").mkdir()
    long = "a" * 65
    _skill(tmp_path / f".agents/skills/{long}/SKILL.md", long)
    _skill(tmp_path / ".agents/skills/wordy/SKILL.md", "wordy", "w" * 1025)
    view = build_view([get_host("codex")], SkilldeckConfig(include_user_roots=False), str(tmp_path))
    reasons = {os.path.basename(os.path.dirname(v.path)): v.reason for v in view.loads_of("codex")}
    # hosts.md: codex, name, description (64 / 1024)
    assert reasons == {
        long: "name is 65 characters; Codex allows 64",
        "wordy": "description is 1025 characters; Codex allows 1024",
    }


# --- budgets ---------------------------------------------------------------------------


def host_budget(
    host: Host,
    entries: list[tuple[str, str]],
    *,
    context_tokens: int | None = None,
    entry_cap: int | None = None,
) -> tuple[BudgetReport, dict[str, CatalogState]]:
    """The catalog ``host`` builds from ``entries`` (name, text): each name's text
    measured whitespace-collapsed, as the listings show it."""
    offers = [
        Offer(name, name, len(collapse_whitespace(text))) for name, text in dict(entries).items()
    ]
    return budget_from_lengths(host, offers, context_tokens=context_tokens, entry_cap=entry_cap)


def test_claude_code_cuts_an_entry_at_1536_characters() -> None:
    # hosts.md: claude-code, catalog entry (cut at 1,536) and total budget (1 %)
    report, _ = host_budget(HOSTS["claude-code"], [("alpha", "x" * 2000), ("beta", "y" * 10)])
    assert report.budget_chars == 8000  # 1 % of 200,000 tokens, 4 characters a token
    assert [(e.name, e.state, e.shown_chars) for e in report.entries] == [
        ("alpha", "cut", 1536),
        ("beta", "full", 10),
    ]
    assert report.total_chars == 5 + 1536 + 4 + 10
    assert report.token_estimate == 389


def test_claude_code_past_its_budget_shows_the_last_by_name_only() -> None:
    # hosts.md: claude-code, past the budget (name only)
    report, _ = host_budget(
        HOSTS["claude-code"],
        [("a", "x" * 900), ("b", "x" * 900), ("c", "x" * 900)],
        context_tokens=50_000,
    )
    assert report.budget_chars == 2000
    assert [e.state for e in report.entries] == ["full", "full", "name-only"]
    assert report.total_chars == 1 + 900 + 1 + 900 + 1


def test_codex_shortens_descriptions_then_leaves_skills_out() -> None:
    # hosts.md: codex, total budget (8,000 characters when the window is unknown) and
    # catalog entry (each line "- name: description (file: path)" counts, render.rs)
    entries = [(f"skill-{i:02d}", "d" * 1000) for i in range(10)]
    report, _ = host_budget(HOSTS["codex"], entries)  # the path stands as the name here
    assert report.context_tokens is None and report.budget_chars == 8000
    bare = len("- skill-00: (file: skill-00)\n")
    # past the budget: the room beyond the bare lines is shared a character at a time
    share = (8000 - 10 * bare - 20) // 10 + 1
    assert {(e.state, e.shown_chars) for e in report.entries} == {("cut", share)}
    assert report.total_chars == 10 * bare + 10 * (share + 1) == 8000
    # hosts.md: codex, past the budget (short texts stay whole, long ones share the rest)
    mixed, _ = host_budget(
        HOSTS["codex"], [("a", "x" * 10), ("b", "y" * 5000)], context_tokens=10_000
    )
    assert mixed.budget_chars == 800
    assert [(e.state, e.shown_chars) for e in mixed.entries] == [
        ("full", 10),
        ("cut", 800 - 2 * len("- a: (file: a)\n") - 11 - 1),
    ]
    # hosts.md: codex, past the budget (the bare lines do not fit: the rest left out)
    tight, _ = host_budget(HOSTS["codex"], [("alpha", "a"), ("beta", "b")], context_tokens=400)
    assert tight.budget_chars == 32
    assert [(e.name, e.state) for e in tight.entries] == [
        ("alpha", "name-only"),
        ("beta", "left-out"),
    ]


def test_hosts_without_a_documented_budget_keep_every_entry() -> None:
    # hosts.md: copilot / opencode / gemini-cli / kimi-code / agentskills: no budget
    for name in ("copilot", "opencode", "gemini-cli", "kimi-code", "agentskills"):
        report, _ = host_budget(HOSTS[name], [("a", "x" * 5000)])
        assert report.budget_chars is None
        assert [(e.state, e.shown_chars) for e in report.entries] == [("full", 5000)]


def test_dsh_cuts_at_the_configured_catalog_length() -> None:
    # hosts.md: dsh, catalog entry (catalog-description-max-length)
    report, _ = host_budget(HOSTS["dsh"], [("a", "x" * 600)], entry_cap=500)
    assert [(e.state, e.shown_chars) for e in report.entries] == [("cut", 500)]
    assert report.budget_chars is None


# --- the data and its documentation ----------------------------------------------------


def test_every_host_has_its_section_in_the_docs() -> None:
    text = DOCS.read_text(encoding="utf-8")
    sections = re.findall(r"^## (\S+) — ", text, flags=re.MULTILINE)
    assert sections == list(HOSTS)
    for host in HOSTS.values():
        body = text.split(f"## {host.name} — ", 1)[1].split("\n## ", 1)[0]
        assert f"| dialect (`--profile`) | `{host.dialect}`:" in body, host.name
        # every host names the version it models
        assert f'| version | "{host.version}"' in body, host.name
        if not host.engine_roots:
            assert host.docs in body, host.name
            for root in host.roots:
                assert host.root_display(root) in body, (host.name, root.path)
        numbers = [host.name_max, host.description_max, host.catalog.entry_cap]
        for number in (n for n in numbers if n is not None):
            assert f"{number:,}" in body or str(number) in body, (host.name, number)
        if host.catalog.budget_fraction is not None:
            assert f"{host.catalog.budget_fraction * 100:g} %" in body, host.name


def test_unknown_hosts_are_refused_with_the_valid_names() -> None:
    with pytest.raises(ValueError, match="unknown host 'cursor'; choose one of: dsh, "):
        parse_hosts("cursor")
    assert [h.name for h in parse_hosts("codex, dsh,codex")] == ["codex", "dsh"]
    assert [h.name for h in parse_hosts("all")] == list(HOSTS)


# --- properties of every budget ----------------------------------------------------------

_NAMES = st.text(alphabet="abcdefghij-", min_size=1, max_size=12)
_ENTRIES = st.lists(st.tuples(_NAMES, st.text(max_size=3000)), max_size=25)


@settings(max_examples=150, deadline=None)
@given(
    host=st.sampled_from(sorted(HOSTS)),
    entries=_ENTRIES,
    context=st.one_of(st.none(), st.integers(min_value=1, max_value=400_000)),
)
def test_a_budget_keeps_one_entry_per_name_and_never_shows_more_than_the_text(
    host: str, entries: list[tuple[str, str]], context: int | None
) -> None:
    report, states = host_budget(HOSTS[host], entries, context_tokens=context, entry_cap=500)
    texts = dict(entries)
    assert [e.name for e in report.entries] == sorted(texts)
    assert states == {e.name: e.state for e in report.entries}
    for entry in report.entries:
        full = len(collapse_whitespace(texts[entry.name]))  # the catalog's whitespace
        assert entry.shown_chars <= max(full, 3)
        if entry.state == "full":
            assert entry.shown_chars == full
        if entry.state == "cut":
            assert entry.shown_chars < full
        if entry.state in ("name-only", "left-out"):
            assert entry.shown_chars == 0
    shown = [e for e in report.entries if e.state != "left-out"]
    rules = HOSTS[host].catalog
    assert report.total_chars == sum(listed_chars(rules, e, e.shown_chars) for e in shown)
    assert report.token_estimate == -(-report.total_chars // 4)
    if report.budget_chars is not None:
        names = sum(listed_chars(rules, e, 0) for e in report.entries)
        if HOSTS[host].catalog.overflow == "shorten-then-omit" or names <= report.budget_chars:
            # Codex keeps within its budget; Claude Code does whenever the names fit.
            assert report.total_chars <= report.budget_chars


def test_kimi_code_compares_names_without_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / ".git").mkdir()
    _skill(tmp_path / ".agents/skills/deploy/SKILL.md", "deploy")
    _skill(tmp_path / ".agents/skills/Deploy/SKILL.md", "Deploy")
    config = SkilldeckConfig(include_user_roots=False)
    view = build_view([get_host("kimi-code"), get_host("codex")], config, str(tmp_path))
    # hosts.md: kimi-code, name, description ("names are case-insensitive")
    kimi = {os.path.relpath(v.path, tmp_path): v.reason for v in view.loads_of("kimi-code")}
    assert kimi == {
        ".agents/skills/Deploy/SKILL.md": None,
        ".agents/skills/deploy/SKILL.md": f"shadowed by {tmp_path}/.agents/skills/Deploy/SKILL.md",
    }
    assert all(v.loads for v in view.loads_of("codex"))


def test_claude_code_counts_when_to_use_and_ignores_dsh_spelling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / ".git").mkdir()
    root = tmp_path / ".claude/skills"
    _skill(root / "snake/SKILL.md", "snake", "d" * 1000, extra=f"when_to_use: {'w' * 1000}\n")
    _skill(root / "camel/SKILL.md", "camel", "d" * 1000, extra=f"whenToUse: {'w' * 1000}\n")
    view = build_view([get_host("claude-code")], SkilldeckConfig(), str(tmp_path))
    # hosts.md: claude-code, catalog entry (description + when_to_use, cut at 1,536)
    entries = {e.name: (e.state, e.shown_chars) for e in view.catalogs["claude-code"].entries}
    assert entries == {"snake": ("cut", 1536), "camel": ("full", 1000)}
