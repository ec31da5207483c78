"""How findings name another skill's file: relative to the project, ``~/`` in the home.

SD701/SD702/SD703 name the file on the other side of a collision. Every front end (check,
the editor, MCP) shows the message the engine made, so the engine shortens the path once:
inside the project it reads relative to the project (``.dsh/skills/x/SKILL.md``), inside
the home folder as ``~/.dsh/skills/x/SKILL.md``, elsewhere absolute. Separators are ``/``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from skilldeck.engine.filesystem import SkillRoot
from skilldeck.engine.registry import SOURCE_PROJECT_DSH


def project_of(roots: Iterable[SkillRoot]) -> str | None:
    """The project folder of a deck's roots (the one holding its project ``.dsh/skills``
    root), or ``None`` for a deck without project roots."""
    for root in roots:
        if root.source == SOURCE_PROJECT_DSH:
            return os.path.dirname(os.path.dirname(root.path))
    return None


def shown_path(path: str, project: str | None) -> str:
    """``path`` as a finding's message names it (see the module doc)."""
    absolute = os.path.abspath(path)
    for base, prefix in ((project, ""), (os.path.expanduser("~"), "~/")):
        if not base:
            continue
        inner = _inside(absolute, os.path.abspath(base))
        if inner is not None:
            return prefix + inner
    return absolute.replace(os.sep, "/")


def _inside(path: str, base: str) -> str | None:
    """``path`` relative to ``base`` with ``/`` separators when strictly inside it."""
    if path == base or os.path.dirname(base) == base:  # the folder itself, or a drive root
        return None
    prefix = base if base.endswith(os.sep) else base + os.sep
    if not path.startswith(prefix):
        return None
    return path[len(prefix) :].replace(os.sep, "/")
