"""A profile's keys as completion, hover and the JSON Schema show them.

A profile with a host (``claude-code``, ``codex``: :attr:`Profile.host`) documents
``name`` and ``description`` from that agent's facts in :mod:`skilldeck.engine.hosts`
(whether it requires them, what stands in for a missing one, its name rules and limit,
the release observed): the same facts its findings are judged by
(``engine/files/_host_reading.py``), never restated. Every other key, and every key of
the other profiles, is the profile's own :class:`~skilldeck.engine.rules.KeyInfo`.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from skilldeck.engine.hosts import HOSTS, Host
from skilldeck.engine.rules import DESCRIPTION_ABOUT, NAME_ABOUT, KeyInfo, Profile


@functools.cache
def profile_keys(profile: Profile) -> tuple[KeyInfo, ...]:
    """The keys of ``profile``, ``name`` and ``description`` from its host's facts."""
    host = HOSTS[profile.host] if profile.host is not None else None
    if host is None:
        return profile.keys
    return tuple(_from_host(info, host) for info in profile.keys)


def profile_key(profile: Profile, key: str) -> KeyInfo | None:
    """The documentation of ``key`` under ``profile`` (:func:`profile_keys`)."""
    for info in profile_keys(profile):
        if info.key == key:
            return info
    return None


_STANDS_IN = {
    "folder": "is replaced by the folder's name",
    "fallback": "is replaced by the first line of the body",
    "unlisted": "loads the skill but leaves it out of the listing",
    "use": "is read as it is",
    "drop": "means the skill is not loaded",
}


def _from_host(info: KeyInfo, host: Host) -> KeyInfo:
    reading = host.reading
    who = host.version
    if info.key == "name":
        rules = reading.name
        if host.requires_name:
            rule = f"**Required by {who}**: without one the skill is not loaded;"
        else:
            rule = f"**Optional in {who}**: a missing or empty name {_STANDS_IN[rules.missing]};"
        if reading.display_name:
            rule += " the skill is keyed and listed by its folder, the name shown beside it;"
        if rules.scalar == "use":
            rule += " a number or boolean is read as text;"
        if not host.name_is_kebab:
            rule += " any text is taken as written (kebab-case is not required);"
        if host.name_max is not None:
            rule += f" a name longer than {host.name_max} characters is not loaded;"
        documentation = (
            f"{NAME_ABOUT} {rule.rstrip(';')} (observed, docs/hosts.md). skilldeck's engine "
            "and the Agent Skills standard require a kebab-case name: write one, the "
            "folder's, to keep the skill portable."
        )
        return replace(
            info,
            documentation=documentation,
            required=host.requires_name,
            max_length=host.name_max,
        )
    if info.key == "description":
        rules = reading.description
        if host.requires_description:
            rule = (
                f"**Required by {who}**: a missing or empty description, or one that is "
                "not text, means the skill is not loaded;"
            )
        else:
            rule = (
                f"**Optional in {who}**: a missing or empty description "
                f"{_STANDS_IN[rules.missing]};"
            )
        if rules.scalar == "use":
            rule += " a number or boolean is read as text;"
        documentation = (
            f"{DESCRIPTION_ABOUT} {rule.rstrip(';')} (observed, docs/hosts.md). skilldeck's "
            "engine and the Agent Skills standard require one: write it, to keep the "
            "skill portable."
        )
        return replace(info, documentation=documentation, required=host.requires_description)
    return info
