"""The client's ``skilldeck`` settings, validated into an engine ``ConfigLayer``.

Settings come from ``initializationOptions`` and ``workspace/configuration`` (section
``skilldeck``). They sit above the environment and the project's config file. A bad value
is reported by its setting name and ignored (the file's value or the default is used);
it never stops the server.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from skilldeck.engine.config import (
    EDITOR_KEYS,
    ConfigError,
    ConfigLayer,
    GitSourceSpec,
    SkilldeckConfig,
    SourceSpec,
    SourceSpecError,
    git_url,
    parse_host_names,
    parse_rule_overrides,
    parse_sources,
    path_problem,
    setting_for_field,
)
from skilldeck.engine.rules import PROFILES, Severity

#: The ``origin`` of the settings layer (see :attr:`SkilldeckConfig.sources`).
EDITOR_SETTINGS = "editor settings"

#: Config field -> the ``skilldeck.*`` setting that mirrors it (the settings table).
SETTING_NAMES = EDITOR_KEYS
#: The least ``catalogDescriptionMaxLength`` the server accepts (the settings table).
_MIN_LENGTH = setting_for_field("catalog_max_description_length").minimum or 0


@dataclass(frozen=True)
class ParsedSettings:
    """Validated settings plus one human-readable warning per rejected value."""

    layer: ConfigLayer = field(default_factory=lambda: ConfigLayer(origin=EDITOR_SETTINGS))
    warnings: tuple[str, ...] = ()


def _string(raw: Mapping[str, object], key: str, warnings: list[str]) -> str | None:
    value = raw.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return value
    warnings.append(f"skilldeck.{key} must be a string, got {value!r}; using the default.")
    return None


def _path(raw: Mapping[str, object], key: str, warnings: list[str]) -> str | None:
    value = _string(raw, key, warnings)
    problem = None if value is None else path_problem(value)
    if problem is not None:
        warnings.append(f"skilldeck.{key} {problem}; using the default.")
        return None
    return value


def parse_settings(raw: object) -> ParsedSettings:
    """Validate a ``skilldeck`` settings object; unknown keys are ignored."""
    if raw is None:
        return ParsedSettings()
    if not isinstance(raw, Mapping):
        message = f"skilldeck settings must be an object, got {raw!r}; using the defaults."
        return ParsedSettings(warnings=(message,))
    warnings: list[str] = []

    dirs: tuple[str, ...] | None = None
    raw_dirs = raw.get("customSkillDirs")
    if raw_dirs is not None:
        if not isinstance(raw_dirs, list) or not all(isinstance(item, str) for item in raw_dirs):
            warnings.append(
                f"skilldeck.customSkillDirs must be a list of paths, got {raw_dirs!r}; "
                "using the default."
            )
        elif problems := [p for p in map(path_problem, raw_dirs) if p is not None]:
            warnings.append(f"skilldeck.customSkillDirs {problems[0]}; using the default.")
        else:
            dirs = tuple(item for item in raw_dirs if item)

    max_length: int | None = None
    raw_length = raw.get("catalogDescriptionMaxLength")
    if raw_length is not None:
        valid = isinstance(raw_length, int) and not isinstance(raw_length, bool)
        if valid and isinstance(raw_length, int) and raw_length >= _MIN_LENGTH:
            max_length = raw_length
        else:
            warnings.append(
                "skilldeck.catalogDescriptionMaxLength must be an integer of at least "
                f"{_MIN_LENGTH}, got {raw_length!r}; using the default."
            )

    include_user: bool | None = None
    raw_include = raw.get("includeUserRoots")
    if raw_include is not None:
        if isinstance(raw_include, bool):
            include_user = raw_include
        else:
            warnings.append(
                f"skilldeck.includeUserRoots must be true or false, got {raw_include!r}; "
                "using the default."
            )

    overrides: dict[str, Severity | None] = {}
    raw_rules = raw.get("rules")
    if isinstance(raw_rules, Mapping):
        for key, level in raw_rules.items():
            try:
                overrides.update(
                    parse_rule_overrides({str(key): level}, origin=None, prefix="skilldeck.rules.")
                )
            except ConfigError as error:
                warnings.append(f"{error}; ignored.")
    elif raw_rules is not None:
        warnings.append(f"skilldeck.rules must be an object, got {raw_rules!r}; ignored.")

    profile = _string(raw, "profile", warnings)
    if profile is not None and profile not in PROFILES:
        warnings.append(
            f"skilldeck.profile must be one of {', '.join(sorted(PROFILES))}, got {profile!r}; "
            "using the default."
        )
        profile = None

    hosts: tuple[str, ...] | None = None
    raw_hosts = raw.get("hosts")
    if raw_hosts is not None:
        try:
            hosts = parse_host_names(raw_hosts, origin=None, shown="skilldeck.hosts")
        except ConfigError as error:
            warnings.append(f"{error}; using the default.")

    layer = ConfigLayer(
        profile=profile,
        remote_sources=_sources(raw.get("sources"), warnings),
        hosts=hosts,
        custom_skill_dirs=dirs,
        dsh_home=_path(raw, "dshHome", warnings),
        agents_home=_path(raw, "agentsHome", warnings),
        bundled_skill_dir=_path(raw, "bundledSkillDir", warnings),
        catalog_max_description_length=max_length,
        include_user_roots=include_user,
        rule_overrides=overrides,
        origin=EDITOR_SETTINGS,
    )
    return ParsedSettings(layer, tuple(warnings))


def _sources(value: object, warnings: list[str]) -> tuple[SourceSpec, ...] | None:
    """``skilldeck.sources``: the ``[[sources]]`` tables as a list of objects, read by the
    config file's parser; one bad entry drops the setting (the file's sources stay)."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(item, Mapping) for item in value):
        warnings.append(
            f"skilldeck.sources must be a list of objects (one per source), got {value!r}; "
            "only the config file's sources are used."
        )
        return None
    try:
        # Local paths stay relative here; ``anchored`` makes them relative to the folder.
        return parse_sources([dict(item) for item in value], "skilldeck.sources", "")
    except SourceSpecError as error:
        warnings.append(f"{error}; only the config file's sources are used.")
        return None


