"""``skill://`` URIs of the Skills extension: ``skill://<name>/SKILL.md`` and the files
beside it, ``skill://<name>/<path>`` (each path segment percent-encoded).

The skill's name is the URI's only skill-path segment (so it stands where RFC 3986 puts
an authority; it is never resolved as a host). Parsing refuses anything that could
name a file outside the skill: empty, ``.`` or ``..`` segments, backslashes, NUL.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit

from skilldeck.engine.model_view import shown_name
from skilldeck.engine.registry import is_skill_name

SCHEME = "skill"


@dataclass(frozen=True, slots=True)
class SkillUri:
    """A parsed ``skill://`` URI: the skill's name and the ``/``-separated file path."""

    name: str
    relative: str


def skill_uri(name: str, relative: str = "SKILL.md") -> str:
    """The URI of ``relative`` (a ``/``-separated path) in skill ``name``."""
    encoded = "/".join(quote(segment, safe="") for segment in relative.split("/"))
    return f"{SCHEME}://{name}/{encoded}"


def parse_skill_uri(uri: str) -> SkillUri | str:
    """The skill and file a URI names, or why it names none (a message for the client)."""
    if "\x00" in uri or "\\" in uri:
        return "the URI contains a NUL or a backslash"
    parts = urlsplit(uri)
    if parts.scheme != SCHEME:
        return f"not a {SCHEME}:// URI"
    if parts.query or parts.fragment:
        return "a skill URI has no query or fragment"
    name = parts.netloc
    if not is_skill_name(name):
        return f"{shown_name(name)!r} is not a skill name"
    raw_segments = parts.path.split("/")[1:]
    segments = [unquote(segment) for segment in raw_segments]
    if not segments or any(
        segment in ("", ".", "..") or "/" in segment or "\\" in segment or "\x00" in segment
        for segment in segments
    ):
        return "the path must be a file inside the skill (no empty, '.' or '..' segments)"
    return SkillUri(name, "/".join(segments))
