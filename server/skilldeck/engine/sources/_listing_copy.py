"""The last good listing of an ``mcp`` source, kept in the user cache dir so a later run
that cannot reach the server serves it (marked incomplete).

``<cache>/sources/mcp-<name>-<digest of command or url>/listing.json`` holds, per skill,
its name, URI, SHA-256 and the ``SKILL.md`` bytes that matched it, plus when it was
read and the last error. It is replaced atomically; an entry whose bytes no longer
match its digest is ignored. No token or header is ever written here.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from skilldeck.engine.config import McpSourceSpec
from skilldeck.engine.disk import load_text, read_cache_text

_FILE = "listing.json"


@dataclass(frozen=True)
class CopiedSkill:
    """One ``SKILL.md`` as a server served it (its bytes matched ``sha256``)."""

    name: str
    uri: str
    data: bytes


@dataclass(frozen=True)
class ListingCopy:
    """The last good listing: its skills, when it was read, and the last error since."""

    skills: tuple[CopiedSkill, ...]
    read_at: float
    error: str | None = None


def listing_dir(spec: McpSourceSpec, cache_dir: Path) -> Path:
    where = spec.url if spec.url is not None else "\0".join(spec.command or ())
    digest = hashlib.sha256(where.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return cache_dir / "sources" / f"mcp-{spec.name}-{digest}"


def save_listing(folder: Path, copy: ListingCopy) -> None:
    """Replace the stored listing with ``copy``."""
    payload = {
        "read_at": copy.read_at,
        "error": copy.error,
        "skills": [
            {
                "name": skill.name,
                "uri": skill.uri,
                "sha256": hashlib.sha256(skill.data).hexdigest(),
                "data": base64.b64encode(skill.data).decode("ascii"),
            }
            for skill in copy.skills
        ],
    }
    folder.mkdir(parents=True, exist_ok=True)
    temporary = folder / f".{_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
    temporary.write_text(json.dumps(payload), encoding="utf-8")
    os.replace(temporary, folder / _FILE)


def note_failure(folder: Path, error: str) -> None:
    """Keep the stored listing, recording the failed read."""
    old = load_listing(folder)
    if old is not None:
        save_listing(folder, ListingCopy(old.skills, old.read_at, error))


def load_listing(folder: Path) -> ListingCopy | None:
    """The stored listing, ``None`` when missing or damaged (bad entries are dropped)."""
    try:
        data = load_text(read_cache_text(folder / _FILE))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("skills"), list):
        return None
    read_at = data.get("read_at")
    error = data.get("error")
    if not isinstance(read_at, int | float) or not (error is None or isinstance(error, str)):
        return None
    skills: list[CopiedSkill] = []
    for entry in data["skills"]:
        try:
            raw = base64.b64decode(entry["data"], validate=True)
            if hashlib.sha256(raw).hexdigest() != entry["sha256"]:
                continue
            skills.append(CopiedSkill(str(entry["name"]), str(entry["uri"]), raw))
        except (KeyError, TypeError, ValueError):
            continue
    return ListingCopy(tuple(skills), float(read_at), error)