def _anchored_source(folder: str, spec: SourceSpec) -> SourceSpec:
    if not isinstance(spec, GitSourceSpec):
        return spec
    return replace(spec, url=git_url(spec.url, "skilldeck.sources", folder))


def _absolute(folder: str, value: str | None) -> str | None:
    if value is None:
        return None
    return os.path.normpath(os.path.join(folder, os.path.expanduser(value)))


def anchored(layer: ConfigLayer, folder: str) -> ConfigLayer:
    """``layer`` with ``~`` expanded and relative paths made relative to ``folder`` (a
    git source's local path too)."""
    dirs = layer.custom_skill_dirs
    sources = layer.remote_sources
    return replace(
        layer,
        remote_sources=None
        if sources is None
        else tuple(_anchored_source(folder, spec) for spec in sources),
        custom_skill_dirs=None
        if dirs is None
        else tuple(path for path in (_absolute(folder, item) for item in dirs) if path is not None),
        dsh_home=_absolute(folder, layer.dsh_home),
        agents_home=_absolute(folder, layer.agents_home),
        bundled_skill_dir=_absolute(folder, layer.bundled_skill_dir),
    )


def value_source(config: SkilldeckConfig, name: str) -> str:
    """Where ``config``'s value of field ``name`` came from, for a hover.

    ``"default"``, ``"from editor setting `skilldeck.X`"``, ``"from `skilldeck.toml`"``
    (the config file's name) or ``"from `$DSH_HOME`"``.
    """
    origin = config.source_of(name)
    if origin is None:
        return "default"
    if origin == EDITOR_SETTINGS:
        return f"from editor setting `skilldeck.{SETTING_NAMES.get(name, name)}`"
    if os.path.isabs(origin):
        return f"from `{os.path.basename(origin)}`"
    return f"from `{origin}`"
