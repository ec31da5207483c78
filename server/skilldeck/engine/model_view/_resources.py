"""Resolving a resource a skill's body mentions, never outside the skill (SPEC section 5).

A skill may mention files beside its ``SKILL.md`` (``reference.md``, ``scripts/run.sh``)
or, for a remote skill, URLs relative to its base URL. This module turns one such
reference into a location, and refuses anything that would leave the skill:

- directory base: ``..`` segments, absolute paths, ``~``, NUL bytes, URLs other than
  ``file:`` and any path whose symlink-resolved form lies outside the skill's folder
  (also symlink-resolved) give ``None``. The folder itself is not a resource.
- URL base (``http``/``https`` only): the base is treated as a folder (a ``/`` is
  implied at its end); the reference is joined with ``urljoin`` and must stay on the same
  scheme and host, strictly below the base path. Encoded dot segments and backslashes
  are refused.
- opaque base or no base: the provider manages resources; ``None``.

Nothing here lists a folder or reads a file; it only checks where a name points.
Paths are taken literally: ``#fragment`` or ``?query`` parts are not stripped.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote, urljoin, urlsplit
from urllib.request import url2pathname

from skilldeck.engine.registry import DirectoryResourceBase, SkillSummary, UrlResourceBase

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:")
_WEB_SCHEMES = frozenset({"http", "https"})


@dataclass(frozen=True, slots=True)
class ResolvedResource:
    """Where a reference points: a local ``path`` (absolute, symlinks resolved) or a ``url``."""

    kind: Literal["path", "url"]
    location: str


def resolve_resource(skill: SkillSummary, reference: str) -> ResolvedResource | None:
    """Resolve ``reference`` against ``skill.resource_base``; ``None`` when refused.

    Accepts a ``SkillSummary`` or a ``SkillDefinition`` (only the resource base is read).
    """
    reference = reference.strip()
    if not reference or "\x00" in reference:
        return None
    base = skill.resource_base
    if isinstance(base, DirectoryResourceBase):
        return _resolve_in_directory(base.path, reference)
    if isinstance(base, UrlResourceBase):
        return _resolve_under_url(base.url, reference)
    return None


def _resolve_in_directory(folder: str, reference: str) -> ResolvedResource | None:
    scheme = _SCHEME.match(reference)
    if scheme is not None and _WINDOWS_DRIVE.match(reference) is None:
        if scheme.group(1).lower() != "file":
            return None
        parts = urlsplit(reference)
        if parts.netloc not in ("", "localhost"):
            return None
        candidate = url2pathname(parts.path)
        if "\x00" in candidate or not os.path.isabs(candidate):
            return None
        return _inside(folder, candidate)
    if (
        reference.startswith(("/", "\\", "~"))
        or _WINDOWS_DRIVE.match(reference) is not None
        or os.path.isabs(reference)
    ):
        return None
    if any(segment == ".." for segment in re.split(r"[\\/]", reference)):
        return None
    return _inside(folder, os.path.join(folder, reference))


def _inside(folder: str, candidate: str) -> ResolvedResource | None:
    """``candidate`` resolved, when it lies strictly inside ``folder`` (both resolved)."""
    root = os.path.realpath(folder)
    resolved = os.path.realpath(candidate)
    try:
        if os.path.commonpath([root, resolved]) != root or resolved == root:
            return None
    except ValueError:  # different drives on Windows
        return None
    return ResolvedResource("path", resolved)


def _resolve_under_url(base_url: str, reference: str) -> ResolvedResource | None:
    base = urlsplit(base_url)
    if base.scheme not in _WEB_SCHEMES or not base.netloc or "\\" in reference:
        return None
    base_path = base.path if base.path.endswith("/") else base.path + "/"
    folder_url = base._replace(path=base_path, query="", fragment="").geturl()
    joined = urljoin(folder_url, reference)
    target = urlsplit(joined)
    if (
        target.scheme != base.scheme
        or target.netloc.lower() != base.netloc.lower()
        or not target.path.startswith(base_path)
        or target.path == base_path
    ):
        return None
    below = target.path[len(base_path) :]
    if any(segment in (".", "..") for segment in unquote(below).replace("\\", "/").split("/")):
        return None
    return ResolvedResource("url", joined)
