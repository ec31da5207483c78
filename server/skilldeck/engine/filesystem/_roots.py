"""The filesystem skill roots for one lookup cwd, in rank order (SPEC section 3).

| rank | source         | root                                                  |
|------|----------------|-------------------------------------------------------|
| 100  | project-dsh    | ``<projectRoot>/.dsh/skills``                         |
| 200  | project-agents | ``<projectRoot>/.agents/skills``                      |
| 300  | custom         | each custom skill dir, in order                       |
| 400  | user-dsh       | ``<dsh_home>/skills`` (default ``~/.dsh``), no ``.system`` |
| 500  | user-agents    | ``<agents_home>/skills`` (default ``~/.agents``)      |
| 600  | bundled        | the bundled skill dir, only when configured           |

``include_default_roots=False`` keeps only custom and bundled roots;
``include_user_roots=False`` drops the two user roots. A path that appears twice (for
example a project whose root *is* the home folder) is scanned once, at its best rank,
skipping the union of both rows' skipped names.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from skilldeck.engine.config import SkilldeckConfig, declares_project_root
from skilldeck.engine.registry import (
    RANK_BUNDLED,
    RANK_CUSTOM,
    RANK_PROJECT_AGENTS,
    RANK_PROJECT_DSH,
    RANK_USER_AGENTS,
    RANK_USER_DSH,
    SOURCE_BUNDLED,
    SOURCE_CUSTOM,
    SOURCE_PROJECT_AGENTS,
    SOURCE_PROJECT_DSH,
    SOURCE_USER_AGENTS,
    SOURCE_USER_DSH,
)

#: Children of the user dsh root that belong to the harness, not to the user.
USER_DSH_SKIP = frozenset({".system"})


@dataclass(frozen=True)
class SkillRoot:
    """One folder scanned for ``<name>/SKILL.md`` and ``<name>.md`` skills.

    ``path`` is absolute and normalised but not symlink-resolved (findings name the path
    the user configured). ``exists`` is whether it was a directory when resolved.
    ``skip_names`` are child names never treated as skills.
    """

    rank: int
    source: str
    path: str
    exists: bool
    skip_names: frozenset[str] = frozenset()


def find_project_root(cwd: str | os.PathLike[str]) -> Path:
    """The nearest ancestor of ``cwd`` (itself included) containing ``.git``, else ``cwd``.

    ``.git`` may be a folder or a file (worktrees, submodules). Unreadable candidates
    are passed over. skilldeck extension: a ``skilldeck.toml`` saying
    ``project-root = true`` marks a project root too (for a workspace nested in another
    repository, such as ``examples/workspace``); without that line it does not.
    """
    start = Path(os.path.abspath(cwd))
    for candidate in (start, *start.parents):
        try:
            if os.path.lexists(candidate / ".git"):
                return candidate
            if declares_project_root(candidate / "skilldeck.toml"):
                return candidate
        except (OSError, ValueError):
            continue
    return start


def resolve_roots(
    config: SkilldeckConfig, cwd: str | os.PathLike[str] | None
) -> tuple[SkillRoot, ...]:
    """The roots for ``cwd`` in rank order (see the module doc for the table).

    Without a ``cwd`` there are no project roots (as in a lookup with no workspace);
    relative custom dirs then resolve against the process's working directory.
    """
    base = os.path.abspath(cwd if cwd is not None else os.getcwd())
    rows: list[tuple[int, str, str, frozenset[str]]] = []
    if config.include_default_roots and cwd is not None:
        project = find_project_root(base)
        rows.append(
            (RANK_PROJECT_DSH, SOURCE_PROJECT_DSH, str(project / ".dsh" / "skills"), frozenset())
        )
        rows.append(
            (
                RANK_PROJECT_AGENTS,
                SOURCE_PROJECT_AGENTS,
                str(project / ".agents" / "skills"),
                frozenset(),
            )
        )
    for custom in config.custom_skill_dirs:
        rows.append((RANK_CUSTOM, SOURCE_CUSTOM, _absolute(custom, base), frozenset()))
    if config.include_default_roots and config.include_user_roots:
        dsh_home = _absolute(config.dsh_home, base) if config.dsh_home else _home(".dsh")
        agents_home = (
            _absolute(config.agents_home, base) if config.agents_home else _home(".agents")
        )
        rows.append(
            (RANK_USER_DSH, SOURCE_USER_DSH, os.path.join(dsh_home, "skills"), USER_DSH_SKIP)
        )
        rows.append(
            (RANK_USER_AGENTS, SOURCE_USER_AGENTS, os.path.join(agents_home, "skills"), frozenset())
        )
    if config.bundled_skill_dir:
        rows.append(
            (RANK_BUNDLED, SOURCE_BUNDLED, _absolute(config.bundled_skill_dir, base), frozenset())
        )

    roots: list[SkillRoot] = []
    index: dict[str, int] = {}
    for rank, source, path, skip in rows:
        seen = index.get(path)
        if seen is not None:
            first = roots[seen]
            roots[seen] = replace(first, skip_names=first.skip_names | skip)
            continue
        index[path] = len(roots)
        roots.append(SkillRoot(rank, source, path, os.path.isdir(path), skip))
    return tuple(roots)


def _absolute(path: str, base: str) -> str:
    return os.path.normpath(os.path.join(base, os.path.expanduser(path)))


def _home(name: str) -> str:
    return os.path.join(os.path.expanduser("~"), name)
