"""The user's settings: every setting declared once (the settings schema), ``skilldeck.toml``
/ ``[tool.skilldeck]`` / flags / environment / editor merged into :class:`SkilldeckConfig`
(with where each value came from), the rule settings (profile, severities, overlap
thresholds, skills declared distinct) and the ``[[sources]]`` entries.

Invariant: a setting is declared and validated in one place; a bad value is a
:class:`ConfigError` naming the file and key, never a silent default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.config._distinct import DistinctGroups as DistinctGroups
    from skilldeck.engine.config._distinct import DistinctMatcher as DistinctMatcher
    from skilldeck.engine.config._distinct import declare_distinct as declare_distinct
    from skilldeck.engine.config._distinct import validate_distinct as validate_distinct
    from skilldeck.engine.config._numbers import finite_number as finite_number
    from skilldeck.engine.config._numbers import validate_threshold as validate_threshold
    from skilldeck.engine.config._rule_settings import RuleSettings as RuleSettings
    from skilldeck.engine.config._setting_kinds import Kind as Kind
    from skilldeck.engine.config._setting_kinds import SettingProblem as SettingProblem
    from skilldeck.engine.config._setting_kinds import document_json as document_json
    from skilldeck.engine.config._setting_kinds import path_problem as path_problem
    from skilldeck.engine.config._settings_schema import (
        DEFAULT_NEAR_DUPLICATE_THRESHOLD as DEFAULT_NEAR_DUPLICATE_THRESHOLD,
    )
    from skilldeck.engine.config._settings_schema import (
        DEFAULT_OVERLAP_THRESHOLD as DEFAULT_OVERLAP_THRESHOLD,
    )
    from skilldeck.engine.config._settings_schema import EDITOR_KEYS as EDITOR_KEYS
    from skilldeck.engine.config._settings_schema import SETTINGS as SETTINGS
    from skilldeck.engine.config._settings_schema import Setting as Setting
    from skilldeck.engine.config._settings_schema import setting_for_field as setting_for_field
    from skilldeck.engine.config._settings_schema import (
        settings_json_schema as settings_json_schema,
    )
    from skilldeck.engine.config._skilldeck_config import CONFIG_FILE_NAMES as CONFIG_FILE_NAMES
    from skilldeck.engine.config._skilldeck_config import EDITOR_SETTINGS as EDITOR_SETTINGS
    from skilldeck.engine.config._skilldeck_config import ConfigError as ConfigError
    from skilldeck.engine.config._skilldeck_config import ConfigLayer as ConfigLayer
    from skilldeck.engine.config._skilldeck_config import SkilldeckConfig as SkilldeckConfig
    from skilldeck.engine.config._skilldeck_config import anchored as anchored
    from skilldeck.engine.config._skilldeck_config import (
        declares_project_root as declares_project_root,
    )
    from skilldeck.engine.config._skilldeck_config import find_config_file as find_config_file
    from skilldeck.engine.config._skilldeck_config import load_config_file as load_config_file
    from skilldeck.engine.config._skilldeck_config import (
        load_config_file_keeping_valid as load_config_file_keeping_valid,
    )
    from skilldeck.engine.config._skilldeck_config import (
        read_editor_settings as read_editor_settings,
    )
    from skilldeck.engine.config._source_spec import GitSourceSpec as GitSourceSpec
    from skilldeck.engine.config._source_spec import McpSourceSpec as McpSourceSpec
    from skilldeck.engine.config._source_spec import SourceSpec as SourceSpec
    from skilldeck.engine.config._source_spec import SourceSpecError as SourceSpecError
    from skilldeck.engine.config._source_spec import git_url as git_url
    from skilldeck.engine.config._source_spec import parse_sources as parse_sources
    from skilldeck.engine.config._source_spec import redacted as redacted
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_distinct": (
                "DistinctGroups",
                "DistinctMatcher",
                "declare_distinct",
                "validate_distinct",
            ),
            "_numbers": (
                "finite_number",
                "validate_threshold",
            ),
            "_rule_settings": ("RuleSettings",),
            "_setting_kinds": (
                "Kind",
                "SettingProblem",
                "document_json",
                "path_problem",
            ),
            "_settings_schema": (
                "DEFAULT_NEAR_DUPLICATE_THRESHOLD",
                "DEFAULT_OVERLAP_THRESHOLD",
                "EDITOR_KEYS",
                "SETTINGS",
                "Setting",
                "setting_for_field",
                "settings_json_schema",
            ),
            "_skilldeck_config": (
                "CONFIG_FILE_NAMES",
                "EDITOR_SETTINGS",
                "ConfigError",
                "ConfigLayer",
                "SkilldeckConfig",
                "anchored",
                "declares_project_root",
                "find_config_file",
                "load_config_file",
                "load_config_file_keeping_valid",
                "read_editor_settings",
            ),
            "_source_spec": (
                "GitSourceSpec",
                "McpSourceSpec",
                "SourceSpec",
                "SourceSpecError",
                "git_url",
                "parse_sources",
                "redacted",
            ),
        },
    )
