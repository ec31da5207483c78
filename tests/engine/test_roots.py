from __future__ import annotations

from pathlib import Path

from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.filesystem._roots import find_project_root, resolve_roots


def _config(tmp_path: Path, **kw: object) -> SkilldeckConfig:
    base: dict[str, object] = {
        "dsh_home": str(tmp_path / "home" / ".dsh"),
        "agents_home": str(tmp_path / "home" / ".agents"),
    }
    base.update(kw)
    return SkilldeckConfig(**base)  # type: ignore[arg-type]


def test_project_root_is_nearest_git_dir_or_file(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    inner = outer / "sub" / "inner"
    deep = inner / "a" / "b"
    deep.mkdir(parents=True)
    (outer / ".git").mkdir()
    assert find_project_root(deep) == outer
    (inner / ".git").write_text("gitdir: ../elsewhere\n")  # a worktree's .git file
    assert find_project_root(deep) == inner
    assert find_project_root(inner) == inner


def test_project_root_falls_back_to_cwd(tmp_path: Path) -> None:
    cwd = tmp_path / "no" / "repo"
    cwd.mkdir(parents=True)
    # tmp_path has no .git above it on this machine's /tmp
    assert find_project_root(cwd) == cwd


def test_every_root_in_rank_order(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / ".dsh" / "skills").mkdir(parents=True)
    config = _config(
        tmp_path,
        custom_skill_dirs=(str(tmp_path / "c1"), "relative/c2"),
        bundled_skill_dir=str(tmp_path / "bundled"),
    )
    roots = resolve_roots(config, project / "src")
    assert [(r.rank, r.source, r.path, r.exists) for r in roots] == [
        (100, "project-dsh", str(project / ".dsh" / "skills"), True),
        (200, "project-agents", str(project / ".agents" / "skills"), False),
        (300, "custom", str(tmp_path / "c1"), False),
        (300, "custom", str(project / "src" / "relative" / "c2"), False),
        (400, "user-dsh", str(tmp_path / "home" / ".dsh" / "skills"), False),
        (500, "user-agents", str(tmp_path / "home" / ".agents" / "skills"), False),
        (600, "bundled", str(tmp_path / "bundled"), False),
    ]
    assert [sorted(r.skip_names) for r in roots] == [[], [], [], [], [".system"], [], []]


def test_bundled_root_only_when_configured(tmp_path: Path) -> None:
    sources = [r.source for r in resolve_roots(_config(tmp_path), tmp_path)]
    assert sources == ["project-dsh", "project-agents", "user-dsh", "user-agents"]


def test_without_default_roots_only_custom_and_bundled(tmp_path: Path) -> None:
    config = _config(
        tmp_path,
        include_default_roots=False,
        custom_skill_dirs=(str(tmp_path / "c"),),
        bundled_skill_dir=str(tmp_path / "b"),
    )
    assert [r.source for r in resolve_roots(config, tmp_path)] == ["custom", "bundled"]


def test_without_user_roots(tmp_path: Path) -> None:
    config = _config(tmp_path, include_user_roots=False, custom_skill_dirs=(str(tmp_path),))
    sources = [r.source for r in resolve_roots(config, tmp_path)]
    assert sources == ["project-dsh", "project-agents", "custom"]


def test_no_cwd_means_no_project_roots(tmp_path: Path) -> None:
    sources = [r.source for r in resolve_roots(_config(tmp_path), None)]
    assert sources == ["user-dsh", "user-agents"]


def test_a_path_listed_twice_is_scanned_once_at_its_best_rank(tmp_path: Path) -> None:
    # A project whose root is the dsh home's parent: project-dsh == user-dsh.
    home = tmp_path / "home"
    (home / ".git").mkdir(parents=True)
    config = _config(tmp_path)
    roots = resolve_roots(config, home)
    assert [(r.rank, r.source) for r in roots] == [(100, "project-dsh"), (200, "project-agents")]
    assert roots[0].skip_names == frozenset({".system"})


def test_skilldeck_toml_with_project_root_marks_a_project(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    nested = tmp_path / "examples" / "ws"
    (nested / "src").mkdir(parents=True)
    (nested / "skilldeck.toml").write_text("catalog-description-max-length = 99\n")
    assert find_project_root(nested / "src") == tmp_path  # a plain config is no marker
    (nested / "skilldeck.toml").write_text("project-root = true\n")
    assert find_project_root(nested / "src") == nested


def test_example_workspace_is_its_own_project() -> None:
    workspace = Path(__file__).resolve().parents[2] / "examples" / "workspace"
    assert find_project_root(workspace / ".dsh" / "skills") == workspace
