"""The client's ``skilldeck`` settings, validated into an engine ``ConfigLayer``.

Settings come from ``initializationOptions`` and ``workspace/configuration`` (section
``skilldeck``). They sit above the environment and the project's config file. A bad value
is reported by its setting name and ignored (the file's value or the default is used);
it never stops the server.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from skilldeck.engine.config import (
    EDITOR_KEYS,
    EDITOR_SETTINGS,
    ConfigLayer,
    SkilldeckConfig,
    anchored,
    read_editor_settings,
)

__all__ = ["EDITOR_SETTINGS", "ParsedSettings", "anchored", "parse_settings", "value_source"]

#: Config field -> the ``skilldeck.*`` setting that mirrors it (the settings table).
SETTING_NAMES = EDITOR_KEYS


@dataclass(frozen=True)
class ParsedSettings:
    """Validated settings plus one human-readable warning per rejected value."""

    layer: ConfigLayer = field(default_factory=lambda: ConfigLayer(origin=EDITOR_SETTINGS))
    warnings: tuple[str, ...] = ()


def parse_settings(raw: object) -> ParsedSettings:
    """Validate a ``skilldeck`` settings object with the settings table's kinds (the
    config file's reader: :func:`skilldeck.engine.config.read_editor_settings`); unknown
    keys are ignored."""
    if raw is None:
        return ParsedSettings()
    if not isinstance(raw, Mapping):
        message = f"skilldeck settings must be an object, got {raw!r}; using the defaults."
        return ParsedSettings(warnings=(message,))
    layer, warnings = read_editor_settings(raw)
    return ParsedSettings(layer, warnings)


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
