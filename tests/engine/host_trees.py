"""Fixture trees for the hosts differential: each builds a project (a git repository), a
home folder and the working directory an agent starts in, on real files.

The same trees were given to Gemini CLI's and Kimi Code's own discovery code (their
TypeScript modules run under Node 20, outside this repository); what each host loaded is
``hosts_observed.json`` beside this file, and ``test_hosts_differential.py`` holds
``engine/hosts/_table.py`` to it. Run ``python tests/engine/host_trees.py DIR`` to build every
tree under ``DIR`` (one folder per tree; ``DIR/<tree>/cwd`` names the start folder).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path


def skill(path: Path, name: str | None, description: str | None = "Does a thing.") -> None:
    """A skill file with the keys given (``None``: the key is left out)."""
    lines = ["---"]
    if name is not None:
        lines.append(f"name: {name}")
    if description is not None:
        lines.append(f"description: {description}")
    lines += ["---", "", f"Body of {name or path.parent.name}.", ""]
    write(path, "\n".join(lines))


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def link(target: Path, at: Path) -> None:
    at.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(os.path.abspath(target), at)


def _nesting(repo: Path, home: Path) -> str:
    root = repo / ".agents/skills"
    for level in range(1, 11):
        folders = [f"g{i}" for i in range(1, level)] + [f"nest-{level}"]
        skill(root.joinpath(*folders, "SKILL.md"), f"nest-{level}")
    return "repo"


def _symlinks(repo: Path, home: Path) -> str:
    root = repo / ".agents/skills"
    outside = repo.parent / "outside"
    skill(root / "real-one/SKILL.md", "real-one")
    link(root / "real-one", root / "alias-one")
    skill(outside / "ext/SKILL.md", "ext")
    link(outside / "ext", root / "ext")
    skill(outside / "file-skill.md", "file-linked")
    link(outside / "file-skill.md", root / "file-linked/SKILL.md")
    skill(outside / "deep-ext/SKILL.md", "deep-ext")
    link(outside / "deep-ext", root / "group/deep-ext")
    link(outside, root / "whole-outside")
    return "repo"


def _hidden(repo: Path, home: Path) -> str:
    root = repo / ".agents/skills"
    skill(root / ".hidden-top/SKILL.md", "hidden-top")
    skill(root / ".grp/inner/SKILL.md", "hidden-above")
    skill(root / "grp/.inner/SKILL.md", "hidden-own")
    skill(root / "node_modules/pkg/SKILL.md", "in-node-modules")
    return "repo"


def _flat(repo: Path, home: Path) -> str:
    root = repo / ".agents/skills"
    skill(root / "deploy.md", "deploy", "The flat file.")
    skill(root / "deploy/SKILL.md", "deploy", "The folder.")
    write(root / "solo.md", "Solo does things.\n\nMore.\n")
    skill(root / "partial.md", None, "Only a description.")
    skill(root / "group/deep-flat.md", "deep-flat")
    return "repo"


def _duplicates(repo: Path, home: Path) -> str:
    skill(repo / ".agents/skills/dup/SKILL.md", "dup", "Project agents.")
    skill(repo / ".gemini/skills/dup/SKILL.md", "dup", "Project gemini.")
    skill(repo / ".kimi-code/skills/dup/SKILL.md", "dup", "Project kimi-code.")
    skill(home / ".agents/skills/dup/SKILL.md", "dup", "User agents.")
    skill(home / ".gemini/skills/dup/SKILL.md", "dup", "User gemini.")
    skill(home / ".kimi-code/skills/dup/SKILL.md", "dup", "User kimi-code.")
    skill(home / ".agents/skills/user-only/SKILL.md", "user-only")
    skill(repo / ".agents/skills/Case-X/SKILL.md", "Case-X")
    skill(repo / ".agents/skills/case-x/SKILL.md", "case-x")
    skill(repo / ".agents/skills/top-and-deep/SKILL.md", "top-and-deep", "Top.")
    skill(repo / ".agents/skills/a-group/top-and-deep/SKILL.md", "top-and-deep", "Deep.")
    return "repo"


def _names(repo: Path, home: Path) -> str:
    root = repo / ".agents/skills"
    skill(root / "folder-name/SKILL.md", "other-name")
    skill(root / "no-name/SKILL.md", None)
    skill(root / "no-description/SKILL.md", "no-description", None)
    skill(root / "empty-description/SKILL.md", "empty-description", '""')
    skill(root / "Upper_Case/SKILL.md", "Upper_Case")
    write(root / "no-frontmatter/SKILL.md", "Just a body.\n")
    return "repo"


def _yaml(repo: Path, home: Path) -> str:
    root = repo / ".agents/skills"
    write(
        root / "colon-value/SKILL.md",
        "---\nname: colon-value\ndescription: Use when: deploying\n---\n\nBody.\n",
    )
    write(
        root / "bool-name/SKILL.md",
        "---\nname: true\ndescription: A boolean name.\n---\n\nBody.\n",
    )
    write(
        root / "folded/SKILL.md",
        "---\nname: folded\ndescription: >\n  Folded text\n  on two lines.\n---\n\nBody.\n",
    )
    write(
        root / "duplicate-key/SKILL.md",
        "---\nname: duplicate-key\ndescription: First.\ndescription: Second.\n---\n\nBody.\n",
    )
    write(
        root / "unclosed/SKILL.md",
        "---\nname: unclosed\ndescription: [not closed\n---\n\nBody.\n",
    )
    return "repo"


def _below_git_root(repo: Path, home: Path) -> str:
    skill(repo / ".agents/skills/top/SKILL.md", "top")
    skill(repo / ".gemini/skills/top-gemini/SKILL.md", "top-gemini")
    skill(repo / "sub/.agents/skills/low/SKILL.md", "low")
    skill(repo / "sub/.gemini/skills/low-gemini/SKILL.md", "low-gemini")
    skill(repo / "sub/.kimi-code/skills/low-kimi/SKILL.md", "low-kimi")
    (repo / "sub/deeper").mkdir(parents=True)
    return "repo/sub/deeper"


def _inside_skill(repo: Path, home: Path) -> str:
    root = repo / ".agents/skills"
    skill(root / "parent/SKILL.md", "parent")
    skill(root / "parent/child/SKILL.md", "child")
    skill(root / "plain/inner/SKILL.md", "inner")
    return "repo"


def _brand(repo: Path, home: Path) -> str:
    skill(repo / ".kimi-code/skills/k/SKILL.md", "k", "Brand folder.")
    skill(repo / ".agents/skills/k/SKILL.md", "k", "Generic folder.")
    skill(repo / ".kimi-code/skills/only-brand.md", "only-brand")
    return "repo"


#: name -> builder(repo, home) returning the start folder relative to the tree.
TREES: dict[str, Callable[[Path, Path], str]] = {
    "nesting": _nesting,
    "symlinks": _symlinks,
    "hidden": _hidden,
    "flat": _flat,
    "duplicates": _duplicates,
    "names": _names,
    "yaml": _yaml,
    "below-git-root": _below_git_root,
    "inside-skill": _inside_skill,
    "brand": _brand,
}


def build(base: Path, name: str) -> Path:
    """Build tree ``name`` under ``base/name`` (``repo/`` with ``.git``, ``home/``);
    returns its start folder."""
    tree = base.resolve() / name
    repo = tree / "repo"
    home = tree / "home"
    (repo / ".git").mkdir(parents=True)
    home.mkdir()
    cwd = tree / TREES[name](repo, home)
    (tree / "cwd").write_text(str(cwd), encoding="utf-8")
    return cwd


if __name__ == "__main__":
    target = Path(sys.argv[1])
    for tree_name in TREES:
        build(target, tree_name)
