"""A JSON Schema for skill frontmatter, generated from a profile's documented keys.

``skilldeck schema [--profile P]`` prints it; editors with a YAML language server can
use it for frontmatter completion and hover outside skilldeck's own server. The schema
is a convenience view of the profile, not the judge: the rules in ``rules.py`` decide
what the engine accepts (e.g. the fail-closed handling of invocation booleans).

Generated per key from :class:`~skilldeck.engine.rules.KeyInfo`: ``description``
(the key's documentation), the JSON type, ``default``, ``examples`` (the completion
values), ``required``, and ``additionalProperties: false`` for a closed profile. The
only constraints not read from ``KeyInfo`` are the kebab-case name pattern (SPEC
section 2) and the Agent Skills standard's length limits under ``agentskills``. Under a
host profile the keys are its host's (:func:`profile_keys`): the name pattern only where
that agent requires kebab-case, and a number or boolean accepted where it reads one as
text, so an editor's YAML validator never calls a skill broken that the agent loads.
"""

from __future__ import annotations

from collections.abc import Mapping

from skilldeck.engine.frontmatter._profile_keys import profile_keys
from skilldeck.engine.hosts import HOSTS, Host
from skilldeck.engine.registry import SKILL_NAME_PATTERN
from skilldeck.engine.rules import DEFAULT_PROFILE, KeyInfo, get_profile

JSON_SCHEMA_DIALECT = "http://json-schema.org/draft-07/schema#"
SCHEMA_ID = "https://github.com/skilldeck/skilldeck/schema/frontmatter-{profile}.json"

#: YAML booleans plus the string spellings the engine accepts, case-insensitive.
_BOOLEAN_SPELLINGS = (
    "^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[Yy][Ee][Ss]|[Nn][Oo]|[Oo][Nn]|[Oo][Ff][Ff]|1|0)$"
)

#: Constraints of the Agent Skills standard that ``KeyInfo`` has no field for (lengths
#: come from ``KeyInfo.max_length``).
_PROFILE_LIMITS: Mapping[str, Mapping[str, Mapping[str, object]]] = {
    "agentskills": {
        "metadata": {"additionalProperties": {"type": "string"}},
    }
}


def frontmatter_schema(profile: str = DEFAULT_PROFILE) -> dict[str, object]:
    """The JSON Schema (draft-07) of frontmatter under ``profile``.

    Raises ``ValueError`` for an unknown profile (listing the valid names).
    """
    chosen = get_profile(profile)
    limits = _PROFILE_LIMITS.get(chosen.name, {})
    host = HOSTS[chosen.host] if chosen.host is not None else None
    keys = profile_keys(chosen)
    properties: dict[str, object] = {}
    for info in keys:
        prop = key_schema(info, kebab=host is None or host.name_is_kebab)
        if host is not None and info.key in _TEXT_KEYS and _reads_scalars(host, info.key):
            prop["type"] = ["string", "number", "boolean"]
        prop.update(limits.get(info.key, {}))
        properties[info.key] = prop
    return {
        "$schema": JSON_SCHEMA_DIALECT,
        "$id": SCHEMA_ID.format(profile=chosen.name),
        "title": f"Skill frontmatter ({chosen.name} profile)",
        "description": chosen.description,
        "type": "object",
        "properties": properties,
        "required": [info.key for info in keys if info.required],
        "additionalProperties": not chosen.closed,
    }


#: The keys a host that reads scalars as text accepts as numbers or booleans too.
_TEXT_KEYS = frozenset({"name", "description"})


def _reads_scalars(host: Host, key: str) -> bool:
    """Whether ``host`` loads a number or boolean as ``key`` (its text, or its stand-in)."""
    rules = host.reading.name if key == "name" else host.reading.description
    return rules.scalar != "drop"


def key_schema(info: KeyInfo, *, kebab: bool = True) -> dict[str, object]:
    """The schema of one key's value (``kebab``: ``name`` must be kebab-case)."""
    schema: dict[str, object] = {}
    notes = "" if info.enforced else " (not enforced by skilldeck)"
    schema["description"] = f"{_plain(info.documentation)}{notes}"
    schema["markdownDescription"] = info.documentation
    if info.value_type == "boolean":
        schema["anyOf"] = [
            {"type": "boolean"},
            {"type": "string", "pattern": _BOOLEAN_SPELLINGS},
            {"enum": [0, 1]},
        ]
        if info.default is not None:
            schema["default"] = info.default == "true"
    else:
        json_type = {"string": "string", "mapping": "object", "list": "array"}.get(info.value_type)
        if json_type is not None:
            schema["type"] = json_type
        if info.default is not None:
            schema["default"] = info.default
        if info.value_type == "string" and info.required:
            schema["minLength"] = 1
    if info.max_length is not None:
        schema["maxLength"] = info.max_length
    if info.key == "name" and kebab:
        schema["pattern"] = SKILL_NAME_PATTERN.pattern
    if info.values and info.value_type != "boolean":
        schema["examples"] = list(info.values)
    return schema


def _plain(markdown: str) -> str:
    """Documentation without Markdown emphasis and code marks, for plain-text hovers."""
    return markdown.replace("**", "").replace("`", "")
