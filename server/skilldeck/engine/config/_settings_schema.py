"""Every skilldeck setting, declared once: its config field, file key, editor key, type,
default and limits.

The config file parser (:mod:`skilldeck.engine.config._skilldeck_config`), the language
server's settings (:mod:`skilldeck.lsp.settings`) and the VS Code extension (``package.json``
``contributes.configuration`` and ``src/settings.ts``) read their names and limits here
or are checked against this table by tests (``tests/test_settings_schema.py`` for
``package.json``; the extension's own unit test ties ``settings.ts`` to ``package.json``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from skilldeck.engine.text import (
    DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH,
    MIN_CATALOG_DESCRIPTION_MAX_LENGTH,
)

Kind = Literal[
    "profile",
    "path",
    "paths",
    "integer",
    "boolean",
    "rules",
    "string",
    "codes",
    "overlap",
    "sources",
    "hosts",
]


@dataclass(frozen=True)
class Setting:
    """One setting. ``field`` is the :class:`~skilldeck.engine.config.ConfigLayer` field
    it fills (``None`` for a file-only switch); ``file_key`` its key in ``skilldeck.toml``
    (``None``: not a file setting); ``editor_key`` its key below ``skilldeck.`` in an
    editor (``None``: not an editor setting); ``client_only`` settings are the editor's
    own and never reach the server."""

    kind: Kind
    default: object
    field: str | None = None
    file_key: str | None = None
    editor_key: str | None = None
    minimum: int | None = None
    client_only: bool = False


SETTINGS: tuple[Setting, ...] = (
    Setting("profile", "dsh", "profile", "profile", "profile"),
    Setting("paths", (), "custom_skill_dirs", "custom-skill-dirs", "customSkillDirs"),
    Setting("path", None, "dsh_home", None, "dshHome"),
    Setting("path", None, "agents_home", None, "agentsHome"),
    Setting("path", None, "bundled_skill_dir", "bundled-skill-dir", "bundledSkillDir"),
    Setting("boolean", False, "bundled_skills", "bundled-skills"),
    Setting(
        "integer",
        DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH,
        "catalog_max_description_length",
        "catalog-description-max-length",
        "catalogDescriptionMaxLength",
        minimum=MIN_CATALOG_DESCRIPTION_MAX_LENGTH,
    ),
    Setting("boolean", True, "include_user_roots", None, "includeUserRoots"),
    Setting("rules", {}, "rule_overrides", "rules", "rules"),
    Setting("codes", (), None, "ignore"),
    Setting("hosts", ("dsh",), "hosts", "hosts", "hosts"),
    Setting("boolean", False, None, "project-root"),
    # ``[overlap]``: ``threshold`` and ``near-duplicate-threshold`` (SD801 / SD802)
    Setting("overlap", {}, None, "overlap"),
    # ``[[sources]]`` tables: remote skill sources (engine/config/_source_spec.py, docs/sources.md);
    # ``skilldeck.sources`` is an array of objects with the same keys, merged by name.
    Setting("sources", (), "remote_sources", "sources", "sources"),
    # `skilldeck mcp --require-safe`: skills with error-level SD10xx findings are not
    # served (docs/safety.md); the MCP server's own switch, not the editor's.
    Setting("boolean", False, "mcp_require_safe", "mcp-require-safe"),
    # The editor's own settings: they shape the extension's views, never the verdicts.
    Setting("integer", 10000, editor_key="catalogTokenBudget", minimum=0, client_only=True),
    Setting("integer", 100, editor_key="skillsView.groupThreshold", minimum=0, client_only=True),
    Setting("string", "root", editor_key="skillsView.groupBy", client_only=True),
    Setting("string", "useBundled", editor_key="importStrategy", client_only=True),
    Setting("string", "", editor_key="server.pythonPath", client_only=True),
    Setting("string", "off", editor_key="trace.server", client_only=True),
)

#: ``skilldeck.toml`` keys, in table order.
FILE_KEYS: tuple[str, ...] = tuple(s.file_key for s in SETTINGS if s.file_key is not None)

#: Config field -> the editor setting (below ``skilldeck.``) that mirrors it.
EDITOR_KEYS: dict[str, str] = {
    s.field: s.editor_key
    for s in SETTINGS
    if s.field is not None and s.editor_key is not None and not s.client_only
}


def setting_for_field(name: str) -> Setting:
    """The setting that fills the config field ``name`` (``KeyError`` when none does)."""
    for setting in SETTINGS:
        if setting.field == name:
            return setting
    raise KeyError(name)


def finite_number(value: object) -> float | None:
    """``value`` as a float when it is a finite number (an integer or a float, never a
    bool); ``None`` otherwise. Every setting that takes a number reads it through here:
    TOML spells ``inf`` and ``nan``, and an editor's JSON may carry them too, and no
    timeout, interval or threshold means anything when it is not finite."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer beyond any float
        return None
    return number if math.isfinite(number) else None
